"""Tests for the image codecs (sandbox/ops/image_codec_ops.py: tf.image.decode_png ... via
Pillow) and tf.summary.image (sandbox/ops/summary_ops.py), against TensorFlow 2.15.1: PNG,
GIF and BMP pixels must be TF's exactly; JPEG pixels within a few levels (Pillow's libjpeg
decodes with the accurate integer DCT, TF with the fast one). TF's files and pixels are
hard-coded at the end of this file."""
import base64
import io
import os
import subprocess

import numpy as np
import pytest

import sandbox as tf
from sandbox.framework import errors

# A Python that has TensorFlow (CI sets it in its TensorFlow step: .ci/run); else skipped.
TF_PYTHON = os.environ.get("TF_PYTHON", "")
U8 = (np.arange(2 * 3 * 3) * 13 % 256).astype(np.uint8).reshape(2, 3, 3)   # TF215_PNG's pixels


def run(fetches, feed=None):
    with tf.Session() as sess:
        return sess.run(fetches, feed)


def test_png_decodes_tfs_file_exactly():
    got = run({"rgb": tf.image.decode_png(TF215_PNG), "gray": tf.image.decode_png(TF215_PNG, 1),
               "rgba": tf.image.decode_png(TF215_PNG, channels=4),
               "u16": tf.image.decode_png(TF215_PNG, dtype=tf.uint16),
               "any": tf.image.decode_image(TF215_PNG),
               "f": tf.image.decode_image(TF215_PNG, dtype=tf.float32),
               "io": tf.io.decode_png(TF215_PNG)})
    np.testing.assert_array_equal(got["rgb"], U8)
    np.testing.assert_array_equal(got["any"], U8)
    np.testing.assert_array_equal(got["io"], U8)
    np.testing.assert_array_equal(got["gray"], TF215_PNG_GRAY)          # libpng's luma
    np.testing.assert_array_equal(got["rgba"][..., :3], U8)
    assert (got["rgba"][..., 3] == 255).all()
    assert got["u16"].dtype == np.uint16
    np.testing.assert_array_equal(got["u16"], U8.astype(np.uint16) * 257)   # as TF
    np.testing.assert_allclose(got["f"], U8 / 255, atol=1e-7)
    assert tf.image.decode_png(TF215_PNG, channels=3).shape.as_list() == [None, None, 3]


def test_png_round_trip_for_every_channel_count_and_uint16():
    images = [U8[..., :1], np.concatenate([U8[..., :1], U8[..., 1:2]], 2), U8,
              np.concatenate([U8, U8[..., :1]], 2)]
    encoded = run([tf.image.encode_png(x) for x in images] + [
        tf.image.encode_png((np.arange(6) * 11111).astype(np.uint16).reshape(2, 3, 1))])
    assert all(isinstance(e, bytes) and e.startswith(b"\x89PNG") for e in encoded)
    decoded = run([tf.image.decode_png(e) for e in encoded[:4]] +
                  [tf.image.decode_png(encoded[4], dtype=tf.uint16),
                   tf.image.decode_png(encoded[4])])
    for x, y in zip(images, decoded):
        np.testing.assert_array_equal(x, y)
    np.testing.assert_array_equal(decoded[4][..., 0], (np.arange(6) * 11111).reshape(2, 3))
    np.testing.assert_array_equal(decoded[5][..., 0], (np.arange(6) * 11111 >> 8).reshape(2, 3))


def test_jpeg_decodes_tfs_file_within_a_few_levels():
    got = run({"rgb": tf.image.decode_jpeg(TF215_JPEG),
               "gray": tf.image.decode_jpeg(TF215_JPEG, channels=1),
               "half": tf.image.decode_jpeg(TF215_JPEG, ratio=2),
               "shape": tf.image.extract_jpeg_shape(TF215_JPEG),
               "is": [tf.image.is_jpeg(TF215_JPEG), tf.image.is_jpeg(TF215_PNG)],
               "any": tf.image.decode_image(TF215_JPEG)})
    assert got["rgb"].shape == (8, 8, 3) and got["rgb"].dtype == np.uint8
    assert np.abs(got["rgb"].astype(int) - TF215_JPEG_RGB).max() <= 4
    assert np.abs(got["gray"].astype(int) - TF215_JPEG_GRAY).max() <= 4
    assert got["half"].shape == (4, 4, 3)
    np.testing.assert_array_equal(got["shape"], [8, 8, 3])
    assert got["is"] == [True, False]
    np.testing.assert_array_equal(got["any"], got["rgb"])


