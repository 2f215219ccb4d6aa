"""A ps and two workers in one script: worker 0 updates a variable that lives on the ps, and
the ps's own session reads the new value (the variable exists once, on the ps)."""
import socket

import sandbox as tf


def free_ports(n):
    """n different ports of 127.0.0.1 that nothing listens on (all n are held open while
    they are chosen, so the kernel cannot hand out one of them twice)."""
    sockets = [socket.socket() for _ in range(n)]
    for s in sockets:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in sockets]
    for s in sockets:
        s.close()
    return ports


ps_port, worker0_port, worker1_port = free_ports(3)
cluster = tf.train.ClusterSpec({"ps": [f"localhost:{ps_port}"],
                                "worker": [f"localhost:{worker0_port}",
                                           f"localhost:{worker1_port}"]})
print(cluster.as_cluster_def())
ps = tf.train.Server(cluster, job_name="ps", task_index=0)
worker0 = tf.train.Server(cluster, job_name="worker", task_index=0)
worker1 = tf.train.Server(cluster, job_name="worker", task_index=1)

with tf.device("/job:ps/task:0"):
    counter = tf.Variable(0, name="counter")
with tf.device("/job:worker/task:0"):
    increment = counter.assign_add(1)

with tf.Session(worker0.target, config=tf.ConfigProto(log_device_placement=True)) as sess:
    sess.run(counter.initializer)
    for _ in range(3):
        print("worker 0 increments:", sess.run(increment))
with tf.Session(ps.target) as sess:
    print("the ps reads:", sess.run(counter))
with tf.Session(worker1.target) as sess:
    print("worker 1 reads:", sess.run(counter))

for server in (ps, worker0, worker1):
    server.stop()
