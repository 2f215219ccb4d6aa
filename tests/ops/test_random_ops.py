"""Random ops (seeding rules, distributions, shapes) and the initializers of init_ops."""
import math
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import sandbox as tf
from sandbox.ops import init_ops, random_ops

N = 20000          # samples for the statistics: std error of a mean ~ 0.7% of the stddev


def run(t, feed=None):
    with tf.Session() as sess:
        return sess.run(t, feed)


def random_op_of(t):
    """The RandomXxx op behind a public random function's output."""
    stack = [t.op]
    while stack:
        op = stack.pop()
        if op.type.startswith("Random") or op.type in ("TruncatedNormal", "Multinomial"):
            return op
        stack.extend(i.op for i in op.inputs)
    raise AssertionError(f"no random op behind {t}")


# -- get_seed: TF's exact rule ------------------------------------------------------

def test_get_seed_neither_seed_is_unseeded():
    assert tf.get_seed(None) == (None, None)


def test_get_seed_op_seed_only_uses_default_graph_seed():
    assert tf.get_seed(7) == (random_ops.DEFAULT_GRAPH_SEED, 7) == (87654321, 7)


def test_get_seed_graph_seed_only_counts_the_seeded_ops():
    tf.set_random_seed(5)
    tf.constant(1.0)
    g = tf.get_default_graph()
    assert g.seed == 5
    assert tf.get_seed(None) == (5, 0)     # TF 2: the first op seeded this way gets 0 ...
    tf.constant(2.0)
    tf.constant(3.0)
    assert tf.get_seed(None) == (5, 1)     # ... the next 1, however many other ops came between
    assert tf.get_seed(9) == (5, 9)        # an explicit op seed does not count
    assert tf.get_seed(None) == (5, 2)


def test_get_seed_both_and_truncation_and_zero_pair():
    tf.set_random_seed(2**31 + 3)
    assert tf.get_seed(11) == (4, 11)     # seeds are taken modulo 2**31 - 1
    tf.set_random_seed(0)
    assert tf.get_seed(0) == (0, 2**31 - 1)   # (0, 0) would mean "unseeded"


def test_random_ops_carry_seed_attrs():
    tf.set_random_seed(3)
    x = tf.random_normal([2], seed=9)
    op = random_op_of(x)
    assert op.type == "RandomStandardNormal"
    assert (op.get_attr("seed"), op.get_attr("seed2")) == (3, 9)
    tf.reset_default_graph()
    op = random_op_of(tf.random_uniform([2]))
    assert (op.get_attr("seed"), op.get_attr("seed2")) == (0, 0)


# -- seeding behaviour across runs, sessions and graphs -------------------------------

ALL_OPS = {
    "normal": lambda **kw: tf.random_normal([50], **kw),
    "truncated": lambda **kw: tf.truncated_normal([50], **kw),
    "uniform": lambda **kw: tf.random_uniform([50], **kw),
    "uniform_scaled": lambda **kw: tf.random_uniform([50], -3.0, 5.0, **kw),
    "uniform_int": lambda **kw: tf.random_uniform([50], 0, 1000, dtype=tf.int64, **kw),
    "shuffle": lambda **kw: tf.random_shuffle(tf.range(50), **kw),
    "multinomial": lambda **kw: tf.multinomial(tf.zeros([2, 10]), 25, **kw),
}


def _two_sessions(build):
    g = tf.Graph()
    with g.as_default():
        x = build()
    out = []
    for _ in range(2):
        with tf.Session(graph=g) as sess:
            out.append([sess.run(x), sess.run(x)])
    return out


@pytest.mark.parametrize("kind", sorted(ALL_OPS))
def test_graph_and_op_seed_replay_in_new_session_and_differ_between_runs(kind):
    def build():
        tf.set_random_seed(1234)
        return ALL_OPS[kind](seed=7)
    (a1, a2), (b1, b2) = _two_sessions(build)
    np.testing.assert_array_equal(a1, b1)      # a new session replays the sequence
    np.testing.assert_array_equal(a2, b2)
    assert not np.array_equal(a1, a2)          # successive runs give new numbers


@pytest.mark.parametrize("kind", sorted(ALL_OPS))
def test_graph_seed_only_replays_in_a_rebuilt_graph(kind):
    def build():
        tf.set_random_seed(99)
        tf.constant(0.0)                       # same ops before it -> same op seed
        return ALL_OPS[kind]()
    (a1, a2), _ = _two_sessions(build)
    (c1, c2), _ = _two_sessions(build)
    np.testing.assert_array_equal(a1, c1)
    np.testing.assert_array_equal(a2, c2)


