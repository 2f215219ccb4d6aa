"""tf.nn: activations, softmax, cross-entropy losses, bias_add, dropout, top-k, conv and pool --
forward values against NumPy formulas, gradients against finite differences, and errors."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import sandbox as tf
from tests.gradcheck import check_gradients
from sandbox.ops import nn_ops

QUICK = settings(max_examples=25, deadline=None)


def run(fetches, feed_dict=None):
    with tf.Session() as sess:
        return sess.run(fetches, feed_dict)


def floats(shape, lo=-5.0, hi=5.0, dtype=np.float32):
    return hnp.arrays(dtype, shape, elements=st.floats(lo, hi, width=32))


def away_from_kinks(x, kinks=(0.0,), gap=0.05):
    """Moves entries closer than `gap` to a kink of the function (where finite differences
    are meaningless) away from it."""
    x = np.array(x, dtype=np.float64)
    for k in kinks:
        near = np.abs(x - k) < gap
        x[near] = k + np.where(x[near] >= k, gap, -gap)
    return x


def np_softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def np_log_softmax(x, axis=-1):
    z = x - x.max(axis=axis, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=axis, keepdims=True))


def sigmoid(x):
    return 1 / (1 + np.exp(-x))


RNG = np.random.default_rng(42)

# name -> (tf function, NumPy reference, kinks where the derivative jumps)
ACTIVATIONS = {
    "relu": (tf.nn.relu, lambda x: np.maximum(x, 0), (0.0,)),
    "relu6": (tf.nn.relu6, lambda x: np.minimum(np.maximum(x, 0), 6), (0.0, 6.0)),
    "elu": (tf.nn.elu, lambda x: np.where(x > 0, x, np.exp(x) - 1), (0.0,)),
    "selu": (tf.nn.selu, lambda x: 1.0507009873554805 * np.where(
        x > 0, x, 1.6732632423543772 * (np.exp(x) - 1)), (0.0,)),
    "leaky_relu": (tf.nn.leaky_relu, lambda x: np.where(x > 0, x, 0.2 * x), (0.0,)),
    "softplus": (tf.nn.softplus, lambda x: np.log1p(np.exp(x)), ()),
    "softsign": (tf.nn.softsign, lambda x: x / (1 + np.abs(x)), (0.0,)),
}


# -- activations ----------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(ACTIVATIONS))
@QUICK
@given(x=floats(st.tuples(st.integers(1, 4), st.integers(1, 5)), -8, 8))
def test_activation_forward(name, x):
    fn, ref, _ = ACTIVATIONS[name]
    y = run(fn(tf.constant(x)))
    assert y.dtype == np.float32 and y.shape == x.shape
    np.testing.assert_allclose(y, ref(x.astype(np.float64)), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", sorted(ACTIVATIONS))
def test_activation_gradient(name):
    fn, _, kinks = ACTIVATIONS[name]
    x = away_from_kinks(RNG.uniform(-8, 8, (3, 4)), kinks)
    check_gradients(fn, [x])


@pytest.mark.parametrize("name", ["relu", "relu6"])
def test_relu_second_derivative(name):
    fn, _, kinks = ACTIVATIONS[name]
    x = away_from_kinks(RNG.uniform(-8, 8, (3, 4)), kinks)
    w = RNG.standard_normal((3, 4))
    # d/dx of (dy/dx . w) is zero away from the kinks, and it must be computable.
    check_gradients(lambda x, u: tf.gradients(fn(x), x, grad_ys=u)[0], [x, w])


def test_activation_op_types_and_names():
    x = tf.placeholder(tf.float32, [None, 3])
    assert tf.nn.relu(x).op.type == "Relu" and tf.nn.relu(x).op.name == "Relu_1"
    assert tf.nn.relu(x, name="hidden").name == "hidden:0"
    assert tf.nn.elu(x).op.type == "Elu"
    assert tf.nn.leaky_relu(x, alpha=0.1).op.get_attr("alpha") == 0.1
    assert tf.nn.relu(x).get_shape().as_list() == [None, 3]
    (g,) = tf.gradients(tf.nn.relu(x), [x])
    assert g.op.type == "ReluGrad"


def test_relu_of_integers_and_leaky_relu_casts_them():
    assert run(tf.nn.relu(tf.constant([-2, 3]))).tolist() == [0, 3]
    y = tf.nn.leaky_relu(tf.constant([-10, 3]))
    assert y.dtype == tf.float32
    np.testing.assert_allclose(run(y), [-2.0, 3.0])


def test_activations_reject_integers_where_tf_does():
    with pytest.raises(TypeError, match="not in list of allowed values"):
        tf.nn.elu(tf.constant([1, 2]))
    with pytest.raises(TypeError, match="not in list of allowed values"):
        tf.nn.softmax([1, 2])


def test_softplus_is_stable():
    y = run(tf.nn.softplus(tf.constant([-1000.0, 0.0, 1000.0])))
    np.testing.assert_allclose(y, [0.0, np.log(2), 1000.0], rtol=1e-6)


def test_sigmoid_and_tanh_are_in_tf_nn():
    x = np.array([-2.0, 0.0, 3.0], np.float32)
    np.testing.assert_allclose(run(tf.nn.sigmoid(x)), sigmoid(x), rtol=1e-6)
    np.testing.assert_allclose(run(tf.nn.tanh(x)), np.tanh(x), rtol=1e-6)
    assert tf.nn.sigmoid is tf.sigmoid and tf.nn.tanh is tf.tanh


# -- softmax --------------------------------------------------------------------------

@QUICK
@given(x=floats(st.tuples(st.integers(1, 4), st.integers(1, 6)), -20, 20))
def test_softmax_and_log_softmax_forward(x):
    s, ls = run([tf.nn.softmax(x), tf.nn.log_softmax(x)])
    assert s.dtype == np.float32 and ls.dtype == np.float32
    np.testing.assert_allclose(s, np_softmax(x.astype(np.float64)), rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(ls, np_log_softmax(x.astype(np.float64)), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(s.sum(axis=-1), 1, rtol=1e-5)


def test_softmax_is_stable_with_huge_logits():
    x = np.array([[1e4, 0.0, -1e4], [1e30, 1e30, -1e30]], np.float32)
    s, ls = run([tf.nn.softmax(x), tf.nn.log_softmax(x)])
    assert np.all(np.isfinite(s)) and np.all(np.isfinite(ls[:, :2]))
    np.testing.assert_allclose(s, [[1, 0, 0], [0.5, 0.5, 0]], atol=1e-6)
    np.testing.assert_allclose(ls[0], [0, -1e4, -2e4], rtol=1e-6)


def test_softmax_axis_and_dim():
    x = RNG.standard_normal((2, 3, 4)).astype(np.float32)
    a0, a1, d1, last = run([tf.nn.softmax(x, axis=0), tf.nn.softmax(x, axis=1),
                            tf.nn.softmax(x, dim=1), tf.nn.log_softmax(x, axis=2)])
    np.testing.assert_allclose(a0, np_softmax(x, 0), rtol=1e-5)
    np.testing.assert_allclose(a1, np_softmax(x, 1), rtol=1e-5)
    np.testing.assert_allclose(d1, np_softmax(x, 1), rtol=1e-5)
    np.testing.assert_allclose(last, np_log_softmax(x, 2), rtol=1e-5, atol=1e-6)
    assert tf.nn.softmax(x, axis=0).get_shape().as_list() == [2, 3, 4]
    with pytest.raises(ValueError, match="both 'axis' and 'dim'"):
        tf.nn.softmax(x, axis=1, dim=1)
    with pytest.raises(tf.errors.InvalidArgumentError, match="must be in the range"):
        tf.nn.softmax(x, axis=3)


def test_softmax_op_type_and_name():
    y = tf.nn.softmax(tf.placeholder(tf.float32, [None, 10]))
    assert y.op.type == "Softmax" and y.op.name == "Softmax"
    assert y.get_shape().as_list() == [None, 10]
    assert tf.nn.log_softmax(y, name="lsm").op.name == "lsm"


@pytest.mark.parametrize("fn", [tf.nn.softmax, tf.nn.log_softmax])
def test_softmax_gradients(fn):
    check_gradients(fn, [RNG.standard_normal((3, 4)) * 3])
    check_gradients(lambda x: fn(x, axis=0), [RNG.standard_normal((3, 2, 2))])


@pytest.mark.parametrize("fn", [tf.nn.softmax, tf.nn.log_softmax])
def test_softmax_second_derivatives(fn):
    x, w = RNG.standard_normal((2, 4)), RNG.standard_normal((2, 4))
    check_gradients(lambda x, u: tf.gradients(fn(x), x, grad_ys=u)[0], [x, w])


# -- cross entropy --------------------------------------------------------------------

def one_hot(labels, n):
    return np.eye(n, dtype=np.float32)[labels]


@QUICK
@given(x=floats(st.tuples(st.integers(1, 4), st.integers(2, 6)), -20, 20),
       data=st.data())
def test_softmax_xent_forward(x, data):
    p = data.draw(hnp.arrays(np.float32, x.shape, elements=st.floats(0, 1, width=32)))
    p = p / np.maximum(p.sum(axis=1, keepdims=True), 1e-3)
    l1 = tf.nn.softmax_cross_entropy_with_logits(labels=p, logits=x)
    l2 = tf.nn.softmax_cross_entropy_with_logits_v2(labels=p, logits=x)
    v1, v2 = run([l1, l2])
    expected = -(p * np_log_softmax(x.astype(np.float64))).sum(axis=1)
    assert v1.dtype == np.float32 and v1.shape == (x.shape[0],)
    np.testing.assert_allclose(v1, expected, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(v2, expected, rtol=1e-4, atol=1e-4)


@QUICK
@given(x=floats(st.tuples(st.integers(1, 4), st.integers(2, 6)), -20, 20), data=st.data())
def test_sparse_softmax_xent_forward(x, data):
    labels = np.array(data.draw(st.lists(st.integers(0, x.shape[1] - 1), min_size=x.shape[0],
                                         max_size=x.shape[0])), np.int64)
    loss = run(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=x))
    expected = -np_log_softmax(x.astype(np.float64))[np.arange(len(labels)), labels]
    assert loss.dtype == np.float32
    np.testing.assert_allclose(loss, expected, rtol=1e-4, atol=1e-4)


def test_xent_is_stable_with_huge_logits():
    x = np.array([[1e4, -1e4, 0.0], [0.0, 1e30, -1e30]], np.float32)
    labels = np.array([1, 0])
    dense = tf.nn.softmax_cross_entropy_with_logits(labels=one_hot(labels, 3), logits=x)
    sparse = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=x)
    d, s = run([dense, sparse])
    np.testing.assert_allclose(d, [2e4, 1e30], rtol=1e-6)
    np.testing.assert_allclose(s, [2e4, 1e30], rtol=1e-6)
    logits = tf.constant(x)
    loss = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)
    g = run(tf.gradients(loss, logits)[0])
    assert np.all(np.isfinite(g))
    np.testing.assert_allclose(g, [[1, -1, 0], [-1, 1, 0]], atol=1e-6)


def test_xent_requires_named_arguments():
    x, y = tf.constant([[1.0, 2.0]]), tf.constant([[0.0, 1.0]])
    with pytest.raises(ValueError, match=r"Only call `softmax_cross_entropy_with_logits` with "
                                         r"named arguments \(labels=..., logits=..., ...\)"):
        tf.nn.softmax_cross_entropy_with_logits(y, x)
    with pytest.raises(ValueError, match="Only call `sparse_softmax_cross_entropy_with_logits`"):
        tf.nn.sparse_softmax_cross_entropy_with_logits([1], x)
    with pytest.raises(ValueError, match="Only call `sigmoid_cross_entropy_with_logits`"):
        tf.nn.sigmoid_cross_entropy_with_logits(y, x)
    with pytest.raises(ValueError, match="Both labels and logits must be provided"):
        tf.nn.softmax_cross_entropy_with_logits(logits=x)


def test_xent_names_and_op_types():
    x = tf.placeholder(tf.float32, [None, 10])
    y = tf.placeholder(tf.float32, [None, 10])
    v1 = tf.nn.softmax_cross_entropy_with_logits(labels=y, logits=x)
    assert v1.op.type == "SoftmaxCrossEntropyWithLogits"
    assert v1.op.name == "softmax_cross_entropy_with_logits_sg"
    assert v1.get_shape().as_list() == [None]
    v2 = tf.nn.softmax_cross_entropy_with_logits_v2(labels=y, logits=x)
    assert v2.op.name == "softmax_cross_entropy_with_logits"
    s = tf.nn.sparse_softmax_cross_entropy_with_logits(
        labels=tf.placeholder(tf.int32, [None]), logits=x)
    assert s.op.name == "SparseSoftmaxCrossEntropyWithLogits/SparseSoftmaxCrossEntropyWithLogits"
    assert s.get_shape().as_list() == [None]
    assert tf.nn.sigmoid_cross_entropy_with_logits(labels=y, logits=x).op.name == "logistic_loss"


def test_xent_static_shape_errors():
    x = tf.placeholder(tf.float32, [None, 10])
    with pytest.raises(ValueError, match="must be equal, but are 10 and 5"):
        tf.nn.softmax_cross_entropy_with_logits(labels=tf.zeros([3, 5]), logits=x)
    with pytest.raises(ValueError, match="Rank mismatch"):
        tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[[1]], logits=x)
    with pytest.raises(ValueError, match="Shape mismatch"):
        tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[1, 2], logits=tf.zeros([3, 4]))
    with pytest.raises(TypeError, match="int32, int64"):
        tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[1.0], logits=tf.zeros([1, 4]))
    with pytest.raises(ValueError, match="must have the same shape"):
        tf.nn.sigmoid_cross_entropy_with_logits(labels=tf.zeros([3, 5]), logits=x)


@pytest.mark.parametrize("bad", [10, -1])
def test_sparse_xent_rejects_out_of_range_labels(bad):
    labels = tf.placeholder(tf.int32, [None])
    loss = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=tf.zeros([3, 10]))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=rf"Received a label value of {bad} which is outside the valid "
                             r"range of \[0, 10\)"):
        run(loss, {labels: [1, bad, 2]})


def test_dense_xent_runtime_shape_error():
    labels = tf.placeholder(tf.float32)
    loss = tf.nn.softmax_cross_entropy_with_logits_v2(labels=labels, logits=tf.zeros([2, 3]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="logits and labels must be"):
        run(loss, {labels: np.zeros((2, 4))})


def test_softmax_xent_gradients():
    x, p = RNG.standard_normal((3, 4)) * 3, np_softmax(RNG.standard_normal((3, 4)))
    # v2 differentiates both arguments, v1 only the logits.
    check_gradients(lambda x, p: tf.nn.softmax_cross_entropy_with_logits_v2(labels=p, logits=x),
                    [x, p])
    check_gradients(lambda x, p: tf.nn.softmax_cross_entropy_with_logits(labels=p, logits=x),
                    [x, p], wrt=[0])
    lx, lp = tf.placeholder(tf.float32, [3, 4]), tf.placeholder(tf.float32, [3, 4])
    assert tf.gradients(tf.nn.softmax_cross_entropy_with_logits(labels=lp, logits=lx),
                        lp) == [None]
    # dim: the class axis can be the first one.
    check_gradients(lambda x, p: tf.nn.softmax_cross_entropy_with_logits(
        labels=p, logits=x, dim=0), [x.T, p.T], wrt=[0])


def test_softmax_xent_dim_forward():
    x, p = RNG.standard_normal((3, 4)), np_softmax(RNG.standard_normal((3, 4)))
    loss = run(tf.nn.softmax_cross_entropy_with_logits(labels=p.T, logits=x.T, dim=0))
    np.testing.assert_allclose(loss, -(p * np_log_softmax(x)).sum(axis=1), rtol=1e-5)


def test_sparse_xent_gradients():
    labels = np.array([0, 3, 1])
    check_gradients(lambda x: tf.nn.sparse_softmax_cross_entropy_with_logits(
        labels=tf.constant(labels), logits=x), [RNG.standard_normal((3, 4)) * 3])
    x = tf.placeholder(tf.float32, [3, 4])
    loss = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=x)
    assert tf.gradients(loss, x)[0].get_shape().as_list() == [3, 4]


def test_xent_second_derivatives():
    x, p = RNG.standard_normal((2, 3)), np_softmax(RNG.standard_normal((2, 3)))
    w = RNG.standard_normal(2)
    check_gradients(lambda x, p: tf.gradients(
        tf.nn.softmax_cross_entropy_with_logits_v2(labels=p, logits=x), x,
        grad_ys=tf.constant(w))[0], [x, p])
    check_gradients(lambda x: tf.gradients(
        tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[2, 0], logits=x), x,
        grad_ys=tf.constant(w))[0], [x])


@QUICK
@given(x=floats(st.tuples(st.integers(1, 3), st.integers(1, 4)), -30, 30), data=st.data())
def test_sigmoid_xent_forward(x, data):
    z = data.draw(hnp.arrays(np.float32, x.shape, elements=st.floats(0, 1, width=32)))
    loss = run(tf.nn.sigmoid_cross_entropy_with_logits(labels=z, logits=x))
    x64, z64 = x.astype(np.float64), z.astype(np.float64)
    expected = z64 * np.logaddexp(0, -x64) + (1 - z64) * np.logaddexp(0, x64)
    assert loss.dtype == np.float32 and loss.shape == x.shape
    np.testing.assert_allclose(loss, expected, rtol=1e-5, atol=1e-5)


def test_sigmoid_xent_stable_and_gradients():
    loss = run(tf.nn.sigmoid_cross_entropy_with_logits(labels=[1.0, 0.0, 1.0],
                                                       logits=[-1e4, -1e4, 1e4]))
    np.testing.assert_allclose(loss, [1e4, 0, 0])
    check_gradients(lambda x, z: tf.nn.sigmoid_cross_entropy_with_logits(labels=z, logits=x),
                    [RNG.standard_normal((3, 4)) * 4, RNG.uniform(0, 1, (3, 4))])


# -- l2_loss, bias_add ----------------------------------------------------------------

def test_l2_loss():
    x = RNG.standard_normal((3, 4)).astype(np.float32)
    y = tf.nn.l2_loss(x)
    assert y.op.type == "L2Loss" and y.get_shape().as_list() == []
    value = run(y)
    assert value.dtype == np.float32
    np.testing.assert_allclose(value, (x.astype(np.float64) ** 2).sum() / 2, rtol=1e-5)
    check_gradients(tf.nn.l2_loss, [RNG.standard_normal((2, 3))])


def test_bias_add_forward_and_formats():
    x = RNG.standard_normal((2, 3, 4, 5)).astype(np.float32)
    b5, b3 = np.arange(5, dtype=np.float32), np.arange(3, dtype=np.float32)
    y = tf.nn.bias_add(tf.placeholder(tf.float32, [None, 5]), b5)
    assert y.op.type == "BiasAdd" and y.op.name == "BiasAdd"
    assert y.get_shape().as_list() == [None, 5]
    nhwc, nchw = run([tf.nn.bias_add(x, b5), tf.nn.bias_add(x, b3, data_format="NCHW")])
    np.testing.assert_allclose(nhwc, x + b5)
    np.testing.assert_allclose(nchw, x + b3[None, :, None, None])
    with pytest.raises(ValueError, match="Dimensions must be equal, but are 5 and 3"):
        tf.nn.bias_add(tf.zeros([2, 5]), b3)
    with pytest.raises(ValueError, match="at least rank 2"):
        tf.nn.bias_add(tf.zeros([5]), b5)
    with pytest.raises(ValueError, match="data_format"):
        tf.nn.bias_add(x, b5, data_format="HWCN")
    v = tf.placeholder(tf.float32)
    with pytest.raises(tf.errors.InvalidArgumentError, match="as many biases"):
        run(tf.nn.bias_add(v, b5), {v: np.zeros((2, 4))})


@pytest.mark.parametrize("data_format,shape", [("NHWC", (2, 3)), ("NHWC", (2, 2, 3)),
                                               ("NCHW", (2, 3, 2, 2))])
def test_bias_add_gradients(data_format, shape):
    x, b = RNG.standard_normal(shape), RNG.standard_normal(3)
    check_gradients(lambda x, b: tf.nn.bias_add(x, b, data_format=data_format), [x, b])
    u = RNG.standard_normal(shape)
    xp = tf.placeholder(tf.float64, shape)
    bp = tf.placeholder(tf.float64, [3])
    g = tf.gradients(tf.nn.bias_add(xp, bp, data_format=data_format), bp, grad_ys=u)[0]
    assert g.op.type == "BiasAddGrad"
    # BiasAddGrad is differentiable too (second derivatives).
    check_gradients(lambda u: nn_ops.bias_add_grad(u, data_format), [u])


def test_xw_plus_b_and_relu_layer():
    x, w, b = (RNG.standard_normal(s).astype(np.float32) for s in [(2, 3), (3, 4), (4,)])
    a, r = run([tf.nn.xw_plus_b(x, w, b), tf.nn.relu_layer(x, w, b, name="layer")])
    np.testing.assert_allclose(a, x @ w + b, rtol=1e-5)
    np.testing.assert_allclose(r, np.maximum(x @ w + b, 0), rtol=1e-5)


# -- dropout --------------------------------------------------------------------------

def test_dropout_scales_kept_entries():
    x = np.ones((200, 50), np.float32)
    y = run(tf.nn.dropout(x, keep_prob=0.25))
    assert y.dtype == np.float32
    assert set(np.unique(y).tolist()) <= {0.0, 4.0}
    assert 0.2 < (y != 0).mean() < 0.3


def test_dropout_keep_prob_placeholder_as_in_the_tutorial():
    keep_prob = tf.placeholder(tf.float32)
    x = RNG.standard_normal((40, 30)).astype(np.float32)
    y = tf.nn.dropout(tf.constant(x), keep_prob)
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(y, {keep_prob: 1.0}), x)
        half = sess.run(y, {keep_prob: 0.5})
        assert np.allclose(half[half != 0], 2 * x[half != 0])
        with pytest.raises(tf.errors.InvalidArgumentError, match="range"):
            sess.run(y, {keep_prob: 0.0})


def test_dropout_rate_and_errors():
    x = tf.ones([100, 100])
    y = run(tf.nn.dropout(x, rate=0.75))
    assert set(np.unique(y).tolist()) <= {0.0, 4.0}
    assert tf.nn.dropout(x, rate=0.0) is x
    with pytest.raises(ValueError, match=r"range \[0, 1\), got 1"):
        tf.nn.dropout(x, keep_prob=0.0)
    with pytest.raises(ValueError, match="You must provide a rate"):
        tf.nn.dropout(x)
    with pytest.raises(ValueError, match="Cannot specify both"):
        tf.nn.dropout(x, keep_prob=0.5, rate=0.5)
    with pytest.raises(ValueError, match="floating point tensor"):
        tf.nn.dropout(tf.ones([2], tf.int32), keep_prob=0.5)


def test_dropout_noise_shape_shares_the_mask():
    y = run(tf.nn.dropout(tf.ones([6, 40]), keep_prob=0.5, noise_shape=[1, 40]))
    assert np.all(y == y[0]) and 0 < (y[0] != 0).sum() < 40
    y = run(tf.nn.dropout(tf.ones([40, 6]), keep_prob=0.5,
                          noise_shape=tf.constant([40, 1])))
    assert np.all(y == y[:, :1])
    y = run(tf.nn.dropout(tf.ones([40, 6]), keep_prob=0.5, noise_shape=[None, 1]))
    assert np.all(y == y[:, :1])


def test_dropout_seeding_follows_random_ops():
    def masks(op_seed, graph_seed):
        g = tf.Graph()
        with g.as_default():
            if graph_seed is not None:
                tf.set_random_seed(graph_seed)
            y = tf.nn.dropout(tf.ones([30, 30]), keep_prob=0.5, seed=op_seed)
            with tf.Session() as sess:
                return sess.run(y), sess.run(y)

    a1, a2 = masks(7, None)
    b1, b2 = masks(7, None)
    assert not np.array_equal(a1, a2)          # a new mask on every run
    np.testing.assert_array_equal(a1, b1)      # the same sequence in a new session
    np.testing.assert_array_equal(a2, b2)
    c1, _ = masks(None, 3)
    d1, _ = masks(None, 3)
    np.testing.assert_array_equal(c1, d1)
    assert not np.array_equal(masks(8, None)[0], a1)


def test_dropout_gradient_uses_the_same_mask():
    x = tf.constant(RNG.standard_normal((20, 10)))
    y = tf.nn.dropout(x, keep_prob=0.5)
    w = RNG.standard_normal((20, 10))
    xv, yv, gv = run([x, y, tf.gradients(y, x, grad_ys=w)[0]])
    np.testing.assert_allclose(gv, w * (yv / xv))
    assert gv.dtype == np.float64


# -- in_top_k, top_k ------------------------------------------------------------------

@QUICK
@given(p=floats(st.tuples(st.integers(1, 5), st.integers(1, 6)), -3, 3), k=st.integers(0, 4),
       data=st.data())
def test_in_top_k(p, k, data):
    p = np.round(p)            # plenty of ties
    n = p.shape[1]
    t = np.array(data.draw(st.lists(st.integers(0, n - 1), min_size=len(p), max_size=len(p))),
                 np.int32)
    got = run(tf.nn.in_top_k(p, t, k))
    expected = [(row > row[ti]).sum() < k for row, ti in zip(p, t)]
    assert got.dtype == np.bool_
    assert got.tolist() == expected


def test_in_top_k_invalid_entries_are_false():
    p = np.array([[0.1, 0.9], [np.nan, 0.2], [0.5, 0.1]], np.float32)
    assert run(tf.nn.in_top_k(p, [1, 1, 5], 1)).tolist() == [True, False, False]
    out = tf.nn.in_top_k(tf.placeholder(tf.float32, [None, 10]), tf.placeholder(tf.int32), 1)
    assert out.dtype == tf.bool and out.get_shape().as_list() == [None]


def test_top_k_values_indices_and_gradient():
    x = np.array([[1.0, 3.0, 3.0, 2.0], [4.0, -1.0, 0.0, 5.0]], np.float32)
    values, indices = tf.nn.top_k(x, k=2)
    assert values.get_shape().as_list() == [2, 2] and indices.dtype == tf.int32
    v, i = run([values, indices])
    assert v.tolist() == [[3, 3], [5, 4]] and i.tolist() == [[1, 2], [3, 0]]
    check_gradients(lambda x: tf.nn.top_k(x, 2)[0], [RNG.standard_normal((3, 5))])
    with pytest.raises(ValueError, match="k = 5"):
        tf.nn.top_k(x, 5)


# -- statistics -----------------------------------------------------------------------

def test_moments_l2_normalize_zero_fraction():
    x = RNG.standard_normal((4, 3)).astype(np.float32)
    mean, var = tf.nn.moments(tf.constant(x), axes=[0])
    m, v = run([mean, var])
    np.testing.assert_allclose(m, x.mean(axis=0), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(v, x.var(axis=0), rtol=1e-5)
    mk, _ = tf.nn.moments(tf.constant(x), axes=[1], keep_dims=True)
    assert mk.get_shape().as_list() == [4, 1]
    check_gradients(lambda x: tf.nn.moments(x, axes=[0])[1], [RNG.standard_normal((4, 3))])
    n = run(tf.nn.l2_normalize(x, axis=1))
    np.testing.assert_allclose(n, x / np.linalg.norm(x, axis=1, keepdims=True), rtol=1e-5)
    assert run(tf.nn.zero_fraction(tf.constant([0.0, 1.0, 0.0, 2.0]))) == 0.5


# -- conv2d and pooling ---------------------------------------------------------------

def _geometry(size, k, stride, dilation, padding):
    eff = (k - 1) * dilation + 1
    if padding == "SAME":
        out = -(-size // stride)
        return out, max((out - 1) * stride + eff - size, 0) // 2, eff
    return (size - eff) // stride + 1, 0, eff


def np_windows(x, kh, kw, strides, padding, dilations=(1, 1), fill=0.0):
    """Yields (i, j, window [n, kh, kw, c], valid mask [kh, kw]) with plain loops."""
    n, h, w, c = x.shape
    oh, top, eff_h = _geometry(h, kh, strides[0], dilations[0], padding)
    ow, left, eff_w = _geometry(w, kw, strides[1], dilations[1], padding)
    big = np.full((n, h + 2 * eff_h, w + 2 * eff_w, c), fill)
    big[:, eff_h:eff_h + h, eff_w:eff_w + w] = x
    valid = np.zeros(big.shape[1:3], bool)
    valid[eff_h:eff_h + h, eff_w:eff_w + w] = True
    for i in range(oh):
        for j in range(ow):
            r0, c0 = eff_h - top + i * strides[0], eff_w - left + j * strides[1]
            rows = slice(r0, r0 + eff_h, dilations[0])
            cols = slice(c0, c0 + eff_w, dilations[1])
            yield i, j, big[:, rows, cols], valid[rows, cols], (oh, ow)


def np_conv2d(x, f, strides, padding, dilations=(1, 1)):
    out = None
    for i, j, win, _, (oh, ow) in np_windows(x, f.shape[0], f.shape[1], strides, padding,
                                             dilations):
        if out is None:
            out = np.zeros((x.shape[0], oh, ow, f.shape[3]))
        out[:, i, j] = np.einsum("nabc,abco->no", win, f)
    return out


def np_pool(x, k, strides, padding, how):
    out = None
    fill = -np.inf if how == "max" else 0.0
    for i, j, win, valid, (oh, ow) in np_windows(x, k[0], k[1], strides, padding, fill=fill):
        if out is None:
            out = np.zeros((x.shape[0], oh, ow, x.shape[3]))
        out[:, i, j] = win.max(axis=(1, 2)) if how == "max" else \
            win.sum(axis=(1, 2)) / valid.sum()
    return out


CONV_CASES = [  # input shape, filter shape, strides, padding, dilations
    ((2, 5, 5, 1), (3, 3, 1, 2), (1, 1), "SAME", (1, 1)),
    ((1, 6, 7, 2), (3, 2, 2, 3), (2, 2), "SAME", (1, 1)),
    ((1, 7, 6, 2), (3, 3, 2, 1), (2, 1), "VALID", (1, 1)),
    ((1, 7, 7, 1), (2, 2, 1, 2), (1, 1), "VALID", (2, 2)),
    ((1, 4, 4, 2), (1, 1, 2, 2), (1, 1), "SAME", (1, 1)),
]


@pytest.mark.parametrize("xs,fs,strides,padding,dil", CONV_CASES)
def test_conv2d_forward(xs, fs, strides, padding, dil):
    x = RNG.standard_normal(xs).astype(np.float32)
    f = RNG.standard_normal(fs).astype(np.float32)
    y = tf.nn.conv2d(x, f, strides=[1, *strides, 1], padding=padding,
                     dilations=[1, *dil, 1])
    value = run(y)
    expected = np_conv2d(x.astype(np.float64), f.astype(np.float64), strides, padding, dil)
    assert value.dtype == np.float32
    assert y.get_shape().as_list() == list(expected.shape) == list(value.shape)
    np.testing.assert_allclose(value, expected, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("xs,fs,strides,padding,dil", CONV_CASES[:4])
def test_conv2d_gradients(xs, fs, strides, padding, dil):
    check_gradients(lambda x, f: tf.nn.conv2d(x, f, [1, *strides, 1], padding,
                                              dilations=[1, *dil, 1]),
                    [RNG.standard_normal(xs), RNG.standard_normal(fs)])


def test_conv2d_backprop_ops_are_differentiable():
    xs, fs, strides = (1, 5, 5, 2), (3, 3, 2, 2), [1, 2, 2, 1]
    x, f = RNG.standard_normal(xs), RNG.standard_normal(fs)
    u = RNG.standard_normal((1, 3, 3, 2))
    check_gradients(lambda f, u: tf.nn.conv2d_backprop_input(list(xs), f, u, strides, "SAME"),
                    [f, u])
    check_gradients(lambda x, u: tf.nn.conv2d_backprop_filter(x, list(fs), u, strides, "SAME"),
                    [x, u])
    dx = tf.gradients(tf.nn.conv2d(tf.placeholder(tf.float32, [None, 28, 28, 1]),
                                   tf.zeros([5, 5, 1, 32]), [1, 1, 1, 1], "SAME"),
                      [tf.get_default_graph().get_tensor_by_name("Placeholder:0")])[0]
    assert dx.op.type == "Conv2DBackpropInput"
    assert dx.get_shape().as_list() == [None, 28, 28, 1]


def test_deep_mnist_shapes_and_names():
    x = tf.placeholder(tf.float32, [None, 28, 28, 1])
    h = tf.nn.conv2d(x, tf.zeros([5, 5, 1, 32]), strides=[1, 1, 1, 1], padding="SAME")
    assert h.op.type == "Conv2D" and h.op.name == "Conv2D"
    assert h.get_shape().as_list() == [None, 28, 28, 32]
    p = tf.nn.max_pool(h, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="SAME")
    assert p.op.type == "MaxPool" and p.get_shape().as_list() == [None, 14, 14, 32]
    v = tf.nn.conv2d(p, tf.zeros([5, 5, 32, 64]), strides=1, padding="VALID")
    assert v.get_shape().as_list() == [None, 10, 10, 64]
    a = tf.nn.avg_pool(v, ksize=3, strides=2, padding="VALID")
    assert a.get_shape().as_list() == [None, 4, 4, 64]


def test_conv2d_and_pool_errors():
    x = tf.placeholder(tf.float32, [None, 8, 8, 3])
    with pytest.raises(ValueError, match="Dimensions must be equal, but are 3 and 1"):
        tf.nn.conv2d(x, tf.zeros([3, 3, 1, 4]), [1, 1, 1, 1], "SAME")
    with pytest.raises(ValueError, match="padding must be"):
        tf.nn.conv2d(x, tf.zeros([3, 3, 3, 4]), [1, 1, 1, 1], "FULL")
    with pytest.raises(ValueError, match="NHWC"):
        tf.nn.conv2d(x, tf.zeros([3, 3, 3, 4]), [1, 1, 1, 1], "SAME", data_format="NCHW")
    with pytest.raises(ValueError, match="strides in the batch"):
        tf.nn.max_pool(x, [1, 2, 2, 1], [2, 2, 2, 1], "SAME")
    with pytest.raises(ValueError, match="Computed output size would be negative"):
        tf.nn.conv2d(x, tf.zeros([10, 10, 3, 4]), [1, 1, 1, 1], "VALID")
    with pytest.raises(ValueError, match="ksize"):
        tf.nn.max_pool(x, [2, 2, 2, 1], [1, 2, 2, 1], "SAME")
    bad = tf.placeholder(tf.float32)
    with pytest.raises(tf.errors.InvalidArgumentError, match="in_channels"):
        run(tf.nn.conv2d(bad, tf.zeros([3, 3, 3, 4]), [1, 1, 1, 1], "SAME"),
            {bad: np.zeros((1, 5, 5, 2))})


POOL_CASES = [  # input shape, window, strides, padding
    ((2, 6, 6, 3), (2, 2), (2, 2), "SAME"),
    ((1, 5, 7, 2), (2, 2), (2, 2), "SAME"),
    ((1, 5, 5, 1), (3, 3), (1, 1), "SAME"),
    ((1, 7, 6, 2), (3, 2), (2, 1), "VALID"),
]


@pytest.mark.parametrize("how", ["max", "avg"])
@pytest.mark.parametrize("xs,k,strides,padding", POOL_CASES)
def test_pool_forward(how, xs, k, strides, padding):
    x = RNG.standard_normal(xs).astype(np.float32)
    fn = tf.nn.max_pool if how == "max" else tf.nn.avg_pool
    y = fn(x, [1, *k, 1], [1, *strides, 1], padding)
    value = run(y)
    expected = np_pool(x.astype(np.float64), k, strides, padding, how)
    assert value.dtype == np.float32
    assert y.get_shape().as_list() == list(expected.shape) == list(value.shape)
    np.testing.assert_allclose(value, expected, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("how", ["max", "avg"])
@pytest.mark.parametrize("xs,k,strides,padding", POOL_CASES[1:])
def test_pool_gradients(how, xs, k, strides, padding):
    fn = tf.nn.max_pool if how == "max" else tf.nn.avg_pool
    check_gradients(lambda x: fn(x, [1, *k, 1], [1, *strides, 1], padding),
                    [RNG.standard_normal(xs)])


def test_max_pool_gradient_goes_to_one_max_per_window():
    x = tf.constant(np.ones((1, 2, 2, 1), np.float32))       # every entry ties
    dx = run(tf.gradients(tf.nn.max_pool(x, [1, 2, 2, 1], [1, 2, 2, 1], "VALID"), x)[0])
    assert dx.sum() == 1 and dx[0, 0, 0, 0] == 1
    assert run(tf.nn.max_pool(tf.constant([[[[-5]], [[-7]]]]), [1, 2, 1, 1], [1, 1, 1, 1],
                              "SAME")).ravel().tolist() == [-5, -7]


def test_avg_pool_grad_is_differentiable():
    u = RNG.standard_normal((1, 3, 3, 1))
    check_gradients(lambda u: tf.gradients(
        tf.nn.avg_pool(tf.zeros([1, 5, 5, 1], tf.float64), [1, 2, 2, 1], [1, 2, 2, 1], "SAME"),
        tf.get_default_graph().get_tensor_by_name("zeros:0"), grad_ys=u)[0], [u])


# -- normalization and embeddings -----------------------------------------------------

def np_lrn(x, r, bias, alpha, beta):
    out = np.empty_like(x)
    depth = x.shape[-1]
    for d in range(depth):
        window = x[..., max(0, d - r):min(depth, d + r + 1)]
        out[..., d] = x[..., d] / (bias + alpha * (window ** 2).sum(axis=-1)) ** beta
    return out


@pytest.mark.parametrize("r,bias,alpha,beta", [(5, 1.0, 1.0, 0.5), (2, 2.0, 0.1, 0.75),
                                               (1, 1.0, 0.001 / 9.0, 0.75)])
def test_lrn_forward_and_gradient(r, bias, alpha, beta):
    x = RNG.standard_normal((2, 3, 2, 7)).astype(np.float32)
    y = tf.nn.lrn(x, r, bias=bias, alpha=alpha, beta=beta)
    assert y.op.type == "LRN" and y.get_shape().as_list() == [2, 3, 2, 7]
    value = run(y)
    assert value.dtype == np.float32
    np.testing.assert_allclose(value, np_lrn(x.astype(np.float64), r, bias, alpha, beta),
                               rtol=1e-5, atol=1e-6)
    check_gradients(lambda x: tf.nn.local_response_normalization(x, r, bias, alpha, beta),
                    [RNG.standard_normal((1, 2, 1, 6))])


def test_batch_normalization():
    x, m, v, o, s = (RNG.standard_normal(sh) for sh in [(4, 3), (3,), (3,), (3,), (3,)])
    v = np.abs(v) + 0.1
    y = run(tf.nn.batch_normalization(x, m, v, o, s, 1e-3))
    np.testing.assert_allclose(y, (x - m) / np.sqrt(v + 1e-3) * s + o, rtol=1e-6)
    y = run(tf.nn.batch_normalization(x, m, v, None, None, 1e-3))
    np.testing.assert_allclose(y, (x - m) / np.sqrt(v + 1e-3), rtol=1e-6)
    check_gradients(lambda x, m, v, o, s: tf.nn.batch_normalization(x, m, v, o, s, 1e-3),
                    [x, m, v, o, s])


def test_embedding_lookup():
    params = RNG.standard_normal((5, 3)).astype(np.float32)
    ids = np.array([[4, 0], [2, 2]])
    e = tf.nn.embedding_lookup(params, ids)
    # TF 1.15: embedding_lookup/Identity:0, of the GatherV2 named embedding_lookup
    assert e.op.name == "embedding_lookup/Identity" and e.get_shape().as_list() == [2, 2, 3]
    np.testing.assert_array_equal(run(e), params[ids])
    np.testing.assert_array_equal(run(tf.nn.embedding_lookup([params], [1])), params[[1]])
    # two shards, 'mod': id 3 is row 1 of shard 1
    np.testing.assert_array_equal(run(tf.nn.embedding_lookup([params, params], [3])),
                                  params[[1]])
