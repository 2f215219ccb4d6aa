"""keras.optimizers -- mirrors TensorFlow 1.15's python/keras/optimizers.py and the
optimizer_v2 classes it exports (SGD, Adam, RMSprop, Adagrad), with Keras's argument names
and defaults.

In TF-1 graph mode an optimizer's job is to add the update ops of one training step; here
each Keras optimizer does that with the tf.train optimizer of the same algorithm
(GradientDescentOptimizer or MomentumOptimizer, AdamOptimizer, RMSPropOptimizer,
AdagradOptimizer), so its slots are ordinary variables that replica_device_setter places
next to their weights. `get('adam')` makes one from its name; a tf.train optimizer passed to
compile is wrapped in TFOptimizer. `iterations` counts the steps taken.
"""
from ..framework import dtypes as _dtypes
from ..framework.graph import get_default_graph
from ..ops import clip_ops
from ..ops import variables as _variables
from ..train import adagrad, adam, gradient_descent, momentum, rmsprop
from ..train.optimizer import Optimizer as _TFOptimizerBase

__all__ = ["Optimizer", "SGD", "Adam", "RMSprop", "Adagrad", "TFOptimizer", "get"]


class Optimizer:
    """What the Keras optimizers share: learning_rate (or lr), clipnorm, clipvalue, and
    get_updates(loss, params), which returns the op of one training step."""
    _default_name = "Optimizer"

    def __init__(self, name=None, **kwargs):
        allowed = {"clipnorm", "clipvalue", "lr", "decay"}
        for key in kwargs:
            if key not in allowed:
                raise TypeError(f"Unexpected keyword argument passed to optimizer: {key}")
        if kwargs.get("decay"):
            raise NotImplementedError("decay= is not in the sandbox's keras optimizers; "
                                      "use a tf.train learning rate schedule")
        self._name = name or self._default_name
        self.clipnorm = kwargs.get("clipnorm")
        self.clipvalue = kwargs.get("clipvalue")
        self.iterations = None
        self._tf_optimizer = None

    def _learning_rate(self, learning_rate, kwargs):
        return float(kwargs.pop("lr", learning_rate))

    @property
    def lr(self):
        return self.learning_rate

    def _make(self):
        raise NotImplementedError

    def get_updates(self, loss, params):
        """The op that computes the gradients of `loss` and applies them to `params`."""
        graph = get_default_graph()
        if self.iterations is not None and self.iterations.graph is not graph:
            self.iterations = None                  # a model of another graph (clear_session)
            if not isinstance(self, TFOptimizer):
                self._tf_optimizer = None
        if self._tf_optimizer is None:
            self._tf_optimizer = self._make()
        if self.iterations is None:
            with graph.name_scope(self._name):
                self.iterations = _variables.Variable(0, dtype=_dtypes.int64, name="iter",
                                                      trainable=False)
        grads = self._tf_optimizer.compute_gradients(loss, var_list=params)
        missing = [v.name for g, v in grads if g is None]
        if missing:
            raise ValueError(f"Variables {missing} have no gradient. Please make sure that all "
                             "of your ops have a gradient defined (i.e. are differentiable).")
        if self.clipnorm is not None:
            grads = [(clip_ops.clip_by_norm(g, self.clipnorm), v) for g, v in grads]
        if self.clipvalue is not None:
            grads = [(clip_ops.clip_by_value(g, -self.clipvalue, self.clipvalue), v)
                     for g, v in grads]
        return self._tf_optimizer.apply_gradients(grads, global_step=self.iterations)

    def get_config(self):
        return {"name": self._name}

    def __repr__(self):
        return f"<keras.optimizers.{type(self).__name__} {self.get_config()}>"


