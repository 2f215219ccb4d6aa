"""`tf.train.Server` -- mirrors TensorFlow's python/training/server_lib.py Server.

    cluster = tf.train.ClusterSpec({"ps": ["localhost:2222"], "worker": ["localhost:2223"]})
    server = tf.train.Server(cluster, job_name="ps", task_index=0)
    server.join()                      # serve until stopped

A Server is one task of the cluster: it listens on its address from the ClusterSpec (a real TCP
socket; "localhost" listens on loopback only) and offers a master service (for
`tf.Session(server.target)`) and a worker service (where ops placed on this task run and its
variables live). Unlike TensorFlow's, a sandbox server can be stopped: `server.stop()`.
"""
from ..client.config import ConfigProto
from ..runtime.task_server import TaskServer
from .cluster_spec import ClusterSpec

__all__ = ["Server", "ServerDef"]


class ServerDef:
    """The description of one server: cluster, job_name, task_index, protocol, config."""

    def __init__(self, cluster=None, job_name=None, task_index=None, protocol="grpc",
                 default_session_config=None):
        self.cluster = cluster
        self.job_name = job_name
        self.task_index = task_index
        self.protocol = protocol
        self.default_session_config = default_session_config

    def __repr__(self):
        return (f"ServerDef(job_name={self.job_name!r}, task_index={self.task_index}, "
                f"protocol={self.protocol!r}, cluster={self.cluster!r})")


def _make_server_def(server_or_cluster_def, job_name, task_index, protocol, config):
    if isinstance(server_or_cluster_def, ServerDef):
        server_def = server_or_cluster_def
        if job_name is not None:
            server_def.job_name = job_name
        if task_index is not None:
            server_def.task_index = task_index
        if protocol is not None:
            server_def.protocol = protocol
        if config is not None:
            server_def.default_session_config = config
        return server_def
    cluster_spec = ClusterSpec(server_or_cluster_def)
    if job_name is None:
        if len(cluster_spec.jobs) == 1:
            job_name = cluster_spec.jobs[0]
        else:
            raise ValueError("Must specify an explicit `job_name`.")
    if task_index is None:
        task_indices = cluster_spec.task_indices(job_name)
        if len(task_indices) == 1:
            task_index = task_indices[0]
        else:
            raise ValueError("Must specify an explicit `task_index`.")
    if protocol is None:
        protocol = "grpc"
    return ServerDef(cluster_spec.as_cluster_def(), job_name, task_index, protocol, config)


class Server:
    """An in-process server for one task of a cluster."""

    def __init__(self, server_or_cluster_def, job_name=None, task_index=None, protocol=None,
                 config=None, start=True):
        if config is not None and not isinstance(config, ConfigProto):
            raise TypeError(f"config must be a tf.ConfigProto, got {type(config).__name__}")
        self._server_def = _make_server_def(server_or_cluster_def, job_name, task_index,
                                            protocol, config)
        if self._server_def.protocol not in ("grpc", "sandbox"):
            raise ValueError(f"Protocol {self._server_def.protocol!r} is not supported by the "
                             "sandbox; use 'grpc' (the sandbox's own socket protocol stands in "
                             "for it).")
        spec = ClusterSpec(self._server_def.cluster)
        job, index = self._server_def.job_name, self._server_def.task_index
        if job not in spec.jobs:
            raise ValueError(f"Job {job!r} is not defined in the cluster (its jobs are "
                             f"{spec.jobs}).")
        if index not in spec.task_indices(job):
            raise ValueError(f"Task {index} was not defined in job {job!r} (its tasks are "
                             f"{spec.task_indices(job)}).")
        session_config = self._server_def.default_session_config or ConfigProto()
        num_gpus = int((session_config.device_count or {}).get("GPU", 0))
        self._impl = TaskServer(spec, job, index, num_gpus=num_gpus,
                                intra_op_threads=session_config.intra_op_parallelism_threads)
        self._target = self._impl.target
        if start:
            self.start()

    @property
    def server_def(self):
        return self._server_def

    @property
    def target(self):
        """'grpc://host:port': pass it to tf.Session to run graphs through this server."""
        return self._target

    def start(self):
        """Starts serving (done by the constructor unless start=False)."""
        self._impl.start()

    def join(self, timeout=None):
        """Blocks until the server stops (a ps usually calls this and serves forever).
        Unlike in TensorFlow, it returns when someone calls `stop()` or sends a Stop request."""
        return self._impl.join(timeout)

    def stop(self):
        """Stops serving and releases the port."""
        self._impl.stop()

    close = stop

    @staticmethod
    def create_local_server(config=None, start=True):
        """A single-task server on localhost at a free port (TF's hello-world cluster)."""
        return Server({"localhost": ["localhost:0"]}, protocol="grpc", config=config,
                      start=start)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()
        return False

    def __repr__(self):
        return f"<tf.train.Server {self._impl.task} at {self._target}>"
