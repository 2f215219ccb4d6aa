"""tf.linalg.LinearOperatorAdjoint -- mirrors TF 1.15's python/ops/linalg/
linear_operator_adjoint.py: A^H (the conjugate transpose) of an operator A, never formed.

Every method asks A with the adjoint flag flipped: matmul(x) is A.matmul(x, adjoint=True).
Its shape is A's with the last two dimensions swapped; det(A^H) = conj(det A). The hints are
A's (a contradicting one is a ValueError).
"""
from ...framework.graph import name_scope
from ..complex_ops import conj
from ..slicing_ops import concat
from . import linear_operator_util as util
from .linear_operator import LinearOperator

__all__ = ["LinearOperatorAdjoint"]


class LinearOperatorAdjoint(LinearOperator):
    """The adjoint of `operator` as a LinearOperator."""

    def __init__(self, operator, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name=None):
        self._operator = operator
        combine = util.use_operator_or_provided_hint_unless_contradicting
        is_square = combine(operator, "is_square", is_square,
                            "An operator is square if and only if its adjoint is square.")
        is_non_singular = combine(operator, "is_non_singular", is_non_singular,
                                  "An operator is non-singular if and only if its adjoint is "
                                  "non-singular.")
        is_self_adjoint = combine(operator, "is_self_adjoint", is_self_adjoint,
                                  "An operator is self-adjoint if and only if its adjoint is "
                                  "self-adjoint.")
        is_positive_definite = combine(operator, "is_positive_definite", is_positive_definite,
                                       "An operator is positive-definite if and only if its "
                                       "adjoint is positive-definite.")
        if name is None:
            name = operator.name + "_adjoint"
        with name_scope(name):
            super().__init__(dtype=operator.dtype, graph_parents=operator.graph_parents,
                             is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                             is_positive_definite=is_positive_definite, is_square=is_square,
                             name=name)

    @property
    def operator(self):
        """The operator this is the adjoint of."""
        return self._operator

    def _linop_adjoint(self):
        return self._operator

    def _assert_non_singular(self):
        return self._operator.assert_non_singular()

    def _assert_positive_definite(self):
        return self._operator.assert_positive_definite()

    def _assert_self_adjoint(self):
        return self._operator.assert_self_adjoint()

    def _shape(self):
        shape = self._operator.shape
        if shape.ndims is None:
            return shape
        return shape[:-2].concatenate([shape[-1], shape[-2]])

    def _shape_tensor(self):
        shape = self._operator.shape_tensor()
        return concat([shape[:-2], shape[-1:], shape[-2:-1]], axis=-1)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        return self._operator.matmul(x, adjoint=not adjoint, adjoint_arg=adjoint_arg)

    def _matvec(self, x, adjoint=False):
        return self._operator.matvec(x, adjoint=not adjoint)

    def _determinant(self):
        if self.is_self_adjoint:
            return self._operator.determinant()
        return conj(self._operator.determinant())

    def _log_abs_determinant(self):
        return self._operator.log_abs_determinant()

    def _trace(self):
        if self.is_self_adjoint:
            return self._operator.trace()
        return conj(self._operator.trace())

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        return self._operator.solve(rhs, adjoint=not adjoint, adjoint_arg=adjoint_arg)

    def _solvevec(self, rhs, adjoint=False):
        return self._operator.solvevec(rhs, adjoint=not adjoint)

    def _to_dense(self):
        if self.is_self_adjoint:
            return self._operator.to_dense()
        return util.adjoint(self._operator.to_dense())
