"""Matrix decompositions -- mirrors cholesky, qr, svd and self_adjoint_eig of TensorFlow 1.x's
python/ops/linalg_ops.py, with the gradients of python/ops/linalg_grad.py.

    L = tf.cholesky(A)            A = L L^T (A symmetric positive definite), L lower triangular
    q, r = tf.qr(A)               A = q r, q's columns orthonormal, r upper triangular
    s, u, v = tf.svd(A)           A = u diag(s) v^T (note the order, and v not transposed)
    e, v = tf.self_adjoint_eig(A) A = v diag(e) v^T (A symmetric), e ascending

Like the ops of linalg_ops.py they work on the innermost two dimensions (a batch of
matrices) with NumPy's kernels (np.linalg, computed in float64 and returned in the input's
dtype). The signs of q's, u's, v's columns are NumPy's (LAPACK's) and may differ from TF's
(Eigen's): both are right, the decompositions are unique only up to them.

The gradients are TF's formulas, computed by NumPy ops of their own (first order only):

    L = cholesky(A):   dA = sym(L^-T  Phi(L^T g)  L^-1) / 2       (Phi: lower half, diag / 2)
    A = V diag(e) V^T: dA = V (diag(ge) + F o (V^T gV)) V^T       (F_ij = 1 / (e_j - e_i))

and the QR gradient of Walter and Lehmann (M >= N) and the SVD gradient of Townsend (distinct
singular values), as TF has them.
"""
import collections

import numpy as np

from ..framework import errors
from ..framework.op_def import OpDef, apply_op, unchanged_shape
from ..framework.tensor_shape import TensorShape, unknown_shape
from ..framework.tensor_util import shape_text
from . import array_ops
from .linalg_base import _matrix_shape, _square_kernel, _square_shape, _unary
from .matmul_ops import matmul

__all__ = ["cholesky", "qr", "svd", "self_adjoint_eig", "self_adjoint_eigvals"]


class Cholesky(OpDef):
    """L, lower triangular, with L @ L^T = input (input symmetric positive definite; only
    its lower triangle is read, as in TF)."""
    shape = _square_shape

    def kernel(input, T=None):  # noqa: A002 -- TF's name
        _square_kernel(input, "Cholesky")
        lower = np.tril(input)
        sym = lower + np.swapaxes(np.tril(input, -1), -1, -2)
        try:
            return np.linalg.cholesky(sym).astype(input.dtype)
        except np.linalg.LinAlgError:
            raise errors.InvalidArgumentError(
                None, None, "Cholesky decomposition was not successful. The input might not "
                "be valid.") from None

    def gradient(op, grad):
        return [apply_op("CholeskyGrad", [op.outputs[0], grad], {"T": grad.dtype.base_dtype},
                         name="CholeskyGrad")]


class CholeskyGrad(OpDef):
    """TF's Cholesky gradient (Murray 2016, as in linalg_grad.py), on NumPy arrays."""
    shape = unchanged_shape
    differentiable = False

    def kernel(l, grad, T=None):  # noqa: E741 -- the usual name
        lt = np.swapaxes(l, -1, -2)
        eye_ = np.eye(l.shape[-1], dtype=np.float64)
        l_inv = np.linalg.solve(l.astype(np.float64), np.broadcast_to(eye_, l.shape))
        middle = lt @ grad
        middle = np.tril(middle) - 0.5 * eye_ * middle
        out = np.swapaxes(l_inv, -1, -2) @ middle @ l_inv
        return (0.5 * (out + np.swapaxes(out, -1, -2))).astype(grad.dtype)


def cholesky(input, name=None):  # noqa: A002 -- TF's name
    return _unary("Cholesky", input, name)


Qr = collections.namedtuple("Qr", ["q", "r"])


class Qr_(OpDef):
    """q, r with input = q @ r, q's columns orthonormal and r upper triangular."""
    type_name = "Qr"
    multi_output = True

    def shape(op):
        batch, m, n = _matrix_shape(op.inputs[0].get_shape())
        if batch is None:
            return [unknown_shape(), unknown_shape()]
        full = op.get_attr("full_matrices")
        k = None if m is None or n is None else min(m, n)
        return [TensorShape(batch + [m, m if full else k]),
                TensorShape(batch + [m if full else k, n])]

    def kernel(input, full_matrices=False, T=None):  # noqa: A002 -- TF's name
        q, r = np.linalg.qr(input.astype(np.float64),
                            mode="complete" if full_matrices else "reduced")
        return q.astype(input.dtype), r.astype(input.dtype)

    def gradient(op, dq, dr):
        return [apply_op("QrGrad", [op.inputs[0], op.outputs[0], op.outputs[1], dq, dr],
                         {"T": dq.dtype.base_dtype, "full_matrices": op.get_attr(
                             "full_matrices")}, name="QrGrad")]


