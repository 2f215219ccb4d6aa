"""Keras recurrent layers -- mirrors TensorFlow 1.15's python/keras/layers/recurrent.py
(SimpleRNNCell, LSTMCell, GRUCell, StackedRNNCells, AbstractRNNCell, RNN, SimpleRNN, LSTM and
GRU, the v1 classes that `tf.keras.layers` names in TF 1.x) and cudnn_recurrent.py
(CuDNNLSTM, CuDNNGRU).

    model = keras.Sequential([keras.layers.Embedding(10000, 32, input_length=100),
                              keras.layers.LSTM(32),                # (None, 100, 32) -> (None, 32)
                              keras.layers.Dense(1, activation='sigmoid')])

Keras's weights, not tf.nn.rnn_cell's: each cell has 'kernel' [input_dim, gates * units],
'recurrent_kernel' [units, gates * units] and 'bias' [gates * units], in the variable scope
'<layer>/<cell>' ('lstm/lstm_cell/kernel:0', as TF 2.15's compat.v1 Keras names them). The gate
order is LSTM i, f, c, o (bias starts 0, 1 for f: unit_forget_bias) and GRU z, r, h. The
defaults are TF 1.x's: activation tanh, recurrent_activation hard_sigmoid (clip(0.2 x + 0.5,
0, 1)), kernel glorot_uniform, recurrent kernel orthogonal; GRU with reset_after=False
(h~ = tanh(x W_h + (r * h) U_h + b_h)), or True (h~ = tanh(x W_h + b_h + r * (h U_h + b'_h)),
bias [2, 3 * units]). Per step:

    SimpleRNN  h = tanh(x W + b + h U)
    LSTM       i, f, o = hard_sigmoid(...); c = f * c + i * tanh(x W_c + b_c + h U_c);
               h = o * tanh(c)
    GRU        z, r = hard_sigmoid(...); h = z * h + (1 - z) * h~

The layer runs its cell along the steps axis of [batch, steps, features]. TF builds a
while_loop (K.rnn); the sandbox unrolls it, one cell step of ops per step, as its
tf.nn.dynamic_rnn does, so the number of steps must be known when the model is built
(Embedding(input_length=...) or input_shape=(steps, features)); the numbers are TF's.
return_sequences=True gives every step's output [batch, steps, units]; go_backwards=True reads
the steps in reverse (and returns them in that order, as Keras does). A mask (Embedding with
mask_zero=True) keeps the state and repeats the previous output at masked steps, as K.rnn.
dropout / recurrent_dropout drop the inputs / the recurrent state while training (one mask per
gate, the same at every step, as implementation=1 does); the random masks differ from TF's.
return_state, stateful=True, initial states and unroll are not in the sandbox.

RNN(cell) takes any cell: the ones above, a list of cells (wrapped in StackedRNNCells: each
step runs them in turn, the output of one the input of the next; weights
'rnn/stacked_rnn_cells/lstm_cell/kernel:0' ...), or your own subclass of AbstractRNNCell
that defines state_size, output_size, build and call(inputs, states) -> (output, new_states).

CuDNNLSTM and CuDNNGRU take TF's arguments and make TF's weights (bias [8 * units] /
[6 * units]: cuDNN keeps two biases), but run only on cuDNN's GPU kernels: calling one is an
error here, as running one is in TensorFlow without a GPU. LSTM and GRU are the layers to
use instead (their weights are laid out differently, so a CuDNN layer's weights do not load
into them as they are).
"""
from ...framework.tensor_shape import TensorShape
from ...layers.base import InputSpec, select_on
from ...ops import array_ops, init_ops, matmul_ops, math_ops, nn_ops, reduction_ops
from ...ops import slicing_ops
from ...ops import variable_scope as vs
from .. import activations
from .. import backend as K
from .. import initializers, regularizers
from ..engine.base_layer import Layer, WeightsOfInner
from ..serialization import serialize_keras_object

__all__ = ["SimpleRNNCell", "LSTMCell", "GRUCell", "StackedRNNCells", "AbstractRNNCell",
           "RNN", "SimpleRNN", "LSTM", "GRU", "CuDNNLSTM", "CuDNNGRU"]


