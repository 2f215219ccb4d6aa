"""Images as arrays -- mirrors keras_preprocessing's image/utils.py, which TensorFlow 1.15's
keras.preprocessing.image re-exports: load_img and save_img (files, through Pillow),
img_to_array and array_to_img. One image is a (rows, cols, channels) array
('channels_last', keras.backend's default)."""
import os
import warnings

import numpy as np

from .. import backend

try:
    from PIL import Image as pil_image
except ImportError:           # TF raises its ImportError when these functions are used
    pil_image = None

__all__ = ["array_to_img", "img_to_array", "load_img", "save_img"]


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
