"""Tests for sandbox/ops/random_extra_ops.py: random_gamma and random_poisson (shapes, seeds,
moments -- NumPy's numbers, not TF's), and random_crop, orthogonal_initializer and
uniform_unit_scaling_initializer, which give TF 1.15.5's numbers for the same seeds."""
import numpy as np

import sandbox as tf


def test_gamma_and_poisson_shapes_seeds_and_moments():
    g = tf.random_gamma([10], [0.5, 1.5])
    assert g.shape.as_list() == [10, 2]                                 # TF 1.15
    assert tf.random_gamma([10], [0.5, 1.5], beta=[[1.], [2.]]).shape.as_list() == [10, 2, 2]
    p = tf.random_poisson([1.0, 5.0], [10])
    assert p.shape.as_list() == [10, 2] and p.dtype == tf.float32
    big_g = tf.random_gamma([20000], [2.0], beta=4.0, seed=7)
    big_p = tf.random_poisson([3.0], [20000], seed=7)
    with tf.Session() as sess:
        a, b = sess.run([big_g, big_p])
        again = sess.run(big_g)
    assert abs(a.mean() - 0.5) < 0.02 and abs(b.mean() - 3.0) < 0.05
    assert not np.array_equal(a, again)                 # a new draw on every run
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(big_g), a)   # same seeds: same sequence
    assert (a > 0).all() and (b == np.round(b)).all()


def test_crop_and_initializers_match_tf():
    tf.set_random_seed(1)
    c = tf.random_crop(tf.reshape(tf.range(24), [4, 6]), [2, 3], seed=3)
    v = tf.get_variable("o", [3, 5], initializer=tf.orthogonal_initializer(seed=2))
    u = tf.get_variable("u", [4, 5], initializer=tf.uniform_unit_scaling_initializer(seed=2))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        crop, o, w = sess.run([c, v, u])
    # TF 1.15.5, the same program
    np.testing.assert_array_equal(crop, [[9, 10, 11], [15, 16, 17]])
    np.testing.assert_allclose(o, [[-0.432426, 0.852552, 0.198368, 0.211176, 0.047084],
                                   [0.319427, 0.031948, 0.247109, 0.468091, -0.785349],
                                   [0.761899, 0.510068, -0.1675, -0.356356, 0.065537]],
                               atol=2e-6)
    np.testing.assert_allclose(w[0], [-0.162126, 0.619381, -0.770077, -0.71729, -0.152154],
                               atol=2e-6)
    np.testing.assert_allclose(o @ o.T, np.eye(3), atol=1e-5)
    assert np.abs(w).max() <= np.sqrt(3 / 4)