class QrGrad(OpDef):
    """TF's QR gradient (linalg_grad.py _QrGrad), for inputs with M >= N and reduced q."""
    differentiable = False

    def shape(op):
        return op.inputs[0].get_shape()

    def kernel(a, q, r, dq, dr, full_matrices=False, T=None):
        m, n = a.shape[-2:]
        if m < n or (full_matrices and m != n):
            raise errors.UnimplementedError(
                None, None, "The gradient of qr is defined only for matrices with at least "
                f"as many rows as columns (and full_matrices=False); got {shape_text(a.shape)}.")
        t = lambda x: np.swapaxes(x, -1, -2)  # noqa: E731
        q64, r64 = q.astype(np.float64), r.astype(np.float64)
        qdq = t(q64) @ dq
        qdq_ = qdq - t(qdq)
        rdr = r64 @ t(dr)
        rdr_ = rdr - t(rdr)
        tril = np.tril(qdq_ + rdr_)

        def trisolve_rt(x):            # x @ inv(r)^T^T ... = solve(r, x^T)^T  => x r^-T
            return t(np.linalg.solve(r64, t(x)))

        grad_a = q64 @ (dr + trisolve_rt(tril))
        grad_b = trisolve_rt(dq - q64 @ qdq)
        return (grad_a + grad_b).astype(dq.dtype)


def qr(input, full_matrices=False, name=None):  # noqa: A002 -- TF's name
    """(q, r) with input = q @ r, a namedtuple as TF's: q is [..., M, K], r [..., K, N], K =
    min(M, N) (or M with full_matrices=True)."""
    q, r = _unary("Qr", input, name, {"full_matrices": bool(full_matrices)}, n_out=2)
    return Qr(q, r)


class Svd(OpDef):
    """s, u, v with input = u @ diag(s) @ v^T (s descending). Without compute_uv, u and v
    are empty."""
    multi_output = True

    def shape(op):
        batch, m, n = _matrix_shape(op.inputs[0].get_shape())
        if batch is None:
            return [unknown_shape()] * 3
        k = None if m is None or n is None else min(m, n)
        if not op.get_attr("compute_uv"):
            return [TensorShape(batch + [k]), TensorShape([0]), TensorShape([0])]
        full = op.get_attr("full_matrices")
        return [TensorShape(batch + [k]), TensorShape(batch + [m, m if full else k]),
                TensorShape(batch + [n, n if full else k])]

    def kernel(input, compute_uv=True, full_matrices=False, T=None):  # noqa: A002
        x = input.astype(np.float64)
        if not compute_uv:
            s = np.linalg.svd(x, compute_uv=False)
            empty = np.zeros([0], input.dtype)
            return s.astype(input.dtype), empty, empty
        u, s, vt = np.linalg.svd(x, full_matrices=full_matrices)
        return (s.astype(input.dtype), u.astype(input.dtype),
                np.swapaxes(vt, -1, -2).astype(input.dtype))

    def gradient(op, ds, du, dv):
        if not op.get_attr("compute_uv"):
            # d s_i / dA = u_i v_i^T: recompute u and v.
            _, u, v = svd(op.inputs[0], full_matrices=False, compute_uv=True)
            return [matmul(u * array_ops.expand_dims(ds, -2), v, adjoint_b=True)]
        if op.get_attr("full_matrices"):
            raise errors.UnimplementedError(
                None, None, "The gradient of svd with full_matrices=True is not implemented "
                "(as in TF when the matrix is not square); use full_matrices=False.")
        return [apply_op("SvdGrad", [op.outputs[0], op.outputs[1], op.outputs[2], ds, du, dv],
                         {"T": ds.dtype.base_dtype}, name="SvdGrad")]


