"""Functions: sub-graphs that an op holds -- mirrors TensorFlow's FuncGraph
(python/framework/func_graph.py) and the nest utilities (python/util/nest.py), as TF 2's
functional control flow (cond_v2.py, while_v2.py) uses them.

`tf.cond` and `tf.while_loop` take Python functions. The sandbox calls each function ONCE, while
the graph is built, inside a FuncGraph: a Graph of its own whose ops become the *body* of one op
of the outer graph (an `If`, a `While`). The body travels with that op as plain data (node defs
in an attr, like any other attr), and the op's kernel runs it with a nested Executor on the
op's device (`NodeContext.function` in runtime/executor.py) -- only when, and as often as, the
kernel decides: the branch that was taken, each iteration of a loop.

Inside a FuncGraph a tensor of an outer graph cannot be an input (it lives in another graph).
Using one *captures* it: the FuncGraph adds a Placeholder standing for it, and the outer tensor
becomes an input of the functional op -- computed before that op runs, like any input.
A variable is captured the same way when an op reads it (its value is an input), but an op
that *changes* it (Assign, AssignAdd ...) needs the variable itself: the FuncGraph then copies
the VariableV2 node (same name, so it finds the same storage in the task's resource manager),
and the functional op is colocated with the variable, so that it runs where the variable lives.

    function attr = {"name": "cond/then", "nodes": [node defs], "inputs": ["Placeholder:0", ..],
                     "outputs": ["add:0", ...]}
"""
import collections
import contextlib

from ..framework.graph import Graph
from ..framework.operation import Operation
from ..framework.tensor import Tensor, convert_to_tensor

__all__ = []

# -- nested structures (python/util/nest.py), the few functions control flow needs ----------


def is_sequence(x):
    return isinstance(x, (list, tuple, dict)) and not isinstance(x, (str, bytes))


def flatten(structure):
    """[leaves] of a nested list / tuple / namedtuple / dict (dicts in sorted key order)."""
    if isinstance(structure, dict):
        return [leaf for k in sorted(structure) for leaf in flatten(structure[k])]
    if is_sequence(structure):
        return [leaf for item in structure for leaf in flatten(item)]
    return [structure]


def is_tensor_array(x):
    """A tf.TensorArray (ops/tensor_array_ops.py) crosses a function's boundary as its flow
    tensor, and is rebuilt around the tensor on the other side -- TF's
    _convert_tensorarray_to_flow / _make_tensor_array (control_flow_ops.py)."""
    return getattr(type(x), "_is_tensor_array", False)


def to_flow(x):
    """A TensorArray's flow tensor; anything else unchanged."""
    return x.flow if is_tensor_array(x) else x


def pack_sequence_as(structure, flat):
    """The inverse of flatten: `flat`'s leaves in the shape of `structure` (a TensorArray leaf
    of `structure` given a tensor becomes a TensorArray around that tensor, its flow)."""
    flat = list(flat)

    def pack(s):
        if isinstance(s, dict):
            return type(s)((k, pack(s[k])) for k in sorted(s))
        if is_sequence(s):
            items = [pack(item) for item in s]
            if isinstance(s, tuple) and hasattr(s, "_fields"):
                return type(s)(*items)
            return type(s)(items)
        leaf = flat.pop(0)
        if is_tensor_array(s) and isinstance(leaf, Tensor):
            return s._with_flow(leaf)
        return leaf
    result = pack(structure)
    if flat:
        raise ValueError(f"pack_sequence_as: {len(flat)} leaves left over for {structure!r}.")
    return result


def assert_same_structure(a, b, what):
    def shape(s):
        if isinstance(s, dict):
            return ("dict", tuple((k, shape(s[k])) for k in sorted(s)))
        if is_sequence(s):
            return ("seq", tuple(shape(x) for x in s))
        return "."
    if shape(a) != shape(b):
        raise ValueError(f"{what} must have the same nested structure: {a!r} and {b!r} differ.")


# -- FuncGraph -----------------------------------------------------------------------------

