"""Exercise 2 (solution): read global_step and measure how stale each gradient is.

A step reads global_step on the ps when it starts, with the weights its gradient is computed
from (fetching global_step gives that value); train_op's output (global_step's AssignAdd) is
global_step just after the step's own update. The updates in between were other workers':

    staleness = step reached - global_step read - 1

    python -m sandbox launch lessons/07_async_training/solutions/exercise_2_staleness.py \
        --ps 1 --worker 3
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
flags.DEFINE_integer("training_epochs", 1 if QUICK else 20, "Epochs per worker")
flags.DEFINE_integer("batches_per_epoch", 100 if QUICK else 0, "Batches per epoch (0: all)")
flags.DEFINE_float("learning_rate", 0.001, "Learning rate")
FLAGS = flags.FLAGS


def main(_):
    cluster = tf.train.ClusterSpec({"ps": FLAGS.ps_hosts.split(","),
                                    "worker": FLAGS.worker_hosts.split(",")})
    server = tf.train.Server(cluster, job_name=FLAGS.job_name, task_index=FLAGS.task_index)
    if FLAGS.job_name == "ps":
        server.join()
        return
    from sandbox.examples.tutorials.mnist import input_data
    mnist = input_data.read_data_sets(FLAGS.data_dir, one_hot=True)
    is_chief = FLAGS.task_index == 0
    with tf.device(tf.train.replica_device_setter(
            worker_device="/job:worker/task:%d" % FLAGS.task_index, cluster=cluster)):
        global_step = tf.get_variable("global_step", [], initializer=tf.constant_initializer(0),
                                      trainable=False)
        x = tf.placeholder(tf.float32, shape=[None, 784], name="x-input")
        y_ = tf.placeholder(tf.float32, shape=[None, 10], name="y-input")
        tf.set_random_seed(1)
        W1 = tf.Variable(tf.random_normal([784, 100]))
        W2 = tf.Variable(tf.random_normal([100, 10]))
        b1 = tf.Variable(tf.zeros([100]))
        b2 = tf.Variable(tf.zeros([10]))
        y = tf.nn.softmax(tf.add(tf.matmul(tf.nn.sigmoid(tf.add(tf.matmul(x, W1), b1)), W2), b2))
        cross_entropy = tf.reduce_mean(-tf.reduce_sum(y_ * tf.log(y), reduction_indices=[1]))
        train_op = tf.train.GradientDescentOptimizer(FLAGS.learning_rate).minimize(
            cross_entropy, global_step=global_step)
        step_reached = train_op.outputs[0]
        correct_prediction = tf.equal(tf.argmax(y, 1), tf.argmax(y_, 1))
        accuracy = tf.reduce_mean(tf.cast(correct_prediction, tf.float32))
        init_op = tf.global_variables_initializer()

    sv = tf.train.Supervisor(is_chief=is_chief, global_step=global_step, init_op=init_op,
                             recovery_wait_secs=1)
    config = tf.ConfigProto(device_filters=["/job:ps", "/job:worker/task:%d" % FLAGS.task_index])
    with sv.prepare_or_wait_for_session(server.target, config=config) as sess:
        batch_count = int(mnist.train.num_examples / 100)
        if FLAGS.batches_per_epoch:
            batch_count = min(batch_count, FLAGS.batches_per_epoch)
        updates, staleness = 0, []
        for epoch in range(FLAGS.training_epochs):
            for i in range(batch_count):
                batch_x, batch_y = mnist.train.next_batch(100)
                _, step, reached = sess.run([train_op, global_step, step_reached],
                                            feed_dict={x: batch_x, y_: batch_y})
                updates += 1
                staleness.append(int(reached) - int(step) - 1)
        print("Test-Accuracy: %2.2f" % sess.run(accuracy, feed_dict={
            x: mnist.test.images, y_: mnist.test.labels}))
        print("Updates by this worker: %d" % updates)
        print("global_step after its last update: %d" % int(reached))
        print("Staleness: mean %.2f, max %d" % (sum(staleness) / len(staleness),
                                                max(staleness)))
    sv.stop()
    print("done")


if __name__ == "__main__":
    tf.app.run()
    sys.exit(0)
