"""keras.preprocessing.image -- mirrors TensorFlow 1.15's python/keras/preprocessing/image.py
(keras_preprocessing's image module): images as arrays, and batches of randomly transformed
images for training.

    datagen = ImageDataGenerator(rescale=1 / 255., rotation_range=20, horizontal_flip=True,
                                 featurewise_center=True)
    datagen.fit(x_train)                              # the per-channel mean featurewise_* uses
    model.fit(datagen.flow(x_train, y_train, batch_size=32), epochs=3)

One image is a (rows, cols, channels) array ('channels_last', keras.backend's default). An
image's random transform is one affine map -- rotation by theta degrees, shift by (tx, ty)
pixels, shear, zoom (zx, zy) -- about the image's centre, applied to each channel by
scipy.ndimage.affine_transform (as TF does) or, without SciPy (which the sandbox does not
require), by a NumPy warp that gives scipy's numbers for spline orders 0 and 1 (TF's
interpolation_order=1 is the default); then the flips, then standardize (rescale,
centre, divide by the std). img_to_array / array_to_img / load_img / save_img go through
Pillow, as in TF.
"""
import os
import threading
import warnings

import numpy as np

from .. import backend
from ..utils import Sequence

try:
    from PIL import Image as pil_image
    from PIL import ImageEnhance
except ImportError:           # TF raises its ImportError when these functions are used
    pil_image = ImageEnhance = None
try:
    from scipy import ndimage
except ImportError:
    ndimage = None

__all__ = ["array_to_img", "img_to_array", "load_img", "save_img", "Iterator",
           "NumpyArrayIterator", "ImageDataGenerator", "apply_affine_transform",
           "apply_channel_shift", "apply_brightness_shift", "random_rotation", "random_shift",
           "random_shear", "random_zoom", "random_channel_shift", "random_brightness",
           "flip_axis", "transform_matrix_offset_center"]


def _need_pil(function):
    if pil_image is None:
        raise ImportError(f"Could not import PIL.Image. The use of `{function}` requires PIL.")


# -- images <-> arrays (Pillow) --------------------------------------------------------------

def array_to_img(x, data_format=None, scale=True, dtype=None):
    """A PIL image of a 3-D array: 3 channels RGB, 4 RGBA, 1 L (grayscale); scale=True
    stretches the values to 0..255 first."""
    data_format = data_format or backend.image_data_format()
    _need_pil("array_to_img")
    x = np.asarray(x, dtype=dtype or backend.floatx())
    if x.ndim != 3:
        raise ValueError("Expected image array to have rank 3 (single image). Got array with "
                         f"shape: {x.shape}")
    if data_format not in {"channels_first", "channels_last"}:
        raise ValueError(f"Invalid data_format: {data_format}")
    if data_format == "channels_first":
        x = x.transpose(1, 2, 0)
    if scale:
        x = x - np.min(x)
        x_max = np.max(x)
        if x_max != 0:
            x /= x_max
        x *= 255
    channels = x.shape[2]
    if channels in (3, 4):
        return pil_image.fromarray(x.astype("uint8"), "RGB" if channels == 3 else "RGBA")
    if channels == 1:
        if np.max(x) > 255:                           # a 32-bit grayscale image
            return pil_image.fromarray(x[:, :, 0].astype("int32"), "I")
        return pil_image.fromarray(x[:, :, 0].astype("uint8"), "L")
    raise ValueError(f"Unsupported channel number: {channels}")


def img_to_array(img, data_format=None, dtype=None):
    """A PIL image (or any array-like image) as a float32 3-D array; a grayscale image gets
    a channels axis of 1."""
    data_format = data_format or backend.image_data_format()
    if data_format not in {"channels_first", "channels_last"}:
        raise ValueError(f"Unknown data_format: {data_format}")
    x = np.asarray(img, dtype=dtype or backend.floatx())
    if x.ndim == 3:
        return x.transpose(2, 0, 1) if data_format == "channels_first" else x
    if x.ndim == 2:
        return x[None] if data_format == "channels_first" else x[..., None]
    raise ValueError(f"Unsupported image shape: {x.shape}")


def save_img(path, x, data_format=None, file_format=None, scale=True, **kwargs):
    """Writes the array `x` as an image file (the format from the name or file_format)."""
    img = array_to_img(x, data_format=data_format, scale=scale)
    if img.mode == "RGBA" and file_format in ("jpg", "jpeg"):
        warnings.warn("The JPG format does not support RGBA images, converting to RGB.")
        img = img.convert("RGB")
    img.save(path, format=file_format, **kwargs)


