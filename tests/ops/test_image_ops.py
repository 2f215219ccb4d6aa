"""Tests for tf.image (sandbox/ops/image_ops.py, image_resize_ops.py, image_color_ops.py):
values, random draws and gradients compared with TensorFlow 2.15.1's tf.compat.v1.image on
the same small inputs (TF's numbers hard-coded at the end of this file), and the errors TF
raises for images of the wrong rank."""
import numpy as np
import pytest

import sandbox as tf
from sandbox.framework import errors

IMG = np.array([[[0.1, 0.5, 0.9], [0.8, 0.2, 0.3], [0.4, 0.4, 0.4]],
                [[0.0, 1.0, 0.5], [0.6, 0.7, 0.1], [0.3, 0.9, 0.6]]], np.float32)  # [2, 3, 3]
BATCH = np.stack([IMG, IMG[::-1] * 0.5])                                             # [2, 2, 3, 3]
U8 = (IMG * 255).astype(np.uint8)
SMALL = np.arange(12, dtype=np.float32).reshape(1, 3, 4, 1)
BOXES = np.array([[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, -0.1, 1, 0.9], [0, 10, 1, 11],
                  [0, 10.1, 1, 11.1], [0, 100, 1, 101]], np.float32)
SCORES = np.array([.9, .75, .6, .95, .5, .3], np.float32)
_rs = np.random.RandomState(0)
BIG1 = _rs.rand(1, 16, 16, 3).astype(np.float32)
BIG2 = np.clip(BIG1 + _rs.randn(1, 16, 16, 3).astype(np.float32) * 0.1, 0, 1)

CASES = {
    "flip_lr": lambda: tf.image.flip_left_right(IMG),
    "flip_ud_b": lambda: tf.image.flip_up_down(BATCH),
    "transpose": lambda: tf.image.transpose_image(IMG),
    "rot90_1": lambda: tf.image.rot90(IMG, 1),
    "rot90_3b": lambda: tf.image.rot90(BATCH, 3),
    "rot90_t": lambda: tf.image.rot90(IMG, tf.constant(2)),
    "std": lambda: tf.image.per_image_standardization(IMG),
    "std_u8": lambda: tf.image.per_image_standardization(U8),
    "resize_bil_hp": lambda: tf.image.resize_bilinear(SMALL, [5, 7], half_pixel_centers=True),
    "resize_nn_hp": lambda: tf.image.resize_nearest_neighbor(SMALL, [5, 7],
                                                             half_pixel_centers=True),
    "resize_cub_hp": lambda: tf.image.resize_bicubic(SMALL, [5, 7], half_pixel_centers=True),
    "resize_u8_nn": lambda: tf.image.resize_images(U8, [3, 4], method=1),
    "resize_u8_bil": lambda: tf.image.resize_images(U8, [3, 4]),
    "resize_aspect": lambda: tf.image.resize_images(SMALL, [6, 6], preserve_aspect_ratio=True),
    "crop_or_pad_1": lambda: tf.image.resize_image_with_crop_or_pad(SMALL[0], 5, 2),
    "crop_or_pad_2": lambda: tf.image.resize_image_with_crop_or_pad(SMALL, 2, 7),
    "with_pad": lambda: tf.image.resize_image_with_pad(SMALL[0], 4, 4),
    "central": lambda: tf.image.central_crop(
        np.arange(5 * 6, dtype=np.float32).reshape(5, 6, 1), 0.5),
    "crop_bb": lambda: tf.image.crop_to_bounding_box(SMALL, 1, 1, 2, 2),
    "pad_bb": lambda: tf.image.pad_to_bounding_box(SMALL[0], 1, 2, 4, 7),
    "bright": lambda: tf.image.adjust_brightness(IMG, 0.3),
    "bright_u8": lambda: tf.image.adjust_brightness(U8, 0.3),
    "contrast": lambda: tf.image.adjust_contrast(IMG, 1.7),
    "contrast_u8": lambda: tf.image.adjust_contrast(U8, 0.4),
    "sat": lambda: tf.image.adjust_saturation(IMG, 0.6),
    "sat_u8": lambda: tf.image.adjust_saturation(U8, 2.5),
    "hue": lambda: tf.image.adjust_hue(IMG, 0.2),
    "hue_neg": lambda: tf.image.adjust_hue(BATCH, -0.45),
    "hue_u8": lambda: tf.image.adjust_hue(U8, 0.33),
    "rgb2hsv": lambda: tf.image.rgb_to_hsv(IMG),
    "hsv2rgb": lambda: tf.image.hsv_to_rgb(IMG),
    "gray": lambda: tf.image.rgb_to_grayscale(IMG),
    "gray_u8": lambda: tf.image.rgb_to_grayscale(U8),
    "gray2rgb": lambda: tf.image.grayscale_to_rgb(SMALL),
    "cvt_u8_f": lambda: tf.image.convert_image_dtype(U8, tf.float32),
    "cvt_f_u8": lambda: tf.image.convert_image_dtype(IMG * 1.2 - 0.1, tf.uint8, saturate=True),
    "cvt_f_u8_ns": lambda: tf.image.convert_image_dtype(IMG, tf.uint8),
    "cvt_u8_i32": lambda: tf.image.convert_image_dtype(U8, tf.int32),
    "cvt_i32_u8": lambda: tf.image.convert_image_dtype(
        tf.constant([[[2**31 - 1, 2**24, 7]]], tf.int32), tf.uint8),
    "cvt_u8_u16": lambda: tf.image.convert_image_dtype(U8, tf.uint16),
    "gamma": lambda: tf.image.adjust_gamma(IMG, 2.2, 0.9),
    "gamma_u8": lambda: tf.image.adjust_gamma(U8, 0.5),
    "tv": lambda: tf.image.total_variation(IMG),
    "tv_b": lambda: tf.image.total_variation(BATCH),
    "grads": lambda: tf.image.image_gradients(BATCH),
    "psnr": lambda: tf.image.psnr(IMG, IMG[::-1], 1.0),
    "psnr_u8": lambda: tf.image.psnr(U8, U8[::-1], 255),
    "nms": lambda: tf.image.non_max_suppression(BOXES, SCORES, 3, 0.5),
    "nms_st": lambda: tf.image.non_max_suppression(BOXES, SCORES, 10, 0.5, score_threshold=0.4),
    "draw": lambda: tf.image.draw_bounding_boxes(
        np.zeros((1, 5, 6, 3), np.float32),
        np.array([[[0.0, 0.0, 0.5, 0.5], [0.25, 0.4, 1.0, 1.0], [-0.2, 0.5, 0.6, 1.4]]],
                 np.float32)),
    "draw_gray": lambda: tf.image.draw_bounding_boxes(np.full((1, 4, 4, 1), 0.5, np.float32),
                                                      np.array([[[0., 0., 1., 1.]]],
                                                               np.float32)),
    "ssim": lambda: tf.image.ssim(BIG1, BIG2, 1.0)[0],
    "ssim_u8": lambda: tf.image.ssim((BIG1 * 255).astype(np.uint8),
                                     (BIG2 * 255).astype(np.uint8), 255)[0],
}
for _m, _name in [(0, "bil"), (1, "nn"), (2, "cub"), (3, "area")]:
    for _ac in (False, True):
        for _size in ([5, 7], [2, 3]):
            CASES[f"resize_{_name}_{_ac}_{_size[0]}x{_size[1]}"] = (
                lambda m=_m, ac=_ac, size=_size:
                tf.image.resize_images(SMALL, size, method=m, align_corners=ac))

