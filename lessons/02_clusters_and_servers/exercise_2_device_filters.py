"""Lesson 2, exercise 2 -- a worker that does not wait for a dead one.

Run once per task with 1 ps and 2 workers. Worker 1 "crashes" before it starts its server
(it exits at once), as a task of a real cluster may. Worker 0 only needs the ps and itself,
yet as written its session waits for EVERY task of the cluster -- worker 1 included -- and
never gets to run (the sandbox says so on stderr: "CreateSession still waiting for response
from worker: /job:worker/replica:0/task:1").

TODO: give worker 0's session a tf.ConfigProto whose device_filters name only the tasks it
      uses (the ps job and this worker), so that it runs without worker 1.
Check: pytest lessons/02_clusters_and_servers -k filters
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
    config = tf.ConfigProto()                                 # TODO: device_filters
    with tf.Session(server.target, config=config) as sess:
        sess.run(weights.initializer)
        print("worker %d: score = %.1f" % (FLAGS.task_index, sess.run(score)))


if __name__ == "__main__":
    tf.app.run()
