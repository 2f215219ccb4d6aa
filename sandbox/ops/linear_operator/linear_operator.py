"""The base class of every linear operator -- mirrors TF 1.15's python/ops/linalg/
linear_operator.py (tf.linalg.LinearOperator).

A LinearOperator acts like a [batch of] matrix A of shape [B1, ..., Bb, M, N] without (always)
holding it: a subclass keeps what defines it (a diagonal, a triangle, a spectrum, other
operators) and implements the underscore methods from that. The public methods open the name
scope (`LinearOperatorDiag/matmul`), convert and check the argument (its dtype must be the
operator's; its static shape compatible), and fall back on dense matrices where a subclass
has nothing faster:

    operator = tf.linalg.LinearOperatorDiag([1., 2.])
    operator.shape                   # TensorShape([2, 2])
    operator.matmul(x)               # A x;  adjoint=True: A^H x;  adjoint_arg=True: A x^H
    operator.solve(rhs)              # X with A X = rhs
    operator.log_abs_determinant()   # log|det A|, one per batch member
    operator.to_dense()              # the [..., M, N] matrix itself

Matrix property hints (is_non_singular, is_self_adjoint, is_positive_definite, is_square) are
promises, not checks: True means callers may count on the property, False that they may count
on its absence, None that nothing is known. Contradicting hints are ValueErrors at once
("A positive definite matrix is always non-singular."); the assert_* methods check at run time.

matmul and solve take another LinearOperator too and return a LinearOperator: the product
(LinearOperatorComposition, or a simpler operator when one exists: Diag @ Diag is a Diag) and
A^-1 B. adjoint(), inverse() and cholesky() return operators as well.

As in TF 1.15, there is no `@` operator on LinearOperators (TF 2.x added `__matmul__`), and
the TF-2 methods eigvals, cond, __getitem__ and the composite-tensor machinery are not here.
"""
import abc
import contextlib

import numpy as np

from ...framework import dtypes as _dtypes
from ...framework.graph import name_scope
from ...framework.tensor import Tensor, convert_to_tensor
from ...framework.tensor_shape import Dimension, dimension_at_index, dimension_value
from .. import array_ops, basic_math_ops, check_ops, math_ops, reduction_ops
from ..diag_ops import matrix_diag_part
from ..linalg_impl import slogdet
from ..linalg_ops import eye, matrix_determinant
from ..matrix_decomposition_ops import cholesky, svd
from . import linear_operator_util as util

__all__ = ["LinearOperator"]


def _is_tensor_like(t):
    return isinstance(t, Tensor) or (hasattr(t, "graph") and hasattr(t, "dtype"))


