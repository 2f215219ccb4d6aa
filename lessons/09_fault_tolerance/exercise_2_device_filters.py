"""Exercise 2: a session that does not wait for a task it does not need.

The cluster has a ps and two workers, but worker 1 is down (nothing answers at its address).
Worker 0 wants to read a variable that lives on the ps. A session waits until *every* task of
its cluster answers -- so worker 0's session waits for worker 1, here at most
--timeout_ms milliseconds (ConfigProto(operation_timeout_in_ms=...)), and gives up with
DeadlineExceededError naming the task that did not answer.

Make worker 0's session use only the tasks it needs -- the ps and itself -- so that it runs
at once although worker 1 is down.

Check: pytest lessons/09_fault_tolerance -k exercise_2
"""
import socket
import sys

import sandbox as tf

flags = tf.app.flags
flags.DEFINE_integer("timeout_ms", 3000, "How long the session may wait for the cluster")
FLAGS = flags.FLAGS


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main(_):
    ps, w0, w1 = ["localhost:%d" % free_port() for _ in range(3)]
    cluster = tf.train.ClusterSpec({"ps": [ps], "worker": [w0, w1]})
    tf.train.Server(cluster, job_name="ps", task_index=0)          # the ps, in this process
    server = tf.train.Server(cluster, job_name="worker", task_index=0)
    # worker 1 (w1) is never started: a worker that died.

    with tf.device("/job:ps/task:0"):
        w = tf.Variable(3.0, name="w")
    with tf.device("/job:worker/task:0"):
        doubled = w * 2.0

    # TODO: this session waits for every task of the cluster, worker 1 included. Limit it
    # to the tasks it needs (tf.ConfigProto's device_filters).
    config = tf.ConfigProto(operation_timeout_in_ms=FLAGS.timeout_ms)
    try:
        with tf.Session(server.target, config=config) as sess:
            sess.run(w.initializer)
            print("w * 2 = %.1f" % sess.run(doubled))
    except tf.errors.DeadlineExceededError as e:
        print("the session gave up waiting: %s" % e.message)
        sys.exit(1)


if __name__ == "__main__":
    tf.app.run()
