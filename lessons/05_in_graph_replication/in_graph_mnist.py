"""In-graph replication on MNIST -- the CIFAR-10 multi-GPU recipe (cifar10_multi_gpu_train.py)
on a cluster: ONE client builds ONE graph holding a tower per GPU, and drives every tower.

    python lessons/05_in_graph_replication/launch.py               # 1 ps + 1 worker, 2 GPUs
    python lessons/05_in_graph_replication/launch.py --worker 2    # 4 towers on 2 workers

or one terminal per task:

    python lessons/05_in_graph_replication/in_graph_mnist.py --job_name=ps --task_index=0
    python lessons/05_in_graph_replication/in_graph_mnist.py --job_name=worker --task_index=0

The recipe, step by step:
  1. the batch is fed once, on worker 0's CPU, and tf.split cuts it into one slice per tower;
  2. each tower (/job:worker/task:K/gpu:G) computes the model's loss on its slice; the weights
     are tf.get_variable'd on the ps by the first tower and *reused* by the others
     (variable_scope reuse), so every tower reads the same variables;
  3. each tower computes its gradients (optimizer.compute_gradients) on its own device;
  4. the client averages the towers' gradients on worker 0's CPU and applies them once
     (optimizer.apply_gradients): one update per step, like one big batch;
  5. the towers' logits are tf.concat'ed back into the whole batch's predictions.

Worker 0 is the client. Other workers only lend their devices: they serve until the client
says it is done (a token in a shared queue: TF's servers cannot be stopped from outside).
TensorFlow without GPUs runs the same program: allow_soft_placement puts the towers on CPUs.
"""
import os
import sys

import sandbox as tf

flags = tf.app.flags
flags.DEFINE_string("job_name", "", "Either 'ps' or 'worker'")
flags.DEFINE_integer("task_index", 0, "Index of task within the job")
flags.DEFINE_string("ps_hosts", "localhost:2222", "Comma-separated host:port pairs")
flags.DEFINE_string("worker_hosts", "localhost:2223", "Comma-separated host:port pairs")
flags.DEFINE_string("data_dir", "data/mnist", "Where the MNIST files are")
flags.DEFINE_integer("num_gpus", 2, "Simulated GPUs per worker (one tower on each)")
flags.DEFINE_integer("batch_size", 100, "Examples per step, for all the towers together")
flags.DEFINE_integer("training_steps", 0, "Steps (0: 1000, or 200 with SANDBOX_QUICK=1)")
flags.DEFINE_float("learning_rate", 0.5, "Learning rate")
FLAGS = flags.FLAGS

QUICK = os.environ.get("SANDBOX_QUICK") == "1"


def done_queue(worker_index):
    """The queue a helper worker waits on: the client enqueues one token when training ends.
    The same shared_name in both graphs names the same queue, inside that worker."""
    with tf.device("/job:worker/task:%d/cpu:0" % worker_index):
        return tf.FIFOQueue(1, tf.int32, shared_name="done_queue_%d" % worker_index)


def inference(images):
    """The seed's network (784 -> 100 sigmoid -> 10). The variables live on the ps's CPU:
    '/cpu:0' matters -- without it they would inherit the tower's GPU on the ps."""
    with tf.device("/job:ps/task:0/cpu:0"):
        w1 = tf.get_variable("w1", [784, 100],
                             initializer=tf.truncated_normal_initializer(stddev=0.1, seed=1))
        b1 = tf.get_variable("b1", [100], initializer=tf.zeros_initializer())
        w2 = tf.get_variable("w2", [100, 10],
                             initializer=tf.truncated_normal_initializer(stddev=0.1, seed=2))
        b2 = tf.get_variable("b2", [10], initializer=tf.zeros_initializer())
    hidden = tf.nn.sigmoid(tf.matmul(images, w1) + b1)
    return tf.matmul(hidden, w2) + b2


def average_gradients(tower_grads):
    """As in cifar10_multi_gpu_train.py: tower_grads is a list (one per tower) of lists of
    (gradient, variable); the result is one (mean gradient, variable) per variable."""
    average_grads = []
    for grad_and_vars in zip(*tower_grads):
        grads = [tf.expand_dims(g, 0) for g, _ in grad_and_vars]
        grad = tf.reduce_mean(tf.concat(grads, 0), 0)
        average_grads.append((grad, grad_and_vars[0][1]))
    return average_grads


