"""Linear algebra -- mirrors TensorFlow 1.x's python/ops/linalg_ops.py (eye, norm,
matrix_inverse, matrix_determinant, matrix_solve, matrix_square_root), the tensordot and cross of
python/ops/math_ops.py, and the gradients of python/ops/linalg_grad.py. The decompositions
(cholesky, qr, svd, self_adjoint_eig) are in matrix_decomposition_ops.py.

Every op here works on the innermost two dimensions of its input: a tensor of shape
[..., M, N] is a *batch* of M x N matrices, and the leading dimensions are kept. The kernels
are NumPy's (np.linalg), computed in the input's dtype (float16, float32 or float64).

The gradients are TF's formulas:

    d inv(A)      = -inv(A)^T  g  inv(A)^T
    d det(A)      = g * det(A) * inv(A)^T
    X = solve(A, B):   dB = solve(A^T, g),  dA = -dB X^T   (triangular A: dA's triangle)

all three built from graph ops (so they can be differentiated again).

`norm` and `tensordot` add no op of their own: they are built from reduce_sum, sqrt, matmul,
transpose and reshape, so their gradients come from those ops.
"""
import builtins

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.graph import name_scope
from ..framework.op_def import OpDef, apply_op
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape, unknown_shape
from ..framework.tensor_util import constant_value, int_tensor, shape_text
from . import array_ops, basic_math_ops, math_ops, reduction_ops
from .linalg_base import _check_float, _matrix_shape, _square_kernel, _square_shape, _unary
from .matmul_ops import matmul
from .matrix_decomposition_ops import cholesky, svd

__all__ = ["eye", "norm", "tensordot", "matrix_inverse", "matrix_determinant", "matrix_solve",
           "matrix_triangular_solve", "cholesky_solve", "matrix_solve_ls", "cross",
           "matrix_square_root"]


class Eye(OpDef):
    """A batch of num_rows x num_columns identity matrices. (A sandbox op: TF builds eye from
    ones and MatrixDiag / MatrixSetDiag.)"""

    def shape(op):
        r, c = (constant_value(t) for t in op.inputs[:2])
        batch = constant_value(op.inputs[2])
        dims = [None if r is None else int(r), None if c is None else int(c)]
        if batch is None:
            return unknown_shape()
        return TensorShape([int(b) for b in np.reshape(batch, -1)] + dims)

    def kernel(num_rows, num_columns, batch_shape, dtype=None):
        m = np.eye(int(num_rows), int(num_columns), dtype=dtype.as_numpy_dtype)
        return np.broadcast_to(m, tuple(int(b) for b in batch_shape) + m.shape).copy()


def eye(num_rows, num_columns=None, batch_shape=None, dtype=_dtypes.float32, name=None):
    """The identity matrix (num_rows x num_columns, default square), optionally repeated over
    `batch_shape`: tf.eye(2, batch_shape=[3]) has shape [3, 2, 2]."""
    with name_scope(name, "eye", [num_rows, num_columns, batch_shape]) as scope:
        dtype = _dtypes.as_dtype(dtype).base_dtype
        rows = int_tensor(num_rows, name="num_rows")
        cols = rows if num_columns is None else int_tensor(num_columns, name="num_columns")
        batch = int_tensor([] if batch_shape is None else batch_shape, name="batch_shape")
        if batch.dtype.base_dtype not in (_dtypes.int32, _dtypes.int64):
            batch = math_ops.cast(batch, _dtypes.int32)
        return apply_op("Eye", [rows, cols, batch], {"dtype": dtype}, name=scope,
                        output_dtypes=[dtype])


# -- norm ---------------------------------------------------------------------------------

def _is_pair(axis):
    return isinstance(axis, (list, tuple)) and len(axis) == 2


