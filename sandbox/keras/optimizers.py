"""keras.optimizers -- mirrors TensorFlow 1.15's python/keras/optimizers.py and the
optimizer_v2 classes it exports (SGD, Adam, RMSprop, Adagrad), with Keras's argument names
and defaults.

In TF-1 graph mode an optimizer's job is to add the update ops of one training step; here
each Keras optimizer does that with the tf.train optimizer of the same algorithm
(GradientDescentOptimizer or MomentumOptimizer, AdamOptimizer, RMSPropOptimizer,
AdagradOptimizer), so its slots are ordinary variables that replica_device_setter places
next to their weights. `get('adam')` makes one from its name; a tf.train optimizer passed to
compile is wrapped in TFOptimizer. `iterations` counts the steps taken.

A saved model keeps the optimizer's state as TF's optimizer_v2 lists it in
`optimizer.weights`: iterations, then each slot for every weight, slot after slot (Adam: all
the m, then all the v), so an .h5 file moves between TF and the sandbox; set_weights writes
them back (and Adam's beta powers follow from iterations). serialize / deserialize give
{'class_name': 'Adam', 'config': get_config()} and back.
"""
import numpy as np

from ..framework import dtypes as _dtypes
from ..framework.graph import get_default_graph
from ..ops import clip_ops
from ..ops import variables as _variables
from ..train import adagrad, adam, gradient_descent, momentum, rmsprop
from ..train.optimizer import Optimizer as _TFOptimizerBase
from . import backend as K
from .serialization import accepted_arguments, deserialize_keras_object

__all__ = ["Optimizer", "SGD", "Adam", "RMSprop", "Adagrad", "TFOptimizer", "get",
           "serialize", "deserialize"]


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
        self._params = []

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
        self._params = list(params)
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

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """The optimizer of `config`; arguments of other TF versions' optimizers that the
        sandbox's do not take (TF 2's weight_decay, jit_compile, is_legacy_optimizer ...) are
        left out."""
        extra = {k: v for k, v in config.items() if k in ("clipnorm", "clipvalue", "decay")
                 and v}
        return cls(**{**accepted_arguments(cls, config), **extra})

    # -- state -------------------------------------------------------------------------------
    def _slot_names(self):
        """The tf.train optimizer's slots that are Keras weights, in TF's order."""
        return ()

    @property
    def weights(self):
        """[iterations] + each slot of each weight, slot by slot (empty before the first
        training step is built)."""
        if self.iterations is None or self._tf_optimizer is None:
            return []
        found = [self.iterations]
        for slot in self._slot_names():
            found.extend(self._tf_optimizer.get_slot(var, slot) for var in self._params)
        return [v for v in found if v is not None]

    def get_weights(self):
        return K.batch_get_value(self.weights)

    def set_weights(self, weights):
        """Writes values (as get_weights returns them) into the optimizer's state."""
        params = self.weights
        if len(params) != len(weights):
            raise ValueError(f"You called `set_weights(weights)` on optimizer {self._name} "
                             f"with a  weight list of length {len(weights)}, but the optimizer "
                             f"was expecting {len(params)} weights. Provided weights: "
                             f"{str(weights)[:50]}...")
        for param, value in zip(params, weights):
            if tuple(param.get_shape().as_list()) != tuple(np.shape(value)):
                raise ValueError(f"Optimizer weight shape {tuple(param.get_shape().as_list())} "
                                 f"not compatible with provided weight shape "
                                 f"{np.shape(value)}")
        K.batch_set_value(zip(params, weights))
        self._after_set_weights(int(np.asarray(weights[0])))

    def _after_set_weights(self, iterations):
        """State the tf.train optimizer keeps beside the Keras weights."""

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

    def _slot_names(self):
        return ("momentum",) if self.momentum or self.nesterov else ()

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

    def _slot_names(self):
        return ("m", "v")

    def _after_set_weights(self, iterations):
        # tf.train's Adam keeps beta ** (steps + 1) in two variables; TF 2 computes it
        beta1_power, beta2_power = self._tf_optimizer._get_beta_accumulators()
        K.batch_set_value([(beta1_power, np.float32(self.beta_1) ** (iterations + 1)),
                           (beta2_power, np.float32(self.beta_2) ** (iterations + 1))])

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

    def _slot_names(self):
        return ("rms",) + (("momentum",) if self.momentum else ()) + (
            ("mg",) if self.centered else ())

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

    def _slot_names(self):
        return ("accumulator",)

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
_CLASSES = {cls.__name__: cls for cls in (SGD, Adam, RMSprop, Adagrad)}


def serialize(optimizer):
    return {"class_name": type(optimizer).__name__, "config": optimizer.get_config()}


def deserialize(config, custom_objects=None):
    """The optimizer of {'class_name': 'Adam', 'config': {...}} (class names of any case)."""
    table = dict(_CLASSES, **{name: cls for name, cls in _BY_NAME.items()})
    config = dict(config, class_name=config["class_name"].lower()
                  if config["class_name"].lower() in _BY_NAME else config["class_name"])
    return deserialize_keras_object(config, module_objects=table,
                                    custom_objects=custom_objects,
                                    printable_module_name="optimizer")


def get(identifier):
    """An optimizer from compile's `optimizer=`: a name, a Keras or a tf.train optimizer."""
    if isinstance(identifier, Optimizer):
        return identifier
    if isinstance(identifier, _TFOptimizerBase):
        return TFOptimizer(identifier)
    if isinstance(identifier, str) and identifier.lower() in _BY_NAME:
        return _BY_NAME[identifier.lower()]()
    raise ValueError(f"Could not interpret optimizer identifier: {identifier}")
