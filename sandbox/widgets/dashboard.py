"""The dashboard -- a class's control panel for a cluster on this machine.

    from sandbox.widgets import Dashboard
    Dashboard()                                  # choose, press Run, watch, break things
    Dashboard.attach(cluster_spec, secret)       # watch tasks started from terminals
    Dashboard.replay("runs.sandbox.json.gz")     # show a saved session, no cluster needed

Pick a cluster (ps tasks, workers) and a way to train seed 002's MNIST network
(asynchronously, or synchronously with SyncReplicasOptimizer and maybe backup workers; a
straggler; a slow network; the learning rate and epochs) and press Run: a LocalCluster starts
in the background -- every task its own process -- and trains while the notebook stays free.
The three views (curves_view, traffic_view, placement_view) show what the cluster measures
as it happens. Kill a task and it shows as dead in every view, and the curves show what it
cost (a sync run stalls, an async one slows, a ps restarted without a checkpoint starts
over); Restart brings it back. Each run stays on the curves, in its own colour, so runs
compare; Save writes them all to one file for slides (recording.py).
"""
import contextlib
import os
import threading

import ipywidgets as w

from .cluster_watch import short_name
from .curves_view import CurvesView
from .feed import INTERVAL, LiveFeed, Ticker
from .placement_view import PlacementView
from .recording import Recording
from .traffic_view import TrafficView

__all__ = ["Dashboard"]

QUICK_TRAIN, QUICK_TEST = 5000, 2000        # examples used in SANDBOX_QUICK=1 mode
_BANDWIDTHS = [("unlimited", 0), ("1000 Mbit/s", 1000), ("100 Mbit/s", 100),
               ("10 Mbit/s", 10)]             # 0: no limit


def _slider(cls, description, **kwargs):
    return cls(description=description, style={"description_width": "150px"},
               layout=w.Layout(width="340px"), continuous_update=False, **kwargs)


