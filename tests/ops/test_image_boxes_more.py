"""Tests for sandbox/ops/bounding_box_ops.py (sample_distorted_bounding_box) and
sandbox/ops/nms_ops.py (non_max_suppression_with_scores / _padded / _overlaps,
combined_non_max_suppression). Every expected number was computed by TensorFlow 2.15.1
(tf.compat.v1 in graph mode) on the same inputs."""
import numpy as np
import pytest

import sandbox as tf
from sandbox.framework import errors


def run(fetches):
    with tf.Session() as sess:
        return sess.run(fetches)


# -- sample_distorted_bounding_box ---------------------------------------------------------------

def _runs(n, **kwargs):
    """n successive runs of one op in one session: [(begin, size, bbox), ...]."""
    with tf.Graph().as_default():
        op = tf.image.sample_distorted_bounding_box(**kwargs)
        with tf.Session() as sess:
            return [sess.run(op) for _ in range(n)]


def test_sample_distorted_bounding_box_draws_tfs_windows():
    # TF 2.15.1, three runs of one op: the same Philox words, so the same windows
    got = _runs(3, image_size=[100, 200, 3], bounding_boxes=[[[0.1, 0.2, 0.5, 0.6]]], seed=1)
    assert [(b.tolist(), s.tolist()) for b, s, _ in got] == [
        ([8, 48, 0], [83, 94, -1]), ([5, 104, 0], [60, 56, -1]), ([13, 34, 0], [74, 94, -1])]
    np.testing.assert_array_equal(got[0][2], np.float32([[[0.08, 0.24, 0.91, 0.71]]]))
    got = _runs(3, image_size=[37, 53, 1], seed=12345, seed2=99, min_object_covered=0.9,
                bounding_boxes=[[[0.0, 0.0, 1.0, 1.0], [0.3, 0.3, 0.4, 0.9]]],
                aspect_ratio_range=[0.5, 2.0], area_range=[0.1, 0.8])
    assert [(b.tolist(), s.tolist()) for b, s, _ in got] == [
        ([2, 18, 0], [34, 31, -1]), ([1, 12, 0], [20, 38, -1]), ([0, 6, 0], [36, 41, -1])]
    got = _runs(2, image_size=[480, 640, 3], bounding_boxes=np.zeros([1, 0, 4], np.float32),
                seed=4, use_image_if_no_bounding_boxes=True, area_range=[0.08, 1.0],
                aspect_ratio_range=[3 / 4, 4 / 3])
    assert [(b.tolist(), s.tolist()) for b, s, _ in got] == [
        ([185, 277, 0], [215, 262, -1]), ([6, 84, 0], [460, 425, -1])]


def test_sample_distorted_bounding_box_invariants():
    height, width = 120, 160
    box = np.float32([0.25, 0.3, 0.75, 0.6])        # pixels: y 30..90, x 48..96
    with tf.Graph().as_default():
        begin, size, bbox = tf.image.sample_distorted_bounding_box(
            tf.constant([height, width, 3]), [[box]], seed=3, min_object_covered=0.4,
            aspect_ratio_range=[0.5, 1.5], area_range=[0.1, 0.6])
        crop = tf.slice(tf.zeros([height, width, 3]), begin, size)
        with tf.Session() as sess:
            runs = [sess.run([begin, size, bbox, tf.shape(crop)]) for _ in range(40)]
    for b, s, bb, crop_shape in runs:
        assert b[2] == 0 and s[2] == -1 and crop_shape.tolist() == [s[0], s[1], 3]
        y, x, h, w = b[0], b[1], s[0], s[1]
        assert 0 <= y and 0 <= x and y + h <= height and x + w <= width and h > 0 and w > 0
        assert 0.1 <= h * w / (height * width) <= 0.6
        assert 0.5 - 0.5 / h <= w / h <= 1.5 + 0.5 / h      # w = round(h * ratio)
        inter = max(0, min(y + h, 90) - max(y, 30)) * max(0, min(x + w, 96) - max(x, 48))
        assert inter / (60 * 48) >= 0.4
        np.testing.assert_allclose(bb[0, 0], [y / height, x / width, (y + h) / height,
                                              (x + w) / width], rtol=1e-6)
    assert len({(r[0][0], r[0][1], r[1][0], r[1][1]) for r in runs}) > 20


