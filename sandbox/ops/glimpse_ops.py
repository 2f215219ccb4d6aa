"""Windows cut out of images -- mirrors TensorFlow 1.15's tf.image.extract_glimpse
(python/ops/image_ops_impl.py; kernel core/kernels/attention_ops.cc and
core/kernels/eigen_attention.h, op ExtractGlimpse) and tf.image.extract_patches, the TF 2 name
of extract_image_patches (whose op lives in space_ops.py).

A glimpse is the window of `size` = [height, width] pixels around a point of each image of a
batch, as in recurrent visual attention models: one offset (y, x) per image,

    glimpses = tf.image.extract_glimpse(images, [8, 8], offsets)   # [batch, 8, 8, depth]

How the offset is read (TF 1.x's ExtractGlimpse, kept by TF 2's compat.v1 endpoint):

    normalized  (y, x) are fractions of the image's height and width (else pixels)
    centered    (y, x) are measured from the image's centre, and a normalized offset runs
                from -1 to 1 (it is halved); else from the top-left corner
    then half the window is taken off, and the result truncated towards zero, giving the
    window's top-left pixel.

(So with normalized=False the window's centre lies at (y, x), or at (y/2, x/2) from the
centre if centered -- TF 1's arithmetic, which TF 2.3 changed for tf.image.extract_glimpse
only.) The parts of the window outside the image are filled with noise: uniform between the
image's minimum and maximum. uniform_noise=False does not change that: the op's `noise`
attribute ('uniform' unless set) decides, as in TF; noise='gaussian' draws from each channel's
mean and standard deviation (clipped to its range), noise='zero' fills zeros. TF's noise is not
seeded, nor is the sandbox's (NumPy's generator, fresh entropy): a glimpse that leaves the
image differs from run to run.
"""
import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.op_def import OpDef, apply_op
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tensor_util import constant_value, shape_text
from .bounding_box_ops import _check_dim, _check_rank
from .space_ops import extract_image_patches

__all__ = []   # reached as tf.image.* (sandbox/api/image.py)


def _invalid(message):
    return errors.InvalidArgumentError(None, None, message)


def _noise_mode(uniform_noise, noise):
    """TF's ExtractGlimpseOp constructor: which noise fills the outside of the image."""
    if uniform_noise and noise not in ("", "uniform"):
        raise _invalid("The uniform_noise and noise could not be specified at the same time")
    if not noise:
        return "uniform" if uniform_noise else "gaussian"
    if noise not in ("uniform", "gaussian", "zero"):
        raise _invalid(f"The noise could only be uniform, gaussian, or zero, got{noise}")
    return noise


def _corner(offset, image_size, window, normalized, centered):
    """The window's first pixel along one axis (TF 1's version-1 arithmetic, in float32)."""
    f32 = np.float32
    at = f32(offset)
    if normalized:
        at = f32(at * f32(image_size))
    if centered:
        at = f32(at / f32(2))
        at = f32(at + f32(image_size) / f32(2))
    at = f32(at - f32(window) / f32(2))
    return int(at)                      # C++'s cast: towards zero


def _noise(image, shape, mode, rng):
    """The filling of a window [h, w, depth] that leaves the image [H, W, depth]."""
    if mode == "zero":
        return np.zeros(shape, np.float32)
    if mode == "uniform":
        low, high = image.min(), image.max()
        return (low + rng.random(shape, dtype=np.float32) * np.float32(high - low)).astype(
            np.float32)
    mean = image.mean(axis=(0, 1), dtype=np.float32)
    sigma = np.sqrt(np.square(image - mean).mean(axis=(0, 1), dtype=np.float32))
    noise = mean + rng.standard_normal(shape, dtype=np.float32) * sigma
    return np.clip(noise, image.min(axis=(0, 1)), image.max(axis=(0, 1))).astype(np.float32)


