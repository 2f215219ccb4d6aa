"""The tf.linalg functions that TF-1's top level does not have -- mirrors TF 1.15's
python/ops/linalg/linalg_impl.py (logdet, slogdet, adjoint, matvec, expm, logm, lu and its
lu_solve / lu_reconstruct / lu_matrix_inverse, pinv, matrix_rank, tridiagonal_solve,
tridiagonal_matmul, normalize).

Like ops/linalg_ops.py, every function works on the innermost two dimensions: [..., M, N] is
a batch of matrices. Some are ops of their own, with NumPy / SciPy kernels:

    LogMatrixDeterminant   (sign, log|det A|)             np.linalg.slogdet; with a gradient
    MatrixExponential      exp(A) = I + A + A^2/2! + ...   scipy.linalg.expm (TF: Pade, in
                                                           Python ops; the same numbers)
    MatrixLogarithm        log(A), complex matrices only   scipy.linalg.logm
    Lu                     (LU, p): A[p] = L U             scipy.linalg.lu_factor
    TridiagonalSolve       X with T X = rhs                a dense solve of T
    TridiagonalMatMul      T @ rhs

and the rest are built from existing ops (so their gradients come from those): logdet is
2 * sum(log(diag(cholesky(A)))), pinv and matrix_rank come from the SVD, lu_solve is two
triangular solves. MatrixExponential, MatrixLogarithm, Lu and the tridiagonal ops have no
gradient here.

A tridiagonal matrix T is given by its three diagonals, as TF: in the "compact" format a
[..., 3, M] tensor (superdiagonal, main diagonal, subdiagonal; the superdiagonal's last and the
subdiagonal's first entries are ignored), in the "sequence" format the three [..., M] tensors,
in the "matrix" format the [..., M, M] matrix itself.
"""
import collections

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.graph import name_scope
from ..framework.op_def import OpDef, apply_op
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape, unknown_shape
from . import array_ops, basic_math_ops, comparison_ops, math_ops, reduction_ops
from .complex_ops import real
from .diag_ops import matrix_band_part, matrix_diag, matrix_diag_part, matrix_set_diag
from .indexing_ops import one_hot
from .linalg_base import _check_float, _matrix_shape, _square_kernel, _square_shape, _unary
from .linalg_ops import matrix_inverse, matrix_triangular_solve, norm
from .math_ops import _check_dtype
from .matmul_ops import matmul
from .matrix_decomposition_ops import cholesky, svd
from .slicing_ops import pad

__all__ = ["logdet", "slogdet", "adjoint", "matvec", "expm", "logm", "lu", "lu_solve",
           "lu_reconstruct", "lu_matrix_inverse", "pinv", "matrix_rank", "tridiagonal_solve",
           "tridiagonal_matmul", "normalize"]


def _each_matrix(fn, x):
    """fn applied to each [M, N] matrix of the batch x, in float64; x's dtype back."""
    flat = x.reshape((-1,) + x.shape[-2:]).astype(np.float64)
    return np.asarray([fn(m) for m in flat]).reshape(x.shape).astype(x.dtype)


# -- determinants -----------------------------------------------------------------------------

class LogMatrixDeterminant(OpDef):
    """(sign, log|det|) of each square matrix: [..., M, M] -> two [...] tensors. log|det| does
    not overflow where det itself would."""
    multi_output = True

    def shape(op):
        batch, _, _ = _matrix_shape(op.inputs[0].get_shape(), square=True)
        out = unknown_shape() if batch is None else TensorShape(batch)
        return [out, out]

    def kernel(input, T=None):  # noqa: A002 -- TF's name
        _square_kernel(input, "LogMatrixDeterminant")
        sign, logdet = np.linalg.slogdet(input.astype(np.float64))
        return sign.astype(input.dtype), logdet.astype(input.dtype)

    def gradient(op, _sign_grad, grad):
        """d log|det A| = inv(A)^T (the sign has no gradient)."""
        scale = array_ops.expand_dims(array_ops.expand_dims(grad, -1), -1)
        return [scale * matrix_inverse(op.inputs[0], adjoint=True)]


def slogdet(input, name=None):  # noqa: A002 -- TF's name
    """(sign, log_abs_determinant) of each square matrix of `input` ([..., M, M])."""
    return _unary("LogMatrixDeterminant", input, name, n_out=2)


def logdet(matrix, name=None):
    """log(det(matrix)) of each Hermitian positive definite matrix, from its Cholesky factor L:
    2 * sum(log(diag(L))) -- no overflow, but the matrix must be positive definite."""
    with name_scope(name, "logdet", [matrix]):
        chol = cholesky(matrix)
        return 2.0 * reduction_ops.reduce_sum(
            basic_math_ops.log(real(matrix_diag_part(chol))), axis=[-1])


# -- transposes and products ------------------------------------------------------------------

