"""tf.linalg.LinearOperatorCirculant, LinearOperatorCirculant2D, LinearOperatorCirculant3D --
mirrors TF 1.15's python/ops/linalg/linear_operator_circulant.py.

A circulant matrix (each row the row above, rotated right by one) is diagonalised by the
discrete Fourier transform: A = F^H diag(spectrum) F. So the operator is given by its
spectrum (the DFT of its first column), and

    A x = ifft(spectrum * fft(x))          O(N log N) per column, by the FFT ops
    A^-1 x = ifft(fft(x) / spectrum),  det A = prod(spectrum)

2D and 3D are block circulant with circulant blocks (nested once more for 3D), as in 2-D and
3-D periodic convolutions: their spectrum has 2 or 3 trailing "block" dimensions, transformed
with fft2d / fft3d, and N is the product of those.

The dtype of the matrices the operator acts on is `input_output_dtype` (complex64 by
default); pass tf.float32 for a real operator (its spectrum should then be Hermitian:
assert_hermitian_spectrum checks that the convolution kernel is real). A real spectrum
makes the operator self-adjoint.
"""
import numpy as np

from ...framework import dtypes as _dtypes
from ...framework.graph import name_scope
from ...framework.tensor import convert_to_tensor
from ...framework.tensor_shape import TensorShape
from .. import array_ops, basic_math_ops, check_ops, math_ops, reduction_ops
from ..complex_ops import complex as _complex
from ..complex_ops import conj, imag, real
from ..fft_ops import fft, fft2d, fft3d, ifft, ifft2d, ifft3d
from ..slicing_ops import concat
from . import linear_operator_util as util
from .linear_operator import LinearOperator

__all__ = ["LinearOperatorCirculant", "LinearOperatorCirculant2D",
           "LinearOperatorCirculant3D"]

_FFT_OP = {1: fft, 2: fft2d, 3: fft3d}
_IFFT_OP = {1: ifft, 2: ifft2d, 3: ifft3d}


def _to_complex(x):
    if x.dtype.is_complex:
        return x
    dtype = _dtypes.complex128 if x.dtype.base_dtype == _dtypes.float64 else _dtypes.complex64
    return math_ops.cast(x, dtype)


def _rotate_transpose(x, shift):
    """x with its dimensions rotated right by `shift` (TF's distribution_util)."""
    rank = x.shape.ndims
    if rank is not None:
        perm = np.roll(np.arange(rank), shift).tolist()
    else:
        rank_t = array_ops.rank(x)
        if shift > 0:
            perm = concat([[rank_t - 1], array_ops.range(rank_t - 1)], 0)
        else:
            perm = concat([array_ops.range(1, rank_t), [0]], 0)
    return array_ops.transpose(x, perm)