def test_op_seed_only_is_reproducible_across_graphs():
    (a1, _), (b1, _) = _two_sessions(lambda: tf.random_normal([20], seed=3))
    (c1, _), _ = _two_sessions(lambda: tf.random_normal([20], seed=3))
    np.testing.assert_array_equal(a1, b1)
    np.testing.assert_array_equal(a1, c1)


def test_different_op_seeds_differ():
    (a, _), _ = _two_sessions(lambda: tf.random_normal([20], seed=1))
    (b, _), _ = _two_sessions(lambda: tf.random_normal([20], seed=2))
    assert not np.allclose(a, b)


def test_graph_seed_changes_the_numbers():
    def build(seed):
        def f():
            tf.set_random_seed(seed)
            return tf.random_uniform([20], seed=5)
        return f
    (a, _), _ = _two_sessions(build(1))
    (b, _), _ = _two_sessions(build(2))
    assert not np.allclose(a, b)


def test_two_unseeded_ops_under_a_graph_seed_differ():
    tf.set_random_seed(42)
    a, b = tf.random_normal([20]), tf.random_normal([20])
    va, vb = run([a, b])
    assert not np.allclose(va, vb)


@pytest.mark.parametrize("kind", sorted(ALL_OPS))
def test_unseeded_differs_between_sessions(kind):
    (a1, _), (b1, _) = _two_sessions(lambda: ALL_OPS[kind]())
    assert not np.array_equal(a1, b1)


def test_generator_for_keeps_one_generator_per_op_state():
    ctx = SimpleNamespace(state={})
    rng = random_ops.generator_for(ctx, 1, 2)
    assert random_ops.generator_for(ctx, 1, 2) is rng
    first = rng.random(3)
    replay = random_ops.generator_for(SimpleNamespace(state={}), 1, 2).random(3)
    np.testing.assert_array_equal(first, replay)
    other = random_ops.generator_for(SimpleNamespace(state={}), 1, 3).random(3)
    assert not np.allclose(first, other)
    a = random_ops.generator_for(SimpleNamespace(state={}), 0, 0).random(3)
    b = random_ops.generator_for(SimpleNamespace(state={}), 0, 0).random(3)
    assert not np.allclose(a, b)                # (0, 0): fresh entropy


# -- distributions ---------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [tf.float16, tf.float32, tf.float64])
def test_random_normal_statistics_and_dtype(dtype):
    x = tf.random_normal([N], mean=3.0, stddev=2.0, dtype=dtype, seed=1)
    assert x.dtype == dtype and x.get_shape().as_list() == [N]
    v = run(x)
    assert v.dtype == dtype.as_numpy_dtype and v.shape == (N,)
    assert abs(v.astype(np.float64).mean() - 3.0) < 0.05
    assert abs(v.astype(np.float64).std() - 2.0) < 0.05


def test_truncated_normal_bounds_and_statistics():
    v = run(tf.truncated_normal([N], mean=-1.0, stddev=0.5, seed=2))
    assert v.dtype == np.float32
    assert v.min() >= -1.0 - 2 * 0.5 - 1e-6 and v.max() <= -1.0 + 2 * 0.5 + 1e-6
    assert abs(v.mean() + 1.0) < 0.02
    assert abs(v.std() - 0.5 * 0.87962566) < 0.01       # std of N(0,1) cut at +-2
    assert (np.abs(v + 1.0) > 0.9).any()                 # it does reach the tails


def test_random_uniform_float_bounds_and_statistics():
    v = run(tf.random_uniform([N], minval=-2.0, maxval=6.0, seed=3))
    assert v.dtype == np.float32
    assert v.min() >= -2.0 and v.max() < 6.0
    assert abs(v.mean() - 2.0) < 0.1
    assert abs(v.var() - 64 / 12) < 0.2
    u = run(tf.random_uniform([N], dtype=tf.float64, seed=3))
    assert u.dtype == np.float64 and u.min() >= 0 and u.max() < 1 and abs(u.mean() - .5) < .02


