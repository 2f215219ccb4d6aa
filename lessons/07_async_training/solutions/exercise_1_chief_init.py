"""Exercise 1 (solution): worker 0 is the chief that initializes the variables; the other
workers wait until they are initialized -- what tf.train.Supervisor(is_chief=...) did for seed
002, written by hand with a plain Session.

    python -m sandbox launch lessons/07_async_training/solutions/exercise_1_chief_init.py \
        --ps 1 --worker 3
"""
import os
import sys
import time

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
flags.DEFINE_float("init_timeout", 10.0, "Seconds a worker waits for the variables")
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
        uninitialized = tf.report_uninitialized_variables()

    # This worker's session needs only the ps and itself (not the workers that may have
    # finished already): device_filters, as TF's mnist_replica.py does.
    config = tf.ConfigProto(device_filters=["/job:ps", "/job:worker/task:%d" % FLAGS.task_index])
    with tf.Session(server.target, config=config) as sess:
        # The chief (worker 0) initializes the variables on the ps, once; every other worker
        # waits until report_uninitialized_variables() is empty. (Each worker running init_op
        # would reset the weights and global_step the others have been training.)
        if is_chief:
            sess.run(init_op)
            print("Worker %d (chief) initialized the variables" % FLAGS.task_index)
        else:
            waited = 0.0
            while len(sess.run(uninitialized)):
                if waited >= FLAGS.init_timeout:
                    raise RuntimeError("nobody initialized the variables after %.0f s"
                                       % waited)
                time.sleep(0.2)
                waited += 0.2
            print("Worker %d found the variables initialized" % FLAGS.task_index)

        batch_count = int(mnist.train.num_examples / 100)
        if FLAGS.batches_per_epoch:
            batch_count = min(batch_count, FLAGS.batches_per_epoch)
        updates = 0
        for epoch in range(FLAGS.training_epochs):
            for i in range(batch_count):
                batch_x, batch_y = mnist.train.next_batch(100)
                _, reached = sess.run([train_op, step_reached],
                                      feed_dict={x: batch_x, y_: batch_y})
                updates += 1
        print("Test-Accuracy: %2.2f" % sess.run(accuracy, feed_dict={
            x: mnist.test.images, y_: mnist.test.labels}))
        print("Updates by this worker: %d" % updates)
        print("global_step after its last update: %d" % int(reached))
    print("done")


if __name__ == "__main__":
    tf.app.run()
    sys.exit(0)
