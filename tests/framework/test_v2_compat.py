"""tf.compat and the TF 1 / TF 2 switches (framework/v2_compat.py, sandbox/compat.py): a TF-1
program written for TensorFlow 2's compat.v1 runs with `import sandbox as tf`; a switch to a
behaviour the sandbox does not have raises an error that says what to do."""
import pathlib

import numpy as np
import pytest

import sandbox as tf


def test_a_compat_v1_program_runs_unchanged_but_for_the_import():
    tf.compat.v1.disable_v2_behavior()
    tf.compat.v1.disable_eager_execution()
    tf.disable_resource_variables()
    tf.disable_control_flow_v2()
    tf.disable_tensor_equality()
    tf.disable_v2_tensorshape()
    assert tf.compat.v1 is tf and tf.compat.v1.placeholder is tf.placeholder
    with tf.compat.v1.Graph().as_default():
        x = tf.compat.v1.placeholder(tf.float32, [None, 2])
        w = tf.compat.v1.get_variable("w", initializer=tf.ones([2, 1]))
        y = tf.matmul(x, w)
        with tf.compat.v1.Session() as sess:
            sess.run(tf.compat.v1.global_variables_initializer())
            assert sess.run(y, {x: np.array([[1.0, 2.0]], np.float32)}).tolist() == [[3.0]]


def test_the_queries_say_what_the_sandbox_does():
    assert tf.executing_eagerly() is False
    assert tf.control_flow_v2_enabled() is True          # functional If / While
    assert tf.resource_variables_enabled() is False      # VariableV2
    tf.enable_control_flow_v2()
    tf.enable_resource_variables()
    assert tf.resource_variables_enabled() is False


@pytest.mark.parametrize("switch, advice", [
    ("enable_v2_behavior", "TF-1 style"), ("enable_eager_execution", "sess.run"),
    ("enable_tensor_equality", "tf.equal"), ("enable_v2_tensorshape", "as_list()")])
def test_a_behaviour_the_sandbox_lacks_is_refused_saying_what_to_do(switch, advice):
    with pytest.raises(NotImplementedError, match="TensorFlow 1 graphs only") as e:
        getattr(tf, switch)()
    assert advice in str(e.value)


def test_compat_string_helpers_are_tfs():
    c = tf.compat
    assert c.as_bytes("é") == b"\xc3\xa9" and c.as_bytes(bytearray(b"a")) == b"a"
    assert c.as_text(b"x") == "x" and c.as_str("y") == "y" and c.as_str_any(3) == "3"
    assert c.path_to_str(pathlib.Path("/a")) == "/a" and c.path_to_str(5) == 5
    with pytest.raises(TypeError, match="Expected binary or unicode string, got 3"):
        c.as_bytes(3)
