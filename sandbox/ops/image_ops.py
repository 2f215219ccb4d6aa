"""Image geometry and image arithmetic -- mirrors TensorFlow 1.15's python/ops/image_ops_impl.py
(flips, transposes, rotations, crops and pads, convert_image_dtype, per_image_standardization,
adjust_gamma, total_variation, image_gradients, psnr, ssim, sobel_edges) and the box kernels of
core/kernels/non_max_suppression_op.cc and draw_bounding_box_op.cc.

An image is a 3-D tensor [height, width, channels]; a batch is 4-D [batch, height, width,
channels]. Almost everything here is built from existing ops (reverse, transpose, slice, pad,
where, the math ops), as in TF, so gradients come for free: tf.gradients through
flip_left_right is a flip of the gradient, through crop_to_bounding_box a pad.

Pixel values are floats in [0, 1] or integers in [0, dtype.max]: convert_image_dtype moves an
image between the two conventions (uint8 200 <-> float 200/255).
"""
import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.graph import name_scope
from ..framework.op_def import OpDef, apply_op
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from . import array_ops, basic_math_ops, comparison_ops, math_ops, random_ops, reduction_ops
from .cond_v2 import cond
from .control_flow_ops import identity
from .depthwise_conv_ops import depthwise_conv2d
from .manip_ops import where_v2
from .slicing_ops import concat, pad, slice as _slice, tile

__all__ = []   # reached as tf.image.* (sandbox/api/image.py)


# -- checks ----------------------------------------------------------------------------------

def _check_image(image, require_static=False, exact=False):
    """TF's _CheckAtLeast3DImage / _Check3DImage: raises ValueError for a static shape that
    cannot be an image."""
    shape = image.get_shape()
    if exact:
        if shape.ndims is not None and shape.ndims != 3:
            raise ValueError(f"'image' (shape {shape}) must be three-dimensional.")
    elif shape.ndims is not None and shape.ndims < 3:
        raise ValueError(f"'image' (shape {shape}) must be at least three-dimensional.")
    if require_static and not shape.is_fully_defined():
        raise ValueError(f"'image' (shape {shape}) must be fully defined.")
    if shape.ndims is not None and any(d == 0 for d in shape.as_list()[-3:]):
        raise ValueError(f"inner 3 dims of 'image.shape' must be > 0: {shape}")
    return image


def _image(image, name="image"):
    return _check_image(convert_to_tensor(image, name=name))


def _dims(image, rank):
    """The image's dimensions: Python ints where static, scalar tensors elsewhere."""
    static = image.get_shape().with_rank(rank).as_list()
    if all(d is not None for d in static):
        return static
    dynamic = array_ops.unstack(array_ops.shape(image), rank)
    return [s if s is not None else d for s, d in zip(static, dynamic)]


def _static_true(cond, message):
    """TF's _assert: a Python condition that is False raises ValueError now (a tensor
    condition is left to the kernels that follow)."""
    if not isinstance(cond, Tensor) and not cond:
        raise ValueError(message)


def _max(x, y):
    return max(x, y) if not any(isinstance(v, Tensor) for v in (x, y)) else \
        basic_math_ops.maximum(x, y)


def _min(x, y):
    return min(x, y) if not any(isinstance(v, Tensor) for v in (x, y)) else \
        basic_math_ops.minimum(x, y)


# -- flips, transposes, rotations ---------------------------------------------------------

def _rank_3_or_4(image):
    ndims = image.get_shape().ndims
    if ndims not in (3, 4):
        raise ValueError(f"'image' (shape {image.get_shape()})must have either 3 or 4 "
                         "dimensions.")
    return ndims


def _flip(image, axis, name, default_name):
    with name_scope(name, default_name, [image]) as scope:
        image = _image(image)
        if image.get_shape().ndims is None:     # height is axis rank - 3, width rank - 2
            flip_axis = array_ops.reshape(array_ops.rank(image) + (axis - 3), [1])
            return array_ops.reverse_v2(image, flip_axis, name=scope)
        ndims = _rank_3_or_4(image)
        return array_ops.reverse_v2(image, [axis + (ndims - 3)], name=scope)


