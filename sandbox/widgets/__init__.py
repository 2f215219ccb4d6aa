"""Seeing the cluster: Jupyter views of placement, traffic and training curves, the
dashboard, replays of saved runs, and the same views as matplotlib pictures.

    from sandbox.widgets import Dashboard, PlacementView, TrafficView, CurvesView, attach

Layers, each readable on its own:

    cluster_watch   reads any cluster's tasks over the wire (by ClusterSpec and secret)
    *_model         plain data built from those measurements (no UI; unit-tested)
    feed            a background thread that keeps the models fresh
    *_widget        the front ends (anywidget: a synced state plus a small ES module)
    *_view          a widget bound to its source: a cluster, a session, a run, a recording
    dashboard       controls + the three views; recording: save and replay; pictures: PNGs

The views and the dashboard need ipywidgets and anywidget; the models and pictures do not,
so they are imported only when asked for.
"""
import importlib

_LAZY = {"Dashboard": "dashboard", "PlacementView": "placement_view",
         "TrafficView": "traffic_view", "CurvesView": "curves_view",
         "attach": "cluster_watch", "AttachedCluster": "cluster_watch",
         "ClusterWatch": "cluster_watch", "LiveFeed": "feed", "Recording": "recording",
         "PlacementModel": "placement_model", "TrafficModel": "traffic_model",
         "CurvesModel": "curves_model"}

__all__ = sorted(_LAZY)


def __getattr__(name):
    if name in _LAZY:
        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module 'sandbox.widgets' has no attribute {name!r}; it has "
                         f"{', '.join(__all__)}.")


def __dir__():
    return __all__
