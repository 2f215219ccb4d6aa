"""`tf.test.create_local_cluster` -- mirrors TensorFlow 1.15's python/framework/test_util.py
create_local_cluster: a whole cluster of in-process servers on free localhost ports.

    workers, ps_servers = tf.test.create_local_cluster(num_workers=2, num_ps=1)
    sess = tf.Session(workers[0].target)
    with tf.device("/job:ps/task:0"):
        v = tf.Variable(1.0)           # lives on the ps server

Every server runs in the calling process (TensorFlow's do too), each behind its own socket, so
what crosses between tasks still crosses a real connection. For one process per task -- as a
real cluster has -- use sandbox.cluster.LocalCluster instead. Stop the servers when done
(`server.stop()`); TensorFlow's cannot be stopped and live until the process exits.
"""
import socket

from .cluster_spec import ClusterSpec
from .server_lib import Server

__all__ = ["create_local_cluster", "free_ports"]


def free_ports(n):
    """n different free ports of 127.0.0.1 (all held open while chosen, so none repeats) --
    the part of TF's portpicker the sandbox needs."""
    sockets = [socket.socket() for _ in range(n)]
    try:
        for s in sockets:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in sockets]
    finally:
        for s in sockets:
            s.close()


def create_local_cluster(num_workers, num_ps, protocol="grpc", worker_config=None,
                         ps_config=None):
    """Starts num_workers worker servers and num_ps ps servers of one ClusterSpec ("worker"
    and "ps" jobs on localhost) and returns (worker_servers, ps_servers)."""
    for what, count in (("num_workers", num_workers), ("num_ps", num_ps)):
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise ValueError(f"create_local_cluster: {what} must be an int >= 0, got "
                             f"{count!r}.")
    ports = free_ports(num_workers + num_ps)
    cluster = ClusterSpec({"worker": [f"localhost:{p}" for p in ports[:num_workers]],
                           "ps": [f"localhost:{p}" for p in ports[num_workers:]]})
    started = []
    try:
        for job, count, config in (("worker", num_workers, worker_config),
                                   ("ps", num_ps, ps_config)):
            for index in range(count):
                started.append(Server(cluster, job_name=job, task_index=index,
                                      protocol=protocol, config=config, start=True))
    except BaseException:
        for server in started:                 # nothing left listening if one cannot start
            server.stop()
        raise
    return started[:num_workers], started[num_workers:]
