"""tf.losses (sandbox/losses/): the loss functions, compute_weighted_loss and its reductions,
the LOSSES collection. Expected numbers were measured with TensorFlow 1.15.5 on the same
inputs (/tmp/tf115), unless computed with NumPy beside them."""
import numpy as np
import pytest

import sandbox as tf
from tests.gradcheck import check_gradients

ONEHOT = [[0, 1, 0], [1, 0, 0], [0, 0, 1], [0, 1, 0]]
LOGITS = [[1., 2., 0.5], [0.3, -1., 2.], [0., 0., 0.], [3., 1., -2.]]
SPARSE = [1, 0, 2, 1]
W = [1., 0., 2., 0.5]
PREDS = [[0.2], [0.7], [0.9], [0.4]]
LABELS = [[0.], [1.], [1.], [0.]]


def _run(tensors):
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return sess.run(tensors)


def test_every_loss_matches_tf_1_15_value_and_name():
    onehot, logits = tf.constant(ONEHOT, tf.float32), tf.constant(LOGITS)
    preds, labels, w = tf.constant(PREDS), tf.constant(LABELS), tf.constant(W)
    losses = {
        "softmax_cross_entropy_loss/value:0": (tf.losses.softmax_cross_entropy(onehot, logits),
                                               1.4012117),
        "softmax_cross_entropy_loss_1/value:0": (tf.losses.softmax_cross_entropy(
            onehot, logits, weights=w, label_smoothing=0.1), 1.2760054),
        "sparse_softmax_cross_entropy_loss/value:0": (tf.losses.sparse_softmax_cross_entropy(
            tf.constant(SPARSE), logits, weights=w), 1.242672),
        "mean_squared_error/value:0": (tf.losses.mean_squared_error(labels, preds), 0.075),
        "mean_squared_error_1/value:0": (tf.losses.mean_squared_error(
            labels, preds, weights=tf.reshape(w, [4, 1])), 0.04666667),
        "sigmoid_cross_entropy_loss/value:0": (tf.losses.sigmoid_cross_entropy(
            onehot, logits, label_smoothing=0.2), 0.91308576),
        "huber_loss/value:0": (tf.losses.huber_loss(labels * 3, preds * 2, delta=0.5), 0.37625),
        "absolute_difference/value:0": (tf.losses.absolute_difference(labels, preds,
                                                                      weights=2.0), 0.5),
        "log_loss/value:0": (tf.losses.log_loss(labels, preds), 0.29900098),
        "hinge_loss/value:0": (tf.losses.hinge_loss(labels, preds - 0.5), 0.75),
    }
    values = _run({name: t for name, (t, _) in losses.items()})
    for name, (tensor, expected) in losses.items():
        assert tensor.name == name
        assert tensor.get_shape().ndims == 0
        np.testing.assert_allclose(values[name], expected, rtol=1e-6, err_msg=name)
    assert [t.name for t in tf.losses.get_losses()] == list(losses)       # creation order


def test_reductions_match_tf_and_numpy():
    R = tf.losses.Reduction
    assert (R.NONE, R.SUM, R.MEAN, R.SUM_OVER_BATCH_SIZE, R.SUM_BY_NONZERO_WEIGHTS) == (
        "none", "weighted_sum", "weighted_mean", "weighted_sum_over_batch_size",
        "weighted_sum_by_nonzero_weights")
    assert R.SUM_OVER_NONZERO_WEIGHTS == R.SUM_BY_NONZERO_WEIGHTS
    losses, weights = np.array([[1., 2.], [3., 4.]]), np.array([[0., 1.], [2., 0.]])
    out = {red: tf.losses.compute_weighted_loss(
        tf.constant(losses, tf.float32), weights=tf.constant(weights, tf.float32),
        reduction=red, loss_collection=None) for red in R.all()}
    default = tf.losses.compute_weighted_loss(tf.constant(losses, tf.float32),
                                              weights=tf.constant(weights, tf.float32))
    all_zero = tf.losses.compute_weighted_loss(tf.constant(losses, tf.float32), weights=0.0)
    v = _run({"out": out, "default": default, "zero": all_zero})
    np.testing.assert_allclose(v["out"][R.NONE], losses * weights)
    assert out[R.NONE].name == "weighted_loss/Mul:0"
    assert v["out"][R.SUM] == 8.0
    np.testing.assert_allclose(v["out"][R.MEAN], 8.0 / 3.0, rtol=1e-6)
    assert v["out"][R.SUM_OVER_BATCH_SIZE] == 2.0
    assert v["out"][R.SUM_BY_NONZERO_WEIGHTS] == 4.0        # 8 / two non-zero weights
    assert v["default"] == 4.0                              # TF-1's default reduction
    assert v["zero"] == 0.0                                 # 0 / 0 is 0, not NaN
    assert tf.losses.get_losses() == [default, all_zero]    # loss_collection=None: not added


