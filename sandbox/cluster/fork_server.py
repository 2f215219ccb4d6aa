"""The fork server -- one preloaded process that LocalCluster's task processes are forked from.

Starting a task as a fresh interpreter costs about 0.2 s of CPU (importing NumPy and the
sandbox), 18 tasks cost seconds. So, as Python's "forkserver" start method does, one helper
process is started once (`warm_up()`, or the first LocalCluster), imports NumPy, threadpoolctl
and the sandbox's runtime, and then only waits: each task is an `os.fork()` of it, a few
milliseconds, and is still its own OS process with its own server and its own sockets.

Forking is safe only from a single-threaded process (a lock held by another thread would stay
locked forever in the child). The server runs no thread of its own, and it imports NumPy with
OPENBLAS_NUM_THREADS=1 (and OMP_/MKL_...), so that OpenBLAS starts no thread pool either; it
checks that it has one thread before it serves. Each child then takes the launcher's
environment, working directory and sys.path from the request, sets its BLAS pools to the
threads that environment asks for (threadpoolctl: the limit a spawned task got from
OPENBLAS_NUM_THREADS when it imported NumPy itself). (So no preloaded module may read the
environment when it is imported: it would read the server's.) The launcher's stdout and
stderr at the time of the request go with it, so a task prints where a spawned one would.

Lifetimes. The server is a child of the launcher; it ends when the launcher closes its end of
their socket: `shutdown()` (idempotent; called at interpreter exit, after the clusters have
closed), or the kernel closing it when the launcher dies, even by SIGKILL -- the server also
checks once a second that its parent is still the launcher (not PR_SET_PDEATHSIG: that fires
when the launcher's *thread* that started it ends, and a dashboard may warm up from a thread
that soon returns). When it ends it SIGKILLs every
task it forked that is still running (paused ones too). Each task also asks the kernel for a
SIGTERM when the server dies (PR_SET_PDEATHSIG) and exits at once if the server is already
gone; and, as before, it exits when its pipe to the launcher closes.

Why not multiprocess's own "forkserver" context: there, every child holds the server's "alive"
pipe, so the server cannot end while a task runs -- stopping it (ForkServer._stop) waits for
every task, and a SIGKILLed launcher leaves the server behind until each task has noticed by
itself; its pid and stop are private attributes; and its children inherit the server's
environment and output as they were when it started, not the launcher's now. This module is
that server's mechanism (fds passed with SCM_RIGHTS, exit codes reported through a pipe per
child) with those three things done the other way.
"""
import atexit
import contextlib
import gc
import importlib
import os
import pickle
import select
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
import traceback
import weakref

__all__ = ["warm_up", "shutdown", "pid", "start_process", "ForkedProcess"]

PRELOAD = ("numpy", "threadpoolctl", "multiprocess.connection", "dill", "sandbox",
           "sandbox.runtime.task_server", "sandbox.cluster.task_process",
           "sandbox.cluster.task_run", "sandbox.experiments.worker_loop")
# Thread pools the server must not start when it imports NumPy; each child sets its own.
_POOL_ENV = ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS",
             "BLIS_NUM_THREADS")
# The variables each library reads at start-up for its thread count, in its order.
_READS = {"openblas": ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS"),
          "mkl": ("MKL_NUM_THREADS", "OMP_NUM_THREADS"),
          "blis": ("BLIS_NUM_THREADS", "OMP_NUM_THREADS")}
_HEADER = struct.Struct("!I")          # a request: its length, then the pickled request
_PID = struct.Struct("q")              # on a child's status pipe: its pid, then its exit code
_ANSWER_TIMEOUT = 60.0
_SPAWN_HINT = ("Start the cluster without it: LocalCluster(..., start_method='spawn') or "
               "SANDBOX_START_METHOD=spawn.")

_lock = threading.Lock()
_server = None                          # the _ServerProcess of this process, while one runs
_exit_handler = None


# -- the launcher's side ------------------------------------------------------------------------
def warm_up(wait=True):
    """Starts the fork server unless it runs; with `wait`, returns once it has imported
    everything (about 0.3 s), so that the next LocalCluster pays nothing. Returns its pid."""
    with _lock:
        server = _running()
        if wait:
            server.wait_ready()
        return server.process.pid


