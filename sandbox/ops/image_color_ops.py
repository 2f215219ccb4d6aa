"""Colour adjustments -- mirrors TensorFlow 1.15's colour functions of
python/ops/image_ops_impl.py (adjust_brightness, adjust_contrast, adjust_saturation,
adjust_hue, their random_* versions, rgb_to_grayscale, grayscale_to_rgb, rgb_to_hsv,
hsv_to_rgb, the YIQ and YUV matrices) and the kernels of core/kernels/colorspace_op.h, adjust_hue_op.cc and
adjust_saturation_op.cc.

Each adjustment works on a float image: an integer image is converted to float32 in [0, 1]
(convert_image_dtype), adjusted, and converted back. Brightness adds a delta, contrast moves
each pixel away from (factor > 1) or towards (factor < 1) the mean of its channel; both are
built from math ops, so they have gradients. Hue and saturation go through HSV space: hue
turns the colour wheel by delta (a fraction of a turn), saturation scales S. Those are kernels
(AdjustHue, AdjustSaturation, RGBToHSV, HSVToRGB) without gradients, as in TF 1.15.

The random_* versions draw their factor once per run with random_uniform, following the seeds
like every random op (graph seed + op seed).
"""
import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.graph import name_scope
from ..framework.op_def import OpDef, apply_op
from ..framework.tensor import convert_to_tensor
from . import array_ops, math_ops, random_ops, reduction_ops
from .image_ops import convert_image_dtype
from .linalg_ops import tensordot
from .slicing_ops import concat, tile

__all__ = []   # reached as tf.image.* (sandbox/api/image.py)


# -- HSV in NumPy ---------------------------------------------------------------------------

