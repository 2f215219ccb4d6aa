"""Lesson 4: the tutorial's "13.0" example, done right -- one ps and two workers.

A tutorial put a *constant* on the ps and claimed it "becomes 13.0" once a worker changes it.
A constant is not state: it is part of the graph, every program has its own copy, and no
session can change it. State lives in a Variable, in the resource manager of the task it is
placed on; `v.assign(13.0)` changes it there, and every session of every task sees it.

Each worker is a separate program with its own graph. Both build `tf.Variable(..., name=
"shared")` on /job:ps/task:0 -- the same name on the same device, so the same variable:
    worker 0 initializes it, assigns 13.0, then waits for worker 1's update;
    worker 1 never runs an initializer: it waits until the variable is initialized, reads
    13.0, and adds 1.0.
    python lessons/04_shared_state/launch.py            # 1 ps + 2 workers
"""
import os
import time

import sandbox as tf

flags = tf.app.flags
flags.DEFINE_string("job_name", "", "'ps' or 'worker'")
flags.DEFINE_integer("task_index", 0, "index of the task within its job")
flags.DEFINE_string("ps_hosts", "", "comma-separated host:port of the ps tasks")
flags.DEFINE_string("worker_hosts", "", "comma-separated host:port of the worker tasks")
flags.DEFINE_float("wait_seconds", 60.0, "how long a worker waits for the other one")
FLAGS = flags.FLAGS

QUICK = os.environ.get("SANDBOX_QUICK") == "1"     # (a few steps either way: nothing to shrink)


def wait_until(sess, condition, what):
    """Polls `condition(sess)` every 0.1 s, as tf.train.SessionManager.wait_for_session does."""
    deadline = time.time() + FLAGS.wait_seconds
    while not condition(sess):
        if time.time() > deadline:
            raise RuntimeError("worker %d: gave up waiting for %s" % (FLAGS.task_index, what))
        time.sleep(0.1)


def main(_):
    cluster = tf.train.ClusterSpec({"ps": FLAGS.ps_hosts.split(","),
                                    "worker": FLAGS.worker_hosts.split(",")})
    server = tf.train.Server(cluster, job_name=FLAGS.job_name, task_index=FLAGS.task_index)
    if FLAGS.job_name == "ps":
        server.join()               # the ps only serves: its resource manager holds the state
        return

    with tf.device("/job:ps/task:0"):
        c = tf.constant(3.0, name="c")                       # part of the graph: not state
        shared = tf.Variable(3.0, name="shared")             # state, in the ps task
    with tf.device("/job:worker/task:%d" % FLAGS.task_index):
        doubled = shared * 2.0                               # read on the ps, computed here
    set_13 = shared.assign(13.0)
    add_1 = shared.assign_add(1.0)
    is_ready = tf.is_variable_initialized(shared)

    # device_filters: this worker's session needs only the ps and itself, so it never waits
    # for the other worker (which may have exited already: lesson 9).
    config = tf.ConfigProto(device_filters=["/job:ps", "/job:worker/task:%d" % FLAGS.task_index])
    with tf.Session(server.target, config=config) as sess:
        if FLAGS.task_index == 0:
            # The tutorial's "c becomes 13.0": writing c = tf.constant(13.0) only adds a
            # second constant (named c_1) to this program's graph; c itself cannot change.
            c13 = tf.constant(13.0, name="c")
            print("a constant has an assign method:", hasattr(c, "assign"))
            print("tf.constant(13.0, name='c') is a new op, %s = %.1f; c is still %.1f"
                  % (c13.op.name, sess.run(c13), sess.run(c)))
            sess.run(shared.initializer)
            print("worker 0 initialized shared:", sess.run(shared))
            print("worker 0 assigned shared:", sess.run(set_13))
            wait_until(sess, lambda s: s.run(shared) == 14.0, "worker 1's assign_add")
            print("worker 0 sees worker 1's update:", sess.run(shared))
        else:
            wait_until(sess, lambda s: s.run(is_ready) and s.run(shared) == 13.0,
                       "worker 0's assign")
            print("worker 1 reads shared without initializing it:", sess.run(shared))
            print("worker 1 computes shared * 2.0:", sess.run(doubled))
            print("worker 1 adds 1.0:", sess.run(add_1))
        print("worker %d: the constant c is %.1f" % (FLAGS.task_index, sess.run(c)))


if __name__ == "__main__":
    tf.app.run()
