"""LocalCluster -- a real TensorFlow-style cluster on this machine, one OS process per task.

    with LocalCluster({"ps": 1, "worker": 3}) as cluster:
        print(cluster.cluster_spec)          # ClusterSpec({'ps': ['localhost:41234'], ...})
        sess = tf.Session(cluster.target("worker", 0))

Every task (ps, worker, chief) is its own process running a server with a master and a worker
service on a free port of 127.0.0.1. The cluster is up when every task answers. Everything is
shut down on `close()`, at the end of a `with` block, when the interpreter or the Jupyter
kernel exits, and when the launching process dies -- a ps blocked "forever" is told to stop,
and exits by itself when its launcher is gone.

How a task process starts (`start_method`, or $SANDBOX_START_METHOD when not given):
  "forkserver" (the default)  forked from the sandbox's fork server (cluster/fork_server.py), a
                              helper process that has already imported NumPy and the sandbox:
                              a few milliseconds a task;
  "spawn"                     a fresh interpreter per task (multiprocess's "spawn"), which
                              imports NumPy and the sandbox itself: ~0.2 s of CPU a task.
"""
import atexit
import contextlib
import os
import signal
import socket
import sys
import threading
import time
import types
import weakref

from ..runtime import cluster_secret, compute_threads
from ..runtime.task_server import task_name
from ..train.cluster_spec import ClusterSpec
from .task_run import TaskRun, read_runs

__all__ = ["LocalCluster"]

_JOB_ORDER = ("chief", "ps", "worker", "evaluator")
START_METHODS = ("forkserver", "spawn")
_live_clusters = weakref.WeakSet()


class _Task:
    def __init__(self, job, index, process, conn, port):
        self.job = job
        self.index = index
        self.process = process
        self.conn = conn
        self.port = port
        self.runs = {}                 # run id -> TaskRun, for functions running in the task
        self._send_lock = threading.Lock()
        self._reader = None

    @property
    def name(self):
        return task_name(self.job, self.index)

    def send(self, message):
        with self._send_lock:
            self.conn.send(message)

    def close_conn(self):
        """Closes the launcher's end of the pipe, once the reader thread has left it: an fd
        closed under a thread about to read it goes to the next pipe opened, and that thread
        would read (and lose) the first bytes of another task's messages. The task is dead or
        stopping; shutting the socket down wakes a reader still waiting for it."""
        reader = self._reader
        if reader is not None and reader.is_alive() and reader is not threading.current_thread():
            try:
                with socket.socket(fileno=os.dup(self.conn.fileno())) as s:
                    s.shutdown(socket.SHUT_RDWR)
            except (OSError, ValueError):
                pass
            reader.join(5)
            if reader.is_alive():
                return                         # keep the fd rather than let it be reused
        try:
            self.conn.close()
        except OSError:
            pass

    def start_reader(self):
        """Once the task is up, a thread hands what its runs report to their TaskRuns."""
        if self._reader is None:
            self._reader = threading.Thread(
                target=read_runs, args=(self.conn, self.runs, self.name,
                                        lambda: self.process.exitcode),
                daemon=True, name=f"runs-of-{self.name}")
            self._reader.start()


