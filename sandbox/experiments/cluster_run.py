"""Seed 002's MNIST job on a local cluster -- asynchronous or synchronous -- as an experiment
that streams what happens while it runs.

    from sandbox.experiments import Experiment
    exp = Experiment(mode="sync", workers=3, replicas_to_aggregate=2, mnist=mnist, epochs=1)
    for record in exp:            # one dict per training step, as it happens
        print(record)
    print(exp.summary())

What runs is the seed's program: between-graph replication (each worker builds its own copy of
the graph; tf.train.replica_device_setter puts the variables and global_step on the ps), the
sigmoid 784-100-10 network, GradientDescent, batch 100, each worker looping over its own
shuffled copy of the training set for `epochs` epochs. In "sync" mode the optimizer is wrapped
in SyncReplicasOptimizer and the workers run in MonitoredTrainingSessions with its hook.

Every task is a real process of a LocalCluster, and, as in the seed, each worker's training
loop runs inside that worker's process, next to its server (worker_loop.py, started with
LocalCluster.run_in_task): its Session talks to the master of its own process, and its
batches never cross a socket. The training data reach the workers as memory-mapped .npy files
in a temporary folder (removed when the run ends). A record says: worker,
global_step, local step, wall time, loss, test accuracy (measured by the chief every
`eval_every` of its steps and at the end), and stale gradients dropped so far (sync).
"""
import os
import queue
import shutil
import tempfile
import threading
import time
import weakref

import numpy as np

from .worker_loop import DATA_FILES, train_worker

__all__ = ["Experiment", "run_experiment"]

_DONE = object()


