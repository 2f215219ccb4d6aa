"""tf.layers beyond Dense/Conv2D: conv1d, conv2d_transpose, separable_conv1d/2d, the 1-D
pooling layers, conv3d, conv3d_transpose and the 3-D pooling layers; and the ops under them,
tf.nn.depthwise_conv2d(_native), tf.nn.separable_conv2d and the 3-D ops
(sandbox/ops/conv3d_ops.py). Variable, op and output names and shapes, values and gradients are
compared with numbers measured with TensorFlow 1.15.5 (written down here), the ops also with
NumPy and finite differences."""
import numpy as np
import pytest

import sandbox as tf
from tests.gradcheck import check_gradients


def run(fetches, feed_dict=None):
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return sess.run(fetches, feed_dict)


def np_depthwise(x, f, stride=1, padding="VALID", rate=1):
    """Direct depthwise convolution: channel c with its own f[:, :, c, m]."""
    n, h, w, c = x.shape
    kh, kw, _, m = f.shape
    ekh, ekw = (kh - 1) * rate + 1, (kw - 1) * rate + 1
    if padding == "SAME":
        oh, ow = -(-h // stride), -(-w // stride)
        ph, pw = max((oh - 1) * stride + ekh - h, 0), max((ow - 1) * stride + ekw - w, 0)
        x = np.pad(x, ((0, 0), (ph // 2, ph - ph // 2), (pw // 2, pw - pw // 2), (0, 0)))
    else:
        oh, ow = (h - ekh) // stride + 1, (w - ekw) // stride + 1
    out = np.zeros((n, oh, ow, c, m))
    for i in range(oh):
        for j in range(ow):
            patch = x[:, i * stride:i * stride + ekh:rate, j * stride:j * stride + ekw:rate, :]
            out[:, i, j] = np.einsum("nijc,ijcm->ncm", patch, f)
    return out.reshape(n, oh, ow, c * m)


# -- the layers: names as TF 1.15 gives them ---------------------------------------------

def test_names_and_shapes_match_tf_1_15():
    # measured with TF 1.15.5: the same program, tf.layers.* and tf.global_variables()
    x1 = tf.constant(np.zeros((2, 7, 3), np.float32))
    x2 = tf.constant(np.zeros((2, 5, 5, 3), np.float32))
    outs = [tf.layers.conv1d(x1, 4, 3, strides=2, padding="same"),
            tf.layers.conv2d_transpose(x2, 4, 3, strides=2, padding="same"),
            tf.layers.conv2d_transpose(x2, 4, (3, 2), strides=(2, 3), padding="valid"),
            tf.layers.separable_conv2d(x2, 4, 3, depth_multiplier=2, padding="same"),
            tf.layers.max_pooling1d(x1, 2, 2),
            tf.layers.average_pooling1d(x1, 3, 2, padding="same")]
    assert [(t.name, t.get_shape().as_list()) for t in outs] == [
        ("conv1d/BiasAdd:0", [2, 4, 4]), ("conv2d_transpose/BiasAdd:0", [2, 10, 10, 4]),
        ("conv2d_transpose_1/BiasAdd:0", [2, 11, 15, 4]),
        ("separable_conv2d/BiasAdd:0", [2, 5, 5, 4]),
        ("max_pooling1d/Squeeze:0", [2, 3, 3]), ("average_pooling1d/Squeeze:0", [2, 4, 3])]
    assert [(v.name, v.get_shape().as_list()) for v in tf.global_variables()] == [
        ("conv1d/kernel:0", [3, 3, 4]), ("conv1d/bias:0", [4]),
        ("conv2d_transpose/kernel:0", [3, 3, 4, 3]), ("conv2d_transpose/bias:0", [4]),
        ("conv2d_transpose_1/kernel:0", [3, 2, 4, 3]), ("conv2d_transpose_1/bias:0", [4]),
        ("separable_conv2d/depthwise_kernel:0", [3, 3, 3, 2]),
        ("separable_conv2d/pointwise_kernel:0", [1, 1, 6, 4]),
        ("separable_conv2d/bias:0", [4])]
    ops = {op.name for op in tf.get_default_graph().get_operations()}
    assert {"conv1d/conv1d/ExpandDims", "conv1d/conv1d", "conv1d/conv1d/Squeeze",
            "conv2d_transpose/conv2d_transpose", "separable_conv2d/separable_conv2d/depthwise",
            "separable_conv2d/separable_conv2d", "max_pooling1d/ExpandDims",
            "max_pooling1d/MaxPool", "average_pooling1d/AvgPool"} <= ops
    assert [tf.layers.Conv1D(2, 3).name, tf.layers.SeparableConv2D(2, 3).name,
            tf.layers.MaxPooling1D(2, 2).name] == ["conv1d_2", "separable_conv2d_2",
                                                   "max_pooling1d_2"]
    assert tf.get_default_graph().get_operation_by_name(
        "separable_conv2d/separable_conv2d/depthwise").type == "DepthwiseConv2dNative"


def test_values_and_gradients_match_tf_1_15():
    # The same program run under TF 1.15.5: sum(|v|) of each output and of each gradient.
    rng = np.random.RandomState(1)
    x1 = rng.randn(2, 9, 3).astype(np.float32)
    x2 = rng.randn(2, 5, 4, 3).astype(np.float32)

    def ci(shape):
        return tf.constant_initializer(rng.randn(*shape).astype(np.float32))

    L = tf.layers
    outs = [L.conv1d(x1, 4, 3, strides=2, padding="same", kernel_initializer=ci((3, 3, 4)),
                     bias_initializer=ci((4,))),
            L.conv1d(x1, 2, 2, dilation_rate=2, padding="valid",
                     kernel_initializer=ci((2, 3, 2))),
            L.conv2d_transpose(x2, 2, 3, strides=2, padding="same",
                               kernel_initializer=ci((3, 3, 2, 3)), bias_initializer=ci((2,))),
            L.conv2d_transpose(x2, 2, (3, 2), strides=(2, 3), padding="valid",
                               kernel_initializer=ci((3, 2, 2, 3))),
            L.separable_conv2d(x2, 4, 3, depth_multiplier=2, padding="same",
                               depthwise_initializer=ci((3, 3, 3, 2)),
                               pointwise_initializer=ci((1, 1, 6, 4)),
                               bias_initializer=ci((4,))),
            L.separable_conv2d(x2, 2, 2, strides=2, depthwise_initializer=ci((2, 2, 3, 1)),
                               pointwise_initializer=ci((1, 1, 3, 2))),
            L.separable_conv1d(x1, 2, 3, depth_multiplier=2, padding="same",
                               depthwise_initializer=ci((3, 3, 2)),
                               pointwise_initializer=ci((1, 6, 2))),
            L.max_pooling1d(x1, 3, 2, padding="same"),
            L.average_pooling1d(x1, 2, 2)]
    variables = tf.trainable_variables()
    grads = tf.gradients(sum(tf.reduce_sum(o * o) for o in outs[:7]), variables)
    values = run(outs + grads)
    tf_abs_sums = [95.1709, 79.1392, 568.909, 423.905, 648.958, 43.9199, 99.7024, 27.6072,
                   12.8198, 731.356, 97.4728, 470.605, 10.1243, 2591.89, 366.218, 1767.69,
                   59.1675, 8528.21, 7637.16, 608.925, 450.205, 342.174, 19.4329, 1122.84,
                   862.658, 26.1414]
    tf_sums = [-48.7364, -0.340503, -183.109, 29.5838, -19.7342, -6.77632, -5.04641, 22.7497,
               -0.534905, 102.602, -97.4728, 103.26, -0.681007, -355.271, -366.218, 363.573,
               59.1675, -2232.31, 1313.87, -39.4684, 82.2671, 190.145, -13.5526, 106.654,
               573.986, -10.0928]
    got = [np.abs(np.asarray(v, np.float64)).sum() for v in values]
    np.testing.assert_allclose(got, tf_abs_sums, rtol=2e-5)
    np.testing.assert_allclose([np.asarray(v, np.float64).sum() for v in values], tf_sums,
                               rtol=1e-4, atol=2e-4)


def test_conv1d_is_conv2d_on_a_height_of_one():
    rng = np.random.RandomState(0)
    x = rng.randn(3, 8, 2).astype(np.float32)
    k = rng.randn(3, 2, 5).astype(np.float32)
    y = tf.layers.conv1d(x, 5, 3, strides=2, use_bias=False, activation=tf.nn.relu,
                         kernel_initializer=tf.constant_initializer(k))
    windows = np.stack([x[:, i:i + 3] for i in range(0, 6, 2)], 1)      # [3, 3 out, 3, 2]
    expected = np.maximum(np.einsum("nokc,kcf->nof", windows, k), 0)
    np.testing.assert_allclose(run(y), expected, rtol=1e-5, atol=1e-5)


def test_conv2d_transpose_layer_takes_any_batch_and_is_the_conv2d_gradient():
    rng = np.random.RandomState(2)
    k = rng.randn(3, 3, 2, 4).astype(np.float32)
    x = tf.placeholder(tf.float32, [None, 4, 4, 4])
    y = tf.layers.conv2d_transpose(x, 2, 3, strides=2, padding="same", use_bias=False,
                                   kernel_initializer=tf.constant_initializer(k))
    assert y.get_shape().as_list() == [None, 8, 8, 2]
    value = rng.randn(5, 4, 4, 4).astype(np.float32)
    # conv2d_transpose(dy) is the gradient of conv2d with respect to its input
    z = tf.placeholder(tf.float32, [5, 8, 8, 2])
    grad = tf.gradients(tf.nn.conv2d(z, k, [1, 2, 2, 1], "SAME"), z, grad_ys=value)[0]
    got, want = run([y, grad], {x: value, z: np.zeros((5, 8, 8, 2), np.float32)})
    assert got.shape == (5, 8, 8, 2)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_separable_layer_reuse_regularizers_and_ps_placement():
    with tf.Graph().as_default():                   # built for a cluster: variables on the ps
        with tf.device(tf.train.replica_device_setter(ps_tasks=1)):
            tf.layers.separable_conv2d(tf.zeros([1, 6, 6, 3]), 4, 3)
        assert [v.device for v in tf.trainable_variables()] == ["/job:ps/task:0"] * 3
    x = tf.placeholder(tf.float32, [None, 6, 6, 3])
    y = tf.layers.separable_conv2d(x, 4, 3, name="sep",
                                   depthwise_regularizer=lambda w: tf.reduce_sum(w * w))
    y2 = tf.layers.separable_conv2d(x, 4, 3, name="sep", reuse=True)
    assert len(tf.trainable_variables()) == 3
    assert y.get_shape().as_list() == y2.get_shape().as_list() == [None, 4, 4, 4]
    losses = tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)
    assert len(losses) == 1
    value = np.random.RandomState(0).randn(2, 6, 6, 3).astype(np.float32)
    a, b, loss, dk = run([y, y2, losses[0], tf.trainable_variables()[0]], {x: value})
    np.testing.assert_array_equal(a, b)
    np.testing.assert_allclose(loss, (dk * dk).sum(), rtol=1e-5)


def test_1d_pooling_values():
    x = np.arange(2 * 7 * 3, dtype=np.float32).reshape(2, 7, 3) / 10
    mx, av = run([tf.layers.max_pooling1d(x, 2, 2),
                  tf.layers.average_pooling1d(x, 3, 2, padding="same")])
    np.testing.assert_allclose(mx, x[:, 1:6:2])
    # TF 1.15.5 gives [0.15, 0.6, 1.2, 1.65] for the first channel (SAME: real entries only)
    np.testing.assert_allclose(av[0, :, 0], [0.15, 0.6, 1.2, 1.65], rtol=1e-6)
    assert tf.layers.MaxPooling1D(2, 2).compute_output_shape([None, 9, 4]).as_list() == \
        [None, 4, 4]


def test_layer_errors_teach():
    with pytest.raises(ValueError, match="channels_first"):
        tf.layers.conv1d(tf.zeros([1, 3, 5]), 2, 2, data_format="channels_first")
    with pytest.raises(ValueError, match="ndim=3"):
        tf.layers.conv1d(tf.zeros([1, 3, 5, 1]), 2, 2)
    with pytest.raises(ValueError, match="channel dimension"):
        tf.layers.conv2d_transpose(tf.placeholder(tf.float32, [1, 3, 3, None]), 2, 2)
    with pytest.raises(ValueError, match="no dilation_rate"):
        tf.layers.Conv2DTranspose(2, 3, dilation_rate=2)
    # positional arguments in TF's order reach the right parameters
    layer = tf.layers.Conv2DTranspose(2, 3, 2, "same", "channels_last", None, False)
    assert (layer.strides, layer.padding, layer.use_bias) == ((2, 2), "same", False)


# -- the ops ---------------------------------------------------------------------------------

@pytest.mark.parametrize("stride,padding,rate", [(1, "SAME", 1), (2, "VALID", 1),
                                                 (2, "SAME", 1), (1, "SAME", 2),
                                                 (1, "VALID", 2)])
def test_depthwise_conv2d_matches_numpy(stride, padding, rate):
    rng = np.random.RandomState(3)
    x = rng.randn(2, 7, 6, 3)
    f = rng.randn(3, 2, 3, 2)
    y = tf.nn.depthwise_conv2d(x, f, [1, stride, stride, 1], padding, rate=[rate, rate])
    got = run(y)
    np.testing.assert_allclose(got, np_depthwise(x, f, stride, padding, rate), rtol=1e-10)
    assert y.get_shape().as_list() == list(got.shape)
    assert y.op.name == "depthwise" and y.op.type == "DepthwiseConv2dNative"


def test_separable_conv2d_is_depthwise_then_pointwise():
    rng = np.random.RandomState(4)
    x, f, p = rng.randn(2, 5, 5, 3), rng.randn(3, 3, 3, 2), rng.randn(1, 1, 6, 4)
    y = tf.nn.separable_conv2d(x, f, p, [1, 1, 1, 1], "SAME")
    expected = np.einsum("nhwc,co->nhwo", np_depthwise(x, f, 1, "SAME"), p[0, 0])
    np.testing.assert_allclose(run(y), expected, rtol=1e-10)
    assert y.op.name == "separable_conv2d" and y.op.inputs[0].op.name == \
        "separable_conv2d/depthwise"
    with pytest.raises(ValueError, match="1, 1"):
        tf.nn.separable_conv2d(x, f, rng.randn(2, 1, 6, 4), [1, 1, 1, 1], "SAME")
    with pytest.raises(ValueError, match="in_channels \\* channel_multiplier = 6"):
        tf.nn.separable_conv2d(x, f, rng.randn(1, 1, 5, 4), [1, 1, 1, 1], "SAME")
    with pytest.raises(ValueError, match="strides > 1 not supported"):
        tf.nn.depthwise_conv2d(x, f, [1, 2, 2, 1], "SAME", rate=2)


@pytest.mark.parametrize("stride,padding", [(1, "SAME"), (2, "VALID"), (2, "SAME")])
def test_depthwise_gradients_match_finite_differences(stride, padding):
    rng = np.random.RandomState(5)
    x, f = rng.randn(1, 5, 4, 2), rng.randn(3, 2, 2, 2)
    check_gradients(lambda a, b: tf.nn.depthwise_conv2d(a, b, [1, stride, stride, 1],
                                                        padding), [x, f])


def test_depthwise_backprop_ops_have_gradients_too():
    rng = np.random.RandomState(6)
    x, f, dy = rng.randn(1, 4, 4, 2), rng.randn(2, 2, 2, 3), rng.randn(1, 4, 4, 6)
    check_gradients(lambda b, d: tf.nn.depthwise_conv2d_native_backprop_input(
        [1, 4, 4, 2], b, d, [1, 1, 1, 1], "SAME"), [f, dy])
    check_gradients(lambda a, d: tf.nn.depthwise_conv2d_native_backprop_filter(
        a, [2, 2, 2, 3], d, [1, 1, 1, 1], "SAME"), [x, dy])


def test_separable_gradients_match_finite_differences():
    rng = np.random.RandomState(7)
    check_gradients(lambda a, b, c: tf.nn.separable_conv2d(a, b, c, [1, 1, 1, 1], "VALID",
                                                           rate=[1, 2]),
                    [rng.randn(1, 5, 6, 2), rng.randn(2, 2, 2, 2), rng.randn(1, 1, 4, 3)])


# -- 3-D: conv3d, conv3d_transpose, max/average_pooling3d -------------------------------------

def test_3d_layers_names_values_and_gradients_match_tf_1_15():
    # The same program run under TF 1.15.5: names, shapes, and sum(|v|), sum(v) of each
    # output and each gradient
    from sandbox.ops import conv3d_ops   # noqa: F401 -- the ops under the layers
    rng = np.random.RandomState(0)
    x = rng.randn(2, 5, 6, 4, 3).astype(np.float32)

    def ci(shape):
        return tf.constant_initializer(rng.randn(*shape).astype(np.float32))

    L = tf.layers
    outs = [L.conv3d(x, 4, (3, 2, 2), strides=(1, 2, 1), padding="same",
                     kernel_initializer=ci((3, 2, 2, 3, 4)), bias_initializer=ci((4,))),
            L.conv3d_transpose(x, 2, (2, 3, 2), strides=(2, 1, 2), padding="valid",
                               kernel_initializer=ci((2, 3, 2, 2, 3)),
                               bias_initializer=ci((2,))),
            L.conv3d_transpose(x, 2, 3, strides=2, padding="same",
                               kernel_initializer=ci((3, 3, 3, 2, 3))),
            L.max_pooling3d(x, 2, 2, padding="same"),
            L.average_pooling3d(x, (2, 3, 2), (1, 2, 2))]
    assert [(o.name, o.get_shape().as_list()) for o in outs] == [
        ("conv3d/BiasAdd:0", [2, 5, 3, 4, 4]), ("conv3d_transpose/BiasAdd:0", [2, 10, 8, 8, 2]),
        ("conv3d_transpose_1/BiasAdd:0", [2, 10, 12, 8, 2]),
        ("max_pooling3d/MaxPool3D:0", [2, 3, 3, 2, 3]),
        ("average_pooling3d/AvgPool3D:0", [2, 4, 2, 2, 3])]
    assert [(v.name, v.get_shape().as_list()) for v in tf.global_variables()] == [
        ("conv3d/kernel:0", [3, 2, 2, 3, 4]), ("conv3d/bias:0", [4]),
        ("conv3d_transpose/kernel:0", [2, 3, 2, 2, 3]), ("conv3d_transpose/bias:0", [2]),
        ("conv3d_transpose_1/kernel:0", [3, 3, 3, 2, 3]), ("conv3d_transpose_1/bias:0", [2])]
    grads = tf.gradients(sum(tf.reduce_sum(o * o) for o in outs[:3]), tf.trainable_variables())
    values = run(outs + grads)
    np.testing.assert_allclose(
        [np.abs(np.asarray(v, np.float64)).sum() for v in values],
        [1705.05, 5723.91, 7537.6, 127.014, 26.7926, 19837.2, 496.069, 29321.3, 4697.78,
         47489.1, 741.344], rtol=2e-5)
    np.testing.assert_allclose(
        [np.asarray(v, np.float64).sum() for v in values],
        [24.3581, 2348.89, -370.672, 124.29, -9.27537, -1805.43, 48.7162, -2880.68, 4697.78,
         5740.41, -741.344], rtol=1e-4)


@pytest.mark.parametrize("strides,padding,dilations", [([1, 1, 1, 1, 1], "SAME", None),
                                                       ([1, 2, 1, 2, 1], "VALID", None),
                                                       ([1, 1, 1, 1, 1], "VALID", [1, 2, 1, 1, 1])])
def test_conv3d_gradients_match_finite_differences(strides, padding, dilations):
    from sandbox.ops import conv3d_ops
    rng = np.random.RandomState(8)
    check_gradients(lambda a, b: conv3d_ops.conv3d(a, b, strides, padding,
                                                   dilations=dilations or [1] * 5),
                    [rng.randn(1, 4, 3, 4, 2), rng.randn(2, 2, 2, 2, 3)])


def test_pool3d_values_and_gradients():
    from sandbox.ops import conv3d_ops
    rng = np.random.RandomState(9)
    x = rng.randn(1, 4, 4, 3, 2)
    mx, av = run([conv3d_ops.max_pool3d(x, [1, 2, 2, 2, 1], [1, 2, 2, 2, 1], "SAME"),
                  conv3d_ops.avg_pool3d(x, [1, 2, 2, 2, 1], [1, 2, 2, 1, 1], "VALID")])
    np.testing.assert_allclose(mx[0, 0, 0, 1], x[0, :2, :2, 2:].max(axis=(0, 1, 2)))
    np.testing.assert_allclose(av[0, 1, 1, 1], x[0, 2:4, 2:4, 1:3].mean(axis=(0, 1, 2)))
    check_gradients(lambda a: conv3d_ops.max_pool3d(a, [1, 2, 2, 2, 1], [1, 1, 2, 1, 1],
                                                    "SAME"), [x])
    check_gradients(lambda a: conv3d_ops.avg_pool3d(a, [1, 2, 3, 2, 1], [1, 2, 1, 2, 1],
                                                    "SAME"), [x])


def test_layer_weights_read_and_written_through_the_session_and_add_variable():
    """tf.layers' Keras-inherited get_weights / set_weights (through the default session),
    TF 1.x's add_variable (add_weight's older name), get_losses_for / get_updates_for."""
    with tf.Graph().as_default():
        dense = tf.layers.Dense(2, kernel_initializer=tf.ones_initializer())
        y = dense(tf.ones([1, 3]))

        class Scale(tf.layers.Layer):
            def build(self, input_shape):
                self.w = self.add_variable("w", [int(input_shape[-1]), 1],
                                           initializer=tf.zeros_initializer())
                super().build(input_shape)

            def call(self, inputs):
                return tf.matmul(inputs, self.w)
        scale = Scale()
        scale(tf.ones([1, 3]))
        assert scale.w.name == "scale/w:0" and scale.trainable_weights == [scale.w]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            kernel, bias = dense.get_weights()
            assert kernel.tolist() == [[1.0, 1.0]] * 3 and bias.tolist() == [0.0, 0.0]
            dense.set_weights([np.full([3, 2], 2.0), np.array([1.0, -1.0])])
            assert sess.run(y).tolist() == [[7.0, 5.0]]
            with pytest.raises(ValueError, match=r"weight shape \(3, 2\) not compatible"):
                dense.set_weights([np.zeros([2, 2]), np.zeros(2)])
            with pytest.raises(ValueError, match="expecting 2 weights"):
                dense.set_weights([np.zeros([3, 2])])
        assert dense.get_losses_for(None) == [] and dense.get_updates_for(None) == []
