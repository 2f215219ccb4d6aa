"""Checks symbolic gradients against central finite differences (as minitorch's checker does).

    check_gradients(lambda x, y: tf.matmul(x, y), [a, b])

builds the op on float64 placeholders, adds tf.gradients(y, xs, grad_ys=w) for a random w, and
compares each entry with (L(x + eps) - L(x - eps)) / 2 eps where L = sum(y * w).
"""
import numpy as np

import sandbox as tf


def check_gradients(build, inputs, eps=1e-6, rtol=1e-4, atol=1e-6, seed=0, wrt=None):
    inputs = [np.asarray(a, dtype=np.float64) for a in inputs]
    wrt = range(len(inputs)) if wrt is None else wrt
    rng = np.random.default_rng(seed)
    g = tf.Graph()
    with g.as_default():
        xs = [tf.placeholder(tf.float64, a.shape, name=f"x{i}") for i, a in enumerate(inputs)]
        y = build(*xs)
        with tf.Session(graph=g) as sess:
            feed = dict(zip(xs, inputs))
            y_value = np.asarray(sess.run(y, feed), dtype=np.float64)
            w = rng.standard_normal(y_value.shape)
            grads = tf.gradients(y, [xs[i] for i in wrt], grad_ys=tf.constant(w))
            grads = [tf.convert_to_tensor(g) if isinstance(g, tf.IndexedSlices) else g
                     for g in grads]                   # a gather's gradient is sparse
            symbolic = sess.run([gr for gr in grads if gr is not None], feed)

            def loss(values):
                return float(np.sum(np.asarray(sess.run(y, dict(zip(xs, values))),
                                               dtype=np.float64) * w))

            k = 0
            for n, i in enumerate(wrt):
                if grads[n] is None:
                    raise AssertionError(f"tf.gradients returned None for argument {i}, but "
                                         "the output depends on it.")
                got = np.asarray(symbolic[k], dtype=np.float64)
                k += 1
                assert got.shape == inputs[i].shape, (
                    f"Gradient for argument {i} has shape {got.shape}, but the argument has "
                    f"shape {inputs[i].shape}.")
                for idx in np.ndindex(inputs[i].shape):
                    plus = [a.copy() for a in inputs]
                    minus = [a.copy() for a in inputs]
                    plus[i][idx] += eps
                    minus[i][idx] -= eps
                    expected = (loss(plus) - loss(minus)) / (2 * eps)
                    if not np.isclose(got[idx], expected, rtol=rtol, atol=atol):
                        raise AssertionError(
                            f"Received derivative {got[idx]:.6g} for argument {i} at index "
                            f"{idx}, but was expecting {expected:.6g} from central difference.")
    return True
