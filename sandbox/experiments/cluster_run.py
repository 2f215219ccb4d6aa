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
in a temporary folder (removed when the run ends, or shared by several runs: SharedData). A
record says: worker, global_step, local step, wall time, loss, test accuracy (measured by the
chief every `eval_every` of its steps and at the end), and stale gradients dropped so far
(sync).

Faults, for the dashboard and the lessons: `exp.kill("worker", 2)` kills a task's process
while the run goes on, `exp.restart("worker", 2)` starts it again (a worker then rejoins the
training where its loop had got to; a restarted ps has lost its variables). Each becomes an
event (`exp.events`, `on_event`). A worker killed on purpose is not a failure of the run: the
others go on (async) or wait for it (sync, when every replica is needed). With
`recover=True` the loops ride out a dead or restarted ps (they retry, and the chief
initializes the variables again if the ps lost them), as a MonitoredTrainingSession would;
without it, a failed step ends the run, as in the seed. `linger=True` keeps the cluster up
after training (as a TF ps serves on after its workers are done) until `close()`, so that the
views can still read it; `keep_records=False` keeps no list of records (a ten-minute run
streams hundreds of thousands: subscribers get them all, memory stays flat).
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

__all__ = ["Experiment", "SharedData", "run_experiment"]

_DONE = object()


