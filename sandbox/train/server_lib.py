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
from ..framework import errors
from ..runtime.task_server import TaskServer
from .cluster_spec import ClusterSpec, _quote

__all__ = ["Server", "ServerDef"]


class ServerDef:
    """The description of one server: cluster (a ClusterDef), job_name, task_index, protocol,
    default_session_config. `str(server_def)` is the protobuf text form TF prints."""

    def __init__(self, cluster=None, job_name=None, task_index=None, protocol="grpc",
                 default_session_config=None):
        self.cluster = cluster
        self.job_name = job_name
        self.task_index = task_index
        self.protocol = protocol
        self.default_session_config = default_session_config

    def _copy(self):
        return ServerDef(self.cluster, self.job_name, self.task_index, self.protocol,
                         self.default_session_config)

    def __repr__(self):
        return (f"ServerDef(job_name={self.job_name!r}, task_index={self.task_index}, "
                f"protocol={self.protocol!r}, cluster={self.cluster!r})")

    def __str__(self):
        # proto3 leaves out fields that hold their default (0, ""), as TF's text form does
        lines = []
        if self.cluster is not None and self.cluster.job:
            lines.append("cluster {")
            lines += ["  " + line for line in str(self.cluster).splitlines()]
            lines.append("}")
        if self.job_name:
            lines.append(f"job_name: {_quote(self.job_name)}")
        if self.task_index:
            lines.append(f"task_index: {self.task_index}")
        if self.protocol:
            lines.append(f"protocol: {_quote(self.protocol)}")
        return "".join(line + "\n" for line in lines)


def _make_server_def(server_or_cluster_def, job_name, task_index, protocol, config):
    if isinstance(server_or_cluster_def, ServerDef):
        server_def = server_or_cluster_def._copy()      # TF merges into a new ServerDef
        if job_name is not None:
            server_def.job_name = job_name
        if task_index is not None:
            server_def.task_index = task_index
        if protocol is not None:
            server_def.protocol = protocol
        if config is not None:
            server_def.default_session_config = config
        return server_def
    try:
        cluster_spec = ClusterSpec(server_or_cluster_def)
    except TypeError as e:
        raise TypeError("Could not convert `server_or_cluster_def` to a `tf.train.ServerDef` "
                        f"or `tf.train.ClusterSpec`: {e}") from None
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
            raise errors.NotFoundError(
                None, None, f"No server factory registered for the given ServerDef: protocol "
                f"{self._server_def.protocol!r} is not supported by the sandbox; use 'grpc' "
                "(the sandbox's own socket protocol stands in for it).")
        spec = ClusterSpec(self._server_def.cluster)
        job, index = self._server_def.job_name, self._server_def.task_index
        if job not in spec.jobs:           # TF's GrpcServer::GetPort: error types and words
            raise errors.InternalError(None, None, f'Job "{job}" was not defined in cluster: '
                                       f"its jobs are {spec.jobs}; give the Server a job_name "
                                       "of its ClusterSpec.")
        if index not in spec.task_indices(job):
            raise errors.InvalidArgumentError(
                None, None, f'Task {index} was not defined in job "{job}": its tasks are '
                f"{spec.task_indices(job)}; give the Server a task_index of that job.")
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
        if self._impl.stopped:                       # TF's GrpcServer::Start: its words
            raise errors.FailedPreconditionError(
                None, None, f"Server has stopped: {self._impl.task} cannot serve again. Create "
                "a new tf.train.Server for it (its port is free again).")
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
        """A single-task server on localhost at a free port (TF's hello-world cluster): job
        "local", as in TensorFlow 1.15."""
        return Server({"local": ["localhost:0"]}, protocol="grpc", config=config, start=start)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()
        return False

    def __repr__(self):
        return f"<tf.train.Server {self._impl.task} at {self._target}>"