@pytest.mark.parametrize("dtype", [tf.int32, tf.int64])
def test_random_uniform_int(dtype):
    x = tf.random_uniform([N], minval=-3, maxval=4, dtype=dtype, seed=4)
    assert x.dtype == dtype and random_op_of(x).type == "RandomUniformInt"
    v = run(x)
    assert v.dtype == dtype.as_numpy_dtype
    assert set(np.unique(v)) == set(range(-3, 4))
    counts = np.bincount(v + 3)
    assert counts.min() > N / 7 * 0.85


def test_random_uniform_int_needs_maxval_and_valid_bounds():
    with pytest.raises(ValueError, match="Must specify maxval for integer dtype"):
        tf.random_uniform([3], dtype=tf.int32)
    x = tf.random_uniform([3], minval=5, maxval=5, dtype=tf.int32)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Need minval < maxval: 5 >= 5"):
        run(x)


def test_random_normal_rejects_integer_dtype():
    with pytest.raises(TypeError, match="int32 not in list of allowed values"):
        tf.random_normal([2], dtype=tf.int32)
    with pytest.raises(TypeError, match="allowed values"):
        tf.truncated_normal([2], dtype=tf.int64)


@settings(max_examples=25, deadline=None)
@given(lo=st.integers(-50, 50), width=st.integers(1, 30), seed=st.integers(1, 10**6))
def test_random_uniform_int_range_property(lo, width, seed):
    with tf.Graph().as_default():
        v = run(tf.random_uniform([200], lo, lo + width, dtype=tf.int32, seed=seed))
    assert v.min() >= lo and v.max() < lo + width


@settings(max_examples=25, deadline=None)
@given(shape=st.lists(st.integers(0, 4), min_size=0, max_size=3),
       lo=st.floats(-10, 10), width=st.floats(0.5, 10))
def test_random_uniform_float_range_and_shape_property(shape, lo, width):
    with tf.Graph().as_default():
        x = tf.random_uniform(shape, lo, lo + width)
        assert x.get_shape().as_list() == shape
        v = run(x)
    assert v.shape == tuple(shape) and v.dtype == np.float32
    if v.size:
        assert v.min() >= np.float32(lo) - 1e-5 and v.max() <= np.float32(lo + width) + 1e-5


# -- shapes -----------------------------------------------------------------------------

@pytest.mark.parametrize("shape", [[2, 3], (2, 3), np.array([2, 3]), np.array([2, 3], np.int64),
                                   tf.TensorShape([2, 3])])
def test_static_shape_from_python_and_numpy_shapes(shape):
    for x in (tf.random_normal(shape), tf.truncated_normal(shape), tf.random_uniform(shape),
              tf.random_uniform(shape, 0, 9, dtype=tf.int32)):
        assert x.get_shape().as_list() == [2, 3]
        assert run(x).shape == (2, 3)


def test_dynamic_shape_from_an_int_tensor():
    s = tf.placeholder(tf.int32, [2])
    x = tf.random_normal(s, seed=1)
    assert x.get_shape().as_list() == [None, None]
    assert run(x, {s: [4, 5]}).shape == (4, 5)
    assert run(tf.random_uniform(s, 0, 3, dtype=tf.int32), {s: [1, 7]}).shape == (1, 7)


def test_shape_from_tf_shape():
    p = tf.placeholder(tf.float32, [None, 3])
    x = tf.random_uniform(tf.shape(p))
    assert x.get_shape().as_list() == [None, 3]
    assert run(x, {p: np.zeros((6, 3))}).shape == (6, 3)


def test_shape_list_mixing_ints_and_tensors():
    p = tf.placeholder(tf.float32, [None, 3])
    x = tf.random_normal([tf.shape(p)[0], 4], seed=2)
    assert x.get_shape().as_list() == [None, 4]
    assert run(x, {p: np.zeros((5, 3))}).shape == (5, 4)


def test_scalar_shape_is_rejected_and_negative_dims_fail_at_run_time():
    with pytest.raises(ValueError, match="Shape must be rank 1 but is rank 0"):
        tf.random_normal(5)
    s = tf.placeholder(tf.int32, [None])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Dimension -1 must be >= 0"):
        run(tf.random_uniform(s), {s: [2, -1]})


def test_names_follow_tf():
    x = tf.random_normal([2], name="noise")
    assert x.op.name == "noise"
    assert random_op_of(x).name == "noise/RandomStandardNormal"
    assert tf.random_uniform([2]).op.name == "random_uniform"
    assert tf.truncated_normal([2]).op.name == "truncated_normal"
    assert random_op_of(tf.random_uniform([2], 1.0, 2.0)).name == "random_uniform_1/RandomUniform"


