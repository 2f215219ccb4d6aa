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
from .feed_binding import FeedBinding
from .recording import Recording
from .traffic_model import TrafficModel
from .traffic_widget import TrafficWidget

__all__ = ["TrafficView"]


class TrafficView(FeedBinding, TrafficWidget):
    """See the module docstring. `source`: a cluster, a LiveFeed (shared with other
    views), or a Recording (then `run` picks one of its runs)."""

    _stopped = False                # stop() was called: no longer reading, and it says so

    def __init__(self, source, run=None, interval=INTERVAL, **kwargs):
        super().__init__(**kwargs)
        self._model = None
        self._showing = False
        self.observe(self._controls_changed, names=["paused", "view_end", "view_length"])
        self.show(source, run=run, interval=interval)

    # -- what it shows --------------------------------------------------------------------
    def show(self, source, run=None, interval=INTERVAL):
        """Shows another cluster, feed or recording (None: nothing yet): a recording paused
        in the middle of its run, a cluster live."""
        self._unbind()
        self._showing = True                      # (the controls set below redraw nothing)
        try:
            if source is None:
                self._model = TrafficModel([])
            elif isinstance(source, Recording):
                self._model = source.traffic[source.find_run(run)]
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
            feed, own = source, False
        else:
            try:
                feed, own = LiveFeed(source, interval=interval), True
            except TypeError as e:
                raise TypeError(f"TrafficView shows a cluster, a LiveFeed or a Recording. "
                                f"{e}") from None
        self._model = feed.traffic
        self._bind(feed, own)

    @property
    def model(self):
        return self._model

    def refresh(self):
        """Draws the model's state now (the feed calls it after every look)."""
        live = not self.paused
        with self._reading():
            state = self._model.to_dict(end=None if live else self.view_end,
                                         length=self.view_length, live=live)
        if self._stopped:
            state["stopped"] = True           # no longer reading: not "live" (stop())
        self.state = state

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

    def stop(self):
        """Stops reading the cluster (a feed this view started is closed); the view stays on
        the page as it last was, its history still scrubbable, and says it has stopped
        (`close()` also takes it off the page)."""
        self._unbind()
        self._stopped = True
        self.refresh()

    def close(self):
        """Stops reading the cluster (a feed this view started is closed) and takes the view
        off the page; `stop()` only stops reading."""
        self._unbind()
        super().close()
