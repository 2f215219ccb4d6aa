"""Diagonals and bands of matrices -- mirrors the diag ops of TensorFlow 1.x's
python/ops/array_ops.py (diag, diag_part, matrix_diag, matrix_diag_part, matrix_set_diag,
matrix_band_part), trace from python/ops/math_ops.py, and their gradients
(python/ops/array_grad.py).

Two families, easy to mix up:

    tf.diag(d)               d of shape [a, b] -> a tensor of shape [a, b, a, b], zero but
                             out[i, j, i, j] = d[i, j]       (tf.diag_part reverses it)
    tf.matrix_diag(d)        d of shape [..., n] -> a batch of n x n diagonal matrices
    tf.matrix_diag_part(x)   x of shape [..., m, n] -> its diagonals, [..., min(m, n)]
    tf.matrix_set_diag(x, d) x with its diagonals replaced by d
    tf.matrix_band_part(x, lower, upper)  keeps `lower` diagonals below the main one and
                             `upper` above it (-1: all of them); (x, -1, 0) is the lower
                             triangle, (x, 0, 0) the diagonal
    tf.trace(x)              the sum of each matrix's diagonal, [..., m, n] -> [...]

Each op's gradient is the other op of its pair (diag <-> diag_part, matrix_diag <->
matrix_diag_part); a band's gradient is the same band of the incoming gradient.
"""
import numpy as np

from ..framework import errors
from ..framework.graph import name_scope
from ..framework.op_def import OpDef, apply_op
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape, unknown_shape
from ..framework.tensor_util import int_tensor, shape_text
from . import array_ops, reduction_ops

__all__ = ["diag", "diag_part", "matrix_diag", "matrix_diag_part", "matrix_set_diag",
           "matrix_band_part", "trace"]


def _diag_index(shape):
    """The index of the entries out[i.., i..] of a tensor of shape `shape` + `shape`."""
    n = int(np.prod(shape, dtype=np.int64))
    flat = np.arange(n) * (n + 1)
    return flat, n


class Diag(OpDef):
    """[d1..dk] -> [d1..dk, d1..dk], zero but on the diagonal."""

    def shape(op):
        s = op.inputs[0].get_shape()
        if s.ndims is None:
            return unknown_shape()
        if s.ndims < 1:
            raise ValueError("Shape must be at least rank 1 but is rank 0")
        return s.concatenate(s)

    def kernel(diagonal, T=None):
        flat, n = _diag_index(diagonal.shape)
        out = np.zeros(n * n, dtype=diagonal.dtype)
        out[flat] = diagonal.reshape(-1)
        return out.reshape(diagonal.shape + diagonal.shape)

    def gradient(op, grad):
        return [diag_part(grad)]


class DiagPart(OpDef):
    """[d1..dk, d1..dk] -> [d1..dk]: the entries out[i..] = in[i.., i..]."""

    def shape(op):
        s = op.inputs[0].get_shape()
        if s.ndims is None:
            return unknown_shape()
        if s.ndims % 2 or s.ndims == 0:
            raise ValueError(f"Input must have even and non-zero rank, input rank is "
                             f"{s.ndims}")
        dims = s.as_list()
        k = s.ndims // 2
        out = []
        for a, b in zip(dims[:k], dims[k:]):
            if a is not None and b is not None and a != b:
                raise ValueError(f"Dimensions must be equal, but are {a} and {b}")
            out.append(a if a is not None else b)
        return TensorShape(out)

    def kernel(input, T=None):  # noqa: A002 -- TF's name
        k = input.ndim // 2
        if input.ndim % 2 or input.ndim == 0 or input.shape[:k] != input.shape[k:]:
            raise errors.InvalidArgumentError(
                None, None, f"Invalid shape {shape_text(input.shape)}: diag_part needs a "
                "tensor of shape [d1..dk, d1..dk].")
        flat, _ = _diag_index(input.shape[:k])
        return input.reshape(-1)[flat].reshape(input.shape[:k])

    def gradient(op, grad):
        return [diag(grad)]


def diag(diagonal, name=None):
    """A tensor of shape diagonal.shape * 2, zero but out[i.., i..] = diagonal[i..]."""
    with name_scope(name, "Diag", [diagonal]) as scope:
        d = convert_to_tensor(diagonal, name="diagonal")
        return apply_op("Diag", [d], {"T": d.dtype.base_dtype}, name=scope)