def norm(tensor, ord="euclidean", axis=None, keepdims=None, name=None,  # noqa: A002 -- TF's
         keep_dims=None):
    """Vector norms (ord 'euclidean' = 2, 1, np.inf, any p > 0) over `axis` (default: all
    entries, the tensor read as one vector), or matrix norms over a pair of axes ('euclidean'
    = 'fro', 1, np.inf: the largest column / row sum of absolute values, 2: the largest
    singular value). keepdims keeps the reduced axes with size 1."""
    if keep_dims is not None:
        if keepdims is not None:
            raise ValueError("Cannot specify both 'keep_dims' and 'keepdims'")
        keepdims = keep_dims
    keepdims = bool(keepdims)
    is_matrix = _is_pair(axis)
    if is_matrix:
        axis = list(axis)
        if axis[0] == axis[1]:
            raise ValueError(f"'axis' must be None, an integer, or a tuple of 2 unique "
                             f"integers, got {tuple(axis)}")
        if ord not in ("euclidean", "fro", 1, 2, np.inf):
            raise ValueError(f"'ord' must be a supported matrix norm in ['euclidean', 'fro', "
                             f"1, 2, inf], got {ord}")
    else:
        if axis is not None and not isinstance(axis, int):
            if isinstance(axis, (list, tuple)) and len(axis) == 1:
                axis = axis[0]
            else:
                raise ValueError(f"'axis' must be None, an integer, or a tuple of 2 unique "
                                 f"integers, got {axis}")
        if not (ord in ("euclidean", np.inf) or (isinstance(ord, (int, float))
                                                 and not isinstance(ord, bool) and ord > 0)):
            raise ValueError(f"'ord' must be a supported vector norm, got {ord}")
    with name_scope(name, "norm", [tensor]):
        x = convert_to_tensor(tensor, name="tensor")
        if is_matrix:
            rank = x.get_shape().ndims
            if rank is not None:
                axis = [a % rank for a in axis]
            if ord in ("euclidean", "fro"):
                result = basic_math_ops.sqrt(reduction_ops.reduce_sum(x * x, axis,
                                                                      keepdims=True))
            elif ord == 2:
                if rank is None:
                    raise ValueError("norm with ord=2 over two axes needs a known rank")
                rest = [i for i in builtins.range(rank) if i not in axis]
                perm = rest + axis
                s = svd(array_ops.transpose(x, perm), compute_uv=False)
                result = array_ops.expand_dims(reduction_ops.reduce_max(s, -1, keepdims=True),
                                               -1)
                inverse = np.argsort(perm).tolist()
                result = array_ops.transpose(result, inverse)
            else:
                # 1: the largest column sum (sum over rows, then max over columns);
                # inf: the largest row sum.
                sum_axis, max_axis = (axis[0], axis[1]) if ord == 1 else (axis[1], axis[0])
                result = reduction_ops.reduce_max(
                    reduction_ops.reduce_sum(basic_math_ops.abs(x), sum_axis, keepdims=True),
                    max_axis, keepdims=True)
        else:
            if ord == "euclidean" or ord == 2:
                result = basic_math_ops.sqrt(reduction_ops.reduce_sum(x * x, axis,
                                                                      keepdims=True))
            elif ord == 1:
                result = reduction_ops.reduce_sum(basic_math_ops.abs(x), axis, keepdims=True)
            elif ord == np.inf:
                result = reduction_ops.reduce_max(basic_math_ops.abs(x), axis, keepdims=True)
            else:
                p = convert_to_tensor(ord, dtype=x.dtype.base_dtype)
                result = math_ops.pow(reduction_ops.reduce_sum(
                    math_ops.pow(basic_math_ops.abs(x), p), axis, keepdims=True), 1.0 / p)
        if not keepdims:
            squeeze_axis = axis if is_matrix else (None if axis is None else [axis])
            result = array_ops.squeeze(result, squeeze_axis)
        return result


# -- tensordot ------------------------------------------------------------------------------

def _tensordot_axes(axes, a_rank, b_rank):
    if isinstance(axes, (int, np.integer)):
        if axes < 0:
            raise ValueError(f"'axes' must be at least 0, got {axes}.")
        if a_rank is None or b_rank is None:
            raise ValueError("tensordot with an int 'axes' needs inputs of known rank")
        if axes > a_rank or axes > b_rank:
            raise IndexError("list index out of range")
        return list(builtins.range(a_rank - axes, a_rank)), list(builtins.range(axes))
    axes = list(axes) if not hasattr(axes, "tolist") else axes.tolist()
    if len(axes) != 2:
        raise ValueError(f"'axes' must be an integer or have length 2, got {axes}")
    a_axes, b_axes = axes
    a_axes = [a_axes] if isinstance(a_axes, (int, np.integer)) else list(a_axes)
    b_axes = [b_axes] if isinstance(b_axes, (int, np.integer)) else list(b_axes)
    if len(a_axes) != len(b_axes):
        raise ValueError(f"Different number of contraction axes 'a' and 'b', "
                         f"{len(a_axes)} != {len(b_axes)}.")
    if a_rank is None or b_rank is None:
        raise ValueError("tensordot needs inputs of known rank")
    return [int(i) % a_rank for i in a_axes], [int(i) % b_rank for i in b_axes]


