"""Graph nodes -- mirrors TensorFlow 1.x's `tf.Operation` (python/framework/ops.py).

An Operation is one node of the dataflow graph: a type (`MatMul`), a unique name (`layer1/MatMul`),
input tensors, output tensors, attributes (`transpose_a=False`), control inputs (ops that must
run first) and a requested device. Its `node_def` is the plain-data form that travels to other
tasks; nothing about it is Python code.
"""
from . import device_spec as _device_spec
from .default_session import run_using_default_session
from .node_def import NodeDef
from .tensor import Tensor

__all__ = ["Operation"]


class Operation:
    """A node in a Graph. Create ops with the tf.* functions, not with this class directly."""

    def __init__(self, graph, op_type, name, inputs, output_dtypes, attrs=None, control_inputs=()):
        self._graph = graph
        self._type = op_type
        self._name = name
        self._inputs = list(inputs)
        self._attrs = dict(attrs or {})
        self._control_inputs = list(control_inputs)
        self._device = ""
        self._id = graph._next_id()
        self._outputs = [Tensor(self, i, dt) for i, dt in enumerate(output_dtypes)]
        self._control_outputs = []
        for t in self._inputs:
            t._consumers.append(self)
        for c in self._control_inputs:
            c._control_outputs.append(self)

    # -- identity -------------------------------------------------------------
    @property
    def name(self):
        return self._name

    @property
    def type(self):
        return self._type

    @property
    def graph(self):
        return self._graph

    @property
    def inputs(self):
        return tuple(self._inputs)

    @property
    def outputs(self):
        return list(self._outputs)

    def values(self):
        return tuple(self._outputs)

    @property
    def control_inputs(self):
        return list(self._control_inputs)

    @property
    def device(self):
        """The requested device, as TF shows it ('' when unplaced), e.g. '/job:ps/task:0'."""
        return self._device

    def _set_device(self, device):
        if callable(device) and not isinstance(device, str):
            device = device(self)
        self._device = _device_spec.canonical_name(device)

    def _add_control_input(self, op):
        if op not in self._control_inputs:
            self._control_inputs.append(op)
            op._control_outputs.append(self)
            self._graph._version += 1

    # -- attributes -----------------------------------------------------------
    def get_attr(self, name):
        if name not in self._attrs:
            raise ValueError(f"Operation {self._name!r} (type {self._type}) has no attr named "
                             f"{name!r}; it has {sorted(self._attrs)}.")
        return self._attrs[name]

    def _set_attr(self, name, value):
        self._attrs[name] = value

    @property
    def attrs(self):
        return dict(self._attrs)

    def colocation_groups(self):
        """Names of the colocation groups this op belongs to, e.g. [b'loc:@weights']."""
        groups = self._attrs.get("_class")
        return list(groups) if groups else [f"loc:@{self._name}".encode()]

    @property
    def node_def(self):
        """The plain-data description of this node: a NodeDef (a dict with keys name, op,
        device, input, attr, also readable as attributes like TF's protobuf: `.op`)."""
        return NodeDef(name=self._name, op=self._type, device=self._device,
                       input=[t._as_node_def_input() for t in self._inputs]
                       + [f"^{c.name}" for c in self._control_inputs],
                       attr=self._attrs)

    # -- running --------------------------------------------------------------
    def run(self, feed_dict=None, session=None):
        """Runs this op in `session` (default: the default session)."""
        run_using_default_session(self, feed_dict, self._graph, session)

    # -- python protocol ------------------------------------------------------
    def __repr__(self):
        return f"<tf.Operation '{self._name}' type={self._type}>"

    def __str__(self):
        nd = self.node_def
        lines = [f'name: "{nd["name"]}"', f'op: "{nd["op"]}"']
        lines += [f'input: "{i}"' for i in nd["input"]]
        if nd["device"]:
            lines.append(f'device: "{nd["device"]}"')
        lines += [f"attr {{ key: {k!r} value: {v!r} }}" for k, v in sorted(nd["attr"].items())]
        return "\n".join(lines)

    def __hash__(self):
        return id(self)

    def __eq__(self, other):
        return self is other