def _rgb_to_hsv(rgb):
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    v = rgb.max(axis=-1)
    rng = v - rgb.min(axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        s = np.where(v > 0, rng / v, 0)
        norm = 1 / (6 * rng)
        h = np.where(r == v, norm * (g - b),
                     np.where(g == v, norm * (b - r) + 2 / 6, norm * (r - g) + 4 / 6))
    h = np.where(rng > 0, h, 0)
    h = np.where(h < 0, h + 1, h)
    return np.stack([h, s, v], axis=-1)


def _hsv_to_rgb(hsv):
    h, s, v = hsv[..., 0], hsv[..., 1], hsv[..., 2]
    dh = h * 6
    dr = np.clip(np.abs(dh - 3) - 1, 0, 1)
    dg = np.clip(-np.abs(dh - 2) + 2, 0, 1)
    db = np.clip(-np.abs(dh - 4) + 2, 0, 1)
    one_minus_s = 1 - s
    return np.stack([(one_minus_s + s * d) * v for d in (dr, dg, db)], axis=-1)


def _check_channels(images):
    if images.ndim < 1 or images.shape[-1] != 3:
        channels = images.shape[-1] if images.ndim else 0
        raise errors.InvalidArgumentError(None, None, f"input must have 3 channels but input "
                                          f"only has {channels} channels.")


def _color_shape(op):
    shape = op.inputs[0].get_shape()
    if shape.ndims is not None:
        if shape.ndims < 1:
            raise ValueError("Shape must be at least rank 1 but is rank 0")
        if shape[-1].value is not None and shape[-1].value != 3:
            raise ValueError(f"Dimension must be 3 but is {shape[-1].value}")
    return shape


class RGBToHSV(OpDef):
    """RGB in [0, 1] -> (hue, saturation, value), each in [0, 1]."""
    shape = _color_shape

    def kernel(images, T=None):
        _check_channels(images)
        return _rgb_to_hsv(images).astype(images.dtype)


class HSVToRGB(OpDef):
    """(hue, saturation, value) -> RGB."""
    shape = _color_shape

    def kernel(images, T=None):
        _check_channels(images)
        return _hsv_to_rgb(images).astype(images.dtype)


class AdjustHue(OpDef):
    """Turns each pixel's hue by delta (a fraction of the colour wheel), keeping the pixel's
    minimum and maximum channel values (TF's hv-range method)."""
    shape = _color_shape

    def kernel(images, delta, T=None):
        if images.ndim < 3:
            raise errors.InvalidArgumentError(None, None, f"input must be at least 3-D, got "
                                              f"shape{list(images.shape)}")
        _check_channels(images)
        if np.ndim(delta) != 0:
            raise errors.InvalidArgumentError(None, None, "delta must be scalar")
        x = images.astype(np.float32)
        r, g, b = x[..., 0], x[..., 1], x[..., 2]
        vmax, vmin = x.max(axis=-1), x.min(axis=-1)
        # The hue as a position on the six sextants of the wheel: h in [0, 6).
        cat = np.select([(r < g) & (b < r), (r < g) & (b > g), r < g, b < g, b > r],
                        [1, 3, 2, 0, 4], 5)
        mid = np.choose(cat, [g, r, b, g, r, b])
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = (mid - vmin) / (vmax - vmin)
        h = np.where(cat % 2 == 0, cat + ratio, cat + 1 - ratio)
        h = np.where(vmax == vmin, 0, h).astype(np.float32)
        h = np.mod(h + np.float32(delta) * 6, np.float32(6)).astype(np.float32)
        cat = np.minimum(h.astype(np.int64), 5)
        ratio = h - cat
        ratio = np.where(cat % 2 == 0, ratio, 1 - ratio)
        vmid = vmin + ratio * (vmax - vmin)
        rgb = [np.choose(cat, choices) for choices in (
            [vmax, vmid, vmin, vmin, vmid, vmax], [vmid, vmax, vmax, vmid, vmin, vmin],
            [vmin, vmin, vmid, vmax, vmax, vmid])]
        return np.stack(rgb, axis=-1).astype(images.dtype)


class AdjustSaturation(OpDef):
    """Scales each pixel's HSV saturation by `scale` (clipped to [0, 1])."""
    shape = _color_shape

    def kernel(images, scale, T=None):
        if images.ndim < 3:
            raise errors.InvalidArgumentError(None, None, f"input must be at least 3-D, got "
                                              f"shape{list(images.shape)}")
        _check_channels(images)
        if np.ndim(scale) != 0:
            raise errors.InvalidArgumentError(None, None, "scale must be scalar")
        hsv = _rgb_to_hsv(images.astype(np.float32))
        hsv[..., 1] = np.clip(hsv[..., 1] * np.float32(scale), 0, 1)
        return _hsv_to_rgb(hsv).astype(images.dtype)


# -- colour spaces --------------------------------------------------------------------------

def _float_images(images, op_type):
    images = convert_to_tensor(images, name="images")
    if images.dtype.base_dtype not in (_dtypes.float16, _dtypes.float32, _dtypes.float64):
        raise TypeError(f"Value passed to parameter 'images' has DataType "
                        f"{images.dtype.base_dtype.name} not in list of allowed values: "
                        f"float16, float32, float64 (op {op_type}). Use "
                        "tf.image.convert_image_dtype first.")
    return images


def rgb_to_hsv(images, name=None):
    """RGB images (floats in [0, 1], last axis 3) -> HSV."""
    images = _float_images(images, "RGBToHSV")
    return apply_op("RGBToHSV", [images], {"T": images.dtype.base_dtype},
                    name=name or "RGBToHSV")


def hsv_to_rgb(images, name=None):
    """HSV images (floats in [0, 1], last axis 3) -> RGB."""
    images = _float_images(images, "HSVToRGB")
    return apply_op("HSVToRGB", [images], {"T": images.dtype.base_dtype},
                    name=name or "HSVToRGB")


def rgb_to_grayscale(images, name=None):
    """Luma 0.2989 R + 0.5870 G + 0.1140 B, last axis kept with size 1 (same dtype)."""
    with name_scope(name, "rgb_to_grayscale", [images]) as scope:
        images = convert_to_tensor(images, name="images")
        orig = images.dtype.base_dtype
        flt = convert_image_dtype(images, _dtypes.float32)
        gray = tensordot(flt, np.array([0.2989, 0.5870, 0.1140], dtype=np.float32), [-1, -1])
        gray = array_ops.expand_dims(gray, -1)
        return convert_image_dtype(gray, orig, name=scope)


def grayscale_to_rgb(images, name=None):
    """Repeats the single channel three times."""
    with name_scope(name, "grayscale_to_rgb", [images]) as scope:
        images = convert_to_tensor(images, name="images")
        shape = images.get_shape()
        if shape.ndims is not None:
            if shape.ndims < 2:
                raise ValueError(f"'image' (shape {shape}) must be at least two-dimensional.")
            if shape[-1].value is not None and shape[-1].value != 1:
                raise ValueError("Last dimension of a grayscale image should be size 1.")
            return tile(images, [1] * (shape.ndims - 1) + [3], name=scope)
        rank_1 = array_ops.expand_dims(array_ops.rank(images) - 1, 0)
        return tile(images, concat([array_ops.ones(rank_1, _dtypes.int32), [3]], 0), name=scope)


_RGB_TO_YIQ = [[0.299, 0.59590059, 0.2115], [0.587, -0.27455667, -0.52273617],
               [0.114, -0.32134392, 0.31119955]]
_YIQ_TO_RGB = [[1, 1, 1], [0.95598634, -0.27201283, -1.10674021],
               [0.6208248, -0.64720424, 1.70423049]]
_RGB_TO_YUV = [[0.299, -0.14714119, 0.61497538], [0.587, -0.28886916, -0.51496512],
               [0.114, 0.43601035, -0.10001026]]
_YUV_TO_RGB = [[1, 1, 1], [0, -0.394642334, 2.03206185], [1.13988303, -0.58062185, 0]]


def _linear_color(images, matrix, name):
    with name_scope(None, name, [images]):
        images = convert_to_tensor(images, name="images")
        kernel = convert_to_tensor(matrix, dtype=images.dtype.base_dtype, name="kernel")
        ndims = images.get_shape().ndims
        if ndims is None:
            raise ValueError(f"{name} needs images of known rank")
        return tensordot(images, kernel, [[ndims - 1], [0]])


def rgb_to_yiq(images):
    """RGB -> YIQ (a 3x3 matrix on the last axis; floats)."""
    return _linear_color(images, _RGB_TO_YIQ, "rgb_to_yiq")


def yiq_to_rgb(images):
    """YIQ -> RGB."""
    return _linear_color(images, _YIQ_TO_RGB, "yiq_to_rgb")


def rgb_to_yuv(images):
    """RGB -> YUV (a 3x3 matrix on the last axis; floats)."""
    return _linear_color(images, _RGB_TO_YUV, "rgb_to_yuv")


def yuv_to_rgb(images):
    """YUV -> RGB."""
    return _linear_color(images, _YUV_TO_RGB, "yuv_to_rgb")


# -- adjustments -----------------------------------------------------------------------------

def _as_float(image):
    image = convert_to_tensor(image, name="image")
    orig = image.dtype.base_dtype
    flt = image if orig in (_dtypes.float16, _dtypes.float32) else \
        convert_image_dtype(image, _dtypes.float32)
    return flt, orig


def adjust_brightness(image, delta):
    """image + delta (on the float image; an integer image comes back saturated)."""
    with name_scope(None, "adjust_brightness", [image, delta]) as scope:
        flt, orig = _as_float(image)
        adjusted = math_ops.add(flt, math_ops.cast(delta, flt.dtype.base_dtype), name=scope)
        return convert_image_dtype(adjusted, orig, saturate=True)


def adjust_contrast(images, contrast_factor):
    """(x - mean) * contrast_factor + mean, the mean of each channel of each image."""
    with name_scope(None, "adjust_contrast", [images, contrast_factor]) as scope:
        flt, orig = _as_float(images)
        if flt.get_shape().ndims is not None and flt.get_shape().ndims < 3:
            raise ValueError(f"Shape must be at least rank 3 but is rank "
                             f"{flt.get_shape().ndims}")
        factor = math_ops.cast(contrast_factor, flt.dtype.base_dtype)
        mean = reduction_ops.reduce_mean(flt, axis=[-3, -2], keepdims=True)
        adjusted = math_ops.add((flt - mean) * factor, mean, name=scope)
        return convert_image_dtype(adjusted, orig, saturate=True)


def adjust_saturation(image, saturation_factor, name=None):
    """Scales the HSV saturation by saturation_factor."""
    with name_scope(name, "adjust_saturation", [image]) as scope:
        flt, orig = _as_float(image)
        factor = convert_to_tensor(saturation_factor, dtype=_dtypes.float32, name="scale")
        adjusted = apply_op("AdjustSaturation", [flt, factor], {"T": flt.dtype.base_dtype},
                            name=scope)
        return convert_image_dtype(adjusted, orig)


def adjust_hue(image, delta, name=None):
    """Turns the hue by delta, a fraction of the colour wheel in [-1, 1]."""
    with name_scope(name, "adjust_hue", [image]) as scope:
        flt, orig = _as_float(image)
        delta = convert_to_tensor(delta, dtype=_dtypes.float32, name="delta")
        adjusted = apply_op("AdjustHue", [flt, delta], {"T": flt.dtype.base_dtype},
                            name=scope)
        return convert_image_dtype(adjusted, orig)


def _check_range(lower, upper):
    if upper <= lower:
        raise ValueError("upper must be > lower.")
    if lower < 0:
        raise ValueError("lower must be non-negative.")


def random_brightness(image, max_delta, seed=None):
    """adjust_brightness by a delta drawn uniformly from [-max_delta, max_delta)."""
    if max_delta < 0:
        raise ValueError("max_delta must be non-negative.")
    delta = random_ops.random_uniform([], -max_delta, max_delta, seed=seed)
    return adjust_brightness(image, delta)


def random_contrast(image, lower, upper, seed=None):
    """adjust_contrast by a factor drawn uniformly from [lower, upper)."""
    _check_range(lower, upper)
    factor = random_ops.random_uniform([], lower, upper, seed=seed)
    return adjust_contrast(image, factor)


def random_saturation(image, lower, upper, seed=None):
    """adjust_saturation by a factor drawn uniformly from [lower, upper)."""
    _check_range(lower, upper)
    factor = random_ops.random_uniform([], lower, upper, seed=seed)
    return adjust_saturation(image, factor)


def random_hue(image, max_delta, seed=None):
    """adjust_hue by a delta drawn uniformly from [-max_delta, max_delta), max_delta <= 0.5."""
    if max_delta > 0.5:
        raise ValueError("max_delta must be <= 0.5.")
    if max_delta < 0:
        raise ValueError("max_delta must be non-negative.")
    delta = random_ops.random_uniform([], -max_delta, max_delta, seed=seed)
    return adjust_hue(image, delta)