class _ForgetBias(init_ops.Initializer):
    """LSTM's unit_forget_bias: the bias initializer's values, with ones for the forget gate
    (the `before`-th block of `units`; CuDNNLSTM's is the 6th of 8)."""

    def __init__(self, initializer, units, before=1, after=2):
        self.initializer, self.units = initializer, units
        self.before, self.after = before, after

    def __call__(self, shape, dtype=None, partition_info=None):
        u = self.units
        return slicing_ops.concat([self.initializer((u * self.before,), dtype=dtype),
                                   init_ops.Ones()((u,), dtype=dtype),
                                   self.initializer((u * self.after,), dtype=dtype)], 0)


def _zero_states(like, sizes, dtype):
    """Zeros [batch, size] for each state size (K.rnn's initial state); `like` [batch, ...]."""
    batch_zeros = reduction_ops.reduce_sum(
        array_ops.reshape(array_ops.zeros_like(like), array_ops.stack(
            [array_ops.shape(like)[0], -1])), axis=1, keepdims=True)
    return [batch_zeros * array_ops.zeros((1, size), dtype=dtype) for size in sizes]


def _make_dropout_masks(like, rate, count, training):
    """`count` dropout masks of ones shaped like `like` (None without dropout)."""
    if not rate:
        return None
    ones = array_ops.ones_like(like)
    return [select_on(training, lambda: nn_ops.dropout(ones, rate=rate), lambda: ones)
            for _ in range(count)]


class AbstractRNNCell(Layer):
    """The base class of your own cells: define state_size (an int, or one per state),
    output_size, build(input_shape) and call(inputs, states) -> (output, new_states)."""

    def call(self, inputs, states):
        raise NotImplementedError("Abstract method")

    @property
    def state_size(self):
        raise NotImplementedError("Abstract method")

    @property
    def output_size(self):
        raise NotImplementedError("Abstract method")

    def get_initial_state(self, inputs=None, batch_size=None, dtype=None):
        """Zeros, one [batch, size] tensor per state (from `inputs`, [batch, ...])."""
        if inputs is None:
            raise NotImplementedError("get_initial_state without inputs is not in the "
                                      "sandbox's keras")
        return _zero_states(inputs, _state_sizes(self), dtype or inputs.dtype.base_dtype)


def _state_sizes(cell):
    sizes = cell.state_size
    return list(sizes) if isinstance(sizes, (list, tuple)) else [sizes]


def _output_size(cell):
    return getattr(cell, "output_size", None) or _state_sizes(cell)[0]


def _dropout_masks(cell, x, states, training):
    """What cell.step takes after the states: (input masks, recurrent masks), or None for a
    cell without dropout (AbstractRNNCell subclasses)."""
    if hasattr(cell, "dropout_masks"):
        return cell.dropout_masks(x, states, training)
    return None


def _step(cell, x, states, masks):
    """One step of any cell: (output, new states)."""
    if hasattr(cell, "step"):
        return cell.step(x, states, *(masks or (None, None)))
    output, new_states = cell.call(x, list(states))
    return output, (list(new_states) if isinstance(new_states, (list, tuple))
                    else [new_states])


def _take_weight_options(layer, kernel_initializer, recurrent_initializer, bias_initializer,
                         kernel_regularizer, recurrent_regularizer, bias_regularizer,
                         kernel_constraint, recurrent_constraint, bias_constraint):
    """Sets the initializers, regularizers and constraints of a recurrent layer's three weights
    (kernel, recurrent kernel, bias) -- names resolved as Keras resolves them."""
    layer.kernel_initializer = initializers.get(kernel_initializer)
    layer.recurrent_initializer = initializers.get(recurrent_initializer)
    layer.bias_initializer = initializers.get(bias_initializer)
    layer.kernel_regularizer = regularizers.get(kernel_regularizer)
    layer.recurrent_regularizer = regularizers.get(recurrent_regularizer)
    layer.bias_regularizer = regularizers.get(bias_regularizer)
    layer.kernel_constraint, layer.recurrent_constraint = kernel_constraint, recurrent_constraint
    layer.bias_constraint = bias_constraint


