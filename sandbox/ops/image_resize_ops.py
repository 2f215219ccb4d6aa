"""Image resizing -- mirrors TensorFlow 1.15's resize ops (python/ops/image_ops_impl.py:
resize_images, resize_image_with_pad, crop_and_resize; core/kernels/resize_bilinear_op.cc,
resize_nearest_neighbor_op.cc, resize_bicubic_op.cc, resize_area_op.cc,
crop_and_resize_op.cc).

Every resize kernel maps each output row (and column) to input rows (columns): the *legacy*
mapping of TF 1.x is `in = out * scale` with `scale = in_size / out_size` (or
`(in_size - 1) / (out_size - 1)` with align_corners=True); half_pixel_centers=True uses
`in = (out + 0.5) * scale - 0.5`, TF 2's choice. tf.image.resize_images (TF 1.15) uses the
legacy kernels, as here.

All four methods are separable, linear maps of the image: each is "a matrix along the rows,
then a matrix along the columns". Bicubic and area are computed that way; bilinear repeats
TF's float32 lerps so its numbers are TF's to the bit; their gradients (ResizeBilinearGrad,
ResizeNearestNeighborGrad, ResizeBicubicGrad) are the transposed matrices. ResizeArea has no
gradient, as in TF.
"""
import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.graph import name_scope
from ..framework.op_def import OpDef, apply_op
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tensor_util import constant_value_as_shape
from . import array_ops
from .image_ops import pad_to_bounding_box

__all__ = []   # reached as tf.image.* (sandbox/api/image.py)


class ResizeMethod:
    """The methods of tf.image.resize_images (TF 1.x's ResizeMethod)."""
    BILINEAR = 0
    NEAREST_NEIGHBOR = 1
    BICUBIC = 2
    AREA = 3


# -- the index maps ------------------------------------------------------------------------

def _scale(in_size, out_size, align_corners):
    if align_corners and out_size > 1:
        return np.float32((in_size - 1) / np.float32(out_size - 1))
    return np.float32(in_size / np.float32(out_size))


def _source(out_size, scale, half_pixel):
    x = np.arange(out_size, dtype=np.float32)
    return (x + np.float32(0.5)) * scale - np.float32(0.5) if half_pixel else x * scale


def _linear_weights(in_size, out_size, align_corners, half_pixel):
    """Bilinear: for each output index the lower and upper input index and the lerp."""
    src = _source(out_size, _scale(in_size, out_size, align_corners), half_pixel)
    floor = np.floor(src)
    lower = np.maximum(floor.astype(np.int64), 0)
    upper = np.minimum(np.ceil(src).astype(np.int64), in_size - 1)
    return lower, upper, (src - floor).astype(np.float32)


def _linear_matrix(in_size, out_size, align_corners, half_pixel):
    lower, upper, lerp = _linear_weights(in_size, out_size, align_corners, half_pixel)
    m = np.zeros((out_size, in_size))
    rows = np.arange(out_size)
    np.add.at(m, (rows, lower), 1 - lerp.astype(np.float64))
    np.add.at(m, (rows, upper), lerp.astype(np.float64))
    return m


def _nearest_index(in_size, out_size, align_corners, half_pixel):
    scale = _scale(in_size, out_size, align_corners)
    x = np.arange(out_size, dtype=np.float32)
    src = (x + np.float32(0.5)) * scale if half_pixel else x * scale
    index = (np.floor(src + np.float32(0.5)) if align_corners else np.floor(src)).astype(np.int64)
    index = np.minimum(index, in_size - 1)
    return np.maximum(index, 0) if half_pixel else index


def _nearest_matrix(in_size, out_size, align_corners, half_pixel):
    m = np.zeros((out_size, in_size))
    m[np.arange(out_size), _nearest_index(in_size, out_size, align_corners, half_pixel)] = 1
    return m


_TABLE_SIZE = 1024
_TABLES = {}


def _cubic_table(a):
    """TF's quantized Keys cubic-convolution coefficients (1025 steps of 1/1024)."""
    if a not in _TABLES:
        x = np.arange(_TABLE_SIZE + 1, dtype=np.float32) / np.float32(_TABLE_SIZE)
        a32 = np.float32(a)
        inner = ((a32 + 2) * x - (a32 + 3)) * x * x + 1
        x1 = x + 1
        outer = ((a32 * x1 - 5 * a32) * x1 + 8 * a32) * x1 - 4 * a32
        _TABLES[a] = np.stack([inner, outer], axis=1).astype(np.float32)
    return _TABLES[a]