class LinearOperator(metaclass=abc.ABCMeta):
    """Base class of a [batch of] linear operator[s]; subclasses implement the underscore
    methods (_shape, _shape_tensor, _matmul -- abstract, as in TF 1.15 -- and where they can
    do better than the dense defaults: _solve, _determinant, _log_abs_determinant, _to_dense,
    _diag_part ...)."""

    def __init__(self, dtype, graph_parents=None, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name=None):
        if is_positive_definite:
            if is_non_singular is False:
                raise ValueError("A positive definite matrix is always non-singular.")
            is_non_singular = True
        if is_non_singular:
            if is_square is False:
                raise ValueError("A non-singular matrix is always square.")
            is_square = True
        if is_self_adjoint:
            if is_square is False:
                raise ValueError("A self-adjoint matrix is always square.")
            is_square = True
        self._is_square_set_or_implied_by_hints = is_square

        graph_parents = [] if graph_parents is None else graph_parents
        for i, t in enumerate(graph_parents):
            if t is None or not _is_tensor_like(t):
                raise ValueError(f"Graph parent item {i} is not a Tensor; {t}.")
        self._graph_parents = graph_parents
        self._dtype = _dtypes.as_dtype(dtype).base_dtype if dtype else dtype
        self._is_non_singular = is_non_singular
        self._is_self_adjoint = is_self_adjoint
        self._is_positive_definite = is_positive_definite
        self._name = name or type(self).__name__

    @contextlib.contextmanager
    def _name_scope(self, name=None):
        """The scope of the ops a method makes: 'LinearOperatorDiag/matmul'."""
        full_name = self.name if name is None else f"{self.name}/{name}"
        with name_scope(full_name) as scope:
            yield scope

    # -- properties ---------------------------------------------------------------------------

    @property
    def dtype(self):
        """The DType of the tensors this operator handles."""
        return self._dtype

    @property
    def name(self):
        """The name prepended to the ops this operator makes."""
        return self._name

    @property
    def graph_parents(self):
        """The tensors this operator was made from."""
        return self._graph_parents

    @property
    def is_non_singular(self):
        return self._is_non_singular

    @property
    def is_self_adjoint(self):
        return self._is_self_adjoint

    @property
    def is_positive_definite(self):
        return self._is_positive_definite

    @property
    def is_square(self):
        """True / False: whether this operator is square -- from the hints, else from the
        static shape (None when that is not known)."""
        auto_square_check = self.domain_dimension == self.range_dimension
        if self._is_square_set_or_implied_by_hints is False and auto_square_check:
            raise ValueError("User set is_square hint to False, but the operator was square.")
        if self._is_square_set_or_implied_by_hints is None:
            return auto_square_check
        return self._is_square_set_or_implied_by_hints

    # -- shapes -------------------------------------------------------------------------------

    @abc.abstractmethod
    def _shape(self):
        raise NotImplementedError("_shape is not implemented.")

    @property
    def shape(self):
        """The static TensorShape [B1, ..., Bb, M, N] (may be partly unknown)."""
        return self._shape()

    @abc.abstractmethod
    def _shape_tensor(self):
        raise NotImplementedError("_shape_tensor is not implemented.")

    def shape_tensor(self, name="shape_tensor"):
        """The shape as an int32 tensor, [B1, ..., Bb, M, N], known when the graph runs."""
        with self._name_scope(name):
            if self.shape.is_fully_defined():
                return util.shape_tensor(self.shape.as_list())
            return self._shape_tensor()

    @property
    def batch_shape(self):
        """The static TensorShape of the batch dimensions, [B1, ..., Bb]."""
        return self.shape[:-2]

    def batch_shape_tensor(self, name="batch_shape_tensor"):
        """The batch dimensions as an int32 tensor."""
        with self._name_scope(name):
            if self.batch_shape.is_fully_defined():
                return util.shape_tensor(self.batch_shape.as_list(), name="batch_shape")
            return self.shape_tensor()[:-2]

    @property
    def tensor_rank(self):
        """b + 2, the rank of the [batch] matrix (None when unknown)."""
        return self.shape.ndims

    def tensor_rank_tensor(self, name="tensor_rank_tensor"):
        """The rank as an int32 tensor."""
        with self._name_scope(name):
            if self.tensor_rank is not None:
                return convert_to_tensor(self.tensor_rank)
            return array_ops.size(self.shape_tensor())

    @property
    def domain_dimension(self):
        """N: the Dimension of the space the operator acts on."""
        if self.shape.ndims is None:
            return Dimension(None)
        return self.shape.dims[-1]

    def domain_dimension_tensor(self, name="domain_dimension_tensor"):
        with self._name_scope(name):
            dim_value = dimension_value(self.domain_dimension)
            if dim_value is not None:
                return convert_to_tensor(dim_value)
            return self.shape_tensor()[-1]

    @property
    def range_dimension(self):
        """M: the Dimension of the space the operator maps into."""
        if self.shape.dims:
            return self.shape.dims[-2]
        return Dimension(None)

    def range_dimension_tensor(self, name="range_dimension_tensor"):
        with self._name_scope(name):
            dim_value = dimension_value(self.range_dimension)
            if dim_value is not None:
                return convert_to_tensor(dim_value)
            return self.shape_tensor()[-2]

    # -- asserts ------------------------------------------------------------------------------

    def _assert_non_singular(self):
        """Dense default: Cholesky when the hints allow, else the condition number from the
        singular values must stay below 1 / (max(100, M, N) * eps)."""
        if self._can_use_cholesky():
            return self.assert_positive_definite()
        singular_values = svd(self.to_dense(), compute_uv=False)
        cond = (reduction_ops.reduce_max(singular_values, axis=-1) /
                reduction_ops.reduce_min(singular_values, axis=-1))
        return check_ops.assert_less(cond, self._max_condition_number_to_be_non_singular(),
                                     message="Singular matrix up to precision epsilon.")

    def _max_condition_number_to_be_non_singular(self):
        with name_scope("max_nonsingular_condition_number"):
            dtype_eps = np.finfo(self.dtype.as_numpy_dtype).eps
            eps = math_ops.cast(reduction_ops.reduce_max(array_ops.stack([
                convert_to_tensor(100., dtype=self.dtype),
                math_ops.cast(self.range_dimension_tensor(), self.dtype),
                math_ops.cast(self.domain_dimension_tensor(), self.dtype)])),
                self.dtype) * dtype_eps
            return 1. / eps

    def assert_non_singular(self, name="assert_non_singular"):
        """An op that fails (InvalidArgumentError) when run if the operator is singular."""
        with self._name_scope(name):
            return self._assert_non_singular()

    def _assert_positive_definite(self):
        if self.is_self_adjoint:
            return check_ops.assert_positive(matrix_diag_part(cholesky(self.to_dense())),
                                             message="Matrix was not positive definite.")
        raise NotImplementedError("assert_positive_definite is not implemented.")

    def assert_positive_definite(self, name="assert_positive_definite"):
        """An op that fails when run if the operator is not positive definite (x^H A x with
        positive real part for every x != 0; A need not be self-adjoint)."""
        with self._name_scope(name):
            return self._assert_positive_definite()

    def _assert_self_adjoint(self):
        dense = self.to_dense()
        return check_ops.assert_equal(dense, util.adjoint(dense),
                                      message="Matrix was not equal to its adjoint.")

    def assert_self_adjoint(self, name="assert_self_adjoint"):
        """An op that fails when run if the operator is not exactly its adjoint."""
        with self._name_scope(name):
            return self._assert_self_adjoint()

    def _check_input_dtype(self, arg):
        util.check_dtype(arg, self.dtype)

    # -- matmul -------------------------------------------------------------------------------

    @abc.abstractmethod
    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        raise NotImplementedError("_matmul is not implemented.")

    def _check_operators_agree(self, left, right, arg="x"):
        if (right.range_dimension.value is not None and left.domain_dimension.value is not None
                and right.range_dimension != left.domain_dimension):
            raise ValueError(f"Operators are incompatible. Expected `{arg}` to have dimension "
                             f"{left.domain_dimension} but got {right.range_dimension}.")

    def matmul(self, x, adjoint=False, adjoint_arg=False, name="matmul"):
        """A x for a [batch] matrix x ([..., N, R] -> [..., M, R]); A^H x with adjoint=True,
        A x^H with adjoint_arg=True. With a LinearOperator x, the product operator."""
        if isinstance(x, LinearOperator):
            left = self.adjoint() if adjoint else self
            right = x.adjoint() if adjoint_arg else x
            self._check_operators_agree(left, right)
            with self._name_scope(name):
                return left._linop_matmul(left, right)
        with self._name_scope(name):
            x = convert_to_tensor(x, name="x")
            self._check_input_dtype(x)
            self_dim = -2 if adjoint else -1
            arg_dim = -1 if adjoint_arg else -2
            util.assert_dims_compatible(dimension_at_index(self.shape, self_dim),
                                        dimension_at_index(x.shape, arg_dim))
            return self._matmul(x, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _linop_matmul(self, left_operator, right_operator):
        """left @ right as an operator; subclasses return simpler ones where they can."""
        from .linear_operator_composition import LinearOperatorComposition
        if getattr(right_operator, "_is_identity", False):
            return left_operator
        if getattr(right_operator, "_is_zeros", False):
            if not right_operator.is_square or not left_operator.is_square:
                raise ValueError("Matmul with non-square `LinearOperator`s or non-square "
                                 "`LinearOperatorZeros` not supported at this time.")
            return right_operator
        is_square = util.combined_is_square(left_operator, right_operator)
        is_non_singular = is_self_adjoint = is_positive_definite = None
        if is_square:
            is_non_singular = util.combined_non_singular_hint(left_operator, right_operator)
        elif is_square is False:
            is_non_singular = is_self_adjoint = is_positive_definite = False
        return LinearOperatorComposition(
            operators=[left_operator, right_operator], is_non_singular=is_non_singular,
            is_self_adjoint=is_self_adjoint, is_positive_definite=is_positive_definite,
            is_square=is_square)

    def _matvec(self, x, adjoint=False):
        x_mat = array_ops.expand_dims(x, axis=-1)
        y_mat = self.matmul(x_mat, adjoint=adjoint)
        return array_ops.squeeze(y_mat, axis=-1)

    def matvec(self, x, adjoint=False, name="matvec"):
        """A x for a [batch] vector x ([..., N] -> [..., M])."""
        with self._name_scope(name):
            x = convert_to_tensor(x, name="x")
            self._check_input_dtype(x)
            self_dim = -2 if adjoint else -1
            util.assert_dims_compatible(dimension_at_index(self.shape, self_dim),
                                        dimension_at_index(x.shape, -1))
            return self._matvec(x, adjoint=adjoint)

    # -- determinants -------------------------------------------------------------------------

    def _determinant(self):
        if self._can_use_cholesky():
            return basic_math_ops.exp(self.log_abs_determinant())
        return matrix_determinant(self.to_dense())

    def determinant(self, name="det"):
        """det A for every batch member: a [B1, ..., Bb] tensor."""
        if self.is_square is False:
            raise NotImplementedError("Determinant not implemented for an operator that is "
                                      "expected to not be square.")
        with self._name_scope(name):
            return self._determinant()

    def _log_abs_determinant(self):
        if self._can_use_cholesky():
            diag = matrix_diag_part(cholesky(self.to_dense()))
            return 2 * reduction_ops.reduce_sum(basic_math_ops.log(diag), axis=[-1])
        _, log_abs_det = slogdet(self.to_dense())
        return log_abs_det

    def log_abs_determinant(self, name="log_abs_det"):
        """log|det A| for every batch member."""
        if self.is_square is False:
            raise NotImplementedError("Determinant not implemented for an operator that is "
                                      "expected to not be square.")
        with self._name_scope(name):
            return self._log_abs_determinant()

    # -- solve --------------------------------------------------------------------------------

    def _dense_solve(self, rhs, adjoint=False, adjoint_arg=False):
        """Solve with the dense matrix: Cholesky when the hints allow, else LU."""
        if self.is_square is False:
            raise NotImplementedError("Solve is not yet implemented for non-square operators.")
        rhs = util.adjoint(rhs) if adjoint_arg else rhs
        if self._can_use_cholesky():
            return util.cholesky_solve_with_broadcast(cholesky(self.to_dense()), rhs)
        return util.matrix_solve_with_broadcast(self.to_dense(), rhs, adjoint=adjoint)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        return self._dense_solve(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def solve(self, rhs, adjoint=False, adjoint_arg=False, name="solve"):
        """X with A X = rhs ([..., M, R] -> [..., N, R]); A^H X = rhs with adjoint=True,
        A X = rhs^H with adjoint_arg=True. With a LinearOperator rhs, the operator A^-1 rhs."""
        if self.is_non_singular is False:
            raise NotImplementedError("Exact solve not implemented for an operator that is "
                                      "expected to be singular.")
        if self.is_square is False:
            raise NotImplementedError("Exact solve not implemented for an operator that is "
                                      "expected to not be square.")
        if isinstance(rhs, LinearOperator):
            left = self.adjoint() if adjoint else self
            right = rhs.adjoint() if adjoint_arg else rhs
            self._check_operators_agree(left, right, arg="rhs")
            with self._name_scope(name):
                return left._linop_solve(left, right)
        with self._name_scope(name):
            rhs = convert_to_tensor(rhs, name="rhs")
            self._check_input_dtype(rhs)
            self_dim = -1 if adjoint else -2
            arg_dim = -1 if adjoint_arg else -2
            util.assert_dims_compatible(dimension_at_index(self.shape, self_dim),
                                        dimension_at_index(rhs.shape, arg_dim))
            return self._solve(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _linop_solve(self, left_operator, right_operator):
        """left^-1 @ right as an operator."""
        from .linear_operator_composition import LinearOperatorComposition
        from .linear_operator_inversion import LinearOperatorInversion
        if getattr(right_operator, "_is_identity", False):
            return left_operator.inverse()
        is_square = util.combined_is_square(left_operator, right_operator)
        is_non_singular = is_self_adjoint = is_positive_definite = None
        if is_square:
            is_non_singular = util.combined_non_singular_hint(left_operator, right_operator)
        elif is_square is False:
            is_non_singular = is_self_adjoint = is_positive_definite = False
        return LinearOperatorComposition(
            operators=[LinearOperatorInversion(left_operator), right_operator],
            is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
            is_positive_definite=is_positive_definite, is_square=is_square)

    def _solvevec(self, rhs, adjoint=False):
        rhs_mat = array_ops.expand_dims(rhs, axis=-1)
        solution_mat = self.solve(rhs_mat, adjoint=adjoint)
        return array_ops.squeeze(solution_mat, axis=-1)

    def solvevec(self, rhs, adjoint=False, name="solve"):
        """x with A x = rhs for a [batch] vector rhs ([..., M] -> [..., N])."""
        with self._name_scope(name):
            rhs = convert_to_tensor(rhs, name="rhs")
            self._check_input_dtype(rhs)
            self_dim = -1 if adjoint else -2
            util.assert_dims_compatible(dimension_at_index(self.shape, self_dim),
                                        dimension_at_index(rhs.shape, -1))
            return self._solvevec(rhs, adjoint=adjoint)

    # -- operators made from this one ---------------------------------------------------------

    def adjoint(self, name="adjoint"):
        """A^H as a LinearOperator (this operator itself when it is self-adjoint)."""
        if self.is_self_adjoint is True:
            return self
        with self._name_scope(name):
            return self._linop_adjoint()

    H = property(adjoint, None)

    def _linop_adjoint(self):
        from .linear_operator_adjoint import LinearOperatorAdjoint
        return LinearOperatorAdjoint(
            self, is_non_singular=self.is_non_singular, is_self_adjoint=self.is_self_adjoint,
            is_positive_definite=self.is_positive_definite, is_square=self.is_square)

    def inverse(self, name="inverse"):
        """A^-1 as a LinearOperator; ValueError if the hints say A is not square or singular."""
        if self.is_square is False:
            raise ValueError("Cannot take the Inverse: This operator represents a non square "
                             "matrix.")
        if self.is_non_singular is False:
            raise ValueError("Cannot take the Inverse: This operator represents a singular "
                             "matrix.")
        with self._name_scope(name):
            return self._linop_inverse()

    def _linop_inverse(self):
        from .linear_operator_inversion import LinearOperatorInversion
        return LinearOperatorInversion(
            self, is_non_singular=self.is_non_singular, is_self_adjoint=self.is_self_adjoint,
            is_positive_definite=self.is_positive_definite, is_square=self.is_square)

    def cholesky(self, name="cholesky"):
        """L (lower triangular, a LinearOperator) with A = L L^H; the operator must be hinted
        self-adjoint and positive definite (ValueError otherwise)."""
        if not self._can_use_cholesky():
            raise ValueError("Cannot take the Cholesky decomposition: Not a positive definite "
                             "self adjoint matrix.")
        with self._name_scope(name):
            return self._linop_cholesky()

    def _linop_cholesky(self):
        from .linear_operator_lower_triangular import LinearOperatorLowerTriangular
        return LinearOperatorLowerTriangular(cholesky(self.to_dense()), is_non_singular=True,
                                             is_self_adjoint=False, is_square=True)

    # -- dense views --------------------------------------------------------------------------

    def _to_dense(self):
        """The default: A applied to the identity."""
        if self.batch_shape.is_fully_defined():
            batch_shape = self.batch_shape.as_list()
        else:
            batch_shape = self.batch_shape_tensor()
        n = dimension_value(self.domain_dimension)
        if n is None:
            n = self.domain_dimension_tensor()
        return self.matmul(eye(num_rows=n, batch_shape=batch_shape, dtype=self.dtype))

    def to_dense(self, name="to_dense"):
        """The [batch] matrix this operator stands for."""
        with self._name_scope(name):
            return self._to_dense()

    def _diag_part(self):
        return matrix_diag_part(self.to_dense())

    def diag_part(self, name="diag_part"):
        """The diagonal, [B1, ..., Bb, min(M, N)]."""
        with self._name_scope(name):
            return self._diag_part()

    def _trace(self):
        return reduction_ops.reduce_sum(self.diag_part(), axis=-1)

    def trace(self, name="trace"):
        """The sum of the diagonal, [B1, ..., Bb]."""
        with self._name_scope(name):
            return self._trace()

    def _add_to_tensor(self, x):
        return self.to_dense() + x

    def add_to_tensor(self, x, name="add_to_tensor"):
        """A + x for a tensor x of the operator's dtype (broadcasting)."""
        with self._name_scope(name):
            x = convert_to_tensor(x, name="x")
            self._check_input_dtype(x)
            return self._add_to_tensor(x)

    def _can_use_cholesky(self):
        return self.is_self_adjoint and self.is_positive_definite