class LocalCluster:
    """Starts the tasks of a cluster as local processes; see the module docstring."""

    def __init__(self, jobs=None, num_gpus=0, start_timeout=60.0, start=True, stragglers=None,
                 network=None, start_method=None):
        """`jobs`: {job: number of tasks} or a ClusterSpec of localhost addresses.
        `stragglers`: {(job, index): {"slowdown": 3.0, "step_delay": 0.0}}; `network`:
        {"latency_ms": 1.0, "bandwidth_mbps": 100} for every link between tasks (see
        runtime/simulation.py). `start_method`: "forkserver" or "spawn" (see the module
        docstring); None reads $SANDBOX_START_METHOD, else "forkserver"."""
        if jobs is None:
            jobs = {"ps": 1, "worker": 2}
        self.start_method = _start_method(start_method)
        self._requested = self._normalize(jobs)
        self._initial_stragglers = dict(stragglers or {})
        self._initial_network = network
        self.num_gpus = int(num_gpus)
        self.start_timeout = start_timeout
        self.secret = cluster_secret.make_secret()
        self._tasks = {}
        self._cluster_spec = None
        self._closed = False
        self._finalizer = None
        if start:
            self.start()

    @staticmethod
    def _normalize(jobs):
        """{job: count} or a ClusterSpec / {job: [addresses]} -> {job: [port or 0, ...]}."""
        if isinstance(jobs, ClusterSpec) or any(not isinstance(v, int) for v in jobs.values()):
            spec = ClusterSpec(jobs)
            out = {}
            for job in spec.jobs:
                ports = []
                for i in spec.task_indices(job):
                    host, _, port = spec.task_address(job, i).rpartition(":")
                    if host not in ("localhost", "127.0.0.1"):
                        raise ValueError(f"LocalCluster runs every task on this machine; "
                                         f"{job} task {i} has address "
                                         f"{spec.task_address(job, i)!r}. Use localhost "
                                         "addresses (or counts, e.g. {'ps': 1, 'worker': 2}).")
                    ports.append(int(port))
                out[job] = ports
            return out
        out = {}
        for job, count in jobs.items():
            if not isinstance(job, str) or not job:
                raise ValueError(f"Job names must be non-empty strings, got {job!r}")
            if isinstance(count, bool) or count < 0:
                raise ValueError(f"Job {job!r}: the number of tasks must be >= 0, got {count!r}")
            out[job] = [0] * count
        return out

    # -- starting ---------------------------------------------------------------------
    def _launch(self, job, index, port):
        """Starts task (job, index)'s process by this cluster's start method; it reports on
        the pipe when it has bound its port."""
        import multiprocess
        from . import fork_server
        from .task_process import run_task
        tasks = sum(len(p) for p in self._requested.values())
        name = f"sandbox task {job}:{index}"
        parent_conn, child_conn = multiprocess.Pipe()
        try:
            if self.start_method == "forkserver":
                args = (job, index, self.secret, port, self.num_gpus, fork_server.warm_up())
                process = fork_server.start_process(run_task, child_conn, args,
                                                    env=_task_environment(tasks), name=name)
            else:
                ctx = multiprocess.get_context("spawn")
                process = ctx.Process(target=run_task, name=name, daemon=True,
                                      args=(child_conn, job, index, self.secret, port,
                                            self.num_gpus, os.getpid(), False))
                with _no_main_reimport(), _blas_threads(tasks):
                    process.start()
        except BaseException:
            parent_conn.close()
            raise
        finally:
            child_conn.close()
        return _Task(job, index, process, parent_conn, None)

    def start(self):
        order = sorted(self._requested, key=lambda j: (_JOB_ORDER.index(j)
                                                       if j in _JOB_ORDER else 99, j))
        try:
            for job in order:
                for index, port in enumerate(self._requested[job]):
                    self._tasks[(job, index)] = self._launch(job, index, port)
            deadline = time.monotonic() + self.start_timeout
            for task in self._tasks.values():
                message = self._expect(task, deadline, "bound")
                task.port = message[1]
            self._cluster_spec = ClusterSpec(
                {job: [f"localhost:{self._tasks[(job, i)].port}"
                       for i in range(len(self._requested[job]))] for job in order})
            for task in self._tasks.values():
                cluster_secret.register(("127.0.0.1", task.port), self.secret)
                task.conn.send(("spec", self._cluster_spec.as_dict()))
            for task in self._tasks.values():
                self._expect(task, deadline, "ready")
        except BaseException:
            self.close()
            raise
        self._finalizer = weakref.finalize(self, _shutdown, self._tasks)
        atexit.register(self._finalizer)
        _live_clusters.add(self)
        for (job, index), knobs in self._initial_stragglers.items():
            self.set_straggler(job, index, **knobs)
        if self._initial_network:
            self.set_network(**self._initial_network)
        return self

    def _expect(self, task, deadline, kind):
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{task.name} did not start within {self.start_timeout} s.")
            try:
                if task.conn.poll(min(left, 0.2)):
                    message = task.conn.recv()
                    if message[0] == "error":
                        raise RuntimeError(f"{task.name} could not start: {message[1]}")
                    if message[0] == kind:
                        return message
            except EOFError:
                task.process.join(1)
                raise RuntimeError(f"{task.name} exited while starting (exit code "
                                   f"{task.process.exitcode}); see its output above.") from None

    # -- what a program needs -------------------------------------------------------------
    @property
    def cluster_spec(self):
        return self._cluster_spec

    @property
    def targets(self):
        """{job: ['grpc://localhost:port', ...]}"""
        return {job: [f"grpc://localhost:{self._tasks[(job, i)].port}"
                      for i in range(len(ports))] for job, ports in self._requested.items()}

    def target(self, job="worker", index=0):
        return f"grpc://localhost:{self._task(job, index).port}"

    def pid(self, job, index=0):
        return self._task(job, index).process.pid

    @property
    def pids(self):
        return {t.name: t.process.pid for t in self._tasks.values()}

    @property
    def tasks(self):
        return [t.name for t in self._tasks.values()]

    def is_alive(self, job, index=0):
        return self._task(job, index).process.is_alive()

    def _task(self, job, index):
        try:
            return self._tasks[(job, index)]
        except KeyError:
            raise ValueError(f"No task {job}:{index} in this LocalCluster; it has "
                             f"{', '.join(self.tasks)}.") from None

    def trace(self, job, index=0, since=0):
        """What task (job, index) sent and received (the records of its trace ring, runtime/task_server.py)."""
        from ..runtime.remote_session import read_trace
        return read_trace(self.target(job, index), since)

    def traffic_totals(self, job, index=0):
        """[(kind, src, dst, bytes)] that task (job, index) counted since it started."""
        return [tuple(row) for row in self._knobs_call_method(job, index, "GetTrafficTotals")]

    def _knobs_call_method(self, job, index, method, **kwargs):
        from ..runtime.peers import Peers
        peers = Peers({"t": ("127.0.0.1", self._task(job, index).port)}, self.secret)
        try:
            return peers.call("t", method, **kwargs)
        finally:
            peers.close()

    def run_in_task(self, job, index, fn, *args, on_message=None, on_done=None):
        """Runs `fn(server, report, should_stop, *args)` in a thread of task (job, index)'s
        own process, as seed 002's workers run their loops next to their servers (see
        cluster/task_run.py). `fn` must be importable (a module-level function) and the args
        picklable. Returns a TaskRun: `result()`, `done()`, `cancel()`; `on_message(obj)` is
        called (in a launcher thread) for every `report(obj)`."""
        task = self._task(job, index)
        if not task.process.is_alive():
            raise RuntimeError(f"{task.name} is not running (exit code "
                               f"{task.process.exitcode}); restart it first.")
        run = TaskRun(task.name, getattr(fn, "__name__", repr(fn)), task.send, on_message,
                      on_done)
        task.runs[run.id] = run
        task.start_reader()
        task.send(("run", run.id, fn, args))
        return run

    # -- faults, for lessons and tests ------------------------------------------------------
    def kill(self, job, index=0):
        """Kills the task's process at once (SIGKILL), like a machine that dies."""
        task = self._task(job, index)
        if task.process.is_alive():
            os.kill(task.process.pid, signal.SIGKILL)
        task.process.join(5)

    def restart(self, job, index=0):
        """Starts the task again (after kill) at the same address, with empty state -- like a
        machine that rebooted. Returns when it answers."""
        old = self._task(job, index)
        if old.process.is_alive():
            self.kill(job, index)
        old.close_conn()
        task = self._launch(job, index, old.port)
        self._tasks[(job, index)] = task
        deadline = time.monotonic() + self.start_timeout
        self._expect(task, deadline, "bound")
        task.port = old.port
        task.conn.send(("spec", self._cluster_spec.as_dict()))
        self._expect(task, deadline, "ready")

    # -- simulation knobs (runtime/simulation.py) -------------------------------------------
    def _knobs_call(self, job, index, **kwargs):
        return self._knobs_call_method(job, index, "SetKnobs", **kwargs)

    def set_straggler(self, job, index=0, slowdown=None, step_delay=None):
        """Makes task (job, index) a straggler: every step there takes `slowdown` times as
        long, plus `step_delay` seconds. slowdown=1.0, step_delay=0 make it normal again."""
        return self._knobs_call(job, index, slowdown=slowdown, step_delay=step_delay)

    def set_link(self, src, dst, latency_ms=0.0, bandwidth_mbps=None):
        """Simulates the link from task `src` to task `dst` (each a (job, index) pair, or "*"
        for dst = every task): each message waits latency + size / bandwidth."""
        dst_name = "*" if dst == "*" else task_name(*dst)
        bandwidth = None if bandwidth_mbps is None else bandwidth_mbps * 1e6 / 8
        return self._knobs_call(*src, links={dst_name: [latency_ms / 1000.0, bandwidth]})

    def set_network(self, latency_ms=0.0, bandwidth_mbps=None):
        """The same simulated link between every pair of tasks."""
        for job, index in self._tasks:
            self.set_link((job, index), "*", latency_ms, bandwidth_mbps)

    def knobs(self, job, index=0):
        return self._knobs_call(job, index)

    def pause(self, job, index=0):
        """Freezes the task (SIGSTOP): it holds its sockets but answers nothing -- a machine
        that hangs. Returns once the process is stopped."""
        pid = self._task(job, index).process.pid
        os.kill(pid, signal.SIGSTOP)
        _wait_for_state(pid, "T")

    def resume(self, job, index=0):
        """Unfreezes a paused task."""
        pid = self._task(job, index).process.pid
        os.kill(pid, signal.SIGCONT)
        _wait_for_state(pid, "RS")

    # -- shutting down ---------------------------------------------------------------------
    def close(self):
        """Stops every task and waits for its process to exit."""
        if self._closed:
            return
        self._closed = True
        if self._finalizer is not None:
            self._finalizer()
            atexit.unregister(self._finalizer)
        else:
            _shutdown(self._tasks)
        for task in self._tasks.values():
            if task.port:
                cluster_secret.unregister(("127.0.0.1", task.port))
        _live_clusters.discard(self)
        if not _live_clusters:
            _stop_resource_tracker()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def __repr__(self):
        state = "closed" if self._closed else f"{len(self._tasks)} tasks"
        return f"<LocalCluster {state}: {self._cluster_spec}>"


