"""tf.ragged.cross and tf.ragged.cross_hashed -- mirrors TensorFlow's ragged_array_ops.cross
(python/ops/ragged/ragged_array_ops.py) and its op RaggedCross
(core/kernels/ragged_cross_op.cc): feature crosses, row by row.

    tf.ragged.cross([tf.ragged.constant([["a", "b"], ["c"]]),
                     tf.ragged.constant([["d"], ["e", "f"]])])
        -> [[b'a_X_d', b'b_X_d'], [b'c_X_e', b'c_X_f']]
    tf.ragged.cross_hashed([...], num_buckets=100)     the same crosses as int64 ids

Row b gets one cross per combination of row b's features of every input, the last input
varying fastest. Inputs are 2-D: RaggedTensors (ragged_rank 1), SparseTensors or dense
Tensors, of strings or integers. A hashed cross folds the features' 64-bit hashes (FarmHash
Fingerprint64 of a string, the value of an integer) with FingerprintCat64 from hash_key (the
same arithmetic as tf.sparse's hashed cross: ops/sparse_cross_ops.py), modulo num_buckets.
"""
import itertools

import numpy as np

from ...framework import dtypes
from ...framework import errors
from ...framework.graph import name_scope
from ...framework.op_def import OpDef, apply_op
from ...framework.sparse_tensor import SparseTensor, SparseTensorValue
from ...framework.tensor_shape import TensorShape
from .. import math_ops
from ..sparse_cross_ops import DEFAULT_HASH_KEY, _feature_hash, fingerprint_cat64
from .ragged_tensor import RaggedTensor, convert_to_tensor_or_ragged_tensor

__all__ = ["cross", "cross_hashed"]

_M = (1 << 64) - 1


def _as_text(value):
    return value if isinstance(value, bytes) else str(int(value)).encode()


class RaggedCross(OpDef):
    """values, row_splits of the crosses of ragged, sparse and dense 2-D inputs, taken in
    `input_order` ("R", "S", "D" for each)."""
    multi_output = True
    differentiable = False

    def shape(op):
        nr = len(op.get_attr("ragged_splits_types"))
        ns = len(op.get_attr("sparse_values_types"))
        batch = None
        for splits in op.inputs[nr:2 * nr]:
            n = splits.get_shape()[0].value if splits.get_shape().ndims else None
            batch = batch if n is None else n - 1
        for dense in op.inputs[2 * nr + 3 * ns:]:
            n = dense.get_shape()[0].value if dense.get_shape().ndims else None
            batch = batch if n is None else n
        return [TensorShape([None]), TensorShape([None if batch is None else batch + 1])]

    def kernel(*inputs, input_order="", hashed_output=False, num_buckets=0, hash_key=0,
               out_values_type=None, out_row_splits_type=None, ragged_values_types=(),
               ragged_splits_types=(), sparse_values_types=(), dense_types=()):
        nr, ns, nd = len(ragged_values_types), len(sparse_values_types), len(dense_types)
        parts = iter(inputs)
        ragged_values = [next(parts) for _ in range(nr)]
        ragged_splits = [next(parts) for _ in range(nr)]
        sparse = [[next(parts) for _ in range(ns)] for _ in range(3)]
        dense = [next(parts) for _ in range(nd)]
        columns = {"R": [], "S": [], "D": []}
        for values, splits in zip(ragged_values, ragged_splits):
            values, splits = np.asarray(values, dtype=object).tolist(), np.asarray(splits)
            columns["R"].append([values[a:b] for a, b in zip(splits[:-1], splits[1:])])
        for indices, values, shape in zip(*sparse):
            rows = [[] for _ in range(int(shape[0]))]
            for (row, *_rest), v in zip(np.asarray(indices).tolist(),
                                        np.asarray(values, dtype=object).tolist()):
                rows[row].append(v)
            columns["S"].append(rows)
        for d in dense:
            columns["D"].append(np.asarray(d, dtype=object).reshape(len(d), -1).tolist())
        ordered = [columns[kind].pop(0) for kind in input_order]
        batch = {len(c) for c in ordered}
        if len(batch) > 1:
            raise errors.InvalidArgumentError(None, None, "inputs must all have the same "
                                              f"batch dimension size, got {sorted(batch)}")
        out, splits = [], [0]
        for b in range(batch.pop() if batch else 0):
            for combo in itertools.product(*(c[b] for c in ordered)):
                if hashed_output:
                    h = int(hash_key) & _M
                    for feature in combo:
                        h = fingerprint_cat64(h, _feature_hash(feature))
                    out.append(h % num_buckets if num_buckets > 0 else h % ((1 << 63) - 1))
                else:
                    out.append(b"_X_".join(_as_text(f) for f in combo))
            splits.append(len(out))
        if hashed_output:
            values = np.array(out, dtype=np.uint64).astype(np.int64)
        else:
            values = np.empty(len(out), dtype=object)
            values[:] = out
        return values, np.array(splits, dtype=out_row_splits_type.as_numpy_dtype)


