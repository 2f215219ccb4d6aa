"""Lesson 4, exercise 2: clear the scratch variable, keep the model.

`kept` is the model: it must survive. `scratch` holds an experiment's state that we want to
throw away between experiments, without restarting the ps. The program resets the container
"experiment" -- but `scratch` is not in it, so nothing is cleared.

Build `scratch` so that it lives in the resource container "experiment" of its task
(and `kept` stays in the default one). Do not change the reset line.

Run it:    python lessons/04_shared_state/exercise_2_reset_scratch.py
Check it:  pytest lessons/04_shared_state -k exercise_2
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
    kept = tf.Variable(1.0, name="kept")
    scratch = tf.Variable(0.0, name="scratch")       # TODO: in the container "experiment"
    train = tf.group(kept.assign_add(10.0), scratch.assign_add(5.0))
uninitialized = tf.report_uninitialized_variables()

with tf.Session(worker.target) as sess:
    sess.run(tf.global_variables_initializer())
    sess.run(train)
    print("before the reset: kept = %.1f, scratch = %.1f" % (sess.run(kept), sess.run(scratch)))

tf.Session.reset(worker.target, containers=["experiment"])      # (leave this line as it is)

with tf.Session(worker.target) as sess:
    names = sorted(n.decode() for n in sess.run(uninitialized))
    print("after the reset, uninitialized:", names)
    if "kept" not in names:
        print("after the reset: kept = %.1f" % sess.run(kept))
    if "scratch" not in names:
        print("after the reset: scratch = %.1f" % sess.run(scratch))
