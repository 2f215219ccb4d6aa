"""Lesson 7: seed 002 -- asynchronous between-graph training on MNIST, the classic TF-1
tutorial program (1 ps, N workers, GradientDescent 0.001, batch 100, 20 epochs per worker,
tf.train.Supervisor), unchanged but for `import sandbox as tf` and four additions marked
"lesson 7" below: a quick mode, Supervisor(recovery_wait_secs=1), session device_filters, and
the lines that count this worker's updates and measure how stale its gradients were.

One command starts the whole cluster (1 ps + 2 workers by default):

    python lessons/07_async_training/launch.py
    python lessons/07_async_training/launch.py --worker 3            # 1 ps + 3 workers

or, as the tutorial does, one terminal per task (the hosts below are the defaults):

    python lessons/07_async_training/seed_002_mnist.py --job_name=ps --task_index=0
    python lessons/07_async_training/seed_002_mnist.py --job_name=worker --task_index=0
    python lessons/07_async_training/seed_002_mnist.py --job_name=worker --task_index=1
    python lessons/07_async_training/seed_002_mnist.py --job_name=worker --task_index=2

Every worker runs its OWN `--training_epochs` epochs of `--batches_per_epoch` batches, and
every one of its steps applies one update to the variables on the ps: with N workers the ps
applies N x epochs x batches updates, and global_step counts them all.

Staleness: `sess.run([train_op, ..., global_step, step_reached])` reads global_step on the ps
when the step starts, together with the weights the gradient is computed from, and
step_reached is global_step just after this step's update. Every update in between was
another worker's: staleness = step_reached - global_step read - 1 (0 with one worker).

SANDBOX_QUICK=1: 1 epoch of 200 batches per worker (instead of 20 epochs of 550).
"""
import os
import sys
import time

import sandbox as tf

QUICK = os.environ.get("SANDBOX_QUICK") == "1"          # lesson 7: a quick mode

flags = tf.app.flags
flags.DEFINE_string("job_name", "", "Either 'ps' or 'worker'")
flags.DEFINE_integer("task_index", 0, "Index of task within the job")
flags.DEFINE_string("ps_hosts", "localhost:2222", "Comma-separated host:port pairs")
flags.DEFINE_string("worker_hosts", "localhost:2223,localhost:2224,localhost:2225",
                    "Comma-separated host:port pairs")
flags.DEFINE_string("data_dir", "data/mnist", "Where the MNIST files are")
flags.DEFINE_integer("training_epochs", 1 if QUICK else 20, "Epochs per worker")
flags.DEFINE_integer("batches_per_epoch", 200 if QUICK else 0,
                     "Batches per epoch (0: the whole training set, 550 batches)")
flags.DEFINE_float("learning_rate", 0.001, "Learning rate")
flags.DEFINE_string("logs_path", "/tmp/mnist/1", "Where summaries go")
FLAGS = flags.FLAGS


