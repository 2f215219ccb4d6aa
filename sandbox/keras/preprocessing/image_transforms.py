"""Random transforms of one image -- mirrors keras_preprocessing's
image/affine_transformations.py (TensorFlow 1.15's keras.preprocessing.image re-exports them).

An image's random transform is one affine map -- rotation by theta degrees, shift by (tx, ty)
pixels, shear, zoom (zx, zy) -- about the image's centre, applied to each channel by
scipy.ndimage.affine_transform (as TF does) or, without SciPy (which the sandbox does not
require), by a NumPy warp that gives scipy's numbers for spline orders 0 and 1 (TF's
interpolation_order=1 is the default). Channel and brightness shifts too."""
import numpy as np

from .image_utils import array_to_img, img_to_array

try:
    from PIL import ImageEnhance
except ImportError:
    ImageEnhance = None
try:
    from scipy import ndimage
except ImportError:
    ndimage = None

__all__ = ["apply_affine_transform", "apply_channel_shift", "apply_brightness_shift",
           "random_rotation", "random_shift", "random_shear", "random_zoom",
           "random_channel_shift", "random_brightness", "flip_axis",
           "transform_matrix_offset_center"]


def flip_axis(x, axis):
    return np.flip(np.asarray(x), axis)


def transform_matrix_offset_center(matrix, x, y):
    """`matrix` about the centre of an x-by-y image instead of about pixel (0, 0)."""
    o_x, o_y = float(x) / 2 - 0.5, float(y) / 2 - 0.5
    offset = np.array([[1, 0, o_x], [0, 1, o_y], [0, 0, 1]])
    reset = np.array([[1, 0, -o_x], [0, 1, -o_y], [0, 0, 1]])
    return offset @ matrix @ reset


def apply_affine_transform(x, theta=0, tx=0, ty=0, shear=0, zx=1, zy=1, row_axis=1,
                           col_axis=2, channel_axis=0, fill_mode="nearest", cval=0., order=1):
    """One 3-D image moved by rotation (theta degrees), shift (tx rows, ty columns), shear
    (degrees) and zoom (zx, zy; > 1 shows less): the matrix maps each output pixel to the input
    pixel it reads, interpolated with spline `order`; pixels from outside the image are
    filled as fill_mode says ('nearest', 'constant' with cval, 'reflect', 'wrap')."""
    if sorted([row_axis, col_axis, channel_axis]) != [0, 1, 2]:
        raise ValueError("'row_axis', 'col_axis', and 'channel_axis' must be distinct")
    if x.ndim != 3:
        raise ValueError("Input arrays must be multi-channel 2D images.")
    if channel_axis not in (0, 2):
        raise ValueError("Channels are allowed and the first and last dimensions.")
    matrices = []
    if theta != 0:
        t = np.deg2rad(theta)
        matrices.append([[np.cos(t), -np.sin(t), 0], [np.sin(t), np.cos(t), 0], [0, 0, 1]])
    if tx != 0 or ty != 0:
        matrices.append([[1, 0, tx], [0, 1, ty], [0, 0, 1]])
    if shear != 0:
        s = np.deg2rad(shear)
        matrices.append([[1, -np.sin(s), 0], [0, np.cos(s), 0], [0, 0, 1]])
    if zx != 1 or zy != 1:
        matrices.append([[zx, 0, 0], [0, zy, 0], [0, 0, 1]])
    if not matrices:
        return x
    matrix = np.eye(3)
    for m in matrices:
        matrix = matrix @ np.array(m, dtype=np.float64)
    matrix = transform_matrix_offset_center(matrix, x.shape[row_axis], x.shape[col_axis])
    if col_axis > row_axis:         # the matrix is in (row, col); ndimage's axes in order
        matrix[:, [0, 1]] = matrix[:, [1, 0]]
        matrix[[0, 1]] = matrix[[1, 0]]
    if ndimage is not None:
        warp = ndimage.affine_transform
    elif order <= 1:
        warp = _numpy_affine_transform
    else:
        raise ImportError("Image transformations require SciPy. Install SciPy.")
    channels = np.rollaxis(x, channel_axis, 0)
    warped = [warp(c, matrix[:2, :2], matrix[:2, 2], order=order, mode=fill_mode, cval=cval)
              for c in channels]
    return np.rollaxis(np.stack(warped, axis=0), 0, channel_axis + 1)


def _edge_index(i, n, mode):
    """Pixel index i of an axis of n pixels, brought inside as fill_mode says."""
    if mode == "reflect":                     # d c b a | a b c d | d c b a
        i = np.mod(i, 2 * n)
        return np.where(i >= n, 2 * n - 1 - i, i)
    return np.clip(i, 0, n - 1)               # 'nearest'; 'constant' is masked afterwards


