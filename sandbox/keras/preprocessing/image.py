"""keras.preprocessing.image -- mirrors TensorFlow 1.15's python/keras/preprocessing/image.py
(keras_preprocessing's image module): images as arrays, and batches of randomly transformed
images for training.

    datagen = ImageDataGenerator(rescale=1 / 255., rotation_range=20, horizontal_flip=True,
                                 featurewise_center=True)
    datagen.fit(x_train)                              # the per-channel mean featurewise_* uses
    model.fit(datagen.flow(x_train, y_train, batch_size=32), epochs=3)
    model.fit(datagen.flow_from_directory('data/train', target_size=(64, 64)), epochs=3)

ImageDataGenerator (this module) draws each image's random transform (image_transforms.py:
the affine map, flips, channel and brightness shifts), then standardizes it (rescale, centre,
divide by the std); the iterators (image_iterators.py) cut the data into batches; images and
files meet arrays in image_utils.py (Pillow, as in TF). This module re-exports them all.
"""
import warnings

import numpy as np

from .. import backend
from . import image_iterators, image_transforms, image_utils
from .image_iterators import *        # noqa: F401,F403  Iterator, NumpyArrayIterator ...
from .image_transforms import *       # noqa: F401,F403  apply_affine_transform ...
from .image_utils import *            # noqa: F401,F403  load_img, img_to_array ...
from .image_iterators import DirectoryIterator, NumpyArrayIterator
from .image_transforms import (_random_zooms, apply_affine_transform, apply_brightness_shift,
                               apply_channel_shift, flip_axis)

__all__ = ["ImageDataGenerator"] + image_utils.__all__ + image_iterators.__all__ + \
    image_transforms.__all__


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

    def flow_from_directory(self, directory, target_size=(256, 256), color_mode="rgb",
                            classes=None, class_mode="categorical", batch_size=32,
                            shuffle=True, seed=None, save_to_dir=None, save_prefix="",
                            save_format="png", follow_links=False, subset=None,
                            interpolation="nearest"):
        """A DirectoryIterator of batches read from `directory`, one sub-folder per class
        (data/train/cats/*.jpg, data/train/dogs/*.jpg ...), each image resized to
        target_size, transformed and standardized."""
        return DirectoryIterator(directory, self, target_size=target_size,
                                 color_mode=color_mode, classes=classes,
                                 class_mode=class_mode, data_format=self.data_format,
                                 batch_size=batch_size, shuffle=shuffle, seed=seed,
                                 save_to_dir=save_to_dir, save_prefix=save_prefix,
                                 save_format=save_format, follow_links=follow_links,
                                 subset=subset, interpolation=interpolation, dtype=self.dtype)

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
