"""The in-process runtime behind `Session('')` -- mirrors TensorFlow's DirectSession
(core/common_runtime/direct_session.cc).

One local session owns one resource manager (its variables), a state store for stateful
kernels (random generators) and a cache of executors: each distinct (feeds, fetches, targets)
signature is pruned, placed and planned once, then reused for every later run.
"""
import itertools
import sys
import threading
import time

from .executor import Executor, StepState
from .placer import place
from ..framework.resource_mgr import ResourceMgr
from ..framework.step_stats import fill_step_stats

__all__ = ["DirectSession", "LOCAL_TASK"]

LOCAL_TASK = "/job:localhost/replica:0/task:0"
_step_ids = itertools.count(1)


class DirectSession:
    """Runs a graph in this process."""

    def __init__(self, graph, config):
        self.graph = graph
        self.config = config
        gpus = int((config.device_count or {}).get("GPU", 0)) if config is not None else 0
        cpus = max(1, int((config.device_count or {}).get("CPU", 1))) if config is not None else 1
        self.devices = [f"{LOCAL_TASK}/device:CPU:{i}" for i in range(cpus)] + \
                       [f"{LOCAL_TASK}/device:GPU:{i}" for i in range(gpus)]
        self.resources = ResourceMgr(owner=LOCAL_TASK)
        self.kernel_state = {}
        self._executors = {}
        self._placed = set()
        self.placement = {}                # op name -> (op type, device)
        self._active = set()               # StepStates of the runs in progress
        self._lock = threading.Lock()

    def list_devices(self):
        return list(self.devices)

    def _executor_for(self, feeds, fetches, targets):
        key = (feeds, fetches, targets)
        executor = self._executors.get(key)
        if executor is not None:
            return executor
        with self._lock:
            executor = self._executors.get(key)
            if executor is None:
                node_defs = [op.node_def for op in self.graph.get_operations()]
                executor = Executor(node_defs, feeds, fetches, targets, self.resources,
                                    self.kernel_state, place_fn=self._place)
                self._executors[key] = executor
        return executor

    def _place(self, node_defs):
        soft = bool(self.config and self.config.allow_soft_placement)
        devices = place(node_defs, self.devices, f"{LOCAL_TASK}/device:CPU:0", soft)
        log = bool(self.config and self.config.log_device_placement)
        for nd in node_defs:
            nd["device"] = devices[nd["name"]]
            self.placement[nd["name"]] = (nd["op"], nd["device"])
            if log and nd["name"] not in self._placed:
                print(f"{nd['name']}: ({nd['op']}): {nd['device']}", file=sys.stderr)
            self._placed.add(nd["name"])

    def run(self, feeds, fetches, targets, feed_values, options=None, run_metadata=None):
        executor = self._executor_for(feeds, fetches, targets)
        trace = bool(options and options.trace_level >= 1 and run_metadata is not None)
        # RunOptions.timeout_in_ms, else the config's operation_timeout_in_ms (TF's
        # DirectSession: a blocked queue or _Recv ends in DeadlineExceededError, not a hang)
        timeout_ms = (options.timeout_in_ms if options is not None else 0) or \
            int(getattr(self.config, "operation_timeout_in_ms", 0) or 0)
        deadline = time.monotonic() + timeout_ms / 1000.0 if timeout_ms > 0 else None
        step = StepState(next(_step_ids), deadline=deadline, collect_stats=trace)
        with self._lock:
            self._active.add(step)
        try:
            values = executor.run(feed_values, step)
        finally:
            step.end()
            with self._lock:
                self._active.discard(step)
        if trace:
            fill_step_stats(run_metadata.step_stats,
                            [(device or LOCAL_TASK, name, op, begin, end)
                             for name, op, device, begin, end in step.stats])
        return values

    def close(self):
        """Cancels the runs still blocked (e.g. on a queue), then frees the resources."""
        with self._lock:
            for step in self._active:
                step.cancelled = "the Session was closed"
        self.resources.clear()
        self._executors.clear()

