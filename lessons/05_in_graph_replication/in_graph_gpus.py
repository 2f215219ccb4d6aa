"""In-graph replication in its smallest form: one client builds one graph with a tower per
(simulated) GPU of a worker, and averages the towers' results on the worker's CPU.

One process holds the whole cluster (a ps and a worker with two GPUs, like three_servers.py)
and the one client. Run it:

    python lessons/05_in_graph_replication/in_graph_gpus.py

The sandbox gives the worker /gpu:0 and /gpu:1 because its Server is configured with
device_count={"GPU": 2}. TensorFlow on a machine without GPUs runs the same program:
allow_soft_placement moves each tower to the worker's CPU instead.
"""
import socket

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


ps_port, worker_port = free_ports(2)
cluster = tf.train.ClusterSpec({"ps": ["localhost:%d" % ps_port],
                                "worker": ["localhost:%d" % worker_port]})
ps = tf.train.Server(cluster, job_name="ps", task_index=0)
worker = tf.train.Server(cluster, job_name="worker", task_index=0,
                         config=tf.ConfigProto(device_count={"GPU": NUM_GPUS}))

# The shared parameter lives once, on the ps.
with tf.device("/job:ps/task:0"):
    w = tf.Variable(tf.random_normal([4, 2], seed=1), name="w")

# One tower per GPU: the same computation on a different slice of the data.
towers = []
for gpu in range(NUM_GPUS):
    with tf.device("/job:worker/task:0/gpu:%d" % gpu), tf.name_scope("tower_%d" % gpu):
        x = tf.random_uniform([8, 4], seed=gpu + 1)
        towers.append(tf.reduce_mean(tf.matmul(x, w)))

# The client gathers the towers on the worker's CPU.
with tf.device("/job:worker/task:0/cpu:0"):
    average = tf.add_n(towers) / float(NUM_GPUS)

print("towers:", NUM_GPUS)
for tower in towers:
    print("  %s asks for %s" % (tower.op.name, tower.op.device))
config = tf.ConfigProto(allow_soft_placement=True)
with tf.Session(worker.target, config=config) as sess:
    sess.run(w.initializer)
    values = sess.run(towers + [average])
    for gpu in range(NUM_GPUS):
        print("tower %d: %.4f" % (gpu, values[gpu]))
    print("average over the towers: %.4f" % values[-1])
# (TensorFlow's servers have no stop(): they end with the process, as the sandbox's do.)
