"""tf.layers: dense, conv2d, max/average pooling, flatten, dropout, batch_normalization and the
Layer classes -- values against NumPy, variable and op names as TensorFlow 1.15 gives them
(measured with TF 1.15.5 and written down here), reuse, UPDATE_OPS, training, gradients, and
the variables on a parameter server of a real cluster."""
import numpy as np
import pytest

import sandbox as tf
from sandbox.cluster import LocalCluster


def run(fetches, feed_dict=None):
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return sess.run(fetches, feed_dict)


def names(variables):
    return [(v.name, v.get_shape().as_list()) for v in variables]


def np_conv2d(x, k, stride=1, padding="VALID"):
    """Direct NHWC convolution (cross-correlation, as TF), TF's SAME padding rule."""
    n, h, w, _ = x.shape
    kh, kw, _, out_c = k.shape
    if padding == "SAME":
        oh, ow = -(-h // stride), -(-w // stride)
        ph, pw = max((oh - 1) * stride + kh - h, 0), max((ow - 1) * stride + kw - w, 0)
        x = np.pad(x, ((0, 0), (ph // 2, ph - ph // 2), (pw // 2, pw - pw // 2), (0, 0)))
    else:
        oh, ow = (h - kh) // stride + 1, (w - kw) // stride + 1
    out = np.zeros((n, oh, ow, out_c), np.float64)
    for i in range(oh):
        for j in range(ow):
            patch = x[:, i * stride:i * stride + kh, j * stride:j * stride + kw, :]
            out[:, i, j, :] = np.tensordot(patch, k, axes=([1, 2, 3], [0, 1, 2]))
    return out


def np_pool(x, size, stride, fn):
    n, h, w, c = x.shape
    oh, ow = (h - size) // stride + 1, (w - size) // stride + 1
    out = np.zeros((n, oh, ow, c), x.dtype)
    for i in range(oh):
        for j in range(ow):
            out[:, i, j, :] = fn(x[:, i * stride:i * stride + size,
                                   j * stride:j * stride + size, :], axis=(1, 2))
    return out


# -- names, as TF 1.15 gives them ------------------------------------------------------------

def test_variable_op_and_layer_names_match_tf_1_15():
    x = tf.placeholder(tf.float32, [None, 4], name="x")
    y = tf.layers.dense(x, 3)
    y1 = tf.layers.dense(x, 3, activation=tf.nn.relu)
    layer = tf.layers.Dense(5)
    z, z2 = layer(x), layer(x)
    with tf.variable_scope("outer"):
        y3 = tf.layers.dense(x, 2, name="fc")
        y4 = tf.layers.dense(x, 2, name="fc", reuse=True)
        y5 = tf.layers.dense(x, 2)
    img = tf.placeholder(tf.float32, [None, 8, 8, 3], name="img")
    c = tf.layers.conv2d(img, 4, 3)
    c1 = tf.layers.conv2d(img, 4, [3, 3], padding="same", activation=tf.nn.relu)
    p = tf.layers.max_pooling2d(c, 2, 2)
    a = tf.layers.average_pooling2d(c, 2, 2, padding="same")
    f = tf.layers.flatten(p)
    d = tf.layers.dropout(f, 0.5)
    d1 = tf.layers.dropout(f, 0.5, training=True)
    b = tf.layers.batch_normalization(y, training=True)
    # Measured with TF 1.15.5 (tf.layers.* on the same graph):
    assert [t.name for t in (y, y1, z, z2, y3, y4, y5)] == [
        "dense/BiasAdd:0", "dense_1/Relu:0", "dense_2/BiasAdd:0", "dense_2/BiasAdd_1:0",
        "outer/fc/BiasAdd:0", "outer/fc_1/BiasAdd:0", "outer/dense/BiasAdd:0"]
    assert [t.name for t in (c, c1, p, a, f, d, d1)] == [
        "conv2d/BiasAdd:0", "conv2d_1/Relu:0", "max_pooling2d/MaxPool:0",
        "average_pooling2d/AvgPool:0", "flatten/Reshape:0", "dropout/Identity:0",
        "dropout_1/dropout:0"]          # TF: dropout_1/dropout/mul_1 (the sandbox fuses it)
    assert b.name.startswith("batch_normalization/")
    assert [s.as_list() for s in (c.shape, c1.shape, p.shape, a.shape, f.shape)] == [
        [None, 6, 6, 4], [None, 8, 8, 4], [None, 3, 3, 4], [None, 3, 3, 4], [None, 36]]
    # Keras's layer name counts from 1 per class and graph: not the variable scope's name.
    assert layer.name == "dense_3" and layer.scope_name == "dense_2"
    assert names(tf.global_variables()) == [
        ("dense/kernel:0", [4, 3]), ("dense/bias:0", [3]),
        ("dense_1/kernel:0", [4, 3]), ("dense_1/bias:0", [3]),
        ("dense_2/kernel:0", [4, 5]), ("dense_2/bias:0", [5]),
        ("outer/fc/kernel:0", [4, 2]), ("outer/fc/bias:0", [2]),
        ("outer/dense/kernel:0", [4, 2]), ("outer/dense/bias:0", [2]),
        ("conv2d/kernel:0", [3, 3, 3, 4]), ("conv2d/bias:0", [4]),
        ("conv2d_1/kernel:0", [3, 3, 3, 4]), ("conv2d_1/bias:0", [4]),
        ("batch_normalization/gamma:0", [3]), ("batch_normalization/beta:0", [3]),
        ("batch_normalization/moving_mean:0", [3]),
        ("batch_normalization/moving_variance:0", [3])]
    assert [v.name for v in tf.trainable_variables()
            if v.name.startswith("batch_normalization")] == [
        "batch_normalization/gamma:0", "batch_normalization/beta:0"]


def test_class_names_count_per_class():
    # Measured with TF 1.15.5 in a fresh graph.
    assert [tf.layers.Dense(3).name for _ in range(3)] == ["dense_1", "dense_2", "dense_3"]
    assert [tf.layers.Conv2D(3, 3).name, tf.layers.BatchNormalization().name,
            tf.layers.MaxPooling2D(2, 2).name, tf.layers.AveragePooling2D(2, 2).name,
            tf.layers.Flatten().name, tf.layers.Dropout().name] == [
        "conv2d_1", "batch_normalization_1", "max_pooling2d_1", "average_pooling2d_1",
        "flatten_1", "dropout_1"]
    assert tf.layers.Dense(3, name="logits").name == "logits"


def test_layer_object_lists_its_variables():
    x = tf.placeholder(tf.float32, [None, 4])
    dense = tf.layers.Dense(2, name="d")
    with pytest.raises(ValueError, match="has not been used yet"):
        dense.scope_name
    assert dense.variables == [] and not dense.built
    dense(x)
    assert dense.built and dense.kernel.name == "d/kernel:0" and dense.bias.name == "d/bias:0"
    assert dense.variables == dense.weights == dense.trainable_variables == [dense.kernel,
                                                                             dense.bias]
    assert dense.count_params() == 4 * 2 + 2
    bn = tf.layers.BatchNormalization()
    bn(x, training=True)
    assert [v.name for v in bn.trainable_variables] == ["batch_normalization/gamma:0",
                                                        "batch_normalization/beta:0"]
    assert [v.name for v in bn.non_trainable_variables] == [
        "batch_normalization/moving_mean:0", "batch_normalization/moving_variance:0"]
    assert len(bn.weights) == 4 and len(bn.updates) == 2
    frozen = tf.layers.Dense(2, trainable=False)
    frozen(x)
    assert frozen.trainable_variables == [] and len(frozen.variables) == 2
    assert frozen.kernel not in tf.trainable_variables()


def test_a_layer_subclass_with_build_and_call():
    class Scale(tf.layers.Layer):
        def build(self, input_shape):
            self.w = self.add_weight("w", [input_shape[-1].value],
                                     initializer=tf.constant_initializer(2.0))
            super().build(input_shape)

        def call(self, inputs):
            return inputs * self.w

    layer = Scale()
    x = tf.constant([[1.0, 2.0, 3.0]])
    y, y2 = layer(x), layer(x)
    assert layer.name == "scale_1" and layer.w.name == "scale/w:0"
    assert layer.variables == [layer.w] and len(tf.global_variables()) == 1
    np.testing.assert_allclose(run(y), [[2, 4, 6]])
    np.testing.assert_allclose(run(y2), [[2, 4, 6]])


# -- reuse ---------------------------------------------------------------------------------

def test_reuse_shares_the_variables():
    x = tf.placeholder(tf.float32, [None, 4])
    y1 = tf.layers.dense(x, 3, name="shared")
    y2 = tf.layers.dense(x, 3, name="shared", reuse=True)
    with tf.variable_scope("net"):
        z1 = tf.layers.conv2d(tf.zeros([1, 5, 5, 2]), 3, 2, name="conv")
    with tf.variable_scope("net", reuse=True):
        z2 = tf.layers.conv2d(tf.zeros([1, 5, 5, 2]), 3, 2, name="conv")
    with tf.variable_scope("auto", reuse=tf.AUTO_REUSE):
        a1 = tf.layers.dense(x, 2, name="fc")
        a2 = tf.layers.dense(x, 2, name="fc")
    assert [v.name for v in tf.global_variables()] == [
        "shared/kernel:0", "shared/bias:0", "net/conv/kernel:0", "net/conv/bias:0",
        "auto/fc/kernel:0", "auto/fc/bias:0"]
    value = np.arange(8, dtype=np.float32).reshape(2, 4)
    out = run([y1, y2, z1, z2, a1, a2], {x: value})
    np.testing.assert_allclose(out[0], out[1])
    np.testing.assert_allclose(out[4], out[5])
    with pytest.raises(ValueError, match="already exists"):
        tf.layers.dense(x, 3, name="shared")
    with pytest.raises(ValueError, match="does not exist"):
        tf.layers.dense(x, 3, name="missing", reuse=True)


def test_a_second_tower_reuses_unnamed_layers_as_tf_does():
    x = tf.placeholder(tf.float32, [None, 4])

    def net(x, training):
        h = tf.layers.dense(x, 3, activation=tf.nn.relu)
        h = tf.layers.batch_normalization(h, training=training)
        h = tf.layers.dropout(h, 0.5, training=training)
        return tf.layers.dense(h, 2)

    with tf.variable_scope("model"):
        train_out = net(x, True)
    with tf.variable_scope("model", reuse=True):
        eval_out = net(x, False)
    # Measured with TF 1.15.5: the default names restart in the re-entered scope.
    assert [v.name for v in tf.global_variables()] == [
        "model/dense/kernel:0", "model/dense/bias:0", "model/batch_normalization/gamma:0",
        "model/batch_normalization/beta:0", "model/batch_normalization/moving_mean:0",
        "model/batch_normalization/moving_variance:0", "model/dense_1/kernel:0",
        "model/dense_1/bias:0"]
    assert (train_out.name, eval_out.name) == ("model/dense_1/BiasAdd:0",
                                               "model_1/dense_1/BiasAdd:0")
    assert [u.name for u in tf.get_collection(tf.GraphKeys.UPDATE_OPS)] == [
        "model/batch_normalization/AssignMovingAvg",
        "model/batch_normalization/AssignMovingAvg_1"]


def test_a_reused_layer_checks_its_input():
    x = tf.placeholder(tf.float32, [None, 4])
    layer = tf.layers.Dense(2)
    layer(x)
    # TF 1.15's message (Keras's InputSpec).
    with pytest.raises(ValueError, match="expected axis -1 of input shape to have value 4 but "
                                         r"received input with shape \[None, 5\]"):
        layer(tf.placeholder(tf.float32, [None, 5]))
    with pytest.raises(ValueError, match="last dimension of the inputs to `Dense` should be "
                                         "defined"):
        tf.layers.dense(tf.placeholder(tf.float32, [None, None]), 2)
    with pytest.raises(ValueError, match="expected ndim=4, found ndim=2"):
        tf.layers.conv2d(x, 2, 3)
    with pytest.raises(ValueError, match="channels_first"):
        tf.layers.conv2d(tf.zeros([1, 3, 5, 5]), 2, 3, data_format="channels_first")
    with pytest.raises(ValueError, match="`padding` argument"):
        tf.layers.Conv2D(2, 3, padding="full")
    with pytest.raises(ValueError, match="`kernel_size` argument must be a tuple of 2"):
        tf.layers.Conv2D(2, [3, 3, 3])


# -- values against NumPy -------------------------------------------------------------------

def test_dense_values_initializers_and_rank_3_inputs():
    rng = np.random.RandomState(0)
    xv = rng.randn(5, 4).astype(np.float32)
    x = tf.constant(xv)
    y = tf.layers.dense(x, 3, activation=tf.nn.relu,
                        bias_initializer=tf.constant_initializer(0.5))
    with tf.variable_scope("init", initializer=tf.constant_initializer(0.25)):
        y_scoped = tf.layers.dense(x, 2, use_bias=False)
    seq = tf.placeholder(tf.float32, [None, 7, 4])
    y_seq = tf.layers.dense(seq, 3, name="seq")
    assert y_seq.shape.as_list() == [None, 7, 3]
    assert [v.name for v in tf.global_variables()] == [
        "dense/kernel:0", "dense/bias:0", "init/dense/kernel:0", "seq/kernel:0", "seq/bias:0"]
    sv = rng.randn(2, 7, 4).astype(np.float32)
    out, k, b, scoped, seq_out, sk, sb = run(
        [y, "dense/kernel:0", "dense/bias:0", y_scoped, y_seq, "seq/kernel:0", "seq/bias:0"],
        {seq: sv})
    np.testing.assert_allclose(b, [0.5] * 3)
    limit = np.sqrt(6.0 / (4 + 3))              # glorot uniform, TF's default kernel
    assert np.all(np.abs(k) <= limit) and np.abs(k).max() > limit / 4
    np.testing.assert_allclose(out, np.maximum(xv @ k + b, 0), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(scoped, xv @ np.full((4, 2), 0.25), rtol=1e-5)
    np.testing.assert_allclose(seq_out, sv @ sk + sb, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("padding, strides", [("valid", 1), ("same", 1), ("same", 2),
                                              ("valid", 2)])
def test_conv2d_values(padding, strides):
    rng = np.random.RandomState(1)
    xv = rng.randn(2, 7, 6, 3).astype(np.float32)
    y = tf.layers.conv2d(tf.constant(xv), filters=4, kernel_size=3, strides=strides,
                         padding=padding, bias_initializer=tf.constant_initializer(0.1),
                         activation=tf.nn.relu)
    out, k = run([y, "conv2d/kernel:0"])
    assert k.shape == (3, 3, 3, 4)
    limit = np.sqrt(6.0 / (9 * 3 + 9 * 4))       # each tap counts towards the fans
    assert np.all(np.abs(k) <= limit)
    expected = np.maximum(np_conv2d(xv, k, strides, padding.upper()) + 0.1, 0)
    assert out.shape == expected.shape == tuple(y.shape.as_list())
    np.testing.assert_allclose(out, expected, rtol=1e-4, atol=1e-5)


def test_pooling_and_flatten_values():
    rng = np.random.RandomState(2)
    xv = rng.randn(2, 6, 6, 3).astype(np.float32)
    x = tf.constant(xv)
    mp = tf.layers.max_pooling2d(x, pool_size=2, strides=2)
    ap = tf.layers.average_pooling2d(x, pool_size=3, strides=3)
    mp_layer = tf.layers.MaxPooling2D([3, 3], strides=1)
    mp3 = mp_layer(x)
    flat = tf.layers.flatten(mp)
    unknown = tf.placeholder(tf.float32, [None, None, 2])
    flat_unknown = tf.layers.flatten(unknown)
    assert flat.shape.as_list() == [2, 27] and flat_unknown.shape.as_list() == [None, None]
    out = run([mp, ap, mp3, flat, flat_unknown], {unknown: np.ones((3, 4, 2), np.float32)})
    np.testing.assert_allclose(out[0], np_pool(xv, 2, 2, np.max))
    np.testing.assert_allclose(out[1], np_pool(xv, 3, 3, np.mean), rtol=1e-5)
    np.testing.assert_allclose(out[2], np_pool(xv, 3, 1, np.max))
    np.testing.assert_allclose(out[3], out[0].reshape(2, -1))
    assert out[4].shape == (3, 8)
    assert mp_layer.variables == []


# -- dropout --------------------------------------------------------------------------------

def test_dropout_is_the_identity_unless_training():
    xv = np.arange(1, 401, dtype=np.float32).reshape(20, 20)
    x = tf.constant(xv)
    training = tf.placeholder(tf.bool, [], name="training")
    off = tf.layers.dropout(x, rate=0.25)
    off_tensor = tf.layers.dropout(x, rate=0.25, training=tf.constant(False))
    on = tf.layers.dropout(x, rate=0.25, training=True, seed=3)
    fed = tf.layers.dropout(x, rate=0.25, training=training)
    layer = tf.layers.Dropout(0.25)
    by_layer = layer(x)                                   # the class's default: training=False
    assert off.op.type == "Identity" and off_tensor.op.type == "Identity"
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(off), xv)
        np.testing.assert_array_equal(sess.run(off_tensor), xv)
        np.testing.assert_array_equal(sess.run(by_layer), xv)
        np.testing.assert_array_equal(sess.run(fed, {training: False}), xv)
        for value in (sess.run(on), sess.run(fed, {training: True})):
            kept = value != 0
            np.testing.assert_allclose(value[kept], xv[kept] / 0.75, rtol=1e-6)
            assert 0.6 < kept.mean() < 0.9                 # about 1 - rate of 400 entries
    with pytest.raises(TypeError, match="`training` must be a Tensor, or a Python bool"):
        tf.layers.dropout(x, training="yes")


# -- batch normalization --------------------------------------------------------------------

def test_batch_normalization_training_and_update_ops_match_tf():
    rng = np.random.RandomState(0)
    x4 = (rng.randn(2, 3, 3, 2) * 2 + 1).astype(np.float32)
    x2 = (rng.randn(5, 3) * 2 + 1).astype(np.float32)
    b4 = tf.layers.batch_normalization(tf.constant(x4), training=True)
    b2 = tf.layers.batch_normalization(tf.constant(x2), training=True)
    updates = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
    assert [u.name for u in updates] == [        # TF 1.15: AssignSub ops with these names
        "batch_normalization/AssignMovingAvg", "batch_normalization/AssignMovingAvg_1",
        "batch_normalization_1/AssignMovingAvg", "batch_normalization_1/AssignMovingAvg_1"]
    assert {u.type for u in updates} == {"AssignSub"}
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        o4, o2 = sess.run([b4, b2])
        sess.run(updates)
        moving = {v.name: sess.run(v) for v in tf.global_variables()}
    m4, v4 = x4.mean((0, 1, 2)), x4.var((0, 1, 2))
    m2, v2 = x2.mean(0), x2.var(0)
    np.testing.assert_allclose(o4, (x4 - m4) / np.sqrt(v4 + 1e-3), atol=1e-5)
    np.testing.assert_allclose(o2, (x2 - m2) / np.sqrt(v2 + 1e-3), atol=1e-5)
    # One update with momentum 0.99. Numbers measured with TF 1.15.5: its fused kernel (4-D
    # input) moves the variance towards the Bessel-corrected variance, the 2-D path does not.
    np.testing.assert_allclose(moving["batch_normalization/moving_mean:0"],
                               [0.0207692, 0.01118483], rtol=1e-5)
    np.testing.assert_allclose(moving["batch_normalization/moving_variance:0"],
                               [1.0419546, 1.0338964], rtol=1e-6)
    np.testing.assert_allclose(moving["batch_normalization_1/moving_variance:0"],
                               [1.035687, 1.0530702, 1.011174], rtol=1e-6)
    np.testing.assert_allclose(moving["batch_normalization_1/moving_mean:0"], 0.01 * m2,
                               rtol=1e-5)


def test_batch_normalization_inference_uses_the_moving_statistics():
    xv = np.array([[1.0, 10.0], [3.0, 30.0], [5.0, 20.0]], np.float32)
    x = tf.constant(xv)
    training = tf.placeholder(tf.bool, [])
    bn = tf.layers.BatchNormalization(momentum=0.5, epsilon=0.0, center=False,
                                      gamma_initializer=tf.constant_initializer(2.0),
                                      moving_variance_initializer=tf.constant_initializer(4.0))
    y = bn(x, training=training)
    infer = bn(x)                                    # training=False: no new update ops
    assert len(tf.get_collection(tf.GraphKeys.UPDATE_OPS)) == 2 and bn.beta is None
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        np.testing.assert_allclose(sess.run(infer), xv / 2 * 2)   # (x - 0) / sqrt(4) * 2
        np.testing.assert_allclose(sess.run(y, {training: False}), xv, rtol=1e-6)
        sess.run(bn.updates, {training: False})            # not training: nothing moves
        np.testing.assert_allclose(sess.run(bn.moving_mean), [0, 0])
        out = sess.run(y, {training: True})
        np.testing.assert_allclose(out, (xv - xv.mean(0)) / xv.std(0) * 2, rtol=1e-5)
        for step in range(3):
            sess.run(bn.updates, {training: True})
        mean = sess.run(bn.moving_mean)
        np.testing.assert_allclose(mean, xv.mean(0) * (1 - 0.5 ** 3), rtol=1e-6)
        variance = sess.run(bn.moving_variance)
        np.testing.assert_allclose(variance, 4 * 0.5 ** 3 + xv.var(0) * (1 - 0.5 ** 3),
                                   rtol=1e-6)


def test_regularizers_go_to_regularization_losses():
    x = tf.placeholder(tf.float32, [None, 3])
    l2 = tf.contrib.layers.l2_regularizer(0.5)
    y = tf.layers.dense(x, 2, kernel_regularizer=l2,
                        bias_regularizer=tf.contrib.layers.l1_regularizer(0.25),
                        bias_initializer=tf.constant_initializer(-1.0))
    tf.layers.dense(x, 2, name="dense", reuse=True, kernel_regularizer=l2)   # no second loss
    c = tf.layers.conv2d(tf.zeros([1, 4, 4, 1]), 2, 2, kernel_regularizer=l2)
    losses = tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)
    # The names TF 1.15 gives them.
    assert [t.name for t in losses] == ["dense/kernel/Regularizer/l2_regularizer:0",
                                        "dense/bias/Regularizer/l1_regularizer:0",
                                        "conv2d/kernel/Regularizer/l2_regularizer:0"]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        values, k, ck = sess.run([losses, "dense/kernel:0", "conv2d/kernel:0"])
    np.testing.assert_allclose(values, [0.5 * (k ** 2).sum() / 2, 0.25 * 2,
                                        0.5 * (ck ** 2).sum() / 2], rtol=1e-5)
    assert y.shape.as_list() == [None, 2] and c.shape.as_list() == [1, 3, 3, 2]


# -- training -------------------------------------------------------------------------------

def small_model(images, labels, training):
    h = tf.layers.conv2d(images, 4, 3, padding="same", activation=tf.nn.relu)
    h = tf.layers.batch_normalization(h, training=training)
    h = tf.layers.max_pooling2d(h, 2, 2)
    h = tf.layers.flatten(h)
    h = tf.layers.dropout(h, rate=0.1, training=training)
    logits = tf.layers.dense(h, 3)
    return tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels,
                                                                         logits=logits))


def data(seed=0):
    rng = np.random.RandomState(seed)
    images = rng.randn(12, 6, 6, 2).astype(np.float32)
    labels = (images.sum((1, 2, 3)) > 0).astype(np.int32) + (images[:, 0, 0, 0] > 1)
    return images, labels


def test_gradients_reach_every_kernel_and_gradient_descent_lowers_the_loss():
    tf.set_random_seed(7)
    images, labels = data()
    loss = small_model(tf.constant(images), tf.constant(labels), training=True)
    trainable = tf.trainable_variables()
    assert [v.name for v in trainable] == [
        "conv2d/kernel:0", "conv2d/bias:0", "batch_normalization/gamma:0",
        "batch_normalization/beta:0", "dense/kernel:0", "dense/bias:0"]
    grads = tf.gradients(loss, trainable)
    assert all(g is not None for g in grads)
    with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)):
        train = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        assert all(np.abs(g).sum() > 0 for g in sess.run(grads))
        before = sess.run(loss)
        for _ in range(15):
            sess.run(train)
        after = sess.run(loss)
        assert np.abs(sess.run("batch_normalization/moving_mean:0")).sum() > 0
    assert after < 0.7 * before


