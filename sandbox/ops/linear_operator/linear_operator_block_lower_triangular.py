"""tf.linalg.LinearOperatorBlockLowerTriangular -- mirrors TF's python/ops/linalg/
linear_operator_block_lower_triangular.py (a TF 2.x class, in tf.compat.v1.linalg): a square
block lower triangular matrix, given row by row as lists of operators,

    operators = [[A11],            [[A11, 0,   0  ],
                 [A21, A22],   ->   [A21, A22, 0  ],
                 [A31, A32, A33]]   [A31, A32, A33]]

Row i has i + 1 blocks; the diagonal blocks must be square, and the blocks of a column share
their domain dimension, those of a row their range dimension (ValueError otherwise). matmul
is blockwise; solve is forward substitution with the diagonal blocks' solves (backward for
the adjoint); the determinant is the product of the diagonal blocks'. Arguments are single
tensors, split into the blocks' sizes (TF 2.x also takes lists of per-block tensors).
inverse() is block lower triangular too: its diagonal blocks are the inverses of A_ii, the
others dense (LinearOperatorFullMatrix).
"""
from ...framework.graph import name_scope
from ...framework.tensor import convert_to_tensor
from ...framework.tensor_shape import Dimension, TensorShape
from .. import array_ops, basic_math_ops, check_ops, control_flow_ops
from ..manip_ops import broadcast_dynamic_shape
from ..slicing_ops import concat, split
from . import linear_operator_util as util
from .linear_operator import LinearOperator
from .linear_operator_full_matrix import LinearOperatorFullMatrix

__all__ = ["LinearOperatorBlockLowerTriangular"]


