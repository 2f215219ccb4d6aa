"""tf.linalg.LinearOperatorIdentity and LinearOperatorScaledIdentity -- mirrors TF 1.15's
python/ops/linalg/linear_operator_identity.py.

Neither holds a matrix: the identity is given by its size (num_rows, and an optional
batch_shape), the scaled identity c I by its size and the multiplier c (whose shape is the
batch shape). matmul is x itself (broadcast to the batch shape) or c x:

    tf.linalg.LinearOperatorIdentity(3, batch_shape=[2]).matmul(x)   # x, as [2, 3, R]
    tf.linalg.LinearOperatorScaledIdentity(3, [2., 5.]).determinant() # [8, 125]

num_rows and batch_shape must be integer tensors (or Python ints); a statically known
negative or wrongly ranked one is a ValueError, and assert_proper_shapes=True adds run-time
checks for those that are only known when the graph runs.
"""
import numpy as np

from ...framework import dtypes as _dtypes
from ...framework.graph import name_scope
from ...framework.tensor import convert_to_tensor
from ...framework.tensor_shape import TensorShape, dimension_value
from ...framework.tensor_util import constant_value
from .. import array_ops, basic_math_ops, check_ops, control_flow_ops, math_ops
from .. import reduction_ops
from ..complex_ops import conj, imag, real
from ..diag_ops import matrix_diag_part, matrix_set_diag
from ..manip_ops import broadcast_static_shape
from ..slicing_ops import concat
from . import linear_operator_util as util
from .linear_operator import LinearOperator
from .linear_operator_diag import LinearOperatorDiag

__all__ = ["LinearOperatorIdentity", "LinearOperatorScaledIdentity"]


class BaseLinearOperatorIdentity(LinearOperator):
    """What the identity and the scaled identity share: num_rows and its checks."""

    def _check_num_rows_possibly_add_asserts(self):
        if self._assert_proper_shapes:
            self._num_rows = util.with_dependencies([
                check_ops.assert_rank(self._num_rows, 0,
                                      message="Argument num_rows must be a 0-D Tensor."),
                check_ops.assert_non_negative(
                    self._num_rows, message="Argument num_rows must be non-negative.")],
                self._num_rows)
        if not self._num_rows.dtype.is_integer:
            raise TypeError(f"Argument num_rows must be integer type.  Found: {self._num_rows}")
        static = self._num_rows_static
        if static is None:
            return
        if static.ndim != 0:
            raise ValueError(f"Argument num_rows must be a 0-D Tensor.  Found: {static}")
        if static < 0:
            raise ValueError(f"Argument num_rows must be non-negative.  Found: {static}")

    def _min_matrix_dim(self):
        domain_dim = dimension_value(self.domain_dimension)
        range_dim = dimension_value(self.range_dimension)
        if domain_dim is None or range_dim is None:
            return None
        return min(domain_dim, range_dim)

    def _min_matrix_dim_tensor(self):
        return reduction_ops.reduce_min(self.shape_tensor()[-2:])

    def _ones_diag(self):
        if self.shape.is_fully_defined():
            d_shape = self.batch_shape.concatenate([self._min_matrix_dim()]).as_list()
        else:
            d_shape = concat([self.batch_shape_tensor(), [self._min_matrix_dim_tensor()]], 0)
        return array_ops.ones(shape=d_shape, dtype=self.dtype)

    def _batch_of_ones(self):
        if self.batch_shape.is_fully_defined():
            return array_ops.ones(shape=self.batch_shape.as_list(), dtype=self.dtype)
        return array_ops.ones(shape=self.batch_shape_tensor(), dtype=self.dtype)

    def _num_rows_times_ones(self):
        """min(M, N) * ones(batch_shape), in the operator's dtype."""
        if self._min_matrix_dim() is not None:
            return self._min_matrix_dim() * self._batch_of_ones()
        return math_ops.cast(self._min_matrix_dim_tensor(), self.dtype) * self._batch_of_ones()