class Dashboard(w.VBox):
    """See the module docstring. `mnist`: the data (read_data_sets' result); else it is read
    from `data_dir`, $MNIST_DIR or data/mnist (downloaded there if missing; an offline
    subset without network). `quick` (default: $SANDBOX_QUICK == "1") trains on 5,000
    examples, for a fast demonstration or a test."""

    _stopped = False                # stop() ran: the run, cluster and readers are gone

    def __init__(self, mnist=None, data_dir=None, quick=None, cluster=None, recording=None,
                 interval=INTERVAL):
        super().__init__(layout=w.Layout(width="100%"))
        self.interval = interval
        self.quick = os.environ.get("SANDBOX_QUICK") == "1" if quick is None else quick
        self._mnist, self._data_dir = mnist, data_dir
        self._shared = None
        self.experiment = None
        self.feed = None
        self.recording = Recording(title="dashboard")
        self._run_id = None
        self._busy = threading.Lock()
        self._task_states = {}
        self.status = w.HTML(layout=w.Layout(width="calc(100% - 8px)"))   # (its margins)
        self.status.add_class("sandbox-dashboard-status")
        self.curves = CurvesView(self.recording.curves) if recording is None else \
            CurvesView(recording)
        self.traffic = self.placement = None
        if recording is not None:
            self._build_replay(recording)
        elif cluster is not None:
            self._build_attach(cluster)
        else:
            self._build_training()
        self._ticker = Ticker(0.5, self._tick, name="dashboard").start()

    # -- three ways to open it ----------------------------------------------------------------
    @classmethod
    def attach(cls, cluster_spec, secret=None, **kwargs):
        """A dashboard on a cluster this notebook did not start (see cluster_watch.attach)."""
        from .cluster_watch import attach
        return cls(cluster=attach(cluster_spec, secret), **kwargs)

    @classmethod
    def replay(cls, path_or_recording, **kwargs):
        """A dashboard on a saved session of runs (recording.py), without a cluster."""
        recording = path_or_recording if isinstance(path_or_recording, Recording) else \
            Recording.load(path_or_recording)
        return cls(recording=recording, **kwargs)

    def _build_training(self):
        c = self.controls = {
            "ps": _slider(w.IntSlider, "ps tasks", value=1, min=1, max=4),
            "workers": _slider(w.IntSlider, "workers", value=3, min=1, max=16),
            "mode": w.ToggleButtons(options=["async", "sync"], value="async",
                                    description="training",
                                    style={"description_width": "150px",
                                           "button_width": "80px"}),
            "replicas": _slider(w.IntSlider, "replicas_to_aggregate", value=3, min=1, max=3,
                                disabled=True),
            "straggler_ms": _slider(w.FloatSlider, "straggler delay (ms)", value=0.0,
                                    min=0.0, max=200.0, step=5.0),
            "latency_ms": _slider(w.FloatSlider, "link latency (ms)", value=0.0, min=0.0,
                                  max=20.0, step=0.5),
            "bandwidth": w.Dropdown(options=_BANDWIDTHS, value=0,
                                    description="link bandwidth",
                                    style={"description_width": "150px"},
                                    layout=w.Layout(width="340px")),
            "learning_rate": _slider(w.FloatLogSlider, "learning rate", value=0.01,
                                     base=10, min=-4, max=0, step=0.25),
            "epochs": _slider(w.IntSlider, "epochs", value=1, min=1, max=20),
        }
        c["straggler_ms"].tooltip = "extra time of every step of the last worker"
        c["workers"].observe(self._workers_changed, names="value")
        c["mode"].observe(self._workers_changed, names="value")
        self.run_button = self._button("Run", "success", "play", self._on_run, "run")
        self.stop_button = self._button("Stop", "warning", "stop", self._on_stop, "stop",
                                        disabled=True)
        self.task_picker = w.Dropdown(options=[], description="task",
                                      layout=w.Layout(width="240px"))
        self.task_picker.add_class("sandbox-task-picker")
        self.kill_button = self._button("Kill", "danger", "times", self._on_kill, "kill",
                                        disabled=True)
        self.restart_button = self._button("Restart", "info", "refresh", self._on_restart,
                                           "restart", disabled=True)
        self.save_path = w.Text(value="dashboard.sandbox.json.gz", description="save as",
                                layout=w.Layout(width="330px"))
        self.save_button = self._button("Save", "", "save", self._on_save, "save")
        self.traffic = TrafficView(None)
        self.placement = PlacementView(None)
        wrap = w.Layout(flex_flow="row wrap")         # narrow pages: rows wrap, no scrolling
        columns = w.HBox([w.VBox([c["ps"], c["workers"], c["mode"], c["replicas"]]),
                          w.VBox([c["straggler_ms"], c["latency_ms"], c["bandwidth"]]),
                          w.VBox([c["learning_rate"], c["epochs"]])], layout=wrap)
        actions = w.HBox([self.run_button, self.stop_button, self.task_picker,
                          self.kill_button, self.restart_button, self.save_path,
                          self.save_button], layout=wrap)
        self._say("Choose a cluster and a way to train, then press <b>Run</b>." +
                  (" (Quick mode: 5,000 training examples.)" if self.quick else ""))
        self.children = [w.HTML("<h3>Distributed training on this machine</h3>"), columns,
                         actions, self.status, self.curves, self.traffic, self.placement]
        self._prepared = threading.Event()
        self._preparing_error = None
        threading.Thread(target=self._prepare, daemon=True, name="dashboard-prepare").start()

    def _prepare(self):
        """Gets done, while the class reads the controls, what a Run would otherwise wait for:
        the data read and written where the workers map it, the fork server's interpreter
        started (cluster/fork_server.py) -- so that Run gets to its first step in a second."""
        try:
            from ..cluster import fork_server
            from ..experiments import SharedData
            fork_server.warm_up(wait=False)
            mnist = self._data()
            self._shared = SharedData(mnist)
            fork_server.warm_up()
        except Exception as e:             # said when Run is pressed, never lost
            self._preparing_error = e
        finally:
            self._prepared.set()

    def _build_attach(self, cluster):
        self.feed = LiveFeed(cluster, interval=self.interval).start()
        self.traffic = TrafficView(self.feed)
        self.placement = PlacementView(self.feed)
        tasks = ", ".join(t.short for t in self.feed.watch.tasks)
        self._say(f"Watching a cluster this notebook did not start ({tasks}): its placement "
                  "and traffic, read from the tasks over the wire. Its training curves "
                  "belong to the programs that run on it.")
        self.children = [w.HTML("<h3>A cluster, attached</h3>"), self.status, self.traffic,
                         self.placement]

    def _build_replay(self, recording):
        ids = [r for r in recording.run_ids if r in recording.traffic or
               r in recording.placement]
        self.run_picker = w.Dropdown(options=[(recording.label(r), r) for r in ids],
                                     description="run", layout=w.Layout(width="300px"))
        views = []
        if ids:
            self.traffic = TrafficView(recording, run=ids[-1])
            self.placement = PlacementView(recording, run=ids[-1])
            self.run_picker.value = ids[-1]
            self.run_picker.observe(self._replay_run_changed, names="value")
            views = [self.run_picker, self.traffic, self.placement]
        self._say(f"A saved session ({len(recording.run_ids)} run(s), recorded "
                  f"{recording.created}): no cluster runs; scrub the traffic with its slider.")
        self.children = [w.HTML("<h3>A saved session of runs</h3>"), self.status,
                         self.curves] + views
        self._recording_shown = recording

    def _replay_run_changed(self, change):
        self.traffic.show(self._recording_shown, run=change["new"])
        self.placement.show(self._recording_shown, run=change["new"])

    @staticmethod
    def _button(text, style, icon, handler, testid, disabled=False):
        button = w.Button(description=text, button_style=style, icon=icon, disabled=disabled,
                          layout=w.Layout(width="auto"))
        button.add_class(f"sandbox-{testid}")
        button.on_click(handler)
        return button

    # -- controls --------------------------------------------------------------------------
    def _workers_changed(self, change):
        c = self.controls
        workers = c["workers"].value
        c["replicas"].max = workers
        if change["owner"] is c["workers"] or c["replicas"].value > workers:
            c["replicas"].value = workers
        c["replicas"].disabled = c["mode"].value != "sync"

    def _say(self, html, error=False):
        color = "#b00020" if error else "#222"
        self.status.value = f"<div style='font-size:14px;color:{color}'>{html}</div>"

    def settings(self):
        """The run the controls describe, as Experiment arguments."""
        c = self.controls
        workers, mode = c["workers"].value, c["mode"].value
        stragglers = {workers - 1: {"step_delay": c["straggler_ms"].value / 1000.0}} \
            if c["straggler_ms"].value > 0 else None
        network = None
        if c["latency_ms"].value > 0 or c["bandwidth"].value:
            network = {"latency_ms": c["latency_ms"].value,
                       "bandwidth_mbps": c["bandwidth"].value or None}
        return {"mode": mode, "workers": workers, "ps": c["ps"].value,
                "replicas_to_aggregate": c["replicas"].value if mode == "sync" else None,
                "stragglers": stragglers, "network": network,
                "learning_rate": c["learning_rate"].value, "epochs": c["epochs"].value}

    # -- running -------------------------------------------------------------------------------
    def run(self, **settings):
        """Starts a run with the controls' settings (or these, e.g. run(workers=2)); returns
        at once -- the cluster starts and trains in the background."""
        keys = {name: {"replicas_to_aggregate": "replicas"}.get(name, name)
                for name in settings}
        for name, key in keys.items():
            if key not in self.controls:
                raise ValueError(f"Dashboard.run() has no setting {name!r}; it takes "
                                 f"{', '.join(sorted(self.controls))}.")
        # replicas last: a new number of workers resets it
        for name in sorted(settings, key=lambda n: keys[n] == "replicas"):
            self.controls[keys[name]].value = settings[name]
        if not self._busy.acquire(blocking=False):
            raise RuntimeError("A run is starting already; wait for it (or press Stop).")
        self.run_button.disabled = True
        threading.Thread(target=self._start_run, args=(self.settings(),), daemon=True,
                         name="dashboard-run").start()

    def _on_run(self, _):
        try:
            self.run()
        except RuntimeError as e:
            self._say(str(e), error=True)

    def _start_run(self, settings):
        run_id = None
        try:
            from ..experiments import Experiment
            self._end_previous_run()
            if not self._prepared.is_set():
                self._say("Reading the data and preparing the task processes...")
                self._prepared.wait()
            if self._preparing_error is not None:
                raise self._preparing_error
            mnist = self._mnist
            steps = settings["epochs"] * max(1, mnist.train.num_examples // 100)
            self._say(f"Starting a cluster: {settings['ps']} ps + {settings['workers']} "
                      "worker process(es)...")
            exp = Experiment(mnist=mnist, shared_data=self._shared, recover=True,
                             linger=True, keep_records=False, eval_examples=QUICK_TEST,
                             eval_every=max(10, steps // 15), **settings)
            run_id = self._run_id = self.curves.add(exp, start=False)
            self._task_states = {}
            exp.start()
            self.experiment = exp
            self.feed = LiveFeed(exp.cluster, interval=self.interval)
            self.traffic.show(self.feed)
            self.placement.show(self.feed)
            self.feed.start()
            self.task_picker.options = [t.short for t in self.feed.watch.tasks]
            self.stop_button.disabled = False
            self.kill_button.disabled = self.restart_button.disabled = False
            self._say(f"Training <b>{self.curves.model.runs[self._run_id].label}</b>...")
        except Exception as e:               # said on the dashboard, never lost
            self._say(f"The run could not start: {type(e).__name__}: {e}", error=True)
            if run_id is not None and self.experiment is None:
                self.curves.model.finish(run_id, "failed",
                                         {"error": f"{type(e).__name__}: {e}"})
            self.run_button.disabled = False
        finally:
            self._busy.release()

    def _end_previous_run(self):
        """The previous run's cluster lingered for the views; its models go to the
        recording, its processes go away."""
        if self.feed is not None:
            self.feed.close()
            self.recording.add_cluster(self._run_id, self.feed.traffic, self.feed.placement)
            self.feed = None
        if self.experiment is not None:
            self.experiment.close()
            self.experiment = None

    def _data(self):
        if self._mnist is None:
            from ..examples.tutorials.mnist import input_data
            folder = self._data_dir or os.environ.get("MNIST_DIR") or "data/mnist"
            mnist = input_data.read_data_sets(folder, one_hot=True)
            self._mnist = _subset(mnist, QUICK_TRAIN, QUICK_TEST) if self.quick else mnist
        return self._mnist

    def _on_stop(self, _):
        if self.experiment is not None:
            self.experiment.stop()
            self._say("Stopping: every worker leaves its loop after its current step...")

    def _on_kill(self, _):
        self._task_action("kill")

    def _on_restart(self, _):
        self._task_action("restart")

    def _task_action(self, action):
        exp, task = self.experiment, self.task_picker.value
        if exp is None or not task:
            self._say("No cluster is running: press Run first.", error=True)
            return
        job, index = task.split(" ", 1)[0].split(":")        # "worker:1 (dead)"

        def act():
            try:
                getattr(exp, action)(job, int(index))
                self._say(f"{task} was {'killed' if action == 'kill' else 'restarted'}.")
                if self.feed is not None:
                    self.feed.poll()
            except Exception as e:
                self._say(f"Could not {action} {task}: {type(e).__name__}: {e}", error=True)
        self._say(f"{'Killing' if action == 'kill' else 'Restarting'} {task}...")
        threading.Thread(target=act, daemon=True, name=f"dashboard-{action}").start()

    def _on_save(self, _):
        try:
            path = self.save()
            self._say(f"Saved every run to <code>{path}</code>: open it with "
                      f"<code>Dashboard.replay({path!r})</code>.")
        except (OSError, ValueError) as e:
            self._say(f"Could not save: {e}", error=True)

    def save(self, path=None):
        """Writes every run of this dashboard (curves, traffic, placement) to one file."""
        path = path or self.save_path.value
        if self.feed is not None:
            self.recording.add_cluster(self._run_id, self.feed.traffic, self.feed.placement)
        with self.feed.lock if self.feed is not None else contextlib.nullcontext():
            return self.recording.save(path)

    # -- keeping the status fresh ---------------------------------------------------------------
    def _tick(self):
        exp, feed = self.experiment, self.feed
        if feed is not None and getattr(self, "task_picker", None) is not None:
            states = feed.watch.states()
            if states != self._task_states:
                self._task_states = states
                options = [t.short if states.get(t.name) == "alive" else
                           f"{t.short} ({states.get(t.name)})" for t in feed.watch.tasks]
                value = self.task_picker.value
                self.task_picker.options = options
                for option in options:
                    if value and option.split(" ")[0] == value.split(" ")[0]:
                        self.task_picker.value = option
        if exp is None or self._run_id is None or self._busy.locked():
            return                               # (nothing yet, or a run is starting)
        run = self.curves.model.runs.get(self._run_id)
        if run is None:
            return
        if exp.finished and not self.run_button.disabled:
            return
        if exp.finished:
            self.stop_button.disabled = True
            self.run_button.disabled = False
            if exp.error is not None:
                self._say(f"<b>{run.label}</b> failed: {type(exp.error).__name__}: "
                          f"{exp.error}", error=True)
            else:
                s = exp.summary()
                acc = s.get("test_accuracy")
                self._say(f"<b>{run.label}</b> ended: {s.get('global_step', 0)} global steps "
                          f"in {s.get('seconds', 0):.1f} s, test accuracy "
                          f"{'-' if acc is None else f'{acc:.3f}'}. Its cluster stays up "
                          "for the views until the next Run.")
            return
        s = exp.summary()
        dead = [short_name(t) for t, v in self._task_states.items() if v != "alive"]
        text = (f"Training <b>{run.label}</b>: global step {s.get('latest_global_step', 0)}, "
                f"{s.get('worker_steps', 0)} worker steps, {s.get('seconds', 0.0):.1f} s")
        if dead:
            text += f" -- <span style='color:#b00020'>down: {', '.join(dead)}</span>"
        self._say(text)

    def stop(self):
        """Stops the run and its cluster, the views and the background threads; the dashboard
        stays on the page as it last was (`close()` also takes it off)."""
        if self._stopped:
            return
        self._stopped = True
        self._ticker.stop()
        prepared = getattr(self, "_prepared", None)
        if prepared is not None:
            prepared.wait(60)                  # (its data folder is removed below)
        if self.feed is not None:
            self.feed.close()
        if self.experiment is not None:
            self.experiment.close()
        for view in (self.curves, self.traffic, self.placement):
            if view is not None:
                view.stop()
        if self._shared is not None:
            self._shared.close()
        self._say("Stopped: the run, its cluster and the views' readers are gone; what the "
                  "views show is what they last read.")

    def close(self):
        """stop(), and the dashboard and its views are taken off the page."""
        self.stop()
        for view in (self.curves, self.traffic, self.placement):
            if view is not None:
                view.close()
        super().close()


def _subset(mnist, n_train, n_test):
    """The first n examples of the training and test sets (quick mode)."""
    from ..datasets.mnist import DataSet, Datasets
    from ..framework import dtypes

    def take(ds, n):
        return DataSet(ds.images[:n], ds.labels[:n], dtype=dtypes.uint8, reshape=False, seed=0)
    return Datasets(train=take(mnist.train, n_train), validation=take(mnist.validation, n_test),
                    test=take(mnist.test, n_test))