def cross(inputs, name=None):
    """The string crosses ("a_X_d") of each row of the 2-D `inputs`, as a RaggedTensor."""
    return _cross_internal(inputs, hashed_output=False, name=name)


def cross_hashed(inputs, num_buckets=0, hash_key=None, name=None):
    """The hashed crosses (int64 ids, in [0, num_buckets) when num_buckets > 0) of each row
    of the 2-D `inputs`, as a RaggedTensor."""
    return _cross_internal(inputs, hashed_output=True, num_buckets=num_buckets,
                           hash_key=hash_key, name=name)


def _cross_internal(inputs, hashed_output=False, num_buckets=0, hash_key=None, name=None):
    if not isinstance(inputs, (tuple, list)):
        raise TypeError("Inputs must be a list")
    if hash_key is None:
        hash_key = DEFAULT_HASH_KEY
    ragged, sparse, dense, order = [], [], [], []
    with name_scope(name, "RaggedCross", [i for i in inputs if hasattr(i, "graph")]):
        for i, t in enumerate(inputs):
            if isinstance(t, SparseTensorValue):
                t = SparseTensor.from_value(t)
            if not isinstance(t, SparseTensor):
                t = convert_to_tensor_or_ragged_tensor(t)
            if t.dtype.is_integer:
                t = _to_int64(t)
            elif t.dtype.base_dtype != dtypes.string:
                raise ValueError(f"Unexpected dtype for inputs[{i}]: {t.dtype!r}")
            if isinstance(t, RaggedTensor):
                if t.ragged_rank != 1:
                    raise ValueError("tf.ragged.cross only supports inputs with rank=2")
                ragged.append(t)
                order.append("R")
            elif isinstance(t, SparseTensor):
                sparse.append(t)
                order.append("S")
            else:
                dense.append(t)
                order.append("D")
        values_type = dtypes.int64 if hashed_output else dtypes.string
        splits_type = dtypes.int32 if ragged and all(
            t.row_splits.dtype.base_dtype == dtypes.int32 for t in ragged) else dtypes.int64
        args = ([t.values for t in ragged] + [t.row_splits for t in ragged] +
                [s.indices for s in sparse] + [s.values for s in sparse] +
                [s.dense_shape for s in sparse] + dense)
        values, splits = apply_op("RaggedCross", args, {
            "input_order": "".join(order), "hashed_output": bool(hashed_output),
            "num_buckets": int(num_buckets), "hash_key": int(hash_key),
            "out_values_type": values_type, "out_row_splits_type": splits_type,
            "ragged_values_types": [t.dtype.base_dtype for t in ragged],
            "ragged_splits_types": [t.row_splits.dtype.base_dtype for t in ragged],
            "sparse_values_types": [s.dtype.base_dtype for s in sparse],
            "dense_types": [d.dtype.base_dtype for d in dense]}, name="RaggedCross",
            output_dtypes=[values_type, splits_type])
        return RaggedTensor.from_row_splits(values, splits, validate=False)


def _to_int64(t):
    if t.dtype.base_dtype == dtypes.int64:
        return t
    if isinstance(t, RaggedTensor):
        return t.with_flat_values(math_ops.cast(t.flat_values, dtypes.int64))
    if isinstance(t, SparseTensor):
        return SparseTensor(t.indices, math_ops.cast(t.values, dtypes.int64), t.dense_shape)
    return math_ops.cast(t, dtypes.int64)
