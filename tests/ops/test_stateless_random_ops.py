"""tf.random.stateless_* (sandbox/ops/stateless_random_ops.py): TensorFlow's exact numbers for
the same seed, the same numbers on every run and in every session, and TF's errors."""
import numpy as np
import pytest

import sandbox as tf
from sandbox.ops.stateless_random_ops import key_counter

R = tf.random
ninf = float("-inf")

# The expressions below, run in TensorFlow 2.15.1 (`import tensorflow.compat.v1 as tf`, in a
# tf.Session on CPU, `R = tf.random`), gave the numbers of TF_VALUES.
CASES = {
    "uniform": lambda: R.stateless_uniform([3, 2], seed=[1, 2]),
    "uniform_f64_range": lambda: R.stateless_uniform([5], seed=[7, -3], minval=-2.0, maxval=3.0,
                                                     dtype=tf.float64),
    "uniform_f16": lambda: R.stateless_uniform([5], seed=[2**31 - 1, -2**31], dtype=tf.float16),
    "uniform_f32_range_int64_seed": lambda: R.stateless_uniform(
        [2, 3], seed=tf.constant([2**40, 12345], tf.int64), minval=10.0, maxval=20.0),
    "uniform_int32": lambda: R.stateless_uniform([7], seed=[1, 2], minval=-5, maxval=10,
                                                 dtype=tf.int32),
    "uniform_int64": lambda: R.stateless_uniform([3], seed=tf.constant([1, 2], tf.int64),
                                                 minval=-3, maxval=2**40, dtype=tf.int64),
    "uniform_full_int32": lambda: R.stateless_uniform([5], seed=[3, 3], minval=None,
                                                      maxval=None, dtype=tf.int32),
    "uniform_full_int64": lambda: R.stateless_uniform([3], seed=[3, 3], minval=None,
                                                      maxval=None, dtype=tf.int64),
    "normal": lambda: R.stateless_normal([2, 3], seed=[3, 4]),
    "normal_f64": lambda: R.stateless_normal([5], seed=tf.constant([2**40, -5], tf.int64),
                                             mean=1.0, stddev=2.0, dtype=tf.float64),
    "normal_f16": lambda: R.stateless_normal([6], seed=[0, 0], dtype=tf.float16),
    "truncated": lambda: R.stateless_truncated_normal([3, 3], seed=[-1, 7]),
    "truncated_f64": lambda: R.stateless_truncated_normal([5], seed=[-1, 7], dtype=tf.float64),
    "truncated_f16_scaled": lambda: R.stateless_truncated_normal(
        [6], seed=[11, 12], mean=-1.0, stddev=0.5, dtype=tf.float16),
    "categorical": lambda: R.stateless_categorical([[0., 1., 2.], [1., 1., 1.]], 6,
                                                   seed=[5, 6]),
    "categorical_int32_f64": lambda: R.stateless_categorical(
        np.array([[0.5, -1., 3., 0.], [2., 2., -2., 1.], [0., 0., 0., 0.]]), 5, seed=[9, -9],
        dtype=tf.int32),
    "multinomial_ninf": lambda: R.stateless_multinomial(
        [[ninf, 0., 1., ninf], [3., ninf, 3., 0.]], 7, seed=[123, 456]),
}