def flip_left_right(image):
    """Mirrors the image (or each image of a batch) horizontally: reverses the width axis."""
    return _flip(image, 1, None, "flip_left_right")


def flip_up_down(image):
    """Mirrors the image vertically: reverses the height axis."""
    return _flip(image, 0, None, "flip_up_down")


def _random_flip(image, axis, seed, default_name):
    with name_scope(None, default_name, [image]) as scope:
        image = _image(image)
        ndims = image.get_shape().ndims
        if ndims not in (None, 3, 4):
            _rank_3_or_4(image)
        if ndims in (None, 3):          # as TF: an image of unknown rank is taken as 3-D
            u = random_ops.random_uniform([], 0, 1.0, seed=seed)
            return where_v2(comparison_ops.less(u, .5),
                            array_ops.reverse_v2(image, [axis]), image, name=scope)
        batch = array_ops.shape(image)[0]
        u = random_ops.random_uniform(array_ops.stack([batch]), 0, 1.0, seed=seed)
        flips = math_ops.cast(math_ops.round(array_ops.reshape(u, array_ops.stack(
            [batch, 1, 1, 1]))), image.dtype.base_dtype)
        flipped = array_ops.reverse_v2(image, [axis + 1])
        return math_ops.add(flips * flipped, (1 - flips) * image, name=scope)


def random_flip_left_right(image, seed=None):
    """Flips the image horizontally with probability 1/2 (each image of a batch on its own)."""
    return _random_flip(image, 1, seed, "random_flip_left_right")


def random_flip_up_down(image, seed=None):
    """Flips the image vertically with probability 1/2 (each image of a batch on its own)."""
    return _random_flip(image, 0, seed, "random_flip_up_down")


def transpose_image(image, name=None):
    """Swaps height and width (tf.image.transpose / transpose_image)."""
    with name_scope(name, "transpose", [image]) as scope:
        image = _image(image)
        ndims = image.get_shape().ndims
        perm = [1, 0, 2] if ndims is None or _rank_3_or_4(image) == 3 else [0, 2, 1, 3]
        return array_ops.transpose(image, perm, name=scope)


def rot90(image, k=1, name=None):
    """Rotates the image counter-clockwise by k times 90 degrees (k may be a tensor)."""
    with name_scope(name, "rot90", [image, k]) as scope:
        image = _image(image)
        ndims = _rank_3_or_4(image)
        h, w = ndims - 3, ndims - 2
        perm = list(range(ndims))
        perm[h], perm[w] = w, h

        def rotated(quarter):
            if quarter == 1:
                return array_ops.transpose(array_ops.reverse_v2(image, [w]), perm)
            if quarter == 2:
                return array_ops.reverse_v2(image, [h, w])
            if quarter == 3:
                return array_ops.reverse_v2(array_ops.transpose(image, perm), [w])
            return image

        if not isinstance(k, Tensor):
            return identity(rotated(int(k) % 4), name=scope)
        k = math_ops.floormod(convert_to_tensor(k, dtype=_dtypes.int32, name="k"), 4)
        result = cond(comparison_ops.equal(k, 1), lambda: rotated(1), lambda: cond(
            comparison_ops.equal(k, 2), lambda: rotated(2), lambda: cond(
                comparison_ops.equal(k, 3), lambda: rotated(3), lambda: identity(image))))
        result.set_shape([None] * (ndims - 3) + [None, None, image.get_shape()[-1]])
        return identity(result, name=scope)


# -- crops and pads -----------------------------------------------------------------------------

def _batched(image):
    image = _image(image)
    ndims = image.get_shape().ndims
    if ndims is None:
        raise ValueError("'image' must have either 3 or 4 dimensions.")
    return (image, True) if ndims == 4 else (array_ops.expand_dims(image, 0), False)


def _unbatched(image, is_batch, scope):
    return identity(image, name=scope) if is_batch else array_ops.squeeze(image, [0],
                                                                         name=scope)