# Where the sandbox's float arithmetic differs from TF's (summation order, float64 inside a
# kernel): bicubic and area resizes within 1e-5, the rest within a few float32 ulps.
TOLERANCE = {"resize_cub": 2e-5, "resize_area": 5e-6, "std": 2e-6}


def run(fetches, feed=None):
    with tf.Session() as sess:
        return sess.run(fetches, feed)


@pytest.mark.parametrize("case", sorted(CASES))
def test_values_match_tf(case):
    tf.reset_default_graph()
    got = run(CASES[case]())
    want = TF215[case]
    atol = next((t for prefix, t in TOLERANCE.items() if case.startswith(prefix)), 2e-7)
    for g, w in zip(got if isinstance(got, tuple) else [got],
                    want if isinstance(want, tuple) else [want]):
        w = np.asarray(w)
        if case in TF215_DTYPES:
            assert g.dtype == TF215_DTYPES[case], case
        assert np.shape(g) == w.shape, case
        np.testing.assert_allclose(g, w, atol=max(atol, 1e-6 * np.abs(w).max()), rtol=0)


MORE = {"sobel": tf.image.sobel_edges, "yiq": tf.image.rgb_to_yiq, "yuv": tf.image.rgb_to_yuv,
        "yiq2": tf.image.yiq_to_rgb, "yuv2": tf.image.yuv_to_rgb}


@pytest.mark.parametrize("case", sorted(MORE))
def test_sobel_edges_and_yiq_yuv_match_tf(case):
    got = run(MORE[case](tf.constant(np.stack([IMG, IMG[::-1]]))))
    np.testing.assert_allclose(got, TF215_MORE[case], atol=1e-6, rtol=0)
    if case == "sobel":
        assert got.shape == (2, 2, 3, 3, 2)


def test_static_shapes():
    assert tf.image.resize_images(SMALL, [5, 7]).shape.as_list() == [1, 5, 7, 1]
    assert tf.image.resize_images(SMALL[0], [5, 7]).shape.as_list() == [5, 7, 1]
    assert tf.image.resize_images(SMALL, [3, 4]).dtype == tf.float32
    x = tf.placeholder(tf.uint8, [None, None, None, 3])
    assert tf.image.resize_bilinear(x, [4, 4]).shape.as_list() == [None, 4, 4, 3]
    assert tf.image.resize_nearest_neighbor(x, [4, 4]).dtype == tf.uint8
    assert tf.image.flip_left_right(x).shape.as_list() == [None, None, None, 3]
    assert tf.image.pad_to_bounding_box(SMALL, 1, 1, 6, 6).shape.as_list() == [1, 6, 6, 1]
    assert tf.image.crop_to_bounding_box(SMALL, 1, 1, 2, 2).shape.as_list() == [1, 2, 2, 1]
    assert tf.image.rgb_to_grayscale(IMG).shape.as_list() == [2, 3, 1]
    assert tf.image.resize_images(SMALL, [3, 4]) is not None
    same = tf.constant(SMALL)
    assert tf.image.resize_images(same, [3, 4]) is same        # same size: no resize (as TF)
    assert tf.image.transpose is tf.image.transpose_image
    assert tf.image.resize is tf.image.resize_images
    assert tf.image.random_crop is tf.random_crop
    assert tf.io.decode_png is tf.image.decode_png


def test_dynamic_crop_and_pad_follow_the_fed_shape():
    x = tf.placeholder(tf.float32, [None, None, 1])
    y = tf.image.resize_image_with_crop_or_pad(x, 2, 7)
    np.testing.assert_array_equal(run(y, {x: SMALL[0]}), TF215["crop_or_pad_2"][0])


def test_flips_of_unknown_rank_pick_the_axis_at_run_time():
    # TF decides with a cond on tf.rank; the sandbox reverses axis rank - 2 (or rank - 3).
    x = tf.placeholder(tf.float32)
    v = np.arange(24, dtype=np.float32).reshape(2, 3, 4, 1)
    lr, ud = tf.image.flip_left_right(x), tf.image.flip_up_down(x)
    w = np.arange(24, dtype=np.float32).reshape(2, 3, 4, 1)
    g = tf.gradients(tf.reduce_sum(lr * w), x)[0]
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(lr, {x: v}), v[:, :, ::-1])
        np.testing.assert_array_equal(sess.run(lr, {x: v[0]}), v[0, :, ::-1])
        np.testing.assert_array_equal(sess.run(ud, {x: v}), v[:, ::-1])
        np.testing.assert_array_equal(sess.run(ud, {x: v[0]}), v[0, ::-1])
        np.testing.assert_array_equal(sess.run(g, {x: v}), w[:, :, ::-1])


def _run_three(make):
    tf.reset_default_graph()
    tf.set_random_seed(3)
    t = make()
    with tf.Session() as sess:
        return [sess.run(t) for _ in range(3)]


RANDOM = {
    "flip_lr": lambda: tf.image.random_flip_left_right(IMG, seed=5),
    "flip_ud_b": lambda: tf.image.random_flip_up_down(
        np.stack([IMG, IMG[::-1] * 0.5, IMG * 0.3, IMG[:, ::-1]]), seed=7),
    "bright": lambda: tf.image.random_brightness(IMG, 0.2, seed=1),
    "contrast": lambda: tf.image.random_contrast(IMG, 0.5, 1.5, seed=2),
    "sat": lambda: tf.image.random_saturation(IMG, 0.5, 1.5, seed=3),
    "hue": lambda: tf.image.random_hue(IMG, 0.3, seed=4),
}


@pytest.mark.parametrize("case", sorted(RANDOM))
def test_random_adjustments_draw_tfs_numbers(case):
    # tf.set_random_seed(3), the op seed given: the three runs TF 2.15 gives
    np.testing.assert_allclose(_run_three(RANDOM[case]), TF215_RANDOM[case], atol=1e-6, rtol=0)


def test_random_flip_of_a_batch_flips_images_independently():
    runs = np.asarray(TF215_RANDOM["flip_ud_b"])
    flipped = [[np.allclose(r[i], b[::-1], atol=1e-6) for i, b in enumerate(
        np.stack([IMG, IMG[::-1] * 0.5, IMG * 0.3, IMG[:, ::-1]]))] for r in runs]
    assert any(len(set(f)) == 2 for f in flipped)


GRADS = {
    "bil": (lambda x: tf.image.resize_bilinear(x, [5, 7]), SMALL),
    "bil_ac": (lambda x: tf.image.resize_bilinear(x, [2, 3], align_corners=True), SMALL),
    "bil_hp": (lambda x: tf.image.resize_bilinear(x, [5, 7], half_pixel_centers=True), SMALL),
    "nn": (lambda x: tf.image.resize_nearest_neighbor(x, [5, 3]), SMALL),
    "nn_ac": (lambda x: tf.image.resize_nearest_neighbor(x, [2, 7], align_corners=True), SMALL),
    "cub": (lambda x: tf.image.resize_bicubic(x, [5, 7]), SMALL),
    "flip": (tf.image.flip_left_right, IMG),
    "rot": (lambda x: tf.image.rot90(x, 1), IMG),
    "crop": (lambda x: tf.image.crop_to_bounding_box(x, 1, 1, 2, 2), SMALL),
    "pad": (lambda x: tf.image.pad_to_bounding_box(x, 1, 2, 4, 7), SMALL),
    "bright": (lambda x: tf.image.adjust_brightness(x, 0.3), IMG),
    "std": (tf.image.per_image_standardization, IMG),
}


