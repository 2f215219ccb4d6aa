"""RNN cells -- mirrors TensorFlow 1.x's python/ops/rnn_cell_impl.py (tf.nn.rnn_cell.*):
BasicRNNCell, BasicLSTMCell, LSTMCell, GRUCell, MultiRNNCell, LSTMStateTuple and the
wrappers DropoutWrapper, ResidualWrapper and DeviceWrapper.

A cell is one step of a recurrent network: `output, new_state = cell(input, state)` maps the
input at time t, [batch, depth], and the state carried from step t - 1 to the output at t and
the state for t + 1. tf.nn.dynamic_rnn and tf.nn.static_rnn (rnn.py) call it once per step:

    cell = tf.nn.rnn_cell.BasicLSTMCell(128)
    outputs, state = tf.nn.dynamic_rnn(cell, inputs, dtype=tf.float32)    # inputs [b, t, d]

The cell creates its variables at its first call, in the variable scope it is called in, under
its name -- 'rnn/basic_lstm_cell/kernel' and 'rnn/basic_lstm_cell/bias' inside dynamic_rnn, as
in TF -- with tf.get_variable, so checkpoints and replica_device_setter see them like any
other; every later call (the next time step, or another dynamic_rnn with the same cell) reuses
them. A second cell of the same name in the same scope fails as in TF ("Variable ... already
exists"): give it another name or scope.

Each cell's step, as TF computes it (x the input, h and c the state, W the kernel, b the bias):

    BasicRNNCell  h' = tanh([x, h] W + b)
    BasicLSTMCell i, j, f, o = split([x, h] W + b, 4)
                  c' = c * sigmoid(f + forget_bias) + sigmoid(i) * tanh(j)
                  h' = tanh(c') * sigmoid(o)
    GRUCell       r, u = split(sigmoid([x, h] W_gates + b_gates), 2)
                  h' = u * h + (1 - u) * tanh([x, r * h] W_candidate + b_candidate)

LSTMCell adds peepholes (use_peepholes), clipping (cell_clip, proj_clip) and a projection of
the output (num_proj) to BasicLSTMCell.
"""
import collections
import re

from ..framework import dtypes as _dtypes
from ..framework.graph import device as device_scope, name_scope
from ..framework.tensor import Tensor, convert_to_tensor
from . import array_ops, basic_math_ops, clip_ops, init_ops, math_ops, matmul_ops, nn_ops
from . import constant_op, slicing_ops
from .variable_scope import get_variable, get_variable_scope, variable_scope

__all__ = []   # reached as tf.nn.rnn_cell.* (sandbox/ops/rnn_cell.py)

_WEIGHTS, _BIAS = "kernel", "bias"


class LSTMStateTuple(collections.namedtuple("LSTMStateTuple", ("c", "h"))):
    """The state of an LSTM cell: c (the memory cell) and h (the output)."""
    __slots__ = ()

    @property
    def dtype(self):
        c, h = self
        if c.dtype != h.dtype:
            raise TypeError(f"Inconsistent internal state: {c.dtype} vs {h.dtype}")
        return c.dtype


def _activation(activation):
    if activation is None:
        return basic_math_ops.tanh
    if isinstance(activation, str):
        table = {"tanh": basic_math_ops.tanh, "sigmoid": basic_math_ops.sigmoid,
                 "relu": nn_ops.relu, "linear": lambda x: x}
        if activation not in table:
            raise ValueError(f"Unknown activation {activation!r}; pass a function such as "
                             "tf.nn.relu")
        return table[activation]
    return activation


def _flatten(structure):
    if isinstance(structure, (tuple, list)):
        return [leaf for item in structure for leaf in _flatten(item)]
    return [structure]


