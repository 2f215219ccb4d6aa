"""tf.linalg.LinearOperatorHouseholder -- mirrors TF 1.15's python/ops/linalg/
linear_operator_householder.py: the reflection H = I - 2 v v^H / |v|^2 through the
hyperplane orthogonal to `reflection_axis` v ([B1, ..., Bb, N]).

H is its own inverse and adjoint, so solve is matmul; det H = -1, log|det H| = 0, and
H x = x - 2 v (v^H x) / |v|^2 costs O(N R). It is always self-adjoint and never positive
definite (the hints say so; contrary ones are ValueErrors).
"""
from ...framework import errors
from ...framework.graph import name_scope
from ...framework.tensor import convert_to_tensor
from .. import array_ops, control_flow_ops, math_ops
from ..complex_ops import conj
from ..diag_ops import matrix_diag_part, matrix_set_diag
from ..matmul_ops import matmul
from ..nn_impl import l2_normalize
from ..slicing_ops import concat
from . import linear_operator_util as util
from .linear_operator import LinearOperator

__all__ = ["LinearOperatorHouseholder"]


class LinearOperatorHouseholder(LinearOperator):
    """The Householder reflection along `reflection_axis`, [B1, ..., Bb, N, N]."""

    def __init__(self, reflection_axis, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name="LinearOperatorHouseholder"):
        with name_scope(name, values=[reflection_axis]):
            self._reflection_axis = convert_to_tensor(reflection_axis, name="reflection_axis")
            if self._reflection_axis.shape.ndims is not None and \
                    self._reflection_axis.shape.ndims < 1:
                raise ValueError(f"Argument reflection_axis must have at least 1 dimension.  "
                                 f"Found: {self._reflection_axis}")
            if is_self_adjoint is False:
                raise ValueError("A Householder operator is always self adjoint.")
            is_self_adjoint = True
            if is_positive_definite is True:
                raise ValueError("A Householder operator is always non-positive definite.")
            is_positive_definite = False
            if is_square is False:
                raise ValueError("A Householder operator is always square.")
            is_square = True
            super().__init__(dtype=self._reflection_axis.dtype,
                             graph_parents=[self._reflection_axis],
                             is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                             is_positive_definite=is_positive_definite, is_square=is_square,
                             name=name)

    @property
    def reflection_axis(self):
        return self._reflection_axis

    def _shape(self):
        d_shape = self._reflection_axis.shape
        return d_shape.concatenate(d_shape[-1:])

    def _shape_tensor(self):
        d_shape = array_ops.shape(self._reflection_axis)
        return concat([d_shape, d_shape[-1:]], 0)

    def _assert_non_singular(self):
        return control_flow_ops.no_op("assert_non_singular")

    def _assert_positive_definite(self):
        raise errors.InvalidArgumentError(
            None, None, "Householder operators are always non-positive definite.")

    def _assert_self_adjoint(self):
        return control_flow_ops.no_op("assert_self_adjoint")

    def _linop_adjoint(self):
        return self

    def _linop_inverse(self):
        return self

    def _normalized_axis(self):
        return l2_normalize(self._reflection_axis, axis=-1)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        x = util.adjoint(x) if adjoint_arg else x
        mat = self._normalized_axis()[..., None]              # v / |v| as a column
        x_dot_normalized_v = matmul(mat, x, adjoint_a=True)
        return x - 2 * mat * x_dot_normalized_v

    def _trace(self):
        shape = self.shape_tensor()
        return math_ops.cast(shape[-1] - 2, self.dtype) * array_ops.ones(
            shape=shape[:-2], dtype=self.dtype)

    def _determinant(self):
        return -array_ops.ones(shape=self.batch_shape_tensor(), dtype=self.dtype)

    def _log_abs_determinant(self):
        return array_ops.zeros(shape=self.batch_shape_tensor(), dtype=self.dtype)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        return self._matmul(rhs, adjoint, adjoint_arg)

    def _to_dense(self):
        mat = self._normalized_axis()[..., None]
        matrix = -2 * matmul(mat, mat, adjoint_b=True)
        return matrix_set_diag(matrix, 1. + matrix_diag_part(matrix))

    def _diag_part(self):
        normalized_axis = self._normalized_axis()
        return 1. - 2 * normalized_axis * conj(normalized_axis)