@pytest.mark.parametrize("case", sorted(GRADS))
def test_gradients_match_tf(case):
    # d/dx sum(f(x) * w), w = linspace(-1, 2) shaped like f(x)
    make, value = GRADS[case]
    tf.reset_default_graph()
    x = tf.constant(value)
    y = make(x)
    shape = y.shape.as_list()
    w = np.linspace(-1, 2, int(np.prod(shape)), dtype=np.float32).reshape(shape)
    g = tf.gradients(tf.reduce_sum(y * w), x)[0]
    np.testing.assert_allclose(run(g), TF215_GRADS[case], atol=3e-6, rtol=0)


def test_adjust_contrast_has_a_gradient_tf_lacks():
    # TF's AdjustContrastv2 has no gradient; the sandbox builds adjust_contrast from math ops.
    x = tf.constant(IMG)
    g = tf.gradients(tf.reduce_sum(tf.image.adjust_contrast(x, 1.7) * IMG), x)[0]
    mean = IMG.mean(axis=(0, 1))
    np.testing.assert_allclose(run(g), 1.7 * IMG + (1 - 1.7) * mean, atol=1e-6)


def test_resize_area_has_no_gradient_as_in_tf():
    x = tf.constant(SMALL)
    with pytest.raises(LookupError, match="ResizeArea"):
        tf.gradients(tf.image.resize_area(x, [2, 2]), x)


def test_crop_and_resize_and_its_image_gradient_match_tf():
    img = (np.arange(24, dtype=np.float32).reshape(2, 3, 4, 1) ** 1.3).round(2)
    boxes = np.array([[0, 0, 1, 1], [0.1, 0.2, 0.7, 0.9], [-0.2, 0.5, 0.6, 1.3],
                      [0.9, 0.8, 0.1, 0.3]], np.float32)     # flipped, partly outside ...
    x = tf.constant(img)
    w = np.linspace(-1, 1, 24, dtype=np.float32).reshape(4, 2, 3, 1)
    for method in ("bilinear", "nearest"):
        y = tf.image.crop_and_resize(x, boxes, [0, 1, 1, 0], [2, 3], method=method,
                                     extrapolation_value=-1.0)
        assert y.shape.as_list() == [4, 2, 3, 1] and y.dtype == tf.float32
        g = tf.gradients(tf.reduce_sum(y * w), x)[0]
        values, grad = run([y, g])
        want_values, want_grad = TF215_CROP_AND_RESIZE[method]
        np.testing.assert_allclose(values[..., 0], want_values, atol=1e-4, rtol=0)
        np.testing.assert_allclose(grad[..., 0], want_grad, atol=2e-6, rtol=0)


X2 = np.zeros((3, 4), np.float32)
X5 = np.zeros((1, 1, 3, 4, 3), np.float32)
X3 = np.zeros((3, 4, 2), np.float32)
ERRORS = [   # what TF 2.15 raises when the graph is built
    (lambda: tf.image.flip_left_right(X2), "must be at least three-dimensional"),
    (lambda: tf.image.flip_up_down(X5), "must have either 3 or 4 dimensions"),
    (lambda: tf.image.transpose_image(X2), "must be at least three-dimensional"),
    (lambda: tf.image.rot90(X2), "must be at least three-dimensional"),
    (lambda: tf.image.per_image_standardization(X2), "must be at least three-dimensional"),
    (lambda: tf.image.resize_images(X2, [2, 2]), "'images' must have either 3 or 4"),
    (lambda: tf.image.resize_images(X5, [2, 2]), "'images' must have either 3 or 4"),
    (lambda: tf.image.resize_bilinear(X3, [2, 2]), "Shape must be rank 4 but is rank 3"),
    (lambda: tf.image.crop_to_bounding_box(X3, 0, 2, 2, 3), r"width must be >= target \+ offset"),
    (lambda: tf.image.crop_to_bounding_box(X3, -1, 0, 2, 3), "offset_height must be >= 0"),
    (lambda: tf.image.pad_to_bounding_box(X3, 0, 2, 2, 5), "width must be <= target - offset"),
    (lambda: tf.image.rgb_to_hsv(X3), "Dimension must be 3 but is 2"),
    (lambda: tf.image.random_hue(X3, 0.6), "max_delta must be <= 0.5"),
    (lambda: tf.image.random_contrast(X3, 1.0, 0.5), "upper must be > lower"),
    (lambda: tf.image.central_crop(X3, 0.0), r"central_fraction must be within \(0, 1\]"),
    (lambda: tf.image.grayscale_to_rgb(X3), "Last dimension of a grayscale image"),
    (lambda: tf.image.total_variation(X2), "must be either 3 or 4-dimensional"),
    (lambda: tf.image.image_gradients(X3), "image_gradients expects a 4D tensor"),
    (lambda: tf.image.adjust_gamma(X3, -1.0), "Gamma should be a non-negative"),
]


@pytest.mark.parametrize("i", range(len(ERRORS)))
def test_errors_match_tf(i):
    make, message = ERRORS[i]
    with pytest.raises(ValueError, match=message):
        make()


def test_run_time_errors():
    x = tf.placeholder(tf.float32)
    with pytest.raises(errors.InvalidArgumentError, match="input must have 3 channels"):
        run(tf.image.rgb_to_hsv(x), {x: X3})
    with pytest.raises(errors.InvalidArgumentError, match="must be 4-dimensional"):
        run(tf.image.resize_bilinear(x, [2, 2]), {x: X3})


# -- TF 2.15.1's numbers (tf.compat.v1, graph mode), printed by TF for the cases above --

