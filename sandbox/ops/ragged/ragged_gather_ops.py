"""Picking rows of a RaggedTensor -- the row gather of TensorFlow's
python/ops/ragged/ragged_gather_ops.py (TF's op RaggedGather), which rt[::2], rt[:, a:b] and
tf.ragged.stack(..., axis=1) are built on:

    gather_rows([[1, 2], [], [3, 4, 5]], [2, 0])  ->  [[3, 4, 5], [1, 2]]

Built from ordinary ops: the picked rows' starts and limits make one range of value indices
per row (tf.ragged.range), whose values pick the values -- recursively, for ragged values.
Its gradient is tf.gather's.
"""
from ...framework.tensor import convert_to_tensor
from ..indexing_ops import gather
from .ragged_math_ops import range as ragged_range
from .ragged_tensor import RaggedTensor

__all__ = []


def gather_rows(params, indices):
    """The rows indices[0], indices[1] ... of params (a RaggedTensor or a Tensor)."""
    indices = convert_to_tensor(indices, name="indices")
    if not isinstance(params, RaggedTensor):
        return gather(params, indices)
    splits = params.row_splits
    starts = gather(splits[:-1], indices)
    limits = gather(splits[1:], indices)
    value_indices = ragged_range(starts, limits, row_splits_dtype=splits.dtype.base_dtype)
    return RaggedTensor.from_row_splits(gather_rows(params.values, value_indices.values),
                                        value_indices.row_splits, validate=False)