def diag_part(input, name=None):  # noqa: A002 -- TF's name
    """The inverse of tf.diag: out[i..] = input[i.., i..]."""
    with name_scope(name, "DiagPart", [input]) as scope:
        x = convert_to_tensor(input, name="input")
        return apply_op("DiagPart", [x], {"T": x.dtype.base_dtype}, name=scope)


# -- batches of matrices ------------------------------------------------------------------

def _matrix_dims(shape, what="input", rank=2):
    if shape.ndims is None:
        return None
    if shape.ndims < rank:
        raise ValueError(f"Shape must be at least rank {rank} but is rank {shape.ndims}")
    return shape.as_list()


class MatrixDiag(OpDef):
    """[..., n] -> [..., n, n]: diagonal matrices."""

    def shape(op):
        dims = _matrix_dims(op.inputs[0].get_shape(), "diagonal", rank=1)
        return unknown_shape() if dims is None else TensorShape(dims + dims[-1:])

    def kernel(diagonal, T=None):
        if diagonal.ndim < 1:
            raise errors.InvalidArgumentError(None, None, "input must be at least 1-dim, "
                                              f"received shape: {shape_text(diagonal.shape)}")
        n = diagonal.shape[-1]
        out = np.zeros(diagonal.shape + (n,), dtype=diagonal.dtype)
        idx = np.arange(n)
        out[..., idx, idx] = diagonal
        return out

    def gradient(op, grad):
        return [matrix_diag_part(grad)]


class MatrixDiagPart(OpDef):
    """[..., m, n] -> [..., min(m, n)]: the main diagonals."""

    def shape(op):
        dims = _matrix_dims(op.inputs[0].get_shape())
        if dims is None:
            return unknown_shape()
        m, n = dims[-2:]
        k = None if m is None or n is None else min(m, n)
        return TensorShape(dims[:-2] + [k])

    def kernel(input, T=None):  # noqa: A002 -- TF's name
        if input.ndim < 2:
            raise errors.InvalidArgumentError(None, None, "input must be at least 2-dim, "
                                              f"received shape: {shape_text(input.shape)}")
        return np.diagonal(input, axis1=-2, axis2=-1).copy()

    def gradient(op, grad):
        return [matrix_set_diag(array_ops.zeros_like(op.inputs[0]), grad)]


class MatrixSetDiag(OpDef):
    """input with the main diagonal of each matrix replaced by `diagonal`."""

    def shape(op):
        dims = _matrix_dims(op.inputs[0].get_shape())
        d = op.inputs[1].get_shape()
        if dims is None:
            return op.inputs[0].get_shape()
        m, n = dims[-2:]
        k = None if m is None or n is None else min(m, n)
        expected = TensorShape(dims[:-2] + [k])
        if d.ndims is not None:
            if d.ndims != len(dims) - 1:
                raise ValueError(f"Shape must be rank {len(dims) - 1} but is rank {d.ndims}")
            for a, b in zip(expected.as_list(), d.as_list()):
                if a is not None and b is not None and a != b:
                    raise ValueError(f"Dimensions must be equal, but are {a} and {b}")
        return op.inputs[0].get_shape()

    def kernel(input, diagonal, T=None):  # noqa: A002 -- TF's name
        k = min(input.shape[-2:]) if input.ndim >= 2 else None
        if k is None or diagonal.shape != input.shape[:-2] + (k,):
            raise errors.InvalidArgumentError(
                None, None, f"diagonal must have shape {shape_text(input.shape[:-2])} + "
                f"[{k}] for an input of shape {shape_text(input.shape)}, got "
                f"{shape_text(diagonal.shape)}")
        out = input.copy()
        idx = np.arange(k)
        out[..., idx, idx] = diagonal
        return out

    def gradient(op, grad):
        return [matrix_set_diag(grad, array_ops.zeros_like(op.inputs[1])),
                matrix_diag_part(grad)]