def _numpy_affine_transform(channel, matrix, offset, order=1, mode="nearest", cval=0.):
    """scipy.ndimage.affine_transform of one 2-D channel for spline orders 0 and 1, in NumPy
    (the sandbox does not require SciPy): output pixel p reads the input at matrix @ p + offset,
    the nearest pixel (order 0) or the bilinear mix of the four around it (order 1). The
    fill modes give scipy's numbers: 'nearest', 'reflect', 'constant' (cval wherever the point
    falls outside the image) and 'wrap' (scipy's: the coordinates repeat every n - 1 pixels)."""
    if mode not in ("nearest", "reflect", "constant", "wrap"):
        raise ValueError(f"fill_mode {mode!r} is not one of 'nearest', 'reflect', 'constant', "
                         "'wrap'")
    shape = channel.shape
    coords = matrix @ np.indices(shape).reshape(2, -1) + np.asarray(offset, float)[:, None]
    outside = None
    if mode == "constant":
        limits = np.array(shape, dtype=float)[:, None] - 1
        outside = ((coords < -1e-9) | (coords > limits + 1e-9)).any(axis=0)
    elif mode == "wrap":
        periods = np.maximum(np.array(shape, dtype=float)[:, None] - 1, 1)
        coords, mode = np.mod(coords, periods), "nearest"
    if order == 0:
        idx = np.floor(coords + 0.5).astype(np.int64)
        out = channel[_edge_index(idx[0], shape[0], mode),
                      _edge_index(idx[1], shape[1], mode)].astype(np.float64)
    else:
        low = np.floor(coords).astype(np.int64)
        frac = coords - low
        out = np.zeros(coords.shape[1])
        for dr in (0, 1):
            for dc in (0, 1):
                weight = (frac[0] if dr else 1 - frac[0]) * (frac[1] if dc else 1 - frac[1])
                out += weight * channel[_edge_index(low[0] + dr, shape[0], mode),
                                        _edge_index(low[1] + dc, shape[1], mode)]
    if outside is not None:
        out[outside] = cval
    return out.reshape(shape).astype(channel.dtype)


def apply_channel_shift(x, intensity, channel_axis=0):
    """Adds `intensity` to every channel, clipped to the image's own min and max."""
    channels = np.rollaxis(x, channel_axis, 0)
    low, high = np.min(channels), np.max(channels)
    shifted = np.stack([np.clip(c + intensity, low, high) for c in channels], axis=0)
    return np.rollaxis(shifted, 0, channel_axis + 1)


def apply_brightness_shift(x, brightness, scale=True):
    """PIL's ImageEnhance.Brightness(brightness) of the image (values stretched to 0..255
    when scale=True or the image is outside 0..255)."""
    if ImageEnhance is None:
        raise ImportError("Using brightness shifts requires PIL. Install PIL or Pillow.")
    x_min, x_max = np.min(x), np.max(x)
    local_scale = x_min < 0 or x_max > 255
    img = ImageEnhance.Brightness(array_to_img(x, scale=local_scale or scale))
    x = img_to_array(img.enhance(brightness))
    if not scale and local_scale:
        x = x / 255 * (x_max - x_min) + x_min
    return x


def random_rotation(x, rg, row_axis=1, col_axis=2, channel_axis=0, fill_mode="nearest",
                    cval=0., interpolation_order=1):
    """Rotated by a uniform random angle in [-rg, rg] degrees."""
    return apply_affine_transform(x, theta=np.random.uniform(-rg, rg), row_axis=row_axis,
                                  col_axis=col_axis, channel_axis=channel_axis,
                                  fill_mode=fill_mode, cval=cval, order=interpolation_order)


def random_shift(x, wrg, hrg, row_axis=1, col_axis=2, channel_axis=0, fill_mode="nearest",
                 cval=0., interpolation_order=1):
    """Shifted by up to hrg of the height and wrg of the width (fractions)."""
    tx = np.random.uniform(-hrg, hrg) * x.shape[row_axis]
    ty = np.random.uniform(-wrg, wrg) * x.shape[col_axis]
    return apply_affine_transform(x, tx=tx, ty=ty, row_axis=row_axis, col_axis=col_axis,
                                  channel_axis=channel_axis, fill_mode=fill_mode, cval=cval,
                                  order=interpolation_order)


def random_shear(x, intensity, row_axis=1, col_axis=2, channel_axis=0, fill_mode="nearest",
                 cval=0., interpolation_order=1):
    """Sheared by a uniform random angle in [-intensity, intensity] degrees."""
    return apply_affine_transform(x, shear=np.random.uniform(-intensity, intensity),
                                  row_axis=row_axis, col_axis=col_axis,
                                  channel_axis=channel_axis, fill_mode=fill_mode, cval=cval,
                                  order=interpolation_order)


def _random_zooms(zoom_range):
    if zoom_range[0] == 1 and zoom_range[1] == 1:
        return 1, 1
    return np.random.uniform(zoom_range[0], zoom_range[1], 2)


def random_zoom(x, zoom_range, row_axis=1, col_axis=2, channel_axis=0, fill_mode="nearest",
                cval=0., interpolation_order=1):
    """Zoomed by (zx, zy), each uniform in zoom_range = (low, high)."""
    if len(zoom_range) != 2:
        raise ValueError("`zoom_range` should be a tuple or list of two floats. Received: "
                         f"{zoom_range}")
    zx, zy = _random_zooms(zoom_range)
    return apply_affine_transform(x, zx=zx, zy=zy, row_axis=row_axis, col_axis=col_axis,
                                  channel_axis=channel_axis, fill_mode=fill_mode, cval=cval,
                                  order=interpolation_order)


def random_channel_shift(x, intensity_range, channel_axis=0):
    intensity = np.random.uniform(-intensity_range, intensity_range)
    return apply_channel_shift(x, intensity, channel_axis=channel_axis)


def random_brightness(x, brightness_range):
    if len(brightness_range) != 2:
        raise ValueError("`brightness_range should be tuple or list of two floats. Received: "
                         f"{brightness_range}")
    return apply_brightness_shift(x, np.random.uniform(brightness_range[0],
                                                       brightness_range[1]))


# -- batches --------------------------------------------------------------------------------
