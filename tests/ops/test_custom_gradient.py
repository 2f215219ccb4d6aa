"""Tests for sandbox/ops/custom_gradient.py: tf.custom_gradient (values, gradients from the
hand-written function, several arguments), py_function, init_scope and count_up_to, with
what TF 1.15.5 gives for the same programs."""
import numpy as np
import pytest

import sandbox as tf
from sandbox.framework import errors
from tests.gradcheck import check_gradients


@tf.custom_gradient
def log1pexp(x):
    e = tf.exp(x)

    def grad(dy):
        return dy * (1 - 1 / (1 + e))
    return tf.log(1 + e), grad


def test_custom_gradient_replaces_the_automatic_one():
    x = tf.constant([0., 100.])
    y = log1pexp(x)
    g = tf.gradients(y, x)[0]
    auto = tf.gradients(tf.log(1 + tf.exp(x)), x)[0]
    with tf.Session() as sess:
        yv, gv, av = sess.run([y, g, auto])
    np.testing.assert_allclose(gv, [0.5, 1.0])          # stable: the automatic one is NaN
    assert np.isnan(av[1])
    assert np.isclose(yv[0], np.log(2))
    assert check_gradients(log1pexp, [[-1., 0.5, 2.]])


def test_custom_gradient_several_arguments_as_tf():
    @tf.custom_gradient
    def f(x, y):
        def g(dy):
            return dy * 2., dy * 3.
        return x * y, g
    x, y = tf.constant(1.), tf.constant(2.)
    z = f(x, y)
    assert z.name == "IdentityN:0"                      # TF 1.15: IdentityN:0
    with tf.Session() as sess:
        assert sess.run(tf.gradients(z, [x, y])) == [2.0, 3.0]     # TF 1.15: [2.0, 3.0]


def test_a_wrong_custom_gradient_is_caught_by_the_checker():
    @tf.custom_gradient
    def square(x):
        def g(dy):
            return dy * x                               # should be 2 x dy
        return x * x, g
    with pytest.raises(AssertionError, match="central difference"):
        check_gradients(square, [[1., 2.]])


def test_custom_gradient_counts_its_gradients():
    @tf.custom_gradient
    def f(x, y):
        return x + y, lambda dy: dy
    x = tf.constant(1.)
    with pytest.raises(ValueError, match="returned 1 gradients, but the function has 2"):
        tf.gradients(f(x, tf.constant(2.)), x)


def test_py_function_init_scope_and_count_up_to():
    pf = tf.py_function(lambda z: z * 2, [tf.constant(3.)], tf.float32)
    v = tf.Variable(0, name="counter")
    with tf.control_dependencies([pf]):
        with tf.init_scope():                           # no control dependencies inside
            up = tf.count_up_to(v, 2)
    assert not up.op.control_inputs
    with tf.Session() as sess:
        sess.run(v.initializer)
        assert sess.run(pf) == 6.0
        assert [sess.run(up), sess.run(up)] == [0, 1]
        with pytest.raises(errors.OutOfRangeError, match="Reached limit of 2"):
            sess.run(up)
        assert sess.run(v) == 2


def test_new_ops_run_on_a_cluster_task_and_train_a_ps_variable():
    """The ops of issue 27 run in a worker process that never built them (their attrs --
    dtype lists, None, TensorShape, equations -- cross the wire), and a custom gradient
    computed on the worker updates a variable on the ps."""
    from sandbox.cluster import LocalCluster

    @tf.custom_gradient
    def double_grad(x):
        return tf.identity(x), lambda dy: 2.0 * dy

    with LocalCluster({"ps": 1, "worker": 1}) as cluster:
        with tf.device("/job:ps/task:0"):
            w = tf.Variable([[1.0, 2.0], [3.0, 4.0]], name="w")
        with tf.device("/job:worker/task:0"):
            y = tf.einsum("ij,jk->ik", double_grad(w), tf.eye(2))
            r = tf.ensure_shape(tf.repeat(tf.identity_n([y])[0], 2), [8])
            loss = tf.reduce_sum(tf.segment_max(r, [0, 0, 1, 1, 2, 2, 3, 3]))
            step = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
        with tf.Session(cluster.target("worker", 0)) as sess:
            sess.run(w.initializer)
            assert sess.run(loss) == 10.0
            sess.run(step)
            # d loss / d w = 2 (the custom gradient) * 1 (each entry wins its segment)
            np.testing.assert_allclose(sess.run(w), [[0., 1.], [2., 3.]])


def test_custom_gradient_with_variables():
    @tf.custom_gradient
    def f(x):
        w = tf.get_variable("w", [], initializer=tf.constant_initializer(3.))

        def grad(dy, variables=None):
            assert [v.op.name for v in variables] == ["w"]
            return dy * 100., [dy * 7.]
        return x * w, grad
    x = tf.constant(2.)
    y = f(x)
    w = tf.global_variables()[0]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        assert sess.run([y] + tf.gradients(y, [x, w])) == [6.0, 100.0, 7.0]

    @tf.custom_gradient
    def h(x):
        w2 = tf.get_variable("w2", [], initializer=tf.constant_initializer(3.))
        return x * w2, lambda dy: dy
    with pytest.raises(TypeError, match="grad_fn must accept a keyword argument 'variables'"):
        h(x)
