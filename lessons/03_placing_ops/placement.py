"""Lesson 3: where each op really runs on a cluster -- one ps and two workers.

Every task runs this program (the launcher starts them all):
    python lessons/03_placing_ops/launch.py                  # 1 ps + 2 workers
Each worker builds its own graph: the variables on the ps, its computation on its own task,
one op with no device at all, and a constant with no device that only the ps consumes. It runs
one step with a full trace and prints, from what the runtime measured (RunMetadata.step_stats),
the device every op ran on, and every edge that crossed devices (where the partitioner put a
_Send/_Recv pair).
"""
import os

import numpy as np

import sandbox as tf

flags = tf.app.flags
flags.DEFINE_string("job_name", "", "'ps' or 'worker'")
flags.DEFINE_integer("task_index", 0, "index of the task within its job")
flags.DEFINE_string("ps_hosts", "", "comma-separated host:port of the ps tasks")
flags.DEFINE_string("worker_hosts", "", "comma-separated host:port of the worker tasks")
FLAGS = flags.FLAGS

QUICK = os.environ.get("SANDBOX_QUICK") == "1"     # (one step either way: nothing to shrink)


def main(_):
    cluster = tf.train.ClusterSpec({"ps": FLAGS.ps_hosts.split(","),
                                    "worker": FLAGS.worker_hosts.split(",")})
    server = tf.train.Server(cluster, job_name=FLAGS.job_name, task_index=FLAGS.task_index)
    if FLAGS.job_name == "ps":
        server.join()                                  # serves the variables until stopped
        return

    me = "/job:worker/task:%d" % FLAGS.task_index
    with tf.device("/job:ps/task:0"):                  # the state lives on the ps ...
        w = tf.Variable(np.ones([2, 2], np.float32), name="w")
        b = tf.Variable(np.zeros([2], np.float32), name="b")
    with tf.device(me):                                # ... the computation on this worker
        x = tf.constant([[1.0, 2.0]], name="x")
        scaled = tf.multiply(x, w, name="scaled")      # x * w, row by row
        y = tf.add(scaled, b, name="y")
    total = tf.reduce_sum(y, name="total")             # no device at all: where does it go?
    thirteen = tf.constant([13.0, 13.0], name="thirteen")   # no device; only the ps uses it
    set_b = tf.assign(b, thirteen, name="set_b")       # runs where b lives

    # device_filters: this worker's session needs only the ps and itself. Without it, a session
    # waits for every task of the cluster -- here, for the other worker, which may have
    # finished and exited already (lesson 9).
    config = tf.ConfigProto(log_device_placement=True,     # the placement, on stderr
                            allow_soft_placement=True,
                            device_filters=["/job:ps", me])
    with tf.Session(server.target, config=config) as sess:
        sess.run([w.initializer, b.initializer])
        metadata = tf.RunMetadata()
        sess.run([total, set_b],
                 options=tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE),
                 run_metadata=metadata)

    ran_on = {}                                        # op name -> the device it ran on
    for dev in metadata.step_stats.dev_stats:
        for node in dev.node_stats:
            ran_on.setdefault(node.node_name, dev.device)
    mine = ["w", "b", "x", "scaled", "y", "total", "thirteen", "set_b"]
    graph = tf.get_default_graph()
    for name in mine:
        asked = graph.get_operation_by_name(name).device or "(nothing)"
        print("op %-9s asked for %-22s ran on %s" % (name, asked, ran_on.get(name, "?")))
    for name in mine:                                  # the edges that crossed devices
        for t in graph.get_operation_by_name(name).inputs:
            src = t.op.name.split("/")[0]              # (w/read stands for w)
            if src in ran_on and name in ran_on and ran_on[src] != ran_on[name]:
                print("edge %s -> %s crosses %s -> %s" % (src, name, ran_on[src], ran_on[name]))
    added = sorted(n for n in ran_on if n.endswith(("/_Send", "/_Recv")))
    print("_Send/_Recv ops in this step's trace: %d" % len(added))
    for n in added:
        print("   %-90s on %s" % (n, ran_on[n]))


if __name__ == "__main__":
    tf.app.run()
