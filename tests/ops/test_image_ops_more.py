"""Tests for sandbox/ops/glimpse_ops.py (extract_glimpse, extract_patches) and
sandbox/ops/image_quality_ops.py (ssim_multiscale, adjust_jpeg_quality, random_jpeg_quality).
The expected numbers and windows were computed by TensorFlow 2.15.1 (tf.compat.v1, graph mode)
on the same inputs; JPEG pixels cannot match TF's codec, so those tests check properties of
the round trip (and compare its error with TF's)."""
import numpy as np
import pytest

import sandbox as tf
from sandbox.framework import errors


def run(fetches):
    with tf.Session() as sess:
        return sess.run(fetches)


# -- extract_glimpse ---------------------------------------------------------------------------

def test_extract_glimpse_reads_offsets_as_tf_1():
    image = np.arange(10 * 12, dtype=np.float32).reshape(1, 10, 12, 1)
    # (centered, normalized, offset) -> the window's top-left pixel, as TF 2.15.1's
    # tf.compat.v1.image.extract_glimpse places a [3, 4] window
    for centered, normalized, offset, (row, col) in [
            (True, True, [0.1, -0.2], (4, 2)), (True, False, [1.7, 2.6], (4, 5)),
            (False, False, [1.7, 2.6], (0, 0)), (False, True, [0.55, 0.5], (4, 4))]:
        got = run(tf.image.extract_glimpse(image, [3, 4], [offset], centered=centered,
                                           normalized=normalized))
        np.testing.assert_array_equal(got[0, :, :, 0], image[0, row:row + 3, col:col + 4, 0])


def test_extract_glimpse_fills_the_outside_with_noise():
    image = np.arange(1, 2 * 6 * 7 + 1, dtype=np.float32).reshape(2, 6, 7, 1)
    op = tf.image.extract_glimpse(image, [4, 5], [[0.9, -0.8], [-1.5, 1.2]])
    with tf.Session() as sess:
        first, second = sess.run(op), sess.run(op)
    # TF's placement: image 0's window starts at row 3, column -1; image 1's at (-3, 5)
    inside = np.zeros([2, 4, 5], bool)
    inside[0, :3, 1:] = inside[1, 3, :2] = True
    np.testing.assert_array_equal(first[0, :3, 1:, 0], image[0, 3:, :4, 0])
    np.testing.assert_array_equal(first[1, 3, :2, 0], [48, 49])
    for b in range(2):
        noise = first[b, :, :, 0][~inside[b]]
        assert image[b].min() <= noise.min() and noise.max() <= image[b].max()
        assert not np.array_equal(noise, np.round(noise))          # not pixels: noise
    assert not np.array_equal(first, second)                       # drawn again on every run
    np.testing.assert_array_equal(first[inside[..., None]], second[inside[..., None]])
    # uniform_noise=False still fills uniform noise (the op's `noise` attr decides): on an
    # image of 0s and 1s, TF 2.15.1 gives 0 or 1 only where the 10x10 image lies (100 of
    # 1600), where Gaussian noise clipped to [0, 1] would give many more.
    halves = np.zeros([1, 10, 10, 1], np.float32)
    halves[:, 5:] = 1
    for uniform_noise in (True, False):
        got = run(tf.image.extract_glimpse(halves, [40, 40], [[0.0, 0.0]],
                                           uniform_noise=uniform_noise))
        assert np.mean((got == 0) | (got == 1)) == 100 / 1600


