"""`tf.contrib.metrics` -- the streaming metrics of TF 1.15's contrib/metrics (see
metric_ops.py): tf.metrics with predictions first, plus aggregate_metrics,
aggregate_metric_map, confusion_matrix and the non-streaming accuracy."""
from .metric_ops import *  # noqa: F401,F403
from .metric_ops import __all__  # noqa: F401
