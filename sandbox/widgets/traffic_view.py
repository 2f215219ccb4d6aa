"""TrafficView -- what travels between the tasks of a cluster, live in Jupyter.

    TrafficView(cluster)                  # a LocalCluster, or attach(ClusterSpec, secret)
    TrafficView(recording, run="sync x3") # a saved run (recording.py), without a cluster

Two pictures of the same measurements (traffic_model.py): arrows between the tasks, as wide
as the bytes per second that flow along them, one colour per kind (parameter pulls, gradient
pushes, sync tokens, control); and swim lanes, a space-time diagram of the last steps where
every message is an arrow from its send to its receipt. Pause freezes the lanes, the slider
scrubs back through the history, a click on a message tells its tensor, size, step and
latency. TensorFlow has no such view of its own: what it moves is exactly what the sandbox's
tasks trace.
"""
from .feed import INTERVAL, LiveFeed
from .recording import Recording
from .traffic_model import TrafficModel
from .traffic_widget import TrafficWidget

__all__ = ["TrafficView"]


class TrafficView(TrafficWidget):
    """See the module docstring. `source`: a cluster, a LiveFeed (shared with other
    views), or a Recording (then `run` picks one of its runs)."""

    def __init__(self, source, run=None, interval=INTERVAL, **kwargs):
        super().__init__(**kwargs)
        self._feed = None
        self._own_feed = False
        self._model = None
        self._lock = None
        self._showing = False
        self.observe(self._controls_changed, names=["paused", "view_end", "view_length"])
        self.show(source, run=run, interval=interval)

    # -- what it shows --------------------------------------------------------------------
    def show(self, source, run=None, interval=INTERVAL):
        """Shows another cluster, feed or recording (None: nothing yet): a recording paused
        in the middle of its run, a cluster live."""
        self._detach()
        self._showing = True                      # (the controls set below redraw nothing)
        try:
            if source is None:
                self._model, self._lock = TrafficModel([]), None
            elif isinstance(source, Recording):
                self._model = source.traffic[source.find_run(run)]
                self._lock = None
                self.view_end = self._model.moment_to_show()     # mid-run, not its idle end
                self.paused = True
            else:
                self.paused, self.view_end = False, None
                self._follow(source, interval)
        finally:
            self._showing = False
        self.refresh()

    def _follow(self, source, interval):
        """Reads a cluster live: through a LiveFeed given, or one of this view's own."""
        if isinstance(source, LiveFeed):
            self._feed, self._own_feed = source, False
        else:
            try:
                self._feed, self._own_feed = LiveFeed(source, interval=interval), True
            except TypeError as e:
                raise TypeError(f"TrafficView shows a cluster, a LiveFeed or a Recording. "
                                f"{e}") from None
        self._model, self._lock = self._feed.traffic, self._feed.lock
        self._feed.add_listener(self._on_feed)
        if self._own_feed:
            self._feed.start()

    @property
    def model(self):
        return self._model

    def refresh(self):
        """Draws the model's state now (the feed calls it after every look)."""
        live = not self.paused
        if self._lock is None:
            self.state = self._model.to_dict(end=self.view_end, length=self.view_length,
                                             live=live)
            return
        with self._lock:
            self.state = self._model.to_dict(end=None if live else self.view_end,
                                              length=self.view_length, live=live)

    def _on_feed(self, feed):
        if not self.paused:
            self.refresh()

    def _controls_changed(self, change):
        if self._showing:
            return
        if change["name"] == "paused" and change["new"] and self.view_end is None:
            self.view_end = self._model.end       # freeze where it is
            return                                # (which refreshes)
        if change["name"] == "paused" and not change["new"]:
            self.view_end = None
            return
        self.refresh()

    # -- pictures and the end -----------------------------------------------------------------
    def picture(self):
        """The same state drawn with matplotlib (arrows above, swim lanes below)."""
        from .pictures import draw_traffic_and_lanes
        return draw_traffic_and_lanes(self.state)

    def _detach(self):
        if not hasattr(self, "_feed"):               # (__init__ failed before it was set)
            return
        if self._feed is not None:
            self._feed.remove_listener(self._on_feed)
            if self._own_feed:
                self._feed.close()
        self._feed = None

    def close(self):
        """Stops reading the cluster (a feed this view started is closed)."""
        self._detach()
        super().close()