def load_img(path, grayscale=False, color_mode="rgb", target_size=None,
             interpolation="nearest"):
    """The image file at `path` as a PIL image: converted to color_mode ('grayscale', 'rgb',
    'rgba'), resized to target_size=(rows, cols) when given."""
    if grayscale:
        warnings.warn('grayscale is deprecated. Please use color_mode = "grayscale"')
        color_mode = "grayscale"
    _need_pil("load_img")
    with open(os.fspath(path), "rb") as f:
        img = pil_image.open(f)
        img.load()
    modes = {"grayscale": "L", "rgba": "RGBA", "rgb": "RGB"}
    if color_mode not in modes:
        raise ValueError('color_mode must be "grayscale", "rgb", or "rgba"')
    if img.mode != modes[color_mode] and not (color_mode == "grayscale" and
                                              img.mode in ("L", "I;16", "I")):
        img = img.convert(modes[color_mode])
    if target_size is not None and img.size != (target_size[1], target_size[0]):
        methods = {"nearest": pil_image.NEAREST, "bilinear": pil_image.BILINEAR,
                   "bicubic": pil_image.BICUBIC, "hamming": pil_image.HAMMING,
                   "box": pil_image.BOX, "lanczos": pil_image.LANCZOS}
        if interpolation not in methods:
            raise ValueError(f"Invalid interpolation method {interpolation} specified. "
                             f"Supported methods are {', '.join(methods)}")
        img = img.resize((target_size[1], target_size[0]), methods[interpolation])
    return img


# -- transforms of one image -----------------------------------------------------------------

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

class Iterator(Sequence):
    """Batches of the indices 0..n-1 (shuffled each epoch when shuffle): as a Sequence
    (iterator[i], len) and as an endless Python iterator (next(iterator)). Subclasses turn
    the indices of a batch into the batch: _get_batches_of_transformed_samples."""
    white_list_formats = ("png", "jpg", "jpeg", "bmp", "ppm", "tif", "tiff")

    def __init__(self, n, batch_size, shuffle, seed):
        self.n, self.batch_size, self.seed, self.shuffle = n, batch_size, seed, shuffle
        self.batch_index = 0
        self.total_batches_seen = 0
        self.lock = threading.Lock()
        self.index_array = None
        self.index_generator = self._flow_index()

    def _set_index_array(self):
        self.index_array = np.random.permutation(self.n) if self.shuffle else np.arange(self.n)

    def __getitem__(self, idx):
        if idx >= len(self):
            raise ValueError(f"Asked to retrieve element {idx}, but the Sequence has length "
                             f"{len(self)}")
        if self.seed is not None:
            np.random.seed(self.seed + self.total_batches_seen)
        self.total_batches_seen += 1
        if self.index_array is None:
            self._set_index_array()
        return self._get_batches_of_transformed_samples(
            self.index_array[self.batch_size * idx:self.batch_size * (idx + 1)])

    def __len__(self):
        return (self.n + self.batch_size - 1) // self.batch_size

    def on_epoch_end(self):
        self._set_index_array()

    def reset(self):
        self.batch_index = 0

    def _flow_index(self):
        self.reset()
        while True:
            if self.seed is not None:
                np.random.seed(self.seed + self.total_batches_seen)
            if self.batch_index == 0:
                self._set_index_array()
            current = self.batch_index * self.batch_size % self.n if self.n else 0
            self.batch_index = self.batch_index + 1 if self.n > current + self.batch_size else 0
            self.total_batches_seen += 1
            yield self.index_array[current:current + self.batch_size]

    def __iter__(self):
        return self

    def __next__(self):
        return self.next()

    def next(self):
        with self.lock:
            index_array = next(self.index_generator)
        return self._get_batches_of_transformed_samples(index_array)

    def _get_batches_of_transformed_samples(self, index_array):
        raise NotImplementedError


