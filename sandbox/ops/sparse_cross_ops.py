"""The SparseCross op -- mirrors TensorFlow 1.15's tf.sparse.cross and tf.sparse.cross_hashed
(python/ops/sparse_ops.py) and their kernel (core/kernels/sparse_cross_op.cc); the hashed cross
is the op under tf.feature_column.crossed_column (sandbox/feature_column/crossed_column.py).

Row b of the output gets one value per combination of row b's features in the inputs, the
last input varying fastest. tf.sparse.cross joins the features' text with "_X_"
(b'a_X_7_X_x'); in the hashed cross a value is FingerprintCat64 folded over the features'
64-bit hashes (strings: FarmHash's Fingerprint64; integers: themselves), starting from the
hash key, modulo num_buckets.
"""
import numpy as np

from ..framework import dtypes
from ..framework.graph import name_scope
from ..framework.op_def import OpDef, apply_op
from ..framework.sparse_tensor import SparseTensor
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from . import math_ops
from .string_hash_ops import fingerprint64

__all__ = ["sparse_cross", "sparse_cross_hashed", "fingerprint_cat64", "DEFAULT_HASH_KEY"]

_M = (1 << 64) - 1
_K_MUL = 0xc6a4a7935bd1e995
DEFAULT_HASH_KEY = 0xDECAFCAFFE     # TF's, when a crossed column is given none


def _shift_mix(v):
    return v ^ (v >> 47)


def fingerprint_cat64(fp1, fp2):
    """TF's FingerprintCat64 (core/lib/hash/hash.h): combines two 64-bit fingerprints."""
    result = fp1 ^ _K_MUL
    result ^= (_shift_mix((fp2 * _K_MUL) & _M) * _K_MUL) & _M
    result = (result * _K_MUL) & _M
    result = (_shift_mix(result) * _K_MUL) & _M
    return _shift_mix(result)


def _feature_hash(value):
    if isinstance(value, (bytes, str)):
        return fingerprint64(value if isinstance(value, bytes) else value.encode())
    return int(value) & _M


def _feature_text(value):
    return value if isinstance(value, bytes) else str(value).encode()


class SparseCross(OpDef):
    """The cross of N SparseTensors (indices, values, shapes) and some dense [batch, k]
    tensors: row b gets one value per combination of its features, last input fastest --
    hashed ids, or (hashed_output=False) the features' text joined by '_X_'."""
    multi_output = True
    differentiable = False

    def shape(op):
        return [TensorShape([None, 2]), TensorShape([None]), TensorShape([2])]

    def kernel(*inputs, N=0, hashed_output=True, num_buckets=0, hash_key=0, **_):  # noqa: N803
        indices, values, shapes = inputs[:N], inputs[N:2 * N], inputs[2 * N:3 * N]
        dense = inputs[3 * N:]
        batch = int(shapes[0][0]) if N else int(np.shape(dense[0])[0])
        columns = []
        for ind, val in zip(indices, values):
            rows = [[] for _ in range(batch)]
            for (row, *_rest), v in zip(np.asarray(ind).tolist(), np.asarray(val).tolist()):
                rows[row].append(_feature_hash(v) if hashed_output else _feature_text(v))
            columns.append(rows)
        for d in dense:
            d = np.asarray(d).reshape(batch, -1)
            feature = _feature_hash if hashed_output else _feature_text
            columns.append([[feature(v) for v in d[b].tolist()] for b in range(batch)])
        out_indices, out_values, width = [], [], 0
        if not hashed_output:
            for b in range(batch):
                crossed = [b""]
                for k, column in enumerate(columns):
                    crossed = [h + (b"_X_" if k else b"") + f for h in crossed for f in column[b]]
                out_indices += [(b, j) for j in range(len(crossed))]
                out_values += crossed
                width = max(width, len(crossed))
            values = np.empty(len(out_values), dtype=object)
            values[:] = out_values
            return (np.array(out_indices, dtype=np.int64).reshape(-1, 2), values,
                    np.array([batch, width], dtype=np.int64))
        for b in range(batch):
            crossed = [int(hash_key) & _M]
            for column in columns:
                crossed = [fingerprint_cat64(h, f) for h in crossed for f in column[b]]
            for j, h in enumerate(crossed):
                out_indices.append((b, j))
                out_values.append(h % num_buckets if num_buckets > 0 else h % ((1 << 63) - 1))
            width = max(width, len(crossed))
        return (np.array(out_indices, dtype=np.int64).reshape(-1, 2),
                np.array(out_values, dtype=np.uint64).astype(np.int64),
                np.array([batch, width], dtype=np.int64))


def sparse_cross(inputs, name=None):
    """The cross of `inputs` (SparseTensors and dense Tensors, strings or integers) as a
    SparseTensor of strings, the features of each combination joined by '_X_'."""
    return _sparse_cross(inputs, False, 0, 0, name)


def sparse_cross_hashed(inputs, num_buckets=0, hash_key=None, name=None):
    """The hashed cross of `inputs` (SparseTensors and dense Tensors) as a SparseTensor of
    int64 ids in [0, num_buckets) (TF's tf.sparse.cross_hashed of TF 1.x)."""
    return _sparse_cross(inputs, True, num_buckets, hash_key or DEFAULT_HASH_KEY, name)


def _sparse_cross(inputs, hashed_output, num_buckets, hash_key, name):
    with name_scope(name, "SparseCross", []) as scope:
        sparse = [i for i in inputs if isinstance(i, SparseTensor)]
        dense = [convert_to_tensor(i) for i in inputs if not isinstance(i, SparseTensor)]

        def _values(t):
            return t if t.dtype == dtypes.string else math_ops.cast(t, dtypes.int64)
        args = ([s.indices for s in sparse] + [_values(s.values) for s in sparse] +
                [s.dense_shape for s in sparse] + [_values(d) for d in dense])
        out = apply_op("SparseCross", args, {
            "N": len(sparse), "hashed_output": hashed_output, "num_buckets": int(num_buckets),
            "hash_key": int(hash_key)}, name=scope,
            output_dtypes=[dtypes.int64, dtypes.int64 if hashed_output else dtypes.string,
                           dtypes.int64])
        return SparseTensor(*out)