TF215 = {'flip_lr': [[[0.4, 0.4, 0.4], [0.8, 0.2, 0.3], [0.1, 0.5, 0.9]],
             [[0.3, 0.9, 0.6], [0.6, 0.7, 0.1], [0.0, 1.0, 0.5]]],
 'flip_ud_b': [[[[0.0, 1.0, 0.5], [0.6, 0.7, 0.1], [0.3, 0.9, 0.6]],
                [[0.1, 0.5, 0.9], [0.8, 0.2, 0.3], [0.4, 0.4, 0.4]]],
               [[[0.05, 0.25, 0.45], [0.4, 0.1, 0.15], [0.2, 0.2, 0.2]],
                [[0.0, 0.5, 0.25], [0.3, 0.35, 0.05], [0.15, 0.45, 0.3]]]],
 'transpose': [[[0.1, 0.5, 0.9], [0.0, 1.0, 0.5]], [[0.8, 0.2, 0.3], [0.6, 0.7, 0.1]],
               [[0.4, 0.4, 0.4], [0.3, 0.9, 0.6]]],
 'rot90_1': [[[0.4, 0.4, 0.4], [0.3, 0.9, 0.6]], [[0.8, 0.2, 0.3], [0.6, 0.7, 0.1]],
             [[0.1, 0.5, 0.9], [0.0, 1.0, 0.5]]],
 'rot90_3b': [[[[0.0, 1.0, 0.5], [0.1, 0.5, 0.9]], [[0.6, 0.7, 0.1], [0.8, 0.2, 0.3]],
               [[0.3, 0.9, 0.6], [0.4, 0.4, 0.4]]],
              [[[0.05, 0.25, 0.45], [0.0, 0.5, 0.25]],
               [[0.4, 0.1, 0.15], [0.3, 0.35, 0.05]],
               [[0.2, 0.2, 0.2], [0.15, 0.45, 0.3]]]],
 'rot90_t': [[[0.3, 0.9, 0.6], [0.6, 0.7, 0.1], [0.0, 1.0, 0.5]],
             [[0.4, 0.4, 0.4], [0.8, 0.2, 0.3], [0.1, 0.5, 0.9]]],
 'std': [[[-1.334595, 0.058026, 1.450647], [1.102492, -0.98644, -0.638285],
          [-0.290129, -0.290129, -0.290129]],
         [[-1.682751, 1.798802, 0.058026], [0.406181, 0.754336, -1.334595],
          [-0.638285, 1.450647, 0.406181]]],
 'std_u8': [[[-1.337913, 0.054609, 1.44713], [1.105826, -0.982956, -0.641652],
             [-0.286696, -0.286696, -0.286696]],
            [[-1.679217, 1.802086, 0.054609], [0.409565, 0.750869, -1.337913],
             [-0.641652, 1.44713, 0.409565]]],
 'resize_bil_False_5x7': [[[[0.0], [0.571429], [1.142857], [1.714286], [2.285714],
                            [2.857143], [3.0]],
                           [[2.4], [2.971429], [3.542857], [4.114286], [4.685714],
                            [5.257143], [5.4]],
                           [[4.8], [5.371429], [5.942857], [6.514286], [7.085714],
                            [7.657143], [7.8]],
                           [[7.2], [7.771429], [8.342857], [8.914286], [9.485714],
                            [10.057144], [10.200001]],
                           [[8.0], [8.571428], [9.142858], [9.714286], [10.285714],
                            [10.857143], [11.0]]]],
 'resize_bil_False_2x3': [[[[0.0], [1.333333], [2.666667]],
                           [[6.0], [7.333333], [8.666667]]]],
 'resize_bil_True_5x7': [[[[0.0], [0.5], [1.0], [1.5], [2.0], [2.5], [3.0]],
                          [[2.0], [2.5], [3.0], [3.5], [4.0], [4.5], [5.0]],
                          [[4.0], [4.5], [5.0], [5.5], [6.0], [6.5], [7.0]],
                          [[6.0], [6.5], [7.0], [7.5], [8.0], [8.5], [9.0]],
                          [[8.0], [8.5], [9.0], [9.5], [10.0], [10.5], [11.0]]]],
 'resize_bil_True_2x3': [[[[0.0], [1.5], [3.0]], [[8.0], [9.5], [11.0]]]],
 'resize_nn_False_5x7': [[[[0.0], [0.0], [1.0], [1.0], [2.0], [2.0], [3.0]],
                          [[0.0], [0.0], [1.0], [1.0], [2.0], [2.0], [3.0]],
                          [[4.0], [4.0], [5.0], [5.0], [6.0], [6.0], [7.0]],
                          [[4.0], [4.0], [5.0], [5.0], [6.0], [6.0], [7.0]],
                          [[8.0], [8.0], [9.0], [9.0], [10.0], [10.0], [11.0]]]],
 'resize_nn_False_2x3': [[[[0.0], [1.0], [2.0]], [[4.0], [5.0], [6.0]]]],
 'resize_nn_True_5x7': [[[[0.0], [1.0], [1.0], [2.0], [2.0], [3.0], [3.0]],
                         [[4.0], [5.0], [5.0], [6.0], [6.0], [7.0], [7.0]],
                         [[4.0], [5.0], [5.0], [6.0], [6.0], [7.0], [7.0]],
                         [[8.0], [9.0], [9.0], [10.0], [10.0], [11.0], [11.0]],
                         [[8.0], [9.0], [9.0], [10.0], [10.0], [11.0], [11.0]]]],
 'resize_nn_True_2x3': [[[[0.0], [2.0], [3.0]], [[8.0], [10.0], [11.0]]]],
 'resize_cub_False_5x7': [[[[0.0], [0.47508], [1.186273], [1.670182], [2.373652],
                            [2.892342], [3.104939]],
                           [[2.014406], [2.489486], [3.200679], [3.684589], [4.388058],
                            [4.906748], [5.119345]],
                           [[5.088961], [5.564041], [6.275233], [6.759142], [7.462612],
                            [7.981304], [8.193901]],
                           [[7.391391], [7.86647], [8.577662], [9.061572], [9.765041],
                            [10.283731], [10.496329]],
                           [[8.431859], [8.906939], [9.618131], [10.10204], [10.80551],
                            [11.324201], [11.536798]]]],
 'resize_cub_False_2x3': [[[[0.0], [1.370099], [2.741012]],
                           [[6.375], [7.745099], [9.116013]]]],
 'resize_cub_True_5x7': [[[[0.0], [0.40625], [1.0], [1.5], [2.0], [2.59375], [3.0]],
                          [[1.625], [2.03125], [2.625], [3.125], [3.625], [4.21875],
                           [4.625]],
                          [[4.0], [4.40625], [5.0], [5.5], [6.0], [6.59375], [7.0]],
                          [[6.375], [6.78125], [7.375], [7.875], [8.375], [8.96875],
                           [9.375]],
                          [[8.0], [8.40625], [9.0], [9.5], [10.0], [10.59375], [11.0]]]],
 'resize_cub_True_2x3': [[[[0.0], [1.5], [3.0]], [[8.0], [9.5], [11.0]]]],
 'resize_area_False_5x7': [[[[0.0], [0.25], [1.0], [1.5], [2.0], [2.750001], [2.999998]],
                            [[1.333333], [1.583334], [2.333333], [2.833333], [3.333333],
                             [4.083335], [4.333331]],
                            [[4.0], [4.25], [5.0], [5.499999], [6.0], [6.750002],
                             [6.999996]],
                            [[6.666667], [6.916667], [7.666667], [8.166666], [8.666666],
                             [9.41667], [9.666661]],
                            [[7.999998], [8.249998], [8.999998], [9.499997], [9.999997],
                             [10.750001], [10.999991]]]],
 'resize_area_False_2x3': [[[[1.583333], [2.833333], [4.083333]],
                            [[6.916667], [8.166667], [9.416666]]]],
 'resize_area_True_5x7': [[[[0.0], [0.0], [1.0], [1.0], [2.0], [2.0], [3.0]],
                           [[0.0], [0.0], [1.0], [1.0], [2.0], [2.0], [3.0]],
                           [[4.0], [4.0], [5.0], [5.0], [6.0], [6.0], [7.0]],
                           [[4.0], [4.0], [5.0], [5.0], [6.0], [6.0], [7.0]],
                           [[8.0], [8.0], [9.0], [9.0], [10.0], [10.0], [11.0]]]],
 'resize_area_True_2x3': [[[[2.333333], [3.666667], [5.0]],
                           [[8.333334], [9.666667], [11.0]]]],
 'resize_bil_hp': [[[[0.0], [0.357143], [0.928571], [1.5], [2.071429], [2.642857], [3.0]],
                    [[1.6], [1.957143], [2.528572], [3.1], [3.671429], [4.242857], [4.6]],
                    [[4.0], [4.357143], [4.928572], [5.5], [6.071429], [6.642858], [7.0]],
                    [[6.400001], [6.757144], [7.328572], [7.900001], [8.471429], [9.042858],
                     [9.400001]],
                    [[8.0], [8.357143], [8.928572], [9.5], [10.071428], [10.642858],
                     [11.0]]]],
 'resize_nn_hp': [[[[0.0], [0.0], [1.0], [2.0], [2.0], [3.0], [3.0]],
                   [[0.0], [0.0], [1.0], [2.0], [2.0], [3.0], [3.0]],
                   [[4.0], [4.0], [5.0], [6.0], [6.0], [7.0], [7.0]],
                   [[8.0], [8.0], [9.0], [10.0], [10.0], [11.0], [11.0]],
                   [[8.0], [8.0], [9.0], [10.0], [10.0], [11.0], [11.0]]]],
 'resize_cub_hp': [[[[-0.381319], [-0.037962], [0.622068], [1.197898], [1.773727],
                     [2.433758], [2.777114]],
                    [[1.146236], [1.489593], [2.149623], [2.725453], [3.301282], [3.961313],
                     [4.304668]],
                    [[3.920784], [4.26414], [4.92417], [5.5], [6.07583], [6.73586],
                     [7.079216]],
                    [[6.695331], [7.038687], [7.698718], [8.274548], [8.850376], [9.510408],
                     [9.853764]],
                    [[8.222885], [8.566242], [9.226273], [9.8021], [10.377931], [11.037962],
                     [11.381318]]]],
 'resize_u8_nn': [[[25, 127, 229], [25, 127, 229], [204, 51, 76], [102, 102, 102]],
                  [[25, 127, 229], [25, 127, 229], [204, 51, 76], [102, 102, 102]],
                  [[0, 255, 127], [0, 255, 127], [153, 178, 25], [76, 229, 153]]],
 'resize_u8_bil': [[[25.0, 127.0, 229.0], [159.25, 70.0, 114.25], [153.0, 76.5, 89.0],
                    [102.0, 102.0, 102.0]],
                   [[8.333332, 212.333344, 161.0], [129.583328, 154.833344, 71.75],
                    [127.333328, 161.166672, 89.0], [84.666664, 186.666672, 136.0]],
                   [[0.0, 255.0, 127.0], [114.75, 197.25, 50.5], [114.5, 203.5, 89.0],
                    [76.0, 229.0, 153.0]]],
 'resize_aspect': [[[[0.0], [0.666667], [1.333333], [2.0], [2.666667], [3.0]],
                    [[3.0], [3.666667], [4.333333], [5.0], [5.666667], [6.0]],
                    [[6.0], [6.666667], [7.333333], [8.0], [8.666667], [9.0]],
                    [[8.0], [8.666667], [9.333333], [10.0], [10.666667], [11.0]]]],
 'crop_or_pad_1': [[[0.0], [0.0]], [[1.0], [2.0]], [[5.0], [6.0]], [[9.0], [10.0]],
                   [[0.0], [0.0]]],
 'crop_or_pad_2': [[[[0.0], [0.0], [1.0], [2.0], [3.0], [0.0], [0.0]],
                    [[0.0], [4.0], [5.0], [6.0], [7.0], [0.0], [0.0]]]],
 'with_pad': [[[0.0], [1.0], [2.0], [3.0]], [[4.0], [5.0], [6.0], [7.0]],
              [[8.0], [9.0], [10.0], [11.0]], [[0.0], [0.0], [0.0], [0.0]]],
 'central': [[[7.0], [8.0], [9.0], [10.0]], [[13.0], [14.0], [15.0], [16.0]],
             [[19.0], [20.0], [21.0], [22.0]]],
 'crop_bb': [[[[5.0], [6.0]], [[9.0], [10.0]]]],
 'pad_bb': [[[0.0], [0.0], [0.0], [0.0], [0.0], [0.0], [0.0]],
            [[0.0], [0.0], [0.0], [1.0], [2.0], [3.0], [0.0]],
            [[0.0], [0.0], [4.0], [5.0], [6.0], [7.0], [0.0]],
            [[0.0], [0.0], [8.0], [9.0], [10.0], [11.0], [0.0]]],
 'bright': [[[0.4, 0.8, 1.2], [1.1, 0.5, 0.6], [0.7, 0.7, 0.7]],
            [[0.3, 1.3, 0.8], [0.9, 1.0, 0.4], [0.6, 1.2, 0.9]]],
 'bright_u8': [[[101, 203, 255], [255, 127, 152], [178, 178, 178]],
               [[76, 255, 203], [229, 254, 101], [152, 255, 229]]],
 'contrast': [[[-0.086667, 0.418333, 1.203333], [1.103333, -0.091667, 0.183333],
               [0.423333, 0.248333, 0.353333]],
              [[-0.256667, 1.268333, 0.523333], [0.763333, 0.758333, -0.156667],
               [0.253333, 1.098333, 0.693333]]],
 'contrast_u8': [[[66, 145, 163], [137, 114, 101], [96, 135, 112]],
                 [[56, 196, 122], [117, 165, 81], [86, 186, 132]]],
 'sat': [[[0.42, 0.66, 0.9], [0.8, 0.44, 0.5], [0.4, 0.4, 0.4]],
         [[0.4, 1.0, 0.7], [0.64, 0.7, 0.34], [0.54, 0.9, 0.72]]],
 'sat_u8': [[[0, 114, 229], [204, 0, 33], [102, 102, 102]],
            [[0, 255, 127], [149, 178, 0], [0, 229, 115]]],
 'hue': [[[0.66, 0.1, 0.9], [0.78, 0.8, 0.2], [0.4, 0.4, 0.4]],
         [[0.0, 0.3, 1.0], [0.1, 0.7, 0.32], [0.3, 0.48, 0.9]]],
 'hue_neg': [[[[0.9, 0.74, 0.1], [0.2, 0.72, 0.8], [0.4, 0.4, 0.4]],
              [[1.0, 0.0, 0.2], [0.38, 0.1, 0.7], [0.9, 0.3, 0.42]]],
             [[[0.5, 0.0, 0.1], [0.19, 0.05, 0.35], [0.45, 0.15, 0.21]],
              [[0.45, 0.37, 0.05], [0.1, 0.36, 0.4], [0.2, 0.2, 0.2]]]],
 'hue_u8': [[[229, 25, 131], [79, 204, 51], [102, 102, 102]],
            [[122, 0, 255], [25, 156, 178], [150, 76, 229]]],
 'rgb2hsv': [[[0.583333, 0.888889, 0.9], [0.972222, 0.75, 0.8], [0.0, 0.0, 0.4]],
             [[0.416667, 1.0, 1.0], [0.194444, 0.857143, 0.7], [0.416667, 0.666667, 0.9]]],
 'hsv2rgb': [[[0.9, 0.72, 0.45], [0.288, 0.24, 0.3], [0.24, 0.4, 0.304]],
             [[0.5, 0.0, 0.0], [0.03, 0.058, 0.1], [0.168, 0.6, 0.06]]],
 'gray': [[[0.42599], [0.39072], [0.39996]], [[0.644], [0.60164], [0.68637]]],
 'gray_u8': [[[108], [99], [102]], [[164], [153], [174]]],
 'gray2rgb': [[[[0.0, 0.0, 0.0], [1.0, 1.0, 1.0], [2.0, 2.0, 2.0], [3.0, 3.0, 3.0]],
               [[4.0, 4.0, 4.0], [5.0, 5.0, 5.0], [6.0, 6.0, 6.0], [7.0, 7.0, 7.0]],
               [[8.0, 8.0, 8.0], [9.0, 9.0, 9.0], [10.0, 10.0, 10.0], [11.0, 11.0, 11.0]]]],
 'cvt_u8_f': [[[0.098039, 0.498039, 0.898039], [0.8, 0.2, 0.298039], [0.4, 0.4, 0.4]],
              [[0.0, 1.0, 0.498039], [0.6, 0.698039, 0.098039], [0.298039, 0.898039, 0.6]]],
 'cvt_f_u8': [[[5, 127, 250], [219, 35, 66], [97, 97, 97]],
              [[0, 255, 127], [158, 189, 5], [66, 250, 158]]],
 'cvt_f_u8_ns': [[[25, 127, 229], [204, 51, 76], [102, 102, 102]],
                 [[0, 255, 127], [153, 178, 25], [76, 229, 153]]],
 'cvt_u8_i32': [[[209715200, 1065353216, 1920991232], [1711276032, 427819008, 637534208],
                 [855638016, 855638016, 855638016]],
                [[0, 2139095040, 1065353216], [1283457024, 1493172224, 209715200],
                 [637534208, 1920991232, 1283457024]]],
 'cvt_i32_u8': [[[255, 2, 0]]],
 'cvt_u8_u16': [[[6400, 32512, 58624], [52224, 13056, 19456], [26112, 26112, 26112]],
                [[0, 65280, 32512], [39168, 45568, 6400], [19456, 58624, 39168]]],
 'gamma': [[[0.005679, 0.195874, 0.713799], [0.550859, 0.026092, 0.063666],
            [0.119888, 0.119888, 0.119888]],
           [[0.0, 0.9, 0.195874], [0.292533, 0.410637, 0.005679],
            [0.063666, 0.713799, 0.292533]]],
 'gamma_u8': [[[80, 180, 242], [228, 114, 139], [161, 161, 161]],
              [[0, 255, 180], [197, 213, 80], [139, 242, 197]]],
 'tv': 7.3,
 'tv_b': [7.3, 3.65],
 'grads': ([[[[-0.1, 0.5, -0.4], [-0.2, 0.5, -0.2], [-0.1, 0.5, 0.2]],
             [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]],
            [[[0.05, -0.25, 0.2], [0.1, -0.25, 0.1], [0.05, -0.25, -0.1]],
             [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]]],
           [[[[0.7, -0.3, -0.6], [-0.4, 0.2, 0.1], [0.0, 0.0, 0.0]],
             [[0.6, -0.3, -0.4], [-0.3, 0.2, 0.5], [0.0, 0.0, 0.0]]],
            [[[0.3, -0.15, -0.2], [-0.15, 0.1, 0.25], [0.0, 0.0, 0.0]],
             [[0.35, -0.15, -0.3], [-0.2, 0.1, 0.05], [0.0, 0.0, 0.0]]]]),
 'psnr': 9.330532,
 'psnr_u8': 9.33857,
 'nms': [3, 0, 5],
 'nms_st': [3, 0],
 'draw': [[[[1.0, 1.0, 0.0], [1.0, 1.0, 0.0], [1.0, 0.0, 0.0], [1.0, 0.0, 0.0],
            [1.0, 0.0, 0.0], [1.0, 0.0, 0.0]],
           [[1.0, 1.0, 0.0], [0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0],
            [0.0, 0.0, 1.0], [0.0, 0.0, 1.0]],
           [[1.0, 1.0, 0.0], [1.0, 1.0, 0.0], [1.0, 0.0, 0.0], [1.0, 0.0, 0.0],
            [1.0, 0.0, 0.0], [1.0, 0.0, 0.0]],
           [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, 0.0, 0.0],
            [0.0, 0.0, 0.0], [0.0, 0.0, 1.0]],
           [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, 0.0, 1.0],
            [0.0, 0.0, 1.0], [0.0, 0.0, 1.0]]]],
 'draw_gray': [[[[1.0], [1.0], [1.0], [1.0]], [[1.0], [0.5], [0.5], [1.0]],
                [[1.0], [0.5], [0.5], [1.0]], [[1.0], [1.0], [1.0], [1.0]]]],
 'ssim': 0.9611666202545166,
 'ssim_u8': 0.9610996842384338}
