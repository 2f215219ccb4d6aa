"""Exercise 1: make this asynchronous between-graph program synchronous.

Right now every worker applies its own gradients to the variables on the ps whenever it is
done (asynchronous training), so the global step counts every worker's steps. Make it
synchronous:

  TODO 1  wrap the optimizer in tf.train.SyncReplicasOptimizer, every update averaging one
          gradient per worker: replicas_to_aggregate = total_num_replicas = number of workers;
  TODO 2  give the MonitoredTrainingSession the optimizer's hook,
          opt.make_session_run_hook(is_chief), beside the StopAtStepHook.

Check:  pytest lessons/08_sync_training -k exercise_1   (or `make check-lessons`).
When it is synchronous, the workers together run about twice as many local steps as there are
global steps (each update averages 2 gradients); now they run about as many.

    python -m sandbox launch lessons/08_sync_training/exercise_1_make_it_sync.py --ps 1 --worker 2
"""
import os
import sys

import sandbox as tf

QUICK = os.environ.get("SANDBOX_QUICK") == "1"

flags = tf.app.flags
flags.DEFINE_string("job_name", "", "Either 'ps' or 'worker'")
flags.DEFINE_integer("task_index", 0, "Index of task within the job")
flags.DEFINE_string("ps_hosts", "localhost:2222", "Comma-separated host:port pairs")
flags.DEFINE_string("worker_hosts", "localhost:2223,localhost:2224",
                    "Comma-separated host:port pairs")
flags.DEFINE_string("data_dir", "data/mnist", "Where the MNIST files are")
flags.DEFINE_integer("train_steps", 60 if QUICK else 1000, "Global step to stop at")
FLAGS = flags.FLAGS


def main(_):
    worker_hosts = FLAGS.worker_hosts.split(",")
    cluster = tf.train.ClusterSpec({"ps": FLAGS.ps_hosts.split(","), "worker": worker_hosts})
    server = tf.train.Server(cluster, job_name=FLAGS.job_name, task_index=FLAGS.task_index)
    if FLAGS.job_name == "ps":
        server.join()
        return
    from sandbox.examples.tutorials.mnist import input_data
    mnist = input_data.read_data_sets(FLAGS.data_dir, one_hot=True)
    is_chief = FLAGS.task_index == 0

    with tf.device(tf.train.replica_device_setter(
            worker_device="/job:worker/task:%d" % FLAGS.task_index, cluster=cluster)):
        global_step = tf.train.get_or_create_global_step()
        x = tf.placeholder(tf.float32, [None, 784])
        y_ = tf.placeholder(tf.float32, [None, 10])
        W = tf.Variable(tf.zeros([784, 10]))
        b = tf.Variable(tf.zeros([10]))
        logits = tf.matmul(x, W) + b
        loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(labels=y_,
                                                                          logits=logits))
        accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(logits, 1), tf.argmax(y_, 1)),
                                          tf.float32))
        opt = tf.train.GradientDescentOptimizer(0.5)
        opt = tf.train.SyncReplicasOptimizer(opt, replicas_to_aggregate=len(worker_hosts),
                                             total_num_replicas=len(worker_hosts))
        train_op = opt.minimize(loss, global_step=global_step)

    hooks = [tf.train.StopAtStepHook(last_step=FLAGS.train_steps)]
    hooks.append(opt.make_session_run_hook(is_chief))
    local_steps = 0
    # A session waits for every task it may use: the ps and this worker only, so that a
    # worker that starts late does not wait for a chief that has already finished.
    config = tf.ConfigProto(device_filters=["/job:ps", "/job:worker/task:%d" % FLAGS.task_index])
    with tf.train.MonitoredTrainingSession(master=server.target, is_chief=is_chief,
                                           config=config, hooks=hooks,
                                           save_checkpoint_secs=None,
                                           save_summaries_steps=None,
                                           log_step_count_steps=None,
                                           stop_grace_period_secs=5) as sess:
        while not sess.should_stop():
            batch_x, batch_y = mnist.train.next_batch(100)
            sess.run(train_op, {x: batch_x, y_: batch_y})
            local_steps += 1
        final = sess.run_step_fn(lambda step_context: step_context.session.run(global_step))
        if is_chief:
            acc = sess.run_step_fn(lambda step_context: step_context.session.run(
                accuracy, {x: mnist.test.images, y_: mnist.test.labels}))
            print("Test-Accuracy: %.3f" % acc)
    print("worker %d: %d local steps, global step %d" % (FLAGS.task_index, local_steps, final))


if __name__ == "__main__":
    tf.app.run()
    sys.exit(0)
