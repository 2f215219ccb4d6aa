"""Lesson 2, exercise 1 -- join the cluster.

This program is run once per task, as the tutorials run theirs:

    python -m sandbox launch lessons/02_clusters_and_servers/exercise_1_join_the_cluster.py
or one terminal per task:
    python exercise_1_join_the_cluster.py --ps_hosts=... --worker_hosts=... \\
        --job_name=worker --task_index=0

As written, every task starts a one-task cluster of its own (create_local_server), so the
tasks never meet: each worker's session sees only '/job:local/...'.

TODO: build the cluster from --ps_hosts and --worker_hosts (a tf.train.ClusterSpec with the
      jobs "ps" and "worker") and start THIS task's server in it (job_name, task_index).
      Then each worker's session sees the devices of the ps and of its own task.
Check: pytest lessons/02_clusters_and_servers -k join
"""
import sandbox as tf

flags = tf.app.flags
flags.DEFINE_string("ps_hosts", "localhost:2222", "comma-separated host:port of the ps tasks")
flags.DEFINE_string("worker_hosts", "localhost:2223,localhost:2224",
                    "comma-separated host:port of the worker tasks")
flags.DEFINE_string("job_name", "", "'ps' or 'worker'")
flags.DEFINE_integer("task_index", 0, "this task's index in its job")
FLAGS = flags.FLAGS


def main(_):
    server = tf.train.Server.create_local_server()          # TODO: this task, in the cluster
    if FLAGS.job_name == "ps":
        server.join()
        return
    name = "worker %d" % FLAGS.task_index
    # Only the ps and this worker: the other worker may be gone already (lesson 2's README).
    config = tf.ConfigProto(device_filters=["/job:ps", "/job:worker/task:%d" % FLAGS.task_index])
    with tf.Session(server.target, config=config) as sess:
        print("%s sees %s" % (name, sorted(d.name for d in sess.list_devices())))
        product = tf.constant(10.0) * float(FLAGS.task_index + 1)
        print("%s computes %.1f" % (name, sess.run(product)))


if __name__ == "__main__":
    tf.app.run()
