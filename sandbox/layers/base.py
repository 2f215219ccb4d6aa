"""The Layer base class of `tf.layers` -- mirrors TensorFlow 1.15's python/layers/base.py (with
the parts of python/keras/engine/base_layer.py and input_spec.py it builds on).

A layer is an object that owns variables and builds ops from them each time it is called:

    layer = tf.layers.Dense(10)          # no variables yet
    y1 = layer(x1)                       # first call: build() makes dense/kernel, dense/bias
    y2 = layer(x2)                       # later calls reuse them

How a layer names things, as TF 1.15 does:

  * The *variable scope* is chosen at the first call: `variable_scope(None, default_name=
    'dense')`, so the first Dense of a scope gets 'dense', the next 'dense_1' ... Its
    variables are made with tf.get_variable inside it ('dense/kernel'), so device functions
    such as replica_device_setter see them like any other variable and put them on a ps.
  * Every op the layer builds goes into that scope's original name scope ('dense/MatMul';
    a second call of the same layer gives 'dense/MatMul_1').
  * `layer.name` is another counter, Keras's: 'dense_1', 'dense_2' ... per graph and class
    (so a layer named 'dense_1' may own the variables 'dense/...' -- TF's own surprise).
  * `name=` fixes the base name; `reuse=True` (the functional forms' argument) re-opens the
    variable scope of that name and finds the variables instead of creating them.

After each call the layer's update ops (batch normalization's moving averages) are added to
tf.GraphKeys.UPDATE_OPS, and the losses of its regularizers to REGULARIZATION_LOSSES.

`training` (dropout, batch normalization) is a Python bool or a bool tensor. TF chooses with
tf.cond; the sandbox has no tf.cond, so a tensor whose value the graph does not fix selects
with tf.where between both branches (`select_on`): both are computed, one is used. Batch
normalization's branches have no side effects, so the results are TF's.
"""
import re

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework.graph import GraphKeys, get_default_graph
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tensor_util import constant_value
from ..ops import array_ops, basic_math_ops, comparison_ops, init_ops, math_ops, nn_ops
from ..ops import variable_scope as vs
from ..ops.variables import Variable

__all__ = ["Layer", "InputSpec"]

_NAME_UIDS_KEY = ("__layer_name_uids",)     # a graph collection, as variable_scope keeps its own


# -- names -------------------------------------------------------------------------------

def to_snake_case(name):
    """'MaxPooling2D' -> 'max_pooling2d', 'BatchNormalization' -> 'batch_normalization'."""
    intermediate = re.sub("(.)([A-Z][a-z0-9]+)", r"\1_\2", name)
    insecure = re.sub("([a-z])([A-Z])", r"\1_\2", intermediate).lower()
    return insecure if insecure[0] != "_" else "private" + insecure


def unique_layer_name(base_name):
    """Keras's per-graph counter of layer names: 'dense_1', 'dense_2' ... (from 1)."""
    graph = get_default_graph()
    found = graph.get_collection(_NAME_UIDS_KEY)
    if not found:
        graph.add_to_collection(_NAME_UIDS_KEY, {})
        found = graph.get_collection(_NAME_UIDS_KEY)
    uids = found[0]
    uids[base_name] = uids.get(base_name, 0) + 1
    return f"{base_name}_{uids[base_name]}"


# -- arguments -----------------------------------------------------------------------------

def normalize_tuple(value, n, name):
    """An int or n ints as a tuple of n ints (kernel_size, strides, pool_size ...)."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return (int(value),) * n
    try:
        value = tuple(value)
    except TypeError:
        raise ValueError(f"The `{name}` argument must be a tuple of {n} integers. Received: "
                         f"{value}") from None
    if len(value) != n or not all(isinstance(v, (int, np.integer)) for v in value):
        raise ValueError(f"The `{name}` argument must be a tuple of {n} integers. Received: "
                         f"{value}")
    return tuple(int(v) for v in value)


def normalize_padding(value):
    padding = value.lower() if isinstance(value, str) else value
    if padding not in ("valid", "same"):
        raise ValueError('The `padding` argument must be one of "valid", "same". Received: '
                         f"{value}")
    return padding


def normalize_data_format(value):
    data_format = (value or "channels_last").lower()
    if data_format not in ("channels_first", "channels_last"):
        raise ValueError('The `data_format` argument must be one of "channels_first", '
                         f'"channels_last". Received: {value}')
    return data_format


def channels_last_only(layer, data_format):
    """The sandbox's convolution and pooling kernels are NHWC only, as TF's CPU kernels are
    (TF 1.15 accepts channels_first and then fails when the step runs)."""
    if data_format != "channels_last":
        raise ValueError(f"Layer {layer.name}: data_format='channels_first' needs NCHW kernels, "
                         "which the sandbox (like TensorFlow's CPU kernels) does not have. Use "
                         "data_format='channels_last' with NHWC input, e.g. "
                         "tf.transpose(x, [0, 2, 3, 1]).")


def get_activation(identifier):
    """A layer's activation: None, a function, or the name of one ('relu', as Keras allows)."""
    if identifier is None or callable(identifier):
        return identifier
    table = {"relu": nn_ops.relu, "relu6": nn_ops.relu6, "elu": nn_ops.elu,
             "selu": nn_ops.selu, "softplus": nn_ops.softplus, "softsign": nn_ops.softsign,
             "softmax": nn_ops.softmax, "sigmoid": basic_math_ops.sigmoid,
             "tanh": basic_math_ops.tanh, "linear": None}
    if not isinstance(identifier, str) or identifier not in table:
        raise ValueError(f"Unknown activation function: {identifier}. Pass a function such as "
                         f"tf.nn.relu, or one of {sorted(table)}.")
    return table[identifier]