def test_extract_glimpse_shapes_and_errors():
    images = tf.placeholder(tf.float32, [2, None, 7, 3])
    assert tf.image.extract_glimpse(images, [3, 4], tf.zeros([2, 2])).get_shape().as_list() \
        == [2, 3, 4, 3]
    size = tf.placeholder(tf.int32, [2])
    assert tf.image.extract_glimpse(images, size, tf.zeros([2, 2])).get_shape().as_list() == \
        [2, None, None, 3]
    image = np.zeros([1, 10, 10, 1], np.float32)
    with pytest.raises(ValueError, match="Shape must be rank 4 but is rank 3"):
        tf.image.extract_glimpse(image[0], [3, 3], [[0.0, 0.0]])
    with pytest.raises(ValueError, match="Dimension must be 2 but is 3"):
        tf.image.extract_glimpse(image, [3, 3, 3], [[0.0, 0.0]])
    with pytest.raises(ValueError, match="Dimensions must be equal, but are 1 and 2"):
        tf.image.extract_glimpse(image, [3, 3], [[0.0, 0.0], [1.0, 1.0]])
    with pytest.raises(errors.InvalidArgumentError, match="first dimension should be batch"):
        run(tf.image.extract_glimpse(image, [3, 3],
                                     tf.placeholder_with_default([[0., 0.], [1., 1.]], None)))


# -- extract_patches / extract_image_patches -----------------------------------------------------

def test_extract_patches_is_extract_image_patches():
    assert tf.image.extract_image_patches is tf.extract_image_patches
    images = np.arange(16, dtype=np.float32).reshape(1, 4, 4, 1)
    got = run(tf.image.extract_patches(images, sizes=[1, 2, 2, 1], strides=[1, 2, 2, 1],
                                       rates=[1, 1, 1, 1], padding="VALID"))
    np.testing.assert_array_equal(got, [[[[0, 1, 4, 5], [2, 3, 6, 7]],
                                         [[8, 9, 12, 13], [10, 11, 14, 15]]]])
    same = run(tf.image.extract_image_patches(images, [1, 3, 2, 1], [1, 1, 2, 1], [1, 1, 1, 1],
                                              "SAME"))
    np.testing.assert_array_equal(same, run(tf.image.extract_patches(
        images, [1, 3, 2, 1], [1, 1, 2, 1], [1, 1, 1, 1], "SAME")))


# -- ssim_multiscale ---------------------------------------------------------------------------

def _pairs():
    rng = np.random.RandomState(0)
    a = rng.uniform(0, 1, size=(2, 181, 177, 3)).astype(np.float32)
    b = np.clip(a + rng.normal(0, 0.1, size=a.shape), 0, 1).astype(np.float32)
    yy, xx = np.mgrid[0:50, 0:45] / 10.0
    c = (0.5 + 0.4 * np.sin(yy)[..., None] * np.cos(xx)[..., None] *
         np.array([1, 0.5, -0.7])).astype(np.float32)
    d = np.clip(c + rng.normal(0, 0.05, size=c.shape), 0, 1).astype(np.float32)
    return a, b, c, d


def test_ssim_multiscale_matches_tf():
    a, b, c, d = _pairs()
    u8a, u8b = ((x[0] * 255).round().astype(np.uint8) for x in (a, b))
    got = run([tf.image.ssim_multiscale(a, b, 1.0),
               tf.image.ssim_multiscale(c, d, 1.0, power_factors=[0.3, 0.5, 0.2]),
               tf.image.ssim_multiscale(u8a, u8b, 255),
               tf.image.ssim_multiscale(c[None, None], d[None, None], 1.0, power_factors=(0.5, 0.5),
                                        filter_size=7, filter_sigma=1.0, k1=0.02, k2=0.05)])
    np.testing.assert_allclose(got[0], [0.9553698897361755, 0.9524890780448914], atol=1e-4)
    np.testing.assert_allclose(got[1], 0.7807279229164124, atol=1e-4)
    np.testing.assert_allclose(got[2], 0.9553346633911133, atol=1e-4)
    np.testing.assert_allclose(got[3], [[0.7387251853942871]], atol=1e-4)
    assert got[0].shape == (2,) and got[1].shape == () and got[3].shape == (1, 1)