def test_sample_distorted_bounding_box_falls_back_to_the_whole_image():
    # No window of at most half the image shows all of a box that fills the image.
    begin, size, bbox = _runs(1, image_size=np.int64([30, 40, 3]),
                              bounding_boxes=[[[0.0, 0.0, 1.0, 1.0]]], seed=9,
                              min_object_covered=1.0, area_range=[0.05, 0.5])[0]
    assert begin.dtype == np.int64 and begin.tolist() == [0, 0, 0]
    assert size.tolist() == [30, 40, -1] and bbox.tolist() == [[[0, 0, 1, 1]]]


def test_sample_distorted_bounding_box_seeds():
    kwargs = dict(image_size=[64, 64, 3], bounding_boxes=[[[0.2, 0.2, 0.8, 0.8]]])
    first = _runs(3, seed=7, **kwargs)
    again = _runs(3, seed=7, **kwargs)          # a new graph and session replay the sequence
    for a, b in zip(first, again):
        for x, y in zip(a, b):
            np.testing.assert_array_equal(x, y)
    assert first[0][1].tolist() != first[1][1].tolist() or \
        first[0][0].tolist() != first[1][0].tolist()
    with tf.Graph().as_default():               # as in TF 1: the graph seed plays no part
        tf.set_random_seed(123)
        op = tf.image.sample_distorted_bounding_box(seed=7, **kwargs)
        with tf.Session() as sess:
            assert sess.run(op)[1].tolist() == first[0][1].tolist()
    # seed = seed2 = 0: fresh entropy, so two sessions (almost surely) differ
    unseeded = [[r[1].tolist() + r[0].tolist() for r in _runs(4, **kwargs)] for _ in range(2)]
    assert unseeded[0] != unseeded[1]


def test_sample_distorted_bounding_box_errors():
    with pytest.raises(errors.InvalidArgumentError, match="No bounding boxes provided as input"):
        _runs(1, image_size=[8, 8, 3], bounding_boxes=np.zeros([1, 0, 4], np.float32))
    with pytest.raises(errors.InvalidArgumentError,
                       match=r"All bounding box coordinates must be in \[0.0, 1.0\]: 1.5"):
        _runs(1, image_size=[8, 8, 3], bounding_boxes=[[[0.0, 0.0, 1.5, 1.0]]])
    with pytest.raises(errors.InvalidArgumentError, match="Area range must be less then or "
                                                          "equal to 1.0"):
        _runs(1, image_size=[8, 8, 3], bounding_boxes=[[[0, 0, 1, 1]]], area_range=[0.5, 2])
    with pytest.raises(ValueError, match="Dimension must be 3 but is 2"):
        tf.image.sample_distorted_bounding_box([8, 8], [[[0.0, 0.0, 1.0, 1.0]]])
    with pytest.raises(ValueError, match="Shape must be rank 3 but is rank 2"):
        tf.image.sample_distorted_bounding_box([8, 8, 3], [[0.0, 0.0, 1.0, 1.0]])
    with pytest.raises(TypeError, match="DataType float32 not in list of allowed values"):
        tf.image.sample_distorted_bounding_box([8.0, 8.0, 3.0], [[[0.0, 0.0, 1.0, 1.0]]])


# -- the NMS family ------------------------------------------------------------------------------

BOXES = np.float32([[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, -0.1, 1, 0.9], [0, 10, 1, 11],
                    [0, 10.1, 1, 11.1], [0, 100, 1, 101]])
SCORES = np.float32([0.9, 0.75, 0.6, 0.95, 0.5, 0.3])