def main(_):
    parameter_servers = FLAGS.ps_hosts.split(",")
    workers = FLAGS.worker_hosts.split(",")
    cluster = tf.train.ClusterSpec({"ps": parameter_servers, "worker": workers})
    server = tf.train.Server(cluster, job_name=FLAGS.job_name, task_index=FLAGS.task_index)

    batch_size = 100
    learning_rate = FLAGS.learning_rate
    training_epochs = FLAGS.training_epochs

    from sandbox.examples.tutorials.mnist import input_data
    mnist = input_data.read_data_sets(FLAGS.data_dir, one_hot=True)

    if FLAGS.job_name == "ps":
        server.join()           # serves the variables until the launcher stops it
    elif FLAGS.job_name == "worker":
        with tf.device(tf.train.replica_device_setter(
                worker_device="/job:worker/task:%d" % FLAGS.task_index, cluster=cluster)):
            global_step = tf.get_variable("global_step", [],
                                          initializer=tf.constant_initializer(0),
                                          trainable=False)
            with tf.name_scope("input"):
                x = tf.placeholder(tf.float32, shape=[None, 784], name="x-input")
                y_ = tf.placeholder(tf.float32, shape=[None, 10], name="y-input")
            tf.set_random_seed(1)
            with tf.name_scope("weights"):
                W1 = tf.Variable(tf.random_normal([784, 100]))
                W2 = tf.Variable(tf.random_normal([100, 10]))
            with tf.name_scope("biases"):
                b1 = tf.Variable(tf.zeros([100]))
                b2 = tf.Variable(tf.zeros([10]))
            with tf.name_scope("softmax"):
                z2 = tf.add(tf.matmul(x, W1), b1)
                a2 = tf.nn.sigmoid(z2)
                z3 = tf.add(tf.matmul(a2, W2), b2)
                y = tf.nn.softmax(z3)
            with tf.name_scope("cross_entropy"):
                cross_entropy = tf.reduce_mean(
                    -tf.reduce_sum(y_ * tf.log(y), reduction_indices=[1]))
            with tf.name_scope("train"):
                grad_op = tf.train.GradientDescentOptimizer(learning_rate)
                train_op = grad_op.minimize(cross_entropy, global_step=global_step)
                # lesson 7: train_op is global_step's AssignAdd; its output is global_step
                # just after this step's update (fetching global_step gives it before).
                step_reached = train_op.outputs[0]
            with tf.name_scope("Accuracy"):
                correct_prediction = tf.equal(tf.argmax(y, 1), tf.argmax(y_, 1))
                accuracy = tf.reduce_mean(tf.cast(correct_prediction, tf.float32))
            tf.summary.scalar("cost", cross_entropy)
            tf.summary.scalar("accuracy", accuracy)
            summary_op = tf.summary.merge_all()
            init_op = tf.global_variables_initializer()
            print("Variables initialized ...")

        # lesson 7: recovery_wait_secs=1 -- a non-chief worker checks every second whether
        # the chief has initialized the variables (TF's default: every 30 s).
        sv = tf.train.Supervisor(is_chief=(FLAGS.task_index == 0), global_step=global_step,
                                 init_op=init_op, recovery_wait_secs=1)
        begin_time = time.time()
        frequency = 100
        updates, staleness = 0, []                     # lesson 7
        # lesson 7: this worker's session needs only the ps and itself (as TF's
        # mnist_replica.py says). Without device_filters a Session waits for EVERY task of the
        # cluster -- also for a worker that has already finished and exited.
        config = tf.ConfigProto(device_filters=[
            "/job:ps", "/job:worker/task:%d" % FLAGS.task_index])
        with sv.prepare_or_wait_for_session(server.target, config=config) as sess:
            writer = tf.summary.FileWriter(FLAGS.logs_path, graph=tf.get_default_graph())
            start_time = time.time()
            for epoch in range(training_epochs):
                batch_count = int(mnist.train.num_examples / batch_size)
                if FLAGS.batches_per_epoch:                                    # lesson 7
                    batch_count = min(batch_count, FLAGS.batches_per_epoch)
                count = 0
                for i in range(batch_count):
                    batch_x, batch_y = mnist.train.next_batch(batch_size)
                    _, cost, summary, step, reached = sess.run(
                        [train_op, cross_entropy, summary_op, global_step, step_reached],
                        feed_dict={x: batch_x, y_: batch_y})
                    updates += 1                                               # lesson 7
                    staleness.append(int(reached) - int(step) - 1)             # lesson 7
                    writer.add_summary(summary, step)
                    count += 1
                    if count % frequency == 0 or i + 1 == batch_count:
                        elapsed_time = time.time() - start_time
                        start_time = time.time()
                        print("Step: %d," % (step + 1), " Epoch: %2d," % (epoch + 1),
                              " Batch: %3d of %3d," % (i + 1, batch_count),
                              " Cost: %.4f," % cost,
                              " AvgTime: %3.2fms" % float(elapsed_time * 1000 / frequency))
                        count = 0
            print("Test-Accuracy: %2.2f" % sess.run(accuracy, feed_dict={
                x: mnist.test.images, y_: mnist.test.labels}))
            print("Total Time: %3.2fs" % float(time.time() - begin_time))
            print("Final Cost: %.4f" % cost)
            # lesson 7: what this worker did to the shared variables
            print("Updates by this worker: %d" % updates)
            print("global_step after its last update: %d" % int(reached))
            print("Staleness: mean %.2f, max %d (other workers' updates between reading the "
                  "weights and applying the gradient)"
                  % (sum(staleness) / max(1, len(staleness)), max(staleness or [0])))
            writer.close()
        sv.stop()
        print("done")


if __name__ == "__main__":
    tf.app.run()
    sys.exit(0)
