"""The Keras Layer -- mirrors TensorFlow 1.15's python/keras/engine/base_layer.py (and
input_layer.py: InputLayer and Input).

In TF 1.15 the tf.layers classes are subclasses of the Keras ones; the sandbox has tf.layers
(sandbox/layers/) and builds Keras on them the other way round: a Keras layer is its tf.layers
class with this Layer mixed in, which changes how it is named and called:

  * Names come from Keras's per-graph counter, zero-based: 'dense', 'dense_1', ... and the
    layer's variables live in the variable scope of exactly that name: 'dense/kernel:0',
    'dense_1/bias:0' (tf.layers would say layer 'dense_1' with variables 'dense/...').
  * `input_shape=(784,)` (or batch_input_shape, batch_size) tells a model's first layer the
    shape of its input.
  * Each call records its input and output tensors (layer.input, layer.output,
    layer.output_shape), which the functional API and summary() read.
  * get_weights() / set_weights() move numpy values through keras.backend's session.

Variables are still made with tf.get_variable, so replica_device_setter places them.

Saving (mirrors base_layer.get_config / from_config): get_config() is the dict of arguments
that makes the layer again -- name, trainable, (batch_input_shape,) dtype, then the class's
`_config_keys`, each read from the attribute of that name, initializers / regularizers /
activations serialized as keras/serialization.py says -- and `cls.from_config(config)` is
`cls(**config)`. A subclass whose __init__ takes arguments and that neither lists
`_config_keys` nor overrides get_config cannot be saved: NotImplementedError, as in TF.

Masks: a layer's output may carry `_keras_mask` (Embedding(mask_zero=True) makes one); the
next layer gets it as call(..., mask=) when its call takes `mask`, and passes it on when it
`supports_masking` (compute_mask), as TF's base_layer does.
"""
import inspect

from ...framework.graph import GraphKeys
from ...framework.tensor_shape import TensorShape
from ...layers import base as _tf_base
from ...ops import variable_scope as vs
from .. import activations, constraints, initializers, regularizers
from .. import backend as K

__all__ = ["Layer", "InputLayer", "Input", "WeightsOfInner"]


def _serialize_value(key, value):
    """A config entry: initializers, regularizers, constraints as {'class_name', 'config'},
    activations by name, anything else as it is."""
    if key.endswith("_initializer"):
        return initializers.serialize(value)
    if key.endswith("_regularizer"):
        return regularizers.serialize(value)
    if key.endswith("_constraint"):
        return constraints.serialize(constraints.get(value))
    if key in ("activation", "recurrent_activation"):
        return activations.serialize(value)
    return value


# Attributes that hold layers the layer does not own: what a model's calls went through
_UNTRACKED = frozenset(("_inbound",))


# Keys that TF 2.x writes in layer configs and TF 1.15 did not have; at these values they
# change nothing, so a TF 2 file loads (other values are not in the sandbox and fail).
_NEWER_KEYS = {"groups": 1, "keepdims": False, "ragged": False}


