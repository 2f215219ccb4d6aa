"""Model parallelism on MNIST: ONE model split across two tasks, layer by layer.

    python lessons/11_model_parallelism/launch.py            # worker 0 and worker 1, no ps

or one terminal per task:

    python lessons/11_model_parallelism/model_parallel_mnist.py --job_name=worker --task_index=0
    python lessons/11_model_parallelism/model_parallel_mnist.py --job_name=worker --task_index=1

The MLP 784 -> hidden -> 10 is cut in two stages. Stage 1 (the hidden layer, its variables
and its backward pass) runs on worker 0, stage 2 (the output layer, the loss and their
backward pass) on worker 1. Each stage's variables live on its own task: no ps, no variable
ever crosses the wire. What crosses instead are the activations of the cut -- the hidden
layer's output, forward -- and their gradient, backward (colocate_gradients_with_ops=True
keeps each gradient op beside its forward op, so the backward pass is split the same way).

Worker 0 is the client. Worker 1 serves until the client says it is done (a token in a
shared queue on worker 1: TF's servers cannot be stopped from outside).

Before training, the program walks its own graph and lists every tensor that an op on one
task takes from an op on another -- the edges the master's partitioner will cut into
_Send/_Recv pairs -- with their bytes per step (unknown batch dimensions count as
--batch_size), and sets beside them what data parallelism (lesson 6: every worker pulls
every parameter from the ps and pushes a gradient for each) would move per worker and step.
The notebook 11_model_parallelism.ipynb measures both on running clusters.
"""
import os
import sys

import numpy as np

import sandbox as tf

flags = tf.app.flags
flags.DEFINE_string("job_name", "", "'worker' (this program has no ps)")
flags.DEFINE_integer("task_index", 0, "Index of task within the job")
flags.DEFINE_string("ps_hosts", "", "Comma-separated host:port pairs (unused: no ps)")
flags.DEFINE_string("worker_hosts", "localhost:2223,localhost:2224",
                    "Comma-separated host:port pairs (two workers)")
flags.DEFINE_string("data_dir", "data/mnist", "Where the MNIST files are")
flags.DEFINE_integer("hidden", 256, "Units of the hidden layer")
flags.DEFINE_integer("batch_size", 100, "Examples per step")
flags.DEFINE_integer("training_steps", 0, "Steps (0: 1000, or 200 with SANDBOX_QUICK=1)")
flags.DEFINE_float("learning_rate", 0.5, "Learning rate")
FLAGS = flags.FLAGS

QUICK = os.environ.get("SANDBOX_QUICK") == "1"
STAGE_1 = "/job:worker/task:0"          # the hidden layer
STAGE_2 = "/job:worker/task:1"          # the output layer and the loss


def done_queue():
    """Worker 1 waits on it; the client enqueues one token when training ends."""
    with tf.device(STAGE_2 + "/cpu:0"):
        return tf.FIFOQueue(1, tf.int32, shared_name="done_queue")


def task_of(device):
    """'/job:worker/task:1/device:CPU:0' -> '/job:worker/task:1' ('' if not placed)."""
    parts = [p for p in device.split("/") if p.startswith(("job:", "task:"))]
    return "/" + "/".join(parts) if parts else ""


def nbytes(tensor, batch_size):
    """Bytes of a tensor per step, from its static shape (unknown dimensions = batch_size)."""
    dims = tensor.shape.as_list() if tensor.shape.dims is not None else []
    return int(np.prod([d if d is not None else batch_size for d in dims])) * \
        tensor.dtype.size


def edges_across_tasks(fetch_ops, batch_size):
    """Every (tensor, from task, to task) that an op needed by `fetch_ops` takes from another
    task: what the partitioner (runtime/partition.py; TF: graph_partition.cc) cuts into a
    _Send/_Recv pair. A tensor going to one task counts once, however many ops read it there."""
    seen, stack, ops = set(), list(fetch_ops), []
    while stack:
        op = stack.pop()
        if op.name in seen:
            continue
        seen.add(op.name)
        ops.append(op)
        stack.extend(t.op for t in op.inputs)
        stack.extend(op.control_inputs)
    edges = {}
    for op in ops:
        for t in op.inputs:
            src, dst = task_of(t.op.device), task_of(op.device)
            if src != dst:
                edges[(t.name, dst)] = (t, src, dst, nbytes(t, batch_size))
    return sorted(edges.values(), key=lambda e: (e[1], e[0].name))


