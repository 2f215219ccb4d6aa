"""The op registry -- mirrors TensorFlow's OpDef registry, kernel registry and gradient registry
in one place (framework/op_def_registry.py, kernels, ops.RegisterGradient).

Every op type is one small class that tells its whole story, as in micrograd:

    class Sigmoid(OpDef):
        '''y = 1 / (1 + exp(-x))'''
        shape = unchanged_shape
        def kernel(x):                 # forward: NumPy arrays in, NumPy array out
            return 1 / (1 + np.exp(-x))
        def gradient(op, dy):          # backward: builds *graph ops* for dL/dx
            return [sigmoid_grad(op.outputs[0], dy)]

Defining the class registers it under its name (or `type_name`). The kernel receives the op's
inputs as arrays and its public attributes as keyword arguments. Kernels never modify their
inputs; a kernel that needs the task's state (variables, random generators, queues) sets
`uses_context = True` and receives `(ctx, step, *inputs, **attrs)` -- see runtime/executor.py.
"""
import contextlib

from . import errors
from .tensor_shape import TensorShape, unknown_shape

__all__ = ["OpDef", "get_op_def", "registered_ops", "RegisterGradient", "NotDifferentiable",
           "no_gradient", "get_gradient_function", "apply_op", "unchanged_shape",
           "unknown_shape_fn", "scalar_shape"]

_REGISTRY = {}
_GRADIENT_OVERRIDES = {}


class OpDef:
    """Base of every op definition. Subclasses set the class attributes below."""

    type_name = None        # registry name; defaults to the class name
    kernel = None           # forward computation on NumPy arrays
    gradient = None         # fn(op, *output_grads) -> list of input grads (None = no gradient)
    shape = None            # fn(op) -> TensorShape or list of TensorShapes (None = unknown)
    multi_output = False    # kernel returns a tuple, one array per output
    stateful = False        # touches state or randomness: never pruned as a constant, never cached
    uses_context = False    # kernel(ctx, step, *inputs, **attrs)
    ref_inputs = ()         # input positions that take a variable reference, not its value
    ref_outputs = ()        # output positions that are variable references
    differentiable = True   # False: gradients() treats it as a constant (no error)

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if cls.__dict__.get("abstract", False):   # a shared base class, not an op
            return
        name = cls.__dict__.get("type_name") or cls.__name__
        cls.type_name = name
        _REGISTRY[name] = cls


def get_op_def(op_type):
    """The OpDef registered as `op_type` (the runtime has imported every ops module: see
    runtime/executor.py)."""
    op_def = _REGISTRY.get(op_type)
    if op_def is None:
        raise errors.NotFoundError(None, None, f"Op type not registered {op_type!r} in the "
                                   "sandbox. Only the TF ops the sandbox implements can run; "
                                   "see sandbox/ops/ for the list.")
    return op_def


def registered_ops():
    return dict(_REGISTRY)


# -- gradients registered by name (tf.RegisterGradient) -------------------------------

class RegisterGradient:
    """Decorator: `@tf.RegisterGradient('MyOp') def _grad(op, grad): ...`."""

    def __init__(self, op_type):
        if not isinstance(op_type, str):
            raise TypeError("op_type must be a string")
        self._op_type = op_type

    def __call__(self, f):
        _GRADIENT_OVERRIDES[self._op_type] = f
        return f


def NotDifferentiable(op_type):  # noqa: N802 -- TF's name
    """Declares that `op_type` has no gradient (gradients() treats its outputs as constants)."""
    _GRADIENT_OVERRIDES[op_type] = None


no_gradient = NotDifferentiable


def get_gradient_function(op):
    """The gradient function for `op`, or None when it is not differentiable."""
    op_type = op._attrs.get("_gradient_op_type", op.type)    # Graph.gradient_override_map
    if op_type in _GRADIENT_OVERRIDES:
        return _GRADIENT_OVERRIDES[op_type]
    op_def = _REGISTRY.get(op_type)
    if op_def is None:
        raise LookupError(f"No gradient defined for operation {op.name!r} (op type: {op.type}): "
                          "the op type is not registered.")
    if op_def.gradient is None:
        if not op_def.differentiable:
            return None
        raise LookupError(f"No gradient defined for operation {op.name!r} (op type: {op.type}). "
                          "Wrap its output in tf.stop_gradient if it should be a constant.")
    return op_def.gradient


# -- building ops ---------------------------------------------------------------------

def apply_op(op_type, inputs, attrs=None, name=None, output_dtypes=None, graph=None):
    """Adds an op of `op_type` to the graph of its inputs and returns its output(s).

    Inputs are converted to Tensors; outputs default to the dtype of the first input.
    A single-output op returns its Tensor, a multi-output op the list of Tensors, a
    no-output op the Operation.
    """
    from .graph import get_default_graph
    from .tensor import convert_to_tensor
    if graph is None:
        graph = next((t.graph for t in inputs if hasattr(t, "graph")), None) or get_default_graph()
    with graph.as_default():
        tensors = [convert_to_tensor(t) for t in inputs]
        if output_dtypes is None:
            output_dtypes = [tensors[0].dtype.base_dtype]
        # As TF's _apply_op_helper: an op that takes a variable by reference (Assign, the
        # Apply* updates) is colocated with that variable -- its device and its "loc:@" group.
        op_def = _REGISTRY.get(op_type)
        by_reference = op_def.ref_inputs if op_def is not None else ()
        with contextlib.ExitStack() as colocated:
            for i in by_reference:
                if i < len(tensors) and tensors[i].dtype.is_ref:
                    colocated.enter_context(graph.colocate_with(tensors[i].op))
            op = graph.create_op(op_type, tensors, output_dtypes, name=name or op_type,
                                 attrs=attrs)
    if not op.outputs:
        return op
    return op.outputs[0] if len(op.outputs) == 1 else op.outputs


def set_shapes_for_outputs(op):
    """Runs the op's shape function; a mismatch raises ValueError naming the op and shapes."""
    op_def = _REGISTRY.get(op.type)
    if op_def is None or op_def.shape is None or not op.outputs:
        return
    try:
        shapes = op_def.shape(op)
    except (ValueError, TypeError, IndexError) as e:
        in_shapes = ", ".join(_shape_text(t.get_shape()) for t in op.inputs)
        raise ValueError(f"{e} for '{op.name}' (op: '{op.type}') with input shapes: "
                         f"{in_shapes}.") from None
    # A shape function returns a TensorShape (one output) or a list of them (several);
    # a plain list like [None, 3] is read as one shape.
    if shapes is None:
        return
    if len(op.outputs) == 1 and not (isinstance(shapes, (list, tuple)) and len(shapes) == 1
                                     and isinstance(shapes[0], (TensorShape, list, tuple))):
        shapes = [TensorShape(shapes)]
    for tensor, shape in zip(op.outputs, shapes):
        if shape is not None:
            tensor._shape = TensorShape(shape)


def _shape_text(shape):
    if shape.dims is None:
        return "?"
    return "[" + ",".join("?" if d is None else str(d) for d in shape.as_list()) + "]"


# -- common shape functions -----------------------------------------------------------

def unchanged_shape(op):
    """Output 0 has the shape of input 0 (elementwise unary ops)."""
    return op.inputs[0].get_shape()


def unknown_shape_fn(op):
    return [unknown_shape() for _ in op.outputs]


def scalar_shape(op):
    return TensorShape([])