class Experiment:
    """One training run on a fresh LocalCluster; iterate it or subscribe to it."""

    def __init__(self, mode="async", workers=2, ps=1, replicas_to_aggregate=None,
                 stragglers=None, network=None, learning_rate=0.001, epochs=1, batch_size=100,
                 mnist=None, data_dir=None, eval_every=None, seed=1, steps_per_epoch=None,
                 shared_data=None, recover=False, linger=False, keep_records=True,
                 eval_examples=None):
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
        self.eval_examples = eval_examples
        self.recover = bool(recover)
        self.linger = bool(linger)
        self.keep_records = bool(keep_records)
        self.records = []
        self.events = []
        self._queue = None                   # made by __iter__: only an iterator needs it
        self._subscribers = []
        self._event_subscribers = []
        self._runs = []
        self._errors = []
        self._shared = shared_data           # SharedData given by the caller (not ours)
        self._own_shared = None              # SharedData made for this run (removed by it)
        self._data_dir = None
        self._cluster = None
        self._started = None
        self._finished = threading.Event()
        self._lock = threading.Lock()
        self._killed_runs = set()            # ids of the runs whose task was killed on purpose
        self._stopping = False
        self._runs_closed = False
        self._steps_done = {}                # worker -> its last local step reported
        self._tally = {"global_step": 0, "worker_steps": 0, "wall": 0.0, "final_loss": None,
                       "stale_dropped": 0}
        self.final_accuracy = {}
        self.traffic = {}

    @property
    def cluster(self):
        """The LocalCluster the run trains on (None before start())."""
        return self._cluster

    @property
    def finished(self):
        """True once every worker's loop has ended."""
        return self._finished.is_set()

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
        if self._shared is None:
            self._own_shared = SharedData(self.mnist)
        self._data_dir = (self._shared or self._own_shared).folder
        try:
            self._cluster = LocalCluster({"ps": self.ps, "worker": self.workers},
                                         stragglers=stragglers, network=self.network)
            self._started = time.time()
            config = self._config()
            self._runs = [self._run_worker(index, config) for index in range(self.workers)]
        except BaseException:
            self._cleanup()
            raise
        threading.Thread(target=self._wait_all, daemon=True,
                         name="experiment-finish").start()
        return self

    def _run_worker(self, index, config):
        return self._cluster.run_in_task("worker", index, train_worker, config,
                                         on_message=self._emit_all, on_done=self._on_done)

    def _config(self):
        """What each worker's loop needs to know: plain values only (they are pickled)."""
        return {"mode": self.mode, "workers": self.workers,
                "replicas_to_aggregate": self.replicas_to_aggregate,
                "learning_rate": self.learning_rate, "epochs": self.epochs,
                "batch_size": self.batch_size, "steps_per_epoch": self.steps_per_epoch,
                "eval_every": self.eval_every, "eval_examples": self.eval_examples,
                "seed": self.seed, "started": self._started, "recover": self.recover,
                "start_step": 0, "log_levels": _sandbox_log_levels(),
                "data": {name: os.path.join(self._data_dir, name + ".npy")
                         for name in DATA_FILES}}

    def _on_done(self, run):
        """A worker that fails stops the others: the run ends and says why -- unless its
        task was killed on purpose (exp.kill)."""
        try:
            run.result(0)
        except Exception:
            if not self._was_killed(run):
                self.stop()

    def _was_killed(self, run):
        return run.id in self._killed_runs

    def _wait_all(self):
        try:
            waited = set()
            while True:                  # (a restarted worker adds a run meanwhile)
                with self._lock:
                    pending = [(i, r) for i, r in enumerate(self._runs) if i not in waited]
                    if not pending:
                        self._runs_closed = True      # restart() adds no run from now on
                        break
                for i, run in pending:
                    waited.add(i)
                    index = int(run.task_name.rsplit(":", 1)[-1])
                    try:
                        self.final_accuracy[index] = run.result()
                    except Exception as e:   # reported by wait()/iteration, never silent
                        if not self._was_killed(run):
                            self._errors.append((index, e))
            if self._cluster is not None:
                self.traffic = self._traffic()
        except Exception as e:
            self._errors.append((None, e))
        finally:
            if not self.linger:
                self._cleanup()
        self._finished.set()
        if self._queue is not None:
            self._queue.put(_DONE)

    def _cleanup(self):
        if self._cluster is not None:
            self._cluster.close()
        if self._own_shared is not None:
            self._own_shared.close()
            self._own_shared = None
        self._data_dir = None

    def close(self):
        """Stops the run if it is still going, and the cluster (which linger=True kept)."""
        if self._started is not None and not self._finished.is_set():
            self.stop()
            self._finished.wait(30)
        self._cleanup()

    def subscribe(self, callback):
        """Calls callback(record) for every record (from a thread of this process)."""
        self._subscribers.append(callback)
        return self

    def on_event(self, callback):
        """Calls callback(event) for every event (a task killed or restarted, the run
        stopped): {"time", "global_step", "kind", "task", "text"}."""
        self._event_subscribers.append(callback)
        return self

    def __iter__(self):
        if self._queue is None:
            self._queue = queue.Queue()
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
        if not self._stopping and self._started is not None:
            self._stopping = True
            self._event("stop", None, "the run was asked to stop")
        for run in list(self._runs):
            run.cancel()

    # -- faults -------------------------------------------------------------------------------
    def kill(self, job, index=0):
        """Kills task (job, index)'s process at once (SIGKILL), while the run goes on."""
        if self._cluster is None:
            raise RuntimeError("The experiment's cluster is not running (start it first).")
        from ..runtime.task_server import task_name
        name = task_name(job, index)
        with self._lock:
            self._killed_runs.update(run.id for run in self._runs
                                     if run.task_name == name and not run.done())
        self._cluster.kill(job, index)
        self._event("kill", f"{job}:{index}", f"{job}:{index} was killed")

    def restart(self, job, index=0):
        """Starts task (job, index) again at the same address, with empty state. A worker
        rejoins the training where its loop had got to (its own count of steps); a ps comes
        back without its variables."""
        if self._cluster is None:
            raise RuntimeError("The experiment's cluster is not running (start it first).")
        self._cluster.restart(job, index)
        self._event("restart", f"{job}:{index}", f"{job}:{index} was restarted")
        if job == "worker" and not self._stopping:
            config = dict(self._config(), start_step=self._steps_done.get(index, 0))
            with self._lock:
                if not self._runs_closed:
                    self._runs.append(self._run_worker(index, config))

    def _event(self, kind, task, text):
        event = {"time": time.time() - self._started if self._started else 0.0,
                 "global_step": self._tally["global_step"], "kind": kind, "task": task,
                 "text": text}
        self.events.append(event)
        for callback in self._event_subscribers:
            callback(event)

    @property
    def error(self):
        """Why the run failed (an exception), or None -- once it has ended."""
        return self._errors[0][1] if self._errors else None

    def config(self):
        """The run's settings, as plain values (what the views label a run with)."""
        delays = [v.get("step_delay", 0.0) for v in self.stragglers.values()
                  if isinstance(v, dict)]
        network = self.network or {}
        return {"mode": self.mode, "workers": self.workers, "ps": self.ps,
                "replicas_to_aggregate": self.replicas_to_aggregate if self.mode == "sync"
                else None,
                "learning_rate": self.learning_rate, "epochs": self.epochs,
                "batch_size": self.batch_size,
                "straggler_ms": 1000 * max(delays) if delays else 0,
                "latency_ms": network.get("latency_ms", 0),
                "bandwidth_mbps": network.get("bandwidth_mbps")}

    def _raise_errors(self):
        if self._errors:
            index, error = self._errors[0]
            who = "the experiment" if index is None else f"worker {index}"
            raise RuntimeError(f"{who} failed: {type(error).__name__}: {error}") from error

    def _emit_all(self, records):
        for record in records:
            self._emit(record)

    def _emit(self, record):
        if self.keep_records:
            self.records.append(record)
        tally = self._tally
        tally["global_step"] = max(tally["global_step"], record["global_step"])
        tally["latest_global_step"] = record["global_step"]   # back near 0 after a ps restart
        tally["worker_steps"] += 1
        tally["wall"] = max(tally["wall"], record["time"])
        tally["final_loss"] = record["loss"]
        if record["stale_dropped"] is not None:
            tally["stale_dropped"] = max(tally["stale_dropped"], record["stale_dropped"])
        self._steps_done[record["worker"]] = record["step"]
        for callback in self._subscribers:
            callback(record)
        if self._queue is not None:
            self._queue.put(record)

    def _traffic(self):
        """Bytes of tensors each task sent to other tasks during the run (a task that is
        down at the end -- killed, and not restarted -- is left out: its counts died with
        it)."""
        from ..framework import errors
        sent = {}
        for job, count in (("ps", self.ps), ("worker", self.workers)):
            for index in range(count):
                if not self._cluster.is_alive(job, index):
                    continue
                try:
                    totals = self._cluster.traffic_totals(job, index)
                except errors.OpError:
                    continue
                sent[f"{job}:{index}"] = sum(n for kind, _, _, n in totals if kind == "send")
        return sent

    # -- results ----------------------------------------------------------------------------
    def summary(self):
        """Per-run figures: steps, time, final loss, mean test accuracy of the workers, and
        the bytes of tensors the tasks sent each other (once the run has ended)."""
        tally = self._tally
        if not tally["worker_steps"]:
            return {}
        accs = list(self.final_accuracy.values())
        return {"mode": self.mode, "workers": self.workers,
                "replicas_to_aggregate": self.replicas_to_aggregate if self.mode == "sync"
                else None,
                "global_step": tally["global_step"],
                "latest_global_step": tally.get("latest_global_step", 0),
                "worker_steps": tally["worker_steps"], "seconds": tally["wall"],
                "final_loss": tally["final_loss"],
                "test_accuracy": sum(accs) / len(accs) if accs else None,
                "stale_dropped": tally["stale_dropped"],
                "bytes_sent": sum(self.traffic.values()) if self.traffic else None}