class _Cell(Layer):
    """What the cells share: Keras's arguments and the three weights."""
    _gates = 1

    def __init__(self, units, activation="tanh", recurrent_activation="hard_sigmoid",
                 use_bias=True, kernel_initializer="glorot_uniform",
                 recurrent_initializer="orthogonal", bias_initializer="zeros",
                 kernel_regularizer=None, recurrent_regularizer=None, bias_regularizer=None,
                 kernel_constraint=None, recurrent_constraint=None, bias_constraint=None,
                 dropout=0.0, recurrent_dropout=0.0, **kwargs):
        super().__init__(**kwargs)
        self.units = int(units)
        self.activation = activations.get(activation)
        self.recurrent_activation = activations.get(recurrent_activation)
        self.use_bias = use_bias
        _take_weight_options(self, kernel_initializer, recurrent_initializer, bias_initializer,
                             kernel_regularizer, recurrent_regularizer, bias_regularizer,
                             kernel_constraint, recurrent_constraint, bias_constraint)
        self.dropout = min(1.0, max(0.0, dropout))
        self.recurrent_dropout = min(1.0, max(0.0, recurrent_dropout))

    @property
    def state_size(self):
        return [self.units]

    @property
    def output_size(self):
        return self.units

    def dropout_masks(self, x, states, training):
        """One input and one recurrent mask per gate, fixed over the steps."""
        return (_make_dropout_masks(x, self.dropout, self._gates, training),
                _make_dropout_masks(states[0], self.recurrent_dropout, self._gates, training))

    def _bias_shape(self):
        return (self._gates * self.units,)

    def _bias_initializer(self):
        return self.bias_initializer

    def _kernel_shapes(self, input_shape):
        """The shapes of kernel and recurrent_kernel."""
        width = self._gates * self.units
        return (TensorShape(input_shape)[-1].value, width), (self.units, width)

    def build(self, input_shape):
        kernel_shape, recurrent_shape = self._kernel_shapes(input_shape)
        self.kernel = self.add_weight("kernel", shape=kernel_shape,
                                      initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint)
        self.recurrent_kernel = self.add_weight("recurrent_kernel", shape=recurrent_shape,
                                                initializer=self.recurrent_initializer,
                                                regularizer=self.recurrent_regularizer,
                                                constraint=self.recurrent_constraint)
        self.bias = None
        if self.use_bias:
            self.bias = self.add_weight("bias", shape=self._bias_shape(),
                                        initializer=self._bias_initializer(),
                                        regularizer=self.bias_regularizer,
                                        constraint=self.bias_constraint)
        self.built = True

    # -- pieces of a step -------------------------------------------------------------------
    def _gate_slice(self, w, g, n=1):
        """Columns of gates g .. g + n - 1 of a [*, gates * units] weight."""
        u = self.units
        return w[:, g * u:(g + n) * u]

    def _project(self, x, w, bias, masks, first=0, n=None):
        """[x @ w_g + b_g for gates g], x times each gate's dropout mask when there are
        masks."""
        n = self._gates - first if n is None else n
        if masks is None:
            z = matmul_ops.matmul(x, self._gate_slice(w, first, n) if (first or
                                                                        n != self._gates) else w)
            if bias is not None:
                z = nn_ops.bias_add(z, bias[first * self.units:(first + n) * self.units]
                                    if (first or n != self._gates) else bias)
            return slicing_ops.split(z, n, axis=1) if n > 1 else [z]
        out = []
        for g in range(first, first + n):
            z = matmul_ops.matmul(x * masks[g], self._gate_slice(w, g))
            if bias is not None:
                z = nn_ops.bias_add(z, bias[g * self.units:(g + 1) * self.units])
            out.append(z)
        return out


def _keys(without=(), after=None, add=()):
    """The cells' config keys: TF's list with some left out, `add` inserted after `after`
    (or at the end)."""
    keys = [k for k in _CELL_KEYS if k not in without]
    at = keys.index(after) + 1 if after else len(keys)
    return tuple(keys[:at]) + tuple(add) + tuple(keys[at:])


_CELL_KEYS = ("units", "activation", "recurrent_activation", "use_bias",
                    "kernel_initializer", "recurrent_initializer", "bias_initializer",
                    "kernel_regularizer", "recurrent_regularizer", "bias_regularizer",
                    "kernel_constraint", "recurrent_constraint", "bias_constraint", "dropout",
                    "recurrent_dropout")


