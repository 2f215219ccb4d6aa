"""TrafficWidget -- the front end of the traffic view: what travels between the tasks.

In between-graph replication each worker pulls the parameters from the ps at the start of a
step and pushes its gradients back at the end (with SyncReplicasOptimizer, also a token per
step and the accumulators' bookkeeping). TensorFlow moves those tensors with a _Send on one
task and a _Recv on the other; the sandbox's tasks trace both ends. This widget draws what
TrafficModel (traffic_model.py) made of those traces, in two pictures:

  arrows      one arrow per (sender, receiver, kind of traffic), as wide as its bytes per
              second (log scale), coloured by kind, with its bytes/s and messages/s
  swim lanes  a space-time diagram (as ShiViz draws one): a lane per task, each message an
              arrow from its send to its receipt, the requests each task served and the
              delays added on purpose as bars, and what the view could not read shaded

It is a pure renderer: `state` is a TrafficModel.to_dict() set by the Python side
(traffic_view.TrafficView, which draws a new one when the controls change); the front end,
static/traffic.js, draws it and sets the controls:

    state             the whole picture, plain JSON
    paused            the Pause / Resume button (moving the slider pauses too)
    view_end          where the lanes end, in the state's seconds (None: follow live)
    view_length       how long the lanes are, in seconds (None: about six steps)
    selected_message  the message the user clicked (its dict), or {}
"""
import anywidget
import traitlets

from .front_end import esm

__all__ = ["TrafficWidget"]


class TrafficWidget(anywidget.AnyWidget):
    """Draws a TrafficModel.to_dict() (see the module docstring)."""

    _esm = esm("traffic.js")

    state = traitlets.Dict().tag(sync=True)
    paused = traitlets.Bool(False).tag(sync=True)
    view_end = traitlets.Float(None, allow_none=True).tag(sync=True)
    view_length = traitlets.Float(None, allow_none=True).tag(sync=True)
    selected_message = traitlets.Dict().tag(sync=True)