TF215_DTYPES = {'flip_lr': 'float32',
 'flip_ud_b': 'float32',
 'transpose': 'float32',
 'rot90_1': 'float32',
 'rot90_3b': 'float32',
 'rot90_t': 'float32',
 'std': 'float32',
 'std_u8': 'float32',
 'resize_bil_False_5x7': 'float32',
 'resize_bil_False_2x3': 'float32',
 'resize_bil_True_5x7': 'float32',
 'resize_bil_True_2x3': 'float32',
 'resize_nn_False_5x7': 'float32',
 'resize_nn_False_2x3': 'float32',
 'resize_nn_True_5x7': 'float32',
 'resize_nn_True_2x3': 'float32',
 'resize_cub_False_5x7': 'float32',
 'resize_cub_False_2x3': 'float32',
 'resize_cub_True_5x7': 'float32',
 'resize_cub_True_2x3': 'float32',
 'resize_area_False_5x7': 'float32',
 'resize_area_False_2x3': 'float32',
 'resize_area_True_5x7': 'float32',
 'resize_area_True_2x3': 'float32',
 'resize_bil_hp': 'float32',
 'resize_nn_hp': 'float32',
 'resize_cub_hp': 'float32',
 'resize_u8_nn': 'uint8',
 'resize_u8_bil': 'float32',
 'resize_aspect': 'float32',
 'crop_or_pad_1': 'float32',
 'crop_or_pad_2': 'float32',
 'with_pad': 'float32',
 'central': 'float32',
 'crop_bb': 'float32',
 'pad_bb': 'float32',
 'bright': 'float32',
 'bright_u8': 'uint8',
 'contrast': 'float32',
 'contrast_u8': 'uint8',
 'sat': 'float32',
 'sat_u8': 'uint8',
 'hue': 'float32',
 'hue_neg': 'float32',
 'hue_u8': 'uint8',
 'rgb2hsv': 'float32',
 'hsv2rgb': 'float32',
 'gray': 'float32',
 'gray_u8': 'uint8',
 'gray2rgb': 'float32',
 'cvt_u8_f': 'float32',
 'cvt_f_u8': 'uint8',
 'cvt_f_u8_ns': 'uint8',
 'cvt_u8_i32': 'int32',
 'cvt_i32_u8': 'uint8',
 'cvt_u8_u16': 'uint16',
 'gamma': 'float32',
 'gamma_u8': 'uint8',
 'tv': 'float32',
 'tv_b': 'float32',
 'grads': 'float32',
 'psnr': 'float32',
 'psnr_u8': 'float32',
 'nms': 'int32',
 'nms_st': 'int32',
 'draw': 'float32',
 'draw_gray': 'float32'}