class SimpleRNNCell(_Cell):
    """h = activation(x @ kernel + bias + h @ recurrent_kernel)."""
    _config_keys = _keys(without=("recurrent_activation",))

    def __init__(self, units, activation="tanh", **kwargs):
        kwargs.pop("recurrent_activation", None)
        super().__init__(units, activation=activation, **kwargs)

    def step(self, x, states, masks=None, rec_masks=None):
        h = states[0]
        (z,) = self._project(x, self.kernel, self.bias, masks)
        (r,) = self._project(h, self.recurrent_kernel, None, rec_masks)
        out = self.activation(z + r)
        return out, [out]


class LSTMCell(_Cell):
    """Gates i, f, c, o: c = f * c + i * activation(z_c); h = o * activation(c)."""
    _gates = 4
    _config_keys = _keys(after="bias_initializer", add=("unit_forget_bias",)) + (
        "implementation",)

    def __init__(self, units, unit_forget_bias=True, implementation=1, **kwargs):
        super().__init__(units, **kwargs)
        self.unit_forget_bias = unit_forget_bias
        self.implementation = implementation

    @property
    def state_size(self):
        return [self.units, self.units]

    def _bias_initializer(self):
        if self.unit_forget_bias:
            return _ForgetBias(self.bias_initializer, self.units)
        return self.bias_initializer

    def step(self, x, states, masks=None, rec_masks=None):
        h, c = states
        xs = self._project(x, self.kernel, self.bias, masks)
        hs = self._project(h, self.recurrent_kernel, None, rec_masks)
        i = self.recurrent_activation(xs[0] + hs[0])
        f = self.recurrent_activation(xs[1] + hs[1])
        c = f * c + i * self.activation(xs[2] + hs[2])
        o = self.recurrent_activation(xs[3] + hs[3])
        h = o * self.activation(c)
        return h, [h, c]


class GRUCell(_Cell):
    """Gates z, r, h: h = z * h + (1 - z) * activation(x W_h + (r * h) U_h + b_h)
    (reset_after=False), or activation(x W_h + b_h + r * (h U_h + b'_h)) (reset_after=True)."""
    _gates = 3
    _config_keys = _keys() + ("implementation", "reset_after")

    def __init__(self, units, implementation=1, reset_after=False, **kwargs):
        super().__init__(units, **kwargs)
        self.implementation = implementation
        self.reset_after = reset_after

    def _bias_shape(self):
        return (2, 3 * self.units) if self.reset_after else (3 * self.units,)

    def step(self, x, states, masks=None, rec_masks=None):
        h = states[0]
        bias, rec_bias = self.bias, None
        if self.bias is not None and self.reset_after:
            bias, rec_bias = self.bias[0], self.bias[1]
        xz, xr, xh = self._project(x, self.kernel, bias, masks)
        if self.reset_after:
            hz, hr, hh = self._project(h, self.recurrent_kernel, rec_bias, rec_masks)
            z = self.recurrent_activation(xz + hz)
            r = self.recurrent_activation(xr + hr)
            candidate = self.activation(xh + r * hh)
        else:
            hz, hr = self._project(h, self.recurrent_kernel, None, rec_masks, 0, 2)
            z = self.recurrent_activation(xz + hz)
            r = self.recurrent_activation(xr + hr)
            hm = r * h if rec_masks is None else r * h * rec_masks[2]
            candidate = self.activation(xh + matmul_ops.matmul(
                hm, self._gate_slice(self.recurrent_kernel, 2)))
        out = z * h + (1 - z) * candidate
        return out, [out]


