"""The random numbers are TensorFlow's: with the same seeds, the sandbox's random ops give what
TensorFlow 2.21's compat.v1 ops give on a CPU.

The expected values below were printed by TensorFlow 2.21.0 (tensorflow-cpu from PyPI, Linux
x86_64) for the same programs, in a graph with `tf.set_random_seed(1)`.
"""
import numpy as np
import pytest

import sandbox as tf
from sandbox.ops.philox import PhiloxGenerator, philox_blocks


def assert_tf_floats(actual, expected, dtype=np.float32):
    """Equal but for the last bit: TF's normals use the C library's logf and sincosf, the
    sandbox rounds double-precision ones, and the two differ in the last bit now and then."""
    expected = np.asarray(expected, dtype)
    np.testing.assert_allclose(actual, expected, rtol=0, atol=np.spacing(np.abs(expected)).max())


def run_all(*fetches, runs=1):
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return [sess.run(list(fetches)) for _ in range(runs)]


def test_seed_program_weights_are_tensorflows():
    """Seed 002's two weight matrices: tf.random_normal([784, 100]) and ([100, 10]) after
    tf.set_random_seed(1). TF gives them the op seeds 0 and 1."""
    tf.set_random_seed(1)
    w1 = tf.random_normal([784, 100])
    w2 = tf.random_normal([100, 10])
    (a, b), (a2, _) = run_all(w1, w2, runs=2)
    assert_tf_floats(a[0, :6], [0.3052047, 0.5671378, 0.41852272, 0.2326421, -0.6602213,
                                -2.2560465])
    assert_tf_floats(a[[783, 400], [99, 50]], [0.4262014, -0.4984175])
    # the whole matrix: TF's sum and sum of squares (the two differ at most in the last bit of
    # a few entries, see random_ops' docstring)
    assert a.astype(np.float64).sum() == pytest.approx(-193.20739359632262, abs=1e-3)
    assert (a.astype(np.float64) ** 2).sum() == pytest.approx(78374.7383317751, rel=1e-7)
    assert_tf_floats(b[0, :4], [0.28183395, 2.3878284, 2.2804048, -0.308662])
    assert_tf_floats(b[99, 9], -0.43599814)
    assert b.astype(np.float64).sum() == pytest.approx(-1.2841719922143966, abs=1e-5)
    assert_tf_floats(a2[783, 99], 0.35739422)      # the second run goes on with new numbers


def test_every_random_op_and_initializer_matches_tensorflow():
    tf.set_random_seed(1)
    n = tf.random_normal([6])
    v = tf.get_variable("v", [3, 4])                   # glorot_uniform, via RandomUniform
    t = tf.truncated_normal([6], dtype=tf.float64)
    h = tf.random_uniform([6], dtype=tf.float16)
    big = tf.random_uniform([4], -2**40, 2**40, dtype=tf.int64)
    d = tf.nn.dropout(tf.ones([8]), rate=0.5)
    (n1, v1, t1, h1, big1, d1), (n2, *_) = run_all(n, v, t, h, big, d, runs=2)
    assert_tf_floats(n1, [0.3052047, 0.5671378, 0.41852272, 0.2326421, -0.6602213, -2.2560465])
    assert_tf_floats(n2, [1.6584786, -0.45375267, -0.050767392, -1.6327862, -1.5977507,
                          0.19435392])
    np.testing.assert_array_equal(v1, np.float32(
        [[-0.82297236, -0.8911973, -0.794706, -0.42326248],
         [0.28362894, 0.1492083, 0.8012637, -0.1308921],
         [-0.16413838, -0.10510939, -0.4030211, -0.18597502]]))
    assert_tf_floats(t1, [0.58105877128258, -1.557429113677359, -1.1295845092323191,
                          -0.5156530039692888, -1.1279218571369347, -0.558978533853913],
                     np.float64)
    np.testing.assert_array_equal(h1, np.float16([0.8115, 0.412, 0.07715, 0.4863, 0.741,
                                                  0.7607]))
    np.testing.assert_array_equal(big1, [849249129568, -268976963123, -240923357689,
                                         777893648244])
    np.testing.assert_array_equal(d1, [0, 0, 0, 0, 2, 2, 0, 2])


def test_op_seeds_and_dtypes_match_tensorflow():
    """Ops with their own seed=: TF's values for (graph seed 1, op seed s)."""
    assert_tf_floats(PhiloxGenerator(1, 7).truncated_normal((2, 3)),
                     [[-0.6573123, -0.21175845, -0.40897825],
                      [-0.184805, 0.48211053, 0.02781622]])
    assert_tf_floats(PhiloxGenerator(1, 5).random((2, 3)),     # as TF printed them
                     [[0.195606, 0.02986085, 0.36493087], [0.25615, 0.7890545, 0.62468004]])
    np.testing.assert_allclose(PhiloxGenerator(1, 5).random((3,), np.float64),
                               [0.5648488, 0.9194474, 0.31243669], atol=5e-9)
    assert PhiloxGenerator(1, 9).integers(0, 10, (8,)).tolist() == [9, 1, 9, 5, 6, 5, 4, 4]
    assert PhiloxGenerator(1, 9).integers(-5, 5, (4,), np.int64).tolist() == [0, 4, 1, 3]
    np.testing.assert_allclose(PhiloxGenerator(1, 11).standard_normal((3,), np.float64),
                               [-0.42088389, -0.75213053, -0.59059053], atol=5e-9)
    assert_tf_floats(PhiloxGenerator(1, 11).standard_normal((5,), np.float16),
                     [-2.094, 0.722, 0.8223, -0.2097, 2.084], np.float16)


def test_blocks_carry_across_the_64_bit_counter_boundary():
    """The 128-bit counter carries from its low half into its high half, as TF's Skip does:
    block 2**64 - 1 + 1 of stream 0 is block 0 of stream 1."""
    key = (5, 6)
    wrapped = philox_blocks(key, (1 << 64) - 1, 2)
    np.testing.assert_array_equal(wrapped[1], philox_blocks(key, 1 << 64, 1)[0])
    assert not np.array_equal(wrapped[0], wrapped[1])


def test_unseeded_generators_differ_and_empty_shapes_work():
    a, b = PhiloxGenerator(0, 0), PhiloxGenerator(0, 0)
    assert not np.array_equal(a.random((8,)), b.random((8,)))
    assert a.standard_normal((0, 3)).shape == (0, 3)
    assert a.truncated_normal((4, 0)).shape == (4, 0)


def test_truncated_normal_is_within_two_and_large_draws_are_standard():
    g = PhiloxGenerator(3, 4)
    t = g.truncated_normal((50_000,))
    assert np.abs(t).max() < 2
    assert t.std() == pytest.approx(0.8796, abs=0.01)     # std of N(0, 1) cut at +-2
    n = g.standard_normal((200_000,))
    assert n.mean() == pytest.approx(0, abs=0.01) and n.std() == pytest.approx(1, abs=0.01)
