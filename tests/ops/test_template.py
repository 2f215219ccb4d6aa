"""Tests for sandbox/ops/template.py: tf.make_template shares the variables of its first
call, with TF 1.15.5's scope and op names."""
import numpy as np
import pytest

import sandbox as tf


def scale(x, init=1.0):
    return x * tf.get_variable("w", [], initializer=tf.constant_initializer(init))


def test_template_shares_variables_with_tf_names():
    t = tf.make_template("lay", scale)
    t2 = tf.make_template("lay", scale, init=3.0)
    a, b, c = t(1.), t2(1.), t(2.)
    # TF 1.15.5: ['lay/w:0', 'lay_1/w:0'] lay/mul:0 lay_1/mul:0 lay_2/mul:0 lay/ lay_1/
    assert [v.name for v in tf.global_variables()] == ["lay/w:0", "lay_1/w:0"]
    assert [a.name, b.name, c.name] == ["lay/mul:0", "lay_1/mul:0", "lay_2/mul:0"]
    assert (t.variable_scope_name, t2.variable_scope_name) == ("lay/", "lay_1/")
    assert [v.name for v in t.trainable_variables] == ["lay/w:0"]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        assert sess.run([a, b, c]) == [1.0, 3.0, 2.0]


def test_template_refuses_new_variables_on_later_calls():
    t = tf.make_template("bad", lambda: tf.get_variable(
        f"v{len(tf.global_variables())}", []))
    t()
    with pytest.raises(ValueError, match="bad/v1 does not exist"):   # TF 1.15's error
        t()


def test_create_scope_now():
    t = tf.make_template("early", scale, create_scope_now_=True)
    assert t.variable_scope_name == "early/"
    y = t(np.float32(2.))
    assert [v.name for v in t.variables] == ["early/w:0"]
    assert y.name.startswith("early")