TF215_RANDOM = {'flip_lr': [[[[0.4, 0.4, 0.4], [0.8, 0.2, 0.3], [0.1, 0.5, 0.9]],
              [[0.3, 0.9, 0.6], [0.6, 0.7, 0.1], [0.0, 1.0, 0.5]]],
             [[[0.1, 0.5, 0.9], [0.8, 0.2, 0.3], [0.4, 0.4, 0.4]],
              [[0.0, 1.0, 0.5], [0.6, 0.7, 0.1], [0.3, 0.9, 0.6]]],
             [[[0.1, 0.5, 0.9], [0.8, 0.2, 0.3], [0.4, 0.4, 0.4]],
              [[0.0, 1.0, 0.5], [0.6, 0.7, 0.1], [0.3, 0.9, 0.6]]]],
 'flip_ud_b': [[[[[0.0, 1.0, 0.5], [0.6, 0.7, 0.1], [0.3, 0.9, 0.6]],
                 [[0.1, 0.5, 0.9], [0.8, 0.2, 0.3], [0.4, 0.4, 0.4]]],
                [[[0.05, 0.25, 0.45], [0.4, 0.1, 0.15], [0.2, 0.2, 0.2]],
                 [[0.0, 0.5, 0.25], [0.3, 0.35, 0.05], [0.15, 0.45, 0.3]]],
                [[[0.03, 0.15, 0.27], [0.24, 0.06, 0.09], [0.12, 0.12, 0.12]],
                 [[0.0, 0.3, 0.15], [0.18, 0.21, 0.03], [0.09, 0.27, 0.18]]],
                [[[0.4, 0.4, 0.4], [0.8, 0.2, 0.3], [0.1, 0.5, 0.9]],
                 [[0.3, 0.9, 0.6], [0.6, 0.7, 0.1], [0.0, 1.0, 0.5]]]],
               [[[[0.1, 0.5, 0.9], [0.8, 0.2, 0.3], [0.4, 0.4, 0.4]],
                 [[0.0, 1.0, 0.5], [0.6, 0.7, 0.1], [0.3, 0.9, 0.6]]],
                [[[0.0, 0.5, 0.25], [0.3, 0.35, 0.05], [0.15, 0.45, 0.3]],
                 [[0.05, 0.25, 0.45], [0.4, 0.1, 0.15], [0.2, 0.2, 0.2]]],
                [[[0.03, 0.15, 0.27], [0.24, 0.06, 0.09], [0.12, 0.12, 0.12]],
                 [[0.0, 0.3, 0.15], [0.18, 0.21, 0.03], [0.09, 0.27, 0.18]]],
                [[[0.4, 0.4, 0.4], [0.8, 0.2, 0.3], [0.1, 0.5, 0.9]],
                 [[0.3, 0.9, 0.6], [0.6, 0.7, 0.1], [0.0, 1.0, 0.5]]]],
               [[[[0.0, 1.0, 0.5], [0.6, 0.7, 0.1], [0.3, 0.9, 0.6]],
                 [[0.1, 0.5, 0.9], [0.8, 0.2, 0.3], [0.4, 0.4, 0.4]]],
                [[[0.05, 0.25, 0.45], [0.4, 0.1, 0.15], [0.2, 0.2, 0.2]],
                 [[0.0, 0.5, 0.25], [0.3, 0.35, 0.05], [0.15, 0.45, 0.3]]],
                [[[0.0, 0.3, 0.15], [0.18, 0.21, 0.03], [0.09, 0.27, 0.18]],
                 [[0.03, 0.15, 0.27], [0.24, 0.06, 0.09], [0.12, 0.12, 0.12]]],
                [[[0.4, 0.4, 0.4], [0.8, 0.2, 0.3], [0.1, 0.5, 0.9]],
                 [[0.3, 0.9, 0.6], [0.6, 0.7, 0.1], [0.0, 1.0, 0.5]]]]],
 'bright': [[[[0.211228, 0.611228, 1.011228], [0.911228, 0.311228, 0.411228],
              [0.511228, 0.511228, 0.511228]],
             [[0.111228, 1.111228, 0.611228], [0.711228, 0.811228, 0.211228],
              [0.411228, 1.011228, 0.711228]]],
            [[[0.00282, 0.40282, 0.80282], [0.70282, 0.10282, 0.20282],
              [0.30282, 0.30282, 0.30282]],
             [[-0.09718, 0.90282, 0.40282], [0.50282, 0.60282, 0.00282],
              [0.20282, 0.80282, 0.50282]]],
            [[[0.139367, 0.539367, 0.939367], [0.839367, 0.239367, 0.339367],
              [0.439367, 0.439367, 0.439367]],
             [[0.039367, 1.039367, 0.539367], [0.639367, 0.739367, 0.139367],
              [0.339367, 0.939367, 0.639367]]]],
 'contrast': [[[[0.006404, 0.459052, 1.052093], [0.952093, 0.053757, 0.241503],
                [0.411699, 0.323954, 0.376601]],
               [[-0.128694, 1.134544, 0.511699], [0.681896, 0.729249, -0.028694],
                [0.276601, 0.999445, 0.646798]]],
              [[[0.128458, 0.51245, 0.853757], [0.753757, 0.244465, 0.317786],
                [0.396443, 0.423122, 0.407114]],
               [[0.039129, 0.959092, 0.496443], [0.5751, 0.691107, 0.139129],
                [0.307114, 0.869764, 0.585771]]],
              [[[0.046193, 0.47646, 0.987436], [0.887436, 0.115927, 0.266371],
                [0.406726, 0.356282, 0.386548]],
               [[-0.073984, 1.077347, 0.506726], [0.647081, 0.716815, 0.026016],
                [0.286548, 0.95717, 0.626903]]]],
 'sat': [[[[0.321451, 0.610725, 0.9], [0.8, 0.366088, 0.438407], [0.4, 0.4, 0.4]],
          [[0.276814, 1.0, 0.638407], [0.627681, 0.7, 0.266088],
           [0.466088, 0.9, 0.683044]]],
         [[[0.171164, 0.535582, 0.9], [0.8, 0.253373, 0.344478], [0.4, 0.4, 0.4]],
          [[0.088955, 1.0, 0.544478], [0.608896, 0.7, 0.153373],
           [0.353373, 0.9, 0.626687]]],
         [[[0.0, 0.45, 0.9], [0.8, 0.0, 0.133334], [0.4, 0.4, 0.4]],
          [[0.0, 1.0, 0.5], [0.583333, 0.7, 0.0], [0.000929, 0.9, 0.450464]]]],
 'hue': [[[[0.9, 0.1, 0.879638], [0.584729, 0.8, 0.2], [0.4, 0.4, 0.4]],
          [[0.025452, 0.0, 1.0], [0.1, 0.7, 0.515271], [0.315271, 0.3, 0.9]]],
         [[[0.462889, 0.1, 0.9], [0.8, 0.672167, 0.2], [0.4, 0.4, 0.4]],
          [[0.0, 0.546389, 1.0], [0.1, 0.7, 0.172167], [0.3, 0.627833, 0.9]]],
         [[[0.501366, 0.1, 0.9], [0.8, 0.701025, 0.2], [0.4, 0.4, 0.4]],
          [[0.0, 0.498292, 1.0], [0.1, 0.7, 0.201025], [0.3, 0.598975, 0.9]]]]}
