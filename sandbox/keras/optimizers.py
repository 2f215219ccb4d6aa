"""keras.optimizers -- mirrors TensorFlow 1.15's python/keras/optimizers.py and the
optimizer_v2 classes it exports (SGD, Adam, RMSprop, Adagrad, Adadelta, Adamax, Nadam, Ftrl),
with Keras's argument names and defaults.

In TF-1 graph mode an optimizer's job is to add the update ops of one training step; here
each Keras optimizer does that with the tf.train optimizer of the same algorithm
(GradientDescentOptimizer or MomentumOptimizer, AdamOptimizer, RMSPropOptimizer,
AdagradOptimizer, AdadeltaOptimizer, FtrlOptimizer), so its slots are ordinary variables that
replica_device_setter places next to their weights. Adamax and Nadam have no tf.train
optimizer: _AdamaxUpdates and _NadamUpdates below write their update rules as ops. A weight
with a constraint (kernel_constraint=...) gets `var.assign(constraint(var))` after its update
(tf.train's Optimizer does that). `get('adam')` makes one from its name; a tf.train optimizer
passed to compile is wrapped in TFOptimizer. `iterations` counts the steps taken.

The learning rate is a variable ('learning_rate:0', made on first use: by the training step
or by reading `optimizer.lr`), so it can change between steps without rebuilding anything:
`keras.backend.set_value(model.optimizer.lr, 0.01)` -- what LearningRateScheduler and
ReduceLROnPlateau do (keras/callbacks.py); get_config reports the value it holds.

A saved model keeps the optimizer's state as TF's optimizer_v2 lists it in
`optimizer.weights`: iterations, then each slot for every weight, slot after slot (Adam: all
the m, then all the v), so an .h5 file moves between TF and the sandbox; set_weights writes
them back (and Adam's beta powers follow from iterations). serialize / deserialize give
{'class_name': 'Adam', 'config': get_config()} and back.
"""
import numpy as np

from ..framework import dtypes as _dtypes
from ..framework.graph import get_default_graph
from ..framework.tensor import convert_to_tensor
from ..ops import basic_math_ops, clip_ops, math_ops, state_ops
from ..ops import variables as _variables
from ..ops.control_flow_ops import identity
from ..train import adadelta, adagrad, adam, ftrl, gradient_descent, momentum, rmsprop
from ..train.optimizer import Optimizer as _TFOptimizerBase
from ..train.optimizer import _cast
from . import backend as K
from .serialization import accepted_arguments, deserialize_keras_object

