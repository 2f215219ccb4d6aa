"""The live feed -- a cluster read at a steady pace, in the background, into the view models.

A view must never wait on a cluster, and the notebook must stay responsive while one trains.
So one thread per watched cluster does the reading: every `interval` seconds (INTERVAL, 0.18
by default: five and a half looks a second, so that a view gets at least five fresh states
every second, on a steady beat) it asks every task what happened (ClusterWatch.observe)
and hands that to the traffic model; every `placement_every` seconds it also reads what the
tasks were given to run and what lives in them, into the placement model. Then it tells its
listeners (the views), which redraw from the models. Everything a view shows therefore
comes from the cluster's own measurements, at most one interval old.

Each task's placement is what it was given to run since it started: the graph pieces of
every session it served, gathered look after look (a chief's init graph, then its training
graph...). When the program's sessions close (training ended), the tasks drop their pieces;
the placement model keeps what it saw, and says so. A task that restarts starts afresh.
"""
import threading
import time

from .cluster_watch import ClusterWatch
from .placement_model import PlacementModel
from .traffic_model import TrafficModel

__all__ = ["LiveFeed", "Ticker", "INTERVAL"]

INTERVAL = 0.18


class Ticker:
    """Calls fn() every `interval` seconds in a daemon thread, until stop(): at a steady pace
    (a call that takes a while does not push the next ones back; one that takes longer than
    the interval makes the ticker skip the beats it missed)."""

    def __init__(self, interval, fn, name="sandbox-ticker"):
        self.interval = interval
        self._fn = fn
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True, name=name)

    def start(self):
        self._thread.start()
        return self

    def _run(self):
        next_beat = time.monotonic() + self.interval
        while not self._stop.wait(max(0.0, next_beat - time.monotonic())):
            now = time.monotonic()
            next_beat += self.interval * max(1, int((now - next_beat) // self.interval) + 1)
            try:
                self._fn()
            except Exception as e:          # a view must not kill its ticker: say it, go on
                import logging
                logging.getLogger("sandbox.widgets").warning(
                    "A view's update failed: %s: %s", type(e).__name__, e)

    def stop(self):
        self._stop.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(5)


class LiveFeed:
    """Reads `cluster` (a LocalCluster, an AttachedCluster, or anything with `cluster_spec`
    and `secret`) into a TrafficModel and a PlacementModel; see the module docstring.
    `graph`: only show that graph's ops in the placement (default: all of them)."""

    def __init__(self, cluster, interval=INTERVAL, placement_every=0.5, graph=None,
                 trace_limit=200, window=1.0):
        self.cluster = cluster
        self.interval = interval
        self.placement_every = placement_every
        self.graph = graph
        self.watch = ClusterWatch(cluster, trace_limit=trace_limit)
        self.traffic = TrafficModel(self.watch.tasks, window=window)
        self.placement = PlacementModel([t.name for t in self.watch.tasks])
        self.lock = threading.RLock()       # held while the models change or are read
        self.updates = 0
        self._listeners = []
        self._pieces = {}                   # task -> (its start, {(op, device): row}) seen
        self._last_placement = 0.0
        self._ticker = None

    # -- listeners --------------------------------------------------------------------------
    def add_listener(self, fn):
        """fn(feed) is called after every look (from the feed's thread)."""
        self._listeners.append(fn)

    def remove_listener(self, fn):
        if fn in self._listeners:
            self._listeners.remove(fn)

    # -- running ----------------------------------------------------------------------------
    def start(self):
        if self._ticker is None:
            self._ticker = Ticker(self.interval, self.poll, name="sandbox-live-feed").start()
        return self

    @property
    def running(self):
        return self._ticker is not None

    def poll(self):
        """One look at the cluster (the feed's thread calls it every interval)."""
        observations = self.watch.observe()
        with self.lock:
            self.traffic.update(observations)
            self.placement.set_states(self.watch.states())
        if time.monotonic() - self._last_placement >= self.placement_every:
            self._last_placement = time.monotonic()
            self.read_placement()
        self.updates += 1
        for fn in list(self._listeners):
            fn(self)

    def read_placement(self):
        placement, resources = self.watch.placement(), self.watch.resources()
        closed = []
        for task, rows in placement.items():
            started = self.watch.started(task)
            if task not in self._pieces or self._pieces[task][0] != started:
                self._pieces[task] = (started, {})            # new, or a new process
            seen = self._pieces[task][1]
            if rows:
                seen.update(((row[0], row[2]), row) for row in rows)
            elif seen:
                closed.append(task)
        pieces = {task: list(seen.values()) for task, (_, seen) in self._pieces.items()}
        with self.lock:
            self.placement.update_from_cluster(pieces, resources, self.watch.states(),
                                               self.graph)
            if closed:
                self.placement.note += (" The sessions on " + ", ".join(
                    t.split("/job:")[-1].replace("/replica:0/task:", ":") for t in closed)
                    + " have closed: their ops are shown as they were last registered.")

    def stop(self):
        if self._ticker is not None:
            self._ticker.stop()
            self._ticker = None

    def close(self):
        self.stop()
        self.watch.close()