def test_non_max_suppression_with_scores():
    indices, scores = run(tf.image.non_max_suppression_with_scores(BOXES, SCORES, 6, 0.5))
    assert indices.tolist() == [3, 0, 5]
    np.testing.assert_array_equal(scores, np.float32([0.95, 0.9, 0.3]))
    # Soft-NMS: the overlapping boxes come back with decayed scores (TF's float32 values)
    indices, scores = run(tf.image.non_max_suppression_with_scores(
        BOXES, SCORES, 6, 1.0, 0.0, soft_nms_sigma=0.5))
    assert indices.tolist() == [3, 0, 1, 5, 4, 2]
    np.testing.assert_array_equal(scores, np.float32(
        [0.95, 0.9, 0.38400354981422424, 0.3, 0.25600260496139526, 0.19697244465351105]))
    indices, scores = run(tf.image.non_max_suppression_with_scores(
        BOXES, SCORES, 6, 0.5, 0.4, soft_nms_sigma=0.5))
    assert indices.tolist() == [3, 0] and scores.tolist() == pytest.approx([0.95, 0.9])
    # Soft-NMS does not use iou_threshold: box 1 (IoU 0.82 with box 0) decays, box 2 (IoU
    # exactly 0.5) is kept by hard NMS, whose test is IoU > threshold.
    boxes = np.float32([[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, 0, 1, 0.5]])
    scores = np.float32([0.9, 0.8, 0.7])
    got = run(tf.image.non_max_suppression_with_scores(boxes, scores, 6, 0.5,
                                                       soft_nms_sigma=0.5))
    assert got[0].tolist() == [0, 2, 1]
    np.testing.assert_array_equal(got[1], np.float32([0.9, 0.54516053, 0.35886955]))
    assert run(tf.image.non_max_suppression_with_scores(boxes, scores, 6, 0.5))[0].tolist() \
        == [0, 2]
    shapes = [t.get_shape().as_list() for t in
              tf.image.non_max_suppression_with_scores(BOXES, SCORES, 6)]
    assert shapes == [[None], [None]]


def test_non_max_suppression_padded():
    indices, valid = tf.image.non_max_suppression_padded(BOXES, SCORES, 5, 0.5,
                                                         pad_to_max_output_size=True)
    assert indices.get_shape().as_list() == [5] and valid.get_shape().as_list() == []
    got = run(tf.image.non_max_suppression_padded(BOXES, SCORES, 5, 0.5,
                                                  pad_to_max_output_size=True))
    assert got.selected_indices.tolist() == [3, 0, 5, 0, 0] and got.valid_outputs == 3
    got = run(tf.image.non_max_suppression_padded(BOXES, SCORES, 5, 0.5))
    assert got[0].tolist() == [3, 0, 5] and got[1] == 3
    got = run(tf.image.non_max_suppression_padded(BOXES, SCORES, 5, 0.5, 0.7,
                                                  pad_to_max_output_size=True))
    assert got[0].tolist() == [3, 0, 0, 0, 0] and got[1] == 2


def test_non_max_suppression_overlaps():
    overlaps = np.float32([[1, .8, .2, 0], [.8, 1, .6, .1], [.2, .6, 1, .7], [0, .1, .7, 1]])
    scores = np.float32([0.9, 0.8, 0.7, 0.6])
    assert run(tf.image.non_max_suppression_overlaps(overlaps, scores, 4, 0.5)).tolist() == \
        [0, 2]
    assert run(tf.image.non_max_suppression_overlaps(overlaps, scores, 4, 0.65,
                                                     0.65)).tolist() == [0, 2]
    assert run(tf.image.non_max_suppression_overlaps(overlaps, scores, 4, 0.9)).tolist() == \
        [0, 1, 2, 3]