def _flatten_for_dot(x, axes, contract_first):
    """x transposed so the contracted axes come last (or first) and reshaped to a matrix;
    returns it and the static free dims."""
    rank = x.get_shape().ndims
    free = [i for i in builtins.range(rank) if i not in axes]
    perm = axes + free if contract_first else free + axes
    dims = x.get_shape().as_list()
    free_dims = [dims[i] for i in free]
    shape = array_ops.shape(x)
    from .indexing_ops import gather

    def prod(idx):
        known = [dims[i] for i in idx]
        if all(d is not None for d in known):
            return int(np.prod(known, dtype=np.int64))
        return reduction_ops.reduce_prod(gather(shape, idx))

    free_size, axes_size = prod(free), prod(axes)
    new_shape = [axes_size, free_size] if contract_first else [free_size, axes_size]
    if perm != list(builtins.range(rank)):
        x = array_ops.transpose(x, perm)
    return array_ops.reshape(x, array_ops.stack(new_shape) if any(
        not isinstance(s, int) for s in new_shape) else new_shape), free, free_dims


def tensordot(a, b, axes, name=None):
    """Sums the products of a's and b's entries over the axes paired in `axes`: an int n
    pairs a's last n axes with b's first n; a pair of lists names them. The result has a's
    free axes, then b's. tensordot(a, b, 1) of two matrices is a @ b, tensordot(u, v, 0) is
    the outer product."""
    with name_scope(name, "Tensordot", [a, b, axes]) as scope:
        a = convert_to_tensor(a, name="a")
        b = convert_to_tensor(b, name="b")
        a_axes, b_axes = _tensordot_axes(axes, a.get_shape().ndims, b.get_shape().ndims)
        a_mat, a_free, a_free_dims = _flatten_for_dot(a, a_axes, False)
        b_mat, b_free, b_free_dims = _flatten_for_dot(b, b_axes, True)
        product = matmul(a_mat, b_mat)
        out_dims = a_free_dims + b_free_dims
        if all(d is not None for d in out_dims):
            return array_ops.reshape(product, out_dims, name=scope)
        from .indexing_ops import gather
        from .slicing_ops import concat
        out_shape = concat([gather(array_ops.shape(a), a_free),
                            gather(array_ops.shape(b), b_free)], 0)
        result = array_ops.reshape(product, out_shape, name=scope)
        result.set_shape(out_dims)
        return result


# -- inverse, determinant, solve ------------------------------------------------------------

class MatrixInverse(OpDef):
    """The inverse of each square matrix (of its transpose with adjoint=True)."""
    shape = _square_shape

    def kernel(input, adjoint=False, T=None):  # noqa: A002 -- TF's name
        _square_kernel(input, "MatrixInverse")
        x = np.swapaxes(input, -1, -2) if adjoint else input
        try:
            return np.linalg.inv(x).astype(input.dtype)
        except np.linalg.LinAlgError:
            raise errors.InvalidArgumentError(None, None, "Input is not invertible.") from None

    def gradient(op, grad):
        ainv = op.outputs[0]
        if op.get_attr("adjoint"):
            return [-matmul(ainv, matmul(grad, ainv, adjoint_a=True))]
        return [-matmul(ainv, matmul(grad, ainv, adjoint_b=True), adjoint_a=True)]


def matrix_inverse(input, adjoint=False, name=None):  # noqa: A002 -- TF's name
    """The inverse of each square matrix of `input` ([..., M, M]); InvalidArgumentError when
    one is singular."""
    return _unary("MatrixInverse", input, name, {"adjoint": bool(adjoint)})