def _zeros(size, batch_size, dtype):
    """zeros [batch_size, *size] (size an int, a TensorShape or nested tuple of them)."""
    if isinstance(size, (tuple, list)):
        return type(size)(*[_zeros(s, batch_size, dtype) for s in size]) \
            if hasattr(size, "_fields") else type(size)(_zeros(s, batch_size, dtype)
                                                        for s in size)
    if isinstance(batch_size, Tensor):
        return array_ops.zeros(array_ops.stack([batch_size, size]), dtype=dtype)
    return array_ops.zeros([batch_size, size], dtype=dtype)


def _snake_case(name):
    """A cell's default name, from its class name, as TF's layers make it."""
    name = re.sub("(.)([A-Z][a-z0-9]+)", r"\1_\2", name)
    return re.sub("([a-z])([A-Z])", r"\1_\2", name).lower()


class RNNCell:
    """The base of every cell: state_size, output_size, zero_state and
    `output, new_state = cell(inputs, state)`. A subclass defines `build(inputs_shape)`
    (creating its variables with self.add_variable, as TF's LayerRNNCell) and
    `call(inputs, state)` -- or overrides __call__ itself, as TF-1 custom cells do."""

    # defaults, also for subclasses whose __init__ does not call RNNCell.__init__
    built = False
    _needs_depth = True          # build() needs the depth of the inputs
    _scope = _dtype = _reuse = None
    _trainable = True
    _layer_cell = False          # True for TF's LayerRNNCells (BasicRNNCell, the LSTMs, GRU)

    def __init__(self, trainable=True, name=None, dtype=None, reuse=None, **kwargs):
        self._name = name or _snake_case(type(self).__name__)   # 'GRUCell' -> 'gru_cell'
        self._dtype = None if dtype is None else _dtypes.as_dtype(dtype)
        self._reuse = reuse
        self._trainable = trainable
        self.built = False
        self._variables = []
        self._scope = None

    @property
    def name(self):
        return self.__dict__.get("_name") or _snake_case(type(self).__name__)

    @property
    def state_size(self):
        raise NotImplementedError("Abstract method")

    @property
    def output_size(self):
        raise NotImplementedError("Abstract method")

    @property
    def variables(self):
        """The variables this cell created (and its wrapped cells)."""
        return list(self.__dict__.get("_variables", []))

    weights = variables

    @property
    def trainable_variables(self):
        return [v for v in self.variables if v.trainable]

    trainable_weights = trainable_variables

    def zero_state(self, batch_size, dtype):
        """The all-zeros state of a batch: a tensor [batch_size, state_size], or a tuple of
        them for a tuple state_size."""
        with name_scope(type(self).__name__ + "ZeroState", values=[batch_size]):
            return _zeros(self.state_size, batch_size, _dtypes.as_dtype(dtype))

    def add_variable(self, name, shape=None, dtype=None, initializer=None, trainable=None,
                     **kwargs):
        """tf.get_variable(name, ...) in the cell's scope, remembered in self.variables."""
        var = get_variable(name, shape, dtype=dtype or self._dtype or _dtypes.float32,
                           initializer=initializer,
                           trainable=self._trainable if trainable is None else trainable,
                           **kwargs)
        self.__dict__.setdefault("_variables", []).append(var)
        return var

    add_weight = add_variable

    def build(self, inputs_shape):
        """Creates the variables for inputs of shape inputs_shape (none by default)."""

    def call(self, inputs, state):
        raise NotImplementedError("Abstract method")

    def __call__(self, inputs, state, scope=None):
        """One step: (output, new_state). Variables are created at the first call, in
        variable scope `scope` (default: the cell's name) inside the current one."""
        if isinstance(inputs, (tuple, list)):
            raise TypeError(f"{type(self).__name__} takes one input tensor per step, got a "
                            f"{type(inputs).__name__}")
        inputs = convert_to_tensor(inputs, name="inputs")
        if self.built:
            # Re-enter the variable scope *and the name scope* of the first call, as TF's
            # layers do: every step's ops share one name scope, uniquified within it
            # ('basic_lstm_cell/Mul_5' at the second step), wherever the call is made.
            with variable_scope(self._scope, reuse=True, auxiliary_name_scope=False):
                with name_scope(self._scope.original_name_scope):
                    return self.call(inputs, state)
        if scope is None and not self._layer_cell:
            # TF's RNNCell.__call__ (for cells that are not LayerRNNCells: MultiRNNCell, a
            # custom RNNCell) first re-enters the current variable scope, which opens a name
            # scope of its last name inside the current one: 'rnn/rnn/multi_rnn_cell/...'
            outer = get_variable_scope().name
            if outer:
                with name_scope(outer.split("/")[-1]):
                    return self._first_call(inputs, state, None)
        return self._first_call(inputs, state, scope)

    def _first_call(self, inputs, state, scope):
        with variable_scope(scope or self.name, reuse=True if self._reuse else None) as vs:
            self._scope = vs
            self._dtype = self._dtype or inputs.dtype.base_dtype
            shape = inputs.get_shape()
            if self._needs_depth and (not shape.ndims or shape[-1].value is None):
                raise ValueError(f"Expected inputs.shape[-1] to be known, saw shape: {shape} "
                                 f"(cell {self.name!r}): give the inputs a static depth, "
                                 "e.g. with tf.reshape or set_shape")
            self.build(shape)
            self.built = True
            return self.call(inputs, state)


