"""tf.contrib.layers: fully_connected and flatten (names as TF 1.15 gives them, measured with
TF 1.15.5), the initializers (their spreads against the formulas), the regularizers (values
against NumPy, TF's names and errors) and apply_regularization."""
import numpy as np
import pytest

import sandbox as tf

layers = tf.contrib.layers


def run(fetches, feed_dict=None):
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return sess.run(fetches, feed_dict)


def test_fully_connected_names_defaults_and_reuse_match_tf_1_15():
    x = tf.placeholder(tf.float32, [None, 4], name="x")
    y = layers.fully_connected(x, 3)
    y1 = layers.fully_connected(x, 3, activation_fn=None,
                                weights_regularizer=layers.l2_regularizer(0.5),
                                biases_regularizer=layers.l1_regularizer(0.25))
    y2 = layers.fully_connected(x, 3, scope="fc")
    y3 = layers.fully_connected(x, 3, scope="fc", reuse=True)
    # Measured with TF 1.15.5:
    assert [t.name for t in (y, y1, y2, y3)] == ["fully_connected/Relu:0",
                                                 "fully_connected_1/BiasAdd:0", "fc/Relu:0",
                                                 "fc_1/Relu:0"]
    expected = ["fully_connected/weights:0", "fully_connected/biases:0",
                "fully_connected_1/weights:0", "fully_connected_1/biases:0",
                "fc/weights:0", "fc/biases:0"]
    assert [v.name for v in tf.global_variables()] == expected
    assert [v.name for v in tf.model_variables()] == expected
    assert [v.name for v in tf.trainable_variables()] == expected
    assert [t.name for t in tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)] == [
        "fully_connected_1/kernel/Regularizer/l2_regularizer:0",     # TF's names: 'kernel'
        "fully_connected_1/bias/Regularizer/l1_regularizer:0"]
    xv = np.array([[1.0, -2.0, 0.5, 3.0], [0.0, 1.0, -1.0, 2.0]], np.float32)
    out, out2, out3, w, b = run([y, y2, y3, "fully_connected/weights:0",
                                 "fully_connected/biases:0"], {x: xv})
    np.testing.assert_allclose(b, 0.0)
    np.testing.assert_allclose(out, np.maximum(xv @ w, 0), rtol=1e-5, atol=1e-6)   # relu
    np.testing.assert_allclose(out2, out3)                                          # shared
    with pytest.raises(ValueError, match="num_outputs type should be one of"):
        layers.fully_connected(x, 3.0)


def test_fully_connected_options():
    x = tf.placeholder(tf.float32, [None, 2])
    y = layers.fully_connected(x, 2, activation_fn=tf.nn.sigmoid,
                               weights_initializer=tf.constant_initializer(0.5),
                               biases_initializer=None, outputs_collections="ends",
                               variables_collections={"weights": ["my_weights"]},
                               trainable=False, scope="head")
    z = layers.fully_connected(x, 2, normalizer_fn=lambda t: t * 2.0, activation_fn=None,
                               weights_initializer=tf.ones_initializer())
    assert [v.name for v in tf.global_variables()] == ["head/weights:0",
                                                      "fully_connected/weights:0"]
    assert tf.trainable_variables() == [tf.global_variables()[1]]
    assert [v.name for v in tf.get_collection("my_weights")] == ["head/weights:0"]
    assert tf.get_collection("ends") == [y] and y.aliases == ["head"]
    xv = np.array([[1.0, 3.0]], np.float32)
    out, out_z = run([y, z], {x: xv})
    np.testing.assert_allclose(out, 1 / (1 + np.exp(-(xv @ np.full((2, 2), 0.5)))), rtol=1e-6)
    np.testing.assert_allclose(out_z, 2 * xv @ np.ones((2, 2)))


def test_flatten():
    img = tf.placeholder(tf.float32, [None, 2, 3, 4])
    f, f1 = layers.flatten(img), layers.flatten(img, scope="flat")
    assert (f.name, f1.name) == ("Flatten/flatten/Reshape:0", "flat/flatten/Reshape:0")  # TF's
    assert f.shape.as_list() == [None, 24]
    xv = np.arange(48, dtype=np.float32).reshape(2, 2, 3, 4)
    np.testing.assert_array_equal(run(f, {img: xv}), xv.reshape(2, 24))


