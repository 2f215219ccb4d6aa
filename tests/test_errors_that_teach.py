"""Errors that name the op, the task or the variable and say what to do (issue 26).

A kernel that raises a plain Python exception: NumPy's complaints about its inputs are the op's
InvalidArgumentError; anything else is a bug in the kernel, an InternalError -- and both name
the node (op name and type) and the device, so the task, where it ran, locally and on a
cluster (the servers run in this process, where the test-only op below is registered).
"""
import numpy as np
import pytest

import sandbox as tf
from bench.common import free_port
from sandbox.framework.op_def import OpDef


class BrokenKernelForTest(OpDef):
    """A test-only op with a bug in its kernel: it raises a plain Python exception."""
    stateful = True

    def kernel(x):
        return {"expected": x}["missing"]


def broken(x, name="broken"):
    return tf.get_default_graph().create_op("BrokenKernelForTest", [x], [tf.float32],
                                            name=name).outputs[0]


def test_a_kernel_bug_is_an_internal_error_naming_the_node_and_device_locally():
    y = broken(tf.constant(1.0)) + 1.0
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InternalError) as e:
            sess.run(y)
    assert e.value.message == (
        "Internal error in BrokenKernelForTest op 'broken' on "
        "/job:localhost/replica:0/task:0/device:CPU:0: KeyError: 'missing'. This is a bug in "
        "the sandbox's kernel of BrokenKernelForTest, not in your program; please report it "
        "with this message.")
    assert e.value.node_def == "broken"


def test_a_kernel_bug_on_a_ps_names_the_ps_task():
    spec = tf.train.ClusterSpec({"ps": [f"localhost:{free_port()}"],
                                 "worker": [f"localhost:{free_port()}"]})
    ps = tf.train.Server(spec, job_name="ps", task_index=0)
    worker = tf.train.Server(spec, job_name="worker", task_index=0)
    try:
        with tf.device("/job:ps/task:0"):
            y = broken(tf.constant(1.0), name="ps_side")
        with tf.device("/job:worker/task:0"):
            z = y * 2.0
        with tf.Session(worker.target) as sess:
            with pytest.raises(tf.errors.InternalError) as e:
                sess.run(z)
            assert "Internal error in BrokenKernelForTest op 'ps_side' on " \
                   "/job:ps/replica:0/task:0/device:CPU:0: KeyError: 'missing'." in e.value.message
            assert e.value.node_def == "ps_side"
            with tf.device("/job:worker/task:0"):
                fine = tf.constant(3.0) * 2.0
            assert sess.run(fine) == 6.0             # the step failed, not the tasks
    finally:
        worker.stop()
        ps.stop()


def test_bad_inputs_stay_the_ops_invalid_argument_error_and_name_the_device():
    """A float tensor as the shape of a reshape: NumPy's TypeError is the op's bad input."""
    a = tf.placeholder(tf.float32, name="a")
    b = tf.placeholder(tf.float32, name="b")
    c = tf.reshape(a, b, name="reshaped")
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError) as e:
            sess.run(c, {a: np.ones((2, 3)), b: np.ones((2, 4))})
    assert e.value.message.startswith(
        "Reshape op 'reshaped' on /job:localhost/replica:0/task:0/device:CPU:0 failed: "
        "TypeError: ")