def pid():
    """The fork server's pid, or None when none runs for this process."""
    server = _server
    return server.process.pid if server is not None and server.process.poll() is None else None


def shutdown():
    """Stops the fork server (and any task it forked that still runs); idempotent."""
    global _server
    with _lock:
        server, _server = _server, None
    if server is not None:
        server.stop()


def start_process(target, conn, args=(), env=None, name=None):
    """Forks a child of the server that runs `target(conn, *args)` -- `conn` a multiprocess
    Connection (the child gets this end; close yours afterwards), `target` an importable
    function, `args` picklable -- with `env` (default: this process's) as its environment,
    this process's working directory and sys.path, and its stdout and stderr (fds 1 and 2,
    as a spawned child inherits them). Returns its ForkedProcess."""
    request = pickle.dumps((target, args, dict(os.environ if env is None else env),
                            os.getcwd(), list(sys.path)), protocol=pickle.HIGHEST_PROTOCOL)
    with contextlib.ExitStack() as stack:
        fds = [conn.fileno()]
        for fd in (1, 2):
            try:
                os.fstat(fd)
            except OSError:                              # closed: the child writes nowhere
                fd = os.open(os.devnull, os.O_WRONLY)
                stack.callback(os.close, fd)
            fds.append(fd)
        with _lock:
            server = _running()
            server.wait_ready()
            status = server.request(request, fds)
    return ForkedProcess(status, name or getattr(target, "__name__", "task"), server)


def _running():
    """The running server, started if needed (call with _lock held)."""
    global _server, _exit_handler
    if _server is None or _server.process.poll() is not None:
        if _server is not None:
            _server.stop()
        _server = _ServerProcess()
        if _exit_handler is None:   # registered before any cluster's: atexit runs it after them
            _exit_handler = atexit.register(shutdown)
    return _server


def _forget_after_fork():
    """A process forked from this one (not through the server) must not talk to our server:
    their requests would interleave on one socket. It starts its own when it needs one."""
    global _server, _lock
    _lock = threading.Lock()
    if _server is not None:
        try:
            _server.sock.close()
        except OSError:
            pass
        _server = None


os.register_at_fork(after_in_child=_forget_after_fork)