def test_regularizers_values_names_and_errors():
    wv = np.array([[1.0, -2.0], [3.0, 4.0]], np.float32)
    w = tf.constant(wv)
    r2 = layers.l2_regularizer(0.5)(w)
    r1 = layers.l1_regularizer(0.25)(w)
    r12 = layers.l1_l2_regularizer(0.25, 0.5)(w)
    rs = layers.sum_regularizer([layers.l1_regularizer(1.0), None,
                                 layers.l2_regularizer(2.0)], scope="both")(w)
    assert [t.name for t in (r2, r1, r12, rs)] == ["l2_regularizer:0", "l1_regularizer:0",
                                                   "l1_l2_regularizer:0", "both:0"]
    values = run([r2, r1, r12, rs])
    # TF 1.15 gives 7.5, 2.5, 10.0 for the first three.
    np.testing.assert_allclose(values, [0.5 * (wv ** 2).sum() / 2, 0.25 * np.abs(wv).sum(),
                                        10.0, np.abs(wv).sum() + 2 * (wv ** 2).sum() / 2])
    assert layers.l2_regularizer(0.0)(w) is None and layers.l1_regularizer(0.)(w) is None
    assert layers.sum_regularizer([None]) is None
    with pytest.raises(ValueError, match="scale cannot be an integer: 1"):
        layers.l2_regularizer(1)
    with pytest.raises(ValueError, match="Setting a scale less than 0 on a regularizer: -1"):
        layers.l1_regularizer(-1.0)
    with pytest.raises(ValueError, match="scale_l2 cannot be an integer"):
        layers.l1_l2_regularizer(0.5, 2)


def test_apply_regularization():
    wv = np.array([[1.0, -2.0], [3.0, 4.0]], np.float32)
    v1, v2 = tf.Variable(wv, name="v1"), tf.Variable(2 * wv, name="v2")
    penalty = layers.apply_regularization(layers.l2_regularizer(0.5), [v1, v2])
    assert penalty.name == "get_regularization_penalty:0"                    # TF's name
    assert tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES) == [penalty]
    assert run(penalty) == pytest.approx(37.5)                               # TF 1.15: 37.5
    with pytest.raises(ValueError, match="No weights to regularize"):
        layers.apply_regularization(layers.l2_regularizer(0.5))
    tf.add_to_collection("weights", v1)                  # tf.GraphKeys.WEIGHTS, the default
    assert run(layers.apply_regularization(layers.l1_regularizer(1.0))) == pytest.approx(10.0)
    with pytest.raises(ValueError, match="must return a scalar Tensor"):
        layers.apply_regularization(lambda t: t * 2.0, [v1])


def test_initializers_spread_as_their_formulas_say():
    tf.set_random_seed(0)
    xavier = tf.get_variable("xavier", [300, 200], initializer=layers.xavier_initializer())
    xavier_n = tf.get_variable("xavier_n", [300, 200],
                               initializer=layers.xavier_initializer(uniform=False))
    he = tf.get_variable("he", [400, 300], initializer=layers.variance_scaling_initializer())
    conv = tf.get_variable("conv", [3, 3, 20, 40], initializer=layers.variance_scaling_initializer(
        factor=1.0, mode="FAN_OUT", uniform=True))
    xv, xn, hv, cv = run([xavier, xavier_n, he, conv])
    limit = np.sqrt(6.0 / (300 + 200))
    assert np.abs(xv).max() <= limit and np.abs(xv).max() > 0.95 * limit
    assert xv.var() == pytest.approx(limit ** 2 / 3, rel=0.05)
    # normal: a truncated normal of stddev sqrt(1.3 factor / n): variance about factor / n
    assert xn.var() == pytest.approx(2.0 / 500, rel=0.05)
    assert np.abs(xn).max() <= 2 * np.sqrt(1.3 * 2.0 / 500) + 1e-6
    assert hv.var() == pytest.approx(2.0 / 400, rel=0.05)
    conv_limit = np.sqrt(3.0 / (9 * 40))            # FAN_OUT of a conv kernel: 3 * 3 * 40
    assert np.abs(cv).max() <= conv_limit and np.abs(cv).max() > 0.95 * conv_limit
    assert layers.xavier_initializer_conv2d is layers.xavier_initializer
    with pytest.raises(TypeError, match="Unknown mode"):
        layers.variance_scaling_initializer(mode="fan_in")
    with pytest.raises(TypeError, match="non-floating point"):
        layers.variance_scaling_initializer(dtype=tf.int32)


