"""tf.linalg.LinearOperatorToeplitz -- mirrors TF's python/ops/linalg/linear_operator_toeplitz.py
(TF 1.15 has it as tf.linalg.LinearOperatorToeplitz): a square [batch] Toeplitz matrix, each
descending diagonal constant, given by its first column `col` and first row `row`
([B1, ..., Bb, N] each; row[0] is ignored, the diagonal is col[0]):

    col = [1, 2, 3], row = [1, 4, 5]     ->    [[1, 4, 5],
                                                [2, 1, 4],
                                                [3, 2, 1]]

matmul embeds the matrix in a circulant one of size 2N and multiplies with FFTs
(LinearOperatorCirculant), O(N log N) per column; solve uses the dense matrix.
"""
from ...framework import dtypes as _dtypes
from ...framework.graph import name_scope
from ...framework.tensor import convert_to_tensor
from .. import array_ops, check_ops, math_ops
from ..fft_ops import fft
from ..indexing_ops import gather
from ..manip_ops import broadcast_dynamic_shape, broadcast_static_shape, broadcast_to
from ..slicing_ops import concat
from . import linear_operator_util as util
from .linear_operator import LinearOperator
from .linear_operator_circulant import LinearOperatorCirculant

__all__ = ["LinearOperatorToeplitz"]


def _to_complex(x):
    dtype = _dtypes.complex128 if x.dtype.base_dtype in (_dtypes.float64, _dtypes.complex128) \
        else _dtypes.complex64
    return math_ops.cast(x, dtype)


class LinearOperatorToeplitz(LinearOperator):
    """The [batch] Toeplitz matrix with first column `col` and first row `row`."""

    def __init__(self, col, row, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name="LinearOperatorToeplitz"):
        with name_scope(name, values=[row, col]):
            self._row = convert_to_tensor(row, name="row")
            self._col = convert_to_tensor(col, name="col")
            self._check_row_col(self._row, self._col)
            if is_square is False:
                raise ValueError("Only square Toeplitz operators currently supported.")
            is_square = True
            super().__init__(dtype=self._row.dtype, graph_parents=[self._row, self._col],
                             is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                             is_positive_definite=is_positive_definite, is_square=is_square,
                             name=name)

    def _check_row_col(self, row, col):
        for name, tensor in [["row", row], ["col", col]]:
            if tensor.shape.ndims is not None and tensor.shape.ndims < 1:
                raise ValueError(f"Argument {name} must have at least 1 dimension.  Found: "
                                 f"{tensor}")
        if row.shape[-1].value is not None and col.shape[-1].value is not None:
            if row.shape[-1] != col.shape[-1]:
                raise ValueError("Expected square matrix, got row and col with mismatched "
                                 "dimensions.")

    @property
    def col(self):
        return self._col

    @property
    def row(self):
        return self._row

    def _shape(self):
        v_shape = broadcast_static_shape(self._row.shape, self._col.shape)
        return v_shape.concatenate(v_shape[-1:])

    def _shape_tensor(self):
        v_shape = broadcast_dynamic_shape(array_ops.shape(self._row),
                                          array_ops.shape(self._col))
        return concat([v_shape, v_shape[-1:]], 0)

    def _assert_self_adjoint(self):
        return check_ops.assert_equal(self._row, self._col,
                                      message="row and col are not the same, and so this "
                                              "operator is not self-adjoint.")

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        # The N x N Toeplitz matrix is the top-left block of a 2N x 2N circulant one whose
        # first column is [col, 0, reversed(row[1:])]: multiply [x; 0] by that, keep N rows.
        x = util.adjoint(x) if adjoint_arg else x
        expanded_x = concat([x, array_ops.zeros_like(x)], axis=-2)
        circulant_col = concat([self._col, array_ops.zeros_like(self._col[..., 0:1]),
                                array_ops.reverse_v2(self._row[..., 1:], axis=[-1])], axis=-1)
        circulant = LinearOperatorCirculant(fft(_to_complex(circulant_col)),
                                            input_output_dtype=self._row.dtype)
        result = circulant.matmul(expanded_x, adjoint=adjoint, adjoint_arg=False)
        n = self.domain_dimension.value
        if n is None:
            n = self.domain_dimension_tensor()
        return math_ops.cast(result[..., :n, :], self.dtype)

    def _trace(self):
        return math_ops.cast(self.domain_dimension_tensor(), self.dtype) * self._col[..., 0]

    def _diag_part(self):
        return self._col[..., 0:1] * array_ops.ones(
            array_ops.reshape(self.domain_dimension_tensor(), [1]), self.dtype)

    def _to_dense(self):
        total_shape = broadcast_dynamic_shape(array_ops.shape(self._row),
                                              array_ops.shape(self._col))
        n = array_ops.shape(self._row)[-1]
        row = broadcast_to(self._row, total_shape)
        col = broadcast_to(self._col, total_shape)
        # entry (i, j) is col[i - j] for i >= j, row[j - i] above: a gather from
        # [col reversed, row[1:]] at index (n - 1 - i + j).
        elements = concat([array_ops.reverse_v2(col, axis=[-1]), row[..., 1:]], axis=-1)
        indices = math_ops.mod(array_ops.range(0, n) +
                               array_ops.range(n - 1, -1, -1)[..., None], 2 * n - 1)
        dense = gather(elements, indices, axis=-1)
        dense.set_shape(self.shape)
        return dense