class MatrixDeterminant(OpDef):
    """det of each square matrix: [..., M, M] -> [...]."""

    def shape(op):
        batch, _, _ = _matrix_shape(op.inputs[0].get_shape(), square=True)
        return unknown_shape() if batch is None else TensorShape(batch)

    def kernel(input, T=None):  # noqa: A002 -- TF's name
        _square_kernel(input, "MatrixDeterminant")
        return np.linalg.det(input.astype(np.float64)).astype(input.dtype)

    def gradient(op, grad):
        a, det = op.inputs[0], op.outputs[0]
        scale = array_ops.expand_dims(array_ops.expand_dims(grad * det, -1), -1)
        return [scale * matrix_inverse(a, adjoint=True)]


def matrix_determinant(input, name=None):  # noqa: A002 -- TF's name
    return _unary("MatrixDeterminant", input, name)


# -- matrix square root ---------------------------------------------------------------------

def _sqrtm(a):
    """The principal square root of one square matrix: V sqrt(D) V^-1 from its
    eigendecomposition A = V D V^-1 (TF uses a real Schur decomposition; for a matrix with
    real square root the numbers agree). In float64, complex in between, real part kept."""
    w, v = np.linalg.eig(a.astype(np.float64))
    root = (v * np.sqrt(w.astype(np.complex128))) @ np.linalg.inv(v)
    return root.real


class MatrixSquareRoot(OpDef):
    """S with S @ S = A for each square matrix A (the principal root)."""
    shape = _square_shape

    def kernel(input, T=None):  # noqa: A002 -- TF's name
        _square_kernel(input, "MatrixSquareRoot")
        flat = input.reshape((-1,) + input.shape[-2:])
        roots = [_sqrtm(a) for a in flat]
        return np.asarray(roots, dtype=np.float64).reshape(input.shape).astype(input.dtype)

    def gradient(op, grad):
        return [apply_op("MatrixSquareRootGrad", [op.outputs[0], grad],
                         {"T": grad.dtype.base_dtype}, name="MatrixSquareRootGrad")]


class MatrixSquareRootGrad(OpDef):
    """dA from dS, where S = sqrtm(A): S dS + dS S = dA, so dA solves the Sylvester equation
    S^T dA + dA S^T = dS -- solved, as TF's linalg_grad.py, as one linear system of M*M
    unknowns: (S^T (x) I + I (x) S) vec(dA) = vec(dS), with (x) the Kronecker product."""
    differentiable = False

    def shape(op):
        return op.inputs[0].get_shape()

    def kernel(sqrtm, grad, T=None):
        m = sqrtm.shape[-1]
        s = sqrtm.reshape((-1, m, m)).astype(np.float64)
        g = grad.reshape((-1, m * m)).astype(np.float64)
        eye = np.eye(m)
        out = [np.linalg.solve(np.kron(si.T, eye) + np.kron(eye, si), gi)
               for si, gi in zip(s, g)]
        return np.asarray(out).reshape(grad.shape).astype(grad.dtype)


def matrix_square_root(input, name=None):  # noqa: A002 -- TF's name
    """The principal square root of each square matrix of `input` ([..., M, M]): S with
    S @ S = input. The matrices should have no eigenvalue on the negative real axis."""
    return _unary("MatrixSquareRoot", input, name)


class MatrixSolve(OpDef):
    """X with matrix @ X = rhs (matrix^T @ X = rhs with adjoint=True), per batch entry."""

    def shape(op):
        batch, m, _ = _matrix_shape(op.inputs[0].get_shape(), square=True)
        rb, rm, k = _matrix_shape(op.inputs[1].get_shape(), what="rhs")
        if m is not None and rm is not None and m != rm:
            raise ValueError(f"Dimensions must be equal, but are {m} and {rm}")
        if batch is None or rb is None:
            return unknown_shape()
        return TensorShape(batch + [m if m is not None else rm, k])

    def kernel(matrix, rhs, adjoint=False, T=None):
        _square_kernel(matrix, "MatrixSolve")
        if rhs.ndim != matrix.ndim or rhs.shape[-2] != matrix.shape[-1]:
            raise errors.InvalidArgumentError(
                None, None, f"Input matrix and right-hand side must have the same number of "
                f"rows: matrix {shape_text(matrix.shape)}, rhs {shape_text(rhs.shape)}.")
        a = np.swapaxes(matrix, -1, -2) if adjoint else matrix
        try:
            return np.linalg.solve(a, rhs).astype(rhs.dtype)
        except np.linalg.LinAlgError:
            raise errors.InvalidArgumentError(None, None, "Input matrix is not invertible."
                                              ) from None

    def gradient(op, grad):
        a, c = op.inputs[0], op.outputs[0]
        adjoint = op.get_attr("adjoint")
        grad_b = matrix_solve(a, grad, adjoint=not adjoint)
        if adjoint:
            grad_a = -matmul(c, grad_b, adjoint_b=True)
        else:
            grad_a = -matmul(grad_b, c, adjoint_b=True)
        return [grad_a, grad_b]


