"""NodeDef -- what TensorFlow's NodeDef protobuf shows a device function (op.node_def.op, .device, .name, .input, .attr).

(Being written: issue 27.)
"""

__all__ = []