class LinearOperatorIdentity(BaseLinearOperatorIdentity):
    """The [batch] identity matrix of size num_rows."""

    _is_identity = True

    def __init__(self, num_rows, batch_shape=None, dtype=None, is_non_singular=True,
                 is_self_adjoint=True, is_positive_definite=True, is_square=True,
                 assert_proper_shapes=False, name="LinearOperatorIdentity"):
        dtype = dtype or _dtypes.float32
        self._assert_proper_shapes = assert_proper_shapes
        with name_scope(name):
            dtype = _dtypes.as_dtype(dtype)
            if not is_self_adjoint:
                raise ValueError("An identity operator is always self adjoint.")
            if not is_non_singular:
                raise ValueError("An identity operator is always non-singular.")
            if not is_positive_definite:
                raise ValueError("An identity operator is always positive-definite.")
            if not is_square:
                raise ValueError("An identity operator is always square.")
            super().__init__(dtype=dtype, is_non_singular=is_non_singular,
                             is_self_adjoint=is_self_adjoint,
                             is_positive_definite=is_positive_definite, is_square=is_square,
                             name=name)
            self._num_rows = util.shape_tensor(num_rows, name="num_rows")
            self._num_rows_static = constant_value(self._num_rows)
            self._check_num_rows_possibly_add_asserts()
            if batch_shape is None:
                self._batch_shape_arg = None
            else:
                self._batch_shape_arg = util.shape_tensor(batch_shape, name="batch_shape_arg")
                self._batch_shape_static = constant_value(self._batch_shape_arg)
                self._check_batch_shape_possibly_add_asserts()

    def _check_batch_shape_possibly_add_asserts(self):
        if self._assert_proper_shapes:
            self._batch_shape_arg = util.with_dependencies([
                check_ops.assert_rank(self._batch_shape_arg, 1,
                                      message="Argument batch_shape must be a 1-D Tensor."),
                check_ops.assert_non_negative(
                    self._batch_shape_arg,
                    message="Argument batch_shape must be non-negative.")],
                self._batch_shape_arg)
        if not self._batch_shape_arg.dtype.is_integer:
            raise TypeError(f"Argument batch_shape must be integer type.  Found: "
                            f"{self._batch_shape_arg}")
        static = self._batch_shape_static
        if static is None:
            return
        if static.ndim != 1:
            raise ValueError(f"Argument batch_shape must be a 1-D Tensor.  Found: {static}")
        if np.any(static < 0):
            raise ValueError(f"Argument batch_shape must be non-negative.  Found:{static}")

    def _shape(self):
        n = None if self._num_rows_static is None else int(self._num_rows_static)
        matrix_shape = TensorShape([n, n])
        if self._batch_shape_arg is None:
            return matrix_shape
        if self._batch_shape_static is None:
            return TensorShape(None)
        return TensorShape([int(b) for b in self._batch_shape_static]).concatenate(
            matrix_shape)

    def _shape_tensor(self):
        matrix_shape = array_ops.stack([self._num_rows, self._num_rows], axis=0)
        if self._batch_shape_arg is None:
            return matrix_shape
        return concat([self._batch_shape_arg, matrix_shape], 0)

    def _linop_adjoint(self):
        return self

    def _linop_inverse(self):
        return self

    def _linop_cholesky(self):
        return LinearOperatorIdentity(
            num_rows=self._num_rows, batch_shape=self._batch_shape_arg, dtype=self.dtype)

    def _linop_matmul(self, left_operator, right_operator):
        return right_operator

    def _linop_solve(self, left_operator, right_operator):
        return right_operator

    def _assert_non_singular(self):
        return control_flow_ops.no_op("assert_non_singular")

    def _assert_positive_definite(self):
        return control_flow_ops.no_op("assert_positive_definite")

    def _assert_self_adjoint(self):
        return control_flow_ops.no_op("assert_self_adjoint")

    def _possibly_broadcast_batch_shape(self, x):
        """x + zeros of the batch shape, if that makes x bigger."""
        if self._batch_shape_arg is None:
            return x
        special_shape = self.batch_shape.concatenate([1, 1])
        if special_shape.is_fully_defined():
            if broadcast_static_shape(x.shape, special_shape) == x.shape:
                return x
            return x + array_ops.zeros(shape=special_shape.as_list(), dtype=self.dtype)
        special_shape = concat([self.batch_shape_tensor(), [1, 1]], 0)
        return x + array_ops.zeros(shape=special_shape, dtype=self.dtype)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        x = util.adjoint(x) if adjoint_arg else x
        if self._assert_proper_shapes:
            x = util.with_dependencies([util.assert_compatible_matrix_dimensions(self, x)], x)
        return self._possibly_broadcast_batch_shape(x)

    def _determinant(self):
        return self._batch_of_ones()

    def _log_abs_determinant(self):
        return array_ops.zeros_like(self._batch_of_ones())

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        return self._matmul(rhs, adjoint_arg=adjoint_arg)

    def _trace(self):
        return self._num_rows_times_ones()

    def _diag_part(self):
        return self._ones_diag()

    def add_to_tensor(self, mat, name="add_to_tensor"):
        """mat + I: 1 added to mat's diagonal."""
        with self._name_scope(name):
            mat = convert_to_tensor(mat, name="mat")
            return matrix_set_diag(mat, 1 + matrix_diag_part(mat))