class StackedRNNCells(Layer):
    """StackedRNNCells(cells): the cells as one cell -- at each step the first cell reads the
    input, each next one the previous one's output; the states are all of theirs in turn."""

    def __init__(self, cells, **kwargs):
        for cell in cells:
            if not hasattr(cell, "call"):
                raise ValueError(f"All cells must have a `call` method. received cells: {cells}")
            if not hasattr(cell, "state_size"):
                raise ValueError("All cells must have a `state_size` attribute. received "
                                 f"cells: {cells}")
        self.cells = list(cells)
        super().__init__(**kwargs)

    @property
    def state_size(self):
        return [size for cell in self.cells for size in _state_sizes(cell)]

    @property
    def output_size(self):
        return _output_size(self.cells[-1])

    def build(self, input_shape):
        input_shape = TensorShape(input_shape)
        self._set_scope(None)
        with vs.variable_scope(self._scope, auxiliary_name_scope=False):
            for cell in self.cells:
                if not cell.built:
                    cell.build(input_shape)
                    cell.built = True
                input_shape = TensorShape([input_shape[0].value, _output_size(cell)])
        self.built = True

    def _split(self, states):
        """The states of each cell."""
        out, at = [], 0
        for cell in self.cells:
            n = len(_state_sizes(cell))
            out.append(list(states[at:at + n]))
            at += n
        return out

    def dropout_masks(self, x, states, training):
        masks = []
        for cell, cell_states in zip(self.cells, self._split(states)):
            masks.append(_dropout_masks(cell, x, cell_states, training))
            x = cell_states[0]            # [batch, units]: the shape of the next cell's input
        return (masks, None)

    def step(self, x, states, masks=None, rec_masks=None):
        new_states = []
        for i, (cell, cell_states) in enumerate(zip(self.cells, self._split(states))):
            x, cell_new = _step(cell, x, cell_states, masks[i] if masks else None)
            new_states.extend(cell_new)
        return x, new_states

    # the cells' weights and losses are the stack's
    @property
    def trainable_weights(self):
        return [w for c in self.cells for w in c.trainable_weights] if self.trainable else []

    @property
    def non_trainable_weights(self):
        if not self.trainable:
            return [w for c in self.cells for w in c.weights]
        return [w for c in self.cells for w in c.non_trainable_weights]

    @property
    def weights(self):
        return self.trainable_weights + self.non_trainable_weights

    @property
    def losses(self):
        return list(self._losses) + [loss for c in self.cells for loss in c.losses]

    def get_config(self):
        return {**super().get_config(),
                "cells": [serialize_keras_object(cell) for cell in self.cells]}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        from .serialization import deserialize
        config = dict(config)
        cells = [deserialize(c, custom_objects=custom_objects) for c in config.pop("cells")]
        return cls(cells, **config)


class RNN(WeightsOfInner, Layer):
    """RNN(cell, return_sequences=False, go_backwards=False): runs `cell` (one of the cells
    above) along the steps of its input; the cell's weights and losses are the layer's."""
    _inner = "cell"

    def __init__(self, cell, return_sequences=False, return_state=False, go_backwards=False,
                 stateful=False, unroll=False, time_major=False, **kwargs):
        if return_state or stateful or time_major:
            raise NotImplementedError("return_state, stateful and time_major RNN layers are not "
                                      "in the sandbox's keras")
        if isinstance(cell, (list, tuple)):
            cell = StackedRNNCells(cell)
        if not hasattr(cell, "call"):
            raise ValueError(f"`cell` should have a `call` method. The RNN was passed: {cell}")
        if not hasattr(cell, "state_size"):
            raise ValueError("The RNN cell should have an attribute `state_size` (tuple of "
                             "integers, one integer per RNN state).")
        super().__init__(**kwargs)
        self.cell = cell
        self.return_sequences = return_sequences
        self.return_state = return_state
        self.go_backwards = go_backwards
        self.stateful, self.unroll, self.time_major = stateful, unroll, time_major
        self.supports_masking = True
        self.input_spec = InputSpec(ndim=3)

    @property
    def units(self):
        return self.cell.units

    @property
    def states(self):
        return [None] * len(_state_sizes(self.cell))

    def build(self, input_shape):
        input_shape = TensorShape(input_shape)
        if not self.cell.built:
            self.cell.build(TensorShape([input_shape[0].value, input_shape[-1].value]))
            self.cell.built = True
        self.built = True

    def compute_output_shape(self, input_shape):
        input_shape = TensorShape(input_shape)
        size = _output_size(self.cell)
        if self.return_sequences:
            return TensorShape([input_shape[0].value, input_shape[1].value, size])
        return TensorShape([input_shape[0].value, size])

    def compute_mask(self, inputs, mask=None):
        return mask if self.return_sequences else None

    def _initial_states(self, x):
        """The cell's zero states for the first step's input x."""
        if hasattr(self.cell, "zero_states"):
            return self.cell.zero_states(x)
        return _zero_states(x, _state_sizes(self.cell), x.dtype.base_dtype)

    def call(self, inputs, mask=None, training=None, initial_state=None):
        if initial_state is not None:
            raise NotImplementedError("initial_state is not in the sandbox's keras")
        steps = inputs.get_shape()[1].value
        if steps is None:
            raise ValueError(f"Layer {self.name}: the sandbox unrolls recurrent layers, so the "
                             "number of steps must be known when the model is built: give "
                             "Embedding an input_length, or input_shape=(steps, features).")
        if training is None:
            training = K.learning_phase()
        xs = array_ops.unstack(inputs, axis=1)
        masks = None if mask is None else array_ops.unstack(
            math_ops.cast(mask, inputs.dtype.base_dtype), axis=1)
        if self.go_backwards:
            xs = xs[::-1]
            masks = None if masks is None else masks[::-1]
        states = self._initial_states(xs[0])
        dropout = _dropout_masks(self.cell, xs[0], states, training)
        outputs, previous = [], None
        for t, x in enumerate(xs):
            out, new_states = _step(self.cell, x, states, dropout)
            if previous is None:
                previous = array_ops.zeros_like(out)
            if masks is not None:
                keep = array_ops.reshape(masks[t], [-1] + [1] * (out.get_shape().ndims - 1))
                out = keep * out + (1 - keep) * previous
                new_states = [keep * n + (1 - keep) * s for n, s in zip(new_states, states)]
            outputs.append(out)
            previous, states = out, new_states
        if self.return_sequences:
            return array_ops.stack(outputs, axis=1)
        return outputs[-1]

    _config_keys = ("return_sequences", "return_state", "go_backwards", "stateful", "unroll",
                    "time_major")

    def get_config(self):
        return {**super().get_config(), "cell": serialize_keras_object(self.cell)}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        from .serialization import deserialize
        config = dict(config)
        cell = deserialize(config.pop("cell"), custom_objects=custom_objects)
        return cls(cell, **config)