class Experiment:
    """One training run on a fresh LocalCluster; iterate it or subscribe to it."""

    def __init__(self, mode="async", workers=2, ps=1, replicas_to_aggregate=None,
                 stragglers=None, network=None, learning_rate=0.001, epochs=1, batch_size=100,
                 mnist=None, data_dir=None, eval_every=None, seed=1, steps_per_epoch=None):
        if mode not in ("async", "sync"):
            raise ValueError(f"mode must be 'async' or 'sync', not {mode!r}")
        if workers < 1 or ps < 1:
            raise ValueError("an experiment needs at least one worker and one ps task")
        if replicas_to_aggregate is not None and mode != "sync":
            raise ValueError("replicas_to_aggregate only applies to mode='sync'")
        self.mode = mode
        self.workers = workers
        self.ps = ps
        self.replicas_to_aggregate = replicas_to_aggregate or workers
        if not 1 <= self.replicas_to_aggregate <= workers:
            raise ValueError(f"replicas_to_aggregate must be between 1 and workers={workers}")
        self.stragglers = dict(stragglers or {})
        self.network = network
        self.learning_rate = learning_rate
        self.epochs = epochs
        self.batch_size = batch_size
        self.seed = seed
        if mnist is None:
            from ..examples.tutorials.mnist import input_data
            mnist = input_data.read_data_sets(data_dir or "data/mnist", one_hot=True)
        self.mnist = mnist
        self.steps_per_epoch = steps_per_epoch or max(1, mnist.train.num_examples // batch_size)
        self.eval_every = eval_every or self.steps_per_epoch
        self.records = []
        self._queue = queue.Queue()
        self._subscribers = []
        self._runs = []
        self._errors = []
        self._data_dir = None
        self._cluster = None
        self._started = None
        self._finished = threading.Event()
        self.final_accuracy = {}
        self.traffic = {}

    @property
    def started(self):
        """When the workers' loops were started (a time.time() value; None before start()).
        Each record's "time" counts from here, so records line up with anything else
        stamped with time.time() -- the tasks' traces, for one."""
        return self._started

    # -- running ---------------------------------------------------------------------------
    def start(self):
        """Starts the cluster and the workers' loops; returns at once."""
        from ..cluster import LocalCluster
        stragglers = {(("worker", k) if isinstance(k, int) else k): (
            v if isinstance(v, dict) else {"slowdown": float(v)})
            for k, v in self.stragglers.items()}
        self._data_dir = _share_data(self.mnist)
        # removed when the run ends -- or, at the latest, when this interpreter exits
        self._data_cleanup = weakref.finalize(self, shutil.rmtree, self._data_dir, True)
        try:
            self._cluster = LocalCluster({"ps": self.ps, "worker": self.workers},
                                         stragglers=stragglers, network=self.network)
            self._started = time.time()
            config = self._config()
            self._runs = [self._cluster.run_in_task("worker", index, train_worker, config,
                                                    on_message=self._emit_all,
                                                    on_done=self._on_done)
                          for index in range(self.workers)]
        except BaseException:
            self._cleanup()
            raise
        threading.Thread(target=self._wait_all, daemon=True,
                         name="experiment-finish").start()
        return self

    def _config(self):
        """What each worker's loop needs to know: plain values only (they are pickled)."""
        return {"mode": self.mode, "workers": self.workers,
                "replicas_to_aggregate": self.replicas_to_aggregate,
                "learning_rate": self.learning_rate, "epochs": self.epochs,
                "batch_size": self.batch_size, "steps_per_epoch": self.steps_per_epoch,
                "eval_every": self.eval_every, "seed": self.seed, "started": self._started,
                "log_levels": _sandbox_log_levels(),
                "data": {name: os.path.join(self._data_dir, name + ".npy")
                         for name in DATA_FILES}}

    def _on_done(self, run):
        """A worker that fails stops the others: the run ends and says why."""
        try:
            run.result(0)
        except Exception:
            self.stop()

    def _wait_all(self):
        try:
            for index, run in enumerate(self._runs):
                try:
                    self.final_accuracy[index] = run.result()
                except Exception as e:   # reported by wait()/iteration, never silent
                    self._errors.append((index, e))
            self.traffic = self._traffic()
        except Exception as e:
            self._errors.append((None, e))
        finally:
            self._cleanup()
        self._finished.set()
        self._queue.put(_DONE)

    def _cleanup(self):
        if self._cluster is not None:
            self._cluster.close()
        if self._data_dir is not None:
            self._data_cleanup()
            self._data_dir = None

    def subscribe(self, callback):
        """Calls callback(record) for every record (from a thread of this process)."""
        self._subscribers.append(callback)
        return self

    def __iter__(self):
        if self._started is None:
            self.start()
        while True:
            item = self._queue.get()
            if item is _DONE:
                break
            yield item
        self._raise_errors()

    def wait(self, timeout=None):
        """Blocks until the run ends; returns the summary."""
        if self._started is None:
            self.start()
        if not self._finished.wait(timeout):
            raise TimeoutError("the experiment is still running")
        self._raise_errors()
        return self.summary()

    def stop(self):
        """Asks every worker to leave its loop (the run then ends cleanly; in sync mode the
        first worker to leave closes the token queue, which releases the others)."""
        for run in self._runs:
            run.cancel()

    def _raise_errors(self):
        if self._errors:
            index, error = self._errors[0]
            who = "the experiment" if index is None else f"worker {index}"
            raise RuntimeError(f"{who} failed: {type(error).__name__}: {error}") from error

    def _emit_all(self, records):
        for record in records:
            self._emit(record)

    def _emit(self, record):
        self.records.append(record)
        for callback in self._subscribers:
            callback(record)
        self._queue.put(record)

    def _traffic(self):
        """Bytes of tensors each task sent to other tasks during the run."""
        sent = {}
        for job, count in (("ps", self.ps), ("worker", self.workers)):
            for index in range(count):
                totals = self._cluster.traffic_totals(job, index)
                sent[f"{job}:{index}"] = sum(n for kind, _, _, n in totals if kind == "send")
        return sent

    # -- results ----------------------------------------------------------------------------
    def summary(self):
        """Per-run figures: steps, time, final loss, mean test accuracy of the workers."""
        if not self.records:
            return {}
        wall = max(r["time"] for r in self.records)
        accs = list(self.final_accuracy.values())
        dropped = [r["stale_dropped"] for r in self.records if r["stale_dropped"] is not None]
        return {"mode": self.mode, "workers": self.workers,
                "replicas_to_aggregate": self.replicas_to_aggregate if self.mode == "sync"
                else None,
                "global_step": max(r["global_step"] for r in self.records),
                "worker_steps": len(self.records), "seconds": wall,
                "final_loss": self.records[-1]["loss"],
                "test_accuracy": sum(accs) / len(accs) if accs else None,
                "stale_dropped": max(dropped) if dropped else 0}


def _sandbox_log_levels():
    """The levels this process gave the sandbox's loggers: the workers' loops log as quietly
    (or as loudly) as the program that started them."""
    import logging
    loggers = logging.root.manager.loggerDict
    return {name: logger.level for name, logger in loggers.items()
            if (name == "sandbox" or name.startswith("sandbox."))
            and isinstance(logger, logging.Logger) and logger.level != logging.NOTSET}


def _share_data(mnist):
    """Writes the training and test sets to .npy files in a new temporary folder, which every
    worker maps into memory (no copy through a pipe; the page cache holds them once)."""
    folder = tempfile.mkdtemp(prefix="sandbox-experiment-")
    arrays = (mnist.train.images, mnist.train.labels, mnist.test.images, mnist.test.labels)
    try:
        for name, array in zip(DATA_FILES, arrays):
            np.save(os.path.join(folder, name + ".npy"), np.asarray(array))
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    return folder


def run_experiment(**kwargs):
    """Runs an Experiment to the end; returns (summary, records)."""
    exp = Experiment(**kwargs)
    summary = exp.wait()
    return summary, exp.records
