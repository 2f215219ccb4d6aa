"""tf.function (ops/def_function.py), tf.vectorized_map and tf.variable_creator_scope in a graph:
the values, names and errors are those TensorFlow 2.15.1 gave for the same programs in graph
mode (tf.compat.v1, eager off), except where TF 1.15 words an error otherwise (noted)."""
import numpy as np
import pytest

import sandbox as tf


def test_a_tf_function_builds_its_ops_in_the_graph():
    @tf.function
    def dense(x, w, b):
        return tf.nn.relu(tf.matmul(x, w) + b)

    class Linear:
        def __init__(self):
            self.v = None

        @tf.function
        def __call__(self, x):
            if self.v is None:                    # variables: on the first call only
                self.v = tf.Variable(tf.ones([3, 1]), name="lv")
            return tf.matmul(x, self.v)

    x = tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3))
    y = dense(x, tf.constant(np.ones((3, 2), np.float32)), tf.constant([-4.0, 1.0]))
    linear = Linear()
    z, z2 = linear(x), linear(x * 2)
    grad = tf.gradients(tf.reduce_sum(y), x)[0]
    assert y.name == "dense/Relu:0"                # inlined, in the function's name scope
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        got = sess.run([y, z, z2, grad])
    np.testing.assert_allclose(got[0], [[0, 4], [8, 13]])
    np.testing.assert_allclose(got[1], [[3], [12]])
    np.testing.assert_allclose(got[2], [[6], [24]])
    np.testing.assert_allclose(got[3], [[1, 1, 1], [2, 2, 2]])


def test_a_tf_function_checks_its_signature_and_its_variables():
    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def square(x):
        return x * x

    assert square(np.ones((2, 3))).dtype == tf.float32          # converted to the spec
    with pytest.raises(ValueError, match="incompatible with input_signature"):  # (TF 1.15's
        square(tf.ones([2, 4]))                                  # ValueError; 2.15: TypeError)

    @tf.function
    def makes_one_each_time(x):
        return tf.Variable(1.0) * x

    with pytest.raises(ValueError, match="create variables on non-first call"):
        makes_one_each_time(tf.constant(2.0))     # TF traces twice: the first call fails


def test_vectorized_map_maps_each_element():
    w = tf.constant(np.arange(6, dtype=np.float32).reshape(3, 2))
    x = tf.constant(np.arange(12, dtype=np.float32).reshape(4, 3))
    y = tf.vectorized_map(lambda row: tf.reduce_sum(tf.tensordot(row, w, 1)) * 2.0, x)
    pair = tf.vectorized_map(lambda e: (e[0] * 2, tf.cast(e[1], tf.float32)),
                             (x, tf.constant([1, 2, 3, 4])))
    with tf.Session() as sess:
        values, (doubled, cast) = sess.run([y, pair])
    np.testing.assert_allclose(values, [46, 136, 226, 316])
    np.testing.assert_allclose(doubled, np.arange(12).reshape(4, 3) * 2)
    assert cast.dtype == np.float32 and cast.tolist() == [1, 2, 3, 4]


def test_variable_creator_scopes_see_every_variable_innermost_first():
    seen = []

    def outer(next_creator, **kwargs):
        seen.append(("outer", kwargs["name"]))
        kwargs["trainable"] = False
        return next_creator(**kwargs)

    def inner(next_creator, **kwargs):
        seen.append(("inner", kwargs["name"], kwargs["trainable"]))
        kwargs["name"] = "renamed_" + kwargs["name"]
        return next_creator(**kwargs)

    with tf.variable_creator_scope(outer):
        with tf.variable_creator_scope(inner):
            v = tf.Variable(1.0, name="v")
            w = tf.get_variable("w", shape=[2])
            dense = tf.layers.Dense(3)
            dense(tf.ones([1, 2]))
    u = tf.Variable(2.0, name="u")
    assert seen == [("inner", "v", None), ("outer", "renamed_v"), ("inner", "w", True),
                    ("outer", "renamed_w"), ("inner", "dense/kernel", True),
                    ("outer", "renamed_dense/kernel"), ("inner", "dense/bias", True),
                    ("outer", "renamed_dense/bias")]
    assert (v.name, w.name, u.name) == ("renamed_v:0", "renamed_w:0", "u:0")
    assert [x.name for x in tf.trainable_variables()] == ["u:0"]
    assert [x.name for x in dense.weights] == ["renamed_dense/kernel:0",
                                               "renamed_dense/bias:0"]
