"""Exercise 1: resume training from a checkpoint.

One process, one server (tf.train.Server.create_local_server()), a MonitoredTrainingSession
that trains a tiny linear model up to --train_steps. Run it twice with the same
--checkpoint_dir, the second time with a larger --train_steps:

    python exercise_1_resume.py --checkpoint_dir=/tmp/ex1 --train_steps=30
    python exercise_1_resume.py --checkpoint_dir=/tmp/ex1 --train_steps=60

The second run must start where the first one ended (global step 30), not at 0, and the
chief must save a checkpoint every --save_checkpoint_steps global steps.

Check: pytest lessons/09_fault_tolerance -k exercise_1
"""
import numpy as np

import sandbox as tf

flags = tf.app.flags
flags.DEFINE_string("checkpoint_dir", "ex1_logs", "Where the chief saves checkpoints")
flags.DEFINE_integer("train_steps", 30, "Stop at this global step")
flags.DEFINE_integer("save_checkpoint_steps", 10, "Save a checkpoint every this many steps")
FLAGS = flags.FLAGS


def main(_):
    server = tf.train.Server.create_local_server()
    global_step = tf.train.get_or_create_global_step()
    x = tf.constant(np.ones((8, 4), np.float32))
    w = tf.Variable(tf.zeros([4, 1]), name="w")
    loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - 1.0))
    train_op = tf.train.GradientDescentOptimizer(0.05).minimize(loss, global_step=global_step)

    # SOLUTION: the chief's checkpoint_dir makes MonitoredTrainingSession restore the latest
    # checkpoint there (if any) and add a CheckpointSaverHook saving every N steps.
    with tf.train.MonitoredTrainingSession(
            master=server.target, is_chief=True,
            checkpoint_dir=FLAGS.checkpoint_dir,
            save_checkpoint_steps=FLAGS.save_checkpoint_steps,
            save_summaries_steps=None, log_step_count_steps=None,
            hooks=[tf.train.StopAtStepHook(last_step=FLAGS.train_steps)]) as sess:
        step = sess.run(global_step)
        print("started at global step %d" % step)
        while not sess.should_stop():
            sess.run(train_op)
    # The variables live in the server, which outlives the MonitoredTrainingSession.
    with tf.Session(server.target) as sess:
        print("ended at global step %d" % sess.run(global_step))


if __name__ == "__main__":
    tf.app.run()