class NumpyArrayIterator(Iterator):
    """Batches (x, y) -- or x alone when y is None, (x, y, sample_weight) with weights -- of
    4-D images, each image transformed and standardized by `image_data_generator`."""

    def __init__(self, x, y, image_data_generator, batch_size=32, shuffle=False,
                 sample_weight=None, seed=None, data_format=None, save_to_dir=None,
                 save_prefix="", save_format="png", subset=None, dtype=None):
        self.dtype = dtype or backend.floatx()
        data_format = data_format or backend.image_data_format()
        if y is not None and len(x) != len(y):
            raise ValueError("`x` (images tensor) and `y` (labels) should have the same "
                             f"length. Found: x.shape = {np.asarray(x).shape}, y.shape = "
                             f"{np.asarray(y).shape}")
        if sample_weight is not None and len(x) != len(sample_weight):
            raise ValueError("`x` (images tensor) and `sample_weight` should have the same "
                             f"length. Found: x.shape = {np.asarray(x).shape}, "
                             f"sample_weight.shape = {np.asarray(sample_weight).shape}")
        if subset is not None:
            if subset not in {"training", "validation"}:
                raise ValueError("Invalid subset name:", subset,
                                 '; expected "training" or "validation".')
            split = int(len(x) * image_data_generator._validation_split)
            keep = slice(None, split) if subset == "validation" else slice(split, None)
            x = x[keep]
            y = None if y is None else y[keep]
        self.x = np.asarray(x, dtype=self.dtype)
        if self.x.ndim != 4:
            raise ValueError("Input data in `NumpyArrayIterator` should have rank 4. You passed "
                             "an array with shape", self.x.shape)
        channels_axis = 3 if data_format == "channels_last" else 1
        if self.x.shape[channels_axis] not in {1, 3, 4}:
            warnings.warn(f'NumpyArrayIterator is set to use the data format convention '
                          f'"{data_format}" (channels on axis {channels_axis}), i.e. expected '
                          f"either 1, 3, or 4 channels on axis {channels_axis}. However, it "
                          f"was passed an array with shape {self.x.shape} "
                          f"({self.x.shape[channels_axis]} channels).")
        self.y = None if y is None else np.asarray(y)
        self.sample_weight = None if sample_weight is None else np.asarray(sample_weight)
        self.image_data_generator = image_data_generator
        self.data_format = data_format
        self.save_to_dir, self.save_prefix = save_to_dir, save_prefix
        self.save_format = save_format
        super().__init__(self.x.shape[0], batch_size, shuffle, seed)

    def _get_batches_of_transformed_samples(self, index_array):
        generator = self.image_data_generator
        batch_x = np.zeros((len(index_array),) + self.x.shape[1:], dtype=self.dtype)
        for i, j in enumerate(index_array):
            params = generator.get_random_transform(self.x[j].shape)
            batch_x[i] = generator.standardize(generator.apply_transform(
                self.x[j].astype(self.dtype), params))
        if self.save_to_dir:
            for i, j in enumerate(index_array):
                name = (f"{self.save_prefix}_{j}_{np.random.randint(1e4)}."
                        f"{self.save_format}")
                array_to_img(batch_x[i], self.data_format, scale=True).save(
                    os.path.join(self.save_to_dir, name))
        if self.y is None:
            return batch_x
        if self.sample_weight is None:
            return batch_x, self.y[index_array]
        return batch_x, self.y[index_array], self.sample_weight[index_array]