def _cubic_matrix(in_size, out_size, align_corners, half_pixel):
    table = _cubic_table(-0.5 if half_pixel else -0.75)
    src = _source(out_size, _scale(in_size, out_size, align_corners), half_pixel)
    m = np.zeros((out_size, in_size))
    for i, s in enumerate(src):
        loc = int(np.floor(s))
        offset = int(np.rint(np.float32(s - loc) * _TABLE_SIZE))
        w = np.array([table[offset, 1], table[offset, 0], table[_TABLE_SIZE - offset, 0],
                      table[_TABLE_SIZE - offset, 1]], dtype=np.float64)
        idx = np.arange(loc - 1, loc + 3)
        if half_pixel:     # Keys: out-of-range taps are dropped and the rest renormalized
            inside = (idx >= 0) & (idx < in_size)
            w = np.where(inside, w, 0) / w[inside].sum()
        np.add.at(m[i], np.clip(idx, 0, in_size - 1), w)
    return m


def _area_matrix(in_size, out_size, align_corners):
    """ResizeArea: output i averages input [i * scale, (i + 1) * scale), by overlap."""
    scale = float(_scale(in_size, out_size, align_corners))
    m = np.zeros((out_size, in_size))
    for i in range(out_size):
        lo, hi = np.float32(i * scale), np.float32((i + 1) * scale)
        for v in range(int(np.floor(lo)), int(np.ceil(hi))):
            overlap = min(v + 1, hi) - max(v, lo)
            m[i, min(v, in_size - 1)] += overlap
    return m / scale


def _apply(matrix_y, matrix_x, images):
    return np.einsum("yi,xj,bijc->byxc", matrix_y, matrix_x, images.astype(np.float64))


def _check_images(images, size, op_type):
    if images.ndim != 4:
        raise errors.InvalidArgumentError(None, None, f"input must be 4-dimensional"
                                          f"{list(images.shape)}")
    size = np.asarray(size)
    if size.shape != (2,):
        raise errors.InvalidArgumentError(None, None, f"shape_t must be 1-dimensional with 2 "
                                          f"elements{list(size.shape)}")
    out_h, out_w = (int(v) for v in size)
    if out_h <= 0 or out_w <= 0:
        raise errors.InvalidArgumentError(None, None, "output dimensions must be positive")
    if images.shape[1] == 0 or images.shape[2] == 0:
        raise errors.InvalidArgumentError(None, None, f"{op_type}: input image must be of "
                                          "non-zero size")
    return out_h, out_w


def _rank_4(shape):
    if shape.ndims is not None and shape.ndims != 4:
        raise ValueError(f"Shape must be rank 4 but is rank {shape.ndims}")
    return shape.with_rank(4)


def _resize_shape(op):
    images = _rank_4(op.inputs[0].get_shape())
    size = constant_value_as_shape(op.inputs[1])
    size = size.as_list() if size.ndims == 2 else [None, None]
    return TensorShape([images[0], size[0], size[1], images[3]])


def _grad_shape(op):
    return op.inputs[1].get_shape()


# -- the kernels ---------------------------------------------------------------------------

class _Resize(OpDef):
    abstract = True
    shape = _resize_shape


class ResizeBilinear(_Resize):
    """Bilinear interpolation of the four nearest input pixels (output float32)."""

    def kernel(images, size, align_corners=False, half_pixel_centers=False, T=None):
        out_h, out_w = _check_images(images, size, "ResizeBilinear")
        x = images.astype(np.float32)
        yl, yu, ylerp = _linear_weights(x.shape[1], out_h, align_corners, half_pixel_centers)
        xl, xu, xlerp = _linear_weights(x.shape[2], out_w, align_corners, half_pixel_centers)
        top, bottom = x[:, yl], x[:, yu]
        xlerp = xlerp[None, None, :, None]
        top = top[:, :, xl] + (top[:, :, xu] - top[:, :, xl]) * xlerp
        bottom = bottom[:, :, xl] + (bottom[:, :, xu] - bottom[:, :, xl]) * xlerp
        return (top + (bottom - top) * ylerp[None, :, None, None]).astype(np.float32)

    def gradient(op, grad):
        return [apply_op("ResizeBilinearGrad", [grad, op.inputs[0]],
                         {"T": op.inputs[0].dtype.base_dtype, **_flags(op)},
                         name="ResizeBilinearGrad",
                         output_dtypes=[op.inputs[0].dtype.base_dtype]), None]


