"""Segment ids <-> row splits -- mirrors TensorFlow 1.x's tf.ragged.row_splits_to_segment_ids
and tf.ragged.segment_ids_to_row_splits (python/ops/ragged/segment_id_ops.py).

A segment id says which row a value belongs to (what tf.math.segment_sum takes); row splits
say where each row starts and ends. They describe the same rows:

    row_splits_to_segment_ids([0, 2, 2, 5])    ->  [0, 0, 2, 2, 2]
    segment_ids_to_row_splits([0, 0, 2, 2, 2]) ->  [0, 2, 2, 5]
    segment_ids_to_row_splits([0, 0, 2], num_segments=4) -> [0, 2, 2, 3, 3]

So the sum of each row of a RaggedTensor is
tf.math.segment_sum(rt.values, rt.value_rowids()) (or unsorted_segment_sum with rt.nrows(),
which also gives the empty rows their 0).
"""
from ...framework import dtypes
from ...framework.graph import name_scope
from ...framework.tensor import Tensor, convert_to_tensor
from ...framework.tensor_util import constant_value
from .. import math_ops
from ..array_ops import ones, shape as _shape
from ..constant_op import constant
from ..indexing_ops import unsorted_segment_sum
from ..reduction_ops import cumsum, reduce_max
from ..slicing_ops import concat
from . import ragged_util

__all__ = ["row_splits_to_segment_ids", "segment_ids_to_row_splits"]


def row_splits_to_segment_ids(splits, name=None, out_type=None):
    """The row of each value of the rows `splits` cut: [0, 2, 2, 5] -> [0, 0, 2, 2, 2]
    (dtype: the splits' or `out_type`)."""
    with name_scope(name, "RaggedSplitsToSegmentIds", [splits]):
        splits = convert_to_tensor(splits, name="splits", preferred_dtype=dtypes.int64)
        if splits.dtype.base_dtype not in (dtypes.int32, dtypes.int64):
            raise ValueError("splits must have dtype int32 or int64")
        splits.get_shape().assert_has_rank(1)
        if splits.get_shape()[0].value == 0:
            raise ValueError("Invalid row_splits: []")
        out_type = splits.dtype.base_dtype if out_type is None else dtypes.as_dtype(out_type)
        splits = math_ops.cast(splits, out_type) if splits.dtype.base_dtype != out_type \
            else splits
        # (TF repeats range(nrows) by the row lengths.) The row of value j is the number of
        # rows after the first that start at or before j: a 1 where each starts, summed.
        starts = splits[1:-1]
        nvals = splits[-1]
        marks = unsorted_segment_sum(ones(_shape(starts, out_type=out_type), out_type), starts,
                                     nvals + 1)
        return cumsum(marks[:-1])


def segment_ids_to_row_splits(segment_ids, num_segments=None, out_type=None, name=None):
    """The row splits of the rows the sorted `segment_ids` say: [0, 0, 2, 2, 2] ->
    [0, 2, 2, 5]; `num_segments` rows (default: the last id + 1). dtype: `out_type`, else
    that of segment_ids (or num_segments) when a Tensor, else int64."""
    if out_type is None:
        if isinstance(segment_ids, Tensor):
            out_type = segment_ids.dtype.base_dtype
        elif isinstance(num_segments, Tensor):
            out_type = num_segments.dtype.base_dtype
        else:
            out_type = dtypes.int64
    else:
        out_type = dtypes.as_dtype(out_type)
    with name_scope(name, "SegmentIdsToRaggedSplits", [segment_ids]):
        segment_ids = ragged_util.convert_to_int_tensor(segment_ids, "segment_ids",
                                                        dtype=out_type)
        segment_ids.get_shape().assert_has_rank(1)
        if num_segments is None:
            # (TF's bincount: max + 1 rows; the -1 keeps no ids at 0 rows.)
            num_segments = reduce_max(concat([segment_ids, constant([-1], out_type)], 0)) + 1
            const_num_segments = None
        else:
            num_segments = ragged_util.convert_to_int_tensor(num_segments, "num_segments",
                                                             dtype=out_type)
            num_segments.get_shape().assert_has_rank(0)
            const_num_segments = constant_value(num_segments)
        row_lengths = unsorted_segment_sum(ones(_shape(segment_ids, out_type=out_type),
                                                out_type), segment_ids, num_segments)
        splits = concat([ragged_util.zeros_1(out_type), cumsum(row_lengths)], axis=0)
        if const_num_segments is not None:
            splits.set_shape([int(const_num_segments) + 1])
        return splits
