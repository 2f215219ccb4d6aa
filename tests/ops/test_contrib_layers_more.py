"""tf.contrib.layers beyond the basics: layer_norm, unit_norm, softmax, conv2d_transpose,
separable_conv2d (both forms), bias_add, one_hot_encoding, embed_sequence, repeat, stack,
optimize_loss and the summaries. Names are TF 1.15's contrib names; numbers are TF 2.15.1's,
measured on the tf.compat.v1 ops contrib builds on (nn.moments + batch_normalization,
tf.layers.conv2d_transpose / separable_conv2d, nn.depthwise_conv2d, clip_by_global_norm)."""
import numpy as np
import pytest

import sandbox as tf

layers = tf.contrib.layers
X = (np.arange(24, dtype=np.float32).reshape(2, 3, 4) ** 1.5 / 10)
IMG = np.arange(2 * 4 * 4 * 2, dtype=np.float32).reshape(2, 4, 4, 2) / 10


def run(fetches, feed_dict=None):
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return sess.run(fetches, feed_dict)


def test_layer_norm_unit_norm_softmax_match_tf():
    x = tf.constant(X)
    ln = layers.layer_norm(x)
    ln2 = layers.layer_norm(x, center=False, begin_norm_axis=-1, scope="last")
    un = layers.unit_norm(x, 1)
    sm = layers.softmax(x)
    assert [v.name for v in tf.model_variables()] == [
        "LayerNorm/beta:0", "LayerNorm/gamma:0", "last/gamma:0"]
    assert tf.model_variables()[0].shape.as_list() == [4]
    assert sm.shape.as_list() == [2, 3, 4]
    ln_v, ln2_v, un_v, sm_v = run([ln, ln2, un, sm])
    # TF 2.15.1's (nn.moments over axes 1, 2 + batch_normalization, epsilon 1e-12):
    np.testing.assert_allclose(ln_v[1, 0], [-1.5131054, -1.2678123, -1.0128934, -0.7486999],
                               rtol=1e-5)
    row = X[0, 1]
    np.testing.assert_allclose(ln2_v[0, 1], (row - row.mean()) / row.std(), rtol=1e-4)
    np.testing.assert_allclose(un_v[1, :, 1], [0.36633414, 0.5478173, 0.75212723], rtol=1e-6)
    np.testing.assert_allclose(sm_v[1, 2], [0.06675741, 0.13165732, 0.26393625, 0.537649],
                               rtol=1e-6)
    with pytest.raises(ValueError, match=r"begin_params_axis \(3\) and begin_norm_axis"):
        layers.layer_norm(x, begin_params_axis=3)
    with pytest.raises(ValueError, match="dim must be positive"):
        layers.unit_norm(x, 3)


def test_conv2d_transpose_and_separable_conv2d_names_and_numbers_match_tf():
    img = tf.constant(IMG)
    ct = layers.conv2d_transpose(img, 3, [3, 3], stride=2,
                                 weights_initializer=tf.constant_initializer(0.1),
                                 biases_initializer=tf.constant_initializer(0.5))
    dw = np.linspace(-1, 1, 3 * 3 * 2 * 2).reshape(3, 3, 2, 2)
    sc = layers.separable_conv2d(img, 3, [3, 3], depth_multiplier=2,
                                 weights_initializer=tf.constant_initializer(dw),
                                 pointwise_initializer=tf.constant_initializer(
                                     np.linspace(-0.5, 1, 12).reshape(1, 1, 4, 3)))
    depthwise = layers.separable_conv2d(img, None, [3, 3], depth_multiplier=2,
                                        activation_fn=None,
                                        weights_initializer=tf.constant_initializer(dw))
    assert [(v.op.name, v.shape.as_list()) for v in tf.model_variables()] == [
        ("Conv2d_transpose/weights", [3, 3, 3, 2]), ("Conv2d_transpose/biases", [3]),
        ("SeparableConv2d/depthwise_weights", [3, 3, 2, 2]),
        ("SeparableConv2d/pointwise_weights", [1, 1, 4, 3]), ("SeparableConv2d/biases", [3]),
        ("SeparableConv2d_1/depthwise_weights", [3, 3, 2, 2]),
        ("SeparableConv2d_1/biases", [4])]
    assert ct.op.type == "Relu" and depthwise.op.type == "BiasAdd"
    ct_v, sc_v, dw_v = run([ct, sc, depthwise])
    # TF 2.15.1's tf.compat.v1.layers.conv2d_transpose / separable_conv2d (SAME, relu) and
    # tf.nn.depthwise_conv2d with the same initial values:
    assert ct_v.shape == (2, 8, 8, 3) and sc_v.shape == (2, 4, 4, 3)
    np.testing.assert_allclose(ct_v[1, 3, 2:6, 0], [2.16, 1.35, 2.24, 1.39], rtol=1e-5)
    np.testing.assert_allclose(sc_v[1, 1, 1:3, :].ravel(),
                               [6.1032467, 8.062208, 10.021169, 6.313637, 8.272597, 10.231558],
                               rtol=1e-5)
    np.testing.assert_allclose(dw_v[0, 2, 2], [2.0228572, 3.0514283, 4.1057143, 5.1857147],
                               rtol=1e-5)