def _depth(inputs_shape):
    return inputs_shape[-1].value


def _linear(args, kernel, bias):
    """concat(args, 1) @ kernel + bias."""
    x = args[0] if len(args) == 1 else slicing_ops.concat(args, 1)
    return nn_ops.bias_add(matmul_ops.matmul(x, kernel), bias)


class BasicRNNCell(RNNCell):
    """The simplest cell: output = new_state = activation([inputs, state] W + b)."""
    _layer_cell = True

    def __init__(self, num_units, activation=None, reuse=None, name=None, dtype=None, **kwargs):
        super().__init__(name=name, dtype=dtype, reuse=reuse, **kwargs)
        self._num_units = num_units
        self._activation = _activation(activation)

    @property
    def state_size(self):
        return self._num_units

    @property
    def output_size(self):
        return self._num_units

    def build(self, inputs_shape):
        input_depth = _depth(inputs_shape)
        self._kernel = self.add_variable(_WEIGHTS, [input_depth + self._num_units,
                                                    self._num_units])
        self._bias = self.add_variable(_BIAS, [self._num_units],
                                       initializer=init_ops.zeros_initializer())

    def call(self, inputs, state):
        output = self._activation(_linear([inputs, state], self._kernel, self._bias))
        return output, output


class BasicLSTMCell(RNNCell):
    """The LSTM cell without peepholes, clipping or projection (TF's BasicLSTMCell). The state
    is LSTMStateTuple(c, h), or concat([c, h], 1) when state_is_tuple=False."""
    _layer_cell = True

    def __init__(self, num_units, forget_bias=1.0, state_is_tuple=True, activation=None,
                 reuse=None, name=None, dtype=None, **kwargs):
        super().__init__(name=name, dtype=dtype, reuse=reuse, **kwargs)
        self._num_units = num_units
        self._forget_bias = forget_bias
        self._state_is_tuple = state_is_tuple
        self._activation = _activation(activation)

    @property
    def state_size(self):
        n = self._num_units
        return LSTMStateTuple(n, n) if self._state_is_tuple else 2 * n

    @property
    def output_size(self):
        return self._num_units

    def build(self, inputs_shape):
        input_depth = _depth(inputs_shape)
        n = self._num_units
        self._kernel = self.add_variable(_WEIGHTS, [input_depth + n, 4 * n])
        self._bias = self.add_variable(_BIAS, [4 * n], initializer=init_ops.zeros_initializer())

    def _split_state(self, state):
        if self._state_is_tuple:
            return state
        return slicing_ops.split(state, 2, axis=1)

    def call(self, inputs, state):
        # TF's ops, in TF's order (so the same names: 'Add_1' is new_c, 'Mul_2' new_h)
        sigmoid = basic_math_ops.sigmoid
        one = constant_op.constant(1, dtype=_dtypes.int32)
        if self._state_is_tuple:
            c, h = state
        else:
            c, h = slicing_ops.split(state, 2, axis=one)
        gate_inputs = _linear([inputs, h], self._kernel, self._bias)
        i, j, f, o = slicing_ops.split(gate_inputs, 4, axis=one)
        forget_bias_tensor = constant_op.constant(self._forget_bias, dtype=f.dtype)
        add, multiply = math_ops.add, math_ops.multiply
        new_c = add(multiply(c, sigmoid(add(f, forget_bias_tensor))),
                    multiply(sigmoid(i), self._activation(j)))
        new_h = multiply(self._activation(new_c), sigmoid(o))
        new_state = LSTMStateTuple(new_c, new_h) if self._state_is_tuple \
            else slicing_ops.concat([new_c, new_h], 1)
        return new_h, new_state