__all__ = ["Optimizer", "SGD", "Adam", "RMSprop", "Adagrad", "Adadelta", "Adamax", "Nadam",
           "Ftrl", "TFOptimizer", "get", "serialize", "deserialize"]


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

    # -- the learning rate: a variable of the model's graph ------------------------------------
    @property
    def learning_rate(self):
        """The variable 'learning_rate:0' of the default graph (made, from the value given to
        __init__, the first time it is asked for)."""
        var = self.__dict__.get("_lr_var")
        if var is None or var.graph is not get_default_graph():
            var = self._lr_var = _variables.Variable(np.float32(self._lr_value),
                                                     dtype=_dtypes.float32,
                                                     name="learning_rate", trainable=False)
        return var

    @learning_rate.setter
    def learning_rate(self, value):
        var = self.__dict__.get("_lr_var")
        if var is not None and var.graph is get_default_graph():
            K.set_value(var, value)
        self._lr_value = float(value)

    lr = learning_rate                       # Keras's older name of the same thing

    def _serialized_learning_rate(self):
        """get_config's learning rate: the variable's value once it exists (so a rate a
        callback changed is saved), written as given while it is still that value."""
        var = self.__dict__.get("_lr_var")
        if var is None or var.graph is not get_default_graph():
            return self._lr_value
        value = K.get_value(var)
        return self._lr_value if value == np.float32(self._lr_value) else float(value)

    def _create_state(self):
        """Variables the step reads besides the slots, made in the optimizer's name scope
        (under 'training/<name>/'): the learning rate (unless `lr` was read before)."""
        self._lr_var = self.learning_rate

    def _make(self):
        raise NotImplementedError

    def get_updates(self, loss, params):
        """The op that computes the gradients of `loss` and applies them to `params`."""
        graph = get_default_graph()
        if self.iterations is not None and self.iterations.graph is not graph:
            self.iterations = None                  # a model of another graph (clear_session)
            if not isinstance(self, TFOptimizer):
                self._tf_optimizer = None
        if self.iterations is None:
            with graph.name_scope(self._name):
                self.iterations = _variables.Variable(0, dtype=_dtypes.int64, name="iter",
                                                      trainable=False)
                self._create_state()
        if self._tf_optimizer is None:
            self._tf_optimizer = self._make()
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

    _slots_by_weight = False     # TF lists the slots slot by slot (all m, then all v) ...
    _extra_weights = ()          # ... after iterations and these attributes (Nadam's cache)

    @property
    def weights(self):
        """[iterations] + each slot of each weight, slot by slot (weight by weight for Ftrl)
        -- empty before the first training step is built."""
        if self.iterations is None or self._tf_optimizer is None:
            return []
        found = [self.iterations] + [getattr(self, name) for name in self._extra_weights]
        pairs = [(slot, var) for slot in self._slot_names() for var in self._params]
        if self._slots_by_weight:
            pairs = [(slot, var) for var in self._params for slot in self._slot_names()]
        found.extend(self._tf_optimizer.get_slot(var, slot) for slot, var in pairs)
        return [v for v in found if v is not None]

    def _checkpoint_dependencies(self):
        """What tf.train.Checkpoint saves of it: 'iter', then its other own variables."""
        if self.iterations is None:
            return []
        deps = [("iter", self.iterations)]
        lr = self.__dict__.get("_lr_var")
        if lr is not None and lr.graph is self.iterations.graph:
            deps.append(("learning_rate", lr))
        # (TF's keeps decay, momentum ... as variables too; here they are numbers)
        return deps + [(name, getattr(self, name)) for name in self._extra_weights]

    def _checkpoint_slots(self, variables):
        if self._tf_optimizer is None:
            return []
        return self._tf_optimizer._checkpoint_slots(variables)

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
        return {"name": self._name, "learning_rate": self._serialized_learning_rate(),
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
        return {"name": self._name, "learning_rate": self._serialized_learning_rate(),
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
        return {"name": self._name, "learning_rate": self._serialized_learning_rate(),
                "rho": self.rho, "momentum": self.momentum, "epsilon": self.epsilon,
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
        return {"name": self._name, "learning_rate": self._serialized_learning_rate(),
                "initial_accumulator_value": self.initial_accumulator_value}


class Adadelta(Optimizer):
    """Adadelta: steps scaled per weight by RMS(past updates) / RMS(gradients); TF's default
    learning rate 0.001 (the paper's is 1.0)."""
    _default_name = "Adadelta"

    def __init__(self, learning_rate=0.001, rho=0.95, epsilon=1e-7, name="Adadelta", **kwargs):
        self.learning_rate = self._learning_rate(learning_rate, kwargs)
        super().__init__(name, **kwargs)
        self.rho, self.epsilon = rho, epsilon

    def _make(self):
        return adadelta.AdadeltaOptimizer(self.learning_rate, rho=self.rho,
                                          epsilon=self.epsilon, name=self._name)

    def _slot_names(self):
        return ("accum", "accum_update")     # TF 2's accum_grad and accum_var

    def get_config(self):
        return {"name": self._name, "learning_rate": self._serialized_learning_rate(),
                "rho": self.rho, "epsilon": self.epsilon}


class Adamax(Optimizer):
    """Adamax: Adam with the infinity norm -- v is the running max of |grad|."""
    _default_name = "Adamax"

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7,
                 name="Adamax", **kwargs):
        self.learning_rate = self._learning_rate(learning_rate, kwargs)
        super().__init__(name, **kwargs)
        self.beta_1, self.beta_2, self.epsilon = beta_1, beta_2, epsilon

    def _make(self):
        return _AdamaxUpdates(self)

    def _slot_names(self):
        return ("m", "v")

    def get_config(self):
        return {"name": self._name, "learning_rate": self._serialized_learning_rate(),
                "beta_1": self.beta_1, "beta_2": self.beta_2, "epsilon": self.epsilon}


class Nadam(Optimizer):
    """Nadam: Adam with Nesterov momentum, whose momentum coefficient warms up by the
    schedule beta_1 * (1 - 0.5 * 0.96 ** (0.004 * step)); `momentum_cache` is the product of
    the coefficients so far. Its 'decay' (schedule_decay, 0.004) is that schedule's, not a
    learning rate decay."""
    _default_name = "Nadam"
    _extra_weights = ("momentum_cache",)

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7,
                 name="Nadam", **kwargs):
        self.learning_rate = self._learning_rate(learning_rate, kwargs)
        kwargs.pop("decay", None)                    # TF resets it to schedule_decay too
        self.schedule_decay = float(kwargs.pop("schedule_decay", 0.004))
        super().__init__(name, **kwargs)
        self.beta_1, self.beta_2, self.epsilon = beta_1, beta_2, epsilon
        self.momentum_cache = None

    def _create_state(self):
        super()._create_state()
        self.momentum_cache = _variables.Variable(1.0, dtype=_dtypes.float32,
                                                  name="momentum_cache", trainable=False)

    def _make(self):
        return _NadamUpdates(self)

    def _slot_names(self):
        return ("m", "v")

    def get_config(self):
        return {"name": self._name, "learning_rate": self._serialized_learning_rate(),
                "decay": self.schedule_decay, "beta_1": self.beta_1, "beta_2": self.beta_2,
                "epsilon": self.epsilon}


class Ftrl(Optimizer):
    """FTRL-Proximal (tf.train.FtrlOptimizer): each weight recomputed from its accumulated
    gradients; l1 > 0 makes weights exactly 0."""
    _default_name = "Ftrl"
    _slots_by_weight = True                  # TF: accumulator and linear of each weight

    def __init__(self, learning_rate=0.001, learning_rate_power=-0.5,
                 initial_accumulator_value=0.1, l1_regularization_strength=0.0,
                 l2_regularization_strength=0.0, name="Ftrl",
                 l2_shrinkage_regularization_strength=0.0, **kwargs):
        self.learning_rate = self._learning_rate(learning_rate, kwargs)
        super().__init__(name, **kwargs)
        self.learning_rate_power = learning_rate_power
        self.initial_accumulator_value = initial_accumulator_value
        self.l1_regularization_strength = l1_regularization_strength
        self.l2_regularization_strength = l2_regularization_strength
        self.l2_shrinkage_regularization_strength = l2_shrinkage_regularization_strength
        self._ftrl(self._lr_value)                   # tf.train's checks of the arguments

    def _make(self):
        return self._ftrl(self.learning_rate)

    def _ftrl(self, learning_rate):
        return ftrl.FtrlOptimizer(
            learning_rate, self.learning_rate_power,
            self.initial_accumulator_value, self.l1_regularization_strength,
            self.l2_regularization_strength, name=self._name,
            l2_shrinkage_regularization_strength=self.l2_shrinkage_regularization_strength)

    def _slot_names(self):
        return ("accum", "linear")

    def get_config(self):
        return {"name": self._name, "learning_rate": self._serialized_learning_rate(),
                "initial_accumulator_value": self.initial_accumulator_value,
                "learning_rate_power": self.learning_rate_power,
                "l1_regularization_strength": self.l1_regularization_strength,
                "l2_regularization_strength": self.l2_regularization_strength,
                "l2_shrinkage_regularization_strength":
                    self.l2_shrinkage_regularization_strength}


# -- update rules tf.train does not have --------------------------------------------------------

class _KerasRuleUpdates(_TFOptimizerBase):
    """A tf.train Optimizer that applies a Keras optimizer's rule, reading its hyper-parameters
    and step count (`keras_optimizer.iterations`) from it; slots 'm' and 'v' start at 0."""

    def __init__(self, keras_optimizer):
        super().__init__(False, keras_optimizer._name)
        self._keras = keras_optimizer

    def _create_slots(self, var_list):
        for v in var_list:
            self._zeros_slot(v, "m", self._name)
        for v in var_list:
            self._zeros_slot(v, "v", self._name)

    def _prepare(self):
        keras = self._keras
        self._lr_t = identity(keras.learning_rate)
        self._step = math_ops.cast(keras.iterations + 1, _dtypes.float32)   # t = 1, 2, ...
        self._beta_1 = convert_to_tensor(float(keras.beta_1))
        self._beta_2 = convert_to_tensor(float(keras.beta_2))
        self._epsilon = convert_to_tensor(float(keras.epsilon))

    def _apply_dense(self, grad, var):
        dtype = var.dtype.base_dtype
        hyper = [_cast(t, dtype) for t in (self._lr_t, self._step, self._beta_1, self._beta_2,
                                           self._epsilon)]
        return self._rule(grad, var, self.get_slot(var, "m"), self.get_slot(var, "v"), *hyper)


class _AdamaxUpdates(_KerasRuleUpdates):
    """Adamax's step (TF's ApplyAdaMax):
        m   = beta_1 * m + (1 - beta_1) * grad
        v   = max(beta_2 * v, |grad|)
        var -= lr / (1 - beta_1 ** t) * m / (v + epsilon)"""

    def _rule(self, grad, var, m, v, lr_t, step, beta_1, beta_2, epsilon):
        m_t = state_ops.assign(m, beta_1 * m + (1. - beta_1) * grad)
        v_t = state_ops.assign(v, basic_math_ops.maximum(beta_2 * v, basic_math_ops.abs(grad)))
        step_size = lr_t / (1. - math_ops.pow(beta_1, step))
        return state_ops.assign_sub(var, step_size * m_t / (v_t + epsilon)).op


class _NadamUpdates(_KerasRuleUpdates):
    """Nadam's step (TF's optimizer_v2/nadam.py), with mu_t = beta_1 * (1 - 0.5 * 0.96 **
    (0.004 * t)) and the cache (the product mu_1 ... mu_t) updated once a step:
        m   = beta_1 * m + (1 - beta_1) * grad;   v = beta_2 * v + (1 - beta_2) * grad ** 2
        m_bar = (1 - mu_t) * grad / (1 - cache) + mu_{t+1} * m / (1 - cache * mu_{t+1})
        var -= lr * m_bar / (sqrt(v / (1 - beta_2 ** t)) + epsilon)"""

    def _prepare(self):
        super()._prepare()
        decay = self._keras.schedule_decay
        self._mu_t = self._beta_1 * (1. - 0.5 * math_ops.pow(0.96, decay * self._step))
        self._mu_next = self._beta_1 * (1. - 0.5 * math_ops.pow(0.96, decay * (self._step + 1.)))
        cache = self._keras.momentum_cache
        self._schedule_new = identity(state_ops.assign(cache, cache * self._mu_t))
        self._schedule_next = self._schedule_new * self._mu_next

    def _rule(self, grad, var, m, v, lr_t, step, beta_1, beta_2, epsilon):
        dtype = var.dtype.base_dtype
        mu_t, mu_next, new, following = (_cast(t, dtype) for t in (
            self._mu_t, self._mu_next, self._schedule_new, self._schedule_next))
        m_t = state_ops.assign(m, beta_1 * m + (1. - beta_1) * grad)
        v_t = state_ops.assign(v, beta_2 * v + (1. - beta_2) * basic_math_ops.square(grad))
        m_bar = (1. - mu_t) * (grad / (1. - new)) + mu_next * (m_t / (1. - following))
        v_hat = v_t / (1. - math_ops.pow(beta_2, step))
        return state_ops.assign_sub(var, lr_t * m_bar / (basic_math_ops.sqrt(v_hat) + epsilon)).op


class TFOptimizer(Optimizer):
    """A tf.train optimizer used by a Keras model (compile(optimizer=tf.train.AdamOptimizer()))."""

    def __init__(self, optimizer):
        super().__init__(name=optimizer.get_name())
        self.optimizer = optimizer
        self._tf_optimizer = optimizer

    @property
    def learning_rate(self):
        return getattr(self.optimizer, "_learning_rate", None)

    @property
    def lr(self):
        raise AttributeError("a tf.train optimizer has no Keras `lr` variable: use a "
                             "keras.optimizers optimizer to change the learning rate")

    def _create_state(self):
        """The tf.train optimizer keeps its own learning rate."""


_BY_NAME = {"sgd": SGD, "adam": Adam, "rmsprop": RMSprop, "adagrad": Adagrad,
            "adadelta": Adadelta, "adamax": Adamax, "nadam": Nadam, "ftrl": Ftrl}
_CLASSES = {cls.__name__: cls for cls in (SGD, Adam, RMSprop, Adagrad, Adadelta, Adamax,
                                          Nadam, Ftrl)}


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