def _flags(op):
    return {"align_corners": op.get_attr("align_corners"),
            "half_pixel_centers": op.get_attr("half_pixel_centers")}


def _adjoint(grads, in_h, in_w, matrix, align_corners, half_pixel_centers):
    my = matrix(in_h, grads.shape[1], align_corners, half_pixel_centers)
    mx = matrix(in_w, grads.shape[2], align_corners, half_pixel_centers)
    return np.einsum("yi,xj,byxc->bijc", my, mx, grads.astype(np.float64))


class ResizeBilinearGrad(OpDef):
    """The gradient of ResizeBilinear with respect to its image."""
    shape = _grad_shape
    differentiable = False

    def kernel(grads, original_image, align_corners=False, half_pixel_centers=False, T=None):
        _, h, w, _ = original_image.shape
        return _adjoint(grads, h, w, _linear_matrix, align_corners,
                        half_pixel_centers).astype(original_image.dtype)


class ResizeNearestNeighbor(_Resize):
    """Each output pixel copies its nearest input pixel (keeps the dtype)."""

    def kernel(images, size, align_corners=False, half_pixel_centers=False, T=None):
        out_h, out_w = _check_images(images, size, "ResizeNearestNeighbor")
        yi = _nearest_index(images.shape[1], out_h, align_corners, half_pixel_centers)
        xi = _nearest_index(images.shape[2], out_w, align_corners, half_pixel_centers)
        return images[:, yi][:, :, xi]

    def gradient(op, grad):
        size = array_ops.shape(op.inputs[0])[1:3]
        return [apply_op("ResizeNearestNeighborGrad", [grad, size],
                         {"T": grad.dtype.base_dtype, **_flags(op)},
                         name="ResizeNearestNeighborGrad"), None]


class ResizeNearestNeighborGrad(OpDef):
    """The gradient of ResizeNearestNeighbor: each input pixel sums the gradients of the
    output pixels that copied it."""
    differentiable = False

    def shape(op):
        grads = _rank_4(op.inputs[0].get_shape())
        size = constant_value_as_shape(op.inputs[1])
        size = size.as_list() if size.ndims == 2 else [None, None]
        return TensorShape([grads[0], size[0], size[1], grads[3]])

    def kernel(grads, size, align_corners=False, half_pixel_centers=False, T=None):
        h, w = (int(v) for v in size)
        return _adjoint(grads, h, w, _nearest_matrix, align_corners,
                        half_pixel_centers).astype(grads.dtype)


class ResizeBicubic(_Resize):
    """Cubic convolution of the 4x4 nearest input pixels (TF's quantized coefficient table;
    a = -0.75 for the legacy kernel, Keys' -0.5 with half_pixel_centers). Output float32."""

    def kernel(images, size, align_corners=False, half_pixel_centers=False, T=None):
        out_h, out_w = _check_images(images, size, "ResizeBicubic")
        my = _cubic_matrix(images.shape[1], out_h, align_corners, half_pixel_centers)
        mx = _cubic_matrix(images.shape[2], out_w, align_corners, half_pixel_centers)
        return _apply(my, mx, images).astype(np.float32)

    def gradient(op, grad):
        return [apply_op("ResizeBicubicGrad", [grad, op.inputs[0]],
                         {"T": op.inputs[0].dtype.base_dtype, **_flags(op)},
                         name="ResizeBicubicGrad",
                         output_dtypes=[op.inputs[0].dtype.base_dtype]), None]


class ResizeBicubicGrad(OpDef):
    """The gradient of ResizeBicubic with respect to its image."""
    shape = _grad_shape
    differentiable = False

    def kernel(grads, original_image, align_corners=False, half_pixel_centers=False, T=None):
        _, h, w, _ = original_image.shape
        return _adjoint(grads, h, w, _cubic_matrix, align_corners,
                        half_pixel_centers).astype(original_image.dtype)