def matrix_solve(matrix, rhs, adjoint=False, name=None):
    """Solves matrix @ X = rhs for X ([..., M, M] and [..., M, K] -> [..., M, K])."""
    with name_scope(name, "MatrixSolve", [matrix, rhs]) as scope:
        a = convert_to_tensor(matrix, name="matrix")
        _check_float("MatrixSolve", a, "matrix")
        b = convert_to_tensor(rhs, dtype=a.dtype.base_dtype, name="rhs")
        return apply_op("MatrixSolve", [a, b], {"adjoint": bool(adjoint),
                                                "T": a.dtype.base_dtype}, name=scope)


class MatrixTriangularSolve(OpDef):
    """X with matrix @ X = rhs, reading only matrix's lower (or upper) triangle."""
    shape = MatrixSolve.shape

    def kernel(matrix, rhs, lower=True, adjoint=False, T=None):
        _square_kernel(matrix, "MatrixTriangularSolve")
        a = np.tril(matrix) if lower else np.triu(matrix)
        if adjoint:
            a = np.swapaxes(a, -1, -2)
        if np.any(np.diagonal(a, axis1=-2, axis2=-1) == 0):
            raise errors.InvalidArgumentError(None, None, "Input matrix is not invertible.")
        return np.linalg.solve(a.astype(np.float64), rhs).astype(rhs.dtype)

    def gradient(op, grad):
        from .diag_ops import matrix_band_part
        a, c = op.inputs[0], op.outputs[0]
        lower, adjoint = op.get_attr("lower"), op.get_attr("adjoint")
        grad_b = matrix_triangular_solve(a, grad, lower=lower, adjoint=not adjoint)
        grad_a = -matmul(c, grad_b, adjoint_b=True) if adjoint else \
            -matmul(grad_b, c, adjoint_b=True)
        return [matrix_band_part(grad_a, -1, 0) if lower else matrix_band_part(grad_a, 0, -1),
                grad_b]


def matrix_triangular_solve(matrix, rhs, lower=True, adjoint=False, name=None):
    """Solves matrix @ X = rhs for a lower (or upper) triangular matrix; the other triangle
    is not read."""
    with name_scope(name, "MatrixTriangularSolve", [matrix, rhs]) as scope:
        a = convert_to_tensor(matrix, name="matrix")
        _check_float("MatrixTriangularSolve", a, "matrix")
        b = convert_to_tensor(rhs, dtype=a.dtype.base_dtype, name="rhs")
        return apply_op("MatrixTriangularSolve", [a, b], {"lower": bool(lower),
                                                          "adjoint": bool(adjoint),
                                                          "T": a.dtype.base_dtype}, name=scope)


def cholesky_solve(chol, rhs, name=None):
    """Solves A X = rhs given chol = cholesky(A): two triangular solves."""
    with name_scope(name, "cholesky_solve", [chol, rhs]):
        y = matrix_triangular_solve(chol, rhs, lower=True, adjoint=False)
        return matrix_triangular_solve(chol, y, lower=True, adjoint=True)


