"""PlacementView -- where every variable and op of a graph lives, live in Jupyter.

    PlacementView(graph, sess)        # as the session's master placed it (Session.placement)
    PlacementView(graph, cluster)     # as the cluster's tasks hold it (their graph pieces)
    PlacementView(cluster)            # every graph the tasks were given
    PlacementView(recording)          # a saved run, without a cluster

The tasks are boxes, coloured by job, with their devices inside; in each device the ops are
grouped by name scope (click to expand); hovering an op says its type, dtype, shape and
bytes. This is what `log_device_placement=True` prints, drawn: variables on the ps (put there
by `tf.device` or `replica_device_setter`), the computation on the workers, and the _Send and
_Recv ops TensorFlow's partitioner adds where an edge crosses from one device to another.
It redraws when the placement changes: a new graph, more ps tasks, a task that died.
"""
from ..framework.graph import Graph
from .feed import LiveFeed, Ticker
from .feed_binding import FeedBinding
from .placement_model import PlacementModel
from .placement_widget import PlacementWidget
from .recording import Recording

__all__ = ["PlacementView"]


class PlacementView(FeedBinding, PlacementWidget):
    """See the module docstring."""

    def __init__(self, graph_or_source, source=None, run=None, interval=0.5, **kwargs):
        super().__init__(**kwargs)
        self._ticker = None
        self._model = None
        self.show(graph_or_source, source, run=run, interval=interval)

    def show(self, graph_or_source, source=None, run=None, interval=0.5):
        """Shows another graph, session, cluster, feed or recording (None: nothing yet)."""
        self._stop_following()
        graph = graph_or_source if isinstance(graph_or_source, Graph) else None
        source = source if graph is not None else graph_or_source
        if source is None:
            self._model = PlacementModel([])
        elif isinstance(source, Recording):
            self._model = source.placement[source.find_run(run)]
        elif graph is not None and hasattr(source, "placement") and \
                hasattr(source, "list_devices"):                   # a Session
            self._show_session(graph, source, interval)
        else:
            self._follow(source, graph, interval)
        self.refresh()

    def _follow(self, source, graph, interval):
        """Reads a cluster live: through a LiveFeed given, or one of this view's own."""
        if isinstance(source, LiveFeed):
            feed, own = source, False
            feed.read_placement()                  # (now, not at the feed's next turn)
        else:
            try:
                feed, own = LiveFeed(source, interval=interval, placement_every=interval,
                                     graph=graph), True
            except TypeError as e:
                raise TypeError(f"PlacementView shows (graph, session), (graph, cluster), "
                                f"a cluster, a LiveFeed or a Recording. {e}") from None
        self._model = feed.placement
        self._bind(feed, own)

    def _show_session(self, graph, session, interval):
        self._model = PlacementModel.from_session(graph, session)
        seen = [(graph.version, len(session.placement))]

        def check():
            now = (graph.version, len(session.placement))
            if now != seen[0]:
                seen[0] = now
                self._model.update_from_session(graph, session)
                self.refresh()
        self._ticker = Ticker(interval, check, name="placement-view").start()

    @property
    def model(self):
        return self._model

    def refresh(self):
        with self._reading():
            self.state = self._model.to_dict()

    def _on_feed(self, feed):
        self.refresh()

    def picture(self):
        """The same state drawn with matplotlib."""
        from .pictures import draw_placement
        return draw_placement(self.state)

    def _stop_following(self):
        ticker, self._ticker = getattr(self, "_ticker", None), None
        if ticker is not None:
            ticker.stop()
        self._unbind()

    def stop(self):
        """Stops watching the cluster or session; the view stays on the page as it last was
        (`close()` also takes it off)."""
        self._stop_following()

    def close(self):
        self._stop_following()
        super().close()