def main(_):
    worker_hosts = FLAGS.worker_hosts.split(",")
    cluster = tf.train.ClusterSpec({"worker": worker_hosts})
    server = tf.train.Server(cluster, job_name=FLAGS.job_name, task_index=FLAGS.task_index)
    if FLAGS.task_index > 0:                   # worker 1 lends its device to stage 2
        with tf.Session(server.target) as sess:
            sess.run(done_queue().dequeue())
        print("worker %d: the client is done" % FLAGS.task_index)
        return

    from sandbox.examples.tutorials.mnist import input_data
    mnist = input_data.read_data_sets(FLAGS.data_dir, one_hot=True, seed=1)
    steps = FLAGS.training_steps or (200 if QUICK else 1000)
    tf.set_random_seed(1)

    with tf.device(STAGE_1):
        x = tf.placeholder(tf.float32, [None, 784], name="x")
        w1 = tf.get_variable("w1", [784, FLAGS.hidden],
                             initializer=tf.truncated_normal_initializer(stddev=0.1, seed=1))
        b1 = tf.get_variable("b1", [FLAGS.hidden], initializer=tf.zeros_initializer())
        hidden = tf.nn.sigmoid(tf.matmul(x, w1) + b1, name="hidden")
    with tf.device(STAGE_2):
        y_ = tf.placeholder(tf.float32, [None, 10], name="y_")
        w2 = tf.get_variable("w2", [FLAGS.hidden, 10],
                             initializer=tf.truncated_normal_initializer(stddev=0.1, seed=2))
        b2 = tf.get_variable("b2", [10], initializer=tf.zeros_initializer())
        logits = tf.matmul(hidden, w2) + b2
        loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(labels=y_,
                                                                          logits=logits))
        correct = tf.equal(tf.argmax(logits, 1), tf.argmax(y_, 1))
        accuracy = tf.reduce_mean(tf.cast(correct, tf.float32))
        opt = tf.train.GradientDescentOptimizer(FLAGS.learning_rate)
        train_op = opt.minimize(loss, colocate_gradients_with_ops=True)

    for v in tf.trainable_variables():
        print("variable %s %s on %s" % (v.op.name, v.shape.as_list(), task_of(v.device)))
    edges = edges_across_tasks([train_op], FLAGS.batch_size)
    print("tensors crossing between the tasks in one training step (batch %d):"
          % FLAGS.batch_size)
    for t, src, dst, n in edges:
        print("  %s %s %s -> %s: %d bytes" % (t.name, t.shape.as_list(), src, dst, n))
    model_bytes = sum(n for _, _, _, n in edges)
    params = sum(int(np.prod(v.shape.as_list())) * v.dtype.size
                 for v in tf.trainable_variables())
    print("model parallelism, bytes across tasks per step: %d" % model_bytes)
    print("data parallelism, bytes per worker and step: %d "
          "(%d of parameters pulled + %d of gradients pushed)" % (2 * params, params, params))
    print("ratio data / model parallelism: %.1f" % (2.0 * params / model_bytes))

    done = done_queue().enqueue(0)
    config = tf.ConfigProto(allow_soft_placement=True)
    with tf.Session(server.target, config=config) as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(steps + 1):
            batch_x, batch_y = mnist.train.next_batch(FLAGS.batch_size)
            feed = {x: batch_x, y_: batch_y}
            if step % (steps // 4) == 0:
                print("step %4d: loss %.3f" % (step, sess.run(loss, feed)))
            if step < steps:
                sess.run(train_op, feed)
        print("test accuracy: %.2f" % sess.run(accuracy, {x: mnist.test.images,
                                                          y_: mnist.test.labels}))
        sess.run(done)


if __name__ == "__main__":
    tf.app.run()
    sys.exit(0)
