"""Lesson 9: between-graph training with tf.train.MonitoredTrainingSession, which saves
checkpoints and survives a parameter server that dies.

Run one process per task, e.g. in three terminals (or all at once with launch.py):

    python mts_train.py --job_name=ps     --task_index=0
    python mts_train.py --job_name=worker --task_index=0     # the chief: saves checkpoints
    python mts_train.py --job_name=worker --task_index=1

Worker 0 is the chief: it initializes the variables -- or restores them from the latest
checkpoint in --checkpoint_dir -- and saves a checkpoint every --save_checkpoint_steps global
steps. Kill the ps (Ctrl-C in its terminal) while the workers train and start it again: the
workers' steps fail with UnavailableError / AbortedError, their MonitoredSessions create new
sessions, the chief restores the last checkpoint, and every step taken after that checkpoint
is lost. The hook below prints the global step each new session starts from.

Run the whole job twice with the same --checkpoint_dir and a larger --train_steps: the second
run starts from the first run's last checkpoint, not from step 0.
"""
import os

import sandbox as tf

QUICK = os.environ.get("SANDBOX_QUICK") == "1"

flags = tf.app.flags
flags.DEFINE_string("job_name", "", "Either 'ps' or 'worker'")
flags.DEFINE_integer("task_index", 0, "Index of task within the job")
flags.DEFINE_string("ps_hosts", "localhost:2222", "Comma-separated host:port pairs")
flags.DEFINE_string("worker_hosts", "localhost:2223,localhost:2224",
                    "Comma-separated host:port pairs")
flags.DEFINE_string("data_dir", "data/mnist", "Where the MNIST files are")
flags.DEFINE_string("checkpoint_dir", "train_logs", "Where the chief saves checkpoints")
flags.DEFINE_integer("train_steps", 300 if QUICK else 3000, "Stop at this global step")
flags.DEFINE_integer("save_checkpoint_steps", 50 if QUICK else 500,
                     "The chief saves a checkpoint every this many global steps")
flags.DEFINE_integer("log_every", 100 if QUICK else 500, "Print the loss every this many "
                     "steps of this worker")
flags.DEFINE_float("learning_rate", 0.5, "Learning rate")
flags.DEFINE_boolean("device_filters", True, "Let this worker's sessions use (and wait for) "
                     "only the ps tasks and this worker; --nodevice_filters: every task of "
                     "the cluster, TF's default")
FLAGS = flags.FLAGS


class RecoveryLogger(tf.train.SessionRunHook):
    """Prints the global step every new session starts from. A MonitoredSession calls
    after_create_session() again each time it re-creates its session after a failure; the
    chief's new session starts at the step of the checkpoint it restored, so the steps between
    that one and the highest step any worker saw before the failure were lost."""

    def __init__(self, global_step, name):
        self._global_step = global_step
        self._name = name
        self._sessions = 0
        self._reached = None           # the global step this worker last saw reached

    def after_create_session(self, session, coord):
        self._sessions += 1
        step = int(session.run(self._global_step))
        print("%s: session %d created at global step %d" % (self._name, self._sessions, step))
        if self._reached is not None:
            print("%s: before the failure this worker saw global step %d; the new session "
                  "starts at %d" % (self._name, self._reached, step))

    def before_run(self, run_context):
        return tf.train.SessionRunArgs(self._global_step)

    def after_run(self, run_context, run_values):
        # The fetched value is read before this step's update, as StopAtStepHook reasons.
        self._reached = int(run_values.results) + 1


def main(_):
    ps_hosts = FLAGS.ps_hosts.split(",")
    worker_hosts = FLAGS.worker_hosts.split(",")
    cluster = tf.train.ClusterSpec({"ps": ps_hosts, "worker": worker_hosts})
    server = tf.train.Server(cluster, job_name=FLAGS.job_name, task_index=FLAGS.task_index)
    if FLAGS.job_name == "ps":
        server.join()
        return

    from sandbox.examples.tutorials.mnist import input_data
    mnist = input_data.read_data_sets(FLAGS.data_dir, one_hot=True)
    is_chief = FLAGS.task_index == 0
    name = "worker %d" % FLAGS.task_index

    with tf.device(tf.train.replica_device_setter(
            worker_device="/job:worker/task:%d" % FLAGS.task_index, cluster=cluster)):
        global_step = tf.train.get_or_create_global_step()
        x = tf.placeholder(tf.float32, [None, 784], name="x")
        y_ = tf.placeholder(tf.float32, [None, 10], name="y_")
        W = tf.Variable(tf.zeros([784, 10]), name="W")
        b = tf.Variable(tf.zeros([10]), name="b")
        logits = tf.matmul(x, W) + b
        loss = tf.reduce_mean(
            tf.nn.softmax_cross_entropy_with_logits_v2(labels=y_, logits=logits))
        train_op = tf.train.GradientDescentOptimizer(FLAGS.learning_rate).minimize(
            loss, global_step=global_step)

    # A session waits for every task of its cluster unless device_filters names the tasks it
    # uses: without them a worker that starts late waits forever for a chief that has already
    # finished and exited, and a restarted chief for a worker that has.
    config = None
    if FLAGS.device_filters:
        config = tf.ConfigProto(device_filters=["/job:ps",
                                                "/job:worker/task:%d" % FLAGS.task_index])
    hooks = [tf.train.StopAtStepHook(last_step=FLAGS.train_steps),
             RecoveryLogger(global_step, name)]
    # Only the chief gets a checkpoint_dir: it restores and saves; the others wait for it.
    with tf.train.MonitoredTrainingSession(
            master=server.target, is_chief=is_chief,
            checkpoint_dir=FLAGS.checkpoint_dir if is_chief else None,
            save_checkpoint_steps=FLAGS.save_checkpoint_steps,
            save_summaries_steps=None, log_step_count_steps=None,
            config=config, hooks=hooks) as sess:
        local_step = 0
        while not sess.should_stop():
            batch_xs, batch_ys = mnist.train.next_batch(100)
            _, loss_value, step = sess.run([train_op, loss, global_step],
                                           feed_dict={x: batch_xs, y_: batch_ys})
            local_step += 1
            if local_step % FLAGS.log_every == 0:
                print("%s: local step %d, global step %d, loss %.3f"
                      % (name, local_step, step, loss_value))
    print("%s: done after %d local steps" % (name, local_step))
    if is_chief:
        print("%s: last checkpoint: %s" % (name, os.path.basename(
            tf.train.latest_checkpoint(FLAGS.checkpoint_dir))))


if __name__ == "__main__":
    tf.app.run()
