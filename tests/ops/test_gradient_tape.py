"""tf.GradientTape in a graph (ops/gradient_tape.py): the values are those TensorFlow 2.15.1
printed for the same program in graph mode (tf.compat.v1, eager off)."""
import numpy as np
import pytest

import sandbox as tf


def _run(*fetches):
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return sess.run(list(fetches))


def test_only_what_the_tape_recorded_and_watched_is_differentiated():
    x = tf.constant(3.0)
    v = tf.Variable(2.0, name="v")
    before = x * x                                   # built before the tape: not recorded
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x * v
        w = tf.sin(v)                                # v: watched because it is read here
        stacked = tf.stack([y, w])
    dx, dv = tape.gradient(y, [x, v])
    assert tape.gradient(before, x) is None and tape.gradient(w, x) is None
    assert [t.name for t in tape.watched_variables()] == ["v:0"]
    zero = tape.gradient(w, x, unconnected_gradients="zero")
    dw = tape.gradient({"w": w}, {"v": v})["v"]
    jac = tape.jacobian(stacked, v)
    got = _run(dx, dv, zero, dw, jac)
    np.testing.assert_allclose(got[:4], [12.0, 9.0, 0.0, np.cos(2.0)], rtol=1e-6)
    np.testing.assert_allclose(got[4], [9.0, -0.41614684], rtol=1e-6)


def test_a_non_persistent_tape_gives_one_set_of_gradients():
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * 2
        with tape.stop_recording():
            ignored = y * y                          # not recorded
    assert tape.gradient(ignored, x) is None
    with pytest.raises(RuntimeError, match="non-persistent GradientTape"):
        tape.gradient(y, x)
    with tf.GradientTape(watch_accessed_variables=False) as quiet:
        v = tf.Variable(1.0)
        out = v * 3.0
    assert quiet.gradient(out, v) is None            # a variable read but not watched
    with pytest.raises(ValueError, match="not tf.Tensor or tf.Variable"):
        quiet.watch(3.0)


def test_batch_jacobian_is_each_examples_jacobian():
    m = tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3))
    with tf.GradientTape() as tape:
        tape.watch(m)
        out = tf.square(m) * 2.0
    jac = tape.batch_jacobian(out, m)
    assert jac.get_shape().as_list() == [2, 3, 3]
    np.testing.assert_allclose(_run(jac)[0][1], np.diag([12.0, 16.0, 20.0]))


def test_a_training_loop_with_a_tape_equals_minimize():
    """TF's custom training loop: the tape's gradients into apply_gradients train exactly as
    minimize does."""
    rng = np.random.RandomState(0)
    xs = rng.rand(16, 3).astype(np.float32)
    ys = xs @ np.array([[1.0], [-2.0], [0.5]], np.float32) + 0.3
    losses = []
    for use_tape in (True, False):
        with tf.Graph().as_default():
            w = tf.Variable(tf.zeros([3, 1]))
            b = tf.Variable(0.0)
            opt = tf.train.GradientDescentOptimizer(0.5)
            if use_tape:
                with tf.GradientTape() as tape:
                    loss = tf.reduce_mean(tf.square(tf.matmul(xs, w) + b - ys))
                grads = tape.gradient(loss, [w, b])
                train = opt.apply_gradients(zip(grads, [w, b]))
            else:
                loss = tf.reduce_mean(tf.square(tf.matmul(xs, w) + b - ys))
                train = opt.minimize(loss)
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                losses.append([sess.run([train, loss])[1] for _ in range(20)])
    np.testing.assert_allclose(losses[0], losses[1], rtol=1e-6)
    assert losses[0][-1] < losses[0][0] / 10