class _ServerProcess:
    """The launcher's handle: the server's process and the launcher's end of their socket."""

    def __init__(self):
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        code = ("import sys; sys.path[:] = {path!r}; "
                "from sandbox.cluster.fork_server import _serve; _serve({fd}, {launcher})")
        env = dict(os.environ, **{name: "1" for name in _POOL_ENV})
        from multiprocess import spawn                # the interpreter tasks are spawned with
        try:
            self.process = subprocess.Popen(
                [spawn.get_executable(), "-c", code.format(
                    path=sys.path, fd=theirs.fileno(), launcher=os.getpid())],
                pass_fds=[theirs.fileno()], stdin=subprocess.DEVNULL, env=env)
        finally:
            theirs.close()
        self.sock = ours
        self.ready = False

    def wait_ready(self):
        if not self.ready:
            if self._read(1) != b"R":
                raise RuntimeError(f"The sandbox's fork server exited while starting (exit "
                                   f"code {self.process.wait()}); see its output above. "
                                   + _SPAWN_HINT)
            self.ready = True

    def request(self, request, fds):
        """Sends one fork request; returns the read end of the child's status pipe once the
        child's pid is on it."""
        status_r, status_w = os.pipe()
        try:
            socket.send_fds(self.sock, [_HEADER.pack(len(request))], [status_w, *fds])
            self.sock.sendall(request)
        except OSError as e:
            os.close(status_r)
            raise RuntimeError(f"The sandbox's fork server (pid {self.process.pid}) is gone "
                               f"({e}). " + _SPAWN_HINT) from None
        finally:
            os.close(status_w)
        return status_r

    def _read(self, n):
        ready, _, _ = select.select([self.sock], [], [], _ANSWER_TIMEOUT)
        if not ready:
            raise RuntimeError(f"The sandbox's fork server (pid {self.process.pid}) did not "
                               f"answer in {_ANSWER_TIMEOUT:.0f} s (is it paused, or is the "
                               "machine swapping?). " + _SPAWN_HINT)
        return self.sock.recv(n)

    def stop(self):
        try:
            self.sock.close()                 # the server's signal to end
        except OSError:
            pass
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class ForkedProcess:
    """A task forked by the server, as the launcher sees it -- the part of multiprocess's
    Process that LocalCluster uses: pid, is_alive(), exitcode, join(), kill(), terminate().
    The task is the server's child, not ours: the server waits for it and writes its exit code
    on the status pipe."""

    def __init__(self, status_fd, name, server):
        self.name = name
        self._status = status_fd
        self._close_status = weakref.finalize(self, os.close, status_fd)
        self._lock = threading.Lock()
        self._returncode = None
        self.pid = self._read_signed(_ANSWER_TIMEOUT)
        if self.pid is None:
            self._close_status()
            raise RuntimeError(f"The sandbox's fork server (pid {server.process.pid}) did not "
                               f"fork {name}. " + _SPAWN_HINT)

    def _read_signed(self, timeout):
        ready, _, _ = select.select([self._status], [], [], timeout)
        if not ready:
            return None
        data = b""
        while len(data) < _PID.size:
            chunk = os.read(self._status, _PID.size - len(data))
            if not chunk:
                return None
            data += chunk
        return _PID.unpack(data)[0]

    def _poll(self, timeout):
        with self._lock:
            if self._returncode is None and self._close_status.alive:
                ready, _, _ = select.select([self._status], [], [], timeout)
                if ready:
                    code = self._read_signed(0)
                    if code is None:            # the server died before it could tell us
                        code = 255 if _wait_gone(self.pid, timeout) else None
                    self._returncode = code
                if self._returncode is not None:
                    self._close_status()
            return self._returncode

    @property
    def exitcode(self):
        return self._poll(0)

    def is_alive(self):
        return self._poll(0) is None

    def join(self, timeout=None):
        self._poll(timeout)

    def kill(self):
        self._signal(signal.SIGKILL)

    def terminate(self):
        self._signal(signal.SIGTERM)

    def _signal(self, sig):
        if self.is_alive():
            try:
                os.kill(self.pid, sig)
            except ProcessLookupError:
                pass

    def __repr__(self):
        state = "alive" if self.is_alive() else f"exitcode={self.exitcode}"
        return f"<ForkedProcess {self.name} pid={self.pid} {state}>"


def _wait_gone(pid, timeout):
    """Whether process `pid` (not our child) is gone or a zombie within `timeout` s."""
    end = time.monotonic() + (5.0 if timeout is None else timeout)
    while True:
        try:
            with open(f"/proc/{pid}/stat") as f:
                if f.read().rsplit(")", 1)[1].split()[0] in "ZX":
                    return True
        except (OSError, IndexError):
            return True
        if time.monotonic() >= end:
            return False
        time.sleep(0.01)


# -- the server's side ---------------------------------------------------------------------------
def _serve(fd, launcher_pid):
    """The server's main loop: preload, then fork a child per request until the launcher is
    gone. Runs in the server process, started by _ServerProcess with `python -c`."""
    sock = socket.socket(fileno=fd)
    signal.signal(signal.SIGINT, signal.SIG_IGN)        # ^C in a terminal is for the launcher
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))   # still stop the tasks (finally)
    for name in PRELOAD:
        __import__(name)
    threads = len(os.listdir("/proc/self/task"))
    if threads != 1 or threading.active_count() != 1:
        print(f"sandbox fork server: {threads} threads after the imports; forking would be "
              f"unsafe, so it stops. " + _SPAWN_HINT, file=sys.stderr, flush=True)
        return
    gc.freeze()               # the children share these objects' pages instead of copying them
    wake_r, wake_w = os.pipe()
    for end in (wake_r, wake_w):
        os.set_blocking(end, False)
    signal.signal(signal.SIGCHLD, lambda *_: None)     # set_wakeup_fd writes to wake_w
    signal.set_wakeup_fd(wake_w)
    children = {}                                        # pid -> its status pipe's write end
    sock.sendall(b"R")
    try:
        while os.getppid() == launcher_pid:
            ready, _, _ = select.select([sock, wake_r], [], [], 1.0)
            if wake_r in ready:
                os.read(wake_r, 4096)
            _reap(children, os.WNOHANG)
            if sock in ready and not _fork_one(sock, children,
                                               (sock.fileno(), wake_r, wake_w)):
                break                                    # the launcher closed its end
    finally:
        for child in children:
            os.kill(child, signal.SIGKILL)
        _reap(children, 0)


