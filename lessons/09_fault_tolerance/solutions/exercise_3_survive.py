"""Exercise 3: survive a parameter server that restarts.

A cluster program (1 ps + 1 worker) written the way early TF-1 tutorials wrote their loop: a
plain tf.Session that initializes the variables and trains until the global step reaches
--train_steps. Kill the ps in the middle (or let the check do it) and the worker dies with
UnavailableError: nothing re-creates its session, and nothing saved the variables.

Rewrite the training part with tf.train.MonitoredTrainingSession (the worker is the chief):
checkpoints in --checkpoint_dir every --save_checkpoint_steps steps, and a StopAtStepHook at
--train_steps, so that the worker rides out the restart and finishes.

    python exercise_3_survive.py --job_name=ps --task_index=0 --train_steps=3000   # terminal 1
    python exercise_3_survive.py --job_name=worker --task_index=0 --train_steps=3000  # terminal 2
(then Ctrl-C the ps and start it again)
Check: pytest lessons/09_fault_tolerance -k exercise_3  (it kills and restarts the ps)
"""
import time

import numpy as np

import sandbox as tf

flags = tf.app.flags
flags.DEFINE_string("job_name", "", "Either 'ps' or 'worker'")
flags.DEFINE_integer("task_index", 0, "Index of task within the job")
flags.DEFINE_string("ps_hosts", "localhost:2222", "Comma-separated host:port pairs")
flags.DEFINE_string("worker_hosts", "localhost:2223", "Comma-separated host:port pairs")
flags.DEFINE_string("checkpoint_dir", "ex3_logs", "Where the chief saves checkpoints")
flags.DEFINE_integer("train_steps", 300, "Stop at this global step")
flags.DEFINE_integer("save_checkpoint_steps", 50, "Save a checkpoint every this many steps")
flags.DEFINE_float("step_secs", 0.005, "Sleep this long after every step (time to kill the ps)")
FLAGS = flags.FLAGS


def main(_):
    cluster = tf.train.ClusterSpec({"ps": FLAGS.ps_hosts.split(","),
                                    "worker": FLAGS.worker_hosts.split(",")})
    server = tf.train.Server(cluster, job_name=FLAGS.job_name, task_index=FLAGS.task_index)
    if FLAGS.job_name == "ps":
        server.join()
        return

    with tf.device(tf.train.replica_device_setter(
            worker_device="/job:worker/task:%d" % FLAGS.task_index, cluster=cluster)):
        global_step = tf.train.get_or_create_global_step()
        x = tf.constant(np.ones((8, 4), np.float32))
        w = tf.Variable(tf.zeros([4, 1]), name="w")
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - 1.0))
        train_op = tf.train.GradientDescentOptimizer(0.01).minimize(
            loss, global_step=global_step)

    # SOLUTION: a MonitoredTrainingSession re-creates its session after UnavailableError /
    # AbortedError, and the chief restores the last checkpoint onto the restarted ps.
    with tf.train.MonitoredTrainingSession(
            master=server.target, is_chief=(FLAGS.task_index == 0),
            checkpoint_dir=FLAGS.checkpoint_dir,
            save_checkpoint_steps=FLAGS.save_checkpoint_steps,
            save_summaries_steps=None, log_step_count_steps=None,
            hooks=[tf.train.StopAtStepHook(last_step=FLAGS.train_steps)]) as sess:
        while not sess.should_stop():
            sess.run(train_op)
            time.sleep(FLAGS.step_secs)
    print("worker %d: done" % FLAGS.task_index)


if __name__ == "__main__":
    tf.app.run()