class LSTMCell(BasicLSTMCell):
    """The LSTM cell with TF's options: use_peepholes (diagonal peephole weights w_f_diag,
    w_i_diag, w_o_diag), cell_clip, num_proj (output projected to num_proj units by
    'projection/kernel') and proj_clip; `initializer` for the kernels. Sharding
    (num_unit_shards, num_proj_shards) is not supported."""

    def __init__(self, num_units, use_peepholes=False, cell_clip=None, initializer=None,
                 num_proj=None, proj_clip=None, num_unit_shards=None, num_proj_shards=None,
                 forget_bias=1.0, state_is_tuple=True, activation=None, reuse=None, name=None,
                 dtype=None, **kwargs):
        if num_unit_shards is not None or num_proj_shards is not None:
            raise NotImplementedError("LSTMCell(num_unit_shards / num_proj_shards) is "
                                      "deprecated in TF and not supported by the sandbox")
        super().__init__(num_units, forget_bias=forget_bias, state_is_tuple=state_is_tuple,
                         activation=activation, reuse=reuse, name=name, dtype=dtype, **kwargs)
        self._use_peepholes = use_peepholes
        self._cell_clip = cell_clip
        self._initializer = initializer
        self._num_proj = num_proj
        self._proj_clip = proj_clip

    @property
    def state_size(self):
        n, m = self._num_units, self._num_proj or self._num_units
        return LSTMStateTuple(n, m) if self._state_is_tuple else n + m

    @property
    def output_size(self):
        return self._num_proj or self._num_units

    def build(self, inputs_shape):
        input_depth = _depth(inputs_shape)
        n, m = self._num_units, self._num_proj or self._num_units
        self._kernel = self.add_variable(_WEIGHTS, [input_depth + m, 4 * n],
                                         initializer=self._initializer)
        self._bias = self.add_variable(_BIAS, [4 * n], initializer=init_ops.zeros_initializer())
        if self._use_peepholes:
            self._w_f_diag = self.add_variable("w_f_diag", [n], initializer=self._initializer)
            self._w_i_diag = self.add_variable("w_i_diag", [n], initializer=self._initializer)
            self._w_o_diag = self.add_variable("w_o_diag", [n], initializer=self._initializer)
        if self._num_proj is not None:
            self._proj_kernel = self.add_variable("projection/" + _WEIGHTS, [n, self._num_proj],
                                                  initializer=self._initializer)

    def _split_state(self, state):
        if self._state_is_tuple:
            return state
        return slicing_ops.split(state, [self._num_units, -1], axis=1)

    def call(self, inputs, state):
        c_prev, m_prev = self._split_state(state)
        sigmoid, act = basic_math_ops.sigmoid, self._activation
        i, j, f, o = slicing_ops.split(_linear([inputs, m_prev], self._kernel, self._bias), 4,
                                       axis=1)
        if self._use_peepholes:             # TF's expressions: ops 'add', 'mul' ...
            c = (sigmoid(f + self._forget_bias + self._w_f_diag * c_prev) * c_prev +
                 sigmoid(i + self._w_i_diag * c_prev) * act(j))
        else:
            c = sigmoid(f + self._forget_bias) * c_prev + sigmoid(i) * act(j)
        if self._cell_clip is not None:
            c = clip_ops.clip_by_value(c, -self._cell_clip, self._cell_clip)
        if self._use_peepholes:
            m = sigmoid(o + self._w_o_diag * c) * act(c)
        else:
            m = sigmoid(o) * act(c)
        if self._num_proj is not None:
            m = matmul_ops.matmul(m, self._proj_kernel)
            if self._proj_clip is not None:
                m = clip_ops.clip_by_value(m, -self._proj_clip, self._proj_clip)
        new_state = LSTMStateTuple(c, m) if self._state_is_tuple \
            else slicing_ops.concat([c, m], 1)
        return m, new_state