def test_jpeg_encode_round_trip():
    y, x = np.mgrid[0:8, 0:8]
    photo = np.stack([x * 30 + 10, y * 28 + 20, (x + y) * 15 + 5], -1).astype(np.uint8)
    data = run(tf.image.encode_jpeg(photo, quality=90))
    assert data.startswith(b"\xff\xd8\xff")
    back = run(tf.image.decode_jpeg(data))
    assert np.abs(back.astype(int) - TF215_JPEG_RGB).max() <= 4
    gray = run(tf.image.decode_jpeg(tf.image.encode_jpeg(photo[..., :1])))
    assert gray.shape == (8, 8, 1) and np.abs(gray.astype(int) - photo[..., :1]).max() <= 4


def _gif_and_bmps():
    from PIL import Image
    f1 = np.zeros((3, 4, 3), np.uint8)
    f1[0] = [255, 0, 0]
    f1[1, 1] = [0, 255, 0]
    f2 = f1[::-1].copy()
    f2[2, 3] = [0, 0, 255]
    gif = io.BytesIO()
    Image.fromarray(f1).save(gif, "GIF", save_all=True, append_images=[Image.fromarray(f2)],
                             duration=10, loop=0, optimize=False)
    rgb = (np.arange(18) * 20 % 256).astype(np.uint8).reshape(2, 3, 3)
    rgba = (np.arange(24) * 20 % 256).astype(np.uint8).reshape(2, 3, 4)
    bmp3, bmp4 = io.BytesIO(), io.BytesIO()
    Image.fromarray(rgb).save(bmp3, "BMP")
    Image.fromarray(rgba, "RGBA").save(bmp4, "BMP")
    return (gif.getvalue(), np.stack([f1, f2])), (bmp3.getvalue(), rgb), (bmp4.getvalue(), rgba)


def test_gif_and_bmp_decode_as_tf():
    # TF 2.15 decodes these files (written by Pillow) to exactly these pixels; a 32-bit BMP
    # keeps its fourth byte as alpha.
    (gif, frames), (bmp3, rgb), (bmp4, rgba) = _gif_and_bmps()
    got = run([tf.image.decode_gif(gif), tf.image.decode_image(gif), tf.image.decode_bmp(bmp3),
               tf.image.decode_bmp(bmp4), tf.io.decode_image(bmp3, channels=3),
               tf.image.decode_image(gif, expand_animations=False)])
    np.testing.assert_array_equal(got[0], frames)
    np.testing.assert_array_equal(got[1], frames)
    np.testing.assert_array_equal(got[2], rgb)
    np.testing.assert_array_equal(got[3], rgba)
    np.testing.assert_array_equal(got[4], rgb)
    np.testing.assert_array_equal(got[5], frames[0])
    assert tf.image.decode_gif(gif).shape.as_list() == [None, None, None, 3]


def test_codec_errors():
    with pytest.raises(errors.InvalidArgumentError, match="Invalid PNG data"):
        run(tf.image.decode_png(b"not a png"))
    with pytest.raises(errors.InvalidArgumentError, match="Invalid JPEG data"):
        run(tf.image.decode_jpeg(TF215_PNG))
    with pytest.raises(errors.InvalidArgumentError, match="Unknown image file format"):
        run(tf.image.decode_image(b"GARBAGE!"))
    with pytest.raises(errors.InvalidArgumentError, match="channels"):
        run(tf.image.encode_png(np.zeros((2, 2, 5), np.uint8)))
    with pytest.raises(TypeError, match="uint8"):
        tf.image.encode_jpeg(np.zeros((2, 2, 3), np.float32))
    with pytest.raises(ValueError, match="rank 0"):
        tf.image.decode_png([TF215_PNG, TF215_PNG])


