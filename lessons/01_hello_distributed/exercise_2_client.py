"""Lesson 1, exercise 2 -- a client with no server of its own.

A target is only the address of a master. A program that creates no server at all can still
run its graph on a cluster, if it is given the target of one of the cluster's servers:

    python lessons/01_hello_distributed/exercise_2_client.py --target=grpc://localhost:2222

(The check starts a one-worker cluster for you and passes its target.)

TODO: run the session on the master named by --target (when --target is given). The program
      prints the devices its session can use: with the right target they are the cluster's
      ("/job:worker/replica:0/task:0/device:CPU:0"), not this process's ("/job:localhost/...").
Then try (not checked): put `hello` under `with tf.device("/job:worker/task:0"):` and run the
program once with --target and once without. Why does the second run fail?
Check: pytest lessons/01_hello_distributed -k client
"""
import sandbox as tf

flags = tf.app.flags
flags.DEFINE_string("target", "", "the master to run on, e.g. grpc://localhost:2222 "
                    "('' = run in this process)")
FLAGS = flags.FLAGS


def main(_):
    hello = tf.constant("Hello from the cluster!")
    with tf.Session() as sess:                              # TODO: the --target master
        print("devices:", [d.name for d in sess.list_devices()])
        print(sess.run(hello).decode())


if __name__ == "__main__":
    tf.app.run()