# -- training: a Python bool or a bool tensor --------------------------------------------

def training_value(training):
    """True / False when the graph fixes `training`, None when only a run decides it."""
    if isinstance(training, Variable):
        return None
    if isinstance(training, Tensor):
        value = constant_value(training)
        return None if value is None else bool(value)
    if isinstance(training, (bool, np.bool_)) or training in (0, 1):
        return bool(training)
    raise TypeError(f"`training` must be a Tensor, or a Python bool, or 1 or 0. Found instead: "
                    f"{type(training).__name__}")


def select_on(training, if_true, if_false, name=None):
    """if_true when `training` is true, else if_false: in Python when the graph fixes
    `training`, else a Select op (computing both; TF uses tf.cond)."""
    value = training_value(training)
    if value is not None:
        return if_true() if value else if_false()
    training = convert_to_tensor(training, dtype=_dtypes.bool)
    return comparison_ops.where(training, if_true(), if_false(), name=name)


# -- InputSpec -----------------------------------------------------------------------------

class InputSpec:
    """What a layer accepts: the rank (`ndim`, `min_ndim`, `max_ndim`) and the size of some
    axes (`axes={-1: 784}`), checked at every call (Keras's InputSpec)."""

    def __init__(self, dtype=None, shape=None, ndim=None, max_ndim=None, min_ndim=None,
                 axes=None):
        self.dtype = dtype
        self.shape = shape
        self.ndim = len(shape) if shape is not None else ndim
        self.max_ndim = max_ndim
        self.min_ndim = min_ndim
        self.axes = dict(axes or {})

    def __repr__(self):
        spec = [f"{k}={v}" for k, v in (("dtype", self.dtype), ("shape", self.shape),
                                        ("ndim", self.ndim), ("max_ndim", self.max_ndim),
                                        ("min_ndim", self.min_ndim), ("axes", self.axes or None))
                if v is not None]
        return f"InputSpec({', '.join(spec)})"


def assert_input_compatibility(spec, x, layer_name):
    """Raises ValueError, as Keras does, when input x does not meet `spec`."""
    if spec is None:
        return
    shape = x.get_shape()
    ndim = shape.ndims
    where = f"Input 0 of layer {layer_name} is incompatible with the layer"
    if ndim is None:
        if spec.ndim is not None or spec.min_ndim is not None or spec.axes:
            raise ValueError(f"{where}: its rank is undefined, but the layer requires a defined "
                             "rank.")
        return
    if spec.ndim is not None and ndim != spec.ndim:
        raise ValueError(f"{where}: expected ndim={spec.ndim}, found ndim={ndim}. Full shape "
                         f"received: {shape.as_list()}")
    if spec.max_ndim is not None and ndim > spec.max_ndim:
        raise ValueError(f"{where}: expected max_ndim={spec.max_ndim}, found ndim={ndim}")
    if spec.min_ndim is not None and ndim < spec.min_ndim:
        raise ValueError(f"{where}: expected min_ndim={spec.min_ndim}, found ndim={ndim}. Full "
                         f"shape received: {shape.as_list()}")
    for axis, value in spec.axes.items():
        if value is not None and shape[int(axis)].value not in (value, None):
            raise ValueError(f"{where}: expected axis {axis} of input shape to have value "
                             f"{value} but received input with shape {shape.as_list()}")


# -- Layer ---------------------------------------------------------------------------------