class ResizeArea(_Resize):
    """Each output pixel averages the input area it covers (output float32; no gradient,
    as in TF)."""

    def kernel(images, size, align_corners=False, T=None):
        out_h, out_w = _check_images(images, size, "ResizeArea")
        my = _area_matrix(images.shape[1], out_h, align_corners)
        mx = _area_matrix(images.shape[2], out_w, align_corners)
        return _apply(my, mx, images).astype(np.float32)


# -- building the ops ---------------------------------------------------------------------

def _resize_op(op_type, images, size, align_corners, half_pixel_centers, name):
    images = convert_to_tensor(images, name="images")
    size = convert_to_tensor(size, dtype=_dtypes.int32, name="size")
    out = _dtypes.as_dtype(_dtypes.float32) if op_type != "ResizeNearestNeighbor" else \
        images.dtype.base_dtype
    attrs = {"T": images.dtype.base_dtype, "align_corners": bool(align_corners)}
    if op_type != "ResizeArea":
        if half_pixel_centers and align_corners:
            raise ValueError("If half_pixel_centers is True, align_corners must be False.")
        attrs["half_pixel_centers"] = bool(half_pixel_centers)
    return apply_op(op_type, [images, size], attrs, name=name or op_type, output_dtypes=[out])


def resize_bilinear(images, size, align_corners=False, name=None, half_pixel_centers=False):
    """tf.image.resize_bilinear: the ResizeBilinear op on a 4-D batch (float32 output)."""
    return _resize_op("ResizeBilinear", images, size, align_corners, half_pixel_centers, name)


def resize_nearest_neighbor(images, size, align_corners=False, name=None,
                            half_pixel_centers=False):
    """tf.image.resize_nearest_neighbor: the ResizeNearestNeighbor op (keeps the dtype)."""
    return _resize_op("ResizeNearestNeighbor", images, size, align_corners, half_pixel_centers,
                      name)


def resize_bicubic(images, size, align_corners=False, name=None, half_pixel_centers=False):
    """tf.image.resize_bicubic: the ResizeBicubic op (float32 output)."""
    return _resize_op("ResizeBicubic", images, size, align_corners, half_pixel_centers, name)


def resize_area(images, size, align_corners=False, name=None):
    """tf.image.resize_area: the ResizeArea op (float32 output)."""
    return _resize_op("ResizeArea", images, size, align_corners, False, name)


_RESIZE_FNS = {ResizeMethod.BILINEAR: resize_bilinear,
               ResizeMethod.NEAREST_NEIGHBOR: resize_nearest_neighbor,
               ResizeMethod.BICUBIC: resize_bicubic, ResizeMethod.AREA: resize_area}


def _as_batch(images, what="images"):
    images = convert_to_tensor(images, name=what)
    ndims = images.get_shape().ndims
    if ndims is None:
        raise ValueError(f"'{what}' contains no shape.")
    if ndims == 3:
        return array_ops.expand_dims(images, 0), False
    if ndims != 4:
        raise ValueError(f"'{what}' must have either 3 or 4 dimensions.")
    return images, True


def resize_images(images, size, method=ResizeMethod.BILINEAR, align_corners=False,
                  preserve_aspect_ratio=False, name=None):
    """Resizes a 3-D image or 4-D batch to `size` = [new_height, new_width] (TF 1.15's
    tf.image.resize_images and tf.image.resize: legacy kernels). Same size: the input itself."""
    if method not in _RESIZE_FNS:
        raise ValueError("Resize method is not implemented.")
    with name_scope(name, "resize", [images, size]):
        images, is_batch = _as_batch(images)
        _, height, width, _ = images.get_shape().as_list()
        try:
            size = convert_to_tensor(size, dtype=_dtypes.int32, name="size")
        except (TypeError, ValueError):
            raise ValueError("'size' must be a 1-D int32 Tensor") from None
        if not size.get_shape().is_compatible_with([2]):
            raise ValueError("'size' must be a 1-D Tensor of 2 elements: new_height, new_width")
        const = constant_value_as_shape(size)
        new_h, new_w = const.as_list() if const.ndims == 2 else (None, None)
        if preserve_aspect_ratio and None in (new_h, new_w, height, width):
            raise ValueError("preserve_aspect_ratio=True needs the image's height and width "
                             "and `size` known when the graph is built (in the sandbox).")
        if preserve_aspect_ratio:
            factor = min(new_h / np.float32(height), new_w / np.float32(width))
            new_h = int(np.rint(np.float32(height * factor)))
            new_w = int(np.rint(np.float32(width * factor)))
            size = convert_to_tensor([new_h, new_w], dtype=_dtypes.int32, name="size")
        if None not in (new_h, new_w, height, width) and (new_h, new_w) == (height, width):
            return images if is_batch else array_ops.squeeze(images, axis=[0])
        out = _RESIZE_FNS[method](images, size, align_corners=align_corners)
        return out if is_batch else array_ops.squeeze(out, axis=[0])


