"""keras.metrics.Metric -- mirrors the Metric base class of TensorFlow 1.15's
python/keras/metrics.py: the running statistic that the classes of metrics.py and
metrics_confusion.py build on (keras.metrics re-exports it).
"""
import numpy as np

from ..framework import dtypes as _dtypes
from ..framework.graph import control_dependencies
from ..layers.base import to_snake_case
from ..ops import variables as _variables
from ..ops.control_flow_ops import identity
from . import backend as K

__all__ = ["Metric"]


class Metric:
    """A running statistic: update_state() returns the op that adds a batch, result() the
    tensor of the value so far, reset_states() starts again; calling it does both."""

    def __init__(self, name=None, dtype=None):
        self.name = name or to_snake_case(type(self).__name__)
        self.dtype = _dtypes.as_dtype(dtype or K.floatx())
        self._variables = []

    def add_weight(self, name, shape=(), dtype=None):
        dtype = _dtypes.as_dtype(dtype or self.dtype)
        variable = _variables.Variable(np.zeros(shape, dtype.as_numpy_dtype),
                                       trainable=False, name=name, dtype=dtype)
        self._variables.append(variable)
        return variable

    def batch_value(self, y_true, y_pred):
        """The metric's value on this batch alone (what compile reports for it)."""
        raise NotImplementedError(f"{type(self).__name__} cannot be used in compile")

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype.name}

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    @property
    def variables(self):
        return list(self._variables)

    weights = variables

    def reset_states(self):
        K.batch_set_value([(v, np.zeros(v.get_shape().as_list())) for v in self._variables])

    def __call__(self, *args, **kwargs):
        update = self.update_state(*args, **kwargs)
        with control_dependencies([update]):
            return identity(self.result())