class LinearOperatorBlockLowerTriangular(LinearOperator):
    """A block lower triangular matrix of operators as one LinearOperator."""

    def __init__(self, operators, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None,
                 name="LinearOperatorBlockLowerTriangular"):
        check_ops.assert_proper_iterable(operators)
        for row in operators:
            check_ops.assert_proper_iterable(row)
        operators = [list(row) for row in operators]
        if not operators:
            raise ValueError(f"Argument `operators` must be a list of >=1 operators. "
                             f"Received: {operators}.")
        self._operators = operators
        self._diagonal_operators = [row[-1] for row in operators]
        dtype = operators[0][0].dtype
        self._validate_dtype(dtype)
        is_non_singular = self._validate_non_singular(is_non_singular)
        self._validate_num_operators()
        self._validate_operator_dimensions()
        is_square = self._validate_square(is_square)
        graph_parents = []
        for row in operators:
            for operator in row:
                graph_parents.extend(operator.graph_parents)
        with name_scope(name):
            super().__init__(dtype=dtype, graph_parents=graph_parents,
                             is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                             is_positive_definite=is_positive_definite, is_square=is_square,
                             name=name)

    # -- validation ---------------------------------------------------------------------------

    def _validate_num_operators(self):
        for i, row in enumerate(self._operators):
            if len(row) != i + 1:
                raise ValueError(f"Argument `operators[{i}]` must contain `{i + 1}` blocks. "
                                 f"Received: {len(row)} blocks.")

    def _validate_operator_dimensions(self):
        for i in range(1, len(self._operators)):
            for j in range(i):
                op = self._operators[i][j]
                above_op = self._operators[i - 1][j]
                right_op = self._operators[i][j + 1]
                if (op.domain_dimension.value is not None and
                        above_op.domain_dimension.value is not None and
                        op.domain_dimension != above_op.domain_dimension):
                    raise ValueError(
                        f"Argument `operators[{i}][{j}].domain_dimension` "
                        f"({op.domain_dimension}) must be the same as "
                        f"`operators[{i - 1}][{j}].domain_dimension` "
                        f"({above_op.domain_dimension}).")
                if (op.range_dimension.value is not None and
                        right_op.range_dimension.value is not None and
                        op.range_dimension != right_op.range_dimension):
                    raise ValueError(
                        f"Argument `operators[{i}][{j}].range_dimension` "
                        f"({op.range_dimension}) must be the same as "
                        f"`operators[{i}][{j + 1}].range_dimension` "
                        f"({right_op.range_dimension}).")

    def _validate_non_singular(self, is_non_singular):
        if all(op.is_non_singular for op in self._diagonal_operators):
            if is_non_singular is False:
                raise ValueError(f"A blockwise lower-triangular operator with non-singular "
                                 f"operators on the main diagonal is always non-singular. "
                                 f"Expected argument `is_non_singular` to be True. Received: "
                                 f"{is_non_singular}.")
            return True
        if any(op.is_non_singular is False for op in self._diagonal_operators):
            if is_non_singular is True:
                raise ValueError(f"A blockwise lower-triangular operator with a singular "
                                 f"operator on the main diagonal is always singular. Expected "
                                 f"argument `is_non_singular` to be True. Received: "
                                 f"{is_non_singular}.")
            return False
        return None                             # (as TF: a True hint alone is not kept)

    def _validate_square(self, is_square):
        if is_square is False:
            raise ValueError(f"`LinearOperatorBlockLowerTriangular` must be square. Expected "
                             f"argument `is_square` to be True. Received: {is_square}.")
        for i, op in enumerate(self._diagonal_operators):
            if op.is_square is False:
                raise ValueError(f"Matrices on the diagonal (the final elements of each "
                                 f"row-partition in the `operators` list) must be square. "
                                 f"Expected argument `operators[{i}][-1].is_square` to be "
                                 f"True. Received: {op.is_square}.")
        return True

    def _validate_dtype(self, dtype):
        for i, row in enumerate(self._operators):
            for operator in row:
                if operator.dtype != dtype:
                    name_type = [str((o.name, o.dtype)) for o in row]
                    raise TypeError(f"Expected all operators to have the same dtype.  Found "
                                    f"{name_type} in row {i} and {dtype} in row 0.")

    @property
    def operators(self):
        return self._operators

    # -- shapes -------------------------------------------------------------------------------

    def _block_dims(self):
        return [op.domain_dimension for op in self._diagonal_operators]

    def _shape(self):
        dim = Dimension(0)
        for d in self._block_dims():
            dim += d
        batch_shape = util.broadcast_batch_shape(
            [op.batch_shape for row in self._operators for op in row])
        return batch_shape.concatenate(TensorShape([dim, dim]))

    def _shape_tensor(self):
        if self.shape.is_fully_defined():
            return convert_to_tensor(self.shape.as_list(), name="shape")
        dims = [op.domain_dimension_tensor() for op in self._diagonal_operators]
        dim = dims[0]
        for d in dims[1:]:
            dim = dim + d
        batch_shape = self._operators[0][0].batch_shape_tensor()
        for row in self._operators[1:]:
            for operator in row:
                batch_shape = broadcast_dynamic_shape(batch_shape,
                                                      operator.batch_shape_tensor())
        return concat([batch_shape, array_ops.stack([dim, dim])], 0)

    def _split(self, x, axis):
        if all(d.value is not None for d in self._block_dims()):
            sizes = [d.value for d in self._block_dims()]
        else:
            sizes = array_ops.stack([op.domain_dimension_tensor()
                                     for op in self._diagonal_operators])
        return split(x, sizes, axis=axis)

    # -- operators ----------------------------------------------------------------------------

    def _linop_inverse(self):
        """Forward substitution, blockwise: Inv[i][i] = A_ii^-1 and, below the diagonal,
        Inv[i][j] = -A_ii^-1 sum_{j <= k < i} A_ik Inv[k][j] (made dense)."""
        n = len(self._operators)
        inverse_rows = []
        dense = {}                              # (k, j) -> Inv[k][j] as a tensor
        for i in range(n):
            diag_inverse = self._diagonal_operators[i].inverse()
            row = []
            for j in range(i):
                total = None
                for k in range(j, i):
                    term = self._operators[i][k].matmul(dense[(k, j)])
                    total = term if total is None else total + term
                block = -self._diagonal_operators[i].solve(total)
                dense[(i, j)] = block
                row.append(LinearOperatorFullMatrix(block))
            dense[(i, i)] = diag_inverse.to_dense()
            row.append(diag_inverse)
            inverse_rows.append(row)
        return LinearOperatorBlockLowerTriangular(
            inverse_rows, is_non_singular=self.is_non_singular,
            is_self_adjoint=self.is_self_adjoint,
            is_positive_definite=self.is_positive_definite, is_square=True)

    # -- methods ------------------------------------------------------------------------------

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        split_x = self._split(x, axis=-1 if adjoint_arg else -2)
        n = len(self._operators)
        result_list = []
        if adjoint:
            for index in range(n):
                result = self._operators[index][index].matmul(
                    split_x[index], adjoint=adjoint, adjoint_arg=adjoint_arg)
                for j in range(index + 1, n):
                    result += self._operators[j][index].matmul(
                        split_x[j], adjoint=adjoint, adjoint_arg=adjoint_arg)
                result_list.append(result)
        else:
            for row in self._operators:
                result = row[0].matmul(split_x[0], adjoint=adjoint, adjoint_arg=adjoint_arg)
                for j, operator in enumerate(row[1:]):
                    result += operator.matmul(split_x[j + 1], adjoint=adjoint,
                                              adjoint_arg=adjoint_arg)
                result_list.append(result)
        return concat(util.broadcast_matrix_batch_dims(result_list), axis=-2)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        rhs = util.adjoint(rhs) if adjoint_arg else rhs
        split_rhs = self._split(rhs, axis=-2)
        n = len(self._operators)
        solution_list = []
        if adjoint:                             # backward substitution with the A_ji^H
            for index in reversed(range(n)):
                y = split_rhs[index]
                for j in reversed(range(index + 1, n)):
                    y = y - self._operators[j][index].matmul(solution_list[n - 1 - j],
                                                             adjoint=True)
                solution_list.append(self._diagonal_operators[index].solve(y, adjoint=True))
            solution_list.reverse()
        else:
            for row, y in zip(self._operators, split_rhs):
                for i, operator in enumerate(row[:-1]):
                    y = y - operator.matmul(solution_list[i])
                solution_list.append(row[-1].solve(y))
        return concat(util.broadcast_matrix_batch_dims(solution_list), axis=-2)

    def _determinant(self):
        if all(op.is_positive_definite for op in self._diagonal_operators):
            return basic_math_ops.exp(self._log_abs_determinant())
        result = self._diagonal_operators[0].determinant()
        for op in self._diagonal_operators[1:]:
            result *= op.determinant()
        return result

    def _log_abs_determinant(self):
        result = self._diagonal_operators[0].log_abs_determinant()
        for op in self._diagonal_operators[1:]:
            result += op.log_abs_determinant()
        return result

    def _diag_part(self):
        diag_list = [op.diag_part()[..., None] for op in self._diagonal_operators]
        diagonal = concat(util.broadcast_matrix_batch_dims(diag_list), axis=-2)
        return array_ops.squeeze(diagonal, axis=-1)

    def _trace(self):
        result = self._diagonal_operators[0].trace()
        for op in self._diagonal_operators[1:]:
            result += op.trace()
        return result

    def _to_dense(self):
        flat = util.broadcast_matrix_batch_dims(
            [op.to_dense() for row in self._operators for op in row])
        total = self.domain_dimension_tensor()
        num_cols = 0
        dense_rows = []
        for i in range(len(self._operators)):
            row_blocks = flat[i * (i + 1) // 2:(i + 1) * (i + 2) // 2]
            batch_row_shape = array_ops.shape(row_blocks[0])[:-1]
            num_cols = num_cols + array_ops.shape(row_blocks[-1])[-1]
            row_blocks.append(array_ops.zeros(
                concat([batch_row_shape, array_ops.reshape(total - num_cols, [1])], 0),
                dtype=self.dtype))
            dense_rows.append(concat(row_blocks, axis=-1))
        mat = concat(dense_rows, axis=-2)
        mat.set_shape(self.shape)
        return mat

    def _assert_non_singular(self):
        return control_flow_ops.group([op.assert_non_singular()
                                       for op in self._diagonal_operators])
