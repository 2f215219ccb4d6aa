"""tf.linalg.LinearOperatorKronecker -- mirrors TF 1.15's python/ops/linalg/
linear_operator_kronecker.py: the Kronecker product A1 (x) A2 (x) ... of operators.

The product of an [m1, n1] and an [m2, n2] operator is the [m1 m2, n1 n2] block matrix whose
block (i, j) is A1[i, j] A2. It is never formed: matmul reshapes x and applies each factor in
turn (the "vec trick", (A (x) B) vec(X) = vec(B X A^T)), so its cost is that of the factors'
matmuls. Likewise solve, with the factors' solves; the determinant is
prod_i det(A_i)^(N / n_i), the trace the product of the traces.

    a = tf.linalg.LinearOperatorFullMatrix([[1., 2.], [3., 4.]])
    b = tf.linalg.LinearOperatorDiag([1., -1.])
    tf.linalg.LinearOperatorKronecker([a, b]).to_dense()      # 4x4, np.kron(A, B)
"""
from ...framework import errors
from ...framework.graph import name_scope
from ...framework.tensor_shape import TensorShape, dimension_value
from .. import array_ops, check_ops, control_flow_ops, math_ops
from ..array_ops import matrix_transpose
from ..complex_ops import conj
from ..manip_ops import broadcast_dynamic_shape
from ..slicing_ops import concat
from . import linear_operator_util as util
from .linear_operator import LinearOperator

__all__ = ["LinearOperatorKronecker"]


def _dim(static, dynamic_fn):
    """The int `static` (a Dimension's value), or the tensor dynamic_fn() when unknown."""
    value = dimension_value(static)
    return value if value is not None else dynamic_fn()


def _reshape_inner(x, inner):
    """x reshaped to [batch dims of x] + inner (a list of ints / scalar tensors)."""
    batch = x.shape[:-2]
    if batch.is_fully_defined() and all(isinstance(d, int) for d in inner):
        return array_ops.reshape(x, batch.as_list() + inner)
    return array_ops.reshape(x, concat([array_ops.shape(x)[:-2], array_ops.stack(inner)], 0))