def test_the_dense_kernel_gradient_is_x_transposed_times_the_output_gradient():
    xv = np.array([[1.0, 2.0], [3.0, -1.0], [0.5, 0.0]], np.float32)
    y = tf.layers.dense(tf.constant(xv), 4)
    layer_vars = tf.trainable_variables()
    g_kernel, g_bias = tf.gradients(tf.reduce_sum(y * 3.0), layer_vars)
    gk, gb = run([g_kernel, g_bias])
    np.testing.assert_allclose(gk, xv.T @ np.full((3, 4), 3.0), rtol=1e-6)
    np.testing.assert_allclose(gb, np.full(4, 9.0))


# -- on a cluster ---------------------------------------------------------------------------

def test_layers_put_their_variables_on_the_ps_and_train_on_a_cluster():
    images, labels = data(1)
    tf.set_random_seed(1)             # the initial weights and the dropout masks: one run
    with LocalCluster({"ps": 1, "worker": 1}) as cluster:
        with tf.device(tf.train.replica_device_setter(
                ps_tasks=1, worker_device="/job:worker/task:0")):
            x = tf.placeholder(tf.float32, [None, 6, 6, 2])
            y = tf.placeholder(tf.int32, [None])
            training = tf.placeholder_with_default(True, [])
            loss = small_model(x, y, training)
            step = tf.train.get_or_create_global_step()
            with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)):
                train = tf.train.GradientDescentOptimizer(0.5).minimize(loss, global_step=step)
        for v in tf.global_variables():
            assert v.device == "/job:ps/task:0", v.name
        assert len(tf.global_variables()) == 9          # 6 trainable, 2 moving, global_step
        assert loss.device == "/job:worker/task:0"
        with tf.Session(cluster.target("worker", 0)) as sess:
            sess.run(tf.global_variables_initializer())
            feed = {x: images, y: labels}
            measure = {**feed, training: False}        # the loss without dropout's noise
            before = sess.run(loss, measure)
            for _ in range(10):
                sess.run(train, feed)
            after = sess.run(loss, measure)
            kernel = sess.run("dense/kernel:0")
        assert after < 0.8 * before
        # The ps holds the trained kernel: a session on the ps reads the same values.
        with tf.Session(cluster.target("ps", 0)) as sess:
            np.testing.assert_array_equal(sess.run("dense/kernel:0"), kernel)
            assert sess.run(step) == 10


