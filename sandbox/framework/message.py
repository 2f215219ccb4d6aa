"""A protocol message -- plays the part of the Python classes that protobuf generates for
TensorFlow's .proto files (google.protobuf.message.Message: config_pb2.ConfigProto,
step_stats_pb2.StepStats ...).

TF-1 programs build and read such messages: `tf.ConfigProto(log_device_placement=True)`,
`run_metadata.step_stats.dev_stats`. A Message here is a plain record with a fixed set of
fields and their defaults: keyword construction, attribute access, CopyFrom, equality, and a
clear error for a field that does not exist -- which is what a program sees of a protobuf.

    class DeviceStepStats(Message):
        _FIELDS = {"device": "", "node_stats": list}    # a callable default: a new one each
"""

__all__ = ["Message"]


class Message:
    """A plain, protobuf-like record with a fixed set of fields and defaults."""
    _FIELDS = {}

    def __init__(self, **kwargs):
        for name, default in self._FIELDS.items():
            value = default() if callable(default) else default
            object.__setattr__(self, name, value)
        for name, value in kwargs.items():
            setattr(self, name, value)

    def __setattr__(self, name, value):
        if name not in self._FIELDS:
            raise ValueError(f'Protocol message {type(self).__name__} has no "{name}" field. '
                             f"Its fields are: {', '.join(sorted(self._FIELDS))}.")
        object.__setattr__(self, name, value)

    def CopyFrom(self, other):  # noqa: N802 -- protobuf's name
        for name in self._FIELDS:
            object.__setattr__(self, name, getattr(other, name))

    def __eq__(self, other):
        return type(self) is type(other) and all(
            getattr(self, n) == getattr(other, n) for n in self._FIELDS)

    def __repr__(self):
        fields = ", ".join(f"{n}={getattr(self, n)!r}" for n, d in self._FIELDS.items()
                           if getattr(self, n) != (d() if callable(d) else d))
        return f"{type(self).__name__}({fields})"
