"""Exercise 1 -- average the towers' gradients (the heart of the CIFAR-10 multi-GPU recipe).

Two towers, one per simulated GPU of a worker, each compute the gradient of their own slice's
loss with respect to the same variable `w` (on the ps). The client must average them into ONE
gradient per variable before apply_gradients. Fill in `average_gradients` below.

Check: the averaged gradient must equal the gradient of the whole batch's loss (each tower's
loss is a mean over an equal slice, so the mean of the towers' gradients is the full batch's).

    python lessons/05_in_graph_replication/exercise_1_average_gradients.py
    pytest lessons/05_in_graph_replication -k average
"""
import socket

import numpy as np

import sandbox as tf

NUM_GPUS = 2


def free_ports(n):
    """n different free ports of 127.0.0.1 (held open together while they are chosen)."""
    sockets = [socket.socket() for _ in range(n)]
    for s in sockets:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in sockets]
    for s in sockets:
        s.close()
    return ports


def average_gradients(tower_grads):
    """tower_grads: one list of (gradient, variable) per tower, as compute_gradients returns.
    Returns one (average gradient, variable) per variable."""
    # TODO: for each variable, average the towers' gradients (tf.expand_dims each gradient,
    # tf.concat them along axis 0, tf.reduce_mean along axis 0), and pair the average with
    # the variable. As written, only tower 0's gradients are used: half the batch is lost.
    return tower_grads[0]


ps_port, worker_port = free_ports(2)
cluster = tf.train.ClusterSpec({"ps": ["localhost:%d" % ps_port],
                                "worker": ["localhost:%d" % worker_port]})
ps = tf.train.Server(cluster, job_name="ps", task_index=0)
worker = tf.train.Server(cluster, job_name="worker", task_index=0,
                         config=tf.ConfigProto(device_count={"GPU": NUM_GPUS}))

rng = np.random.RandomState(0)
data_x = rng.rand(8, 3).astype(np.float32)
data_y = rng.rand(8, 1).astype(np.float32)
with tf.device("/job:ps/task:0/cpu:0"):
    w = tf.get_variable("w", [3, 1], initializer=tf.constant_initializer(0.5))
with tf.device("/job:worker/task:0/cpu:0"):
    x, y = tf.constant(data_x), tf.constant(data_y)
    x_slices, y_slices = tf.split(x, NUM_GPUS), tf.split(y, NUM_GPUS)
opt = tf.train.GradientDescentOptimizer(0.1)
tower_grads = []
for i in range(NUM_GPUS):
    with tf.device("/job:worker/task:0/gpu:%d" % i), tf.name_scope("tower_%d" % i):
        loss = tf.reduce_mean(tf.square(tf.matmul(x_slices[i], w) - y_slices[i]))
        tower_grads.append(opt.compute_gradients(loss, [w]))
with tf.device("/job:worker/task:0/cpu:0"):
    averaged = average_gradients(tower_grads)
    full_batch_loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - y))
    full_batch_grad = tf.gradients(full_batch_loss, [w])[0]

with tf.Session(worker.target, config=tf.ConfigProto(allow_soft_placement=True)) as sess:
    sess.run(w.initializer)
    mine, full = sess.run([averaged[0][0], full_batch_grad])
    print("averaged gradient:  ", np.round(mine.ravel(), 4))
    print("full-batch gradient:", np.round(full.ravel(), 4))
    print("averaged gradient equals the full-batch gradient: %s" % np.allclose(mine, full))