TF215_GRADS = {'bil': [[[[-1.594118], [-1.588235], [-1.235294], [-1.058824]],
          [[0.245378], [0.665546], [1.068907], [1.890756]],
          [[3.218487], [4.32605], [4.830253], [6.731093]]]],
 'bil_ac': [[[[-1.0], [-0.2], [-0.2], [0.2]], [[0.0], [0.0], [0.0], [0.0]],
             [[0.8], [0.7], [0.7], [2.0]]]],
 'bil_hp': [[[[-1.996639], [-1.671009], [-1.207142], [-0.766387]],
             [[0.85084], [1.346218], [1.868067], [2.234874]],
             [[3.509244], [4.064286], [4.528151], [4.739497]]]],
 'nn': [[[[-1.357143], [-0.928571], [-0.5], [0.0]],
         [[1.214286], [1.642857], [2.071429], [0.0]],
         [[1.571429], [1.785714], [2.0], [0.0]]]],
 'nn_ac': [[[[-1.0], [-1.307692], [-0.384615], [0.538462]], [[0.0], [0.0], [0.0], [0.0]],
            [[0.615385], [1.923077], [2.846154], [3.769231]]]],
 'cub': [[[[-1.531481], [-1.840689], [-1.398171], [-1.220853]],
          [[-0.040492], [0.376462], [0.853159], [1.692889]],
          [[3.156385], [4.948808], [5.300247], [7.203736]]]],
 'flip': [[[0.058824, 0.235294, 0.411765], [-0.470588, -0.294118, -0.117647],
           [-1.0, -0.823529, -0.647059]],
          [[1.647059, 1.823529, 2.0], [1.117647, 1.294118, 1.470588],
           [0.588235, 0.764706, 0.941176]]],
 'rot': [[[1.117647, 1.294118, 1.470588], [0.058824, 0.235294, 0.411765],
          [-1.0, -0.823529, -0.647059]],
         [[1.647059, 1.823529, 2.0], [0.588235, 0.764706, 0.941176],
          [-0.470588, -0.294118, -0.117647]]],
 'crop': [[[[0.0], [0.0], [0.0], [0.0]], [[0.0], [-1.0], [0.0], [0.0]],
           [[0.0], [1.0], [2.0], [0.0]]]],
 'pad': [[[[0.0], [0.111111], [0.222222], [0.333333]],
          [[0.777778], [0.888889], [1.0], [1.111111]],
          [[1.555556], [1.666667], [1.777778], [1.888889]]]],
 'bright': [[[-1.0, -0.823529, -0.647059], [-0.470588, -0.294118, -0.117647],
             [0.058824, 0.235294, 0.411765]],
            [[0.588235, 0.764706, 0.941176], [1.117647, 1.294118, 1.470588],
             [1.647059, 1.823529, 2.0]]],
 'std': [[[-4.62759, -4.633796, -4.640002], [-3.870461, -2.325173, -1.86593],
          [-1.406688, -0.792296, -0.177905]],
         [[1.057085, 0.119982, 1.510121], [1.969363, 2.428606, 3.973894],
          [4.277987, 3.961482, 5.041322]]]}
