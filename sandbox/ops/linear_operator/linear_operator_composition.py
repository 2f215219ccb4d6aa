"""tf.linalg.LinearOperatorComposition -- mirrors TF 1.15's python/ops/linalg/
linear_operator_composition.py: the product A1 A2 ... AJ of operators, never formed.

matmul applies the operators right to left (A1 (A2 (... (AJ x)))), solve left to right
(AJ^-1 (... (A1^-1 rhs))), the determinant is the product of theirs. The hints follow from
the operators' where they can: all non-singular -> non-singular, and a product of the form
A A^H (by identity of the operator objects: [a, a.H]) is self-adjoint and square, and
positive definite when also non-singular.

Mismatched inner dimensions (A1's domain, A2's range ...) are a ValueError when the static
shape is asked for; the batch shapes broadcast.
"""
from ...framework.graph import name_scope
from ...framework.tensor import convert_to_tensor
from ...framework.tensor_shape import TensorShape
from .. import array_ops, basic_math_ops, check_ops, control_flow_ops
from ..matrix_decomposition_ops import cholesky
from ..slicing_ops import concat
from . import linear_operator_util as util
from .linear_operator import LinearOperator
from .linear_operator_lower_triangular import LinearOperatorLowerTriangular

__all__ = ["LinearOperatorComposition"]


def _composition_must_be_self_adjoint(operators):
    if len(operators) == 1 and operators[0].is_self_adjoint:
        return True
    return util.is_aat_form(operators)


class LinearOperatorComposition(LinearOperator):
    """operators[0] @ operators[1] @ ... as one LinearOperator."""

    def __init__(self, operators, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name=None):
        check_ops.assert_proper_iterable(operators)
        operators = list(operators)
        if not operators:
            raise ValueError(f"Expected a non-empty list of operators. Found: {operators}")
        self._operators = operators
        dtype = operators[0].dtype
        for operator in operators:
            if operator.dtype != dtype:
                name_type = (str((o.name, o.dtype)) for o in operators)
                raise TypeError("Expected all operators to have the same dtype.  Found "
                                + "   ".join(name_type))
        if all(operator.is_non_singular for operator in operators):
            if is_non_singular is False:
                raise ValueError("The composition of non-singular operators is always "
                                 "non-singular.")
            is_non_singular = True
        if _composition_must_be_self_adjoint(operators):
            if is_self_adjoint is False:
                raise ValueError("The composition was determined to be self-adjoint but user "
                                 "provided incorrect `False` hint.")
            is_self_adjoint = True
        if util.is_aat_form(operators):
            if is_square is False:
                raise ValueError("The composition was determined have the form A @ A.H, hence "
                                 "it must be square. The user provided an incorrect `False` "
                                 "hint.")
            is_square = True
            if is_non_singular:
                if is_positive_definite is False:
                    raise ValueError("The composition was determined to be non-singular and "
                                     "have the form A @ A.H, hence it must be "
                                     "positive-definite. The user provided an incorrect "
                                     "`False` hint.")
                is_positive_definite = True
        graph_parents = []
        for operator in operators:
            graph_parents.extend(operator.graph_parents)
        if name is None:
            name = "_o_".join(operator.name for operator in operators)
        with name_scope(name):
            super().__init__(dtype=dtype, graph_parents=graph_parents,
                             is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                             is_positive_definite=is_positive_definite, is_square=is_square,
                             name=name)

    @property
    def operators(self):
        return self._operators

    def _shape(self):
        domain_dimension = self.operators[0].domain_dimension
        for operator in self.operators[1:]:
            util.assert_dims_compatible(domain_dimension, operator.range_dimension)
            domain_dimension = operator.domain_dimension
        matrix_shape = TensorShape([self.operators[0].range_dimension,
                                    self.operators[-1].domain_dimension])
        batch_shape = util.broadcast_batch_shape([o.batch_shape for o in self.operators])
        return batch_shape.concatenate(matrix_shape)

    def _shape_tensor(self):
        if self.shape.is_fully_defined():
            return convert_to_tensor(self.shape.as_list(), name="shape")
        matrix_shape = array_ops.stack([self.operators[0].range_dimension_tensor(),
                                        self.operators[-1].domain_dimension_tensor()])
        zeros = array_ops.zeros(shape=self.operators[0].batch_shape_tensor())
        for operator in self.operators[1:]:
            zeros += array_ops.zeros(shape=operator.batch_shape_tensor())
        return concat([array_ops.shape(zeros), matrix_shape], 0)

    def _linop_cholesky(self):
        """L L^H with L lower triangular: L itself (its columns' signs made positive);
        otherwise the Cholesky factor of the dense matrix."""
        ops_ = self.operators
        if not (len(ops_) == 2 and util.is_aat_form(ops_) and
                isinstance(ops_[0], LinearOperatorLowerTriangular)):
            return LinearOperatorLowerTriangular(cholesky(self.to_dense()),
                                                 is_non_singular=True, is_self_adjoint=False,
                                                 is_square=True)
        left_op = ops_[0]
        if left_op.is_positive_definite:
            return left_op
        diag_sign = array_ops.expand_dims(basic_math_ops.sign(left_op.diag_part()), axis=-2)
        return LinearOperatorLowerTriangular(
            tril=left_op.tril / diag_sign, is_non_singular=left_op.is_non_singular,
            is_self_adjoint=left_op.is_self_adjoint,
            is_positive_definite=True if left_op.is_positive_definite else None,
            is_square=True)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        order = self.operators if adjoint else list(reversed(self.operators))
        result = order[0].matmul(x, adjoint=adjoint, adjoint_arg=adjoint_arg)
        for operator in order[1:]:
            result = operator.matmul(result, adjoint=adjoint)
        return result

    def _determinant(self):
        result = self.operators[0].determinant()
        for operator in self.operators[1:]:
            result *= operator.determinant()
        return result

    def _log_abs_determinant(self):
        result = self.operators[0].log_abs_determinant()
        for operator in self.operators[1:]:
            result += operator.log_abs_determinant()
        return result

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        order = list(reversed(self.operators)) if adjoint else self.operators
        solution = order[0].solve(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)
        for operator in order[1:]:
            solution = operator.solve(solution, adjoint=adjoint)
        return solution

    def _assert_non_singular(self):
        if all(operator.is_square for operator in self.operators):
            return control_flow_ops.group(
                [operator.assert_non_singular() for operator in self.operators])
        return super()._assert_non_singular()

