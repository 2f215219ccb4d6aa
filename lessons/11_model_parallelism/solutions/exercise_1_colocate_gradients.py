"""Exercise 1 -- split the backward pass too: colocate_gradients_with_ops.

A two-stage model: stage 1 (x -> hidden) on worker 0, stage 2 (hidden -> loss) on worker 1.
Its forward pass is split well. But `opt.minimize(loss)` is called inside worker 1's device
scope, and tf.gradients puts every gradient op it builds in the device scope it is called
in -- so worker 1 computes stage 1's backward pass too: the input x must travel to worker 1
(on TensorFlow, which also computes the gradient with respect to x, w1 as well), and w1's
gradient travels back.

TODO: make each gradient op run beside its forward op (one argument of minimize), then read
the list of tensors that cross: only the hidden activations (forward) and their gradient
(backward) should remain, besides the 4-byte learning rate.

Check: it prints `only the cut's activations and their gradients cross: True`.

    python lessons/11_model_parallelism/exercise_1_colocate_gradients.py
    pytest lessons/11_model_parallelism -k colocate
"""
import socket

import numpy as np

import sandbox as tf

BATCH, INPUTS, HIDDEN, CLASSES = 32, 64, 48, 10


def free_ports(n):
    """n different free ports of 127.0.0.1 (held open together while they are chosen)."""
    sockets = [socket.socket() for _ in range(n)]
    for s in sockets:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in sockets]
    for s in sockets:
        s.close()
    return ports


def task_of(device):
    """'/job:worker/task:1/device:CPU:0' -> '/job:worker/task:1' ('' if not placed)."""
    parts = [p for p in device.split("/") if p.startswith(("job:", "task:"))]
    return "/" + "/".join(parts) if parts else ""


def edges_across_tasks(fetch_op):
    """[(tensor, from task, to task, bytes)]: every tensor an op needed by fetch_op takes from
    another task, once per destination -- what the partitioner cuts into _Send/_Recv."""
    seen, stack, edges = set(), [fetch_op], {}
    while stack:
        op = stack.pop()
        if op.name in seen:
            continue
        seen.add(op.name)
        stack.extend([t.op for t in op.inputs] + list(op.control_inputs))
        for t in op.inputs:
            src, dst = task_of(t.op.device), task_of(op.device)
            if src != dst:
                n = int(np.prod(t.shape.as_list())) * t.dtype.size
                edges[(t.name, dst)] = (t, src, dst, n)
    return sorted(edges.values(), key=lambda e: e[0].name)


ports = free_ports(2)
cluster = tf.train.ClusterSpec({"worker": ["localhost:%d" % p for p in ports]})
workers = [tf.train.Server(cluster, job_name="worker", task_index=i) for i in range(2)]

rng = np.random.RandomState(0)
data_x = rng.rand(BATCH, INPUTS).astype(np.float32)
data_y = np.eye(CLASSES, dtype=np.float32)[rng.randint(0, CLASSES, BATCH)]
with tf.device("/job:worker/task:0"):                  # stage 1
    x = tf.constant(data_x, name="x")
    w1 = tf.get_variable("w1", [INPUTS, HIDDEN],
                         initializer=tf.truncated_normal_initializer(stddev=0.1, seed=1))
    hidden = tf.nn.sigmoid(tf.matmul(x, w1), name="hidden")
with tf.device("/job:worker/task:1"):                  # stage 2
    y = tf.constant(data_y, name="y")
    w2 = tf.get_variable("w2", [HIDDEN, CLASSES],
                         initializer=tf.truncated_normal_initializer(stddev=0.1, seed=2))
    logits = tf.matmul(hidden, w2)
    loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(labels=y, logits=logits))
    opt = tf.train.GradientDescentOptimizer(0.5)
    train_op = opt.minimize(loss, colocate_gradients_with_ops=True)  # each beside its op

edges = edges_across_tasks(train_op)
print("tensors crossing between the tasks in one training step:")
for t, src, dst, n in edges:
    print("  %s %s %s -> %s: %d bytes" % (t.name, t.shape.as_list(), src, dst, n))
print("bytes across tasks per step: %d" % sum(n for _, _, _, n in edges))
cut = [BATCH, HIDDEN]
only_cut = all(t.shape.as_list() == cut for t, _, _, n in edges if n > 4)
print("only the cut's activations and their gradients cross: %s" % only_cut)
with tf.Session(workers[0].target) as sess:
    sess.run(tf.global_variables_initializer())
    before = sess.run(loss)
    for _ in range(20):
        sess.run(train_op)
    print("loss: %.3f -> %.3f" % (before, sess.run(loss)))