def test_nms_errors():
    def fails(op, message):
        with pytest.raises(errors.InvalidArgumentError, match=message):
            run(op)
    some = tf.placeholder_with_default
    fails(tf.image.non_max_suppression_with_scores(some(BOXES[:, :3], None), SCORES, 3),
          "boxes must have 4 columns")
    fails(tf.image.non_max_suppression_with_scores(BOXES, some(SCORES[:3], None), 3),
          "scores has incompatible shape")
    fails(tf.image.non_max_suppression_with_scores(BOXES, SCORES, 3, some(1.5, None)),
          r"iou_threshold must be in \[0, 1\]")
    fails(tf.image.non_max_suppression_with_scores(
        BOXES, SCORES, 3, soft_nms_sigma=some(-1.0, None)), "soft_nms_sigma_val must be >= 0")
    fails(tf.image.non_max_suppression_with_scores(BOXES, SCORES, some(-1, None)),
          "output size must be non-negative")
    fails(tf.image.non_max_suppression_overlaps(some(np.zeros([3, 4], np.float32), None),
                                                [.9, .8, .7], 2), "overlaps must be square")
    with pytest.raises(ValueError, match="Dimension must be 4 but is 3"):
        tf.image.non_max_suppression_with_scores(BOXES[:, :3], SCORES, 3)
    scores = tf.constant(SCORES)                # no gradient: TF 2.15.1 raises LookupError too
    with pytest.raises(LookupError, match="No gradient defined for operation"):
        tf.gradients(tf.image.non_max_suppression_with_scores(BOXES, scores, 3)[1], scores)
    with pytest.raises(ValueError, match="Dimensions must be equal, but are 6 and 3"):
        tf.image.non_max_suppression_padded(BOXES, SCORES[:3], 3)
    with pytest.raises(ValueError, match="Dimensions must be equal, but are 3 and 4"):
        tf.image.non_max_suppression_overlaps(np.zeros([3, 4], np.float32), [1., 2, 3, 4], 2)


# boxes [2, 6, 1, 4] and scores [2, 6, 3] (no equal scores within an image)
C_BOXES = np.float32([
    [[-0.12, 0.66, 0.35, 0.81]], [[0.28, 0.6, 0.59, 1.0]], [[0.88, 0.39, 1.24, 0.68]],
    [[0.35, -0.12, 0.53, 0.18]], [[0.1, 0.35, 0.34, 0.64]], [[0.55, 0.68, 0.79, 1.12]],
    [[0.22, -0.13, 0.63, 0.1]], [[0.12, 0.8, 0.45, 1.01]], [[0.03, 0.3, 0.32, 0.54]],
    [[0.82, -0.17, 1.19, 0.08]], [[0.46, 0.85, 0.74, 1.23]], [[0.05, 0.4, 0.32, 0.87]]
]).reshape(2, 6, 1, 4)
C_SCORES = np.float32([
    [0.18, 0.741, 0.422], [0.426, 0.634, 0.523], [0.415, 0.001, 0.092], [0.709, 0.524, 0.696],
    [0.955, 0.683, 0.053], [0.309, 0.593, 0.235], [0.965, 0.945, 0.848], [0.472, 0.841, 0.131],
    [0.309, 0.463, 0.742], [0.486, 0.137, 0.344], [0.324, 0.3, 0.166], [0.415, 0.448, 0.775]
]).reshape(2, 6, 3)


