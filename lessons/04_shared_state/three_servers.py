"""Lesson 4: a ps and two workers in one script. Worker 0 updates a variable that lives on the
ps; the ps's own session and worker 1's session read the new value -- the variable exists
once, in the ps task's resource manager, whichever task's target a session talks to.

    python lessons/04_shared_state/three_servers.py
"""
import socket

import sandbox as tf


def free_ports(n):
    """n different ports of 127.0.0.1 that nothing listens on (all n are held open while
    they are chosen, so the kernel cannot hand out one of them twice)."""
    sockets = [socket.socket() for _ in range(n)]
    for s in sockets:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in sockets]
    for s in sockets:
        s.close()
    return ports


ps_port, worker0_port, worker1_port = free_ports(3)
cluster = tf.train.ClusterSpec({"ps": ["localhost:%d" % ps_port],
                                "worker": ["localhost:%d" % worker0_port,
                                           "localhost:%d" % worker1_port]})
print(cluster.as_cluster_def())
ps = tf.train.Server(cluster, job_name="ps", task_index=0)
worker0 = tf.train.Server(cluster, job_name="worker", task_index=0)
worker1 = tf.train.Server(cluster, job_name="worker", task_index=1)

with tf.device("/job:ps/task:0"):
    counter = tf.Variable(0, name="counter")       # the state: lives in the ps task
with tf.device("/job:worker/task:0"):
    increment = counter.assign_add(1)              # placed with the variable: see lesson 3

with tf.Session(worker0.target) as sess:           # a session on worker 0's master
    sess.run(counter.initializer)
    for _ in range(3):
        print("worker 0 increments:", sess.run(increment))
with tf.Session(ps.target) as sess:                # a session on the ps's master
    print("the ps reads:", sess.run(counter))
with tf.Session(worker1.target) as sess:           # ... on worker 1's: no initializer run
    print("worker 1 reads:", sess.run(counter))
# The three servers stop when this process ends (TF's servers cannot be stopped before).