class FuncGraph(Graph):
    """The graph a function's ops are built in; it captures what it uses of `outer`."""

    def __init__(self, name, outer):
        super().__init__()
        self.name = name
        self.outer = outer
        self.seed = outer.seed
        self.captures = collections.OrderedDict()      # outer tensor -> inner Placeholder
        self.variables = {}                            # outer VariableV2 op -> inner copy
        self.outer_control = []                        # outer ops the body said to wait for
        self.inputs = []                               # inner placeholders, in input order

    @contextlib.contextmanager
    def building(self):
        """This graph as the default graph, and every op that would be added to an outer graph
        meanwhile added here instead: an op function puts its op in the graph of its inputs
        (framework/op_def.py's apply_op), and `v.assign(1.0)` inside a branch has an outer
        input -- TF makes the same choice (ops._get_graph_from_inputs when building a
        function). Its outer inputs are then captured."""
        redirected = []
        g = self.outer
        while g is not None:
            redirected.append((g, g.__dict__.get("create_op")))
            g.create_op = self.create_op  # (an instance attribute: hides the method)
            g = getattr(g, "outer", None)
        try:
            with self.as_default():
                yield self
        finally:
            for g, saved in reversed(redirected):
                if saved is None:
                    del g.create_op
                else:
                    g.create_op = saved

    def make_input(self, dtype, shape, name):
        """A Placeholder that is an argument of the function (a loop variable...)."""
        t = FuncGraph.create_op(self, "Placeholder", [], [dtype], name=name,
                                attrs={"dtype": dtype, "shape": shape}).outputs[0]
        self.inputs.append(t)
        return t

    def capture(self, tensor):
        """The inner tensor standing for `tensor` of an outer graph."""
        if tensor.graph is self:
            return tensor
        if tensor in self.captures:
            return self.captures[tensor]
        if tensor.graph is not self.outer:                 # a grand-parent's: nested functions
            if not isinstance(self.outer, FuncGraph):
                raise ValueError(f"Tensor {tensor.name!r} belongs to another graph.")
            tensor = self.outer.capture(tensor)
            if tensor in self.captures:
                return self.captures[tensor]
        dtype = tensor.dtype.base_dtype
        inner = FuncGraph.create_op(self, "Placeholder", [], [dtype], name="capture",
                                    attrs={"dtype": dtype, "shape": tensor.get_shape()}
                                    ).outputs[0]
        inner.set_shape(tensor.get_shape())
        self.captures[tensor] = inner
        return inner

    def capture_variable(self, ref):
        """A copy of the outer VariableV2 node behind reference `ref`, for an op that changes
        the variable inside the function."""
        op = ref.op
        if op.graph is not self.outer:
            if not isinstance(self.outer, FuncGraph):
                raise ValueError(f"Variable {op.name!r} belongs to another graph.")
            ref = self.outer.capture_variable(ref)
            op = ref.op
        if op.type != "VariableV2":
            raise ValueError(f"Op {op.name!r} ({op.type}) takes a variable reference that is "
                             "not a variable; the sandbox's control flow can change only "
                             "variables made by tf.Variable / tf.get_variable.")
        if op not in self.variables:
            self._copying = True
            try:
                copy = FuncGraph.create_op(self, "VariableV2", [], [op.outputs[0].dtype],
                                           name=op.name + "/", attrs=op.attrs)
            finally:
                self._copying = False
            copy._set_attr("_class", [f"loc:@{op.name}".encode()])
            self.variables[op] = copy
        return self.variables[op].outputs[0]

    def create_op(self, op_type, inputs, dtypes=None, input_types=None, name=None, attrs=None,
                  op_def=None, compute_shapes=True, compute_device=True):
        from ..framework.op_def import get_op_def
        ref_positions = get_op_def(op_type).ref_inputs if op_type != "Placeholder" else ()
        inner = []
        for i, t in enumerate(inputs):
            if isinstance(t, Tensor) and t.graph is not self:
                t = self.capture_variable(t) if (i in ref_positions and t.dtype.is_ref) \
                    else self.capture(t)
            inner.append(t)
        if op_type == "VariableV2" and not getattr(self, "_copying", False):
            raise ValueError(
                f"Variable {(name or '').rstrip('/')!r} is created inside the function of a "
                f"tf.cond / tf.while_loop ({self.name}). The sandbox runs such a function as "
                "the body of one op, where a variable cannot be born: create the variable "
                "before the tf.cond / tf.while_loop and use it inside.")
        return Graph.create_op(self, op_type, inner, dtypes, input_types, name, attrs, op_def,
                               compute_shapes, compute_device=False)

    def control_dependencies(self, control_inputs):
        """Outer ops become control inputs of the functional op; inner ones stay inside."""
        if control_inputs is None:
            return super().control_dependencies(None)
        inner = []
        for c in control_inputs:
            c = c._as_graph_element() if hasattr(c, "_as_graph_element") and not isinstance(
                c, (Tensor, Operation)) else c
            op = c.op if isinstance(c, Tensor) else c
            if isinstance(op, Operation) and op.graph is not self:
                self.outer_control.append(op)
            else:
                inner.append(c)
        return super().control_dependencies(inner)

    def function_attr(self, outputs):
        """The plain data that travels in the functional op's attrs."""
        return {"name": self.name, "nodes": [op.node_def for op in self.get_operations()],
                "inputs": [t.name for t in self.inputs] + [t.name for t in
                                                            self.captures.values()],
                "outputs": [t.name for t in outputs]}

    def outer_inputs(self):
        return list(self.captures)


def to_output_tensors(values, what):
    """Flattened function results as tensors (an Operation becomes a `True` that waits for it,
    as TF 1's cond makes of an op a branch returns)."""
    out = []
    for v in flatten(values):
        if v is None:
            raise ValueError(f"{what} returned None; return tensors or ops.")
        v = to_flow(v)
        if isinstance(v, Operation):
            from ..framework.graph import get_default_graph
            from .constant_op import constant
            with get_default_graph().control_dependencies([v]):
                v = constant(True)
        out.append(convert_to_tensor(v))
    return out


def refresh(attr, graph):
    """Re-reads a function's node defs after ops were added to it (its gradient)."""
    attr["nodes"] = [op.node_def for op in graph.get_operations()]

