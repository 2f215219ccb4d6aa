"""Lesson 2, exercise 1 -- join the cluster (solution).

Every task builds the same ClusterSpec from the flags and starts its own task's server in it:
the ps serves, and each worker's session (its master is the worker itself) sees the\ntasks its device_filters leave it: the ps and itself.
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
    cluster = tf.train.ClusterSpec({"ps": FLAGS.ps_hosts.split(","),
                                    "worker": FLAGS.worker_hosts.split(",")})
    server = tf.train.Server(cluster, job_name=FLAGS.job_name, task_index=FLAGS.task_index)
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
