"""Seed 002: between-graph replication on MNIST -- the classic distributed TF-1 example,
unchanged but for `import sandbox as tf`. The benchmarks run it as it is, against TensorFlow;
lesson 7 (lessons/07_async_training/seed_002_mnist.py) teaches from a copy with marked additions.

Run one process per task, e.g. in four terminals:

    python bench/seed_002_mnist.py --job_name=ps --task_index=0
    python bench/seed_002_mnist.py --job_name=worker --task_index=0
    python bench/seed_002_mnist.py --job_name=worker --task_index=1
    python bench/seed_002_mnist.py --job_name=worker --task_index=2

(the hosts are set by --ps_hosts / --worker_hosts; --data_dir points at MNIST;
--training_epochs is 20 in the seed). As in TensorFlow, the ps serves until you stop it
(Ctrl-C); the workers print the test accuracy and exit.
"""
import sys
import time

import sandbox as tf

flags = tf.app.flags
flags.DEFINE_string("job_name", "", "Either 'ps' or 'worker'")
flags.DEFINE_integer("task_index", 0, "Index of task within the job")
flags.DEFINE_string("ps_hosts", "localhost:2222", "Comma-separated host:port pairs")
flags.DEFINE_string("worker_hosts", "localhost:2223,localhost:2224,localhost:2225",
                    "Comma-separated host:port pairs")
flags.DEFINE_string("data_dir", "data/mnist", "Where the MNIST files are")
flags.DEFINE_integer("training_epochs", 20, "Epochs per worker")
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
        server.join()           # until a worker stops it (a sandbox server can be stopped)
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
            with tf.name_scope("Accuracy"):
                correct_prediction = tf.equal(tf.argmax(y, 1), tf.argmax(y_, 1))
                accuracy = tf.reduce_mean(tf.cast(correct_prediction, tf.float32))
            tf.summary.scalar("cost", cross_entropy)
            tf.summary.scalar("accuracy", accuracy)
            summary_op = tf.summary.merge_all()
            init_op = tf.global_variables_initializer()
            print("Variables initialized ...")

        sv = tf.train.Supervisor(is_chief=(FLAGS.task_index == 0), global_step=global_step,
                                 init_op=init_op)
        begin_time = time.time()
        frequency = 100
        with sv.prepare_or_wait_for_session(server.target) as sess:
            writer = tf.summary.FileWriter(FLAGS.logs_path, graph=tf.get_default_graph())
            start_time = time.time()
            for epoch in range(training_epochs):
                batch_count = int(mnist.train.num_examples / batch_size)
                count = 0
                for i in range(batch_count):
                    batch_x, batch_y = mnist.train.next_batch(batch_size)
                    _, cost, summary, step = sess.run(
                        [train_op, cross_entropy, summary_op, global_step],
                        feed_dict={x: batch_x, y_: batch_y})
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
            writer.close()
        sv.stop()
        print("done")


if __name__ == "__main__":
    tf.app.run()
    sys.exit(0)