class LinearOperatorScaledIdentity(BaseLinearOperatorIdentity):
    """c I for a [batch] multiplier c ([B1, ..., Bb]): shape [B1, ..., Bb, N, N]."""

    _is_scaled_identity = True

    def __init__(self, num_rows, multiplier, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=True, assert_proper_shapes=False,
                 name="LinearOperatorScaledIdentity"):
        self._assert_proper_shapes = assert_proper_shapes
        with name_scope(name, values=[multiplier, num_rows]):
            self._multiplier = convert_to_tensor(multiplier, name="multiplier")
            if not self._multiplier.dtype.is_complex:
                if is_self_adjoint is False:
                    raise ValueError("A real diagonal operator is always self adjoint.")
                is_self_adjoint = True
            if not is_square:
                raise ValueError("A ScaledIdentity operator is always square.")
            super().__init__(dtype=self._multiplier.dtype.base_dtype,
                             graph_parents=[self._multiplier],
                             is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                             is_positive_definite=is_positive_definite, is_square=is_square,
                             name=name)
            self._num_rows = util.shape_tensor(num_rows, name="num_rows")
            self._num_rows_static = constant_value(self._num_rows)
            self._check_num_rows_possibly_add_asserts()
            self._num_rows_cast_to_dtype = math_ops.cast(self._num_rows, self.dtype)
            self._num_rows_cast_to_real_dtype = math_ops.cast(self._num_rows,
                                                              self.dtype.real_dtype)

    @property
    def multiplier(self):
        """The [batch] scalar c."""
        return self._multiplier

    def _shape(self):
        n = None if self._num_rows_static is None else int(self._num_rows_static)
        return self._multiplier.shape.concatenate([n, n])

    def _shape_tensor(self):
        matrix_shape = array_ops.stack([self._num_rows, self._num_rows], axis=0)
        return concat([array_ops.shape(self._multiplier), matrix_shape], 0)

    def _make_multiplier_matrix(self, conjugate=False):
        m = self._multiplier[..., None, None]
        return conj(m) if conjugate else m

    # -- operators ----------------------------------------------------------------------------

    def _linop_adjoint(self):
        multiplier = conj(self._multiplier) if self._multiplier.dtype.is_complex else \
            self._multiplier
        return LinearOperatorScaledIdentity(
            num_rows=self._num_rows, multiplier=multiplier,
            is_non_singular=self.is_non_singular, is_self_adjoint=self.is_self_adjoint,
            is_positive_definite=self.is_positive_definite, is_square=True)

    def _linop_cholesky(self):
        return LinearOperatorScaledIdentity(
            num_rows=self._num_rows, multiplier=basic_math_ops.sqrt(self._multiplier),
            is_non_singular=True, is_self_adjoint=True, is_positive_definite=True,
            is_square=True)

    def _linop_inverse(self):
        return LinearOperatorScaledIdentity(
            num_rows=self._num_rows, multiplier=1. / self._multiplier,
            is_non_singular=self.is_non_singular, is_self_adjoint=True,
            is_positive_definite=self.is_positive_definite, is_square=True)

    def _combined_hints(self, left, right):
        return dict(
            is_non_singular=util.combined_non_singular_hint(left, right),
            is_self_adjoint=util.combined_commuting_self_adjoint_hint(left, right),
            is_positive_definite=util.combined_commuting_positive_definite_hint(left, right))

    def _linop_matmul(self, left_operator, right_operator):
        hints = self._combined_hints(left_operator, right_operator)
        if isinstance(right_operator, LinearOperatorScaledIdentity):
            return LinearOperatorScaledIdentity(
                num_rows=left_operator.domain_dimension_tensor(),
                multiplier=left_operator.multiplier * right_operator.multiplier,
                is_square=True, **hints)
        if isinstance(right_operator, LinearOperatorDiag):
            return LinearOperatorDiag(
                right_operator.diag * left_operator.multiplier[..., None], is_square=True,
                **hints)
        return super()._linop_matmul(left_operator, right_operator)

    def _linop_solve(self, left_operator, right_operator):
        hints = self._combined_hints(left_operator, right_operator)
        if isinstance(right_operator, LinearOperatorScaledIdentity):
            return LinearOperatorScaledIdentity(
                num_rows=left_operator.domain_dimension_tensor(),
                multiplier=right_operator.multiplier / left_operator.multiplier,
                is_square=True, **hints)
        if isinstance(right_operator, LinearOperatorDiag):
            return LinearOperatorDiag(
                right_operator.diag / left_operator.multiplier[..., None], is_square=True,
                **hints)
        return super()._linop_solve(left_operator, right_operator)

    # -- asserts ------------------------------------------------------------------------------

    def _assert_non_singular(self):
        return check_ops.assert_positive(basic_math_ops.abs(self._multiplier),
                                         message="LinearOperator was singular")

    def _assert_positive_definite(self):
        return check_ops.assert_positive(real(self._multiplier),
                                         message="LinearOperator was not positive definite.")

    def _assert_self_adjoint(self):
        imag_multiplier = imag(self._multiplier)
        return check_ops.assert_equal(array_ops.zeros_like(imag_multiplier), imag_multiplier,
                                      message="LinearOperator was not self-adjoint")

    # -- methods ------------------------------------------------------------------------------

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        x = util.adjoint(x) if adjoint_arg else x
        if self._assert_proper_shapes:
            x = util.with_dependencies([util.assert_compatible_matrix_dimensions(self, x)], x)
        return x * self._make_multiplier_matrix(conjugate=adjoint)

    def _determinant(self):
        return self._multiplier ** self._num_rows_cast_to_dtype

    def _log_abs_determinant(self):
        return self._num_rows_cast_to_real_dtype * basic_math_ops.log(
            basic_math_ops.abs(self._multiplier))

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        rhs = util.adjoint(rhs) if adjoint_arg else rhs
        if self._assert_proper_shapes:
            rhs = util.with_dependencies([util.assert_compatible_matrix_dimensions(self, rhs)],
                                         rhs)
        return rhs / self._make_multiplier_matrix(conjugate=adjoint)

    def _trace(self):
        return self._multiplier * self._num_rows_times_ones()

    def _diag_part(self):
        return self._ones_diag() * self._multiplier[..., None]

    def add_to_tensor(self, mat, name="add_to_tensor"):
        """mat + c I: c added to mat's diagonal."""
        with self._name_scope(name):
            mat = convert_to_tensor(mat, name="mat")
            return matrix_set_diag(mat, self._multiplier[..., None] + matrix_diag_part(mat))
