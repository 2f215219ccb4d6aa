"""What the linear-algebra modules share (ops/linalg_ops.py, ops/matrix_decomposition_ops.py):
the checks of a matrix argument's dtype and shape, and the making of a one-input matrix op.
TF keeps these in its linalg_ops.py and linalg_grad.py; here a small module of its own lets
both modules import it without importing each other.
"""
from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.graph import name_scope
from ..framework.op_def import apply_op
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_util import shape_text

__all__ = []

_FLOATS = (_dtypes.float16, _dtypes.float32, _dtypes.float64)


def _check_float(op_type, x, arg="input"):
    if x.dtype.base_dtype not in _FLOATS:
        raise TypeError(f"Value passed to parameter '{arg}' has DataType "
                        f"{x.dtype.base_dtype.name} not in list of allowed values: float64, "
                        f"float32, float16 (op {op_type}, tensor {x.name!r}). Use tf.cast to "
                        "convert it.")


def _matrix_shape(shape, square=False, what="input"):
    """(batch dims, rows, cols) of a static shape [..., M, N]; ValueError as TF's shape fns."""
    if shape.ndims is None:
        return None, None, None
    if shape.ndims < 2:
        raise ValueError(f"Shape must be at least rank 2 but is rank {shape.ndims}")
    dims = shape.as_list()
    m, n = dims[-2], dims[-1]
    if square and m is not None and n is not None and m != n:
        raise ValueError(f"Dimensions must be equal, but are {m} and {n}")
    return dims[:-2], m, n


def _square_shape(op):
    _matrix_shape(op.inputs[0].get_shape(), square=True)
    return op.inputs[0].get_shape()


def _unary(op_type, x, name, attrs=None, n_out=1):
    with name_scope(name, op_type, [x]) as scope:
        x = convert_to_tensor(x, name="input")
        _check_float(op_type, x)
        dtype = x.dtype.base_dtype
        return apply_op(op_type, [x], {"T": dtype, **(attrs or {})}, name=scope,
                        output_dtypes=[dtype] * n_out)


def _square_kernel(x, what):
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise errors.InvalidArgumentError(None, None, f"{what}: input must be a (batch of) "
                                          f"square matrices, got shape {shape_text(x.shape)}")

