"""Exercise 2 -- towers must SHARE their variables, and keep them on the ps's CPU.

This program builds two towers, one per simulated GPU of worker 0, with `model()`. As
written, it has the two classic mistakes of a first in-graph program:

  1. `tf.Variable` inside `model()` makes a NEW variable for every tower: two towers, two
     models, that an averaged update would mix up. Use `tf.get_variable("w", ...)` instead,
     and make the second tower reuse the first's (`tf.get_variable_scope().reuse_variables()`
     after the first tower, inside `with tf.variable_scope(tf.get_variable_scope()):`).
  2. `tf.device("/job:ps/task:0")` inside a tower's `tf.device(".../gpu:0")` only replaces the
     job and task: the variable still asks for a GPU -- on the ps, which has none. Ask for
     the ps's CPU explicitly ("/job:ps/task:0/cpu:0"), as cifar10's _variable_on_cpu does.

Check: it must print `trainable variables: 1` and `w on /job:ps/task:0/device:CPU:0`.

    python lessons/05_in_graph_replication/exercise_2_shared_variables.py
    pytest lessons/05_in_graph_replication -k shared
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


def model(x):
    # TODO (mistake 2): the device below inherits the tower's GPU.
    with tf.device("/job:ps/task:0"):
        # TODO (mistake 1): a new variable per tower; use tf.get_variable.
        w = tf.Variable(tf.fill([3, 1], 0.5), name="w")
    return tf.matmul(x, w)


ps_port, worker_port = free_ports(2)
cluster = tf.train.ClusterSpec({"ps": ["localhost:%d" % ps_port],
                                "worker": ["localhost:%d" % worker_port]})
ps = tf.train.Server(cluster, job_name="ps", task_index=0)
worker = tf.train.Server(cluster, job_name="worker", task_index=0,
                         config=tf.ConfigProto(device_count={"GPU": NUM_GPUS}))

with tf.device("/job:worker/task:0/cpu:0"):
    x = tf.constant(np.arange(12, dtype=np.float32).reshape(4, 3))
    x_slices = tf.split(x, NUM_GPUS)
outputs = []
for i in range(NUM_GPUS):
    with tf.device("/job:worker/task:0/gpu:%d" % i), tf.name_scope("tower_%d" % i):
        outputs.append(model(x_slices[i]))   # TODO (mistake 1): reuse after the first tower
with tf.device("/job:worker/task:0/cpu:0"):
    y = tf.concat(outputs, 0)

variables = tf.trainable_variables()
print("trainable variables: %d" % len(variables))
for v in variables:
    print("%s on %s" % (v.op.name, v.device))
with tf.Session(worker.target, config=tf.ConfigProto(allow_soft_placement=True)) as sess:
    sess.run(tf.global_variables_initializer())
    print("towers' outputs, concatenated:", sess.run(y).ravel())
