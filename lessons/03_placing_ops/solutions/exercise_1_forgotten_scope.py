"""Lesson 3, exercise 1: the forgotten device scope.

The loss below was written after the `with tf.device(...)` block, so it asks for no device --
and the placer puts it on the first device of the cluster, /job:ps/task:0: the ps computes it,
and y travels from the worker to the ps at every step. Make the whole computation (y, the
error and the loss) run on /job:worker/task:0, and leave the variable on the ps.

Run it:    python lessons/03_placing_ops/exercise_1_forgotten_scope.py
Check it:  pytest lessons/03_placing_ops -k exercise_1
"""
import socket

import sandbox as tf


def free_ports(n):
    sockets = [socket.socket() for _ in range(n)]
    for s in sockets:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in sockets]
    for s in sockets:
        s.close()
    return ports


ps_port, worker_port = free_ports(2)
cluster = tf.train.ClusterSpec({"ps": ["localhost:%d" % ps_port],
                                "worker": ["localhost:%d" % worker_port]})
ps = tf.train.Server(cluster, job_name="ps", task_index=0)
worker = tf.train.Server(cluster, job_name="worker", task_index=0)

with tf.device("/job:ps/task:0"):
    w = tf.Variable(0.5, name="w")
with tf.device("/job:worker/task:0"):
    x = tf.constant([1.0, 2.0, 3.0], name="x")
    y = tf.multiply(x, w, name="y")
    # the same scope: the error and the loss run where y is
    error = tf.subtract(y, [2.0, 4.0, 6.0], name="error")
    loss = tf.reduce_mean(tf.square(error), name="loss")

with tf.Session(worker.target) as sess:
    sess.run(w.initializer)
    metadata = tf.RunMetadata()
    print("loss:", sess.run(loss, options=tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE),
                            run_metadata=metadata))
ran_on = {}
for dev in metadata.step_stats.dev_stats:
    for node in dev.node_stats:
        ran_on.setdefault(node.node_name, dev.device)
for name in ("w", "y", "error", "loss"):
    print("%-5s ran on %s" % (name, ran_on.get(name, "?")))