def _sandbox_log_levels():
    """The levels this process gave the sandbox's loggers: the workers' loops log as quietly
    (or as loudly) as the program that started them."""
    import logging
    loggers = logging.root.manager.loggerDict
    return {name: logger.level for name, logger in loggers.items()
            if (name == "sandbox" or name.startswith("sandbox."))
            and isinstance(logger, logging.Logger) and logger.level != logging.NOTSET}


class SharedData:
    """The training and test sets written once to .npy files in a new temporary folder, which
    every worker maps into memory (no copy through a pipe; the page cache holds them once).
    One SharedData can serve many runs (the dashboard's): pass it as Experiment(shared_data=).
    The folder goes with close(), or at the latest when this interpreter exits."""

    def __init__(self, mnist):
        self.folder = tempfile.mkdtemp(prefix="sandbox-experiment-")
        self._cleanup = weakref.finalize(self, shutil.rmtree, self.folder, True)
        arrays = (mnist.train.images, mnist.train.labels, mnist.test.images,
                  mnist.test.labels)
        try:
            for name, array in zip(DATA_FILES, arrays):
                np.save(os.path.join(self.folder, name + ".npy"), np.asarray(array))
        except BaseException:
            self.close()
            raise

    def close(self):
        self._cleanup()


def run_experiment(**kwargs):
    """Runs an Experiment to the end; returns (summary, records)."""
    exp = Experiment(**kwargs)
    summary = exp.wait()
    return summary, exp.records