def test_ssim_multiscale_properties_and_errors():
    _, _, c, d = _pairs()
    assert run(tf.image.ssim_multiscale(c, c, 1.0, power_factors=[0.5, 0.5])) == \
        pytest.approx(1.0, abs=1e-5)
    # unknown height and width: the odd sides are padded at run time
    ph = tf.placeholder(tf.float32, [None, None, 3])
    with tf.Session() as sess:
        got = sess.run(tf.image.ssim_multiscale(ph, d, 1.0, power_factors=[0.3, 0.5, 0.2]),
                       {ph: c})
    np.testing.assert_allclose(got, 0.7807279229164124, atol=1e-4)
    with pytest.raises(ValueError, match="too small for 5 scales"):
        tf.image.ssim_multiscale(c, d, 1.0)
    with pytest.raises(ValueError, match="incompatible"):
        tf.image.ssim_multiscale(c, d[:, :40], 1.0)


# -- JPEG quality --------------------------------------------------------------------------------

def _smooth_image():
    yy, xx = np.mgrid[0:32, 0:48]
    return np.stack([128 + 100 * np.sin(yy / 5.0), 128 + 100 * np.cos(xx / 7.0),
                     4 * yy + 2 * xx], -1).clip(0, 255).astype(np.uint8)


def test_adjust_jpeg_quality_round_trip():
    image = _smooth_image()
    outs = run([tf.image.adjust_jpeg_quality(image, q) for q in (10, 50, 95)])
    errors_ = [np.abs(o.astype(int) - image).mean() for o in outs]
    for out in outs:
        assert out.dtype == np.uint8 and out.shape == image.shape
    assert errors_[0] > errors_[1] > errors_[2]         # lower quality, larger error
    # TF 2.15.1 (libjpeg-turbo) loses 9.343 and 3.299 levels on average at quality 10 and 50,
    # and 2.016 at 95: the sandbox's codec loses about as much
    assert abs(errors_[0] - 9.343) < 1.0 and abs(errors_[1] - 3.299) < 0.5
    assert errors_[2] < 2.016 + 0.5
    t = tf.image.adjust_jpeg_quality(image, 50)
    assert t.get_shape().as_list() == [None, None, 3] and t.dtype == tf.uint8
    gray = run(tf.image.adjust_jpeg_quality(image[..., :1], 75))
    assert gray.shape == (32, 48, 1) and np.abs(gray.astype(int) - image[..., :1]).mean() < 2
    floats = run(tf.image.adjust_jpeg_quality(image.astype(np.float32) / 255, 75))
    assert floats.dtype == np.float32 and 0 <= floats.min() and floats.max() <= 1
    assert np.abs(floats - image / 255.0).mean() < 0.02       # TF 2.15.1: 0.01095
    flat = run(tf.image.adjust_jpeg_quality(np.full([16, 16, 3], 77, np.uint8), 30))
    assert np.abs(flat.astype(int) - 77).max() <= 1


def test_random_jpeg_quality_draws_tfs_quality():
    image = _smooth_image()
    with tf.Graph().as_default():
        out = tf.image.random_jpeg_quality(image, 10, 90, seed=5)
        with tf.Session() as sess:
            got = sess.run(out)
    # TF 2.15.1: random_uniform([], 10, 90, seed=5, dtype=int32) draws 41
    np.testing.assert_array_equal(got, run(tf.image.adjust_jpeg_quality(image, 41)))
    with pytest.raises(ValueError, match="`min_jpeg_quality` must be less than"):
        tf.image.random_jpeg_quality(image, 50, 50)
    with pytest.raises(ValueError, match="jpeg encoding range must be between 0 and 100"):
        tf.image.random_jpeg_quality(image, 5, 101)


def test_adjust_jpeg_quality_errors():
    image = _smooth_image()
    with pytest.raises(errors.InvalidArgumentError, match=r"quality must be in \[0,100\], got "
                                                          "101"):
        run(tf.image.adjust_jpeg_quality(image, tf.constant(101)))
    with pytest.raises(ValueError, match="Shape must be rank 3 but is rank 4"):
        tf.image.adjust_jpeg_quality(image[None], 50)
