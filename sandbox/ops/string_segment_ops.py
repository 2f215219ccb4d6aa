"""Strings joined by segment -- mirrors tf.strings.unsorted_segment_join of TensorFlow 1.x's
python/ops/string_ops.py and its kernel, core/kernels/unsorted_segment_join_op.cc.

    tf.strings.unsorted_segment_join(["this", "a", "test", "is"], [0, 1, 1, 0], 3, " ")
        ->  [b'this is', b'a test', b'']

As tf.unsorted_segment_sum adds, it joins: `segment_ids` (int32 or int64) has the shape of a
prefix of `inputs`' shape, and output[i, k...] is the join, with `separator`, of the
inputs[j..., k...] whose segment_ids[j...] is i, in row-major order of j. The output has
`num_segments` rows, and a segment no id names is the empty string. Unlike the numeric
unsorted_segment_* ops, a negative id is an error (InvalidArgumentError, as an id of
num_segments or more). No gradient.
"""
import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.graph import name_scope
from ..framework.op_def import OpDef, apply_op
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape, unknown_shape
from ..framework.tensor_util import constant_int
from .string_case_ops import typed_input

__all__ = ["unsorted_segment_join"]


def _as_bytes(s):
    return s if isinstance(s, bytes) else str(s).encode("utf-8")


class UnsortedSegmentJoin(OpDef):
    """inputs, segment_ids, num_segments -> num_segments rows of joined strings."""
    differentiable = False

    def shape(op):
        data, ids, n = (t.get_shape() for t in op.inputs)
        if n.ndims is not None and n.ndims != 0:
            raise ValueError(f"Shape must be rank 0 but is rank {n.ndims}")
        if ids.ndims is None:
            return unknown_shape()
        if data.ndims is not None:
            if data.ndims < ids.ndims:
                raise ValueError(f"Shape must be at least rank {ids.ndims} but is rank "
                                 f"{data.ndims}")
            for a, b in zip(data.as_list(), ids.as_list()):
                if a is not None and b is not None and a != b:
                    raise ValueError(f"Dimensions must be equal, but are {a} and {b}")
        segments = constant_int(op.inputs[2])
        if segments is not None and segments < 0:
            raise ValueError("Dimension size, given by scalar input 2, must be non-negative "
                             f"but is {segments}")
        if data.ndims is None:
            return unknown_shape()
        return TensorShape([segments]).concatenate(data[ids.ndims:])

    def kernel(inputs, segment_ids, num_segments, separator="", Tindices=None,
               Tnumsegments=None):
        if np.size(num_segments) == 0:
            raise errors.InvalidArgumentError(None, None, "Number of segments cannot be empty.")
        if np.ndim(num_segments) != 0:
            raise errors.InvalidArgumentError(None, None, "Number of segments must be a scalar")
        n = int(num_segments)
        if n < 0:
            raise errors.InvalidArgumentError(None, None, "Number of segments must be "
                                              f"non-negative but got {n}")
        data = np.asarray(inputs, dtype=object)
        ids = np.asarray(segment_ids)
        if ids.ndim == 0:
            raise errors.InvalidArgumentError(None, None, "Segment_id cannot have rank 0")
        if ids.ndim > data.ndim:
            raise errors.OutOfRangeError(None, None, f"Invalid segment_id rank {ids.ndim} for "
                                         f"input with {data.ndim} dimension(s)")
        for i in range(ids.ndim):
            if ids.shape[i] != data.shape[i]:
                # (TF's message says the input's rank where it means its dimension)
                raise errors.InvalidArgumentError(
                    None, None, f"Segment dimension is {ids.shape[i]} while input dimension "
                    f"is {data.ndim} in rank {i}")
        rows = data.reshape((ids.size,) + data.shape[ids.ndim:])
        members = [[] for _ in range(n)]            # the rows of each segment, in order
        for row, segment in enumerate(ids.reshape(-1).tolist()):
            if not 0 <= segment < n:
                raise errors.InvalidArgumentError(
                    None, None, "segment_ids are not allowed to exceed num_segments or to have "
                    "negative values.")
            members[segment].append(row)
        sep = _as_bytes(separator)
        out = np.empty((n,) + rows.shape[1:], dtype=object)
        for segment, segment_rows in enumerate(members):
            for index in np.ndindex(rows.shape[1:]):
                out[(segment,) + index] = sep.join(_as_bytes(rows[(row,) + index])
                                                   for row in segment_rows)
        return out


def _int_input(value, arg):
    t = convert_to_tensor(value, name=arg)
    if t.dtype.base_dtype not in (_dtypes.int32, _dtypes.int64):
        raise TypeError(f"Value passed to parameter '{arg}' has DataType "
                        f"{t.dtype.base_dtype.name} not in list of allowed values: int32, int64")
    return t


def unsorted_segment_join(inputs, segment_ids, num_segments, separator="", name=None):
    """tf.strings.unsorted_segment_join: the strings of `inputs` joined with `separator` by
    segment -- output[i] joins the entries whose segment_ids is i, in row-major order; the
    output has `num_segments` rows ('' where no id is i)."""
    with name_scope(name, "UnsortedSegmentJoin", [inputs, segment_ids, num_segments]) as scope:
        x = typed_input(inputs, "inputs", "UnsortedSegmentJoin")
        ids = _int_input(segment_ids, "segment_ids")
        n = _int_input(num_segments, "num_segments")
        return apply_op("UnsortedSegmentJoin", [x, ids, n],
                        {"separator": separator, "Tindices": ids.dtype.base_dtype,
                         "Tnumsegments": n.dtype.base_dtype},
                        name=scope, output_dtypes=[_dtypes.string])