def _layer_and_cell_args(kwargs):
    """Splits a layer's keyword arguments into the RNN layer's and the cell's."""
    layer_keys = ("return_sequences", "return_state", "go_backwards", "stateful", "unroll",
                  "time_major", "name", "trainable", "dtype", "input_shape",
                  "batch_input_shape", "batch_size", "input_dim", "input_length",
                  "activity_regularizer")
    layer = {k: kwargs.pop(k) for k in layer_keys if k in kwargs}
    if "input_dim" in layer or "input_length" in layer:
        if "input_shape" not in layer and "batch_input_shape" not in layer:
            layer["input_shape"] = (layer.get("input_length"), layer.get("input_dim"))
        layer.pop("input_dim", None)
        layer.pop("input_length", None)
    if "activity_regularizer" in layer:
        layer["activity_regularizer"] = regularizers.get(layer["activity_regularizer"])
    return layer, kwargs


class _KerasRNN(RNN):
    _cell_class = None

    def __init__(self, units, **kwargs):
        self._init_kwargs = dict(kwargs, units=units)
        layer_args, cell_args = _layer_and_cell_args(dict(kwargs))
        cell = self._cell_class(units, dtype=layer_args.get("dtype"),
                                trainable=layer_args.get("trainable", True),
                                name=self._cell_name, **cell_args)
        super().__init__(cell, **layer_args)

    # get_config: the RNN's keys, then the cell's (with the layer's activity_regularizer)
    @classmethod
    def _cell_keys(cls):
        keys = list(cls._cell_class._config_keys)
        keys.insert(keys.index("bias_regularizer") + 1, "activity_regularizer")
        return keys

    @property
    def _config_keys(self):
        return RNN._config_keys + tuple(self._cell_keys())

    def _config_value(self, key):
        owner = self if key in RNN._config_keys or key == "activity_regularizer" else self.cell
        return getattr(owner, key)

    get_config = Layer.get_config
    from_config = classmethod(Layer.from_config.__func__)

    def _copy_args(self):
        """The arguments this layer was made with (Bidirectional makes its backward twin)."""
        return dict(self._init_kwargs)


