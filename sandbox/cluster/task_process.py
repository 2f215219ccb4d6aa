"""The body of one task process started by LocalCluster (or by `python -m sandbox task`).

A task process binds its socket first and reports the port, so LocalCluster can pick free ports
without races; then it receives the whole ClusterSpec, starts its server and serves until it is
told to stop -- or until its launcher dies: the pipe to the launcher closes, and the task exits.
No task outlives the program that started it.
"""
import os
import signal
import sys
import threading

__all__ = ["run_task"]


def _die_with_parent():
    """Linux: ask the kernel to SIGTERM us when our parent dies -- the launcher, or the fork
    server, which ends when the launcher does (the pipe EOF also works)."""
    try:
        import ctypes
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGTERM)          # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def run_task(conn, job, index, secret, port, num_gpus, parent_pid, die_with_parent=True):
    """Runs task (job, index); talks to its launcher over `conn` (a multiprocess Pipe end).
    `parent_pid`: the process that started this one -- the launcher (spawn) or the fork
    server (cluster/fork_server.py). `die_with_parent`: ask the kernel for a SIGTERM when the
    parent dies. Not for a spawned task: the kernel sends it when the parent's *thread* that
    started the task ends, and a launcher may start a cluster from a short-lived thread (the
    dashboard's Run does); the pipe's end tells such a task that its launcher is gone."""
    if die_with_parent:
        _die_with_parent()
    if os.getppid() != parent_pid:             # it died before we could follow it
        os._exit(0)
    signal.signal(signal.SIGTERM, lambda *a: os._exit(0))
    from ..runtime import transport
    from ..runtime.task_server import TaskServer
    from ..train.cluster_spec import ClusterSpec
    try:
        listener = transport.Listener(("127.0.0.1", port), secret)
    except OSError as e:
        conn.send(("error", f"cannot listen on 127.0.0.1:{port}: {e.strerror or e}"))
        return
    conn.send(("bound", listener.address[1]))
    message = conn.recv()
    if message[0] != "spec":
        return
    spec = ClusterSpec(message[1])
    server = TaskServer(spec, job, index, secret=secret, num_gpus=num_gpus, listener=listener)
    server.start()
    conn.send(("ready", os.getpid()))
    _serve_launcher(conn, server)
    os._exit(0)


def _serve_launcher(conn, server):
    """Answers the launcher's commands: stop, ping, and run/cancel a function in this process
    (cluster/task_run.py). Runs may report from their own threads, hence the lock."""
    from .task_run import serve_run
    lock = threading.Lock()

    def send(message):
        with lock:
            conn.send(message)

    cancels = {}
    try:
        while not server.stopped:
            if conn.poll(0.5):
                command = conn.recv()
                if command[0] == "stop":
                    break
                if command[0] == "ping":
                    send(("pong",))
                elif command[0] == "run":
                    serve_run(server, send, cancels, *command[1:])
                elif command[0] == "cancel" and command[1] in cancels:
                    cancels[command[1]].set()
    except (EOFError, OSError):
        pass                                    # the launcher is gone: so are we
    finally:
        server.stop()
        sys.stdout.flush()
        sys.stderr.flush()