def test_bias_add_one_hot_embed_sequence_repeat_stack():
    x = tf.placeholder(tf.float32, [None, 3])
    y = layers.bias_add(x, initializer=tf.constant_initializer(1.0))
    oh = layers.one_hot_encoding(tf.constant([2, 0]), 3)
    emb = layers.embed_sequence([[1, 2], [2, 2]], vocab_size=4, embed_dim=2,
                                initializer=tf.constant_initializer(
                                    np.arange(8.0).reshape(4, 2)))
    uniq = layers.embed_sequence([[3, 1, 3]], scope="EmbedSequence", reuse=True, unique=True)
    rep = layers.repeat(x, 2, layers.fully_connected, 4, scope="rep")
    stk = layers.stack(x, layers.fully_connected, [5, 6])
    assert oh.name == "OneHotEncoding/one_hot:0" and oh.dtype == tf.float32
    assert [v.op.name for v in tf.global_variables()] == [
        "BiasAdd/biases", "EmbedSequence/embeddings", "rep/rep_1/weights", "rep/rep_1/biases",
        "rep/rep_2/weights", "rep/rep_2/biases", "Stack/fully_connected_1/weights",
        "Stack/fully_connected_1/biases", "Stack/fully_connected_2/weights",
        "Stack/fully_connected_2/biases"]
    assert rep.shape.as_list() == [None, 4] and stk.shape.as_list() == [None, 6]
    y_v, oh_v, emb_v, uniq_v = run([y, oh, emb, uniq], {x: [[1, 2, 3]]})
    np.testing.assert_allclose(y_v, [[2, 3, 4]])
    np.testing.assert_allclose(oh_v, [[0, 0, 1], [1, 0, 0]])
    np.testing.assert_allclose(emb_v, [[[2, 3], [4, 5]], [[4, 5], [4, 5]]])
    np.testing.assert_allclose(uniq_v, [[[6, 7], [2, 3], [6, 7]]])
    with pytest.raises(ValueError, match="Must specify vocab size"):
        layers.embed_sequence([[1]])
    with pytest.raises(ValueError, match="stack_args need to be a list or tuple"):
        layers.stack(x, layers.fully_connected, 5)


def _quadratic():
    w = tf.get_variable("w", initializer=tf.constant([1.0, 2.0]))
    b = tf.get_variable("b", initializer=tf.constant(3.0))
    return w, b, tf.reduce_sum(w * w) + b * b


def test_optimize_loss_sgd_with_clipping_matches_tf_and_adds_summaries():
    w, b, loss = _quadratic()
    step = tf.train.get_or_create_global_step()
    train = layers.optimize_loss(loss, step, learning_rate=0.1, optimizer="SGD",
                                 clip_gradients=1.0)
    lr = [v for v in tf.global_variables() if v.op.name == "OptimizeLoss/learning_rate"]
    assert len(lr) == 1 and lr[0] not in tf.trainable_variables()
    assert [s.op.name for s in tf.get_collection(tf.GraphKeys.SUMMARIES)] == [
        "OptimizeLoss/global_norm/gradient_norm", "OptimizeLoss/loss",
        "OptimizeLoss/global_norm/clipped_gradient_norm"]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        first = sess.run(train)
        sess.run(train)
        # TF 2.15.1's GradientDescent(0.1) with clip_by_global_norm(1.0), two steps:
        np.testing.assert_allclose(sess.run(w), [0.94654775, 1.8930955], rtol=1e-6)
        np.testing.assert_allclose(sess.run(b), 2.8396435, rtol=1e-6)
        assert first == pytest.approx(14.0) and sess.run(step) == 2
    with pytest.raises(ValueError, match="Optimizer name should be one of"):
        layers.optimize_loss(loss, step, 0.1, "Nope")
    with pytest.raises(ValueError, match="Summaries should be one of"):
        layers.optimize_loss(loss, step, 0.1, "SGD", summaries=["weights"])
    with pytest.raises(ValueError, match="Learning rate should be 0d Tensor or float"):
        layers.optimize_loss(loss, step, 1, "SGD")


def test_optimize_loss_optimizer_forms_and_summarize_activation():
    w, _, loss = _quadratic()
    for optimizer in ("Momentum", tf.train.AdamOptimizer, tf.train.AdagradOptimizer(0.1),
                      lambda lr: tf.train.RMSPropOptimizer(lr)):
        layers.optimize_loss(loss, None, 0.1, optimizer, summaries=[], variables=[w])
    # TF 2.15.1's names for the same optimizers made in variable scope 'OptimizeLoss':
    assert sorted(v.op.name for v in tf.global_variables()) == [
        "OptimizeLoss/learning_rate", "OptimizeLoss/w/Momentum", "OptimizeLoss_1/beta1_power",
        "OptimizeLoss_1/beta2_power", "OptimizeLoss_1/learning_rate", "OptimizeLoss_1/w/Adam",
        "OptimizeLoss_1/w/Adam_1", "OptimizeLoss_2/learning_rate", "OptimizeLoss_2/w/Adagrad",
        "OptimizeLoss_3/learning_rate", "OptimizeLoss_3/w/RMSProp",
        "OptimizeLoss_3/w/RMSProp_1", "b", "w"]
    h = tf.nn.relu(tf.constant([[-1.0, 2.0, -3.0, 4.0]]), name="act")
    layers.summarize_activation(h)
    layers.summarize_tensors([loss])
    assert [s.op.name for s in tf.get_collection(tf.GraphKeys.SUMMARIES)] == [
        "act/zeros", "act/activation", "add_summary"]