TF215_CROP_AND_RESIZE = {'bilinear': ([[[0.0, 1.73, 4.17], [14.93, 18.675, 22.58]],
               [[29.2748, 32.2779, 35.3488], [43.5644, 46.8469, 50.1852]],
               [[-1.0, -1.0, -1.0], [43.84, 47.6046, -1.0]],
               [[19.038, 17.1481, 15.3016], [4.7516, 3.4613, 2.2992]]],
              [[[-0.92, 0.51913, 0.414783, -0.561739], [0.034783, 0.422609, 0.370435, 0.111304],
                [-0.68, 0.388696, 0.284348, -0.384348]],
               [[-0.153043, -0.33913, -0.276522, -0.170435],
                [-0.090435, -0.068696, 0.087826, 0.158261],
                [-0.034783, -0.04, 0.014783, 0.042609]]]),
 'nearest': ([[[0.0, 2.46, 4.17], [14.93, 19.95, 22.58]],
              [[28.06, 30.9, 33.8], [39.77, 42.84, 45.96]],
              [[-1.0, -1.0, -1.0], [42.84, 45.96, -1.0]],
              [[19.95, 19.95, 17.4], [2.46, 2.46, 1.0]]],
             [[[-1.0, 1.0, 0.826087, -0.826087], [0.0, 0.0, 0.0, 0.0],
               [-0.73913, 0.73913, 0.565217, -0.565217]],
              [[0.0, -0.478261, -0.391304, -0.304348], [0.0, -0.217391, 0.173913, 0.347826],
               [0.0, 0.0, 0.0, 0.0]]])}
TF215_MORE = {'sobel': [[[[[0.0, 0.0], [-0.0, 0.0], [-0.0, 0.0]], [[0.0, 1.2], [-0.0, -0.4], [0.0, -0.8]],
             [[0.0, 0.0], [-0.0, 0.0], [-0.0, 0.0]]],
            [[[0.0, 0.0], [-0.0, 0.0], [0.0, 0.0]], [[-0.0, 1.2], [0.0, -0.4], [0.0, -0.8]],
             [[-0.0, 0.0], [0.0, 0.0], [-0.0, 0.0]]]],
           [[[[0.0, 0.0], [-0.0, 0.0], [0.0, 0.0]], [[-0.0, 1.2], [0.0, -0.4], [0.0, -0.8]],
             [[-0.0, 0.0], [0.0, 0.0], [-0.0, 0.0]]],
            [[[0.0, 0.0], [-0.0, 0.0], [-0.0, 0.0]], [[0.0, 1.2], [-0.0, -0.4], [0.0, -0.8]],
             [[0.0, 0.0], [-0.0, 0.0], [-0.0, 0.0]]]]],
 'yiq': [[[[0.426, -0.366898, 0.039861], [0.3908, 0.325406, 0.158013], [0.4, -0.0, -1.5e-05]],
          [[0.644, -0.435229, -0.367136], [0.6017, 0.133216, -0.207895],
           [0.6864, -0.261137, -0.220293]]],
         [[[0.644, -0.435229, -0.367136], [0.6017, 0.133216, -0.207895],
           [0.6864, -0.261137, -0.220293]],
          [[0.426, -0.366898, 0.039861], [0.3908, 0.325406, 0.158013], [0.4, -0.0, -1.5e-05]]]],
 'yiq2': [[[[1.136735, -0.61849, 1.080437], [1.177445, 0.551436, 1.089921],
            [1.030724, 0.032313, 0.638996]],
           [[1.266399, -0.595615, -0.254625], [1.331273, 0.344871, -0.004295],
            [1.532883, -0.333134, 0.326472]]],
          [[[1.266399, -0.595615, -0.254625], [1.331273, 0.344871, -0.004295],
            [1.532883, -0.333134, 0.326472]],
           [[1.136735, -0.61849, 1.080437], [1.177445, 0.551436, 1.089921],
            [1.030724, 0.032313, 0.638996]]]],
 'yuv': [[[[0.426, 0.233261, -0.285994], [0.3908, -0.044684, 0.358984], [0.4, 0.0, 0.0]],
          [[0.644, -0.070864, -0.56497], [0.6017, -0.246892, -0.001491],
           [0.6864, -0.042518, -0.338982]]],
         [[[0.644, -0.070864, -0.56497], [0.6017, -0.246892, -0.001491],
           [0.6864, -0.042518, -0.338982]],
          [[0.426, 0.233261, -0.285994], [0.3908, -0.044684, 0.358984], [0.4, 0.0, 0.0]]]],
 'yuv2': [[[[1.125895, -0.619881, 1.116031], [1.141965, 0.546885, 1.206412],
            [0.855953, 0.009894, 1.212825]],
           [[0.569942, -0.684953, 2.032062], [0.713988, 0.265688, 2.022443],
            [0.98393, -0.403551, 2.128856]]],
          [[[0.569942, -0.684953, 2.032062], [0.713988, 0.265688, 2.022443],
            [0.98393, -0.403551, 2.128856]],
           [[1.125895, -0.619881, 1.116031], [1.141965, 0.546885, 1.206412],
            [0.855953, 0.009894, 1.212825]]]]}
