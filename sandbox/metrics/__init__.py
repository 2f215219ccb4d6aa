"""`tf.metrics` -- the names of TensorFlow 1.x's tf.metrics namespace
(python/ops/metrics_impl.py; the code is in metrics_impl.py beside this file, and the *_at_k
family in ranking_metrics.py).
"""
from .metrics_impl import *                          # noqa: F401,F403
from .ranking_metrics import *                       # noqa: F401,F403
from . import metrics_impl as _metrics_impl
from . import ranking_metrics as _ranking_metrics

__all__ = [n for n in _metrics_impl.__all__ if n != "metric_variable"] + \
    list(_ranking_metrics.__all__)