def matrix_diag(diagonal, name="diag", k=0, num_rows=-1, num_cols=-1, padding_value=0):
    """A batch of diagonal matrices: [..., n] -> [..., n, n]. (Only the main diagonal, k=0,
    with its default sizes and padding.)"""
    _main_diagonal_only("matrix_diag", k, num_rows, num_cols, padding_value)
    with name_scope(name, "diag", [diagonal]) as scope:
        d = convert_to_tensor(diagonal, name="diagonal")
        return apply_op("MatrixDiag", [d], {"T": d.dtype.base_dtype}, name=scope)


def matrix_diag_part(input, name="diag_part", k=0, padding_value=0):  # noqa: A002
    """The main diagonals of a batch of matrices: [..., m, n] -> [..., min(m, n)]."""
    _main_diagonal_only("matrix_diag_part", k, padding_value=padding_value)
    with name_scope(name, "diag_part", [input]) as scope:
        x = convert_to_tensor(input, name="input")
        return apply_op("MatrixDiagPart", [x], {"T": x.dtype.base_dtype}, name=scope)


def matrix_set_diag(input, diagonal, name="set_diag", k=0):  # noqa: A002 -- TF's name
    """input with its main diagonals replaced by `diagonal` ([..., min(m, n)])."""
    _main_diagonal_only("matrix_set_diag", k)
    with name_scope(name, "set_diag", [input, diagonal]) as scope:
        x = convert_to_tensor(input, name="input")
        d = convert_to_tensor(diagonal, dtype=x.dtype.base_dtype, name="diagonal")
        return apply_op("MatrixSetDiag", [x, d], {"T": x.dtype.base_dtype}, name=scope)


def _main_diagonal_only(fn, k=0, num_rows=-1, num_cols=-1, padding_value=0):
    if k != 0 or num_rows != -1 or num_cols != -1 or padding_value != 0:
        raise NotImplementedError(f"tf.{fn} in the sandbox handles the main diagonal only "
                                  "(k=0, default num_rows/num_cols/padding_value).")


class MatrixBandPart(OpDef):
    """Keeps the entries (i, j) with (lower < 0 or i - j <= lower) and (upper < 0 or
    j - i <= upper); zeros elsewhere."""

    def shape(op):
        _matrix_dims(op.inputs[0].get_shape())
        return op.inputs[0].get_shape()

    def kernel(input, num_lower, num_upper, T=None, Tindex=None):  # noqa: A002
        if input.ndim < 2:
            raise errors.InvalidArgumentError(None, None, "input must be at least 2-dim, "
                                              f"received shape: {shape_text(input.shape)}")
        m, n = input.shape[-2:]
        lower, upper = int(num_lower), int(num_upper)
        if lower > m:
            raise errors.InvalidArgumentError(None, None, f"num_lower must be negative or "
                                              f"less or equal to number of rows ({m}) got: "
                                              f"{lower}")
        if upper > n:
            raise errors.InvalidArgumentError(None, None, f"num_upper must be negative or "
                                              f"less or equal to number of columns ({n}) "
                                              f"got: {upper}")
        i = np.arange(m)[:, None]
        j = np.arange(n)[None, :]
        keep = ((lower < 0) | (i - j <= lower)) & ((upper < 0) | (j - i <= upper))
        return np.where(keep, input, np.zeros((), input.dtype))

    def gradient(op, grad):
        return [matrix_band_part(grad, op.inputs[1], op.inputs[2]), None, None]


def matrix_band_part(input, num_lower, num_upper, name=None):  # noqa: A002 -- TF's name
    """Zeroes everything outside a band around each matrix's diagonal: num_lower diagonals
    below it, num_upper above it (-1: all)."""
    with name_scope(name, "MatrixBandPart", [input, num_lower, num_upper]) as scope:
        x = convert_to_tensor(input, name="input")
        lo = int_tensor(num_lower, name="num_lower")
        hi = int_tensor(num_upper, name="num_upper")
        return apply_op("MatrixBandPart", [x, lo, hi], {"T": x.dtype.base_dtype,
                                                        "Tindex": lo.dtype.base_dtype},
                        name=scope)


def trace(x, name=None):
    """The sum of the main diagonal of each matrix: [..., m, n] -> [...]."""
    with name_scope(name, "Trace", [x]) as scope:
        x = convert_to_tensor(x, name="x")
        return reduction_ops.reduce_sum(matrix_diag_part(x), [-1], name=scope)