def _reap(children, flags):
    """Waits for ended children and writes each one's exit code on its status pipe."""
    while children:
        try:
            child, status = os.waitpid(-1, flags)
        except ChildProcessError:
            return
        if child == 0:
            return
        status_w = children.pop(child, None)
        if status_w is not None:
            try:
                os.write(status_w, _PID.pack(os.waitstatus_to_exitcode(status)))
            except OSError:
                pass                                    # the launcher is gone
            os.close(status_w)


def _fork_one(sock, children, server_fds):
    """Reads one request and forks its child; False when the launcher has closed the socket."""
    header, fds, _, _ = socket.recv_fds(sock, _HEADER.size, 4)
    if not header:
        return False
    while len(header) < _HEADER.size:
        header += sock.recv(_HEADER.size - len(header))
    (size,) = _HEADER.unpack(header)
    request = bytearray()
    while len(request) < size:
        chunk = sock.recv(size - len(request))
        if not chunk:
            return False
        request += chunk
    status_w, *child_fds = fds
    sys.stdout.flush()
    sys.stderr.flush()
    server_pid = os.getpid()
    try:
        child = os.fork()
    except OSError as e:                   # out of memory or processes: the launcher reads EOF
        print(f"sandbox fork server: cannot fork: {e}", file=sys.stderr, flush=True)
        child = None
    if child == 0:
        _child(bytes(request), child_fds, server_pid,
               [*server_fds, status_w, *children.values()])
    for fd in child_fds:
        os.close(fd)
    if child is None:
        os.close(status_w)
    else:
        os.write(status_w, _PID.pack(child))
        children[child] = status_w
    return True


def _child(request, fds, server_pid, unused):
    """In the forked child: become the process the launcher asked for, run it, exit."""
    code = 1
    try:
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        for fd in unused:
            os.close(fd)
        conn_fd, out, err = fds
        os.dup2(out, 1)
        os.dup2(err, 2)
        os.close(out)
        os.close(err)
        _die_with_server(server_pid)
        target, args, env, cwd, path = pickle.loads(request)
        os.environ.clear()
        os.environ.update(env)
        os.chdir(cwd)
        sys.path[:] = path
        _set_thread_pools(env)
        _fresh_random_state()
        from multiprocess.connection import Connection
        target(Connection(conn_fd), *args)
        code = 0
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except BaseException:
        traceback.print_exc()
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)


def _die_with_server(server_pid):
    """PR_SET_PDEATHSIG: a SIGTERM when the server dies; if it already has, exit now."""
    try:
        import ctypes
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)
    except (OSError, AttributeError):
        pass
    if os.getppid() != server_pid:
        os._exit(0)


def threads_asked(internal_api, env):
    """The threads a library (threadpoolctl's internal_api: openblas, mkl, blis, openmp...)
    starts with in a process whose environment is `env`: its first variable set to a
    positive number, at most the cores (as OpenBLAS reads it), else one per core."""
    from ..runtime.compute_threads import cores
    for name in _READS.get(internal_api, ("OMP_NUM_THREADS",)):
        try:
            n = int(env.get(name, "").split(",")[0])
        except ValueError:
            continue
        if n > 0:
            return min(n, cores())
    return cores()


def _set_thread_pools(env):
    """Gives each thread pool already loaded (NumPy's OpenBLAS) the threads `env` asks for --
    what it would have read from the environment had this process imported NumPy itself."""
    from threadpoolctl import ThreadpoolController
    controller = ThreadpoolController()
    for api in {lib.internal_api for lib in controller.lib_controllers}:
        controller.select(internal_api=api).limit(limits=threads_asked(api, env))


def _fresh_random_state():
    """A spawned process seeds NumPy's global generator from the OS; forked ones would all
    share the server's (Python's `random` reseeds itself after a fork)."""
    numpy = sys.modules.get("numpy")
    if numpy is not None:
        numpy.random.seed()
