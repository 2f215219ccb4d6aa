"""PlacementWidget -- the front end of the placement view: where each variable lives and
where each op runs, one box per task.

TensorFlow places every op on a device of a task before it runs a step: `tf.device` and
`replica_device_setter` ask for one (the variables on the ps, the computation on the
workers), the master of the session decides, and the partitioner cuts the graph where an
edge crosses from one task to another, adding a _Send and a _Recv there. This widget draws
that decision as PlacementModel (placement_model.py) measured it: tasks as boxes coloured by
their job, devices inside, and in each device the ops grouped by name scope.

It is a pure renderer: `state` is a PlacementModel.to_dict() set by the Python side
(placement_view.PlacementView); the front end, static/placement.js, draws it and reports
what the user did:

    state     the whole placement, plain JSON
    expanded  the groups the user opened, as "task|device|scope" ("ps:0|CPU:0|hidden");
              kept when a new state arrives
    selected  the op the user clicked (its dict, with "task" and "device"), or {}
"""
import anywidget
import traitlets

from .front_end import esm

__all__ = ["PlacementWidget"]


class PlacementWidget(anywidget.AnyWidget):
    """Draws a PlacementModel.to_dict() (see the module docstring)."""

    _esm = esm("placement.js")

    state = traitlets.Dict().tag(sync=True)
    expanded = traitlets.List(traitlets.Unicode()).tag(sync=True)
    selected = traitlets.Dict().tag(sync=True)