class Layer:
    """Base class of tf.layers: subclasses define build(input_shape), which makes variables
    with add_weight, and call(inputs, ...), which builds the ops."""

    def __init__(self, trainable=True, name=None, dtype=None, **kwargs):
        scope = kwargs.pop("_scope", None)
        self._reuse = kwargs.pop("_reuse", None)
        activity_regularizer = kwargs.pop("activity_regularizer", None)
        for key in kwargs:
            if key not in ("input_shape", "batch_input_shape", "batch_size", "weights",
                           "autocast"):
                raise TypeError(f"Keyword argument not understood: {key}")
        self.trainable = trainable
        self.built = False
        self._dtype = None if dtype is None else _dtypes.as_dtype(dtype)
        self.activity_regularizer = activity_regularizer
        self.input_spec = None
        self._trainable_weights = []
        self._non_trainable_weights = []
        self._updates = []
        self._losses = []
        self._init_set_name(name)
        if scope:
            with vs.variable_scope(scope) as captured_scope:
                self._scope = captured_scope
        else:
            self._scope = None
        self._current_scope = None

    def _init_set_name(self, name):
        if isinstance(name, vs.VariableScope):
            base_name = name.name
            self._name = unique_layer_name(to_snake_case(type(self).__name__))
        else:
            base_name = self._name = name
        if not name:
            base_name = to_snake_case(type(self).__name__)
            self._name = unique_layer_name(base_name)
        self._base_name = base_name

    # -- properties --------------------------------------------------------------------
    @property
    def name(self):
        return self._name

    @property
    def dtype(self):
        return self._dtype

    @property
    def scope_name(self):
        if not self._scope:
            raise ValueError(f'No name available for layer scope because the layer "{self._name}" '
                             "has not been used yet. The scope name is determined the first "
                             "time the layer instance is called. You must therefore call the "
                             "layer before querying `scope_name`.")
        return self._scope.name

    @property
    def trainable_weights(self):
        return list(self._trainable_weights) if self.trainable else []

    @property
    def non_trainable_weights(self):
        if self.trainable:
            return list(self._non_trainable_weights)
        return list(self._trainable_weights) + list(self._non_trainable_weights)

    @property
    def weights(self):
        return self.trainable_weights + self.non_trainable_weights

    # (properties, not aliases: a subclass that redefines the weights -- a Keras layer made of
    # layers -- is seen through them too)
    @property
    def trainable_variables(self):
        return self.trainable_weights

    @property
    def non_trainable_variables(self):
        return self.non_trainable_weights

    @property
    def variables(self):
        return self.weights

    @property
    def updates(self):
        return list(self._updates)

    @property
    def losses(self):
        return list(self._losses)

    def count_params(self):
        if not self.built:
            raise ValueError(f"You tried to call `count_params` on {self.name}, but the layer "
                             "isn't built. You can build it manually via: "
                             f"`{self.name}.build(batch_input_shape)`.")
        return int(sum(np.prod(w.get_shape().as_list()) for w in self.weights))

    def get_weights(self):
        """The values of the layer's weights, as NumPy arrays, read through the default
        session (as Keras's do)."""
        from ..framework.default_session import session_for
        if not self.weights:
            return []
        return session_for(None, self.weights[0].graph,
                           f"read the weights of layer {self.name!r}").run(self.weights)

    def set_weights(self, weights):
        """Loads NumPy arrays into the layer's weights (one per weight, in `weights` order),
        through the default session."""
        from ..framework.default_session import session_for
        if len(weights) != len(self.weights):
            raise ValueError(f"You called `set_weights(weights)` on layer {self.name!r} with a "
                             f"weight list of length {len(weights)}, but the layer was "
                             f"expecting {len(self.weights)} weights.")
        for variable, value in zip(self.weights, weights):
            if tuple(np.shape(value)) != tuple(variable.get_shape().as_list()):
                raise ValueError(f"Layer weight shape {tuple(variable.get_shape().as_list())} "
                                 f"not compatible with provided weight shape "
                                 f"{tuple(np.shape(value))}")
        if weights:
            session = session_for(None, self.weights[0].graph,
                                  f"set the weights of layer {self.name!r}")
            for variable, value in zip(self.weights, weights):
                variable.load(value, session)

    def get_losses_for(self, inputs):
        """The layer's losses (the sandbox does not tell them apart by inputs)."""
        return self.losses

    def get_updates_for(self, inputs):
        """The layer's updates (the sandbox does not tell them apart by inputs)."""
        return self.updates

    # -- what subclasses define ------------------------------------------------------------
    def build(self, input_shape):
        self.built = True

    def call(self, inputs, **kwargs):
        return inputs

    def compute_output_shape(self, input_shape):
        raise NotImplementedError(f"{type(self).__name__}.compute_output_shape")

    # -- updates and losses ----------------------------------------------------------------
    def add_update(self, updates, inputs=None):
        updates = updates if isinstance(updates, (list, tuple)) else [updates]
        for update in updates:
            update = update() if callable(update) else update
            if update is not None:
                self._updates.append(getattr(update, "op", update))

    def add_loss(self, losses, inputs=None):
        """Adds loss tensors (or functions returning one) to the layer and, as TF 1.15's
        tf.layers do, to tf.GraphKeys.REGULARIZATION_LOSSES."""
        losses = losses if isinstance(losses, (list, tuple)) else [losses]
        collection = get_default_graph().get_collection_ref(GraphKeys.REGULARIZATION_LOSSES)
        for loss in losses:
            loss = loss() if callable(loss) else loss
            if loss is None:
                continue
            self._losses.append(loss)
            if not any(loss is c for c in collection):
                collection.append(loss)

    # -- variables -------------------------------------------------------------------------
    def _set_scope(self, scope=None):
        if self._scope is None:
            if self._reuse:
                with vs.variable_scope(scope if scope is not None else self._base_name) \
                        as captured_scope:
                    self._scope = captured_scope
            else:
                with vs.variable_scope(scope, default_name=self._base_name) as captured_scope:
                    self._scope = captured_scope

    def _name_scope(self):
        return self._current_scope.original_name_scope

    def add_weight(self, name, shape, dtype=None, initializer=None, regularizer=None,
                   trainable=None, constraint=None, use_resource=None, partitioner=None,
                   **kwargs):
        """Gets or creates the variable `name` of this layer's scope with tf.get_variable;
        a regularizer of a new variable adds its loss (named '<name>/Regularizer/...')."""
        for key in kwargs:
            if key not in ("experimental_autocast", "synchronization", "aggregation"):
                raise TypeError("Unknown keyword argument:", key)
        trainable = True if trainable is None else trainable
        graph = get_default_graph()
        existing = set(id(v) for v in graph.get_collection(GraphKeys.GLOBAL_VARIABLES))
        dtype = _dtypes.as_dtype(dtype or self.dtype or _dtypes.float32)
        self._set_scope(None)
        reuse = self.built or self._reuse
        with vs.variable_scope(self._scope, reuse=reuse, auxiliary_name_scope=False) as scope:
            self._current_scope = scope
            with graph.name_scope(self._name_scope()):
                if initializer is None:
                    initializer = scope.initializer
                if initializer is None and dtype.is_floating:
                    initializer = init_ops.glorot_uniform_initializer()
                elif initializer is None:
                    initializer = init_ops.zeros_initializer()
                variable = vs.get_variable(name, shape=shape, dtype=dtype,
                                           initializer=initializer,
                                           trainable=trainable and self.trainable,
                                           constraint=constraint, partitioner=partitioner,
                                           use_resource=use_resource)
                if regularizer and id(variable) not in existing:
                    with graph.name_scope(name + "/Regularizer"):
                        self.add_loss(regularizer(variable))
        # A custom getter may have overridden `trainable` (contrib's model variables don't).
        in_trainable = any(variable is v
                           for v in graph.get_collection(GraphKeys.TRAINABLE_VARIABLES))
        if trainable and in_trainable:
            self._trainable_weights.append(variable)
        else:
            self._non_trainable_weights.append(variable)
        return variable

    def add_variable(self, *args, **kwargs):
        """TF 1.x's older name of add_weight."""
        return self.add_weight(*args, **kwargs)

    # -- calling ---------------------------------------------------------------------------
    def __call__(self, inputs, *args, **kwargs):
        """Builds the layer on the first call, then builds its ops in its name scope."""
        scope = kwargs.pop("scope", None)
        self._set_scope(scope)
        reuse = True if self.built else self._reuse
        graph = get_default_graph()
        with vs.variable_scope(self._scope, reuse=reuse, auxiliary_name_scope=False) as scope:
            self._current_scope = scope
            with graph.name_scope(self._name_scope()):
                inputs = convert_to_tensor(inputs)
                if not self.built:
                    assert_input_compatibility(self.input_spec, inputs, self.name)
                    if self._dtype is None:
                        self._dtype = inputs.dtype.base_dtype
                    self.build(inputs.get_shape())
                    self.built = True
                assert_input_compatibility(self.input_spec, inputs, self.name)
                outputs = self.call(inputs, *args, **kwargs)
                if outputs is None:
                    raise ValueError(f"A layer's `call` method should return a Tensor or a list "
                                     f"of Tensors, not None (layer: {self.name}).")
                if self.activity_regularizer is not None:
                    self._activity_loss(outputs)
        updates = graph.get_collection_ref(GraphKeys.UPDATE_OPS)
        for update in self._updates:
            if not any(update is u for u in updates):
                updates.append(update)
        return outputs

    apply = __call__

    def _activity_loss(self, outputs):
        """The activity regularizer's loss on the outputs, divided by the batch size."""
        with get_default_graph().name_scope("ActivityRegularizer"):
            loss = self.activity_regularizer(outputs)
            if loss is None:
                return
            batch = math_ops.cast(array_ops.shape(outputs)[0], loss.dtype.base_dtype)
            self.add_loss(math_ops.truediv(loss, batch))

    def __repr__(self):
        return f"<{type(self).__module__}.{type(self).__name__} {self.name!r}>"