TF_VALUES = {  # TF 2.15.1's numbers (tf.compat.v1 in a Session, CPU)
    'uniform': ([3, 2], 'float32', [
        0.8440604209899902, 0.19204533100128174, 0.9962232112884521, 0.16038739681243896,
        0.27199018001556396, 0.6493459939956665
    ]),
    'uniform_f64_range': ([5], 'float64', [
        0.38568890900608066, 2.9045205316391227, 1.591457971552222, 0.13410746803032625,
        -1.2359501292039137
    ]),
    'uniform_f16': ([5], 'float16', [
        0.197265625, 0.5732421875, 0.705078125, 0.54296875, 0.1005859375
    ]),
    'uniform_f32_range_int64_seed': ([2, 3], 'float32', [
        10.539565086364746, 16.200298309326172, 15.199201583862305, 19.713428497314453,
        13.715736389160156, 16.660011291503906
    ]),
    'uniform_int32': ([7], 'int32', [
        5, 9, 4, 4, 2, 5, 1
    ]),
    'uniform_int64': ([3], 'int64', [
        1036172738669, 635315242662, 846071781177
    ]),
    'uniform_full_int32': ([5], 'int32', [
        1726154704, -1526254098, -1002213338, -1123532936, -314543149
    ]),
    'uniform_full_int64': ([3], 'int64', [
        -6555211434569824304, -4825537212806107098, 4099897770956059603
    ]),
    'normal': ([2, 3], 'float32', [
        -0.17393383383750916, 1.6723546981811523, 0.3481701612472534, -1.7038906812667847,
        -0.6153246164321899, 0.36620965600013733
    ]),
    'normal_f64': ([5], 'float64', [
        3.7293019685878455, 1.897757722997487, 1.7712059722523232, -0.13177537640376857,
        3.5350818017534817
    ]),
    'normal_f16': ([6], 'float16', [
        -1.697265625, -0.4814453125, -0.662109375, 0.0870361328125, -1.0, 0.943359375
    ]),
    'truncated': ([3, 3], 'float32', [
        -0.18167541921138763, 0.012629484757781029, 1.4927144050598145, -0.10535857826471329,
        -0.23615090548992157, -0.28459957242012024, 0.09646531939506531, 1.367678165435791,
        -1.2410128116607666
    ]),
    'truncated_f64': ([5], 'float64', [
        -0.34154115703791693, -0.40679399299740476, -0.050948141610258714, 0.2529095602640053,
        0.8688247368861861
    ]),
    'truncated_f16_scaled': ([6], 'float16', [
        -0.9765625, -1.80859375, -1.162109375, -1.822265625, -1.494140625, -1.5390625
    ]),
    'categorical': ([2, 6], 'int64', [
        1, 1, 1, 2, 1, 1, 0, 2, 1, 2, 1, 0
    ]),
    'categorical_int32_f64': ([3, 5], 'int32', [
        2, 2, 2, 2, 2, 3, 1, 1, 3, 1, 1, 1, 1, 3, 1
    ]),
    'multinomial_ninf': ([2, 7], 'int64', [
        2, 2, 2, 2, 2, 2, 1, 0, 2, 2, 2, 2, 2, 2
    ]),
}


def run(t, feed=None):
    with tf.Session() as sess:
        return sess.run(t, feed)


@pytest.mark.parametrize("case", sorted(CASES))
def test_tf_numbers(case):
    shape, dtype, values = TF_VALUES[case]
    t = CASES[case]()
    assert t.dtype.name == dtype
    assert t.get_shape().as_list() == shape
    got = run(t)
    assert got.dtype == np.dtype(dtype) and got.shape == tuple(shape)
    want = np.array(values, dtype=dtype).reshape(shape)
    if got.dtype.kind == "f":
        np.testing.assert_allclose(got, want, rtol=1e-7, atol=0)
    else:
        np.testing.assert_array_equal(got, want)


def test_tf_numbers_exactly_where_no_libm_rounding_enters():
    """Uniforms and integers are bit arithmetic: bit for bit TF's."""
    for case in ("uniform", "uniform_f16", "uniform_f64_range", "uniform_int32",
                 "uniform_int64", "uniform_full_int32", "uniform_full_int64", "categorical"):
        shape, dtype, values = TF_VALUES[case]
        assert run(CASES[case]()).tolist() == np.array(values, dtype).reshape(shape).tolist()


def test_key_counter_scrambles_the_seed():
    """GenerateKey: one Philox block of the seed under a fixed key; int32 seeds sign-extend."""
    key, counter = key_counter(np.array([1, 2], np.int32))
    assert counter & ((1 << 64) - 1) == 0            # counter words 0 and 1 are zero
    assert key_counter(np.array([-1, 7], np.int32)) == key_counter(np.array([-1, 7], np.int64))
    assert key_counter([1, 2]) != key_counter([2, 1])


def test_same_numbers_every_run_and_every_session():
    x = R.stateless_normal([4, 5], seed=[7, 8])
    c = R.stateless_categorical([[1., 2., 3.]], 10, seed=[7, 8])
    with tf.Session() as sess:
        first = sess.run([x, c])
        second = sess.run([x, c])
    with tf.Session() as sess:
        third = sess.run([x, c])
    for a, b, d in zip(first, second, third):
        np.testing.assert_array_equal(a, b)
        np.testing.assert_array_equal(a, d)
    with tf.Graph().as_default():          # an identical op in another graph
        again = run(R.stateless_normal([4, 5], seed=[7, 8]))
    np.testing.assert_array_equal(first[0], again)
    other = run(R.stateless_normal([4, 5], seed=[7, 9]))
    assert not np.array_equal(first[0], other)