class ExtractGlimpse(OpDef):
    """input [batch, H, W, depth], size [h, w], offsets [batch, 2] (y, x) -> [batch, h, w,
    depth]: each image's window, noise where it leaves the image."""
    stateful = True             # the noise: a new draw on every run
    differentiable = False

    def shape(op):
        _check_rank(op, 0, 4)
        _check_rank(op, 1, 1)
        _check_rank(op, 2, 2)
        _check_dim(op, 1, 0, 2)
        _check_dim(op, 2, 1, 2)
        image, offsets = op.inputs[0].get_shape(), op.inputs[2].get_shape()
        batch = image.as_list()[0] if image.ndims is not None else None
        other = offsets.as_list()[0] if offsets.ndims is not None else None
        if batch is not None and other is not None and batch != other:
            raise ValueError(f"Dimensions must be equal, but are {batch} and {other}")
        _noise_mode(op.get_attr("uniform_noise"), op.get_attr("noise"))
        size = constant_value(op.inputs[1])
        height, width = (None, None) if size is None else (int(size[0]), int(size[1]))
        depth = image.as_list()[3] if image.ndims is not None else None
        return TensorShape([batch if batch is not None else other, height, width, depth])

    def kernel(input, size, offsets, centered=True, normalized=True,  # noqa: A002
               uniform_noise=True, noise="uniform"):
        mode = _noise_mode(uniform_noise, noise)
        if input.ndim != 4:
            raise _invalid(f"input must be 4-dimensional (batch_size, height, width, depth)"
                           f"{shape_text(list(input.shape))}")
        if size.shape != (2,):
            raise _invalid(f"input must be a vector of size 2 (height, width)"
                           f"{shape_text(list(size.shape))}")
        if offsets.ndim != 2:
            raise _invalid(f"input must be a matrix{shape_text(list(offsets.shape))}")
        if offsets.shape[0] != input.shape[0]:
            raise _invalid(f"first dimension should be batch{shape_text(list(offsets.shape))}")
        if offsets.shape[1] != 2:
            raise _invalid(f"second dimension should be of size 2 (y,x)"
                           f"{shape_text(list(offsets.shape))}")
        batch, height, width, depth = input.shape
        h, w = int(size[0]), int(size[1])
        if h < 0 or w < 0:
            raise _invalid(f"Expected a non-negative size, got {min(h, w)}")
        out = np.empty((batch, h, w, depth), np.float32)
        rng = None
        for b in range(batch):
            image = input[b].astype(np.float32)
            y = _corner(offsets[b, 0], height, h, normalized, centered)
            x = _corner(offsets[b, 1], width, w, normalized, centered)
            if y < 0 or x < 0 or y + h >= height or x + w >= width:     # TF's partial_overlap
                if rng is None:
                    rng = np.random.default_rng()
                out[b] = _noise(image, (h, w, depth), mode, rng)
            # the part of the window that lies on the image: rows y .. y+h, columns x .. x+w
            y0, y1 = max(y, 0), min(y + h, height)
            x0, x1 = max(x, 0), min(x + w, width)
            if y0 < y1 and x0 < x1:
                out[b, y0 - y:y1 - y, x0 - x:x1 - x] = image[y0:y1, x0:x1]
        return out


def extract_glimpse(input, size, offsets, centered=True, normalized=True,  # noqa: A002
                    uniform_noise=True, name=None):
    """The windows of `size` [height, width] of a batch of float images [batch, H, W,
    depth], one per image, at `offsets` [batch, 2] = (y, x) (see the module docstring for
    how centered and normalized read them). Parts outside the image are uniform noise.
    Returns float32 [batch, height, width, depth]."""
    input = convert_to_tensor(input, dtype=_dtypes.float32, name="input")  # noqa: A001
    size = convert_to_tensor(size, dtype=_dtypes.int32, name="size")
    offsets = convert_to_tensor(offsets, dtype=_dtypes.float32, name="offsets")
    return apply_op("ExtractGlimpse", [input, size, offsets],
                    {"centered": bool(centered), "normalized": bool(normalized),
                     "uniform_noise": bool(uniform_noise), "noise": "uniform"},
                    name=name or "ExtractGlimpse", output_dtypes=[_dtypes.float32])


def extract_patches(images, sizes, strides, rates, padding, name=None):
    """tf.image.extract_patches (TF 2's name): extract_image_patches with `sizes` for
    ksizes. Each sizes = [1, kh, kw, 1] window of images [N, H, W, C], every strides = [1,
    sh, sw, 1], its pixels rates = [1, rh, rw, 1] apart, flattened into the depth:
    [N, OH, OW, kh * kw * C]."""
    return extract_image_patches(images, sizes, strides, rates, padding, name=name)