# -- random_shuffle and multinomial ----------------------------------------------------------

def test_random_shuffle_permutes_rows_and_keeps_input():
    data = np.arange(40, dtype=np.float32).reshape(10, 4)
    c = tf.constant(data)
    y = tf.random_shuffle(c, seed=5)
    assert y.get_shape().as_list() == [10, 4] and y.dtype == tf.float32
    with tf.Session() as sess:
        results = [sess.run(y) for _ in range(5)]
        np.testing.assert_array_equal(sess.run(c), data)
    for r in results:
        assert sorted(map(tuple, r)) == sorted(map(tuple, data))   # rows intact, permuted
    assert any(not np.array_equal(r, data) for r in results)


@settings(max_examples=25, deadline=None)
@given(n=st.integers(0, 30), seed=st.integers(1, 10**6))
def test_random_shuffle_is_a_permutation_property(n, seed):
    with tf.Graph().as_default():
        v = run(tf.random_shuffle(tf.constant(np.arange(n, dtype=np.int32)), seed=seed))
    assert v.dtype == np.int32
    np.testing.assert_array_equal(np.sort(v), np.arange(n))


def test_random_shuffle_of_a_scalar_is_the_scalar():
    assert run(tf.random_shuffle(tf.constant(3.5))) == np.float32(3.5)


def test_random_ops_have_no_gradient():
    x = tf.placeholder(tf.float32, [4])
    assert tf.gradients(tf.random_shuffle(x), [x]) == [None]


def test_multinomial_frequencies():
    p = np.array([[0.1, 0.2, 0.7], [0.5, 0.5, 0.0]])
    with np.errstate(divide="ignore"):
        logits = tf.constant(np.log(p).astype(np.float32))
    s = tf.multinomial(logits, 5000, seed=3)
    assert s.dtype == tf.int64 and s.get_shape().as_list() == [2, 5000]
    v = run(s)
    assert v.shape == (2, 5000) and v.dtype == np.int64
    freq = np.stack([np.bincount(row, minlength=3) / 5000 for row in v])
    np.testing.assert_allclose(freq, p, atol=0.03)
    assert (v[1] != 2).all()                          # probability 0 is never drawn
    assert run(tf.multinomial(logits, 3, output_dtype=tf.int32)).dtype == np.int32


# -- initializers ------------------------------------------------------------------------------

def test_zeros_ones_constant_initializers():
    z = tf.zeros_initializer()([2, 3])
    o = tf.ones_initializer(dtype=tf.int32)([4])
    assert z.dtype == tf.float32 and o.dtype == tf.int32
    np.testing.assert_array_equal(run(z), np.zeros((2, 3), np.float32))
    np.testing.assert_array_equal(run(o), np.ones(4, np.int32))
    assert run(tf.zeros_initializer()([2], dtype=tf.float64)).dtype == np.float64
    c = tf.constant_initializer(2.5)([2, 2])
    np.testing.assert_array_equal(run(c), np.full((2, 2), 2.5, np.float32))
    c = tf.constant_initializer([1, 2, 3, 4, 5, 6])([2, 3])
    np.testing.assert_array_equal(run(c), np.arange(1, 7, dtype=np.float32).reshape(2, 3))
    with pytest.raises(TypeError):
        tf.constant_initializer([1, 2], verify_shape=True)([3])
    with pytest.raises(TypeError, match="Invalid type for initial value"):
        tf.constant_initializer({"a": 1})


def _values(init, shape, dtype=None):
    with tf.Graph().as_default():
        return run(init(shape, dtype=dtype))


def test_random_initializers_statistics():
    v = _values(tf.random_normal_initializer(1.0, 0.5, seed=1), [N])
    assert v.dtype == np.float32 and abs(v.mean() - 1) < 0.02 and abs(v.std() - .5) < 0.02
    v = _values(tf.truncated_normal_initializer(stddev=0.1, seed=1), [N])
    assert np.abs(v).max() <= 0.2 + 1e-6 and abs(v.std() - 0.0879626) < 0.003
    v = _values(tf.random_uniform_initializer(-0.05, 0.05, seed=1), [N])
    assert v.min() >= -0.05 and v.max() < 0.05 and abs(v.mean()) < 0.002
    v = _values(tf.random_uniform_initializer(0, 10, dtype=tf.int32), [N])
    assert v.dtype == np.int32 and v.min() == 0 and v.max() == 9
    assert _values(tf.random_normal_initializer(), [3], dtype=tf.float64).dtype == np.float64