def test_seed_fed_at_run_time():
    seed = tf.placeholder(tf.int32, [None])
    u = R.stateless_uniform([3, 2], seed=seed)
    shape, dtype, values = TF_VALUES["uniform"]
    want = np.array(values, dtype).reshape(shape).tolist()
    with tf.Session() as sess:
        assert sess.run(u, {seed: [1, 2]}).tolist() == want
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=r"seed must have shape \[2\], not \[3\]"):
            sess.run(u, {seed: [1, 2, 3]})


def test_uniform_minval_maxval_scale_the_unit_numbers():
    unit = run(R.stateless_uniform([50], seed=[4, 4], dtype=tf.float64))
    scaled = run(R.stateless_uniform([50], seed=[4, 4], minval=-3.0, maxval=5.0,
                                     dtype=tf.float64))
    np.testing.assert_allclose(scaled, unit * 8.0 - 3.0, rtol=1e-15)
    assert ((unit >= 0) & (unit < 1)).all()
    ints = run(R.stateless_uniform([1000], seed=[4, 4], minval=3, maxval=7, dtype=tf.int64))
    assert set(ints.tolist()) == {3, 4, 5, 6}


def test_truncated_normal_within_two_stddev():
    x = run(R.stateless_truncated_normal([2000], seed=[1, 1], mean=5.0, stddev=2.0))
    assert (np.abs(x - 5.0) < 4.0).all()


def test_static_shapes():
    assert R.stateless_normal([2, 3], seed=[1, 2]).get_shape().as_list() == [2, 3]
    logits = tf.placeholder(tf.float32, [None, 4])
    assert R.stateless_categorical(logits, 3, seed=[1, 2]).get_shape().as_list() == [None, 3]


def test_no_gradient_through_the_numbers():
    x = tf.constant([1.0, 2.0])
    y = R.stateless_normal([2], seed=[1, 2], mean=x)
    (g,) = tf.gradients(tf.reduce_sum(y), [x])
    np.testing.assert_array_equal(run(g), [1.0, 1.0])


# -- errors, as TF's ---------------------------------------------------------------

def test_seed_of_wrong_shape_fails_when_built():
    with pytest.raises(ValueError, match="Dimension must be 2 but is 3"):
        R.stateless_uniform([2], seed=[1, 2, 3])
    with pytest.raises(ValueError, match="Shape must be rank 1 but is rank 2"):
        R.stateless_truncated_normal([2], seed=[[1, 2]])
    with pytest.raises(ValueError, match="Dimension must be 2 but is 1"):
        R.stateless_categorical([[1., 2.]], 2, seed=[1])


def test_seed_must_be_integer():
    with pytest.raises(TypeError, match="'seed' has DataType float32 not in list of allowed "
                       "values: int32, int64"):
        R.stateless_uniform([2], seed=[1.0, 2.0])


def test_integer_uniform_needs_maxval():
    with pytest.raises(ValueError, match="argument `minval` and `maxval` must be both None or "
                       "not None"):
        R.stateless_uniform([2], seed=[1, 2], dtype=tf.int32)


def test_integer_uniform_needs_minval_below_maxval():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Need minval < maxval"):
        run(R.stateless_uniform([2], seed=[1, 2], minval=5, maxval=5, dtype=tf.int32))


def test_bad_dtypes():
    with pytest.raises(ValueError, match="Argument `dtype` got invalid value"):
        R.stateless_uniform([2], seed=[1, 2], dtype=tf.bool)
    with pytest.raises(TypeError):
        R.stateless_normal([2], seed=[1, 2], dtype=tf.int32)
    with pytest.raises(TypeError):
        R.stateless_truncated_normal([2], seed=[1, 2], dtype=tf.int64)


def test_categorical_errors():
    with pytest.raises(ValueError, match="Shape must be rank 2 but is rank 1"):
        R.stateless_categorical([1., 2.], 3, seed=[1, 2])
    with pytest.raises(ValueError, match="must be non-negative but is -1"):
        R.stateless_categorical([[1., 2.]], -1, seed=[1, 2])
    logits = tf.placeholder(tf.float32, [None, None])
    c = R.stateless_categorical(logits, 3, seed=[1, 2])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="num_classes should be positive, got 0"):
        run(c, {logits: np.zeros((2, 0), np.float32)})


def test_unsupported_algorithm():
    with pytest.raises(ValueError, match="only Philox"):
        R.stateless_normal([2], seed=[1, 2], alg="threefry")