resize = resize_images


def resize_image_with_pad(image, target_height, target_width,
                          method=ResizeMethod.BILINEAR, align_corners=False):
    """Resizes keeping the aspect ratio so the image fits, then pads with zeros to
    target_height x target_width (static shapes)."""
    with name_scope(None, "resize_image_with_pad", [image]):
        image, is_batch = _as_batch(image, "image")
        _, height, width, _ = image.get_shape().as_list()
        if target_width <= 0:
            raise ValueError("target_width must be > 0.")
        if target_height <= 0:
            raise ValueError("target_height must be > 0.")
        if height is None or width is None:
            raise ValueError("resize_image_with_pad needs the image's height and width known.")
        f32 = np.float32
        ratio = max(f32(width) / f32(target_width), f32(height) / f32(target_height))
        rh, rw = f32(height) / ratio, f32(width) / ratio
        pad_h = max(0, int(np.floor((f32(target_height) - rh) / 2)))
        pad_w = max(0, int(np.floor((f32(target_width) - rw) / 2)))
        resized = resize_images(image, [int(np.floor(rh)), int(np.floor(rw))], method,
                                align_corners=align_corners)
        padded = pad_to_bounding_box(resized, pad_h, pad_w, target_height, target_width)
        return padded if is_batch else array_ops.squeeze(padded, axis=[0])



# -- crop_and_resize ------------------------------------------------------------------------

def _crop_samples(box, crop, size):
    """Where each of the `crop` output rows (or columns) of one box samples the image, and
    whether it lies inside it (TF's CropAndResize arithmetic, in float32)."""
    lo, hi = np.float32(box[0]), np.float32(box[1])
    last = np.float32(size - 1)
    if crop > 1:
        scale = (hi - lo) * last / np.float32(crop - 1)
        where = lo * last + np.arange(crop, dtype=np.float32) * scale
    else:
        where = np.full(crop, np.float32(0.5) * (lo + hi) * last, dtype=np.float32)
    return where, (where >= 0) & (where <= last)


def _crop_weights(box, crop, size, method):
    """A [crop, size] matrix of sampling weights for one box along one axis (zero rows
    outside the image) and the mask of rows inside."""
    where, inside = _crop_samples(box, crop, size)
    m = np.zeros((crop, size))
    rows = np.nonzero(inside)[0]
    w = where[rows]
    if method == "bilinear":
        lo = np.floor(w).astype(np.int64)
        hi = np.ceil(w).astype(np.int64)
        lerp = (w - lo).astype(np.float64)
        np.add.at(m, (rows, lo), 1 - lerp)
        np.add.at(m, (rows, hi), lerp)
    else:
        m[rows, np.floor(w + np.float32(0.5)).astype(np.int64)] = 1   # roundf
    return m, inside


def _check_crop_args(image, boxes, box_ind, crop_size):
    if image.ndim != 4:
        raise errors.InvalidArgumentError(None, None, f"input image must be 4-D"
                                          f"{list(image.shape)}")
    if boxes.ndim != 2 or boxes.shape[1] != 4:
        raise errors.InvalidArgumentError(None, None, f"boxes must be 2-D with 4 columns, got "
                                          f"{list(boxes.shape)}")
    if box_ind.shape != (boxes.shape[0],):
        raise errors.InvalidArgumentError(None, None, "box_index has incompatible shape")
    if ((box_ind < 0) | (box_ind >= image.shape[0])).any():
        raise errors.InvalidArgumentError(None, None, f"box_index has values outside [0, "
                                          f"{image.shape[0]})")
    crop_h, crop_w = (int(v) for v in crop_size)
    if crop_h <= 0 or crop_w <= 0:
        raise errors.InvalidArgumentError(None, None, "crop dimensions must be positive")
    return crop_h, crop_w


