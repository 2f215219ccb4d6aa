"""tf.linalg.LinearOperatorZeros -- mirrors TF 1.15's python/ops/linalg/
linear_operator_zeros.py: the [batch] zero matrix of num_rows x num_columns.

matmul returns zeros of the right shape (broadcast against the batch shape), the determinant
and trace are zeros; it is singular, so is_non_singular=True or is_positive_definite=True is a
ValueError, and assert_non_singular / assert_positive_definite raise InvalidArgumentError at
once. Square by default (num_columns = num_rows); num_columns != num_rows needs
is_square=False.
"""
import numpy as np

from ...framework import dtypes as _dtypes
from ...framework import errors
from ...framework.graph import name_scope
from ...framework.tensor import convert_to_tensor
from ...framework.tensor_shape import TensorShape, dimension_value
from ...framework.tensor_util import constant_value
from .. import array_ops, check_ops, control_flow_ops, reduction_ops
from ..manip_ops import broadcast_static_shape
from ..slicing_ops import concat
from . import linear_operator_util as util
from .linear_operator import LinearOperator

__all__ = ["LinearOperatorZeros"]


def _check_scalar(value, static, what, with_asserts):
    """(value, checked): num_rows / num_columns must be a non-negative integer scalar."""
    if with_asserts:
        value = util.with_dependencies([
            check_ops.assert_rank(value, 0, message=f"Argument {what} must be a 0-D Tensor."),
            check_ops.assert_non_negative(value,
                                          message=f"Argument {what} must be non-negative.")],
            value)
    if not value.dtype.is_integer:
        raise TypeError(f"Argument {what} must be integer type.  Found: {value}")
    if static is not None:
        if static.ndim != 0:
            raise ValueError(f"Argument {what} must be a 0-D Tensor.  Found: {static}")
        if static < 0:
            raise ValueError(f"Argument {what} must be non-negative.  Found: {static}")
    return value


class LinearOperatorZeros(LinearOperator):
    """The [batch] zero matrix as a LinearOperator."""

    _is_zeros = True

    def __init__(self, num_rows, num_columns=None, batch_shape=None, dtype=None,
                 is_non_singular=False, is_self_adjoint=True, is_positive_definite=False,
                 is_square=True, assert_proper_shapes=False, name="LinearOperatorZeros"):
        dtype = dtype or _dtypes.float32
        self._assert_proper_shapes = assert_proper_shapes
        with name_scope(name):
            dtype = _dtypes.as_dtype(dtype)
            if not is_self_adjoint and is_square:
                raise ValueError("A zero operator is always self adjoint.")
            if is_non_singular:
                raise ValueError("A zero operator is always singular.")
            if is_positive_definite:
                raise ValueError("A zero operator is always not positive-definite.")
            super().__init__(dtype=dtype, is_non_singular=is_non_singular,
                             is_self_adjoint=is_self_adjoint,
                             is_positive_definite=is_positive_definite, is_square=is_square,
                             name=name)
            self._num_rows = util.shape_tensor(num_rows, name="num_rows")
            self._num_rows_static = constant_value(self._num_rows)
            if num_columns is None:
                num_columns = num_rows
            self._num_columns = util.shape_tensor(num_columns, name="num_columns")
            self._num_columns_static = constant_value(self._num_columns)
            self._num_rows = _check_scalar(self._num_rows, self._num_rows_static, "num_rows",
                                           assert_proper_shapes)
            self._num_columns = _check_scalar(self._num_columns, self._num_columns_static,
                                              "num_columns", assert_proper_shapes)
            if self._num_rows_static is not None and self._num_columns_static is not None:
                if is_square and self._num_rows_static != self._num_columns_static:
                    raise ValueError(
                        f"LinearOperatorZeros initialized as is_square=True, but got "
                        f"num_rows({self._num_rows_static}) != "
                        f"num_columns({self._num_columns_static})")
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
        rows = None if self._num_rows_static is None else int(self._num_rows_static)
        cols = None if self._num_columns_static is None else int(self._num_columns_static)
        matrix_shape = TensorShape([rows, cols])
        if self._batch_shape_arg is None:
            return matrix_shape
        if self._batch_shape_static is None:
            return TensorShape(None)
        return TensorShape([int(b) for b in self._batch_shape_static]).concatenate(
            matrix_shape)

    def _shape_tensor(self):
        matrix_shape = array_ops.stack([self._num_rows, self._num_columns], axis=0)
        if self._batch_shape_arg is None:
            return matrix_shape
        return concat([self._batch_shape_arg, matrix_shape], 0)

    def _assert_non_singular(self):
        raise errors.InvalidArgumentError(None, None,
                                          "Zero operators are always non-invertible.")

    def _assert_positive_definite(self):
        raise errors.InvalidArgumentError(None, None,
                                          "Zero operators are always non-positive definite.")

    def _assert_self_adjoint(self):
        return control_flow_ops.no_op("assert_self_adjoint")

    def _possibly_broadcast_batch_shape(self, x):
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
        if self._assert_proper_shapes:
            x = util.adjoint(x) if adjoint_arg else x
            adjoint_arg = False
            x = util.with_dependencies([util.assert_compatible_matrix_dimensions(self, x)], x)
        x_shape = array_ops.shape(x)
        if self.is_square:
            if adjoint_arg:
                output_shape = concat([x_shape[:-2], x_shape[-1:], x_shape[-2:-1]], 0)
            else:
                output_shape = x_shape
        else:
            n = self._num_columns if adjoint else self._num_rows
            m = x_shape[-2:-1] if adjoint_arg else x_shape[-1:]
            output_shape = concat([x_shape[:-2], array_ops.reshape(n, [1]), m], 0)
        return self._possibly_broadcast_batch_shape(
            array_ops.zeros(shape=output_shape, dtype=x.dtype))

    def _linop_matmul(self, left_operator, right_operator):
        if not left_operator.is_square or not right_operator.is_square:
            raise ValueError("Matmul with non-square `LinearOperator`s or non-square "
                             "`LinearOperatorZeros` not supported at this time.")
        return left_operator

    def _batch_zeros(self):
        if self.batch_shape.is_fully_defined():
            return array_ops.zeros(shape=self.batch_shape.as_list(), dtype=self.dtype)
        return array_ops.zeros(shape=self.batch_shape_tensor(), dtype=self.dtype)

    def _determinant(self):
        return self._batch_zeros()

    def _trace(self):
        return self._batch_zeros()

    def _diag_part(self):
        return self._zeros_diag()

    def add_to_tensor(self, mat, name="add_to_tensor"):
        """mat itself (broadcast against the batch shape)."""
        return self._possibly_broadcast_batch_shape(convert_to_tensor(mat, name="mat"))

    def _min_matrix_dim(self):
        domain_dim = dimension_value(self.domain_dimension)
        range_dim = dimension_value(self.range_dimension)
        if domain_dim is None or range_dim is None:
            return None
        return min(domain_dim, range_dim)

    def _zeros_diag(self):
        if self.shape.is_fully_defined():
            d_shape = self.batch_shape.concatenate([self._min_matrix_dim()]).as_list()
        else:
            d_shape = concat([self.batch_shape_tensor(),
                              [reduction_ops.reduce_min(self.shape_tensor()[-2:])]], 0)
        return array_ops.zeros(shape=d_shape, dtype=self.dtype)