class SimpleRNN(_KerasRNN):
    """SimpleRNN(units, activation='tanh', return_sequences=False, ...)."""
    _cell_class = SimpleRNNCell
    _cell_name = "simple_rnn_cell"


class LSTM(_KerasRNN):
    """LSTM(units, activation='tanh', recurrent_activation='hard_sigmoid',
    unit_forget_bias=True, return_sequences=False, ...)."""
    _cell_class = LSTMCell
    _cell_name = "lstm_cell"


class GRU(_KerasRNN):
    """GRU(units, activation='tanh', recurrent_activation='hard_sigmoid', reset_after=False,
    return_sequences=False, ...)."""
    _cell_class = GRUCell
    _cell_name = "gru_cell"


class _CuDNNRNN(Layer):
    """What CuDNNLSTM and CuDNNGRU share: TF's arguments, weights and config; no kernels."""
    _gates = 4
    _config_keys = ("return_sequences", "return_state", "go_backwards", "stateful",
                    "time_major", "units", "kernel_initializer", "recurrent_initializer",
                    "bias_initializer", "kernel_regularizer", "recurrent_regularizer",
                    "bias_regularizer", "activity_regularizer", "kernel_constraint",
                    "recurrent_constraint", "bias_constraint")
    _instead = "LSTM"

    def __init__(self, units, kernel_initializer="glorot_uniform",
                 recurrent_initializer="orthogonal", bias_initializer="zeros",
                 kernel_regularizer=None, recurrent_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, kernel_constraint=None, recurrent_constraint=None,
                 bias_constraint=None, return_sequences=False, return_state=False,
                 go_backwards=False, stateful=False, time_major=False, **kwargs):
        super().__init__(activity_regularizer=regularizers.get(activity_regularizer), **kwargs)
        self.units = int(units)
        self.return_sequences, self.return_state = return_sequences, return_state
        self.go_backwards, self.stateful, self.time_major = go_backwards, stateful, time_major
        _take_weight_options(self, kernel_initializer, recurrent_initializer, bias_initializer,
                             kernel_regularizer, recurrent_regularizer, bias_regularizer,
                             kernel_constraint, recurrent_constraint, bias_constraint)
        self.supports_masking = False
        self.input_spec = InputSpec(ndim=3)

    # TF's weights, made as the cells make theirs; cuDNN keeps two biases
    use_bias = True
    _kernel_shapes = _Cell._kernel_shapes
    _bias_initializer = _Cell._bias_initializer
    build = _Cell.build

    def _bias_shape(self):
        return (2 * self._gates * self.units,)

    def compute_output_shape(self, input_shape):
        input_shape = TensorShape(input_shape)
        if self.return_sequences:
            return TensorShape([input_shape[0].value, input_shape[1].value, self.units])
        return TensorShape([input_shape[0].value, self.units])

    def call(self, inputs, mask=None, training=None, initial_state=None):
        raise NotImplementedError(
            f"Layer {self.name} ({type(self).__name__}) runs only on cuDNN's GPU kernels "
            "(the CudnnRNN op), and this sandbox -- like TensorFlow without a GPU -- has none. "
            f"Use keras.layers.{self._instead}({self.units}) instead (its weights are laid out "
            f"differently: bias [{self._gates} * units], not [{2 * self._gates} * units], so "
            f"weights saved from a {type(self).__name__} do not load into it as they are).")


class CuDNNLSTM(_CuDNNRNN):
    """CuDNNLSTM(units, unit_forget_bias=True, return_sequences=False, ...): cuDNN's LSTM."""
    _config_keys = _CuDNNRNN._config_keys[:9] + ("unit_forget_bias",) + \
        _CuDNNRNN._config_keys[9:]

    def __init__(self, units, unit_forget_bias=True, **kwargs):
        super().__init__(units, **kwargs)
        self.unit_forget_bias = unit_forget_bias

    def _bias_initializer(self):
        if self.unit_forget_bias:      # ones for the second bias's forget gate
            return _ForgetBias(self.bias_initializer, self.units, before=5, after=2)
        return self.bias_initializer


class CuDNNGRU(_CuDNNRNN):
    """CuDNNGRU(units, return_sequences=False, ...): cuDNN's GRU."""
    _gates = 3
    _instead = "GRU"