def crop_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
    """The box [offset_height : offset_height + target_height, offset_width : ... +
    target_width] of the image (a Slice: its gradient pads)."""
    with name_scope(None, "crop_to_bounding_box", [image]) as scope:
        image, is_batch = _batched(image)
        _, height, width, _ = _dims(image, 4)
        _static_true(offset_width >= 0, "offset_width must be >= 0.")
        _static_true(offset_height >= 0, "offset_height must be >= 0.")
        _static_true(target_width > 0, "target_width must be > 0.")
        _static_true(target_height > 0, "target_height must be > 0.")
        _static_true(width >= target_width + offset_width, "width must be >= target + offset.")
        _static_true(height >= target_height + offset_height,
                     "height must be >= target + offset.")
        cropped = _slice(image, array_ops.stack([0, offset_height, offset_width, 0]),
                         array_ops.stack([-1, target_height, target_width, -1]))
        return _unbatched(cropped, is_batch, scope)


def pad_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
    """Puts the image at (offset_height, offset_width) of a target_height x target_width
    canvas of zeros (a Pad: its gradient slices)."""
    with name_scope(None, "pad_to_bounding_box", [image]) as scope:
        image, is_batch = _batched(image)
        _, height, width, _ = _dims(image, 4)
        after_w = target_width - offset_width - width
        after_h = target_height - offset_height - height
        _static_true(offset_height >= 0, "offset_height must be >= 0")
        _static_true(offset_width >= 0, "offset_width must be >= 0")
        _static_true(after_w >= 0, "width must be <= target - offset")
        _static_true(after_h >= 0, "height must be <= target - offset")
        paddings = array_ops.reshape(array_ops.stack(
            [0, 0, offset_height, after_h, offset_width, after_w, 0, 0]), [4, 2])
        padded = pad(image, paddings)
        padded.set_shape([None if isinstance(d, Tensor) else d for d in (
            image.get_shape()[0].value, target_height, target_width, image.get_shape()[3].value)])
        return _unbatched(padded, is_batch, scope)


