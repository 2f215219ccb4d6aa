"""tf.linalg.LinearOperatorBlockDiag -- mirrors TF 1.15's python/ops/linalg/
linear_operator_block_diag.py: the block diagonal (direct sum) of square operators.

    [[A1, 0,  0 ],
     [0,  A2, 0 ],
     [0,  0,  A3]]

matmul splits x's rows into the blocks' sizes, applies each block, and concatenates; solve
likewise; the determinant is the product of the blocks'. The blocks' batch shapes broadcast.
As in TF 1.15, every block must be square (ValueError otherwise), and matmul / solve take
one tensor (TF 2.x also takes a list of per-block tensors).
"""
from ...framework.graph import name_scope
from ...framework.tensor import convert_to_tensor
from ...framework.tensor_shape import Dimension, TensorShape
from .. import array_ops, check_ops, control_flow_ops
from ..slicing_ops import concat, split
from . import linear_operator_util as util
from .linear_operator import LinearOperator

__all__ = ["LinearOperatorBlockDiag"]


class LinearOperatorBlockDiag(LinearOperator):
    """The block diagonal of `operators` (square, all of one dtype) as one LinearOperator."""

    def __init__(self, operators, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=True, name=None):
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
                raise ValueError("The direct sum of non-singular operators is always "
                                 "non-singular.")
            is_non_singular = True
        if all(operator.is_self_adjoint for operator in operators):
            if is_self_adjoint is False:
                raise ValueError("The direct sum of self-adjoint operators is always "
                                 "self-adjoint.")
            is_self_adjoint = True
        if all(operator.is_positive_definite for operator in operators):
            if is_positive_definite is False:
                raise ValueError("The direct sum of positive definite operators is always "
                                 "positive definite.")
            is_positive_definite = True
        if not (is_square and all(operator.is_square for operator in operators)):
            raise ValueError("Can only represent a block diagonal of square matrices.")
        graph_parents = []
        for operator in operators:
            graph_parents.extend(operator.graph_parents)
        if name is None:
            name = "_ds_".join(operator.name for operator in operators)   # ds: direct sum
        with name_scope(name):
            super().__init__(dtype=dtype, graph_parents=graph_parents,
                             is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                             is_positive_definite=is_positive_definite, is_square=True,
                             name=name)

    @property
    def operators(self):
        return self._operators

    def _shape(self):
        domain_dimension = Dimension(0)
        range_dimension = Dimension(0)
        for operator in self.operators:
            domain_dimension += operator.domain_dimension
            range_dimension += operator.range_dimension
        batch_shape = util.broadcast_batch_shape([o.batch_shape for o in self.operators])
        return batch_shape.concatenate(TensorShape([range_dimension, domain_dimension]))

    def _shape_tensor(self):
        if self.shape.is_fully_defined():
            return convert_to_tensor(self.shape.as_list(), name="shape")
        domain_dimension = self.operators[0].domain_dimension_tensor()
        range_dimension = self.operators[0].range_dimension_tensor()
        for operator in self.operators[1:]:
            domain_dimension += operator.domain_dimension_tensor()
            range_dimension += operator.range_dimension_tensor()
        zeros = array_ops.zeros(shape=self.operators[0].batch_shape_tensor())
        for operator in self.operators[1:]:
            zeros += array_ops.zeros(shape=operator.batch_shape_tensor())
        return concat([array_ops.shape(zeros),
                       array_ops.stack([range_dimension, domain_dimension])], 0)

    # -- operators ----------------------------------------------------------------------------

    def _linop_adjoint(self):
        return LinearOperatorBlockDiag(
            [operator.adjoint() for operator in self.operators],
            is_non_singular=self.is_non_singular, is_self_adjoint=self.is_self_adjoint,
            is_positive_definite=self.is_positive_definite, is_square=True)

    def _linop_cholesky(self):
        return LinearOperatorBlockDiag(
            [operator.cholesky() for operator in self.operators], is_non_singular=True,
            is_self_adjoint=None, is_square=True)

    def _linop_inverse(self):
        return LinearOperatorBlockDiag(
            [operator.inverse() for operator in self.operators],
            is_non_singular=self.is_non_singular, is_self_adjoint=self.is_self_adjoint,
            is_positive_definite=self.is_positive_definite, is_square=True)

    def _same_blocks(self, left, right, what):
        if not isinstance(right, LinearOperatorBlockDiag):
            return False
        if len(left.operators) != len(right.operators):
            raise ValueError(f"Can not efficiently {what} two `LinearOperatorBlockDiag`s "
                             "together when number of blocks differ.")
        for o1, o2 in zip(left.operators, right.operators):
            if (o2.range_dimension.value is not None and o1.domain_dimension.value is not None
                    and o2.range_dimension != o1.domain_dimension):
                raise ValueError(f"Blocks are incompatible. Expected `x` to have dimension "
                                 f"{o1.domain_dimension} but got {o2.range_dimension}.")
        return True

    def _linop_matmul(self, left_operator, right_operator):
        if self._same_blocks(left_operator, right_operator, "multiply"):
            return LinearOperatorBlockDiag(
                [o1.matmul(o2) for o1, o2 in zip(left_operator.operators,
                                                 right_operator.operators)],
                is_non_singular=util.combined_non_singular_hint(left_operator, right_operator),
                is_square=True)
        return super()._linop_matmul(left_operator, right_operator)

    def _linop_solve(self, left_operator, right_operator):
        if self._same_blocks(left_operator, right_operator, "solve"):
            return LinearOperatorBlockDiag(
                [o1.solve(o2) for o1, o2 in zip(left_operator.operators,
                                                right_operator.operators)],
                is_non_singular=util.combined_non_singular_hint(left_operator, right_operator),
                is_square=True)
        return super()._linop_solve(left_operator, right_operator)

    # -- methods ------------------------------------------------------------------------------

    def _split_input_into_blocks(self, x, axis=-1):
        """x split along `axis` into pieces of the blocks' sizes."""
        if self.shape.is_fully_defined():
            sizes = [operator.domain_dimension.value for operator in self.operators]
        else:
            sizes = array_ops.stack([o.domain_dimension_tensor() for o in self.operators])
        return split(x, sizes, axis=axis)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        split_x = self._split_input_into_blocks(x, axis=-1 if adjoint_arg else -2)
        result_list = [operator.matmul(block, adjoint=adjoint, adjoint_arg=adjoint_arg)
                       for operator, block in zip(self.operators, split_x)]
        return concat(util.broadcast_matrix_batch_dims(result_list), axis=-2)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        split_rhs = self._split_input_into_blocks(rhs, axis=-1 if adjoint_arg else -2)
        solution_list = [operator.solve(block, adjoint=adjoint, adjoint_arg=adjoint_arg)
                         for operator, block in zip(self.operators, split_rhs)]
        return concat(util.broadcast_matrix_batch_dims(solution_list), axis=-2)

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

    def _diag_part(self):
        diag_list = [operator.diag_part()[..., None] for operator in self.operators]
        diagonal = concat(util.broadcast_matrix_batch_dims(diag_list), axis=-2)
        return array_ops.squeeze(diagonal, axis=-1)

    def _trace(self):
        result = self.operators[0].trace()
        for operator in self.operators[1:]:
            result += operator.trace()
        return result

    def _to_dense(self):
        num_cols = 0
        rows = []
        blocks = util.broadcast_matrix_batch_dims(
            [operator.to_dense() for operator in self.operators])
        total = self.domain_dimension_tensor()
        for block in blocks:
            batch_row_shape = array_ops.shape(block)[:-1]
            before = array_ops.zeros(concat([batch_row_shape, [num_cols]], 0), dtype=block.dtype)
            num_cols += array_ops.shape(block)[-1]
            after = array_ops.zeros(concat([batch_row_shape, [total - num_cols]], 0),
                                    dtype=block.dtype)
            rows.append(concat([before, block, after], axis=-1))
        mat = concat(rows, axis=-2)
        mat.set_shape(self.shape)
        return mat

    def _assert_non_singular(self):
        return control_flow_ops.group(
            [operator.assert_non_singular() for operator in self.operators])

    def _assert_self_adjoint(self):
        return control_flow_ops.group(
            [operator.assert_self_adjoint() for operator in self.operators])

    def _assert_positive_definite(self):
        return control_flow_ops.group(
            [operator.assert_positive_definite() for operator in self.operators])
