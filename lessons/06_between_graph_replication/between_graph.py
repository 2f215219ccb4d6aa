"""Between-graph replication: every worker runs this same program and builds its own copy of
seed 002's MNIST graph; tf.train.replica_device_setter puts the variables on the ps tasks and
every other op on the worker itself, so all workers train one shared set of parameters.

Run one process per task (the launcher does it: python lessons/06_between_graph_replication/launch.py):

    python between_graph.py --job_name=ps --task_index=0
    python between_graph.py --job_name=ps --task_index=1
    python between_graph.py --job_name=worker --task_index=0 [--ps_strategy=greedy]
    python between_graph.py --job_name=worker --task_index=1 [--ps_strategy=greedy]
"""
import os
import re
import sys

import sandbox as tf

QUICK = os.environ.get("SANDBOX_QUICK") == "1"

flags = tf.app.flags
flags.DEFINE_string("job_name", "", "Either 'ps' or 'worker'")
flags.DEFINE_integer("task_index", 0, "Index of task within the job")
flags.DEFINE_string("ps_hosts", "localhost:2222,localhost:2223", "Comma-separated host:port pairs")
flags.DEFINE_string("worker_hosts", "localhost:2224,localhost:2225",
                    "Comma-separated host:port pairs")
flags.DEFINE_string("data_dir", "data/mnist", "Where the MNIST files are")
flags.DEFINE_string("ps_strategy", "round_robin", "'round_robin' or 'greedy' (by bytes)")
flags.DEFINE_integer("steps", 200 if QUICK else 3000, "Training steps per worker")
flags.DEFINE_float("learning_rate", 0.5, "Learning rate")
FLAGS = flags.FLAGS

# TF 1.15 names the greedy strategy tf.contrib.training.GreedyLoadBalancingStrategy; the
# sandbox also has it as tf.train.GreedyLoadBalancingStrategy. TF 2 dropped contrib, so there
# this program uses the same lines of TF 1.15's code, below.
if hasattr(tf.train, "GreedyLoadBalancingStrategy"):
    GreedyLoadBalancingStrategy = tf.train.GreedyLoadBalancingStrategy
    byte_size_load_fn = tf.train.byte_size_load_fn
else:
    class GreedyLoadBalancingStrategy(object):
        """Each ps op goes to the ps task with the smallest load so far."""

        def __init__(self, num_tasks, load_fn):
            self._num_tasks = num_tasks
            self._load_fn = load_fn
            self._ps_loads = [0] * num_tasks

        def __call__(self, op):
            task = self._ps_loads.index(min(self._ps_loads))
            self._ps_loads[task] += self._load_fn(op)
            return task

    def byte_size_load_fn(op):
        """The bytes of the op's one output (a variable: its shape x its dtype's size)."""
        shape = op.outputs[0].get_shape()
        if not shape.is_fully_defined():
            shape = tf.TensorShape(op.get_attr("shape"))
        return shape.num_elements() * op.outputs[0].dtype.base_dtype.size


def nbytes(variable):
    return variable.shape.num_elements() * variable.dtype.base_dtype.size


def main(_):
    cluster = tf.train.ClusterSpec({"ps": FLAGS.ps_hosts.split(","),
                                    "worker": FLAGS.worker_hosts.split(",")})
    server = tf.train.Server(cluster, job_name=FLAGS.job_name, task_index=FLAGS.task_index)
    if FLAGS.job_name == "ps":
        server.join()
        return

    from sandbox.examples.tutorials.mnist import input_data
    mnist = input_data.read_data_sets(FLAGS.data_dir, one_hot=True, seed=FLAGS.task_index + 1)
    task = FLAGS.task_index
    num_ps = cluster.num_tasks("ps")
    if FLAGS.ps_strategy == "greedy":
        strategy = GreedyLoadBalancingStrategy(num_ps, byte_size_load_fn)
    elif FLAGS.ps_strategy == "round_robin":
        strategy = None                          # replica_device_setter's default
    else:
        raise ValueError("--ps_strategy is 'round_robin' or 'greedy'")

    # Every op made in this block gets a device from the device function: variables (the
    # ops in STANDARD_PS_OPS) a ps task, every other op this worker.
    with tf.device(tf.train.replica_device_setter(
            worker_device="/job:worker/task:%d" % task, cluster=cluster,
            ps_strategy=strategy)):
        global_step = tf.train.get_or_create_global_step()
        x = tf.placeholder(tf.float32, shape=[None, 784], name="x-input")
        y_ = tf.placeholder(tf.float32, shape=[None, 10], name="y-input")
        tf.set_random_seed(1)
        W1 = tf.Variable(tf.random_normal([784, 100]), name="W1")
        W2 = tf.Variable(tf.random_normal([100, 10]), name="W2")
        b1 = tf.Variable(tf.zeros([100]), name="b1")
        b2 = tf.Variable(tf.zeros([10]), name="b2")
        a2 = tf.nn.sigmoid(tf.add(tf.matmul(x, W1), b1))
        y = tf.nn.softmax(tf.add(tf.matmul(a2, W2), b2))
        cross_entropy = tf.reduce_mean(-tf.reduce_sum(y_ * tf.log(y), axis=[1]))
        train_op = tf.train.GradientDescentOptimizer(FLAGS.learning_rate).minimize(
            cross_entropy, global_step=global_step)
        correct = tf.equal(tf.argmax(y, 1), tf.argmax(y_, 1))
        accuracy = tf.reduce_mean(tf.cast(correct, tf.float32))

    # What this worker built, and where: the same on every worker (each one runs this code).
    pulls, pushes = [0] * num_ps, [0] * num_ps
    trainable = set(v.op.name for v in tf.trainable_variables())
    for v in tf.global_variables():
        ps = int(re.search(r"/job:ps/task:(\d+)", v.device).group(1))
        print("Worker %d: %-11s -> /job:ps/task:%d (%s bytes)" % (task, v.op.name, ps,
                                                                 "{:,}".format(nbytes(v))))
        if v.op.name in trainable:       # read by the step, then its gradient back
            pulls[ps] += nbytes(v)
            pushes[ps] += nbytes(v)
    print("Worker %d: the loss runs on %s" % (task, cross_entropy.device))
    for ps in range(num_ps):
        print("Worker %d, every step: pulls %s bytes of parameters from ps %d, pushes %s bytes "
              "of gradients to it" % (task, "{:,}".format(pulls[ps]), ps,
                                      "{:,}".format(pushes[ps])))

    # device_filters: this worker's session sees the ps tasks and itself only, so it
    # neither waits for nor depends on the other workers (which may have finished).
    config = tf.ConfigProto(device_filters=["/job:ps", "/job:worker/task:%d" % task])
    with tf.train.MonitoredTrainingSession(master=server.target, is_chief=(task == 0),
                                           config=config) as sess:
        for i in range(FLAGS.steps):
            batch_x, batch_y = mnist.train.next_batch(100)
            _, loss, step = sess.run([train_op, cross_entropy, global_step],
                                     feed_dict={x: batch_x, y_: batch_y})
            if i % (50 if QUICK else 500) == 0:
                print("Worker %d: local step %4d, global step %4d, loss %.3f"
                      % (task, i, step, loss))
        print("Worker %d: test accuracy %.3f after %d global steps" % (
            task, sess.run(accuracy, feed_dict={x: mnist.test.images, y_: mnist.test.labels}),
            sess.run(global_step)))


if __name__ == "__main__":
    tf.app.run()
    sys.exit(0)