def resize_image_with_crop_or_pad(image, target_height, target_width):
    """Centrally crops and/or pads the image to target_height x target_width."""
    with name_scope(None, "resize_image_with_crop_or_pad", [image]) as scope:
        image, is_batch = _batched(image)
        _static_true(target_width > 0, "target_width must be > 0.")
        _static_true(target_height > 0, "target_height must be > 0.")
        _, height, width, _ = _dims(image, 4)
        width_diff = target_width - width
        height_diff = target_height - height
        cropped = crop_to_bounding_box(
            image, _max(-height_diff // 2, 0), _max(-width_diff // 2, 0),
            _min(target_height, height), _min(target_width, width))
        resized = pad_to_bounding_box(cropped, _max(height_diff // 2, 0),
                                      _max(width_diff // 2, 0), target_height, target_width)
        return _unbatched(resized, is_batch, scope)


resize_with_crop_or_pad = resize_image_with_crop_or_pad


def central_crop(image, central_fraction):
    """The central `central_fraction` of the image's height and width (static shapes)."""
    with name_scope(None, "central_crop", [image]) as scope:
        image = _image(image)
        if central_fraction <= 0.0 or central_fraction > 1.0:
            raise ValueError("central_fraction must be within (0, 1]")
        if central_fraction == 1.0:
            return image
        rank = image.get_shape().ndims
        if rank not in (3, 4):
            raise ValueError(f"`image` should either be a Tensor with rank = 3 or rank = 4. "
                             f"Had rank = {rank}.")
        img_h, img_w = image.get_shape().as_list()[rank - 3:rank - 1]
        if img_h is None or img_w is None:
            raise ValueError("central_crop needs the image's height and width known.")
        h0 = int((img_h - img_h * central_fraction) / 2)
        w0 = int((img_w - img_w * central_fraction) / 2)
        begin, size = [h0, w0, 0], [img_h - 2 * h0, img_w - 2 * w0, -1]
        if rank == 4:
            begin, size = [0] + begin, [-1] + size
        return _slice(image, begin, size, name=scope)


# -- pixel values -------------------------------------------------------------------------

def convert_image_dtype(image, dtype, saturate=False, name=None):
    """Converts between integer images (0 .. dtype.max) and float images (0 .. 1), scaling
    the values; float -> int truncates after adding half a step (TF's rounding)."""
    image = convert_to_tensor(image, name="image")
    dtype = _dtypes.as_dtype(dtype).base_dtype
    src = image.dtype.base_dtype
    if not (dtype.is_floating or dtype.is_integer):
        raise AttributeError("dtype must be either floating point or integer")
    if dtype == src:
        return identity(image, name=name)
    with name_scope(name, "convert_image", [image]) as scope:
        to = math_ops.saturate_cast if saturate else math_ops.cast
        if src.is_integer and dtype.is_integer:
            if src.max > dtype.max:
                scaled = math_ops.floordiv(image, (src.max + 1) // (dtype.max + 1))
                return to(scaled, dtype, name=scope)
            return math_ops.multiply(to(image, dtype), (dtype.max + 1) // (src.max + 1),
                                     name=scope)
        if src.is_floating and dtype.is_floating:
            return math_ops.cast(image, dtype, name=scope)
        if src.is_integer:
            return math_ops.multiply(math_ops.cast(image, dtype), 1. / src.max, name=scope)
        scaled = math_ops.multiply(image, dtype.max + 0.5)
        return to(scaled, dtype, name=scope)


def per_image_standardization(image):
    """(x - mean) / max(stddev, 1/sqrt(num_pixels)) per image (float32 output)."""
    with name_scope(None, "per_image_standardization", [image]) as scope:
        image = _image(image)
        num_pixels = reduction_ops.reduce_prod(array_ops.shape(image)[-3:])
        image = math_ops.cast(image, _dtypes.float32)
        mean = reduction_ops.reduce_mean(image, axis=[-1, -2, -3], keepdims=True)
        variance = reduction_ops.reduce_mean(basic_math_ops.square(image), axis=[-1, -2, -3],
                                             keepdims=True) - basic_math_ops.square(mean)
        variance = basic_math_ops.maximum(variance, 0.0)
        stddev = basic_math_ops.sqrt(variance)
        min_stddev = basic_math_ops.rsqrt(math_ops.cast(num_pixels, _dtypes.float32))
        scale = basic_math_ops.maximum(stddev, min_stddev)
        return math_ops.div(math_ops.subtract(image, mean), scale, name=scope)


def adjust_gamma(image, gamma=1, gain=1):
    """gain * image ** gamma on the float image, converted back to the image's dtype."""
    with name_scope(None, "adjust_gamma", [image, gamma, gain]) as scope:
        image = convert_to_tensor(image, name="image")
        orig = image.dtype.base_dtype
        flt = image if orig in (_dtypes.float16, _dtypes.float32) else \
            convert_image_dtype(image, _dtypes.float32)
        _static_true(gamma >= 0, "Gamma should be a non-negative real number.")
        gamma = convert_to_tensor(gamma, dtype=flt.dtype.base_dtype, name="gamma")
        gain = convert_to_tensor(gain, dtype=flt.dtype.base_dtype, name="gain")
        adjusted = gain * math_ops.pow(flt, gamma)
        return convert_image_dtype(adjusted, orig, saturate=True, name=scope)


def total_variation(images, name=None):
    """The sum of the absolute differences of neighbouring pixels (one number per image of a
    batch)."""
    with name_scope(name, "total_variation", [images]) as scope:
        images = convert_to_tensor(images, name="images")
        ndims = images.get_shape().ndims
        if ndims == 3:
            dif1 = images[1:, :, :] - images[:-1, :, :]
            dif2 = images[:, 1:, :] - images[:, :-1, :]
            axis = None
        elif ndims == 4:
            dif1 = images[:, 1:, :, :] - images[:, :-1, :, :]
            dif2 = images[:, :, 1:, :] - images[:, :, :-1, :]
            axis = [1, 2, 3]
        else:
            raise ValueError("'images' must be either 3 or 4-dimensional.")
        return math_ops.add(reduction_ops.reduce_sum(basic_math_ops.abs(dif1), axis=axis),
                            reduction_ops.reduce_sum(basic_math_ops.abs(dif2), axis=axis),
                            name=scope)


def image_gradients(image):
    """(dy, dx): the differences with the pixel below and to the right (0 on the last
    row / column), each shaped like the 4-D `image`."""
    image = convert_to_tensor(image, name="image")
    if image.get_shape().ndims != 4:
        raise ValueError(f"image_gradients expects a 4D tensor [batch_size, h, w, d], not "
                         f"{image.get_shape()}.")
    with name_scope(None, "image_gradients", [image]):
        image_shape = array_ops.shape(image)
        batch, height, width, depth = array_ops.unstack(image_shape, 4)
        dy = image[:, 1:, :, :] - image[:, :-1, :, :]
        dx = image[:, :, 1:, :] - image[:, :, :-1, :]
        zeros = array_ops.zeros(array_ops.stack([batch, 1, width, depth]), image.dtype)
        dy = array_ops.reshape(concat([dy, zeros], 1), image_shape)
        zeros = array_ops.zeros(array_ops.stack([batch, height, 1, depth]), image.dtype)
        dx = array_ops.reshape(concat([dx, zeros], 2), image_shape)
        dy.set_shape(image.get_shape())
        dx.set_shape(image.get_shape())
        return dy, dx


def _check_pair(a, b):
    sa, sb = a.get_shape(), b.get_shape()
    if sa.ndims is not None and sa.ndims < 3 or sb.ndims is not None and sb.ndims < 3:
        raise ValueError(f"Shape must be at least rank 3: {sa} and {sb}")
    if sa.ndims is not None and sb.ndims is not None:
        if not sa[-3:].is_compatible_with(sb[-3:]):
            raise ValueError(f"Shapes {sa} and {sb} are incompatible (the last 3 dimensions "
                             "of the two images must agree).")


def psnr(a, b, max_val, name=None):
    """Peak signal-to-noise ratio, in dB, of each pair of images: 20 log10(max_val) -
    10 log10(mse)."""
    with name_scope(name, "PSNR", [a, b]):
        a, b = convert_to_tensor(a, name="a"), convert_to_tensor(b, name="b")
        _check_pair(a, b)
        max_val = math_ops.cast(max_val, a.dtype.base_dtype)
        max_val = convert_image_dtype(max_val, _dtypes.float32)
        a = convert_image_dtype(a, _dtypes.float32)
        b = convert_image_dtype(b, _dtypes.float32)
        mse = reduction_ops.reduce_mean(basic_math_ops.squared_difference(a, b), [-3, -2, -1])
        return math_ops.subtract(
            20 * basic_math_ops.log(max_val) / basic_math_ops.log(10.0),
            np.float32(10 / np.log(10)) * basic_math_ops.log(mse), name="psnr")


def _gaussian_kernel(size, sigma, channels):
    coords = np.arange(size, dtype=np.float32) - np.float32((size - 1) / 2.0)
    g = -np.square(coords) / np.float32(2.0 * sigma ** 2)
    g = g[:, None] + g[None, :]
    g = np.exp(g - g.max())
    g = (g / g.sum()).astype(np.float32)
    return np.tile(g[:, :, None, None], [1, 1, channels, 1])


def ssim(img1, img2, max_val, filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03):
    """Structural similarity of each pair of images (TF's 11x11 Gaussian window, VALID
    filtering, mean over the window positions and channels). Static channel count."""
    with name_scope(None, "SSIM", [img1, img2]):
        img1, img2 = convert_to_tensor(img1, name="img1"), convert_to_tensor(img2, name="img2")
        _check_pair(img1, img2)
        max_val = convert_image_dtype(math_ops.cast(max_val, img1.dtype.base_dtype),
                                      _dtypes.float32)
        img1 = convert_image_dtype(img1, _dtypes.float32)
        img2 = convert_image_dtype(img2, _dtypes.float32)
        ndims = img1.get_shape().ndims
        if ndims == 3:
            img1, img2 = array_ops.expand_dims(img1, 0), array_ops.expand_dims(img2, 0)
        channels = img1.get_shape().as_list()[-1]
        height, width = img1.get_shape().as_list()[1:3]
        if None not in (height, width) and (height < filter_size or width < filter_size):
            raise ValueError(f"The images ({height}x{width}) must be at least "
                             f"{filter_size}x{filter_size} (the filter size).")
        kernel = convert_to_tensor(_gaussian_kernel(filter_size, filter_sigma, channels))

        def blur(x):
            return depthwise_conv2d(x, kernel, [1, 1, 1, 1], "VALID")

        c1 = (k1 * max_val) ** 2
        c2 = (k2 * max_val) ** 2
        mean0, mean1 = blur(img1), blur(img2)
        num0 = mean0 * mean1 * 2.0
        den0 = basic_math_ops.square(mean0) + basic_math_ops.square(mean1)
        luminance = (num0 + c1) / (den0 + c1)
        num1 = blur(img1 * img2) * 2.0
        den1 = blur(basic_math_ops.square(img1) + basic_math_ops.square(img2))
        cs = (num1 - num0 + c2) / (den1 - den0 + c2)
        value = reduction_ops.reduce_mean(luminance * cs, [-3, -2, -1])
        return value[0] if ndims == 3 else value


def sobel_edges(image):
    """The Sobel edge maps of a 4-D batch: [batch, h, w, depth, 2] holding (dy, dx), with the
    image reflected at its borders."""
    with name_scope(None, "sobel_edges", [image]):
        image = convert_to_tensor(image, name="image")
        static_shape = image.get_shape()
        image_shape = array_ops.shape(image)
        kernels = np.array([[[-1, -2, -1], [0, 0, 0], [1, 2, 1]],
                            [[-1, 0, 1], [-2, 0, 2], [-1, 0, 1]]])
        kernels = np.expand_dims(np.transpose(kernels, (1, 2, 0)), -2)
        kernels = convert_to_tensor(kernels.astype(image.dtype.as_numpy_dtype))
        kernels = tile(kernels, array_ops.stack([1, 1, image_shape[-1], 1]), name="sobel_filters")
        padded = pad(image, [[0, 0], [1, 1], [1, 1], [0, 0]], mode="REFLECT")
        output = depthwise_conv2d(padded, kernels, [1, 1, 1, 1], "VALID")
        output = array_ops.reshape(output, concat([image_shape, [2]], 0))
        output.set_shape(static_shape.concatenate([2]))
        return output


# -- boxes ------------------------------------------------------------------------------

def _iou(box, boxes):
    ymin, xmin = np.minimum(box[0], box[2]), np.minimum(box[1], box[3])
    ymax, xmax = np.maximum(box[0], box[2]), np.maximum(box[1], box[3])
    ymins, xmins = np.minimum(boxes[:, 0], boxes[:, 2]), np.minimum(boxes[:, 1], boxes[:, 3])
    ymaxs, xmaxs = np.maximum(boxes[:, 0], boxes[:, 2]), np.maximum(boxes[:, 1], boxes[:, 3])
    area = (ymax - ymin) * (xmax - xmin)
    areas = (ymaxs - ymins) * (xmaxs - xmins)
    inter = (np.maximum(np.minimum(ymax, ymaxs) - np.maximum(ymin, ymins), 0) *
             np.maximum(np.minimum(xmax, xmaxs) - np.maximum(xmin, xmins), 0))
    with np.errstate(divide="ignore", invalid="ignore"):
        iou = inter / (area + areas - inter)
    return np.where((area <= 0) | (areas <= 0), 0.0, iou)


class NonMaxSuppressionV3(OpDef):
    """Greedy non-max suppression: the indices of the best-scoring boxes, skipping any box
    whose IoU with a box already selected exceeds iou_threshold."""
    differentiable = False

    def shape(op):
        return TensorShape([None])

    def kernel(boxes, scores, max_output_size, iou_threshold, score_threshold, T=None,
               T_threshold=None):
        if boxes.ndim != 2 or boxes.shape[1] != 4:
            raise errors.InvalidArgumentError(None, None, f"boxes must be 2-D with 4 columns"
                                              f", got shape {list(boxes.shape)}")
        if scores.shape != (boxes.shape[0],):
            raise errors.InvalidArgumentError(None, None, "scores has incompatible shape")
        if not 0 <= float(iou_threshold) <= 1:
            raise errors.InvalidArgumentError(None, None, "iou_threshold must be in [0, 1]")
        boxes = boxes.astype(np.float64)
        order = [i for i in np.argsort(-scores.astype(np.float64), kind="stable")
                 if scores[i] > score_threshold]
        selected = []
        for i in order:
            if len(selected) >= int(max_output_size):
                break
            if not selected or (_iou(boxes[i], boxes[selected]) <= iou_threshold).all():
                selected.append(i)
        return np.array(selected, dtype=np.int32)


def non_max_suppression(boxes, scores, max_output_size, iou_threshold=0.5,
                        score_threshold=float("-inf"), name=None):
    """Indices (int32) of at most max_output_size boxes [y1, x1, y2, x2], best score first,
    none overlapping a better one by IoU > iou_threshold."""
    with name_scope(name, "non_max_suppression", [boxes, scores]) as scope:
        boxes = convert_to_tensor(boxes, name="boxes")
        scores = convert_to_tensor(scores, name="scores")
        n = convert_to_tensor(max_output_size, dtype=_dtypes.int32, name="max_output_size")
        iou = convert_to_tensor(iou_threshold, dtype=_dtypes.float32, name="iou_threshold")
        st = convert_to_tensor(score_threshold, dtype=_dtypes.float32, name="score_threshold")
        return apply_op("NonMaxSuppressionV3", [boxes, scores, n, iou, st],
                        {"T": boxes.dtype.base_dtype, "T_threshold": _dtypes.float32},
                        name=scope, output_dtypes=[_dtypes.int32])


_BOX_COLORS = [[1, 1, 0, 1], [0, 0, 1, 1], [1, 0, 0, 1], [0, 1, 0, 1], [0.5, 0, 0.5, 1],
               [0.5, 0.5, 0, 1], [0.5, 0, 0, 1], [0, 0, 0.5, 1], [0, 1, 1, 1], [1, 0, 1, 1]]


class DrawBoundingBoxes(OpDef):
    """Draws the outline of each box [ymin, xmin, ymax, xmax] (fractions of the image) in
    TF's colour table."""
    differentiable = False

    def shape(op):
        return op.inputs[0].get_shape()

    def kernel(images, boxes, T=None):
        if images.ndim != 4:
            raise errors.InvalidArgumentError(None, None, f"The rank of the images should be "
                                              f"4, got shape {list(images.shape)}")
        batch, height, width, depth = images.shape
        canvas = images.copy()
        colors = np.array(_BOX_COLORS, dtype=np.float64)
        if depth == 1:
            colors[:, 0] = 1
        for b in range(batch):
            for n, box in enumerate(boxes[b].astype(np.float32)):
                color = colors[n % len(colors)]
                top, bottom = (int(box[i] * np.float32(height - 1)) for i in (0, 2))
                left, right = (int(box[i] * np.float32(width - 1)) for i in (1, 3))
                if top > bottom or left > right:
                    continue
                if top >= height or bottom < 0 or left >= width or right < 0:
                    continue
                c0, c1 = max(left, 0), min(right, width - 1)
                r0, r1 = max(top, 0), min(bottom, height - 1)
                paint = color[:depth] if depth <= 4 else np.resize(color, depth)
                if top >= 0:
                    canvas[b, top, c0:c1 + 1] = paint
                if bottom < height:
                    canvas[b, bottom, c0:c1 + 1] = paint
                if left >= 0:
                    canvas[b, r0:r1 + 1, left] = paint
                if right < width:
                    canvas[b, r0:r1 + 1, right] = paint
        return canvas


def draw_bounding_boxes(images, boxes, name=None):
    """Draws boxes [batch, num_boxes, 4] on a float batch of images [batch, h, w, depth]."""
    images = convert_to_tensor(images, name="images")
    boxes = convert_to_tensor(boxes, dtype=_dtypes.float32, name="boxes")
    if images.get_shape().ndims not in (None, 4):
        raise ValueError(f"Shape must be rank 4 but is rank {images.get_shape().ndims}")
    return apply_op("DrawBoundingBoxes", [images, boxes], {"T": images.dtype.base_dtype},
                    name=name or "DrawBoundingBoxes")