class GRUCell(RNNCell):
    """The gated recurrent unit (Cho et al. 2014): a reset gate r and an update gate u
    ('gates/kernel', 'gates/bias', whose bias starts at 1.0) and a candidate state
    ('candidate/kernel', 'candidate/bias')."""
    _layer_cell = True

    def __init__(self, num_units, activation=None, reuse=None, kernel_initializer=None,
                 bias_initializer=None, name=None, dtype=None, **kwargs):
        super().__init__(name=name, dtype=dtype, reuse=reuse, **kwargs)
        self._num_units = num_units
        self._activation = _activation(activation)
        self._kernel_initializer = kernel_initializer
        self._bias_initializer = bias_initializer

    @property
    def state_size(self):
        return self._num_units

    @property
    def output_size(self):
        return self._num_units

    def build(self, inputs_shape):
        input_depth = _depth(inputs_shape)
        n = self._num_units
        self._gate_kernel = self.add_variable("gates/" + _WEIGHTS, [input_depth + n, 2 * n],
                                              initializer=self._kernel_initializer)
        self._gate_bias = self.add_variable(
            "gates/" + _BIAS, [2 * n],
            initializer=self._bias_initializer or init_ops.constant_initializer(1.0))
        self._candidate_kernel = self.add_variable(
            "candidate/" + _WEIGHTS, [input_depth + n, n], initializer=self._kernel_initializer)
        self._candidate_bias = self.add_variable(
            "candidate/" + _BIAS, [n],
            initializer=self._bias_initializer or init_ops.zeros_initializer())

    def call(self, inputs, state):
        value = basic_math_ops.sigmoid(_linear([inputs, state], self._gate_kernel,
                                               self._gate_bias))
        r, u = slicing_ops.split(value, 2, axis=1)
        candidate = self._activation(_linear([inputs, r * state], self._candidate_kernel,
                                             self._candidate_bias))
        new_h = u * state + (1 - u) * candidate
        return new_h, new_h


class MultiRNNCell(RNNCell):
    """Cells stacked in layers: the output of cell k is the input of cell k + 1, each called in
    variable scope 'cell_k'. The state is the tuple of the cells' states."""
    _needs_depth = False

    def __init__(self, cells, state_is_tuple=True):
        super().__init__()
        if not cells:
            raise ValueError("Must specify at least one cell for MultiRNNCell.")
        self._cells = list(cells)
        self._state_is_tuple = state_is_tuple
        if not state_is_tuple and any(isinstance(c.state_size, tuple) for c in self._cells):
            raise ValueError("Some cells return tuples of states, but the flag "
                             "state_is_tuple is not set.")

    @property
    def state_size(self):
        if self._state_is_tuple:
            return tuple(c.state_size for c in self._cells)
        return sum(c.state_size for c in self._cells)

    @property
    def output_size(self):
        return self._cells[-1].output_size

    @property
    def variables(self):
        return [v for c in self._cells for v in c.variables]

    def zero_state(self, batch_size, dtype):
        with name_scope(type(self).__name__ + "ZeroState", values=[batch_size]):
            if self._state_is_tuple:
                return tuple(c.zero_state(batch_size, dtype) for c in self._cells)
            return _zeros(self.state_size, batch_size, _dtypes.as_dtype(dtype))

    def call(self, inputs, state):
        x, new_states, start = inputs, [], 0
        for i, cell in enumerate(self._cells):
            with variable_scope(f"cell_{i}"):
                if self._state_is_tuple:
                    cell_state = state[i]
                else:
                    size = cell.state_size
                    cell_state = array_ops_slice(state, start, size)
                    start += size
                x, new_state = cell(x, cell_state)
                new_states.append(new_state)
        if self._state_is_tuple:
            return x, tuple(new_states)
        return x, slicing_ops.concat(new_states, 1)