def test_initializer_seed_reproducible_across_graphs():
    a = _values(tf.glorot_uniform_initializer(seed=3), [4, 5])
    b = _values(tf.glorot_uniform_initializer(seed=3), [4, 5])
    c = _values(tf.glorot_uniform_initializer(seed=4), [4, 5])
    np.testing.assert_array_equal(a, b)
    assert not np.allclose(a, c)


@pytest.mark.parametrize("shape,fans", [([], (1, 1)), ([7], (7, 7)), ([200, 300], (200, 300)),
                                        ([3, 3, 16, 32], (144, 288))])
def test_compute_fans(shape, fans):
    assert init_ops._compute_fans(shape) == fans


@pytest.mark.parametrize("shape", [[200, 300], [3, 3, 16, 32]])
def test_glorot_uniform_limit(shape):
    fan_in, fan_out = init_ops._compute_fans(shape)
    limit = math.sqrt(6 / (fan_in + fan_out))
    v = _values(tf.glorot_uniform_initializer(seed=1), shape)
    assert v.shape == tuple(shape) and v.dtype == np.float32
    assert np.abs(v).max() <= limit
    assert np.abs(v).max() > 0.98 * limit                     # spans the whole range
    assert abs(v.var() - limit ** 2 / 3) < 0.05 * limit ** 2 / 3


def test_glorot_normal_stddev():
    v = _values(tf.glorot_normal_initializer(seed=1), [200, 300])
    assert abs(v.std() - math.sqrt(2 / 500)) < 0.03 * math.sqrt(2 / 500)
    assert np.abs(v).max() <= 2 * math.sqrt(2 / 500) / 0.87962566 + 1e-6


@pytest.mark.parametrize("mode,n", [("fan_in", 100), ("fan_out", 400), ("fan_avg", 250)])
@pytest.mark.parametrize("distribution", ["truncated_normal", "untruncated_normal", "uniform"])
def test_variance_scaling(mode, n, distribution):
    init = tf.variance_scaling_initializer(scale=2.0, mode=mode, distribution=distribution,
                                           seed=2)
    v = _values(init, [100, 400])
    expected_std = math.sqrt(2.0 / n)
    assert abs(v.std() - expected_std) < 0.03 * expected_std
    if distribution == "uniform":
        assert np.abs(v).max() <= math.sqrt(3 * 2.0 / n)
    if distribution == "truncated_normal":
        assert np.abs(v).max() <= 2 * expected_std / 0.87962566 + 1e-6


def test_initializer_argument_errors():
    with pytest.raises(ValueError, match="`scale` must be positive float."):
        tf.variance_scaling_initializer(scale=0.0)
    with pytest.raises(ValueError, match="Invalid `mode` argument"):
        tf.variance_scaling_initializer(mode="fan_sideways")
    with pytest.raises(ValueError, match="Invalid `distribution` argument"):
        tf.variance_scaling_initializer(distribution="cauchy")
    with pytest.raises(ValueError, match="Expected floating point type, got <dtype: 'int32'>"):
        tf.random_normal_initializer(dtype=tf.int32)


def test_initializers_namespace():
    ns = tf.initializers
    assert ns.zeros is tf.zeros_initializer and ns.glorot_uniform is tf.glorot_uniform_initializer
    assert ns.global_variables is tf.global_variables_initializer
    assert ns.local_variables is tf.local_variables_initializer
    assert ns.variables is tf.variables_initializer
    for name in ("zeros", "ones", "constant", "random_normal", "truncated_normal",
                 "random_uniform", "glorot_uniform", "glorot_normal", "variance_scaling",
                 "he_normal", "he_uniform", "lecun_normal", "lecun_uniform",
                 "global_variables", "local_variables", "variables", "identity", "orthogonal",
                 "uniform_unit_scaling", "tables_initializer"):    # TF 1.15's 20 names
        assert hasattr(tf.initializers, name), name
    assert ns.orthogonal is tf.orthogonal_initializer and ns.tables_initializer is \
        tf.tables_initializer and ns.identity is tf.keras.initializers.Identity
    v = _values(ns.he_normal(seed=1), [400, 100])
    assert abs(v.std() - math.sqrt(2 / 400)) < 0.03 * math.sqrt(2 / 400)
    assert tf.glorot_uniform_initializer(seed=5).get_config() == {"seed": 5, "dtype": "float32"}