def test_a_regularized_network_trains():
    tf.set_random_seed(3)
    rng = np.random.RandomState(0)
    xv = rng.randn(32, 5).astype(np.float32)
    yv = (xv @ rng.randn(5, 1)).astype(np.float32)
    h = layers.fully_connected(tf.constant(xv), 16,
                               weights_regularizer=layers.l2_regularizer(1e-3))
    pred = layers.fully_connected(h, 1, activation_fn=None)
    loss = tf.reduce_mean(tf.square(pred - yv)) + \
        tf.add_n(tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES))
    train = tf.train.GradientDescentOptimizer(0.05).minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        before = sess.run(loss)
        for _ in range(30):
            sess.run(train)
        assert sess.run(loss) < 0.5 * before


def test_conv2d_pools_and_dropout_names_and_values():
    rng = np.random.RandomState(5)
    xv = rng.randn(2, 8, 8, 3).astype(np.float32)
    img = tf.placeholder(tf.float32, [None, 8, 8, 3])
    c = layers.conv2d(img, 4, 3)
    c1 = layers.conv2d(img, 4, [3, 3], stride=2, padding="VALID", scope="cv")
    p = layers.max_pool2d(c, 2)
    a = layers.avg_pool2d(c, [2, 2], stride=1, padding="SAME")
    d = layers.dropout(c)
    d1 = layers.dropout(c, is_training=False)
    # Measured with TF 1.15.5 (TF's dropout output: Dropout/dropout_1/mul_1).
    assert [t.name for t in (c, c1, p, a, d1)] == ["Conv/Relu:0", "cv/Relu:0",
                                                   "MaxPool2D/MaxPool:0", "AvgPool2D/AvgPool:0",
                                                   "Dropout_1/Identity:0"]
    assert d.name.startswith("Dropout/")
    assert [s.as_list() for s in (c.shape, c1.shape, p.shape, a.shape)] == [
        [None, 8, 8, 4], [None, 3, 3, 4], [None, 4, 4, 4], [None, 8, 8, 4]]
    assert [v.name for v in tf.model_variables()] == ["Conv/weights:0", "Conv/biases:0",
                                                      "cv/weights:0", "cv/biases:0"]
    assert layers.convolution2d is layers.conv2d
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        out, pooled, dropped, same, w = sess.run([c, p, d, d1, "Conv/weights:0"], {img: xv})
    padded = np.pad(xv, ((0, 0), (1, 1), (1, 1), (0, 0)))
    expected = np.zeros((2, 8, 8, 4))
    for i in range(8):
        for j in range(8):
            expected[:, i, j] = np.tensordot(padded[:, i:i + 3, j:j + 3], w, 3)
    np.testing.assert_allclose(out, np.maximum(expected, 0), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(pooled, out.reshape(2, 4, 2, 4, 2, 4).max((2, 4)))
    np.testing.assert_array_equal(same, out)
    kept = dropped != 0
    np.testing.assert_allclose(dropped[kept], out[kept] * 2, rtol=1e-6)
    with pytest.raises(ValueError, match="Convolution expects input with rank 4, got 2"):
        layers.conv2d(tf.zeros([2, 3]), 2, 3)


def test_batch_norm_matches_tf_1_15():
    rng = np.random.RandomState(0)
    x4 = (rng.randn(2, 3, 3, 2) * 2 + 1).astype(np.float32)
    x2 = (rng.randn(5, 3) * 2 + 1).astype(np.float32)
    b4 = layers.batch_norm(tf.constant(x4))
    b2 = layers.batch_norm(tf.constant(x2), scale=True, decay=0.9)
    b2i = layers.batch_norm(tf.constant(x2), is_training=False, scope="inf")
    updates = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
    # Measured with TF 1.15.5:
    assert [u.name.split(":")[0] for u in updates] == [
        "BatchNorm/AssignMovingAvg", "BatchNorm/AssignMovingAvg_1",
        "BatchNorm_1/AssignMovingAvg", "BatchNorm_1/AssignMovingAvg_1"]
    expected = ["BatchNorm/beta:0", "BatchNorm/moving_mean:0", "BatchNorm/moving_variance:0",
                "BatchNorm_1/beta:0", "BatchNorm_1/gamma:0", "BatchNorm_1/moving_mean:0",
                "BatchNorm_1/moving_variance:0", "inf/beta:0", "inf/moving_mean:0",
                "inf/moving_variance:0"]
    assert [v.name for v in tf.global_variables()] == expected
    assert [v.name for v in tf.model_variables()] == expected
    assert [v.name for v in tf.trainable_variables()] == [
        "BatchNorm/beta:0", "BatchNorm_1/beta:0", "BatchNorm_1/gamma:0", "inf/beta:0"]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        o4, o2, o2i = sess.run([b4, b2, b2i])
        sess.run(updates)
        moving = {v.name: sess.run(v) for v in tf.global_variables()}
    m4, v4 = x4.mean((0, 1, 2)), x4.var((0, 1, 2))
    np.testing.assert_allclose(o4, (x4 - m4) / np.sqrt(v4 + 1e-3), atol=1e-5)
    np.testing.assert_allclose(o2, (x2 - x2.mean(0)) / np.sqrt(x2.var(0) + 1e-3), atol=1e-5)
    np.testing.assert_allclose(o2i, x2 / np.sqrt(1 + 1e-3), rtol=1e-6)
    # TF 1.15's numbers: the moving variances follow the Bessel-corrected batch variance.
    np.testing.assert_allclose(moving["BatchNorm/moving_mean:0"], [0.0020769, 0.00111847],
                               rtol=5e-5)          # TF printed 6 digits
    np.testing.assert_allclose(moving["BatchNorm/moving_variance:0"], [1.0041955, 1.0033896],
                               rtol=1e-6)
    np.testing.assert_allclose(moving["BatchNorm_1/moving_mean:0"],
                               [-0.01321018, 0.12556268, 0.00260107], rtol=1e-5)
    np.testing.assert_allclose(moving["BatchNorm_1/moving_variance:0"],
                               [1.4710867, 1.6883779, 1.1646751], rtol=1e-6)


def test_batch_norm_as_normalizer_and_updating_in_place():
    x = tf.constant(np.array([[1.0, 2.0], [3.0, 6.0]], np.float32))
    h = layers.fully_connected(x, 2, normalizer_fn=layers.batch_norm,
                               normalizer_params={"updates_collections": None, "decay": 0.5},
                               weights_initializer=tf.ones_initializer())
    assert tf.get_collection(tf.GraphKeys.UPDATE_OPS) == []
    assert [v.name for v in tf.global_variables()] == [
        "fully_connected/weights:0", "fully_connected/BatchNorm/beta:0",
        "fully_connected/BatchNorm/moving_mean:0", "fully_connected/BatchNorm/moving_variance:0"]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        out = sess.run(h)                    # the update runs with the output
        mean = sess.run("fully_connected/BatchNorm/moving_mean:0")
    np.testing.assert_allclose(out, [[0, 0], [1, 1]], atol=1e-3)    # relu of -1, 1
    np.testing.assert_allclose(mean, [3.0, 3.0])                     # 0.5 * mean([3, 9])
    with pytest.raises(NotImplementedError, match="zero_debias_moving_mean"):
        layers.batch_norm(x, zero_debias_moving_mean=True)