def _start_method(chosen):
    method = chosen or os.environ.get("SANDBOX_START_METHOD") or "forkserver"
    if method not in START_METHODS:
        where = "start_method" if chosen else "$SANDBOX_START_METHOD"
        raise ValueError(f"{where} must be one of {', '.join(START_METHODS)}, not {method!r}.")
    return method


def _task_environment(tasks):
    """The environment of each of `tasks` task processes: this process's, where the task
    processes share the machine's cores -- each gets its share of BLAS threads
    (runtime/compute_threads.py), unless the user chose a number. A ps needs a core too: it
    applies the gradients and sends the parameters while the workers wait for them."""
    env = dict(os.environ)
    per_task = str(compute_threads.share_of_cores(tasks))
    for n in compute_threads.ENV_NAMES:
        env.setdefault(n, per_task)
    return env


@contextlib.contextmanager
def _blas_threads(tasks):
    """For a spawned task: _task_environment(tasks) as this process's environment while it
    starts (the child reads it when it imports NumPy)."""
    names = compute_threads.ENV_NAMES
    saved = {n: os.environ.get(n) for n in names}
    env = _task_environment(tasks)
    for n in names:
        os.environ[n] = env[n]
    try:
        yield
    finally:
        for n, value in saved.items():
            if value is None:
                os.environ.pop(n, None)
            else:
                os.environ[n] = value


