"""Compute threads per task -- the sandbox's counterpart of ConfigProto's
intra_op_parallelism_threads.

The heavy kernels (MatMul and its gradients) run in NumPy's BLAS library, which starts one
thread per core. In a cluster on ONE machine every task's process would do that, and the
tasks fight over the cores: OpenBLAS's threads keep spinning for a while after each product,
so a worker computing its gradients holds every core while the ps, which must apply them
and send the next parameters, waits for one.

So a server gives its process a share of the cores: `intra_op_parallelism_threads` from the
server's ConfigProto if set, else the cores divided by the tasks of the cluster that run on
this machine (1 ps + 1 worker on 2 cores: one BLAS thread each). A number the user chose in
the environment (OPENBLAS_NUM_THREADS, OMP_NUM_THREADS, MKL_NUM_THREADS -- LocalCluster sets
them for its tasks) is left alone. The limit is lifted when the last server of the process
stops.
"""
import os
import socket
import threading

__all__ = ["ENV_NAMES", "cores", "share_of_cores", "local_tasks", "share_for", "hold",
           "release"]

ENV_NAMES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
_LOCAL_HOSTS = {"localhost", "127.0.0.1", "::1", "0.0.0.0", "", socket.gethostname()}

_lock = threading.Lock()
_holders = {}            # id(server) -> the BLAS threads it asked for, or None
_limiter = None          # threadpoolctl's handle while a limit holds
_limit = None            # the limit it holds


def cores():
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def share_of_cores(tasks):
    """BLAS threads for each of `tasks` processes that share this machine's cores."""
    return max(1, cores() // max(1, tasks))


def local_tasks(hosts):
    """How many of the tasks' hosts are this machine."""
    return sum(1 for h in hosts if h in _LOCAL_HOSTS or h.startswith("127."))


def share_for(hosts, requested=0):
    """BLAS threads for one task of a cluster whose tasks run on `hosts`: `requested` if > 0,
    else the cores over the local tasks; None if the environment already chose."""
    if requested and requested > 0:
        return int(requested)
    if any(os.environ.get(name) for name in ENV_NAMES):
        return None
    return share_of_cores(local_tasks(hosts))


def hold(owner, threads):
    """While `owner` (a running server) holds: this process's BLAS threads are limited to
    `threads` (the least asked by the running servers; None: leave them)."""
    with _lock:
        _holders[id(owner)] = threads
        _update()


def release(owner):
    with _lock:
        if _holders.pop(id(owner), None) is not None:
            _update()


def _update():
    limits = [threads for threads in _holders.values() if threads is not None]
    _apply(min(limits) if limits else None)


def _apply(threads):
    global _limiter, _limit
    if threads == _limit:
        return
    from threadpoolctl import threadpool_limits     # imported when a server starts
    if _limiter is not None:
        _limiter.restore_original_limits()
        _limiter = None
    if threads is not None:
        _limiter = threadpool_limits(limits=threads, user_api="blas")
    _limit = threads