def adjoint(matrix, name=None):
    """The conjugate transpose of each matrix (the transpose, for real matrices)."""
    with name_scope(name, "adjoint", [matrix]):
        return array_ops.matrix_transpose(convert_to_tensor(matrix, name="matrix"),
                                          conjugate=True)


def matvec(a, b, transpose_a=False, adjoint_a=False, a_is_sparse=False, b_is_sparse=False,
           name=None):
    """a @ b for matrices a [..., M, N] and vectors b [..., N]: [..., M]."""
    with name_scope(name, "MatVec", [a, b]):
        product = matmul(a, array_ops.expand_dims(b, -1), transpose_a=transpose_a,
                         adjoint_a=adjoint_a, a_is_sparse=a_is_sparse,
                         b_is_sparse=b_is_sparse)
        return array_ops.squeeze(product, axis=-1)


# -- matrix exponential ------------------------------------------------------------------------

class MatrixExponential(OpDef):
    """exp(A) = sum_k A^k / k! of each square matrix (scaling and squaring, Pade)."""
    shape = _square_shape

    def kernel(input, T=None):  # noqa: A002 -- TF's name
        from scipy.linalg import expm as _expm
        _square_kernel(input, "MatrixExponential")
        return _each_matrix(_expm, input)


def expm(input, name=None):  # noqa: A002 -- TF's name
    """The matrix exponential of each square matrix of `input` ([..., M, M])."""
    return _unary("MatrixExponential", input, name or "matrix_exponential")


class MatrixLogarithm(OpDef):
    """log(A), the inverse of expm, of each square complex matrix (scipy.linalg.logm)."""
    shape = _square_shape

    def kernel(input, T=None):  # noqa: A002 -- TF's name
        from scipy.linalg import logm as _logm
        _square_kernel(input, "MatrixLogarithm")
        flat = input.reshape((-1,) + input.shape[-2:]).astype(np.complex128)
        return np.asarray([_logm(m) for m in flat]).reshape(input.shape).astype(input.dtype)


def logm(input, name=None):  # noqa: A002 -- TF's name
    """The principal matrix logarithm of each square matrix of the complex `input`
    ([..., M, M], complex64 or complex128 -- tf.complex(x, tf.zeros_like(x)) for a real x)."""
    with name_scope(name, "MatrixLogarithm", [input]) as scope:
        x = convert_to_tensor(input, name="input")
        _check_dtype("MatrixLogarithm", x, (_dtypes.complex64, _dtypes.complex128), "input")
        return apply_op("MatrixLogarithm", [x], {"T": x.dtype.base_dtype}, name=scope)


# -- LU decomposition ------------------------------------------------------------------------

def _lu_one(a):
    """(LU packed in one matrix, permutation p) of one square matrix: a[p] = L U."""
    from scipy.linalg import lu_factor
    packed, pivots = lu_factor(a, check_finite=False)
    perm = np.arange(a.shape[0])
    for i, j in enumerate(pivots):          # LAPACK's row swaps, made one permutation
        perm[i], perm[j] = perm[j], perm[i]
    return packed, perm


class Lu(OpDef):
    """(lu, p) of each square matrix A: A[..., p, :] = L U, with L unit lower triangular
    (below lu's diagonal) and U upper triangular (lu's diagonal and above)."""
    multi_output = True

    def shape(op):
        shape = op.inputs[0].get_shape()
        batch, m, _ = _matrix_shape(shape, square=True)
        perm = unknown_shape() if batch is None else TensorShape(batch + [m])
        return [shape, perm]

    def kernel(input, T=None, output_idx_type=None):  # noqa: A002 -- TF's name
        _square_kernel(input, "Lu")
        flat = input.reshape((-1,) + input.shape[-2:]).astype(np.float64)
        results = [_lu_one(a) for a in flat]
        if any(np.any(np.diag(packed) == 0) for packed, _ in results):
            raise errors.InvalidArgumentError(None, None, "Input is not invertible.")
        lus = np.asarray([packed for packed, _ in results]).reshape(input.shape)
        perms = np.asarray([perm for _, perm in results]).reshape(input.shape[:-1])
        return lus.astype(input.dtype), perms.astype(output_idx_type.as_numpy_dtype)


LuOutput = collections.namedtuple("Lu", ["lu", "p"])


def lu(input, output_idx_type=_dtypes.int32, name=None):  # noqa: A002 -- TF's name
    """(lu, p): the LU decomposition of each square matrix with partial pivoting (a
    namedtuple Lu, as TF's)."""
    with name_scope(name, "Lu", [input]) as scope:
        x = convert_to_tensor(input, name="input")
        _check_float("Lu", x)
        dtype = x.dtype.base_dtype
        return LuOutput(*apply_op("Lu", [x], {"T": dtype, "output_idx_type": output_idx_type},
                            name=scope, output_dtypes=[dtype, output_idx_type]))


