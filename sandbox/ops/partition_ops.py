"""Partitioning and stitching -- mirrors TensorFlow 1.x's dynamic_partition and
dynamic_stitch (python/ops/data_flow_ops.py's generated ops, core/kernels/
dynamic_partition_op.cc, dynamic_stitch_op.cc) and their gradients
(python/ops/data_flow_grad.py).

    parts = tf.dynamic_partition(data, partitions, num_partitions)
        parts[i] holds the rows of data whose partition is i, in order
    merged = tf.dynamic_stitch(indices, data)
        merged[indices[m][k]] = data[m][k]: rows placed back by index (a later row wins)

The two undo each other, which is how their gradients are built: partition's gradient
stitches the partitions' gradients back by the rows' original positions, and stitch's
gradient gathers each data row's gradient by its index. As in TF, a row that a later one
overwrote still gets the gradient of its index.
"""
import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.graph import name_scope
from ..framework.op_def import OpDef, apply_op
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape, unknown_shape
from ..framework.tensor_util import constant_value
from .array_ops import range as _range
from .array_ops import reshape, shape, size
from .indexing_ops import gather

__all__ = ["dynamic_partition", "dynamic_stitch"]


class DynamicPartition(OpDef):
    """num_partitions outputs: output i holds data[j] for the j with partitions[j] == i."""
    multi_output = True

    def shape(op):
        data, parts = op.inputs[0].get_shape(), op.inputs[1].get_shape()
        n = op.get_attr("num_partitions")
        if data.ndims is None or parts.ndims is None:
            return [unknown_shape()] * n
        data[:parts.ndims].assert_is_compatible_with(parts)
        return [TensorShape([None]).concatenate(data[parts.ndims:])] * n

    def kernel(data, partitions, num_partitions=1, T=None):
        if data.shape[:partitions.ndim] != partitions.shape:
            raise errors.InvalidArgumentError(
                None, None, f"data.shape must start with partitions.shape, got data.shape = "
                f"{list(data.shape)}, partitions.shape = {list(partitions.shape)}")
        bad = (partitions < 0) | (partitions >= num_partitions)
        if bad.any():
            where = np.argwhere(bad)[0]
            raise errors.InvalidArgumentError(
                None, None, f"partitions[{','.join(map(str, where))}] = "
                f"{int(partitions[tuple(where)])} is not in [0, {num_partitions})")
        return tuple(data[partitions == i] for i in range(num_partitions))

    def gradient(op, *grads):
        data, partitions = op.inputs
        n = op.get_attr("num_partitions")
        original = reshape(_range(size(partitions)), shape(partitions))
        positions = dynamic_partition(original, partitions, n)
        stitched = dynamic_stitch(positions, list(grads))
        return [reshape(stitched, shape(data)), None]


def dynamic_partition(data, partitions, num_partitions, name=None):
    """Splits the rows of `data` into num_partitions tensors by `partitions` (ints in
    [0, num_partitions), shaped like data's leading dimensions)."""
    if not isinstance(num_partitions, (int, np.integer)) or num_partitions < 1:
        raise ValueError(f"num_partitions must be an int >= 1, got {num_partitions!r}")
    with name_scope(name, "DynamicPartition", [data, partitions]) as scope:
        d = convert_to_tensor(data, name="data")
        p = convert_to_tensor(partitions, name="partitions")
        if p.dtype.base_dtype != _dtypes.int32:
            raise TypeError(f"partitions must be int32, got {p.dtype.name}")
        dtype = d.dtype.base_dtype
        out = apply_op("DynamicPartition", [d, p], {"num_partitions": int(num_partitions),
                                                    "T": dtype}, name=scope,
                       output_dtypes=[dtype] * int(num_partitions))
        return [out] if num_partitions == 1 else list(out)


class DynamicStitch(OpDef):
    """merged[indices[m][k]] = data[m][k]; merged has max(index) + 1 rows."""

    def shape(op):
        n = len(op.inputs) // 2
        idx, data = op.inputs[:n], op.inputs[n:]
        tail = None
        for i, d in zip(idx, data):
            ishape, dshape = i.get_shape(), d.get_shape()
            if ishape.ndims is None or dshape.ndims is None:
                return unknown_shape()
            d_tail = dshape[ishape.ndims:]
            tail = d_tail if tail is None else tail.merge_with(d_tail)
        known = [constant_value(i) for i in idx]
        rows = None
        if all(k is not None for k in known):
            rows = max((int(np.max(k)) + 1 for k in known if np.size(k)), default=0)
        return TensorShape([rows]).concatenate(tail)

    def kernel(*inputs, N=None, T=None):
        n = len(inputs) // 2
        idx, data = inputs[:n], inputs[n:]
        rows = max((int(i.max()) + 1 for i in idx if i.size), default=0)
        tail = None
        for m, (i, d) in enumerate(zip(idx, data)):
            if d.shape[:i.ndim] != i.shape:
                raise errors.InvalidArgumentError(
                    None, None, f"data[{m}].shape = {list(d.shape)} does not start with "
                    f"indices[{m}].shape = {list(i.shape)}")
            tail = d.shape[i.ndim:] if tail is None else tail
            if d.shape[i.ndim:] != tail:
                raise errors.InvalidArgumentError(
                    None, None, f"Need data[{m}].shape[{i.ndim}:] = {list(tail)}, got "
                    f"data[{m}].shape = {list(d.shape)}")
            if i.size and i.min() < 0:
                raise errors.InvalidArgumentError(None, None, f"indices[{m}] holds a negative "
                                                  "index")
        out = np.zeros((rows,) + tuple(tail or ()), dtype=data[0].dtype)
        filled = np.zeros(rows, dtype=bool)
        for i, d in zip(idx, data):
            flat_i = i.reshape(-1)
            out[flat_i] = d.reshape((-1,) + tuple(tail))
            filled[flat_i] = True
        if not filled.all():
            missing = int(np.flatnonzero(~filled)[0])
            raise errors.InvalidArgumentError(
                None, None, f"missing indices: {missing} (dynamic_stitch needs every index "
                f"from 0 to {rows - 1})")
        return out

    def gradient(op, grad):
        n = len(op.inputs) // 2
        idx = op.inputs[:n]
        return [None] * n + [gather(grad, i) for i in idx]


def dynamic_stitch(indices, data, name=None):
    """Interleaves the rows of the tensors in `data` into one tensor by `indices` (one int32
    tensor per data tensor): merged[indices[m][k], ...] = data[m][k, ...]."""
    if len(indices) != len(data) or not indices:
        raise ValueError(f"dynamic_stitch needs as many index tensors as data tensors (at "
                         f"least one), got {len(indices)} and {len(data)}")
    with name_scope(name, "DynamicStitch", list(indices) + list(data)) as scope:
        idx = [convert_to_tensor(i, dtype=_dtypes.int32, name="indices") for i in indices]
        ds = [convert_to_tensor(d, name="data") for d in data]
        dtypes = {d.dtype.base_dtype for d in ds}
        if len(dtypes) > 1:
            names = ", ".join(d.dtype.base_dtype.name for d in ds)
            raise TypeError(f"Tensors in list passed to 'data' of 'DynamicStitch' Op have "
                            f"types [{names}] that don't all match.")
        dtype = ds[0].dtype.base_dtype
        return apply_op("DynamicStitch", idx + ds, {"N": len(ds), "T": dtype}, name=scope,
                        output_dtypes=[dtype])
