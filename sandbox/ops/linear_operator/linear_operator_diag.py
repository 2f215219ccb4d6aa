"""tf.linalg.LinearOperatorDiag -- mirrors TF 1.15's python/ops/linalg/linear_operator_diag.py:
a square [batch] diagonal matrix, held as its diagonal [B1, ..., Bb, N].

Everything is elementwise: matmul scales the rows of x (O(N R)), solve divides them, the
determinant is the product of the diagonal. A real diagonal is always self-adjoint (the hint
is set, and is_self_adjoint=False is a ValueError):

    operator = tf.linalg.LinearOperatorDiag([[1., 2.], [3., 4.]])   # a batch of two 2x2
    operator.shape                     # [2, 2, 2]
    operator.log_abs_determinant()     # [log 2, log 12]
"""
from ...framework.graph import name_scope
from ...framework.tensor import convert_to_tensor
from .. import array_ops, basic_math_ops, check_ops, reduction_ops
from ..complex_ops import conj, real
from ..diag_ops import matrix_diag, matrix_diag_part, matrix_set_diag
from ..math_ops import cast
from ..slicing_ops import concat
from . import linear_operator_util as util
from .linear_operator import LinearOperator
from .linear_operator_lower_triangular import LinearOperatorLowerTriangular

__all__ = ["LinearOperatorDiag"]


class LinearOperatorDiag(LinearOperator):
    """diag(d) for d of shape [B1, ..., Bb, N]: an operator of shape [B1, ..., Bb, N, N]."""

    _is_diag = True

    def __init__(self, diag, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name="LinearOperatorDiag"):
        with name_scope(name, values=[diag]):
            self._diag = convert_to_tensor(diag, name="diag")
            if self._diag.shape.ndims is not None and self._diag.shape.ndims < 1:
                raise ValueError(f"Argument diag must have at least 1 dimension.  Found: "
                                 f"{self._diag}")
            if not self._diag.dtype.is_complex:
                if is_self_adjoint is False:
                    raise ValueError("A real diagonal operator is always self adjoint.")
                is_self_adjoint = True
            if is_square is False:
                raise ValueError("Only square diagonal operators currently supported.")
            is_square = True
            super().__init__(dtype=self._diag.dtype, graph_parents=[self._diag],
                             is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                             is_positive_definite=is_positive_definite, is_square=is_square,
                             name=name)

    @property
    def diag(self):
        return self._diag

    def _shape(self):
        d_shape = self._diag.shape
        return d_shape.concatenate(d_shape[-1:])

    def _shape_tensor(self):
        d_shape = array_ops.shape(self._diag)
        return concat([d_shape, d_shape[-1:]], 0)

    # -- operators ----------------------------------------------------------------------------

    def _linop_adjoint(self):
        diag = conj(self._diag) if self._diag.dtype.is_complex else self._diag
        return LinearOperatorDiag(diag, is_non_singular=self.is_non_singular,
                                  is_self_adjoint=self.is_self_adjoint,
                                  is_positive_definite=self.is_positive_definite,
                                  is_square=True)

    def _linop_inverse(self):
        return LinearOperatorDiag(1. / self._diag, is_non_singular=self.is_non_singular,
                                  is_self_adjoint=self.is_self_adjoint,
                                  is_positive_definite=self.is_positive_definite,
                                  is_square=True)

    def _linop_cholesky(self):
        return LinearOperatorDiag(basic_math_ops.sqrt(self._diag), is_non_singular=True,
                                  is_self_adjoint=True, is_positive_definite=True,
                                  is_square=True)

    def _combined_hints(self, left, right):
        return dict(
            is_non_singular=util.combined_non_singular_hint(left, right),
            is_self_adjoint=util.combined_commuting_self_adjoint_hint(left, right),
            is_positive_definite=util.combined_commuting_positive_definite_hint(left, right))

    def _linop_matmul(self, left_operator, right_operator):
        hints = self._combined_hints(left_operator, right_operator)
        if isinstance(right_operator, LinearOperatorDiag):
            return LinearOperatorDiag(left_operator.diag * right_operator.diag, is_square=True,
                                      **hints)
        if getattr(right_operator, "_is_scaled_identity", False):
            return LinearOperatorDiag(left_operator.diag * right_operator.multiplier[..., None],
                                      is_square=True, **hints)
        if isinstance(right_operator, LinearOperatorLowerTriangular):
            hints["is_positive_definite"] = None
            return LinearOperatorLowerTriangular(
                left_operator.diag[..., None] * right_operator.to_dense(), is_square=True,
                **hints)
        return super()._linop_matmul(left_operator, right_operator)

    def _linop_solve(self, left_operator, right_operator):
        hints = self._combined_hints(left_operator, right_operator)
        if isinstance(right_operator, LinearOperatorDiag):
            return LinearOperatorDiag(right_operator.diag / left_operator.diag, is_square=True,
                                      **hints)
        if getattr(right_operator, "_is_scaled_identity", False):
            return LinearOperatorDiag(right_operator.multiplier[..., None] / left_operator.diag,
                                      is_square=True, **hints)
        if isinstance(right_operator, LinearOperatorLowerTriangular):
            hints["is_positive_definite"] = None
            return LinearOperatorLowerTriangular(
                right_operator.to_dense() / left_operator.diag[..., None], is_square=True,
                **hints)
        return super()._linop_solve(left_operator, right_operator)

    # -- asserts ------------------------------------------------------------------------------

    def _assert_non_singular(self):
        return util.assert_no_entries_with_modulus_zero(
            self._diag, message="Singular operator:  Diagonal contained zero values.")

    def _assert_positive_definite(self):
        if self.dtype.is_complex:
            message = ("Diagonal operator had diagonal entries with non-positive real part, "
                       "thus was not positive definite.")
        else:
            message = ("Real diagonal operator had non-positive diagonal entries, thus was not "
                       "positive definite.")
        return check_ops.assert_positive(real(self._diag), message=message)

    def _assert_self_adjoint(self):
        return util.assert_zero_imag_part(
            self._diag, message="This diagonal operator contained non-zero imaginary values.  "
                                " Thus it was not self-adjoint.")

    # -- methods ------------------------------------------------------------------------------

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        diag_term = conj(self._diag) if adjoint else self._diag
        x = util.adjoint(x) if adjoint_arg else x
        return array_ops.expand_dims(diag_term, -1) * x

    def _matvec(self, x, adjoint=False):
        diag_term = conj(self._diag) if adjoint else self._diag
        return diag_term * x

    def _determinant(self):
        return reduction_ops.reduce_prod(self._diag, axis=[-1])

    def _log_abs_determinant(self):
        log_det = reduction_ops.reduce_sum(
            basic_math_ops.log(basic_math_ops.abs(self._diag)), axis=[-1])
        if self.dtype.is_complex:
            log_det = cast(log_det, dtype=self.dtype)
        return log_det

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        diag_term = conj(self._diag) if adjoint else self._diag
        rhs = util.adjoint(rhs) if adjoint_arg else rhs
        return rhs * array_ops.expand_dims(1. / diag_term, -1)

    def _to_dense(self):
        return matrix_diag(self._diag)

    def _diag_part(self):
        return self._diag

    def _add_to_tensor(self, x):
        return matrix_set_diag(x, self._diag + matrix_diag_part(x))
