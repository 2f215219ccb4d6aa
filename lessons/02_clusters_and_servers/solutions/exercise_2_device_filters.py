"""Lesson 2, exercise 2 -- a worker that does not wait for a dead one (solution).

device_filters=["/job:ps", "/job:worker/task:<i>"]: the session's master (this worker) asks only
the ps and itself for their devices, so worker 1's absence does not hold it.
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
    if FLAGS.job_name == "worker" and FLAGS.task_index == 1:
        print("worker 1: crashed before starting its server")
        return
    cluster = tf.train.ClusterSpec({"ps": FLAGS.ps_hosts.split(","),
                                    "worker": FLAGS.worker_hosts.split(",")})
    server = tf.train.Server(cluster, job_name=FLAGS.job_name, task_index=FLAGS.task_index)
    if FLAGS.job_name == "ps":
        server.join()
        return
    me = "/job:worker/task:%d" % FLAGS.task_index
    with tf.device("/job:ps/task:0"):
        weights = tf.Variable([0.5, 0.25], name="weights")
    with tf.device(me):
        score = tf.reduce_sum(weights * [4.0, 8.0])
    config = tf.ConfigProto(device_filters=["/job:ps", me])  # only the tasks it uses
    with tf.Session(server.target, config=config) as sess:
        sess.run(weights.initializer)
        print("worker %d: score = %.1f" % (FLAGS.task_index, sess.run(score)))


if __name__ == "__main__":
    tf.app.run()
