"""Lesson 2 -- a sparse ClusterSpec in use: a worker that knows only the ps and itself.

    python lessons/02_clusters_and_servers/sparse_cluster.py

Three tasks in one script (each would be its own process in a real cluster): the ps is given
the whole cluster; worker 1 is given a sparse one -- {"ps": [...], "worker": {1: ...}} -- and
worker 0 is never started. Worker 1's session does not wait for worker 0: its master only
knows the tasks its ClusterSpec names. (device_filters would do the same with the full
ClusterSpec; a sparse ClusterSpec also spares a task the other workers' addresses.)
"""
import socket

import sandbox as tf


def free_ports(n):
    """n different ports of 127.0.0.1 that nothing listens on (held open while chosen)."""
    sockets = [socket.socket() for _ in range(n)]
    for s in sockets:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in sockets]
    for s in sockets:
        s.close()
    return ports


ps_port, worker0_port, worker1_port = free_ports(3)
ps_address = "localhost:%d" % ps_port
full = tf.train.ClusterSpec({"ps": [ps_address],
                             "worker": ["localhost:%d" % worker0_port,
                                        "localhost:%d" % worker1_port]})
sparse = tf.train.ClusterSpec({"ps": [ps_address],
                               "worker": {1: "localhost:%d" % worker1_port}})
print("the ps is given %d workers; worker 1 is given %d (task indices %s)"
      % (full.num_tasks("worker"), sparse.num_tasks("worker"), sparse.task_indices("worker")))

ps = tf.train.Server(full, job_name="ps", task_index=0)
worker1 = tf.train.Server(sparse, job_name="worker", task_index=1)
# worker 0 is never started.

with tf.device("/job:ps/task:0"):
    weights = tf.Variable([0.5, 0.25], name="weights")
with tf.device("/job:worker/task:1"):
    score = tf.reduce_sum(weights * [4.0, 8.0])

with tf.Session(worker1.target) as sess:
    print("worker 1's session sees", sorted(d.name for d in sess.list_devices()))
    sess.run(weights.initializer)
    print("worker 1: score = %.1f, without waiting for worker 0" % sess.run(score))
