"""tf.linalg.LinearOperatorInversion -- mirrors TF 1.15's python/ops/linalg/
linear_operator_inversion.py: A^-1 for an operator A, never formed.

Its matmul is A's solve and its solve A's matmul; det(A^-1) = 1 / det(A). A must not be hinted
singular or non-square (ValueError), and the hints of A^-1 are A's: a contradicting one is a
ValueError ("An operator is square if and only if its inverse is square.").
"""
from ...framework.graph import name_scope
from . import linear_operator_util as util
from .linear_operator import LinearOperator

__all__ = ["LinearOperatorInversion"]


class LinearOperatorInversion(LinearOperator):
    """The inverse of `operator` as a LinearOperator."""

    def __init__(self, operator, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name=None):
        self._operator = operator
        if operator.is_non_singular is False or is_non_singular is False:
            raise ValueError(f"operator and supplied hints must have `is_non_singular` "
                             f"equal to `True` or `None`.  Found {operator.is_non_singular}, "
                             f"{is_non_singular}")
        if operator.is_square is False or is_square is False:
            raise ValueError(f"operator and supplied hints must have `is_square` equal to "
                             f"`True` or `None`.  Found {operator.is_square}, {is_square}")
        combine = util.use_operator_or_provided_hint_unless_contradicting
        is_square = combine(operator, "is_square", is_square,
                            "An operator is square if and only if its inverse is square.")
        is_non_singular = combine(operator, "is_non_singular", is_non_singular,
                                  "An operator is non-singular if and only if its inverse is "
                                  "non-singular.")
        is_self_adjoint = combine(operator, "is_self_adjoint", is_self_adjoint,
                                  "An operator is self-adjoint if and only if its inverse is "
                                  "self-adjoint.")
        is_positive_definite = combine(operator, "is_positive_definite", is_positive_definite,
                                       "An operator is positive-definite if and only if its "
                                       "inverse is positive-definite.")
        if name is None:
            name = operator.name + "_inv"
        with name_scope(name):
            super().__init__(dtype=operator.dtype, graph_parents=operator.graph_parents,
                             is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                             is_positive_definite=is_positive_definite, is_square=is_square,
                             name=name)

    @property
    def operator(self):
        """The operator this is the inverse of."""
        return self._operator

    def _linop_inverse(self):
        return self._operator

    def _linop_solve(self, left_operator, right_operator):
        return left_operator.operator.matmul(right_operator)

    def _assert_non_singular(self):
        return self._operator.assert_non_singular()

    def _assert_positive_definite(self):
        return self._operator.assert_positive_definite()

    def _assert_self_adjoint(self):
        return self._operator.assert_self_adjoint()

    def _shape(self):
        return self._operator.shape

    def _shape_tensor(self):
        return self._operator.shape_tensor()

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        return self._operator.solve(x, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _determinant(self):
        return 1. / self._operator.determinant()

    def _log_abs_determinant(self):
        return -1. * self._operator.log_abs_determinant()

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        return self._operator.matmul(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)