class CropAndResize(OpDef):
    """For each box [y1, x1, y2, x2] (fractions of image box_ind[i]), a crop_size crop
    sampled bilinearly (or at the nearest pixel); samples outside the image get
    extrapolation_value. Output float32 [num_boxes, crop_h, crop_w, depth]."""

    def shape(op):
        image = _rank_4(op.inputs[0].get_shape())
        boxes = op.inputs[1].get_shape().with_rank(2)
        size = constant_value_as_shape(op.inputs[3])
        size = size.as_list() if size.ndims == 2 else [None, None]
        return TensorShape([boxes[0], size[0], size[1], image[3]])

    def kernel(image, boxes, box_ind, crop_size, method="bilinear", extrapolation_value=0.0,
               T=None):
        crop_h, crop_w = _check_crop_args(image, boxes, box_ind, crop_size)
        _, height, width, depth = image.shape
        out = np.empty((len(boxes), crop_h, crop_w, depth), dtype=np.float32)
        for i, (box, b) in enumerate(zip(boxes.astype(np.float32), box_ind)):
            my, iy = _crop_weights(box[[0, 2]], crop_h, height, method)
            mx, ix = _crop_weights(box[[1, 3]], crop_w, width, method)
            crop = np.einsum("yi,xj,ijc->yxc", my, mx, image[b].astype(np.float64))
            crop[~(iy[:, None] & ix[None, :])] = extrapolation_value
            out[i] = crop
        return out

    def gradient(op, grad):
        image, boxes, box_ind, _ = op.inputs
        d_image = apply_op("CropAndResizeGradImage",
                           [grad, boxes, box_ind, array_ops.shape(image)],
                           {"T": image.dtype.base_dtype, "method": op.get_attr("method")},
                           name="CropAndResizeGradImage",
                           output_dtypes=[image.dtype.base_dtype])
        return [d_image, None, None, None]


class CropAndResizeGradImage(OpDef):
    """The gradient of CropAndResize with respect to the image (the boxes' gradient is not
    computed: the sandbox returns None for it)."""
    differentiable = False

    def shape(op):
        return constant_value_as_shape(op.inputs[3])

    def kernel(grads, boxes, box_ind, image_size, method="bilinear", T=None):
        batch, height, width, depth = (int(v) for v in image_size)
        out = np.zeros((batch, height, width, depth))
        for box, b, g in zip(boxes.astype(np.float32), box_ind, grads.astype(np.float64)):
            my, _ = _crop_weights(box[[0, 2]], g.shape[0], height, method)
            mx, _ = _crop_weights(box[[1, 3]], g.shape[1], width, method)
            out[b] += np.einsum("yi,xj,yxc->ijc", my, mx, g)
        return out.astype(T.as_numpy_dtype if T is not None else np.float32)


def crop_and_resize(image, boxes, box_ind=None, crop_size=None, method="bilinear",
                    extrapolation_value=0, name=None, box_indices=None):
    """Crops boxes [y1, x1, y2, x2] (normalized coordinates) out of the batch `image` and
    resizes each to crop_size: a float32 [num_boxes, crop_h, crop_w, depth]."""
    if box_ind is None:
        box_ind = box_indices
    if box_ind is None or crop_size is None:
        raise TypeError("crop_and_resize() needs box_ind (box_indices) and crop_size")
    if method not in ("bilinear", "nearest"):
        raise ValueError(f"method must be 'bilinear' or 'nearest', got {method!r}")
    with name_scope(name, "CropAndResize", [image, boxes]) as scope:
        image = convert_to_tensor(image, name="image")
        boxes = convert_to_tensor(boxes, dtype=_dtypes.float32, name="boxes")
        box_ind = convert_to_tensor(box_ind, dtype=_dtypes.int32, name="box_ind")
        crop_size = convert_to_tensor(crop_size, dtype=_dtypes.int32, name="crop_size")
        return apply_op("CropAndResize", [image, boxes, box_ind, crop_size],
                        {"T": image.dtype.base_dtype, "method": method,
                         "extrapolation_value": float(extrapolation_value)},
                        name=scope, output_dtypes=[_dtypes.float32])
