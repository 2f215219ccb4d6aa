"""tf.CriticalSection -- mirrors TensorFlow's python/ops/critical_section_ops.py and the mutex
kernels of core/kernels/mutex_ops.cc: a function's ops run by one step at a time.

    cs = tf.CriticalSection()
    with tf.device('/job:ps/task:0'):
        count = tf.Variable(0.0)
    new_count = cs.execute(lambda: count.assign_add(1.0))   # read-modify-write, atomically

Several workers running `new_count` at once take turns: each step's MutexLock waits on the
ps until no other step holds the mutex, the function's ops run (they depend on the lock),
and ConsumeMutexLock lets it go once the function's results exist; the results returned
depend on that. The mutex is a resource of the task where the CriticalSection was made
(MutexV2, found by `shared_name`), so the steps of every session and worker that name it
share it.

As in TF, a step lets go of a mutex it holds when it ends, however it ends (a failed or
cancelled step cannot leave it locked), and a step waiting for the mutex can be cancelled or
run past its deadline. execute() inside another execute() of the same CriticalSection is
refused: that step would wait for itself.
"""
import threading

from ..framework import dtypes as _dtypes
from ..framework.graph import get_default_graph
from ..framework.op_def import OpDef, apply_op, scalar_shape
from ..framework.operation import Operation
from .control_flow_ops import identity, no_op
from .func_graph import flatten, pack_sequence_as

__all__ = ["CriticalSection"]


class _Mutex:
    """The mutex a MutexV2 op keeps on its task."""

    def __init__(self, name):
        self.name = name
        self._lock = threading.Lock()

    def read(self, node_name=None):
        return self

    def acquire(self, step, node_name):
        while not self._lock.acquire(timeout=0.05):
            step.check(node_name)             # cancelled, or past its deadline: stop waiting
        held = _Held(self._lock)
        step.at_end(held.release)
        return held


class _Held:
    """A step's hold on a mutex (TF's mutex_lock variant): released once."""

    def __init__(self, lock):
        self._lock = lock
        self._released = False
        self._guard = threading.Lock()

    def release(self):
        with self._guard:
            if not self._released:
                self._released = True
                self._lock.release()


class MutexV2(OpDef):
    """The task's mutex named `shared_name` (made on first use)."""
    uses_context = True
    stateful = True
    differentiable = False
    ref_outputs = (0,)
    shape = scalar_shape

    def kernel(ctx, step, container="", shared_name=""):
        name = shared_name or ctx.name
        return ctx.resources.lookup_or_create(container, name, lambda: _Mutex(name))


class MutexLock(OpDef):
    """Waits until the mutex is free and takes it for this step."""
    uses_context = True
    stateful = True
    differentiable = False
    ref_inputs = (0,)
    shape = scalar_shape

    def kernel(ctx, step, mutex):
        return mutex.acquire(step, ctx.name)


class ConsumeMutexLock(OpDef):
    """Lets the mutex go (the function's results exist by now)."""
    uses_context = True
    stateful = True
    differentiable = False

    def kernel(ctx, step, held):
        held.release()


class CriticalSection:
    """Runs functions so that no two steps run them at once (see the module)."""

    def __init__(self, name=None, shared_name=None, critical_section_def=None,
                 import_scope=None):
        if critical_section_def is not None:
            raise NotImplementedError("CriticalSection(critical_section_def=...) (from a "
                                      "MetaGraphDef) is not in the sandbox: make it anew.")
        graph = get_default_graph()
        with graph.name_scope(name or "CriticalSection") as scope:
            self._name = scope.rstrip("/")
            self._shared_name = shared_name or self._name
            self._handle = apply_op("MutexV2", [], {"container": "",
                                                    "shared_name": self._shared_name},
                                    name="MutexV2", output_dtypes=[_dtypes.string._as_ref])
        self._signature = ("", self._shared_name, self._handle.op.device)

    @property
    def name(self):
        return self._name

    def execute(self, fn, exclusive_resource_access=True, name=None):
        """fn()'s results, its ops run while this step holds the mutex."""
        graph = get_default_graph()
        running = graph.__dict__.setdefault("_critical_sections_running", [])
        if self._signature in running:
            raise ValueError("Attempting to lock a CriticalSection in which we are already "
                             "running. This is illegal and may cause deadlocks.")
        with graph.name_scope(name or "critical_section_execute"):
            with graph.colocate_with(self._handle.op):
                lock = apply_op("MutexLock", [self._handle], name="MutexLock",
                                output_dtypes=[_dtypes.variant])
            running.append(self._signature)
            try:
                with graph.control_dependencies([lock]):
                    result = fn()
            finally:
                running.remove(self._signature)
            flat = [_identity(x) for x in flatten(result)]
            with graph.control_dependencies(flat), graph.colocate_with(self._handle.op):
                consumed = apply_op("ConsumeMutexLock", [lock], name="ConsumeMutexLock",
                                    output_dtypes=[])
            with graph.control_dependencies([consumed]):
                outputs = [_identity(x) for x in flat]
        return pack_sequence_as(result, outputs)


def _identity(x):
    """A tensor's identity, or an op's no_op after it (what execute() may return)."""
    if isinstance(x, Operation):
        with get_default_graph().control_dependencies([x]):
            return no_op()
    return identity(x)