class Layer(_tf_base.Layer):
    """Base class of the Keras layers: subclasses define build(input_shape) and call(inputs)."""
    _config_keys = ()       # the __init__ arguments get_config saves (after name ... dtype)

    def __init__(self, trainable=True, name=None, dtype=None, **kwargs):
        batch_input_shape = kwargs.pop("batch_input_shape", None)
        input_shape = kwargs.pop("input_shape", None)
        batch_size = kwargs.pop("batch_size", None)
        kwargs.pop("input_dim", None)
        if batch_input_shape is None and input_shape is not None:
            batch_input_shape = (batch_size,) + tuple(input_shape)
        self._batch_input_shape = (None if batch_input_shape is None
                                   else tuple(batch_input_shape))
        self._inbound = []           # [(input tensors, output tensors)], one per call
        super().__init__(trainable=trainable, name=name, dtype=dtype, **kwargs)

    def _init_set_name(self, name):
        if not name:
            name = K.unique_object_name(_tf_base.to_snake_case(type(self).__name__))
        self._name = self._base_name = name

    def _set_scope(self, scope=None):
        if self._scope is None:
            if scope is None:
                # a second layer of one name (a model loaded next to the one saved): its
                # weights go to 'dense_1/kernel:0', as TF 1.15's keras puts them
                taken = {v.op.name.split("/")[0] for v in
                         K.get_graph().get_collection(GraphKeys.GLOBAL_VARIABLES)}
                scope, count = self._name, 0
                while scope in taken:
                    count += 1
                    scope = f"{self._name}_{count}"
            with vs.variable_scope(scope) as captured:
                self._scope = captured

    def __call__(self, inputs, *args, **kwargs):
        if isinstance(inputs, (list, tuple)):
            raise NotImplementedError(f"Layer {self.name}: of the layers with several inputs "
                                      "the sandbox's keras has the merge layers (Concatenate, "
                                      "Add, ...)")
        mask = getattr(inputs, "_keras_mask", None)
        if mask is not None and self._call_takes_mask() and "mask" not in kwargs:
            kwargs["mask"] = mask
        outputs = super().__call__(inputs, *args, **kwargs)
        out_mask = self.compute_mask(inputs, mask)
        if out_mask is not None:
            try:
                outputs._keras_mask = out_mask
            except AttributeError:
                pass
        self._inbound.append((inputs, outputs))
        K._state(outputs.graph)["history"][id(outputs)] = (outputs, self, inputs)
        return outputs

    # -- masks (Embedding(mask_zero=True) -> pooling / RNN layers) ---------------------------
    supports_masking = False

    def _call_takes_mask(self):
        return "mask" in inspect.signature(self.call).parameters

    def compute_mask(self, inputs, mask=None):
        """The mask of the outputs: the input's, passed on by layers that support masking
        (TF keeps it as the output tensor's `_keras_mask`)."""
        return mask if self.supports_masking else None

    def add_weight(self, name=None, shape=None, dtype=None, initializer=None,
                   regularizer=None, trainable=None, constraint=None, **kwargs):
        """A variable of this layer, 'layer_name/name:0'; `initializer` may be a name
        ('zeros', 'glorot_uniform') as in Keras, and `constraint` a name ('max_norm') or a
        serialized constraint: the optimizer imposes it after each update."""
        return super().add_weight(name, shape, dtype=dtype,
                                  initializer=initializers.get(initializer),
                                  regularizer=regularizer, trainable=trainable,
                                  constraint=constraints.get(constraint), **kwargs)

    # -- layers inside a layer (a block of layers, a subclassed Model) ---------------------
    def _attributes_with_layers(self):
        """(name, value, the Keras layers in it) of each attribute that holds layers --
        directly, or in a list, tuple or dict -- in the order they were set (TF 1.15's Layer
        tracks them as they are assigned: `self.dense = Dense(8)` in __init__)."""
        for key, value in vars(self).items():
            if key in _UNTRACKED:
                continue
            items = list(value.values()) if isinstance(value, dict) else \
                value if isinstance(value, (list, tuple)) else (value,)
            layers = [item for item in items if isinstance(item, Layer) and item is not self]
            if layers:
                yield key, value, layers

    def _nested_layers(self):
        """The Keras layers this layer holds in its attributes, each once. Their weights,
        updates and losses are this layer's too, after its own."""
        found, seen = [], set()
        for _, _, layers in self._attributes_with_layers():
            for layer in layers:
                if id(layer) not in seen:
                    seen.add(id(layer))
                    found.append(layer)
        return found

    def _with_nested(self, own, attribute):
        """`own` (a list), then each nested layer's `attribute`, each item once."""
        out, seen = list(own), set(map(id, own))
        for layer in self._nested_layers():
            for item in getattr(layer, attribute):
                if id(item) not in seen:
                    seen.add(id(item))
                    out.append(item)
        return out

    @property
    def trainable_weights(self):
        if not self.trainable:
            return []
        return self._with_nested(self._trainable_weights, "trainable_weights")

    @property
    def non_trainable_weights(self):
        if self.trainable:
            return self._with_nested(self._non_trainable_weights, "non_trainable_weights")
        return self._with_nested(self._trainable_weights + self._non_trainable_weights,
                                 "weights")

    @property
    def updates(self):
        return self._with_nested(self._updates, "updates")

    @property
    def losses(self):
        return self._with_nested(self._losses, "losses")

    def _checkpoint_dependencies(self):
        """What tf.train.Checkpoint saves of it (train/checkpoint.py): the layers (and lists
        of layers) in its attributes, by attribute name, then its own weights by their names
        ('kernel', 'bias'), as TF's tracking names them."""
        deps = [(key, value) for key, value, _ in self._attributes_with_layers()]
        for weight in self._trainable_weights + self._non_trainable_weights:
            deps.append((weight.op.name.rsplit("/", 1)[-1], weight))
        return deps

    # -- what the model and summary() read -------------------------------------------------
    def _last(self, which, attribute):
        if not self._inbound:
            raise AttributeError(f"Layer {self.name} is not connected, no input to return."
                                 if which == 0 else
                                 f"Layer {self.name} has no inbound nodes.")
        if len(self._inbound) > 1:
            raise AttributeError(f"Layer {self.name} has multiple inbound nodes, hence the "
                                 f"notion of \"layer {attribute}\" is ill-defined. Use "
                                 f"`get_{attribute}_at(node_index)` instead.")
        return self._inbound[0][which]

    @property
    def input(self):
        return self._last(0, "input")

    @property
    def output(self):
        return self._last(1, "output")

    @property
    def input_shape(self):
        return tuple(self.input.get_shape().as_list())

    @property
    def output_shape(self):
        return tuple(self.output.get_shape().as_list())

    def compute_output_shape(self, input_shape):
        return TensorShape(input_shape)

    # -- numpy values of the weights ------------------------------------------------------
    def get_weights(self):
        return K.batch_get_value(self.weights)

    def set_weights(self, weights):
        params = self.weights
        if len(params) != len(weights):
            raise ValueError(f'You called `set_weights(weights)` on layer "{self.name}" with a '
                             f"weight list of length {len(weights)}, but the layer was expecting "
                             f"{len(params)} weights. Provided weights: {str(weights)[:50]}...")
        K.batch_set_value(zip(params, weights))

    # -- saving -----------------------------------------------------------------------------
    def _config_value(self, key):
        return getattr(self, key)

    def get_config(self):
        """The arguments that make this layer again (TF 1.15's keys and order)."""
        config = {"name": self.name, "trainable": self.trainable}
        if self._batch_input_shape is not None:
            config["batch_input_shape"] = self._batch_input_shape
        config["dtype"] = self.dtype.name if self.dtype is not None else K.floatx()
        if not self._config_keys and type(self).get_config is Layer.get_config:
            params = inspect.signature(type(self).__init__).parameters.values()
            if any(p.name != "self" and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
                   and p.name not in config for p in params):
                raise NotImplementedError(
                    "Layers with arguments in `__init__` must override `get_config`. "
                    f"({type(self).__name__}: return a dict of the arguments, e.g. "
                    "{**super().get_config(), 'units': self.units}; load_model then needs "
                    f"custom_objects={{'{type(self).__name__}': {type(self).__name__}}}.)")
        for key in self._config_keys:
            config[key] = _serialize_value(key, self._config_value(key))
        return config

    @classmethod
    def from_config(cls, config):
        """The layer that `config` (get_config's dict) describes: cls(**config)."""
        config = dict(config)
        for key, default in _NEWER_KEYS.items():
            if key in config and config[key] == default:
                del config[key]
        for key, value in config.items():
            if key.endswith("_constraint"):
                config[key] = constraints.get(value)
        return cls(**config)


