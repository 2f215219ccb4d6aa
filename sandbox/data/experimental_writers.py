"""`tf.data.experimental.TFRecordWriter` -- mirrors TF 1.15's
python/data/experimental/ops/writers.py and its DatasetToTFRecord kernel
(core/kernels/data/experimental/to_tf_record_op.cc).

    records = tf.data.Dataset.from_tensor_slices(serialized_examples)
    write = tf.data.experimental.TFRecordWriter("/tmp/train.tfrecord").write(records)
    sess.run(write)

`write(dataset)` is an op that, when it runs, makes every element of a dataset of scalar
tf.string and writes each as one record of a TFRecord file (sandbox/platform/tf_record.py),
compressed if compression_type is "ZLIB" or "GZIP". The file is written on the task the op
runs on; tf.data.TFRecordDataset reads it back.
"""
import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.graph import get_default_graph
from ..framework.op_def import OpDef, apply_op
from ..framework.tensor import convert_to_tensor
from ..ops.dataset_pipeline import PipelineEnv, iterate
from ..platform import tf_record
from .dataset_ops import DatasetV1

__all__ = ["TFRecordWriter"]


def _text(value):
    value = np.asarray(value, dtype=object).item()
    return value.decode() if isinstance(value, bytes) else str(value)


class DatasetToTFRecord(OpDef):
    """Writes the elements of `dataset` (a plan; its tensors are the first `n_data` inputs)
    to the file named by the next input, compressed as the last input says."""
    uses_context = True
    stateful = True
    differentiable = False

    def kernel(ctx, step, *inputs, dataset=None, n_data=0):
        filename, compression = _text(inputs[n_data]), _text(inputs[n_data + 1])
        if compression not in ("", "ZLIB", "GZIP"):
            raise errors.InvalidArgumentError(ctx.name, None, f"Unsupported compression_type "
                                              f"{compression!r}: use '', 'ZLIB' or 'GZIP'.")
        env = PipelineEnv(ctx.name, ctx.resources, ctx.device)
        env.step = step
        try:
            with tf_record.TFRecordWriter(filename, compression) as writer:
                for (record,) in iterate(dataset, list(inputs[:n_data]), env):
                    record = np.asarray(record, dtype=object)
                    if record.ndim:
                        raise errors.InvalidArgumentError(
                            ctx.name, None, "TFRecordWriter writes scalar strings, got an "
                            f"element of shape {list(record.shape)}.")
                    value = record.item()
                    writer.write(value.encode() if isinstance(value, str) else value)
        except errors.OpError as e:
            raise type(e)(ctx.name, None, e.message) from None


class TFRecordWriter:
    """Writes a dataset of scalar tf.string to a TFRecord file (`write(dataset)` is the op)."""

    def __init__(self, filename, compression_type=None):
        self._filename = convert_to_tensor(filename, _dtypes.string, name="filename")
        self._compression_type = convert_to_tensor(
            "" if compression_type is None else compression_type, _dtypes.string,
            name="compression_type")

    def write(self, dataset):
        """An op that writes every element of `dataset` (scalar tf.string) as one record."""
        if not isinstance(dataset, DatasetV1):
            raise TypeError("Invalid `dataset.` Expected a `tf.data.Dataset` object but got "
                            f"{type(dataset)}.")
        specs = dataset._flat_specs()
        if isinstance(dataset._structure, (tuple, dict)) or specs[0].dtype != _dtypes.string \
                or not specs[0].shape.is_compatible_with([]):
            raise TypeError("Invalid `dataset`. Expected a`dataset` that produces scalar "
                            "`tf.string` elements, but got a dataset which produces elements "
                            f"with shapes {dataset.output_shapes} and types "
                            f"{dataset.output_types}.")
        plan, tensors = dataset._plan_and_tensors()
        return apply_op("DatasetToTFRecord",
                        list(tensors) + [self._filename, self._compression_type],
                        {"dataset": plan, "n_data": len(tensors)}, name="DatasetToTFRecord",
                        output_dtypes=[], graph=get_default_graph())
