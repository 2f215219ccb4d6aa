"""Exercise 2 -- split ONE big layer across two tasks, by columns.

When one layer is too big for one device, its weight matrix can be cut by columns: task 0
keeps w1[:, :H/2] and computes the first half of the hidden units, task 1 keeps w1[:, H/2:]
and computes the second half, and tf.concat joins the halves (on task 0) for the next layer.
Each task then holds half of the layer's parameters; the input goes to both tasks, and
half of the hidden activations comes back.

As written, `hidden_layer` keeps the whole layer on worker 0.
TODO: rewrite `hidden_layer` so that it makes two variables, "w1_0" [INPUTS, HIDDEN // 2]
on "/job:worker/task:0" and "w1_1" [INPUTS, HIDDEN // 2] on "/job:worker/task:1" (and
likewise b1_0, b1_1), computes each half of the hidden units on the task that holds its
weights, and returns the two halves concatenated along axis 1.

Check: it prints `parameters on /job:worker/task:1: 2600 bytes` (half of w1 and b1) and
`the split layer computes sigmoid(x w + b): True`.

    python lessons/11_model_parallelism/exercise_2_split_columns.py
    pytest lessons/11_model_parallelism -k split
"""
import socket

import numpy as np

import sandbox as tf

BATCH, INPUTS, HIDDEN = 16, 24, 52


def free_ports(n):
    """n different free ports of 127.0.0.1 (held open together while they are chosen)."""
    sockets = [socket.socket() for _ in range(n)]
    for s in sockets:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in sockets]
    for s in sockets:
        s.close()
    return ports


def hidden_layer(x):
    """sigmoid(x w1 + b1) with HIDDEN units. TODO: split it by columns over the two tasks."""
    with tf.device("/job:worker/task:0"):
        w1 = tf.get_variable("w1", [INPUTS, HIDDEN],
                             initializer=tf.truncated_normal_initializer(stddev=0.5, seed=1))
        b1 = tf.get_variable("b1", [HIDDEN], initializer=tf.constant_initializer(0.1))
        return tf.nn.sigmoid(tf.matmul(x, w1) + b1)


ports = free_ports(2)
cluster = tf.train.ClusterSpec({"worker": ["localhost:%d" % p for p in ports]})
workers = [tf.train.Server(cluster, job_name="worker", task_index=i) for i in range(2)]

with tf.device("/job:worker/task:0"):
    x = tf.constant(np.random.RandomState(0).rand(BATCH, INPUTS).astype(np.float32), name="x")
hidden = hidden_layer(x)
with tf.device("/job:worker/task:0"):
    output = tf.reduce_sum(hidden, 1)        # the next layer's stand-in, on task 0

for task in ("/job:worker/task:0", "/job:worker/task:1"):
    held = [v for v in tf.trainable_variables() if v.device.startswith(task)]
    size = sum(int(np.prod(v.shape.as_list())) * v.dtype.size for v in held)
    print("parameters on %s: %d bytes (%s)" % (task, size, ", ".join(v.op.name for v in held)))
with tf.Session(workers[0].target) as sess:
    sess.run(tf.global_variables_initializer())
    h, xs, values = sess.run([hidden, x, tf.trainable_variables()])
    weights = np.concatenate([v for v in values if v.ndim == 2], axis=1)
    biases = np.concatenate([v for v in values if v.ndim == 1])
    expected = 1.0 / (1.0 + np.exp(-(xs.dot(weights) + biases)))
    print("hidden units: %d" % h.shape[1])
    print("the split layer computes sigmoid(x w + b): %s" % np.allclose(h, expected, atol=1e-5))
