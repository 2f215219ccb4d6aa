"""NodeDef -- what TensorFlow's NodeDef protobuf (core/framework/node_def.proto) shows a device
function or a program that reads `op.node_def`: .name, .op, .device, .input and .attr.

In TensorFlow, `op.node_def` is a protocol buffer, the plain-data form of one graph node that
travels to the tasks. TF-1 programs read it in device functions, to send variables to the
parameter servers and everything else to the worker:

    def device_fn(op):
        return "/job:ps/task:0" if op.node_def.op in ("Variable", "VariableV2") \\
            else "/job:worker/task:0"
    with tf.device(device_fn):
        ...

The sandbox's node description is a dict -- the runtime (placer, partition, executor, the wire)
reads its keys "name", "op", "device", "input" and "attr" -- so a NodeDef here is that dict,
answering to the protobuf's field names as attributes too. Like the protobuf it is a snapshot:
changing an Operation later does not change a NodeDef taken before.

One difference: TF's `.attr["T"]` is an AttrValue message (`.attr["T"].type`); here it is the
value itself (`tf.float32`).
"""

__all__ = ["NodeDef"]

_FIELDS = ("name", "op", "device", "input", "attr")


class NodeDef(dict):
    """A graph node as plain data: a dict with keys name, op, device, input, attr, readable as
    attributes as TF's NodeDef protobuf is (`nd.op`, `nd.device` ...)."""

    __slots__ = ()

    def __init__(self, *args, name="", op="", device="", input=None, attr=None,  # noqa: A002
                 **kwargs):
        super().__init__(*args, **kwargs)
        for key, value in (("name", name), ("op", op), ("device", device),
                           ("input", list(input or [])), ("attr", dict(attr or {}))):
            self.setdefault(key, value)

    def __getattr__(self, key):
        if key in _FIELDS:
            return self[key]
        raise AttributeError(f"'NodeDef' object has no attribute {key!r}; a NodeDef has the "
                             f"fields {', '.join(_FIELDS)}")

    def __setattr__(self, key, value):
        if key not in _FIELDS:
            raise AttributeError(f"'NodeDef' has no field {key!r}; its fields are "
                                 f"{', '.join(_FIELDS)}")
        self[key] = value

    def __reduce__(self):
        return (NodeDef, (dict(self),))

    def __repr__(self):
        return f"NodeDef({dict.__repr__(self)})"

    def __str__(self):
        """The protobuf's text format, roughly: name, op, inputs, device, attrs."""
        lines = [f'name: "{self["name"]}"', f'op: "{self["op"]}"']
        lines += [f'input: "{i}"' for i in self["input"]]
        if self["device"]:
            lines.append(f'device: "{self["device"]}"')
        lines += [f"attr {{ key: {k!r} value: {v!r} }}" for k, v in sorted(self["attr"].items())]
        return "\n".join(lines)