def _wait_for_state(pid, states, timeout=5.0):
    """Waits until /proc says the process is in one of `states` (T = stopped)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            with open(f"/proc/{pid}/stat") as f:
                state = f.read().rsplit(")", 1)[1].split()[0]
        except OSError:
            return
        if state in states:
            return
        time.sleep(0.005)


def _stop_resource_tracker():
    """multiprocess starts a helper process (the resource tracker) with the first spawned
    child; when the last cluster is closed it has nothing left to track, so stop it too."""
    try:
        from multiprocess import resource_tracker
        resource_tracker._resource_tracker._stop()
    except (ImportError, AttributeError, OSError):
        pass


@contextlib.contextmanager
def _no_main_reimport():
    """A spawned process normally re-imports the parent's main script, running its top-level
    code again -- a student's script without `if __name__ == "__main__":` would start clusters
    inside clusters. Task processes need only the sandbox, so hide the main module from
    multiprocess while it prepares the child."""
    saved = sys.modules.get("__main__")
    sys.modules["__main__"] = types.ModuleType("__main__")
    try:
        yield
    finally:
        if saved is not None:
            sys.modules["__main__"] = saved


def _shutdown(tasks):
    tasks = list(tasks.values())
    for task in tasks:
        try:
            if task.process.is_alive():
                os.kill(task.process.pid, signal.SIGCONT)     # a paused task must hear "stop"
            task.send(("stop",))
        except (OSError, ValueError):
            pass
    deadline = time.monotonic() + 5
    for task in tasks:
        task.process.join(max(0.0, deadline - time.monotonic()))
    for task in tasks:
        if task.process.is_alive():
            task.process.kill()
            task.process.join(2)
        task.close_conn()
