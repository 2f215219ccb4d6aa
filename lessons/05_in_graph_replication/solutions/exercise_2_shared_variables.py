"""Exercise 2 -- solution: tf.get_variable on the ps's CPU, reused by every tower after the
first (see ../exercise_2_shared_variables.py for the task)."""
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
    with tf.device("/job:ps/task:0/cpu:0"):         # the ps's CPU, whatever the tower's GPU
        w = tf.get_variable("w", [3, 1], initializer=tf.constant_initializer(0.5))
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
with tf.variable_scope(tf.get_variable_scope()):
    for i in range(NUM_GPUS):
        with tf.device("/job:worker/task:0/gpu:%d" % i), tf.name_scope("tower_%d" % i):
            outputs.append(model(x_slices[i]))
            tf.get_variable_scope().reuse_variables()     # the next towers share w
with tf.device("/job:worker/task:0/cpu:0"):
    y = tf.concat(outputs, 0)

variables = tf.trainable_variables()
print("trainable variables: %d" % len(variables))
for v in variables:
    print("%s on %s" % (v.op.name, v.device))
with tf.Session(worker.target, config=tf.ConfigProto(allow_soft_placement=True)) as sess:
    sess.run(tf.global_variables_initializer())
    print("towers' outputs, concatenated:", sess.run(y).ravel())