def _permutation_matrix(perm, dtype):
    """P with (P @ A)[i] = A[perm[i]]: perm's one-hot rows."""
    return one_hot(perm, array_ops.shape(perm)[-1], dtype=dtype)


def _lu_factors(lower_upper):
    """(L, U) unpacked from lu: L unit lower triangular, U upper triangular."""
    lower = matrix_band_part(lower_upper, -1, 0)
    ones = array_ops.ones_like(matrix_diag_part(lower_upper))
    return matrix_set_diag(lower, ones), matrix_band_part(lower_upper, 0, -1)


def lu_solve(lower_upper, perm, rhs, validate_args=False, name=None):
    """X with A X = rhs, A given by its LU decomposition (tf.linalg.lu's outputs)."""
    with name_scope(name, "lu_solve", [lower_upper, perm, rhs]):
        lower_upper = convert_to_tensor(lower_upper, name="lower_upper")
        lower, upper = _lu_factors(lower_upper)
        permuted = matmul(_permutation_matrix(perm, lower_upper.dtype), rhs)
        y = matrix_triangular_solve(lower, permuted, lower=True)
        return matrix_triangular_solve(upper, y, lower=False)


def lu_reconstruct(lower_upper, perm, validate_args=False, name=None):
    """A from its LU decomposition: P^T L U."""
    with name_scope(name, "lu_reconstruct", [lower_upper, perm]):
        lower_upper = convert_to_tensor(lower_upper, name="lower_upper")
        lower, upper = _lu_factors(lower_upper)
        return matmul(_permutation_matrix(perm, lower_upper.dtype), matmul(lower, upper),
                      transpose_a=True)


def lu_matrix_inverse(lower_upper, perm, validate_args=False, name=None):
    """inv(A) from A's LU decomposition: lu_solve with the identity as rhs."""
    with name_scope(name, "lu_matrix_inverse", [lower_upper, perm]):
        lower_upper = convert_to_tensor(lower_upper, name="lower_upper")
        eye = matrix_diag(array_ops.ones_like(matrix_diag_part(lower_upper)))
        return lu_solve(lower_upper, perm, eye)


# -- from the SVD: pseudo-inverse and rank ---------------------------------------------------

def pinv(a, rcond=None, validate_args=False, name=None):
    """The Moore-Penrose pseudo-inverse of each matrix [..., M, N] -> [..., N, M]: from the SVD
    a = U S V^H, V S^+ U^H with the singular values below rcond * max(S) taken as zero
    (rcond defaults to 10 * max(M, N) * eps of a's dtype, as TF)."""
    with name_scope(name, "pinv", [a]):
        a = convert_to_tensor(a, name="a")
        _check_float("pinv", a, "a")
        if rcond is None:
            m, n = a.get_shape().as_list()[-2:]
            rcond = 10.0 * max(m, n) * np.finfo(a.dtype.as_numpy_dtype).eps
        s, u, v = svd(a, full_matrices=False, compute_uv=True)
        cutoff = rcond * reduction_ops.reduce_max(s, axis=-1, keepdims=True)
        kept = comparison_ops.greater(s, cutoff)
        s_inv = comparison_ops.where(kept, math_ops.divide(array_ops.ones_like(s), s),
                                     array_ops.zeros_like(s))
        return matmul(v * array_ops.expand_dims(s_inv, -2), u, adjoint_b=True)


def matrix_rank(a, tol=None, validate_args=False, name=None):
    """The number of singular values of each matrix above `tol` (default
    eps * max(M, N) * max(singular values), as TF): int32 [...]."""
    with name_scope(name, "matrix_rank", [a]):
        a = convert_to_tensor(a, name="a")
        _check_float("matrix_rank", a, "a")
        s = svd(a, compute_uv=False)
        if tol is None:
            m, n = a.get_shape().as_list()[-2:]
            eps = np.finfo(a.dtype.as_numpy_dtype).eps
            tol = eps * max(m, n) * reduction_ops.reduce_max(s, axis=-1, keepdims=True)
        return reduction_ops.reduce_sum(math_ops.cast(comparison_ops.greater(s, tol),
                                                      _dtypes.int32), axis=-1)


# -- tridiagonal matrices --------------------------------------------------------------------

def _tridiagonal(diagonals):
    """The dense [M, M] matrix of one compact [3, M] tridiagonal."""
    superdiag, main, subdiag = diagonals
    return np.diag(main) + np.diag(superdiag[:-1], 1) + np.diag(subdiag[1:], -1)


