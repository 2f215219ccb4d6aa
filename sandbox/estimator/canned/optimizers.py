"""The optimizers of the canned estimators by name -- mirrors TensorFlow's
tensorflow_estimator/python/estimator/canned/optimizers.py.

    get_optimizer_instance('Adagrad', learning_rate=0.05)   # -> tf.train.AdagradOptimizer(0.05)

An optimizer is given as one of the names below, an Optimizer, or a function of no arguments
that returns one.
"""
from ...train.adagrad import AdagradOptimizer
from ...train.adam import AdamOptimizer
from ...train.ftrl import FtrlOptimizer
from ...train.gradient_descent import GradientDescentOptimizer
from ...train.optimizer import Optimizer
from ...train.rmsprop import RMSPropOptimizer

__all__ = ["get_optimizer_instance"]

_OPTIMIZER_CLS_NAMES = {
    "Adagrad": AdagradOptimizer,
    "Adam": AdamOptimizer,
    "Ftrl": FtrlOptimizer,
    "RMSProp": RMSPropOptimizer,
    "SGD": GradientDescentOptimizer,
}


def get_optimizer_instance(opt, learning_rate=None):
    """An Optimizer from a name (with learning_rate), an Optimizer, or a callable."""
    if isinstance(opt, str):
        if opt in _OPTIMIZER_CLS_NAMES:
            if learning_rate is None:
                raise ValueError("learning_rate must be specified when opt is string.")
            return _OPTIMIZER_CLS_NAMES[opt](learning_rate=learning_rate)
        raise ValueError(f"Unsupported optimizer name: {opt}. Supported names are: "
                         f"{tuple(sorted(_OPTIMIZER_CLS_NAMES))}")
    if callable(opt) and not isinstance(opt, Optimizer):
        opt = opt()
    if not isinstance(opt, Optimizer):
        raise ValueError(f"The given object is not an Optimizer instance. Given: {opt}")
    return opt
