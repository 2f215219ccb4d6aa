"""Lesson 1, exercise 2 -- a client with no server of its own (solution).

The program never creates a server: its session sends the graph to the master at --target,
and that master's task computes `hello`. (With `tf.device("/job:worker/task:0")` around
`hello`, the run without --target fails: an in-process session has only the devices of
/job:localhost, and no job "worker".)

    python lessons/01_hello_distributed/solutions/exercise_2_client.py --target=grpc://localhost:2222
"""
import sandbox as tf

flags = tf.app.flags
flags.DEFINE_string("target", "", "the master to run on, e.g. grpc://localhost:2222 "
                    "('' = run in this process)")
FLAGS = flags.FLAGS


def main(_):
    hello = tf.constant("Hello from the cluster!")
    with tf.Session(FLAGS.target) as sess:                  # that task's master
        print("devices:", [d.name for d in sess.list_devices()])
        print(sess.run(hello).decode())


if __name__ == "__main__":
    tf.app.run()