def main(_):
    ps_hosts = FLAGS.ps_hosts.split(",")
    worker_hosts = FLAGS.worker_hosts.split(",")
    cluster = tf.train.ClusterSpec({"ps": ps_hosts, "worker": worker_hosts})
    server = tf.train.Server(cluster, job_name=FLAGS.job_name, task_index=FLAGS.task_index,
                             config=tf.ConfigProto(device_count={"GPU": FLAGS.num_gpus}))
    if FLAGS.job_name == "ps":
        server.join()                 # serves the variables until the launcher stops it
        return
    if FLAGS.task_index > 0:          # a helper worker: its GPUs run towers of worker 0's graph
        with tf.Session(server.target) as sess:
            sess.run(done_queue(FLAGS.task_index).dequeue())
        print("worker %d: the client is done" % FLAGS.task_index)
        return

    from sandbox.examples.tutorials.mnist import input_data
    mnist = input_data.read_data_sets(FLAGS.data_dir, one_hot=True, seed=1)
    steps = FLAGS.training_steps or (200 if QUICK else 1000)
    tower_devices = ["/job:worker/task:%d/gpu:%d" % (task, gpu)
                     for task in range(len(worker_hosts)) for gpu in range(FLAGS.num_gpus)]
    num_towers = len(tower_devices)
    print("towers: %d (%d examples each)" % (num_towers, FLAGS.batch_size // num_towers))

    tf.set_random_seed(1)
    with tf.device("/job:worker/task:0/cpu:0"):       # the client's input and bookkeeping
        x = tf.placeholder(tf.float32, [None, 784], name="x")
        y_ = tf.placeholder(tf.float32, [None, 10], name="y_")
        x_slices = tf.split(x, num_towers)
        y_slices = tf.split(y_, num_towers)
    with tf.device("/job:ps/task:0/cpu:0"):
        global_step = tf.train.get_or_create_global_step()
    opt = tf.train.GradientDescentOptimizer(FLAGS.learning_rate)

    tower_grads, tower_losses, tower_logits = [], [], []
    with tf.variable_scope(tf.get_variable_scope()):
        for i, device in enumerate(tower_devices):
            with tf.device(device), tf.name_scope("tower_%d" % i):
                logits = inference(x_slices[i])
                loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(
                    labels=y_slices[i], logits=logits))
                tf.get_variable_scope().reuse_variables()   # the next towers share them
                tower_grads.append(opt.compute_gradients(loss))
                tower_losses.append(loss)
                tower_logits.append(logits)
                print("tower %d: its loss on %s, its gradients on %s" % (
                    i, loss.device, tower_grads[-1][0][0].device))

    with tf.device("/job:worker/task:0/cpu:0"):
        grads = average_gradients(tower_grads)
        mean_loss = tf.add_n(tower_losses) / float(num_towers)
        all_logits = tf.concat(tower_logits, 0)
        correct = tf.equal(tf.argmax(all_logits, 1), tf.argmax(y_, 1))
        accuracy = tf.reduce_mean(tf.cast(correct, tf.float32))
    train_op = opt.apply_gradients(grads, global_step=global_step)   # once, on the ps
    print("variables: %s" % ", ".join("%s on %s" % (v.op.name, v.device)
                                      for v in tf.trainable_variables()))
    print("one update per step: %s, applied where its variables live" % train_op.name)
    done = [done_queue(k).enqueue(0) for k in range(1, len(worker_hosts))]

    config = tf.ConfigProto(allow_soft_placement=True)
    with tf.Session(server.target, config=config) as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(steps + 1):
            batch_x, batch_y = mnist.train.next_batch(FLAGS.batch_size)
            feed = {x: batch_x, y_: batch_y}
            if step % (steps // 4) == 0:
                print("step %4d: loss %.3f (mean over the towers)" % (
                    step, sess.run(mean_loss, feed)))
            if step < steps:
                sess.run(train_op, feed)
        n = (mnist.test.num_examples // num_towers) * num_towers
        print("global step: %d" % sess.run(global_step))
        print("test accuracy: %.2f" % sess.run(accuracy, {x: mnist.test.images[:n],
                                                          y_: mnist.test.labels[:n]}))
        for enqueue in done:
            sess.run(enqueue)


if __name__ == "__main__":
    tf.app.run()
    sys.exit(0)