class MatrixSolveLs(OpDef):
    """The least-squares solution (NumPy's lstsq; the fast=False path of matrix_solve_ls)."""

    def shape(op):
        batch, _, n = _matrix_shape(op.inputs[0].get_shape())
        _, _, k = _matrix_shape(op.inputs[1].get_shape(), what="rhs")
        return unknown_shape() if batch is None else TensorShape(batch + [n, k])

    def kernel(matrix, rhs, l2_regularizer, fast=False, T=None):
        lam = float(l2_regularizer)
        a, b = matrix.astype(np.float64), rhs.astype(np.float64)
        if lam:
            n = a.shape[-1]
            a = np.concatenate([a, np.broadcast_to(np.sqrt(lam) * np.eye(n),
                                                   a.shape[:-2] + (n, n))], -2)
            b = np.concatenate([b, np.zeros(b.shape[:-2] + (n, b.shape[-1]))], -2)
        if a.ndim == 2:
            return np.linalg.lstsq(a, b, rcond=None)[0].astype(rhs.dtype)
        return np.stack([np.linalg.lstsq(x, y, rcond=None)[0]
                         for x, y in zip(a.reshape((-1,) + a.shape[-2:]),
                                         b.reshape((-1,) + b.shape[-2:]))]
                        ).reshape(a.shape[:-2] + (a.shape[-1], b.shape[-1])).astype(rhs.dtype)

    def gradient(op, grad):
        raise ValueError("Gradient not defined for fast=False")      # TF's words


def matrix_solve_ls(matrix, rhs, l2_regularizer=0.0, fast=True, name=None):
    """The X minimising ||matrix X - rhs||^2 + l2_regularizer ||X||^2. fast=True (the
    default) solves the normal equations with a Cholesky decomposition, from graph ops (so
    it has a gradient, as TF's); fast=False uses NumPy's lstsq (no gradient, as in TF)."""
    with name_scope(name, "matrix_solve_ls", [matrix, rhs, l2_regularizer]) as scope:
        a = convert_to_tensor(matrix, name="matrix")
        _check_float("MatrixSolveLs", a, "matrix")
        b = convert_to_tensor(rhs, dtype=a.dtype.base_dtype, name="rhs")
        lam = convert_to_tensor(l2_regularizer, dtype=a.dtype.base_dtype, name="l2_regularizer")
        if not fast:
            return apply_op("MatrixSolveLs", [a, b, lam], {"fast": False,
                                                           "T": a.dtype.base_dtype}, name=scope)
        _, m, n = _matrix_shape(a.get_shape())
        if m is None or n is None:
            raise ValueError("matrix_solve_ls(fast=True) needs the matrix dimensions known")
        if m >= n:           # overdetermined: (A^T A + lam I) X = A^T b
            gram = matmul(a, a, adjoint_a=True) + lam * eye(n, dtype=a.dtype.base_dtype)
            return cholesky_solve(cholesky(gram), matmul(a, b, adjoint_a=True), name=scope)
        gram = matmul(a, a, adjoint_b=True) + lam * eye(m, dtype=a.dtype.base_dtype)
        return matmul(a, cholesky_solve(cholesky(gram), b), adjoint_a=True, name=scope)


# -- cross ----------------------------------------------------------------------------------

class Cross(OpDef):
    """The cross product of 3-vectors along the last dimension."""

    def shape(op):
        a, b = op.inputs[0].get_shape(), op.inputs[1].get_shape()
        merged = a.merge_with(b) if a.is_compatible_with(b) else None
        if merged is None:
            raise ValueError(f"Shapes {a} and {b} are not compatible")
        if merged.ndims is not None:
            if merged.ndims < 1:
                raise ValueError("Shape must be at least rank 1 but is rank 0")
            last = merged.as_list()[-1]
            if last is not None and last != 3:
                raise ValueError(f"Dimension must be 3 but is {last}")
        return merged

    def kernel(a, b, T=None):
        if a.shape != b.shape or a.shape[-1:] != (3,):
            raise errors.InvalidArgumentError(
                None, None, f"cross needs two tensors of the same shape [..., 3], got "
                f"{shape_text(a.shape)} and {shape_text(b.shape)}")
        return np.cross(a, b).astype(a.dtype)

    def gradient(op, grad):
        a, b = op.inputs
        return [cross(b, grad), cross(grad, a)]


def cross(a, b, name=None):
    """a x b, pairwise along the last dimension (of size 3)."""
    with name_scope(name, "Cross", [a, b]) as scope:
        a, b = math_ops._convert_pair(a, b, "Cross")
        return apply_op("Cross", [a, b], {"T": a.dtype.base_dtype}, name=scope)