class _BaseLinearOperatorCirculant(LinearOperator):
    """What the 1-, 2- and 3-D circulants share (block_depth 1, 2 or 3)."""

    def __init__(self, spectrum, block_depth, input_output_dtype=_dtypes.complex64,
                 is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=True, name="LinearOperatorCirculant"):
        allowed_block_depths = [1, 2, 3]
        if block_depth not in allowed_block_depths:
            raise ValueError(f"Expected block_depth to be in {allowed_block_depths}.  Found: "
                             f"{block_depth}.")
        self._block_depth = block_depth
        with name_scope(name, values=[spectrum]):
            self._spectrum = convert_to_tensor(spectrum, name="spectrum")
            ndims = self._spectrum.shape.ndims
            if ndims is not None and ndims < block_depth:
                raise ValueError(f"Argument spectrum must have at least {block_depth} "
                                 f"dimensions.  Found: {self._spectrum}")
            if not self._spectrum.dtype.is_complex:
                if is_self_adjoint is False:
                    raise ValueError("A real spectrum always corresponds to a self-adjoint "
                                     "operator.")
                is_self_adjoint = True
            if is_square is False:
                raise ValueError("A [[nested] block] circulant operator is always square.")
            is_square = True
            super().__init__(dtype=_dtypes.as_dtype(input_output_dtype),
                             graph_parents=[self._spectrum],
                             is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                             is_positive_definite=is_positive_definite, is_square=is_square,
                             name=name)

    @property
    def block_depth(self):
        """1 for circulant, 2 for block circulant, 3 for nested block circulant."""
        return self._block_depth

    @property
    def spectrum(self):
        return self._spectrum

    @property
    def block_shape(self):
        """The static shape of the spectrum's block dimensions."""
        return self._spectrum.shape[-self._block_depth:]

    def block_shape_tensor(self):
        """The block dimensions of the spectrum as a tensor."""
        if self.block_shape.is_fully_defined():
            return util.shape_tensor(self.block_shape.as_list(), name="block_shape")
        return array_ops.shape(self._spectrum)[-self._block_depth:]

    def _shape(self):
        s_shape = self._spectrum.shape
        if s_shape.ndims is None:
            return TensorShape(None)
        trailing = s_shape[-self._block_depth:]
        n = int(np.prod(trailing.as_list())) if trailing.is_fully_defined() else None
        return s_shape[:-self._block_depth].concatenate([n, n])

    def _shape_tensor(self):
        s_shape = array_ops.shape(self._spectrum)
        n = reduction_ops.reduce_prod(s_shape[-self._block_depth:])
        return concat([s_shape[:-self._block_depth], array_ops.stack([n, n])], 0)

    # -- operators ----------------------------------------------------------------------------

    def _same_kind(self, **kwargs):
        return type(self)(input_output_dtype=self.dtype, is_square=True, **kwargs)

    def _linop_adjoint(self):
        spectrum = conj(self._spectrum) if self._spectrum.dtype.is_complex else self._spectrum
        return self._same_kind(spectrum=spectrum, is_non_singular=self.is_non_singular,
                               is_self_adjoint=self.is_self_adjoint,
                               is_positive_definite=self.is_positive_definite)

    def _linop_inverse(self):
        return self._same_kind(spectrum=1. / self._spectrum,
                               is_non_singular=self.is_non_singular,
                               is_self_adjoint=self.is_self_adjoint,
                               is_positive_definite=self.is_positive_definite)

    def _combined(self, left, right, spectrum):
        return self._same_kind(
            spectrum=spectrum,
            is_non_singular=util.combined_non_singular_hint(left, right),
            is_self_adjoint=util.combined_commuting_self_adjoint_hint(left, right),
            is_positive_definite=util.combined_commuting_positive_definite_hint(left, right))

    def _linop_matmul(self, left_operator, right_operator):
        if type(right_operator) is type(left_operator):
            return self._combined(left_operator, right_operator,
                                  left_operator.spectrum * right_operator.spectrum)
        return super()._linop_matmul(left_operator, right_operator)

    def _linop_solve(self, left_operator, right_operator):
        if type(right_operator) is type(left_operator):
            return self._combined(left_operator, right_operator,
                                  right_operator.spectrum / left_operator.spectrum)
        return super()._linop_solve(left_operator, right_operator)

    # -- the FFT machinery --------------------------------------------------------------------

    def _vectorize_then_blockify(self, matrix):
        """[..., N, R] -> [R, ..., block_shape]: each column a block vector."""
        vec = _rotate_transpose(matrix, shift=1)
        if vec.shape.is_fully_defined() and self.block_shape.is_fully_defined():
            final_shape = vec.shape[:-1].concatenate(self.block_shape).as_list()
        else:
            final_shape = concat([array_ops.shape(vec)[:-1], self.block_shape_tensor()], 0)
        return array_ops.reshape(vec, final_shape)

    def _unblockify(self, x):
        """[..., block_shape] -> [..., N]."""
        depth = self._block_depth
        if x.shape.is_fully_defined():
            dims = x.shape.as_list()
            flat_shape = dims[:-depth] + [int(np.prod(dims[-depth:]))]
        else:
            x_shape = array_ops.shape(x)
            flat_shape = concat([x_shape[:-depth],
                                 [reduction_ops.reduce_prod(x_shape[-depth:])]], 0)
        return array_ops.reshape(x, flat_shape)

    def _unblockify_then_matricize(self, vec):
        """[R, ..., block_shape] -> [..., N, R]."""
        return _rotate_transpose(self._unblockify(vec), shift=-1)

    def _fft(self, x):
        return _FFT_OP[self._block_depth](_to_complex(x))

    def _ifft(self, x):
        return _IFFT_OP[self._block_depth](_to_complex(x))

    def _broadcast_batch_dims(self, x, spectrum):
        """x and spectrum with their batch dimensions broadcast against each other."""
        spec_mat = array_ops.reshape(spectrum,
                                     concat([self.batch_shape_tensor(), [-1, 1]], 0))
        x, spec_mat = util.broadcast_matrix_batch_dims([x, spec_mat])
        spectrum = array_ops.reshape(
            spec_mat, concat([array_ops.shape(x)[:-2], self.block_shape_tensor()], 0))
        return x, spectrum

    def convolution_kernel(self, name="convolution_kernel"):
        """The kernel h whose DFT is the spectrum (A x is the periodic convolution h * x),
        in the operator's dtype."""
        with self._name_scope(name):
            return math_ops.cast(self._ifft(_to_complex(self._spectrum)), self.dtype)

    def assert_hermitian_spectrum(self, name="assert_hermitian_spectrum"):
        """An op that fails unless the spectrum is Hermitian, i.e. the matrix is real: the
        imaginary part of convolution_kernel() must be within eps * N of zero."""
        eps = np.finfo(self.dtype.real_dtype.as_numpy_dtype).eps
        with self._name_scope(name):
            max_err = eps * math_ops.cast(self.domain_dimension_tensor(),
                                          self.dtype.real_dtype)
            imag_kernel = imag(self.convolution_kernel())    # (zeros for a real dtype, as TF)
            return check_ops.assert_less(basic_math_ops.abs(imag_kernel), max_err,
                                         message="Spectrum was not Hermitian")

    # -- asserts ------------------------------------------------------------------------------

    def _assert_non_singular(self):
        return util.assert_no_entries_with_modulus_zero(
            self._spectrum, message="Singular operator:  Spectrum contained zero values.")

    def _assert_positive_definite(self):
        return check_ops.assert_positive(
            real(self._spectrum),
            message="Not positive definite:  Real part of spectrum was not all positive.")

    def _assert_self_adjoint(self):
        return util.assert_zero_imag_part(
            self._spectrum,
            message="Not self-adjoint:  The spectrum contained non-zero imaginary part.")

    # -- methods ------------------------------------------------------------------------------

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        x = util.adjoint(x) if adjoint_arg else x
        spectrum = _to_complex(self._spectrum)
        if adjoint:
            spectrum = conj(spectrum)
        x = math_ops.cast(x, spectrum.dtype)
        x, spectrum = self._broadcast_batch_dims(x, spectrum)
        fft_x_vb = self._fft(self._vectorize_then_blockify(x))
        y = self._unblockify_then_matricize(self._ifft(spectrum * fft_x_vb))
        return math_ops.cast(y, self.dtype)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        rhs = util.adjoint(rhs) if adjoint_arg else rhs
        spectrum = _to_complex(self._spectrum)
        if adjoint:
            spectrum = conj(spectrum)
        rhs = math_ops.cast(rhs, spectrum.dtype)
        rhs, spectrum = self._broadcast_batch_dims(rhs, spectrum)
        fft_rhs_vb = self._fft(self._vectorize_then_blockify(rhs))
        x = self._unblockify_then_matricize(self._ifft(fft_rhs_vb / spectrum))
        return math_ops.cast(x, self.dtype)

    def _block_axes(self):
        return [-(i + 1) for i in range(self._block_depth)]

    def _determinant(self):
        det = reduction_ops.reduce_prod(self._spectrum, axis=self._block_axes())
        return math_ops.cast(det, self.dtype)

    def _log_abs_determinant(self):
        lad = reduction_ops.reduce_sum(basic_math_ops.log(basic_math_ops.abs(self._spectrum)),
                                       axis=self._block_axes())
        return math_ops.cast(lad, self.dtype)

    def _trace(self):
        axes = self._block_axes()
        re_d_value = reduction_ops.reduce_sum(real(self._spectrum), axis=axes)
        if not self.dtype.is_complex:
            return math_ops.cast(re_d_value, self.dtype)
        if self.is_self_adjoint:
            im_d_value = array_ops.zeros_like(re_d_value)
        else:
            im_d_value = reduction_ops.reduce_sum(imag(self._spectrum), axis=axes)
        return math_ops.cast(_complex(re_d_value, im_d_value), self.dtype)

    def _diag_part(self):
        if self.shape.is_fully_defined():
            diag_shape = self.shape[:-1].as_list()
            diag_size = self.domain_dimension.value
        else:
            diag_shape = self.shape_tensor()[:-1]
            diag_size = self.domain_dimension_tensor()
        ones_diag = array_ops.ones(diag_shape, dtype=self.dtype)
        diag_value = self.trace() / math_ops.cast(diag_size, self.dtype)
        return diag_value[..., None] * ones_diag


