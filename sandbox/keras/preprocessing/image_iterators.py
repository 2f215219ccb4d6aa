"""Batches of images -- mirrors keras_preprocessing's image/iterator.py,
numpy_array_iterator.py and directory_iterator.py: Iterator (the batches of indices, as a
keras.utils.Sequence and as a Python iterator), NumpyArrayIterator (from arrays:
ImageDataGenerator.flow) and DirectoryIterator (from image files in one folder per class:
ImageDataGenerator.flow_from_directory)."""
import os
import threading
import warnings

import numpy as np

from .. import backend
from ..utils import Sequence
from .image_utils import array_to_img, img_to_array, load_img

__all__ = ["Iterator", "NumpyArrayIterator", "DirectoryIterator"]


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

    def _save(self, batch_x, index_array, numbers):
        """With save_to_dir: each image of the batch to a file, prefix_index_random.format."""
        if self.save_to_dir:
            for i, j in enumerate(index_array):
                name = (f"{self.save_prefix}_{j}_{np.random.randint(numbers)}."
                        f"{self.save_format}")
                array_to_img(batch_x[i], self.data_format, scale=True).save(
                    os.path.join(self.save_to_dir, name))


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
        self._save(batch_x, index_array, 1e4)
        if self.y is None:
            return batch_x
        if self.sample_weight is None:
            return batch_x, self.y[index_array]
        return batch_x, self.y[index_array], self.sample_weight[index_array]


class DirectoryIterator(Iterator):
    """Batches of the images in `directory`, one sub-folder per class: (x, y) with y one-hot
    ('categorical'), the class index ('sparse'), 0./1. ('binary'), x itself ('input') or no
    y (None). The classes are the sub-folders in sorted order (or `classes`, in its order:
    class_indices maps each to its index); each file is read with load_img at target_size,
    then transformed and standardized by `image_data_generator`. With the generator's
    validation_split, subset='validation' takes the first part of each class's files (in
    sorted order) and subset='training' the rest."""
    allowed_class_modes = {"categorical", "binary", "sparse", "input", None}

    def __init__(self, directory, image_data_generator, target_size=(256, 256),
                 color_mode="rgb", classes=None, class_mode="categorical", batch_size=32,
                 shuffle=True, seed=None, data_format=None, save_to_dir=None,
                 save_prefix="", save_format="png", follow_links=False, subset=None,
                 interpolation="nearest", dtype=None):
        self.dtype = dtype or backend.floatx()
        self.data_format = data_format or backend.image_data_format()
        channels = {"rgb": 3, "rgba": 4, "grayscale": 1}
        if color_mode not in channels:
            raise ValueError(f"Invalid color mode: {color_mode}; expected \"rgb\", \"rgba\", "
                             "or \"grayscale\".")
        if class_mode not in self.allowed_class_modes:
            raise ValueError(f"Invalid class_mode: {class_mode}; expected one of "
                             "\"categorical\", \"binary\", \"sparse\", \"input\" or None.")
        self.directory, self.image_data_generator = directory, image_data_generator
        self.target_size, self.color_mode = tuple(target_size), color_mode
        self.class_mode, self.interpolation = class_mode, interpolation
        self.save_to_dir, self.save_prefix = save_to_dir, save_prefix
        self.save_format = save_format
        self.image_shape = (self.target_size + (channels[color_mode],)
                            if self.data_format == "channels_last"
                            else (channels[color_mode],) + self.target_size)
        if subset is not None:
            if subset not in {"training", "validation"}:
                raise ValueError(f"Invalid subset name: {subset}; expected \"training\" or "
                                 "\"validation\"")
            cut = image_data_generator._validation_split
            split = (0, cut) if subset == "validation" else (cut, 1)
        else:
            split = None
        if not classes:
            classes = sorted(name for name in os.listdir(directory)
                             if os.path.isdir(os.path.join(directory, name)))
        self.num_classes = len(classes)
        self.class_indices = dict(zip(classes, range(len(classes))))
        self.filenames, labels = [], []
        for name in classes:
            found = _image_files(os.path.join(directory, name), self.white_list_formats,
                                 follow_links)
            if split is not None:
                found = found[int(split[0] * len(found)):int(split[1] * len(found))]
            self.filenames += [os.path.join(name, f) for f in found]
            labels += [self.class_indices[name]] * len(found)
        self.classes = np.array(labels, dtype="int32")
        self.samples = len(self.filenames)
        print(f"Found {self.samples} images belonging to {self.num_classes} classes.")
        super().__init__(self.samples, batch_size, shuffle, seed)

    @property
    def filepaths(self):
        return [os.path.join(self.directory, name) for name in self.filenames]

    @property
    def labels(self):
        return self.classes

    def _get_batches_of_transformed_samples(self, index_array):
        generator = self.image_data_generator
        batch_x = np.zeros((len(index_array),) + self.image_shape, dtype=self.dtype)
        paths = self.filepaths
        for i, j in enumerate(index_array):
            img = load_img(paths[j], color_mode=self.color_mode, target_size=self.target_size,
                           interpolation=self.interpolation)
            x = img_to_array(img, data_format=self.data_format)
            img.close()
            if generator is not None:
                x = generator.apply_transform(x, generator.get_random_transform(x.shape))
                x = generator.standardize(x)
            batch_x[i] = x
        self._save(batch_x, index_array, 1e7)
        if self.class_mode == "input":
            return batch_x, batch_x.copy()
        if self.class_mode == "sparse":
            return batch_x, self.classes[index_array]
        if self.class_mode == "binary":
            return batch_x, self.classes[index_array].astype(self.dtype)
        if self.class_mode == "categorical":
            batch_y = np.zeros((len(index_array), self.num_classes), dtype=self.dtype)
            batch_y[np.arange(len(index_array)), self.classes[index_array]] = 1.
            return batch_x, batch_y
        return batch_x


def _image_files(folder, formats, follow_links):
    """The image files under `folder` (its sub-folders too), relative to it, sorted as
    keras_preprocessing lists them (the folders in sorted order, the files of each sorted)."""
    found = []
    for root, _, files in sorted(os.walk(folder, followlinks=follow_links)):
        for name in sorted(files):
            if name.lower().endswith(tuple("." + ext for ext in formats)):
                found.append(os.path.relpath(os.path.join(root, name), folder))
    return found