class SGD(Optimizer):
    """Gradient descent, with momentum (and Nesterov's) when `momentum` > 0."""
    _default_name = "SGD"

    def __init__(self, learning_rate=0.01, momentum=0.0, nesterov=False, name="SGD", **kwargs):
        self.learning_rate = self._learning_rate(learning_rate, kwargs)
        super().__init__(name, **kwargs)
        if momentum < 0 or momentum > 1:
            raise ValueError("`momentum` must be between [0, 1].")
        self.momentum = float(momentum)
        self.nesterov = nesterov

    def _make(self):
        if self.momentum or self.nesterov:
            return momentum.MomentumOptimizer(self.learning_rate, self.momentum,
                                              use_nesterov=self.nesterov, name=self._name)
        return gradient_descent.GradientDescentOptimizer(self.learning_rate, name=self._name)

    def get_config(self):
        return {"name": self._name, "learning_rate": self.learning_rate,
                "momentum": self.momentum, "nesterov": self.nesterov}


class Adam(Optimizer):
    _default_name = "Adam"

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7,
                 amsgrad=False, name="Adam", **kwargs):
        self.learning_rate = self._learning_rate(learning_rate, kwargs)
        super().__init__(name, **kwargs)
        if amsgrad:
            raise NotImplementedError("amsgrad=True is not in the sandbox's Adam")
        self.beta_1, self.beta_2, self.epsilon = beta_1, beta_2, epsilon

    def _make(self):
        return adam.AdamOptimizer(self.learning_rate, beta1=self.beta_1, beta2=self.beta_2,
                                  epsilon=self.epsilon, name=self._name)

    def get_config(self):
        return {"name": self._name, "learning_rate": self.learning_rate,
                "beta_1": self.beta_1, "beta_2": self.beta_2, "epsilon": self.epsilon}


class RMSprop(Optimizer):
    _default_name = "RMSprop"

    def __init__(self, learning_rate=0.001, rho=0.9, momentum=0.0, epsilon=1e-7,
                 centered=False, name="RMSprop", **kwargs):
        self.learning_rate = self._learning_rate(learning_rate, kwargs)
        super().__init__(name, **kwargs)
        self.rho, self.momentum, self.epsilon, self.centered = rho, momentum, epsilon, centered

    def _make(self):
        return rmsprop.RMSPropOptimizer(self.learning_rate, decay=self.rho,
                                        momentum=self.momentum, epsilon=self.epsilon,
                                        centered=self.centered, name=self._name)

    def get_config(self):
        return {"name": self._name, "learning_rate": self.learning_rate, "rho": self.rho,
                "momentum": self.momentum, "epsilon": self.epsilon,
                "centered": self.centered}


class Adagrad(Optimizer):
    _default_name = "Adagrad"

    def __init__(self, learning_rate=0.001, initial_accumulator_value=0.1, epsilon=1e-7,
                 name="Adagrad", **kwargs):
        self.learning_rate = self._learning_rate(learning_rate, kwargs)
        super().__init__(name, **kwargs)
        self.initial_accumulator_value = initial_accumulator_value
        self.epsilon = epsilon

    def _make(self):
        return adagrad.AdagradOptimizer(
            self.learning_rate, initial_accumulator_value=self.initial_accumulator_value,
            name=self._name)

    def get_config(self):
        return {"name": self._name, "learning_rate": self.learning_rate,
                "initial_accumulator_value": self.initial_accumulator_value}


class TFOptimizer(Optimizer):
    """A tf.train optimizer used by a Keras model (compile(optimizer=tf.train.AdamOptimizer()))."""

    def __init__(self, optimizer):
        super().__init__(name=optimizer.get_name())
        self.optimizer = optimizer
        self._tf_optimizer = optimizer

    @property
    def learning_rate(self):
        return getattr(self.optimizer, "_learning_rate", None)


_BY_NAME = {"sgd": SGD, "adam": Adam, "rmsprop": RMSprop, "adagrad": Adagrad}


def get(identifier):
    """An optimizer from compile's `optimizer=`: a name, a Keras or a tf.train optimizer."""
    if isinstance(identifier, Optimizer):
        return identifier
    if isinstance(identifier, _TFOptimizerBase):
        return TFOptimizer(identifier)
    if isinstance(identifier, str) and identifier.lower() in _BY_NAME:
        return _BY_NAME[identifier.lower()]()
    raise ValueError(f"Could not interpret optimizer identifier: {identifier}")