class LinearOperatorCirculant(_BaseLinearOperatorCirculant):
    """A [batch] circulant matrix given by its spectrum [B1, ..., Bb, N]."""

    def __init__(self, spectrum, input_output_dtype=_dtypes.complex64, is_non_singular=None,
                 is_self_adjoint=None, is_positive_definite=None, is_square=True,
                 name="LinearOperatorCirculant"):
        super().__init__(spectrum, block_depth=1, input_output_dtype=input_output_dtype,
                         is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square,
                         name=name)


class LinearOperatorCirculant2D(_BaseLinearOperatorCirculant):
    """A [batch] block circulant matrix with circulant blocks; spectrum [..., N0, N1]."""

    def __init__(self, spectrum, input_output_dtype=_dtypes.complex64, is_non_singular=None,
                 is_self_adjoint=None, is_positive_definite=None, is_square=True,
                 name="LinearOperatorCirculant2D"):
        super().__init__(spectrum, block_depth=2, input_output_dtype=input_output_dtype,
                         is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square,
                         name=name)


class LinearOperatorCirculant3D(_BaseLinearOperatorCirculant):
    """A [batch] nested block circulant matrix; spectrum [..., N0, N1, N2]."""

    def __init__(self, spectrum, input_output_dtype=_dtypes.complex64, is_non_singular=None,
                 is_self_adjoint=None, is_positive_definite=None, is_square=True,
                 name="LinearOperatorCirculant3D"):
        super().__init__(spectrum, block_depth=3, input_output_dtype=input_output_dtype,
                         is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square,
                         name=name)
