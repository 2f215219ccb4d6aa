"""Matrix multiplication -- tf.matmul and `a @ b`, mirroring TensorFlow's math_ops.matmul
(python/ops/math_ops.py, gradients in ops/math_grad.py) and its kernels
(core/kernels/matmul_op.cc, batch_matmul_op_impl.h).

A dense layer is one matmul: `tf.matmul(x, W)` multiplies a [batch, in] input by an [in, out]
weight matrix. Its gradients are matmuls too, with one operand transposed:

    y = a @ b      da = dy @ b^T      db = a^T @ dy

2-D inputs make a MatMul op; inputs of rank 3 or more are batches of matrices, whose batch
dimensions broadcast as in elementwise arithmetic (BatchMatMulV2).

Complex matrices multiply too. `adjoint_a` is the conjugate transpose, and the gradients take
conjugates as TF's do (da = dy @ b^H, db = a^H @ dy), so that a real loss descends correctly.
"""
import numpy as np

from ..framework import errors
from ..framework.graph import name_scope
from ..framework.op_def import OpDef, apply_op
from ..framework.tensor_shape import TensorShape
from ..framework.tensor_util import shape_text
from .math_ops import (_ARITH, _broadcast_static_shape, _check_dtype, _conj, _convert_pair,
                       _override_binary_operator, _unbroadcast, cast)

__all__ = ["matmul", "sparse_matmul"]


def _matrix_dims(shape, transposed, rank=2):
    """(rows, cols) of a matrix operand after the optional transpose; checks its rank
    (exactly 2 for MatMul, at least 2 when `rank` is not 2)."""
    if shape.ndims is None:
        return None, None
    if rank == 2 and shape.ndims != 2:
        raise ValueError(f"Shape must be rank 2 but is rank {shape.ndims}")
    if shape.ndims < 2:
        raise ValueError(f"Shape must be at least rank 2 but is rank {shape.ndims}")
    rows, cols = shape.as_list()[-2:]
    return (cols, rows) if transposed else (rows, cols)


class MatMul(OpDef):
    """product = a @ b for 2-D matrices, each optionally transposed first."""

    def shape(op):
        a_rows, a_inner = _matrix_dims(op.inputs[0].get_shape(), op.get_attr("transpose_a"))
        b_inner, b_cols = _matrix_dims(op.inputs[1].get_shape(), op.get_attr("transpose_b"))
        if a_inner is not None and b_inner is not None and a_inner != b_inner:
            raise ValueError(f"Dimensions must be equal, but are {a_inner} and {b_inner}")
        return TensorShape([a_rows, b_cols])

    def kernel(a, b, transpose_a=False, transpose_b=False, T=None):
        if a.ndim != 2 or b.ndim != 2:
            bad = 0 if a.ndim != 2 else 1
            raise errors.InvalidArgumentError(
                None, None, f"In[{bad}] is not a matrix. Instead it has shape "
                f"{shape_text((a, b)[bad].shape)}")
        if transpose_a:
            a = a.T
        if transpose_b:
            b = b.T
        if a.shape[1] != b.shape[0]:
            raise errors.InvalidArgumentError(
                None, None, f"Matrix size-incompatible: In[0]: {shape_text(a.shape)}, "
                f"In[1]: {shape_text(b.shape)}")
        return np.matmul(a, b)      # (np.dot would zero the result's memory first)

    def gradient(op, grad):
        a, b = _conj(op.inputs[0]), _conj(op.inputs[1])      # (complex: TF's conjugates)
        t_a, t_b = op.get_attr("transpose_a"), op.get_attr("transpose_b")
        if not t_a and not t_b:
            return [matmul(grad, b, transpose_b=True), matmul(a, grad, transpose_a=True)]
        if not t_a and t_b:
            return [matmul(grad, b), matmul(grad, a, transpose_a=True)]
        if t_a and not t_b:
            return [matmul(b, grad, transpose_b=True), matmul(a, grad)]
        return [matmul(b, grad, transpose_a=True, transpose_b=True),
                matmul(grad, a, transpose_a=True, transpose_b=True)]


class BatchMatMulV2(OpDef):
    """output[..., :, :] = x[..., :, :] @ y[..., :, :]; the batch dimensions broadcast."""

    def shape(op):
        xs, ys = op.inputs[0].get_shape(), op.inputs[1].get_shape()
        x_rows, x_inner = _matrix_dims(xs, op.get_attr("adj_x"), rank=3)
        y_inner, y_cols = _matrix_dims(ys, op.get_attr("adj_y"), rank=3)
        if x_inner is not None and y_inner is not None and x_inner != y_inner:
            raise ValueError(f"Dimensions must be equal, but are {x_inner} and {y_inner}")
        if xs.ndims is None or ys.ndims is None:
            return TensorShape(None)
        batch = _broadcast_static_shape(xs[:-2], ys[:-2])
        return batch.concatenate([x_rows, y_cols])

    def kernel(x, y, adj_x=False, adj_y=False, T=None):
        if adj_x:
            x = np.conj(np.swapaxes(x, -1, -2)) if np.iscomplexobj(x) else np.swapaxes(x, -1, -2)
        if adj_y:
            y = np.conj(np.swapaxes(y, -1, -2)) if np.iscomplexobj(y) else np.swapaxes(y, -1, -2)
        try:
            return np.matmul(x, y)
        except ValueError:
            raise errors.InvalidArgumentError(
                None, None, f"Matrix size-incompatible: In[0]: {shape_text(x.shape)}, "
                f"In[1]: {shape_text(y.shape)}") from None

    def gradient(op, grad):
        x, y = op.inputs
        adj_x, adj_y = op.get_attr("adj_x"), op.get_attr("adj_y")
        if not adj_x and not adj_y:
            gx, gy = matmul(grad, y, adjoint_b=True), matmul(x, grad, adjoint_a=True)
        elif not adj_x:
            gx, gy = matmul(grad, y), matmul(grad, x, adjoint_a=True)
        elif not adj_y:
            gx, gy = matmul(y, grad, adjoint_b=True), matmul(x, grad)
        else:
            gx = matmul(y, grad, adjoint_a=True, adjoint_b=True)
            gy = matmul(grad, x, adjoint_a=True, adjoint_b=True)
        return [_unbroadcast(gx, x), _unbroadcast(gy, y)]