class SvdGrad(OpDef):
    """The SVD gradient (Townsend 2016) for reduced u and v; distinct singular values."""
    differentiable = False

    def shape(op):
        u, v = op.inputs[1].get_shape(), op.inputs[2].get_shape()
        if u.ndims is None or v.ndims is None:
            return unknown_shape()
        return TensorShape(u.as_list()[:-1] + [v.as_list()[-2]])

    def kernel(s, u, v, ds, du, dv, T=None):
        t = lambda x: np.swapaxes(x, -1, -2)  # noqa: E731
        s, u, v = s.astype(np.float64), u.astype(np.float64), v.astype(np.float64)
        m, n = u.shape[-2], v.shape[-2]
        k = s.shape[-1]
        s2 = s[..., None, :] ** 2 - s[..., :, None] ** 2        # [j] - [i]
        with np.errstate(divide="ignore"):
            f = np.where(np.eye(k, dtype=bool), 0.0, 1.0 / np.where(s2 == 0, np.inf, s2))
        S = s[..., :, None] * np.eye(k)
        utdu, vtdv = t(u) @ du, t(v) @ dv
        j = f * (utdu - t(utdu))
        kk = f * (vtdv - t(vtdv))
        inner = (j @ S + S @ kk + np.eye(k) * ds[..., None, :])
        grad = u @ inner @ t(v)
        s_inv = np.where(s == 0, 0.0, 1.0 / np.where(s == 0, 1.0, s))
        if m > k:
            grad = grad + (np.eye(m) - u @ t(u)) @ du @ (s_inv[..., :, None] * t(v))
        if n > k:
            grad = grad + (u * s_inv[..., None, :]) @ t(dv) @ (np.eye(n) - v @ t(v))
        return grad.astype(ds.dtype)


def svd(tensor, full_matrices=False, compute_uv=True, name=None):
    """(s, u, v) with tensor = u @ diag(s) @ v^T -- note the order and that v is not
    transposed, as TF's; with compute_uv=False only s."""
    out = _unary("Svd", tensor, name, {"compute_uv": bool(compute_uv),
                                       "full_matrices": bool(full_matrices)}, n_out=3)
    return tuple(out) if compute_uv else out[0]


class SelfAdjointEigV2(OpDef):
    """e, v of a symmetric matrix (only its lower triangle is read): input = v diag(e) v^T,
    e ascending."""
    multi_output = True

    def shape(op):
        batch, m, _ = _matrix_shape(op.inputs[0].get_shape(), square=True)
        if batch is None:
            return [unknown_shape(), unknown_shape()]
        if not op.get_attr("compute_v"):
            return [TensorShape(batch + [m]), TensorShape([0])]
        return [TensorShape(batch + [m]), TensorShape(batch + [m, m])]

    def kernel(input, compute_v=True, T=None):  # noqa: A002 -- TF's name
        _square_kernel(input, "SelfAdjointEigV2")
        e, v = np.linalg.eigh(input.astype(np.float64), UPLO="L")
        if not compute_v:
            return e.astype(input.dtype), np.zeros([0], input.dtype)
        return e.astype(input.dtype), v.astype(input.dtype)

    def gradient(op, de, dv):
        if not op.get_attr("compute_v"):
            _, v = self_adjoint_eig(op.inputs[0])
            return [matmul(v * array_ops.expand_dims(de, -2), v, adjoint_b=True)]
        return [apply_op("SelfAdjointEigGrad", [op.outputs[0], op.outputs[1], de, dv],
                         {"T": de.dtype.base_dtype}, name="SelfAdjointEigGrad")]


class SelfAdjointEigGrad(OpDef):
    """TF's gradient of eigh (linalg_grad.py _SelfAdjointEigV2Grad): symmetrised, with the
    lower triangle doubled as TF does (the kernel reads only the lower triangle)."""
    differentiable = False

    def shape(op):
        return op.inputs[1].get_shape()

    def kernel(e, v, de, dv, T=None):
        t = lambda x: np.swapaxes(x, -1, -2)  # noqa: E731
        e, v = e.astype(np.float64), v.astype(np.float64)
        k = e.shape[-1]
        diff = e[..., None, :] - e[..., :, None]
        with np.errstate(divide="ignore"):
            f = np.where(np.eye(k, dtype=bool), 0.0, 1.0 / np.where(diff == 0, np.inf, diff))
        inner = np.eye(k) * de[..., None, :] + f * (t(v) @ dv)
        grad_a = v @ inner @ t(v)
        grad_a = np.tril(grad_a + t(grad_a)) - np.eye(k) * grad_a     # as TF: lower part
        return grad_a.astype(de.dtype)


def self_adjoint_eig(tensor, name=None):
    """(e, v) of each symmetric matrix: eigenvalues ascending, eigenvectors as columns."""
    e, v = _unary("SelfAdjointEigV2", tensor, name, {"compute_v": True}, n_out=2)
    return e, v


def self_adjoint_eigvals(tensor, name=None):
    """The eigenvalues of each symmetric matrix, ascending."""
    return _unary("SelfAdjointEigV2", tensor, name, {"compute_v": False}, n_out=2)[0]