class TridiagonalSolve(OpDef):
    """X [..., M, K] with T X = rhs, T given compact [..., 3, M]."""

    def shape(op):
        return op.inputs[1].get_shape()

    def kernel(diagonals, rhs, T=None, partial_pivoting=True):
        if diagonals.ndim < 2 or diagonals.shape[-2] != 3:
            raise errors.InvalidArgumentError(None, None, "TridiagonalSolve: diagonals must "
                                              "be [..., 3, M] (superdiagonal, diagonal, "
                                              f"subdiagonal), got {list(diagonals.shape)}")
        flat_d = diagonals.reshape((-1,) + diagonals.shape[-2:]).astype(np.float64)
        flat_r = rhs.reshape((-1,) + rhs.shape[-2:]).astype(np.float64)
        try:
            out = [np.linalg.solve(_tridiagonal(d), r) for d, r in zip(flat_d, flat_r)]
        except np.linalg.LinAlgError:
            raise errors.InvalidArgumentError(None, None, "The matrix is not invertible.") \
                from None
        return np.asarray(out).reshape(rhs.shape).astype(rhs.dtype)


class TridiagonalMatMul(OpDef):
    """T @ rhs: the three diagonals [..., 1, M] each, rhs [..., M, N]."""

    def shape(op):
        return op.inputs[3].get_shape()

    def kernel(superdiag, maindiag, subdiag, rhs, T=None):
        diagonals = np.concatenate([superdiag, maindiag, subdiag], axis=-2)
        flat_d = diagonals.reshape((-1,) + diagonals.shape[-2:])
        flat_r = rhs.reshape((-1,) + rhs.shape[-2:])
        out = [_tridiagonal(d) @ r for d, r in zip(flat_d, flat_r)]
        return np.asarray(out).reshape(rhs.shape).astype(rhs.dtype)


def _compact(diagonals, diagonals_format):
    """The [..., 3, M] compact form of `diagonals` given in `diagonals_format`."""
    if diagonals_format == "compact":
        return convert_to_tensor(diagonals, name="diagonals")
    if diagonals_format == "sequence":
        if not isinstance(diagonals, (list, tuple)) or len(diagonals) != 3:
            raise ValueError("Expected diagonals to be a sequence of length 3 (superdiagonal, "
                             "diagonal, subdiagonal) with diagonals_format='sequence'.")
        return array_ops.stack(list(diagonals), axis=-2)
    if diagonals_format == "matrix":
        matrix = convert_to_tensor(diagonals, name="diagonals")
        rank = matrix.get_shape().ndims
        no_pad = [[0, 0]] * (rank - 2)
        superdiag = pad(matrix_diag_part(matrix[..., :-1, 1:]), no_pad + [[0, 1]])
        subdiag = pad(matrix_diag_part(matrix[..., 1:, :-1]), no_pad + [[1, 0]])
        return array_ops.stack([superdiag, matrix_diag_part(matrix), subdiag], axis=-2)
    raise ValueError(f"Unrecognized diagonals_format: {diagonals_format!r}; use 'compact', "
                     "'sequence' or 'matrix'.")


def tridiagonal_solve(diagonals, rhs, diagonals_format="compact", transpose_rhs=False,
                      conjugate_rhs=False, name=None, partial_pivoting=True):
    """X [..., M, K] with T X = rhs, for the tridiagonal matrices T given by `diagonals`."""
    compact = _compact(diagonals, diagonals_format)
    _check_float("TridiagonalSolve", compact, "diagonals")
    rhs = convert_to_tensor(rhs, dtype=compact.dtype.base_dtype, name="rhs")
    if transpose_rhs:
        rhs = array_ops.matrix_transpose(rhs, conjugate=conjugate_rhs)
    return apply_op("TridiagonalSolve", [compact, rhs],
                    {"T": compact.dtype.base_dtype, "partial_pivoting": partial_pivoting},
                    name=name or "TridiagonalSolve")


def tridiagonal_matmul(diagonals, rhs, diagonals_format="compact", name=None):
    """T @ rhs [..., M, N], for the tridiagonal matrices T given by `diagonals`."""
    compact = _compact(diagonals, diagonals_format)
    _check_float("TridiagonalMatMul", compact, "diagonals")
    rhs = convert_to_tensor(rhs, dtype=compact.dtype.base_dtype, name="rhs")
    parts = [array_ops.expand_dims(compact[..., i, :], -2) for i in range(3)]
    return apply_op("TridiagonalMatMul", parts + [rhs], {"T": compact.dtype.base_dtype},
                    name=name or "TridiagonalMatMul")


# -- normalize ------------------------------------------------------------------------------

def normalize(tensor, ord="euclidean", axis=None, name=None):  # noqa: A002 -- TF's name
    """(tensor / norm, norm): `tensor` scaled to norm 1 along `axis`, and the norm (kept dims)."""
    with name_scope(name, "normalize", [tensor]):
        tensor = convert_to_tensor(tensor, name="tensor")
        magnitude = norm(tensor, ord=ord, axis=axis, keepdims=True)
        return math_ops.divide(tensor, magnitude), magnitude
