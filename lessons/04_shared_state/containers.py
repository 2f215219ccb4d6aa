"""Lesson 4: where a variable's value lives, and how to clear it -- resource containers.

A task keeps every variable placed on it in its resource manager, keyed by (container, name).
The container is the task's default one -- TF names it after the job: "ps" for a ps task --
unless the variable was built inside `with tf.container("name"):`. Session.reset(target,
containers) clears those containers on every task of the cluster (and closes the sessions of
that master); the graph is untouched, the values are gone.

    python lessons/04_shared_state/containers.py
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
    kept = tf.Variable(1.0, name="kept")                  # the ps's default container
    with tf.container("experiment"):
        scratch = tf.Variable(2.0, name="scratch")        # the container "experiment"
    step = kept.assign_add(10.0)
uninitialized = tf.report_uninitialized_variables()


def report(label):
    with tf.Session(worker.target) as sess:
        names = sorted(n.decode() for n in sess.run(uninitialized))
        values = {v.op.name: float(sess.run(v)) for v in (kept, scratch) if v.op.name not in names}
        print("%-36s uninitialized: %-20s values: %s" % (label, names, values))


with tf.Session(worker.target) as sess:
    sess.run(tf.global_variables_initializer())
    sess.run(step)
report("after initializing and one step:")

old_session = tf.Session(worker.target)
print("an open session reads kept:", old_session.run(kept))
tf.Session.reset(worker.target, containers=["experiment"])
report("after reset(['experiment']):")
try:
    old_session.run(kept)
except tf.errors.AbortedError:
    print("the session opened before the reset: AbortedError (reset closed it)")
try:
    old_session.close()               # TF's close() says AbortedError again: it is gone
except tf.errors.AbortedError:
    pass

tf.Session.reset(worker.target, containers=["ps"])        # the ps task's default container
report("after reset(['ps']):")

with tf.Session(worker.target) as sess:
    sess.run(tf.global_variables_initializer())
report("after initializing again:")
# The servers stop when this process ends.