class WeightsOfInner:
    """For a layer whose weights are another layer's -- a Wrapper's `layer`, an RNN's `cell`
    (the attribute named by `_inner`): its weights and losses are the inner layer's, as in TF."""
    _inner = "layer"

    @property
    def trainable_weights(self):
        return getattr(self, self._inner).trainable_weights if self.trainable else []

    @property
    def non_trainable_weights(self):
        inner = getattr(self, self._inner)
        return inner.non_trainable_weights if self.trainable else inner.weights

    @property
    def weights(self):
        return self.trainable_weights + self.non_trainable_weights

    @property
    def trainable_variables(self):
        return self.trainable_weights

    @property
    def variables(self):
        return self.weights

    @property
    def losses(self):
        return list(self._losses) + getattr(self, self._inner).losses


class InputLayer(Layer):
    """The layer of a model's input: a placeholder of shape batch_input_shape."""

    def __init__(self, input_shape=None, batch_size=None, dtype=None, input_tensor=None,
                 sparse=False, name=None, batch_input_shape=None, ragged=False, **kwargs):
        if sparse or ragged:
            raise NotImplementedError("sparse and ragged inputs are not in the sandbox's keras")
        if not name:
            name = f"input_{K.get_uid('input')}"
        if batch_input_shape is None and input_shape is not None:
            batch_input_shape = (batch_size,) + tuple(input_shape)
        super().__init__(name=name, dtype=dtype or K.floatx(), trainable=False, **kwargs)
        if input_tensor is None:
            input_tensor = K.placeholder(shape=batch_input_shape, dtype=dtype or K.floatx(),
                                         name=self.name)
        self._batch_input_shape = tuple(input_tensor.get_shape().as_list())
        self.built = True
        self._inbound.append((input_tensor, input_tensor))
        K._state(input_tensor.graph)["history"][id(input_tensor)] = (input_tensor, self, None)

    def __call__(self, *args, **kwargs):
        raise TypeError("An InputLayer is not called: its output is its placeholder")

    def get_config(self):
        return {"batch_input_shape": self._batch_input_shape, "dtype": self.dtype.name,
                "sparse": False, "name": self.name}


def Input(shape=None, batch_size=None, name=None, dtype=None, sparse=False, tensor=None,
          batch_shape=None, **kwargs):
    """A symbolic input of a functional model: the placeholder of a new InputLayer
    (`keras.Input(shape=(784,))` -> Tensor 'input_1:0' of shape (None, 784))."""
    if kwargs:
        raise ValueError(f"Unrecognized keyword arguments: {list(kwargs)}")
    if shape is None and batch_shape is None and tensor is None:
        raise ValueError("Please provide to Input either a `shape` or a `batch_shape` "
                         "argument. Note that `shape` does not include the batch dimension.")
    layer = InputLayer(input_shape=shape, batch_size=batch_size, name=name, dtype=dtype,
                       input_tensor=tensor, batch_input_shape=batch_shape)
    return layer.output
