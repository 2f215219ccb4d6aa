"""What a live view does with its LiveFeed (feed.py): listen to it, stop listening, close it if
the view started it -- and hold the feed's lock while it reads the model the feed updates.
TrafficView and PlacementView both inherit it; a view shown a recording or a session has no
feed, and then reading needs no lock."""
import contextlib

__all__ = ["FeedBinding"]


class FeedBinding:
    """Mixed into a view (a widget class) that has an `_on_feed(feed)` method."""

    _feed = None
    _own_feed = False

    def _bind(self, feed, own):
        """Listens to `feed` from now on; `own`: this view made it, so starts and closes it."""
        self._feed, self._own_feed = feed, own
        feed.add_listener(self._on_feed)
        if own:
            feed.start()

    def _unbind(self):
        """Stops listening (and closes the feed if this view made it)."""
        feed, self._feed = self._feed, None
        if feed is not None:
            feed.remove_listener(self._on_feed)
            if self._own_feed:
                feed.close()

    def stop(self):
        """Stops watching the cluster. The view stays on the page as it last was, so a notebook's
        last cell can stop its views before it stops the cluster and a Run All still shows them
        (`close()` also takes the view off the page)."""
        self._unbind()

    def _reading(self):
        """`with self._reading():` -- the model holds still meanwhile."""
        return self._feed.lock if self._feed is not None else contextlib.nullcontext()