def matmul(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False,
           a_is_sparse=False, b_is_sparse=False, name=None):
    """a @ b. 2-D inputs give a MatMul op; inputs of rank 3 or more multiply the innermost
    two dimensions and broadcast the rest (BatchMatMulV2). The sparsity hints are accepted
    and ignored (the result is the same)."""
    with name_scope(name, "MatMul", [a, b]) as scope:
        if transpose_a and adjoint_a:
            raise ValueError("Only one of transpose_a and adjoint_a can be True.")
        if transpose_b and adjoint_b:
            raise ValueError("Only one of transpose_b and adjoint_b can be True.")
        a, b = _convert_pair(a, b, "MatMul")
        _check_dtype("MatMul", a, _ARITH, arg="a")
        dtype = a.dtype.base_dtype
        ra, rb = a.get_shape().ndims, b.get_shape().ndims
        t_a, t_b = transpose_a or adjoint_a, transpose_b or adjoint_b
        if ra is None or ra > 2 or rb is None or rb > 2:     # adj_x: the conjugate transpose
            return apply_op("BatchMatMulV2", [a, b], {"adj_x": t_a, "adj_y": t_b, "T": dtype},
                            name=scope)
        if adjoint_a:                         # MatMul only transposes: conjugate first, as TF
            a = _conj(a)
        if adjoint_b:
            b = _conj(b)
        return apply_op("MatMul", [a, b], {"transpose_a": t_a, "transpose_b": t_b,
                                           "T": dtype}, name=scope)


_override_binary_operator(matmul, "matmul")


# -- sparse_matmul: the same product, with hints that an operand is mostly zeros ------------

class SparseMatMul(OpDef):
    """product = a @ b for float32 (or bfloat16) matrices; a_is_sparse / b_is_sparse let
    TF's kernel skip zeros (the sandbox's kernel is NumPy's matmul either way)."""
    shape = MatMul.shape

    def kernel(a, b, transpose_a=False, transpose_b=False, a_is_sparse=False,
               b_is_sparse=False, Ta=None, Tb=None):  # noqa: N803 -- TF's attr names
        return MatMul.kernel(a, b, transpose_a, transpose_b).astype(np.float32)

    def gradient(op, grad):
        # TF's _SparseMatMulGrad: the MatMul rules, as SparseMatMul ops that keep the hints
        # (the gradient of the sparse operand is computed as dense).
        a, b = op.inputs
        t_a, t_b = op.get_attr("transpose_a"), op.get_attr("transpose_b")
        sa, sb = op.get_attr("a_is_sparse"), op.get_attr("b_is_sparse")

        def mm(x, y, tx, ty, x_sparse, y_sparse):
            return sparse_matmul(x, y, transpose_a=tx, transpose_b=ty, a_is_sparse=x_sparse,
                                 b_is_sparse=y_sparse)
        if not t_a:
            da = mm(grad, b, False, not t_b, False, sb)
        else:
            da = mm(b, grad, t_b, True, sb, False)
        if not t_b:
            db = mm(a, grad, not t_a, False, sa, False)
        else:
            db = mm(grad, a, True, t_a, False, sa)
        return [cast(da, a.dtype.base_dtype), cast(db, b.dtype.base_dtype)]


def sparse_matmul(a, b, transpose_a=False, transpose_b=False, a_is_sparse=False,
                  b_is_sparse=False, name=None):
    """a @ b for float32 matrices (TF 1.x's SparseMatMul): the result is float32; the
    *_is_sparse hints say which operand is mostly zeros."""
    from ..framework import dtypes as _dtypes
    from ..framework.tensor import convert_to_tensor
    with name_scope(name, "SparseMatMul", [a, b]) as scope:
        a = convert_to_tensor(a, name="a")
        b = convert_to_tensor(b, name="b")
        allowed = (_dtypes.float32, _dtypes.bfloat16)
        _check_dtype("SparseMatMul", a, allowed, arg="a")
        _check_dtype("SparseMatMul", b, allowed, arg="b")
        return apply_op("SparseMatMul", [a, b],
                        {"transpose_a": bool(transpose_a), "transpose_b": bool(transpose_b),
                         "a_is_sparse": bool(a_is_sparse), "b_is_sparse": bool(b_is_sparse),
                         "Ta": a.dtype.base_dtype, "Tb": b.dtype.base_dtype},
                        name=scope, output_dtypes=[_dtypes.float32])