def test_combined_non_max_suppression():
    got = run(tf.image.combined_non_max_suppression(C_BOXES, C_SCORES, 3, 5, 0.5))
    np.testing.assert_array_equal(got.nmsed_scores, np.float32(
        [[0.955, 0.741, 0.709, 0.696, 0.683], [0.965, 0.945, 0.848, 0.841, 0.775]]))
    assert got.nmsed_classes.tolist() == [[0, 1, 0, 2, 1], [0, 1, 2, 1, 2]]
    assert got.valid_detections.tolist() == [5, 5]
    np.testing.assert_array_equal(got.nmsed_boxes[0, :3], np.float32(   # clipped to [0, 1]
        [[0.1, 0.35, 0.34, 0.64], [0.0, 0.66, 0.35, 0.81], [0.35, 0.0, 0.53, 0.18]]))
    np.testing.assert_array_equal(got.nmsed_boxes[1, 3:], np.float32(
        [[0.12, 0.8, 0.45, 1.0], [0.05, 0.4, 0.32, 0.87]]))

    boxes, scores, classes, valid = run(tf.image.combined_non_max_suppression(
        C_BOXES, C_SCORES, 2, 8, 0.3, 0.2, clip_boxes=False))
    assert valid.tolist() == [6, 6]
    np.testing.assert_array_equal(scores[:, 5:], np.float32([[0.523, 0, 0], [0.486, 0, 0]]))
    assert classes.tolist() == [[0, 1, 0, 2, 1, 2, 0, 0], [0, 1, 2, 1, 2, 0, 0, 0]]
    np.testing.assert_array_equal(boxes[1, 5:], np.float32([[0.82, -0.17, 1.19, 0.08],
                                                            [0, 0, 0, 0], [0, 0, 0, 0]]))

    out = tf.image.combined_non_max_suppression(C_BOXES, C_SCORES, 1, 8, 0.5,
                                                pad_per_class=True)
    assert out.nmsed_boxes.get_shape().as_list() == [2, 3, 4]    # min(8, 1 * 3 classes)
    got = run(out)
    assert got.nmsed_classes.tolist() == [[0, 1, 2], [0, 1, 2]]
    np.testing.assert_array_equal(got.nmsed_scores, np.float32([[0.955, 0.741, 0.696],
                                                                [0.965, 0.945, 0.848]]))

    # one box per class (q = 3)
    q_boxes = np.concatenate([C_BOXES, C_BOXES[:, ::-1], C_BOXES * 0.5], axis=2)
    got = run(tf.image.combined_non_max_suppression(q_boxes, C_SCORES, 2, 4, 0.5, 0.1))
    assert got.nmsed_classes.tolist() == [[0, 1, 0, 2], [0, 1, 2, 1]]
    np.testing.assert_array_equal(got.nmsed_boxes[0, 1:], np.float32(
        [[0.55, 0.68, 0.79, 1.0], [0.35, 0.0, 0.53, 0.18], [0.175, 0.0, 0.265, 0.09]]))


def test_combined_non_max_suppression_shapes_and_errors():
    boxes = tf.placeholder(tf.float32, [None, None, 1, 4])
    scores = tf.placeholder(tf.float32, [None, None, 3])
    out = tf.image.combined_non_max_suppression(boxes, scores, 3, 5, 0.5)
    assert [t.get_shape().as_list() for t in out] == [[None, 5, 4], [None, 5], [None, 5],
                                                      [None]]
    with pytest.raises(ValueError, match="third dimension of boxes must be either 1 or equal"):
        tf.image.combined_non_max_suppression(np.zeros([2, 6, 2, 4], np.float32), C_SCORES,
                                              3, 5)
    with pytest.raises(ValueError, match="max_total_size should be > 0"):
        tf.image.combined_non_max_suppression(C_BOXES, C_SCORES, 3, 0)
    with pytest.raises(ValueError, match="Shape must be rank 4 but is rank 3"):
        tf.image.combined_non_max_suppression(C_BOXES[0], C_SCORES, 3, 5)
    some = tf.placeholder_with_default
    for op, message in [
            (tf.image.combined_non_max_suppression(some(C_BOXES, None), C_SCORES,
                                                   some(0, None), 5),
             "max_size_per_class must be positive"),
            (tf.image.combined_non_max_suppression(some(C_BOXES, None), C_SCORES, 3, 5,
                                                   some(1.5, None)),
             r"iou_threshold must be in \[0, 1\]"),
            (tf.image.combined_non_max_suppression(some(C_BOXES, None),
                                                   some(C_SCORES[:, :4], None), 3, 5),
             "scores has incompatible shape")]:
        with pytest.raises(errors.InvalidArgumentError, match=message):
            run(op)