def array_ops_slice(state, start, size):
    """Columns [start, start + size) of a [batch, total] state."""
    return slicing_ops.slice(state, [0, start], [-1, size])


class _Wrapper(RNNCell):
    """A cell around another cell: the same sizes, state and variables."""
    _needs_depth = False

    def __init__(self, cell):
        super().__init__(name=getattr(cell, "name", None))
        self._cell = cell

    @property
    def wrapped_cell(self):
        return self._cell

    @property
    def state_size(self):
        return self._cell.state_size

    @property
    def output_size(self):
        return self._cell.output_size

    @property
    def variables(self):
        return self._cell.variables

    def zero_state(self, batch_size, dtype):
        return self._cell.zero_state(batch_size, dtype)


class ResidualWrapper(_Wrapper):
    """output = cell's output + inputs (a residual connection; the sizes must match)."""

    def __init__(self, cell, residual_fn=None):
        super().__init__(cell)
        self._residual_fn = residual_fn or (lambda inputs, output: inputs + output)

    def __call__(self, inputs, state, scope=None):
        inputs = convert_to_tensor(inputs)
        output, new_state = self._cell(inputs, state, scope=scope)
        return self._residual_fn(inputs, output), new_state


class DeviceWrapper(_Wrapper):
    """Runs the cell's step on `device` (e.g. one layer of a MultiRNNCell per GPU)."""

    def __init__(self, cell, device):
        super().__init__(cell)
        self._device = device

    def zero_state(self, batch_size, dtype):
        with device_scope(self._device):
            return self._cell.zero_state(batch_size, dtype)

    def __call__(self, inputs, state, scope=None):
        with device_scope(self._device):
            return self._cell(inputs, state, scope=scope)


class DropoutWrapper(_Wrapper):
    """Dropout on the inputs, outputs and/or state of a cell (keep probabilities, 1.0 = none).
    The sandbox draws a new mask at every step (TF's variational_recurrent=False)."""

    def __init__(self, cell, input_keep_prob=1.0, output_keep_prob=1.0, state_keep_prob=1.0,
                 variational_recurrent=False, input_size=None, dtype=None, seed=None,
                 dropout_state_filter_visitor=None):
        if variational_recurrent:
            raise NotImplementedError("DropoutWrapper(variational_recurrent=True) is not "
                                      "supported by the sandbox")
        super().__init__(cell)
        self._keep = (input_keep_prob, output_keep_prob, state_keep_prob)
        self._seed = seed

    def _dropout(self, x, keep):
        if isinstance(keep, (int, float)) and keep == 1.0:
            return x
        return nn_ops.dropout(x, keep_prob=keep, seed=self._seed)

    def __call__(self, inputs, state, scope=None):
        inputs = self._dropout(convert_to_tensor(inputs), self._keep[0])
        output, new_state = self._cell(inputs, state, scope=scope)
        if not (isinstance(self._keep[2], (int, float)) and self._keep[2] == 1.0):
            if isinstance(new_state, LSTMStateTuple):        # TF: only h, never c
                new_state = LSTMStateTuple(new_state.c, self._dropout(new_state.h,
                                                                      self._keep[2]))
            elif isinstance(new_state, Tensor):
                new_state = self._dropout(new_state, self._keep[2])
        return self._dropout(output, self._keep[1]), new_state