# -- tf.summary.image ------------------------------------------------------------------------

GRAY = np.array([[[[0.0], [0.25]], [[0.5], [1.3]]], [[[-1.0], [0.5]], [[2.0], [np.nan]]]],
                np.float32)
# The pixels TF 2.15's ImageSummary wrote for GRAY (floats scaled: to 255 / around 128;
# NaN drawn red, 255 in one channel)
TF215_GRAY_PIXELS = {"gray/image/0": [[0, 49], [98, 255]], "gray/image/1": [[64, 159], [255, 255]]}


def _pixels(png):
    from PIL import Image
    return np.asarray(Image.open(io.BytesIO(png)))


def _write_events(logdir):
    rgb = np.arange(36).reshape(2, 2, 3, 3).astype(np.float32) - 5
    summ = tf.summary.merge([tf.summary.image("gray", GRAY),
                             tf.summary.image("rgb", rgb, max_outputs=1),
                             tf.summary.image("u8", U8[None])])
    writer = tf.summary.FileWriter(logdir)
    writer.add_summary(run(summ), global_step=7)
    writer.close()
    return os.path.join(logdir, next(f for f in os.listdir(logdir) if "tfevents" in f))


def test_image_summary_values(tmp_path):
    path = _write_events(str(tmp_path))
    values = {v.tag: v.image for e in tf.train.summary_iterator(path) for v in e.summary.value}
    assert sorted(values) == ["gray/image/0", "gray/image/1", "rgb/image", "u8/image/0"]
    for tag, pixels in TF215_GRAY_PIXELS.items():
        assert (values[tag].height, values[tag].width, values[tag].colorspace) == (2, 2, 1)
        np.testing.assert_array_equal(_pixels(values[tag].encoded_image_string), pixels)
    np.testing.assert_array_equal(_pixels(values["u8/image/0"].encoded_image_string), U8)
    assert (values["rgb/image"].height, values["rgb/image"].width) == (2, 3)
    assert tf.summary.image("x", U8[None]).op in [
        t.op for t in tf.get_collection(tf.GraphKeys.SUMMARIES)]


# TF's own summary_iterator module (its record reader, its Event proto), imported without
# running tensorflow/__init__.py, which would take 5 s of the test budget to load all of TF.
_TF_READER = """
import importlib.util, io, json, os, sys, types
import numpy as np
root = os.path.dirname(importlib.util.find_spec("tensorflow").origin)
for name in ("tensorflow", "tensorflow.python"):
    sys.modules[name] = types.ModuleType(name)
    sys.modules[name].__path__ = [os.path.join(root, *name.split(".")[1:])]
from tensorflow.python.summary.summary_iterator import summary_iterator
from PIL import Image
out = {}
for e in summary_iterator(sys.argv[1]):
    for v in e.summary.value:
        out[v.tag] = [e.step, v.image.height, v.image.width, v.image.colorspace,
                      np.asarray(Image.open(io.BytesIO(v.image.encoded_image_string))).tolist()]
print("RESULT" + json.dumps(out))
"""


@pytest.mark.skipif(not TF_PYTHON or not os.path.exists(TF_PYTHON),
                    reason="set TF_PYTHON to a Python with tensorflow to run this (CI does, in its "
                           "TensorFlow step)")
