"""tf.linalg.LinearOperatorLowerTriangular -- mirrors TF 1.15's python/ops/linalg/
linear_operator_lower_triangular.py: a square [batch] lower triangular matrix L.

Only the lower triangle of `tril` is read (the rest is taken as zero), so a Cholesky factor
or any square matrix can be passed as it is:

    operator = tf.linalg.LinearOperatorLowerTriangular([[1., 9.], [3., 4.]])
    operator.to_dense()              # [[1, 0], [3, 4]]
    operator.solve(rhs)              # a triangular solve, O(N^2 R)
    operator.determinant()           # the product of the diagonal
"""
from ...framework.graph import name_scope
from ...framework.tensor import convert_to_tensor
from .. import array_ops, basic_math_ops, reduction_ops
from ..diag_ops import matrix_band_part, matrix_diag_part
from ..matmul_ops import matmul
from . import linear_operator_util as util
from .linear_operator import LinearOperator

__all__ = ["LinearOperatorLowerTriangular"]


class LinearOperatorLowerTriangular(LinearOperator):
    """The lower triangle of `tril` ([B1, ..., Bb, N, N]) as a LinearOperator."""

    def __init__(self, tril, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None,
                 name="LinearOperatorLowerTriangular"):
        if is_square is False:
            raise ValueError("Only square lower triangular operators supported at this time.")
        is_square = True
        with name_scope(name, values=[tril]):
            self._tril = convert_to_tensor(tril, name="tril")
            if self._tril.shape.ndims is not None and self._tril.shape.ndims < 2:
                raise ValueError(f"Argument tril must have at least 2 dimensions.  Found: "
                                 f"{self._tril}")
            super().__init__(dtype=self._tril.dtype, graph_parents=[self._tril],
                             is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                             is_positive_definite=is_positive_definite, is_square=is_square,
                             name=name)

    @property
    def tril(self):
        return self._tril

    def _get_tril(self):
        return matrix_band_part(self._tril, -1, 0)

    def _get_diag(self):
        return matrix_diag_part(self._tril)

    def _shape(self):
        return self._tril.shape

    def _shape_tensor(self):
        return array_ops.shape(self._tril)

    def _assert_non_singular(self):
        return util.assert_no_entries_with_modulus_zero(
            self._get_diag(), message="Singular operator:  Diagonal contained zero values.")

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        return matmul(self._get_tril(), x, adjoint_a=adjoint, adjoint_b=adjoint_arg)

    def _linop_matmul(self, left_operator, right_operator):
        if getattr(right_operator, "_is_diag", False):          # L @ D: still lower triangular
            return LinearOperatorLowerTriangular(
                tril=left_operator.to_dense() * right_operator.diag[..., None, :],
                is_non_singular=util.combined_non_singular_hint(right_operator, left_operator),
                is_self_adjoint=util.combined_commuting_self_adjoint_hint(right_operator,
                                                                          left_operator),
                is_positive_definite=None, is_square=True)
        return super()._linop_matmul(left_operator, right_operator)

    def _determinant(self):
        return reduction_ops.reduce_prod(self._get_diag(), axis=[-1])

    def _log_abs_determinant(self):
        return reduction_ops.reduce_sum(basic_math_ops.log(basic_math_ops.abs(self._get_diag())),
                                        axis=[-1])

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        rhs = util.adjoint(rhs) if adjoint_arg else rhs
        return util.matrix_triangular_solve_with_broadcast(self._get_tril(), rhs, lower=True,
                                                           adjoint=adjoint)

    def _to_dense(self):
        return self._get_tril()