# -- more options ---------------------------------------------------------------------------

def test_activation_names_float64_and_channels_first_flatten():
    x = tf.constant(np.array([[-1.0, 2.0]]))                     # float64
    y = tf.layers.dense(x, 2, activation="relu", kernel_initializer=tf.ones_initializer())
    assert y.op.type == "Relu" and y.dtype == tf.float64
    assert tf.global_variables()[0].dtype.base_dtype == tf.float64
    with pytest.raises(ValueError, match="Unknown activation function: relux"):
        tf.layers.Dense(2, activation="relux")
    img = np.arange(12, dtype=np.float32).reshape(1, 3, 2, 2)    # NCHW
    flat = tf.layers.flatten(tf.constant(img), data_format="channels_first")
    out, flat_out = run([y, flat])
    np.testing.assert_allclose(out, [[1.0, 1.0]])
    np.testing.assert_array_equal(flat_out, img.transpose(0, 2, 3, 1).reshape(1, -1))


def test_batch_normalization_gradient_matches_finite_differences():
    from tests.gradcheck import check_gradients
    rng = np.random.RandomState(4)
    check_gradients(lambda x: tf.layers.batch_normalization(x, training=True, center=False,
                                                            scale=False, epsilon=0.1),
                    [rng.randn(5, 3)])
    check_gradients(lambda x: tf.layers.max_pooling2d(tf.layers.flatten(x)[:, :, None, None]
                                                      * 1.0, 1, 1), [rng.randn(2, 3, 2)])
