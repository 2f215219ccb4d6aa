"""`tf.summary` -- mirrors TensorFlow 1.x's tf.summary namespace (python/summary/summary.py).

Summary ops record values for TensorBoard: `tf.summary.scalar('loss', loss)` makes an op whose
output is a serialized Summary protocol buffer; `tf.summary.merge_all()` merges every summary
of the graph into one op; `tf.summary.image('input', images)` records a batch of images as
PNGs. The ops themselves are in sandbox/ops/summary_ops.py.
"""
from ..ops.summary_ops import scalar, histogram, image, merge, merge_all
from .writer import FileWriter, FileWriterCache

__all__ = ["scalar", "histogram", "image", "merge", "merge_all", "FileWriter", "FileWriterCache"]
