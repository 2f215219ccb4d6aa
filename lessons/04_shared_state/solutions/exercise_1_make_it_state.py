"""Lesson 4, exercise 1: make the ps hold state.

Two programs of one cluster -- here two graphs in one script, worker 0's and worker 1's, each
built by `build()` as separate programs would build it. Worker 0 wants to set the value on the
ps to 13.0 so that worker 1 reads 13.0. As written (the tutorial's way) the value is a
constant, and worker 0 "sets" it by making another constant: worker 1 still reads 3.0.

Make `value` state: a tf.Variable (same name, on the ps) that worker 0 initializes and
assigns 13.0 to. Worker 1 must NOT run an initializer: it reads what is on the ps.

Run it:    python lessons/04_shared_state/exercise_1_make_it_state.py
Check it:  pytest lessons/04_shared_state -k exercise_1
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


ps_port, worker0_port, worker1_port = free_ports(3)
cluster = tf.train.ClusterSpec({"ps": ["localhost:%d" % ps_port],
                                "worker": ["localhost:%d" % worker0_port,
                                           "localhost:%d" % worker1_port]})
ps = tf.train.Server(cluster, job_name="ps", task_index=0)
worker0 = tf.train.Server(cluster, job_name="worker", task_index=0)
worker1 = tf.train.Server(cluster, job_name="worker", task_index=1)


def build():
    """What every program of the cluster builds."""
    with tf.device("/job:ps/task:0"):
        value = tf.Variable(3.0, name="value")        # state: lives in the ps task
    return value


with tf.Graph().as_default():                         # worker 0's program
    value = build()
    with tf.Session(worker0.target) as sess:
        sess.run(value.initializer)
        print("worker 0 set the value to:", sess.run(value.assign(13.0)))

with tf.Graph().as_default():                         # worker 1's program
    value = build()
    with tf.Session(worker1.target) as sess:          # (no initializer here)
        print("worker 1 reads:", sess.run(value))