class LinearOperatorKronecker(LinearOperator):
    """operators[0] (x) operators[1] (x) ... as one LinearOperator."""

    def __init__(self, operators, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name=None):
        check_ops.assert_proper_iterable(operators)
        operators = list(operators)
        if not operators:
            raise ValueError(f"Expected a list of >=1 operators. Found: {operators}")
        self._operators = operators
        dtype = operators[0].dtype
        for operator in operators:
            if operator.dtype != dtype:
                name_type = (str((o.name, o.dtype)) for o in operators)
                raise TypeError("Expected all operators to have the same dtype.  Found "
                                + "   ".join(name_type))
        if all(operator.is_non_singular for operator in operators):
            if is_non_singular is False:
                raise ValueError("The Kronecker product of non-singular operators is always "
                                 "non-singular.")
            is_non_singular = True
        if all(operator.is_self_adjoint for operator in operators):
            if is_self_adjoint is False:
                raise ValueError("The Kronecker product of self-adjoint operators is always "
                                 "self-adjoint.")
            is_self_adjoint = True
        if all(operator.is_positive_definite for operator in operators):
            if is_positive_definite is False:
                raise ValueError("The Kronecker product of positive-definite operators is "
                                 "always positive-definite.")
            is_positive_definite = True
        graph_parents = []
        for operator in operators:
            graph_parents.extend(operator.graph_parents)
        if name is None:
            name = "_x_".join(operator.name for operator in operators)
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
        range_dimension = self.operators[0].range_dimension
        for operator in self.operators[1:]:
            domain_dimension = domain_dimension * operator.domain_dimension
            range_dimension = range_dimension * operator.range_dimension
        batch_shape = util.broadcast_batch_shape([o.batch_shape for o in self.operators])
        return batch_shape.concatenate(TensorShape([range_dimension, domain_dimension]))

    def _shape_tensor(self):
        domain_dimension = self.operators[0].domain_dimension_tensor()
        range_dimension = self.operators[0].range_dimension_tensor()
        for operator in self.operators[1:]:
            domain_dimension = domain_dimension * operator.domain_dimension_tensor()
            range_dimension = range_dimension * operator.range_dimension_tensor()
        batch_shape = self.operators[0].batch_shape_tensor()
        for operator in self.operators[1:]:
            batch_shape = broadcast_dynamic_shape(batch_shape, operator.batch_shape_tensor())
        return concat([batch_shape, array_ops.stack([range_dimension, domain_dimension])], 0)

    # -- operators ----------------------------------------------------------------------------

    def _linop_adjoint(self):
        return LinearOperatorKronecker(
            [operator.adjoint() for operator in self.operators],
            is_non_singular=self.is_non_singular, is_self_adjoint=self.is_self_adjoint,
            is_positive_definite=self.is_positive_definite, is_square=True)

    def _linop_cholesky(self):
        return LinearOperatorKronecker(
            [operator.cholesky() for operator in self.operators], is_non_singular=True,
            is_self_adjoint=None, is_square=True)

    def _linop_inverse(self):
        return LinearOperatorKronecker(
            [operator.inverse() for operator in self.operators],
            is_non_singular=self.is_non_singular, is_self_adjoint=self.is_self_adjoint,
            is_positive_definite=self.is_positive_definite, is_square=True)

    # -- matmul and solve: the vec trick ------------------------------------------------------

    def _solve_matmul_internal(self, x, solve_matmul_fn, adjoint=False, adjoint_arg=False):
        # Work on X^T ([..., R, N]), so that each factor acts on the last dimension.
        if adjoint_arg:
            output = conj(x) if self.dtype.is_complex else x
        else:
            output = matrix_transpose(x)
        for o in reversed(self.operators):
            if adjoint:
                op_dim = _dim(o.range_dimension, o.range_dimension_tensor)
            else:
                op_dim = _dim(o.domain_dimension, o.domain_dimension_tensor)
            output = _reshape_inner(output, [-1, op_dim])
            if self.dtype.is_complex:
                output = conj(output)
            output = solve_matmul_fn(o, output, adjoint=adjoint, adjoint_arg=True)
        if adjoint_arg:
            col_dim = _dim(x.shape[-2], lambda: array_ops.shape(x)[-2])
        else:
            col_dim = _dim(x.shape[-1], lambda: array_ops.shape(x)[-1])
        if adjoint:
            row_dim = _dim(self.domain_dimension, self.domain_dimension_tensor)
        else:
            row_dim = _dim(self.range_dimension, self.range_dimension_tensor)
        output = _reshape_inner(output, [row_dim, col_dim])
        if x.shape.is_fully_defined():
            batch = util.broadcast_batch_shape([x.shape[:-2], self.batch_shape])
            rows = self.domain_dimension if adjoint else self.range_dimension
            output.set_shape(batch.concatenate([rows, col_dim]))
        return output

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        def matmul_fn(o, x, adjoint, adjoint_arg):
            return o.matmul(x, adjoint=adjoint, adjoint_arg=adjoint_arg)
        return self._solve_matmul_internal(x, matmul_fn, adjoint=adjoint,
                                           adjoint_arg=adjoint_arg)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        def solve_fn(o, rhs, adjoint, adjoint_arg):
            return o.solve(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)
        return self._solve_matmul_internal(rhs, solve_fn, adjoint=adjoint,
                                           adjoint_arg=adjoint_arg)

    # -- determinant, trace, dense views ------------------------------------------------------

    def _power_of(self, operator):
        """N / n_i: how often factor i's determinant enters the product's."""
        total = dimension_value(self.domain_dimension)
        own = dimension_value(operator.domain_dimension)
        if total is not None and own is not None:
            return math_ops.cast(total // own, self.dtype)
        return math_ops.cast(self.domain_dimension_tensor() // operator.domain_dimension_tensor(),
                             self.dtype)

    def _determinant(self):
        determinant = 1.
        for operator in self.operators:
            determinant = determinant * operator.determinant() ** self._power_of(operator)
        return determinant

    def _log_abs_determinant(self):
        log_abs_det = 0.
        for operator in self.operators:
            log_abs_det += operator.log_abs_determinant() * self._power_of(operator)
        return log_abs_det

    def _all_square(self):
        return all(operator.is_square for operator in self.operators)

    def _trace(self):
        if not self._all_square():          # (TF multiplies the factors' traces regardless)
            return super()._trace()
        trace = 1.
        for operator in self.operators:
            trace = trace * operator.trace()
        return trace

    def _diag_part(self):
        if not self._all_square():          # (TF multiplies the factors' diagonals regardless)
            return super()._diag_part()
        diag_part = self.operators[0].diag_part()
        for operator in self.operators[1:]:
            diag_part = diag_part[..., :, None] * operator.diag_part()[..., None, :]
            diag_part = array_ops.reshape(
                diag_part, concat([array_ops.shape(diag_part)[:-2], [-1]], 0))
        if self.range_dimension.value is not None and self.domain_dimension.value is not None:
            size = min(self.range_dimension.value, self.domain_dimension.value)
            diag_part.set_shape(self.batch_shape.concatenate([size]))
        return diag_part

    def _to_dense(self):
        product = self.operators[0].to_dense()
        for operator in self.operators[1:]:
            product = product[..., :, None, :, None] * operator.to_dense()[..., None, :, None, :]
            shape = array_ops.shape(product)
            product = array_ops.reshape(product, concat(
                [shape[:-4], array_ops.stack([shape[-4] * shape[-3], shape[-2] * shape[-1]])],
                0))
        product.set_shape(self.shape)
        return product

    # -- asserts ------------------------------------------------------------------------------

    def _assert_all_square(self):
        if not self._all_square():
            raise errors.InvalidArgumentError(
                None, None, "All Kronecker factors must be square for the product to be "
                "invertible. Expected hint `is_square` to be True for every operator in "
                "argument `operators`.")

    def _assert_non_singular(self):
        self._assert_all_square()
        return control_flow_ops.group(
            [operator.assert_non_singular() for operator in self.operators])

    def _assert_self_adjoint(self):
        self._assert_all_square()
        return control_flow_ops.group(
            [operator.assert_self_adjoint() for operator in self.operators])
