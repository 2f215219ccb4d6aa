"""Image codecs -- mirrors TensorFlow 1.15's image decoders and encoders (core/kernels/
decode_image_op.cc, encode_png_op.cc, encode_jpeg_op.cc, extract_jpeg_shape_op.cc and the
python functions of python/ops/image_ops_impl.py: decode_image, is_jpeg).

The kernels turn a scalar string tensor (the bytes of a file, e.g. from tf.read_file) into a
uint8 tensor [height, width, channels] and back. TF links libpng, libjpeg, giflib; the sandbox
calls Pillow (imported when a codec kernel first runs). PNG, GIF and BMP pixels are exactly
TF's; JPEG is lossy and decoders differ, so JPEG pixels may differ from TF's libjpeg-turbo by
a few levels, and the encoded bytes of any format differ from TF's (the pixels they hold do
not).

`channels=0` keeps the file's own channel count; 1 gives grayscale, 3 RGB, 4 RGBA.
"""
import io

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.graph import name_scope
from ..framework.op_def import OpDef, apply_op
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tensor_util import constant_value
from . import comparison_ops, string_ops
from .image_ops import convert_image_dtype

__all__ = []   # reached as tf.image.* and tf.io.* (sandbox/api/image.py, api/io.py)

_MODES = {1: "L", 2: "LA", 3: "RGB", 4: "RGBA"}
_MAGIC = {b"\xff\xd8\xff": "jpeg", b"\x89PNG": "png", b"GIF8": "gif", b"BM": "bmp"}


def _pil():
    from PIL import Image
    return Image


def _bytes(contents, what):
    contents = np.asarray(contents, dtype=object)
    if contents.ndim != 0:
        raise errors.InvalidArgumentError(None, None, f"contents must be scalar, got shape "
                                          f"{list(contents.shape)}")
    data = contents.item()
    return data.encode() if isinstance(data, str) else bytes(data)


def _format(data):
    return next((fmt for magic, fmt in _MAGIC.items() if data.startswith(magic)), None)


def _check_channels(channels, allowed=(0, 1, 3, 4)):
    if channels not in allowed:
        raise errors.InvalidArgumentError(None, None, f"channels must be one of "
                                          f"{', '.join(map(str, allowed))}, got {channels}")


