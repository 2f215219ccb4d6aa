"""A big embedding on the ps tasks and its sparse gradient: between-graph replication of a small
model with a 100,000 x 64 embedding (25.6 MB). Each step looks up 100 ids; the gradient of
tf.nn.embedding_lookup is a tf.IndexedSlices -- the 100 rows used and their ids -- so that is
all a worker pushes to the ps, where the optimizer updates those rows only.

The task (made up, so that no data set is needed): ids come mostly from a few thousand popular
ones, as words or products do; the label of an id is whether it is even. The model learns one
row per id.

    python lessons/06_between_graph_replication/launch.py sparse_embedding.py [--dense]
    python sparse_embedding.py --job_name=worker --task_index=0 [--dense]   (by hand, per task)

--dense turns the gradient into an ordinary [100000, 64] tensor before it is applied (what
happens when a program calls tf.convert_to_tensor on it, or multiplies by a one-hot matrix
instead of looking rows up): then every step pushes all 25.6 MB.
"""
import os
import re
import sys

import numpy as np

import sandbox as tf

QUICK = os.environ.get("SANDBOX_QUICK") == "1"

flags = tf.app.flags
flags.DEFINE_string("job_name", "", "Either 'ps' or 'worker'")
flags.DEFINE_integer("task_index", 0, "Index of task within the job")
flags.DEFINE_string("ps_hosts", "localhost:2222,localhost:2223", "Comma-separated host:port pairs")
flags.DEFINE_string("worker_hosts", "localhost:2224,localhost:2225",
                    "Comma-separated host:port pairs")
flags.DEFINE_integer("steps", 100 if QUICK else 2000, "Training steps per worker")
flags.DEFINE_boolean("dense", False, "Make the embedding's gradient dense before applying it")
FLAGS = flags.FLAGS

ROWS, DIM, BATCH = 100000, 64, 100


def batch(rng):
    """100 ids, mostly popular ones (a Zipf law), and their labels (1.0 for an even id)."""
    ids = (rng.zipf(1.3, BATCH) - 1) % ROWS
    return ids.astype(np.int32), (ids % 2 == 0).astype(np.float32)


def main(_):
    cluster = tf.train.ClusterSpec({"ps": FLAGS.ps_hosts.split(","),
                                    "worker": FLAGS.worker_hosts.split(",")})
    server = tf.train.Server(cluster, job_name=FLAGS.job_name, task_index=FLAGS.task_index)
    if FLAGS.job_name == "ps":
        server.join()
        return
    task = FLAGS.task_index

    with tf.device(tf.train.replica_device_setter(worker_device="/job:worker/task:%d" % task,
                                                  cluster=cluster)):
        global_step = tf.train.get_or_create_global_step()
        embedding = tf.get_variable("embedding", [ROWS, DIM],
                                    initializer=tf.random_uniform_initializer(-0.05, 0.05,
                                                                              seed=1))
        w = tf.get_variable("w", [DIM, 1], initializer=tf.random_normal_initializer(seed=2))
        b = tf.get_variable("b", [1], initializer=tf.zeros_initializer())
        ids = tf.placeholder(tf.int32, [BATCH], name="ids")
        labels = tf.placeholder(tf.float32, [BATCH], name="labels")
        rows = tf.nn.embedding_lookup(embedding, ids)                 # [100, 64]
        logits = tf.squeeze(tf.matmul(rows, w) + b, axis=1)
        loss = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(labels=labels,
                                                                      logits=logits))
        opt = tf.train.GradientDescentOptimizer(2.0)
        grads_and_vars = opt.compute_gradients(loss)
        embedding_grad = grads_and_vars[0][0]
        if FLAGS.dense:
            grads_and_vars[0] = (tf.convert_to_tensor(embedding_grad), embedding)
        train_op = opt.apply_gradients(grads_and_vars, global_step=global_step)

    for v in tf.global_variables():
        print("Worker %d: %-11s %-9s -> %s" % (task, v.op.name,
                                               "x".join(map(str, v.shape.as_list())) or "scalar",
                                               re.search(r"/job:ps/task:\d+", v.device).group(0)))
    pushed = grads_and_vars[0][0]
    print("Worker %d: the embedding's gradient is a tf.%s" % (task, type(pushed).__name__))

    rng = np.random.RandomState(task)
    # device_filters: this worker's session sees the ps tasks and itself only, so it
    # neither waits for nor depends on the other workers (which may have finished).
    config = tf.ConfigProto(device_filters=["/job:ps", "/job:worker/task:%d" % task])
    with tf.train.MonitoredTrainingSession(master=server.target, is_chief=(task == 0),
                                           config=config) as sess:
        ids_0, labels_0 = batch(np.random.RandomState(100))   # one fixed batch to measure
        if isinstance(pushed, tf.IndexedSlices):
            values, indices = sess.run([pushed.values, pushed.indices],
                                       {ids: ids_0, labels: labels_0})
            shape = "%d rows of %d (values %s + indices %s)" % (
                values.shape[0], ROWS, "x".join(map(str, values.shape)), indices.shape[0])
            nbytes = values.nbytes + indices.nbytes
        else:
            value = sess.run(pushed, {ids: ids_0, labels: labels_0})
            shape = "all %d rows (%s)" % (value.shape[0], "x".join(map(str, value.shape)))
            nbytes = value.nbytes
        print("Worker %d pushes for the embedding every step: %s = %s bytes "
              "(the whole embedding is %s bytes)" % (task, shape, "{:,}".format(nbytes),
                                                     "{:,}".format(ROWS * DIM * 4)))
        for i in range(FLAGS.steps):
            ids_i, labels_i = batch(rng)
            _, loss_i, step = sess.run([train_op, loss, global_step],
                                       {ids: ids_i, labels: labels_i})
            if i % (25 if QUICK else 500) == 0 or i == FLAGS.steps - 1:
                print("Worker %d: local step %4d, global step %4d, loss %.3f"
                      % (task, i, step, loss_i))


if __name__ == "__main__":
    tf.app.run()
    sys.exit(0)