def test_bad_reduction_and_weights_are_refused_when_building():
    with pytest.raises(ValueError, match="Invalid Reduction Key sum"):
        tf.losses.compute_weighted_loss(tf.constant([1.0]), reduction="sum")
    with pytest.raises(ValueError, match="weights can not be broadcast to values"):
        tf.losses.mean_squared_error(tf.zeros([4, 3]), tf.zeros([4, 3]),
                                     weights=tf.ones([3, 4]))
    with pytest.raises(ValueError, match="labels must not be None"):
        tf.losses.mean_squared_error(None, tf.zeros([2]))
    with pytest.raises(ValueError, match="incompatible"):
        tf.losses.absolute_difference(tf.zeros([4, 2]), tf.zeros([4, 3]))


def test_sparse_labels_of_shape_batch_by_1_are_squeezed():
    logits = tf.constant(LOGITS)
    a = tf.losses.sparse_softmax_cross_entropy(tf.constant([[1], [0], [2], [1]]), logits)
    b = tf.losses.sparse_softmax_cross_entropy(tf.constant(SPARSE), logits)
    va, vb = _run([a, b])
    assert va == vb
    z = np.array(LOGITS)
    expected = np.mean(np.log(np.exp(z).sum(1)) - z[np.arange(4), SPARSE])
    np.testing.assert_allclose(va, expected, rtol=1e-6)


def test_total_loss_adds_regularization_losses_as_tf_does():
    with tf.variable_scope("m"):
        tf.get_variable("x", [2], initializer=tf.constant_initializer([1., 2.]),
                        regularizer=lambda t: 0.5 * tf.reduce_sum(t * t))
    assert [t.name for t in tf.losses.get_regularization_losses()] == \
        ["m/x/Regularizer/mul_1:0"]                                  # TF 1.15's name
    tf.losses.mean_squared_error(tf.constant(LABELS), tf.constant(PREDS))   # 0.075
    tf.losses.add_loss(tf.constant(7.0))
    reg = tf.losses.get_regularization_loss()
    total = tf.losses.get_total_loss()
    without = tf.losses.get_total_loss(add_regularization_losses=False, name="plain")
    assert (reg.name, total.name) == ("total_regularization_loss:0", "total_loss:0")
    r, t, p = _run([reg, total, without])
    assert r == 2.5
    np.testing.assert_allclose([t, p], [9.575, 7.075], rtol=1e-6)


def test_empty_collections():
    assert _run(tf.losses.get_regularization_loss()) == 0.0
    with pytest.raises(ValueError, match="no losses"):
        tf.losses.get_total_loss()


def test_loss_gradients_match_finite_differences():
    onehot = np.array(ONEHOT, np.float64)
    # The losses are reduced in float32 as in TF: finite differences with a large eps.
    check_gradients(lambda z: tf.cast(tf.losses.softmax_cross_entropy(
        onehot, z, label_smoothing=0.1), tf.float64), [LOGITS], eps=1e-3, rtol=2e-3, atol=2e-3)
    check_gradients(lambda p: tf.cast(tf.losses.huber_loss(
        np.array(LABELS) * 3, p, delta=0.5), tf.float64), [np.array(PREDS) * 2], eps=1e-3,
        rtol=2e-3, atol=2e-3)


def test_cosine_distance_matches_tf():
    a = tf.nn.l2_normalize(tf.constant([[1., 2., 2.], [0., 3., 4.]]), axis=1)
    b = tf.nn.l2_normalize(tf.constant([[2., 1., 2.], [0., 4., 3.]]), axis=1)
    loss = tf.losses.cosine_distance(a, b, axis=1, weights=tf.constant([[1.], [2.]]))
    assert loss.name == "cosine_distance_loss/value:0"
    np.testing.assert_allclose(_run(loss), 0.09555548429489136, rtol=1e-6)   # TF 1.15.5
    with pytest.raises(ValueError, match="You must specify 'axis'"):
        tf.losses.cosine_distance(a, b)
