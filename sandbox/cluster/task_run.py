"""Running a program inside a task's own process -- what seed 002 does by hand.

In the seed, every worker is one process that holds its server *and* its training loop: the
loop's `Session(server.target)` talks to the master of its own process, and the batches it
feeds never cross a socket. `LocalCluster.run_in_task(job, index, fn, *args)` gives a
LocalCluster task the same shape: `fn(server, report, should_stop, *args)` runs in a thread of
that task's process, where

  * `server`       is the task's running server (`server.target` is its master),
  * `report(obj)`  sends obj back to the launcher at once (an `on_message` callback gets it),
  * `should_stop()` becomes true when the launcher calls `run.cancel()`.

The function and its arguments travel over the launcher's private pipe to its own child
process (pickled by multiprocess, like the task's start-up arguments) -- never over the
cluster's sockets, which carry data only. What fn returns, or the error it raised, comes back
the same way: `run.result()` returns it or raises it. If the task dies, every run in it fails
with an error naming the task.
"""
import itertools
import threading
import traceback

__all__ = ["TaskRun", "TaskRunError", "read_runs", "serve_run"]

_run_ids = itertools.count(1)


class TaskRunError(RuntimeError):
    """A function run in a task raised (the message has its type, text and traceback), or the
    task died while running it."""


class TaskRun:
    """The launcher's handle on one function running in a task process."""

    def __init__(self, task_name, function_name, send, on_message=None, on_done=None):
        self.id = next(_run_ids)
        self.task_name = task_name
        self.function_name = function_name
        self._send = send
        self._on_message = on_message
        self._on_done = on_done
        self._done = threading.Event()
        self._result = None
        self._error = None

    def result(self, timeout=None):
        """What the function returned; raises TaskRunError if it failed, TimeoutError if it is
        still running after `timeout` seconds."""
        if not self._done.wait(timeout):
            raise TimeoutError(f"{self.function_name} is still running in {self.task_name}")
        if self._error is not None:
            raise self._error
        return self._result

    def done(self):
        return self._done.is_set()

    def cancel(self):
        """Makes should_stop() true in the task; the function decides how soon it returns."""
        try:
            self._send(("cancel", self.id))
        except (OSError, ValueError):
            pass                     # the task is gone: nothing left to cancel

    # -- called by the launcher's reader thread ---------------------------------------------
    def _message(self, obj):
        if self._on_message is not None:
            self._on_message(obj)

    def _finish(self, result=None, error=None):
        if self._done.is_set():
            return
        self._result, self._error = result, error
        self._done.set()
        if self._on_done is not None:
            self._on_done(self)


def read_runs(conn, runs, task_name, exitcode):
    """The launcher's reader thread for one task: hands each message from the task to its run.
    When the pipe closes (the task stopped or died), the runs still open fail."""
    try:
        while True:
            message = conn.recv()
            if message[0] not in ("message", "done", "failed"):
                continue                       # e.g. a "pong"
            kind, run_id, *rest = message
            run = runs.get(run_id)
            if run is None:
                continue
            if kind == "message":
                run._message(rest[0])
            elif kind == "done":
                runs.pop(run_id, None)
                run._finish(result=rest[0])
            elif kind == "failed":
                runs.pop(run_id, None)
                run._finish(error=TaskRunError(f"{run.function_name} failed in {task_name}: "
                                               f"{rest[0]}\n{rest[1]}"))
    except (EOFError, OSError, ValueError):
        pass
    for run_id in list(runs):
        run = runs.pop(run_id, None)
        if run is not None:
            run._finish(error=TaskRunError(
                f"{task_name} exited (exit code {exitcode()}) while running "
                f"{run.function_name}."))


def serve_run(server, send, cancels, run_id, fn, args):
    """The task's side: runs fn in a thread; its messages, result or error go back by `send`."""
    cancel = cancels[run_id] = threading.Event()

    def body():
        try:
            result = fn(server, lambda obj: send(("message", run_id, obj)), cancel.is_set, *args)
        except BaseException as e:             # reported to the launcher, never lost
            send(("failed", run_id, f"{type(e).__name__}: {e}", traceback.format_exc()))
        else:
            send(("done", run_id, result))
        finally:
            cancels.pop(run_id, None)

    threading.Thread(target=body, daemon=True, name=f"task-run-{run_id}").start()