class ImageDataGenerator:
    """Random transforms (rotation_range degrees, width/height_shift_range fractions or
    pixels, shear_range degrees, zoom_range, channel_shift_range, brightness_range, flips)
    and standardization (rescale, sample- or featurewise centre and std, which fit() learns
    from data) of image batches: flow(x, y) makes the batches."""

    def __init__(self, featurewise_center=False, samplewise_center=False,
                 featurewise_std_normalization=False, samplewise_std_normalization=False,
                 zca_whitening=False, zca_epsilon=1e-6, rotation_range=0,
                 width_shift_range=0., height_shift_range=0., brightness_range=None,
                 shear_range=0., zoom_range=0., channel_shift_range=0., fill_mode="nearest",
                 cval=0., horizontal_flip=False, vertical_flip=False, rescale=None,
                 preprocessing_function=None, data_format=None, validation_split=0.0,
                 interpolation_order=1, dtype=None):
        data_format = data_format or backend.image_data_format()
        self.featurewise_center = featurewise_center
        self.samplewise_center = samplewise_center
        self.featurewise_std_normalization = featurewise_std_normalization
        self.samplewise_std_normalization = samplewise_std_normalization
        self.zca_whitening, self.zca_epsilon = zca_whitening, zca_epsilon
        self.rotation_range = rotation_range
        self.width_shift_range, self.height_shift_range = width_shift_range, height_shift_range
        self.shear_range = shear_range
        self.channel_shift_range = channel_shift_range
        self.fill_mode, self.cval = fill_mode, cval
        self.horizontal_flip, self.vertical_flip = horizontal_flip, vertical_flip
        self.rescale = rescale
        self.preprocessing_function = preprocessing_function
        self.dtype = dtype or backend.floatx()
        self.interpolation_order = interpolation_order
        if data_format not in {"channels_last", "channels_first"}:
            raise ValueError('`data_format` should be `"channels_last"` (channel after row and '
                             'column) or `"channels_first"` (channel before row and column). '
                             f"Received: {data_format}")
        self.data_format = data_format
        self.channel_axis, self.row_axis, self.col_axis = \
            (1, 2, 3) if data_format == "channels_first" else (3, 1, 2)
        if validation_split and not 0 < validation_split < 1:
            raise ValueError("`validation_split` must be strictly between 0 and 1.  Received: "
                             f"{validation_split}")
        self._validation_split = validation_split
        self.mean = self.std = self.principal_components = None
        if isinstance(zoom_range, (float, int)):
            self.zoom_range = [1 - zoom_range, 1 + zoom_range]
        elif len(zoom_range) == 2:
            self.zoom_range = [zoom_range[0], zoom_range[1]]
        else:
            raise ValueError("`zoom_range` should be a float or a tuple or list of two floats. "
                             f"Received: {zoom_range}")
        if zca_whitening:
            if not featurewise_center:
                self.featurewise_center = True
                warnings.warn("This ImageDataGenerator specifies `zca_whitening`, which "
                              "overrides setting of `featurewise_center`.")
            if featurewise_std_normalization:
                self.featurewise_std_normalization = False
                warnings.warn("This ImageDataGenerator specifies `zca_whitening` which "
                              "overrides setting of`featurewise_std_normalization`.")
        if featurewise_std_normalization and not featurewise_center:
            self.featurewise_center = True
            warnings.warn("This ImageDataGenerator specifies `featurewise_std_normalization`, "
                          "which overrides setting of `featurewise_center`.")
        if samplewise_std_normalization and not samplewise_center:
            self.samplewise_center = True
            warnings.warn("This ImageDataGenerator specifies `samplewise_std_normalization`, "
                          "which overrides setting of `samplewise_center`.")
        if brightness_range is not None and (not isinstance(brightness_range, (tuple, list))
                                             or len(brightness_range) != 2):
            raise ValueError("`brightness_range should be tuple or list of two floats. "
                             f"Received: {brightness_range}")
        self.brightness_range = brightness_range

    def flow(self, x, y=None, batch_size=32, shuffle=True, sample_weight=None, seed=None,
             save_to_dir=None, save_prefix="", save_format="png", subset=None):
        """A NumpyArrayIterator of (x, y) batches of the transformed images."""
        return NumpyArrayIterator(x, y, self, batch_size=batch_size, shuffle=shuffle,
                                  sample_weight=sample_weight, seed=seed,
                                  data_format=self.data_format, save_to_dir=save_to_dir,
                                  save_prefix=save_prefix, save_format=save_format,
                                  subset=subset, dtype=self.dtype)

    def _unfit(self, what):
        warnings.warn(f"This ImageDataGenerator specifies `{what}`, but it hasn't been fit on "
                      "any training data. Fit it first by calling `.fit(numpy_data)`.")

    def standardize(self, x):
        """preprocessing_function, then rescale, then the sample- and featurewise centring
        and scaling (in place on x, as TF does)."""
        if self.preprocessing_function:
            x = self.preprocessing_function(x)
        if self.rescale:
            x *= self.rescale
        if self.samplewise_center:
            x -= np.mean(x, keepdims=True)
        if self.samplewise_std_normalization:
            x /= np.std(x, keepdims=True) + 1e-6
        if self.featurewise_center:
            if self.mean is None:
                self._unfit("featurewise_center")
            else:
                x -= self.mean
        if self.featurewise_std_normalization:
            if self.std is None:
                self._unfit("featurewise_std_normalization")
            else:
                x /= self.std + 1e-6
        if self.zca_whitening:
            if self.principal_components is None:
                self._unfit("zca_whitening")
            else:
                flat = np.reshape(x, (-1, np.prod(x.shape[-3:])))
                x = np.reshape(flat @ self.principal_components, x.shape)
        return x

    @staticmethod
    def _random_shift(shift_range, size):
        """A shift in pixels: from a list of choices (with a random sign), else uniform in
        [-range, range]; a range below 1 is a fraction of `size`."""
        if not shift_range:
            return 0
        try:
            shift = np.random.choice(shift_range) * np.random.choice([-1, 1])
        except ValueError:          # a number, not a list of choices
            shift = np.random.uniform(-shift_range, shift_range)
        return shift * size if np.max(shift_range) < 1 else shift

    def get_random_transform(self, img_shape, seed=None):
        """The random parameters of one image's transform: theta, tx, ty, shear, zx, zy,
        flip_horizontal, flip_vertical, channel_shift_intensity, brightness."""
        if seed is not None:
            np.random.seed(seed)
        theta = (np.random.uniform(-self.rotation_range, self.rotation_range)
                 if self.rotation_range else 0)
        tx = self._random_shift(self.height_shift_range, img_shape[self.row_axis - 1])
        ty = self._random_shift(self.width_shift_range, img_shape[self.col_axis - 1])
        shear = (np.random.uniform(-self.shear_range, self.shear_range)
                 if self.shear_range else 0)
        zx, zy = _random_zooms(self.zoom_range)
        flip_horizontal = (np.random.random() < 0.5) * self.horizontal_flip
        flip_vertical = (np.random.random() < 0.5) * self.vertical_flip
        channel_shift = (np.random.uniform(-self.channel_shift_range, self.channel_shift_range)
                         if self.channel_shift_range != 0 else None)
        brightness = (np.random.uniform(*self.brightness_range)
                      if self.brightness_range is not None else None)
        return {"theta": theta, "tx": tx, "ty": ty, "shear": shear, "zx": zx, "zy": zy,
                "flip_horizontal": flip_horizontal, "flip_vertical": flip_vertical,
                "channel_shift_intensity": channel_shift, "brightness": brightness}

    def apply_transform(self, x, transform_parameters):
        """One 3-D image transformed as get_random_transform's parameters say."""
        p = transform_parameters
        rows, cols, channels = self.row_axis - 1, self.col_axis - 1, self.channel_axis - 1
        x = apply_affine_transform(x, p.get("theta", 0), p.get("tx", 0), p.get("ty", 0),
                                   p.get("shear", 0), p.get("zx", 1), p.get("zy", 1),
                                   row_axis=rows, col_axis=cols, channel_axis=channels,
                                   fill_mode=self.fill_mode, cval=self.cval,
                                   order=self.interpolation_order)
        if p.get("channel_shift_intensity") is not None:
            x = apply_channel_shift(x, p["channel_shift_intensity"], channels)
        if p.get("flip_horizontal", False):
            x = flip_axis(x, cols)
        if p.get("flip_vertical", False):
            x = flip_axis(x, rows)
        if p.get("brightness") is not None:
            x = apply_brightness_shift(x, p["brightness"])
        return x

    def random_transform(self, x, seed=None):
        return self.apply_transform(x, self.get_random_transform(x.shape, seed))

    def fit(self, x, augment=False, rounds=1, seed=None):
        """Learns the featurewise statistics of the 4-D images x (rescaled first; with
        augment, of `rounds` randomly transformed copies): the per-channel mean and std,
        the ZCA whitening matrix."""
        x = np.array(x, dtype=self.dtype)       # a copy: x is changed in place below
        if x.ndim != 4:
            raise ValueError("Input to `.fit()` should have rank 4. Got array with shape: "
                             + str(x.shape))
        if x.shape[self.channel_axis] not in {1, 3, 4}:
            warnings.warn("Expected input to be images (as Numpy array) following the data "
                          f'format convention "{self.data_format}" (channels on axis '
                          f"{self.channel_axis}), i.e. expected either 1, 3 or 4 channels on "
                          f"axis {self.channel_axis}. However, it was passed an array with "
                          f"shape {x.shape} ({x.shape[self.channel_axis]} channels).")
        if seed is not None:
            np.random.seed(seed)
        if self.rescale:
            x *= self.rescale
        if augment:
            x = np.stack([self.random_transform(image) for _ in range(rounds) for image in x])
        axes = (0, self.row_axis, self.col_axis)
        shape = [1, 1, 1]
        shape[self.channel_axis - 1] = x.shape[self.channel_axis]
        if self.featurewise_center:
            self.mean = np.reshape(np.mean(x, axis=axes), shape)
            x -= self.mean
        if self.featurewise_std_normalization:
            self.std = np.reshape(np.std(x, axis=axes), shape)
            x /= self.std + 1e-6
        if self.zca_whitening:
            flat = np.reshape(x, (len(x), -1))
            u, s, _ = np.linalg.svd(flat.T, full_matrices=False)
            self.principal_components = (u * (np.sqrt(len(x)) / (s + self.zca_epsilon))) @ u.T