def _open(data, fmt, message, draft=None):
    try:
        image = _pil().open(io.BytesIO(data))
        if draft is not None and image.format == "JPEG":
            # libjpeg's own colour conversion and DCT scaling, as TF asks libjpeg for them
            mode, ratio = draft
            image.draft(mode, (image.width // ratio, image.height // ratio))
        image.load()
        return image
    except Exception:
        raise errors.InvalidArgumentError(None, None, message) from None


def _native(image):
    """A PIL image as an [h, w, c] uint8 array in its own channels (a palette becomes RGB or
    RGBA, as libpng expands it)."""
    mode = image.mode
    if mode == "P":
        mode = "RGBA" if "transparency" in image.info else "RGB"
    elif mode not in ("L", "LA", "RGB", "RGBA"):
        mode = "RGBA" if "A" in mode else ("L" if mode in ("1", "I", "F") else "RGB")
    values = np.asarray(image.convert(mode), dtype=np.uint8)
    return values[:, :, None] if values.ndim == 2 else values


def _with_channels(values, channels):
    """Adds or drops channels as libpng does: gray <-> RGB (luma 0.299 R + 0.587 G + 0.114 B
    in 1/32768ths, truncated), alpha dropped or made opaque."""
    have = values.shape[2]
    if not channels or channels == have:
        return values
    color, alpha = values[:, :, :min(have, 3)], values[:, :, 3:] if have == 4 else \
        values[:, :, 1:] if have == 2 else None
    if color.shape[2] == 3 and channels in (1, 2):
        c = color.astype(np.int64)
        color = ((9798 * c[..., 0] + 19235 * c[..., 1] + 3735 * c[..., 2]) >> 15)[..., None]
    elif color.shape[2] == 1 and channels in (3, 4):
        color = np.repeat(color, 3, axis=2)
    if channels in (2, 4):
        alpha = alpha if alpha is not None else np.full(color.shape[:2] + (1,), 255)
        color = np.concatenate([color, alpha], axis=2)
    return color.astype(np.uint8)


def _pixels(image, channels, dtype=np.uint8):
    """A PIL image as an [h, w, c] array with `channels` (0: its own)."""
    if image.mode in ("I;16", "I;16B", "I", "I;16L") and channels in (0, 1):
        values = np.asarray(image, dtype=np.int64)[:, :, None]
        return values.astype(np.uint16) if dtype == np.uint16 else \
            (values >> 8).astype(np.uint8)   # libpng's png_set_strip_16
    values = _with_channels(_native(image), channels)
    return values.astype(np.uint16) * 257 if dtype == np.uint16 else values


def _decode_jpeg(data, channels, ratio=1):
    message = f"Invalid JPEG data or crop window, data size {len(data)}"
    if _format(data) != "jpeg":
        raise errors.InvalidArgumentError(None, None, message)
    image = _open(data, "jpeg", message, ({1: "L"}.get(channels, "RGB"), ratio))
    if channels in (1, 3) and image.mode == _MODES[channels]:
        return _native(image)
    return _with_channels(_native(image), channels)


def _decode(data, fmt, channels, dtype=np.uint8, expand_animations=True):
    if fmt == "gif":
        frames = _gif_frames(data)
        if channels not in (0, 3):
            raise errors.InvalidArgumentError(None, None, f"channels must be 0 or 3 for GIF, "
                                              f"got {channels}")
        return frames if expand_animations else frames[0]
    if fmt == "jpeg":
        return _decode_jpeg(data, channels)
    if fmt == "bmp" and len(data) >= 34 and int.from_bytes(data[28:30], "little") == 32 and \
            int.from_bytes(data[30:34], "little") == 0:
        return _with_channels(_bmp32(data), channels)
    what = {"png": "PNG", "bmp": "BMP"}[fmt]
    image = _open(data, fmt, f"Invalid {what} data, size {len(data)}")
    return _pixels(image, channels, dtype)


def _bmp32(data):
    """An uncompressed 32-bit BMP as RGBA: TF keeps the fourth byte as alpha (Pillow drops
    it)."""
    offset = int.from_bytes(data[10:14], "little")
    width = int.from_bytes(data[18:22], "little", signed=True)
    height = int.from_bytes(data[22:26], "little", signed=True)
    size = abs(height) * width * 4
    if width <= 0 or height == 0 or len(data) < offset + size:
        raise errors.InvalidArgumentError(None, None, f"Invalid BMP data, size {len(data)}")
    bgra = np.frombuffer(data[offset:offset + size], np.uint8).reshape(abs(height), width, 4)
    rgba = bgra[:, :, [2, 1, 0, 3]]
    return np.ascontiguousarray(rgba[::-1] if height > 0 else rgba)


def _gif_frames(data):
    from PIL import ImageSequence
    image = _open(data, "gif", f"Invalid GIF data (size {len(data)})")
    frames = [np.asarray(frame.convert("RGB"), dtype=np.uint8)
              for frame in ImageSequence.Iterator(image)]
    return np.stack(frames)


def _decoded_shape(channels):
    return TensorShape([None, None, channels or None])


class _Decoder(OpDef):
    abstract = True
    differentiable = False

    def shape(op):
        return _decoded_shape(op.get_attr("channels"))


class DecodePng(_Decoder):
    """PNG bytes -> uint8 (or uint16) [height, width, channels]."""

    def kernel(contents, channels=0, dtype=None):
        _check_channels(channels, (0, 1, 2, 3, 4))
        data = _bytes(contents, "PNG")
        if _format(data) != "png":
            raise errors.InvalidArgumentError(None, None, f"Invalid PNG data, size {len(data)}")
        return _decode(data, "png", channels, dtype.as_numpy_dtype)


class DecodeJpeg(_Decoder):
    """JPEG bytes -> uint8 [height, width, channels] (Pillow's decoder: within a few levels of
    TF's libjpeg-turbo; ratio 2, 4, 8 downscale while decoding)."""

    def kernel(contents, channels=0, ratio=1, fancy_upscaling=True, try_recover_truncated=False,
               acceptable_fraction=1.0, dct_method=""):
        _check_channels(channels)
        if ratio not in (1, 2, 4, 8):
            raise errors.InvalidArgumentError(None, None, f"ratio must be 1, 2, 4, or 8, got "
                                              f"{ratio}")
        data = _bytes(contents, "JPEG")
        return _decode_jpeg(data, channels, ratio)


class DecodeAndCropJpeg(_Decoder):
    """JPEG bytes and a crop window [y, x, height, width] -> uint8 [height, width, channels].
    TF's libjpeg decodes only the window's part of the image; the sandbox decodes it all with
    Pillow, then crops (so the pixels are decode_jpeg's, sliced)."""

    def shape(op):
        window = constant_value(op.inputs[1])
        channels = op.get_attr("channels") or None
        if window is None:
            return TensorShape([None, None, channels])
        return TensorShape([int(window[2]), int(window[3]), channels])

    def kernel(contents, crop_window, channels=0, ratio=1, fancy_upscaling=True,
               try_recover_truncated=False, acceptable_fraction=1.0, dct_method=""):
        pixels = DecodeJpeg.kernel(contents, channels, ratio)
        y, x, height, width = (int(v) for v in np.asarray(crop_window).reshape(-1)[:4])
        if min(y, x) < 0 or height <= 0 or width <= 0 or y + height > pixels.shape[0] or \
                x + width > pixels.shape[1]:
            raise errors.InvalidArgumentError(
                None, None, "jpeg::Uncompress failed. Invalid JPEG data or crop window. (The "
                f"window [y={y}, x={x}, height={height}, width={width}] must lie inside the "
                f"{pixels.shape[0]}x{pixels.shape[1]} image and be non-empty.)")
        return np.ascontiguousarray(pixels[y:y + height, x:x + width])


class DecodeBmp(_Decoder):
    """BMP bytes -> uint8 [height, width, channels]."""

    def kernel(contents, channels=0):
        _check_channels(channels)
        data = _bytes(contents, "BMP")
        if _format(data) != "bmp":
            raise errors.InvalidArgumentError(None, None, "Malformed BMP data: it does not "
                                              "start with 'BM'")
        return _decode(data, "bmp", channels)


class DecodeGif(OpDef):
    """GIF bytes -> uint8 [frames, height, width, 3] (every frame, drawn in full)."""
    differentiable = False

    def shape(op):
        return TensorShape([None, None, None, 3])

    def kernel(contents):
        data = _bytes(contents, "GIF")
        if _format(data) != "gif":
            raise errors.InvalidArgumentError(None, None, f"Invalid GIF data (size "
                                              f"{len(data)})")
        return _gif_frames(data)


class DecodeImage(OpDef):
    """Any of JPEG, PNG, GIF, BMP -> uint8 pixels: 3-D, or 4-D for a GIF (with
    expand_animations; else its first frame)."""
    differentiable = False

    def shape(op):
        return None

    def kernel(contents, channels=0, dtype=None, expand_animations=True):
        data = _bytes(contents, "image")
        fmt = _format(data)
        if fmt is None:
            raise errors.InvalidArgumentError(None, None, "Unknown image file format. One of "
                                              "JPEG, PNG, GIF, BMP required.")
        if fmt == "png":
            _check_channels(channels, (0, 1, 2, 3, 4))
        else:
            _check_channels(channels)
        return _decode(data, fmt, channels, np.uint8, expand_animations)


class ExtractJpegShape(OpDef):
    """The [height, width, channels] of a JPEG, read from its header."""
    differentiable = False

    def shape(op):
        return TensorShape([3])

    def kernel(contents, output_type=None):
        data = _bytes(contents, "JPEG")
        image = None
        try:
            image = _pil().open(io.BytesIO(data))
        except Exception:
            pass
        if image is None or image.format != "JPEG":
            raise errors.InvalidArgumentError(None, None, f"Invalid JPEG data, size "
                                              f"{len(data)}")
        channels = {"L": 1, "RGB": 3, "CMYK": 4}.get(image.mode, len(image.getbands()))
        return np.array([image.height, image.width, channels], dtype=output_type.as_numpy_dtype)


def _image_to_pil(image, what):
    if image.ndim != 3:
        raise errors.InvalidArgumentError(None, None, f"image must be 3-dimensional"
                                          f"{list(image.shape)}")
    channels = image.shape[2]
    if channels not in _MODES:
        raise errors.InvalidArgumentError(None, None, f"image must have 1, 2, 3, or 4 "
                                          f"channels, got {channels}")
    if image.dtype == np.uint16:
        if channels != 1:
            raise errors.InvalidArgumentError(None, None, "The sandbox writes 16-bit PNGs with "
                                              "one channel only (Pillow's limit).")
        return _pil().fromarray(np.ascontiguousarray(image[:, :, 0].astype("<u2")))
    return _pil().fromarray(image[:, :, 0] if channels == 1 else image, mode=_MODES[channels])


def _serialized(data):
    return np.array(data, dtype=object)


class EncodePng(OpDef):
    """uint8 (or uint16, 1 channel) [height, width, channels] -> PNG bytes."""
    differentiable = False

    def shape(op):
        return TensorShape([])

    def kernel(image, compression=-1, T=None):
        if not -1 <= compression <= 9:
            raise errors.InvalidArgumentError(None, None, f"compression should be in [-1,9], "
                                              f"got {compression}")
        buffer = io.BytesIO()
        _image_to_pil(image, "PNG").save(buffer, format="PNG",
                                         compress_level=6 if compression == -1 else compression)
        return _serialized(buffer.getvalue())


class EncodeJpeg(OpDef):
    """uint8 [height, width, 1 or 3] -> JPEG bytes (Pillow's libjpeg)."""
    differentiable = False

    def shape(op):
        return TensorShape([])

    def kernel(image, format="", quality=95, progressive=False, optimize_size=False,  # noqa: A002
               chroma_downsampling=True, density_unit="in", x_density=300, y_density=300,
               xmp_metadata=""):
        if image.ndim != 3 or image.shape[2] not in (1, 3):
            raise errors.InvalidArgumentError(None, None, f"image must be 3-dimensional with 1 "
                                              f"or 3 channels, got shape {list(image.shape)}")
        if format == "grayscale" and image.shape[2] != 1 or format == "rgb" and \
                image.shape[2] != 3:
            raise errors.InvalidArgumentError(None, None, f"format {format!r} does not match "
                                              f"{image.shape[2]} channels")
        if not 0 <= quality <= 100:
            raise errors.InvalidArgumentError(None, None, f"quality must be in [0,100], got "
                                              f"{quality}")
        buffer = io.BytesIO()
        dpi = (x_density, y_density) if density_unit == "in" else \
            (x_density * 2.54, y_density * 2.54)
        _image_to_pil(image, "JPEG").save(
            buffer, format="JPEG", quality=int(quality), progressive=bool(progressive),
            optimize=bool(optimize_size), subsampling=2 if chroma_downsampling else 0, dpi=dpi)
        return _serialized(buffer.getvalue())


# -- building the ops -----------------------------------------------------------------------

def _contents(contents):
    contents = convert_to_tensor(contents, dtype=_dtypes.string, name="contents")
    if contents.get_shape().ndims not in (None, 0):
        raise ValueError(f"Shape must be rank 0 but is rank {contents.get_shape().ndims}")
    return contents


def decode_png(contents, channels=0, dtype=_dtypes.uint8, name=None):
    """PNG bytes (a scalar string) -> [height, width, channels] uint8 or uint16."""
    dtype = _dtypes.as_dtype(dtype).base_dtype
    if dtype not in (_dtypes.uint8, _dtypes.uint16):
        raise TypeError(f"dtype must be uint8 or uint16, got {dtype.name}")
    return apply_op("DecodePng", [_contents(contents)], {"channels": int(channels),
                                                          "dtype": dtype},
                    name=name or "DecodePng", output_dtypes=[dtype])


def decode_jpeg(contents, channels=0, ratio=1, fancy_upscaling=True,
                try_recover_truncated=False, acceptable_fraction=1, dct_method="", name=None):
    """JPEG bytes -> [height, width, channels] uint8."""
    attrs = _jpeg_attrs(channels, ratio, fancy_upscaling, try_recover_truncated,
                        acceptable_fraction, dct_method)
    return apply_op("DecodeJpeg", [_contents(contents)], attrs, name=name or "DecodeJpeg",
                    output_dtypes=[_dtypes.uint8])


def _jpeg_attrs(channels, ratio, fancy_upscaling, try_recover_truncated, acceptable_fraction,
                dct_method):
    """The attributes of DecodeJpeg and DecodeAndCropJpeg."""
    return {"channels": int(channels), "ratio": int(ratio),
            "fancy_upscaling": bool(fancy_upscaling),
            "try_recover_truncated": bool(try_recover_truncated),
            "acceptable_fraction": float(acceptable_fraction), "dct_method": dct_method}


def decode_and_crop_jpeg(contents, crop_window, channels=0, ratio=1, fancy_upscaling=True,
                         try_recover_truncated=False, acceptable_fraction=1, dct_method="",
                         name=None):
    """JPEG bytes -> the [height, width, channels] uint8 window `crop_window` = [y, x,
    height, width] of the image: decode_jpeg, then the crop."""
    attrs = _jpeg_attrs(channels, ratio, fancy_upscaling, try_recover_truncated,
                        acceptable_fraction, dct_method)
    with name_scope(name, "DecodeAndCropJpeg", [contents, crop_window]) as scope:
        contents = _contents(contents)
        crop_window = convert_to_tensor(crop_window, dtype=_dtypes.int32, name="crop_window")
        shape = crop_window.get_shape()
        if shape.ndims not in (None, 1) or (shape.ndims == 1 and shape[0] not in (None, 4)):
            raise ValueError(f"Dimension must be 4 but is {shape[0] if shape.ndims else 0} for "
                             f"DecodeAndCropJpeg's crop_window (shape {shape}): give [y, x, "
                             "height, width].")
        return apply_op("DecodeAndCropJpeg", [contents, crop_window], attrs, name=scope,
                        output_dtypes=[_dtypes.uint8])


def decode_bmp(contents, channels=0, name=None):
    """BMP bytes -> [height, width, channels] uint8."""
    return apply_op("DecodeBmp", [_contents(contents)], {"channels": int(channels)},
                    name=name or "DecodeBmp", output_dtypes=[_dtypes.uint8])


def decode_gif(contents, name=None):
    """GIF bytes -> [num_frames, height, width, 3] uint8."""
    return apply_op("DecodeGif", [_contents(contents)], {}, name=name or "DecodeGif",
                    output_dtypes=[_dtypes.uint8])


def decode_image(contents, channels=None, dtype=_dtypes.uint8, name=None,
                 expand_animations=True):
    """Decodes a JPEG, PNG, GIF or BMP (found from its first bytes), converted to `dtype` with
    convert_image_dtype."""
    with name_scope(name, "decode_image", [contents]) as scope:
        decoded = apply_op("DecodeImage", [_contents(contents)],
                           {"channels": int(channels or 0), "dtype": _dtypes.uint8,
                            "expand_animations": bool(expand_animations)},
                           name="DecodeImage", output_dtypes=[_dtypes.uint8])
        return convert_image_dtype(decoded, dtype, name=scope)


def encode_png(image, compression=-1, name=None):
    """[height, width, channels] uint8 (or uint16) -> PNG bytes (a scalar string)."""
    image = convert_to_tensor(image, name="image")
    if image.dtype.base_dtype not in (_dtypes.uint8, _dtypes.uint16):
        raise TypeError(f"Value passed to parameter 'image' has DataType "
                        f"{image.dtype.base_dtype.name} not in list of allowed values: "
                        "uint8, uint16")
    return apply_op("EncodePng", [image], {"compression": int(compression),
                                           "T": image.dtype.base_dtype},
                    name=name or "EncodePng", output_dtypes=[_dtypes.string])


def encode_jpeg(image, format="", quality=95, progressive=False,  # noqa: A002 -- TF's name
                optimize_size=False, chroma_downsampling=True, density_unit="in",
                x_density=300, y_density=300, xmp_metadata="", name=None):
    """[height, width, 1 or 3] uint8 -> JPEG bytes."""
    image = convert_to_tensor(image, name="image")
    if image.dtype.base_dtype != _dtypes.uint8:
        raise TypeError(f"Value passed to parameter 'image' has DataType "
                        f"{image.dtype.base_dtype.name} not in list of allowed values: uint8")
    attrs = {"format": format, "quality": int(quality), "progressive": bool(progressive),
             "optimize_size": bool(optimize_size),
             "chroma_downsampling": bool(chroma_downsampling), "density_unit": density_unit,
             "x_density": int(x_density), "y_density": int(y_density),
             "xmp_metadata": xmp_metadata}
    return apply_op("EncodeJpeg", [image], attrs, name=name or "EncodeJpeg",
                    output_dtypes=[_dtypes.string])


def extract_jpeg_shape(contents, output_type=_dtypes.int32, name=None):
    """The [height, width, channels] of a JPEG image, without decoding it."""
    output_type = _dtypes.as_dtype(output_type).base_dtype
    return apply_op("ExtractJpegShape", [_contents(contents)], {"output_type": output_type},
                    name=name or "ExtractJpegShape", output_dtypes=[output_type])


def is_jpeg(contents, name=None):
    """True if the bytes start like a JPEG file (0xff 0xd8 0xff)."""
    with name_scope(name, "is_jpeg"):
        prefix = string_ops.substr(contents, 0, 3)
        return comparison_ops.equal(prefix, b"\xff\xd8\xff", name=name)
