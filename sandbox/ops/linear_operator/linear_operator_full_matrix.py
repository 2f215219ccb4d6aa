"""tf.linalg.LinearOperatorFullMatrix -- mirrors TF 1.15's python/ops/linalg/
linear_operator_full_matrix.py: an operator that holds its [batch] matrix.

    operator = tf.linalg.LinearOperatorFullMatrix([[1., 2.], [3., 4.]])
    operator.matmul(x)        # tf.matmul(matrix, x)
    operator.solve(rhs)       # tf.matrix_solve (Cholesky when hinted self-adjoint and
                              # positive definite)

Every method works on the dense matrix, so this is the reference the other operators are
compared with.
"""
from ...framework import dtypes as _dtypes
from ...framework.graph import name_scope
from ...framework.tensor import convert_to_tensor
from .. import array_ops
from ..matmul_ops import matmul
from .linear_operator import LinearOperator

__all__ = ["LinearOperatorFullMatrix"]

_ALLOWED = (_dtypes.float16, _dtypes.float32, _dtypes.float64, _dtypes.complex64,
            _dtypes.complex128)


class LinearOperatorFullMatrix(LinearOperator):
    """A [batch] matrix [B1, ..., Bb, M, N] as a LinearOperator."""

    def __init__(self, matrix, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name="LinearOperatorFullMatrix"):
        with name_scope(name, values=[matrix]):
            self._matrix = convert_to_tensor(matrix, name="matrix")
            self._check_matrix(self._matrix)
            super().__init__(dtype=self._matrix.dtype, graph_parents=[self._matrix],
                             is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                             is_positive_definite=is_positive_definite, is_square=is_square,
                             name=name)

    def _check_matrix(self, matrix):
        if matrix.dtype.base_dtype not in _ALLOWED:
            raise TypeError(f"Argument matrix must have dtype in {list(_ALLOWED)}.  Found: "
                            f"{matrix.dtype}")
        if matrix.shape.ndims is not None and matrix.shape.ndims < 2:
            raise ValueError(f"Argument matrix must have at least 2 dimensions.  Found: "
                             f"{matrix}")

    @property
    def matrix(self):
        return self._matrix

    def _shape(self):
        return self._matrix.shape

    def _shape_tensor(self):
        return array_ops.shape(self._matrix)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        return matmul(self._matrix, x, adjoint_a=adjoint, adjoint_b=adjoint_arg)

    def _to_dense(self):
        return self._matrix
