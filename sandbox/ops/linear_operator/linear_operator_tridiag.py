"""tf.linalg.LinearOperatorTridiag -- mirrors TF's python/ops/linalg/linear_operator_tridiag.py
(a TF 2.x class, in tf.compat.v1.linalg): a square [batch] tridiagonal matrix given by its
three diagonals, in one of the formats of tf.linalg.tridiagonal_solve:

    'compact'   one [..., 3, N] tensor: superdiagonal, diagonal, subdiagonal (the
                superdiagonal's last and the subdiagonal's first entries are ignored)
    'sequence'  a list of those three [..., N] tensors
    'matrix'    the [..., N, N] matrix itself

Here the methods work on the dense matrix, built from the diagonals with band_part (so that
gradients reach the diagonals: the sandbox's TridiagonalMatMul / TridiagonalSolve ops have
none); TF uses those O(N) ops.
"""
from ...framework.graph import name_scope
from ...framework.tensor import convert_to_tensor
from .. import array_ops, check_ops, control_flow_ops
from ..complex_ops import conj
from ..diag_ops import matrix_band_part, matrix_diag, matrix_diag_part
from ..manip_ops import broadcast_dynamic_shape, broadcast_static_shape, broadcast_to, roll
from ..matmul_ops import matmul
from ..slicing_ops import concat
from . import linear_operator_util as util
from .linear_operator import LinearOperator

__all__ = ["LinearOperatorTridiag"]

_COMPACT = "compact"
_MATRIX = "matrix"
_SEQUENCE = "sequence"
_DIAGONAL_FORMATS = frozenset({_COMPACT, _MATRIX, _SEQUENCE})


def _off_diagonal(values, upper):
    """The [..., N, N] matrix with values[i] at (i, i + 1) (upper) or (i, i - 1) (lower)."""
    rows = values[..., :, None] * array_ops.ones_like(values[..., None, :])
    band = matrix_band_part(rows, 0, 1) if upper else matrix_band_part(rows, 1, 0)
    return band - matrix_band_part(rows, 0, 0)


class LinearOperatorTridiag(LinearOperator):
    """The [batch] tridiagonal matrix of `diagonals` as a LinearOperator."""

    def __init__(self, diagonals, diagonals_format=_COMPACT, is_non_singular=None,
                 is_self_adjoint=None, is_positive_definite=None, is_square=None,
                 name="LinearOperatorTridiag"):
        with name_scope(name, values=[diagonals]):
            if diagonals_format not in _DIAGONAL_FORMATS:
                raise ValueError(f"Argument `diagonals_format` must be one of compact, "
                                 f"matrix, or sequence. Received : {diagonals_format}.")
            if diagonals_format == _SEQUENCE:
                self._diagonals = [convert_to_tensor(d, name=f"diag_{i}")
                                   for i, d in enumerate(diagonals)]
                dtype = self._diagonals[0].dtype
                parents = list(self._diagonals)
            else:
                self._diagonals = convert_to_tensor(diagonals, name="diagonals")
                dtype = self._diagonals.dtype
                parents = [self._diagonals]
            self._diagonals_format = diagonals_format
            super().__init__(dtype=dtype, graph_parents=parents,
                             is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                             is_positive_definite=is_positive_definite, is_square=is_square,
                             name=name)

    @property
    def diagonals(self):
        return self._diagonals

    @property
    def diagonals_format(self):
        return self._diagonals_format

    def _shape(self):
        if self._diagonals_format == _MATRIX:
            return self._diagonals.shape
        if self._diagonals_format == _COMPACT:
            shape = self._diagonals.shape
            d_shape = shape[:-2].concatenate(shape[-1:])
        else:
            d = self._diagonals
            batch = broadcast_static_shape(d[0].shape[:-1], d[1].shape[:-1])
            batch = broadcast_static_shape(batch, d[2].shape[:-1])
            d_shape = batch.concatenate(d[1].shape[-1:])
        return d_shape.concatenate(d_shape[-1:])

    def _shape_tensor(self):
        if self._diagonals_format == _MATRIX:
            return array_ops.shape(self._diagonals)
        if self._diagonals_format == _COMPACT:
            d_shape = array_ops.shape(self._diagonals[..., 0, :])
        else:
            d = self._diagonals
            batch = broadcast_dynamic_shape(array_ops.shape(d[0])[:-1],
                                            array_ops.shape(d[1])[:-1])
            batch = broadcast_dynamic_shape(batch, array_ops.shape(d[2])[:-1])
            d_shape = concat([batch, array_ops.shape(d[1])[-1:]], 0)
        return concat([d_shape, d_shape[-1:]], 0)

    def _three(self):
        """(superdiagonal, diagonal, subdiagonal) of the compact and sequence formats."""
        if self._diagonals_format == _COMPACT:
            return (self._diagonals[..., 0, :], self._diagonals[..., 1, :],
                    self._diagonals[..., 2, :])
        return tuple(self._diagonals)

    def _assert_self_adjoint(self):
        if self._diagonals_format == _MATRIX:
            return check_ops.assert_equal(self._diagonals, util.adjoint(self._diagonals),
                                          message="Matrix was not equal to its adjoint.")
        superdiag, diag, subdiag = self._three()
        subdiag = roll(subdiag, shift=-1, axis=-1)
        return control_flow_ops.group([
            util.assert_zero_imag_part(diag, message="This tridiagonal operator contained "
                                       "non-zero imaginary values on the diagonal."),
            check_ops.assert_equal(conj(subdiag[..., :-1]), superdiag[..., :-1],
                                   message="This tridiagonal operator has non-conjugate "
                                           "subdiagonal and superdiagonal.")])

    def _to_dense(self):
        if self._diagonals_format == _MATRIX:
            return self._diagonals
        superdiag, diag, subdiag = self._three()
        dense = (matrix_diag(diag) + _off_diagonal(superdiag, upper=True) +
                 _off_diagonal(subdiag, upper=False))
        dense.set_shape(self.shape)
        return dense

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        return matmul(self._to_dense(), x, adjoint_a=adjoint, adjoint_b=adjoint_arg)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        rhs = util.adjoint(rhs) if adjoint_arg else rhs
        return util.matrix_solve_with_broadcast(self._to_dense(), rhs, adjoint=adjoint)

    def _diag_part(self):
        if self._diagonals_format == _MATRIX:
            return matrix_diag_part(self._diagonals)
        if self._diagonals_format == _SEQUENCE:
            return broadcast_to(self._diagonals[1], self.shape_tensor()[:-1])
        return self._diagonals[..., 1, :]