def test_tensorflow_reads_the_image_summaries(tmp_path):
    path = _write_events(str(tmp_path))
    proc = subprocess.run([TF_PYTHON, "-c", _TF_READER, path], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3"})
    assert proc.returncode == 0, proc.stderr[-3000:]
    import json
    got = json.loads(proc.stdout.split("RESULT", 1)[1])
    assert sorted(got) == ["gray/image/0", "gray/image/1", "rgb/image", "u8/image/0"]
    assert got["u8/image/0"][:4] == [7, 2, 3, 3] and got["u8/image/0"][4] == U8.tolist()
    for tag, pixels in TF215_GRAY_PIXELS.items():
        assert got[tag][:4] == [7, 2, 2, 1] and got[tag][4] == pixels



# -- TF 2.15.1's files and pixels --------------------------------------------------------

TF215_JPEG = base64.b64decode(
    '/9j/4AAQSkZJRgABAQEBLAEsAAD/2wBDAAMCAgMCAgMDAwMEAwMEBQgFBQQEBQoHBwYIDAoMDAsKCwsNDhIQDQ4R'
    'DgsLEBYQERMUFRUVDA8XGBYUGBIUFRT/2wBDAQMEBAUEBQkFBQkUDQsNFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQU'
    'FBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBT/wAARCAAIAAgDASIAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAA'
    'AAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAk'
    'M2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKT'
    'lJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/8QA'
    'HwEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAECAxEEBSExBhJBUQdh'
    'cRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hp'
    'anN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK0tPU1dbX2Nna4uPk'
    '5ebn6Onq8vP09fb3+Pn6/9oADAMBAAIRAxEAPwDn/g9+y1/qP9E9P4aKKKywtafs1qdfA3F+b/2NT/e/1p5n/9k=')
TF215_JPEG_RGB = [[[10, 21, 5], [31, 27, 18], [59, 26, 33], [89, 26, 47], [121, 26, 66],
  [150, 26, 80], [183, 24, 91], [204, 29, 104]],
 [[19, 43, 21], [38, 49, 33], [69, 49, 50], [97, 49, 63], [129, 48, 81], [159, 47, 95],
  [190, 46, 107], [211, 52, 119]],
 [[20, 72, 36], [39, 78, 49], [69, 77, 64], [97, 77, 78], [130, 77, 97], [159, 75, 109],
  [191, 75, 124], [212, 80, 137]],
 [[19, 98, 50], [38, 105, 62], [68, 104, 78], [96, 104, 91], [129, 104, 108],
  [157, 102, 123], [189, 102, 137], [210, 107, 150]],
 [[19, 127, 65], [39, 134, 78], [69, 134, 94], [97, 133, 107], [130, 133, 124],
  [159, 132, 137], [190, 131, 151], [211, 137, 164]],
 [[18, 154, 80], [37, 160, 93], [68, 161, 108], [96, 160, 123], [128, 160, 137],
  [158, 159, 151], [189, 158, 166], [210, 164, 177]],
 [[19, 183, 97], [38, 189, 110], [68, 188, 124], [96, 188, 137], [129, 189, 155],
  [158, 187, 167], [190, 186, 183], [211, 192, 194]],
 [[26, 205, 113], [47, 211, 125], [76, 212, 140], [105, 210, 153], [136, 211, 172],
  [166, 210, 185], [198, 208, 199], [219, 214, 211]]]
TF215_JPEG_GRAY = [[[16], [27], [37], [47], [59], [69], [79], [90]],
 [[33], [44], [55], [65], [76], [86], [96], [107]],
 [[52], [63], [73], [83], [95], [104], [115], [126]],
 [[69], [80], [90], [100], [112], [121], [132], [143]],
 [[88], [99], [110], [119], [131], [141], [151], [162]],
 [[105], [116], [127], [137], [148], [158], [168], [179]],
 [[124], [135], [145], [155], [167], [176], [187], [198]],
 [[141], [152], [163], [172], [184], [194], [204], [215]]]
TF215_PNG = base64.b64decode('iVBORw0KGgoAAAANSUhEUgAAAAMAAAACCAIAAAASFvFNAAAAF0lEQVQImWNk4JVSV1dX'
                              'V1dnKS0thbAAHXYDYD/mJQ0AAAAASUVORK5CYII=')
TF215_PNG_GRAY = [[[10], [49], [88]], [[127], [166], [205]]]
