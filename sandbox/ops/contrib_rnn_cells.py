"""The fused cells and stacked bidirectional RNNs of tf.contrib.rnn -- mirrors TensorFlow
1.15's contrib/rnn/python/ops/lstm_ops.py (LSTMBlockCell), gru_ops.py (GRUBlockCellV2) and
contrib/rnn/python/ops/rnn.py (stack_bidirectional_rnn, stack_bidirectional_dynamic_rnn).

TF's block cells run one fused kernel per step (LSTMBlockCell, GRUBlockCell ops) for speed; the
arithmetic is the LSTM's and the GRU's, with the same variables. The sandbox computes them with
the ordinary cells' ops (rnn_cell_impl.py), so a model trained with LSTMBlockCell restores into
one built with it here, variable for variable:

    LSTMBlockCell(n)      lstm_cell/kernel [in + n, 4n], lstm_cell/bias [4n]; gates i, c, f, o
                          (BasicLSTMCell's order); use_peephole adds w_i_diag, w_f_diag,
                          w_o_diag; cell_clip clips the cell state
    GRUBlockCellV2(n)     gru_cell/gates/kernel, gates/bias (from 1.0), candidate/kernel,
                          candidate/bias: GRUCell's

A stacked bidirectional RNN feeds each layer the concatenated forward and backward outputs of
the layer below; layer i's variables live under 'stack_bidirectional_rnn/cell_<i>/'.
"""
from . import init_ops
from . import variable_scope as vs
from .rnn import bidirectional_dynamic_rnn, static_bidirectional_rnn
from .rnn_cell_impl import GRUCell, LSTMCell, _depth
from .slicing_ops import concat

__all__ = ["LSTMBlockCell", "GRUBlockCellV2", "stack_bidirectional_rnn",
           "stack_bidirectional_dynamic_rnn"]


class LSTMBlockCell(LSTMCell):
    """The fused LSTM cell of TF's contrib: an LSTMCell without projection, whose cell_clip
    None (or negative) means no clipping, named 'lstm_cell' by default."""

    def __init__(self, num_units, forget_bias=1.0, cell_clip=None, use_peephole=False,
                 dtype=None, reuse=None, name="lstm_cell"):
        clip = None if cell_clip is None or cell_clip < 0 else cell_clip
        super().__init__(num_units, use_peepholes=use_peephole, cell_clip=clip,
                         forget_bias=forget_bias, reuse=reuse, name=name, dtype=dtype)

    def build(self, inputs_shape):
        n = self._num_units
        self._kernel = self.add_variable("kernel", [_depth(inputs_shape) + n, 4 * n])
        self._bias = self.add_variable("bias", [4 * n], initializer=init_ops.zeros_initializer())
        if self._use_peepholes:                  # TF's block cell makes them in this order
            self._w_i_diag = self.add_variable("w_i_diag", [n])
            self._w_f_diag = self.add_variable("w_f_diag", [n])
            self._w_o_diag = self.add_variable("w_o_diag", [n])


class GRUBlockCellV2(GRUCell):
    """The fused GRU cell of TF's contrib (its V2 keeps GRUCell's variable names)."""

    def __init__(self, num_units=None, cell_size=None, reuse=None, name="gru_cell"):
        if num_units is None:
            num_units = cell_size
        if num_units is None:
            raise ValueError("GRUBlockCellV2 needs num_units (or its old name cell_size).")
        super().__init__(num_units, reuse=reuse, name=name)


def _check_stack(cells_fw, cells_bw, initial_states_fw, initial_states_bw):
    if not cells_fw:
        raise ValueError("Must specify at least one fw cell for BidirectionalRNN.")
    if not cells_bw:
        raise ValueError("Must specify at least one bw cell for BidirectionalRNN.")
    if not isinstance(cells_fw, list):
        raise ValueError("cells_fw must be a list of RNNCells (one per layer).")
    if not isinstance(cells_bw, list):
        raise ValueError("cells_bw must be a list of RNNCells (one per layer).")
    if len(cells_fw) != len(cells_bw):
        raise ValueError("Forward and Backward cells must have the same depth.")
    for states, what in ((initial_states_fw, "fw"), (initial_states_bw, "bw")):
        if states is not None and (not isinstance(states, list) or
                                   len(states) != len(cells_fw)):
            raise ValueError(f"initial_states_{what} must be a list of state tensors (one "
                             "per layer).")


def _initial(states, i):
    return states[i] if states else None


def stack_bidirectional_rnn(cells_fw, cells_bw, inputs, initial_states_fw=None,
                            initial_states_bw=None, dtype=None, sequence_length=None,
                            scope=None):
    """Layers of static bidirectional RNNs over a list of [batch, depth] inputs; returns
    (outputs of the last layer, forward states, backward states), one state per layer."""
    _check_stack(cells_fw, cells_bw, initial_states_fw, initial_states_bw)
    if not inputs:
        raise ValueError("inputs must not be empty")
    states_fw, states_bw, layer = [], [], inputs
    with vs.variable_scope(scope or "stack_bidirectional_rnn"):
        for i, (cell_fw, cell_bw) in enumerate(zip(cells_fw, cells_bw)):
            with vs.variable_scope(f"cell_{i}"):
                layer, state_fw, state_bw = static_bidirectional_rnn(
                    cell_fw, cell_bw, layer, initial_state_fw=_initial(initial_states_fw, i),
                    initial_state_bw=_initial(initial_states_bw, i),
                    sequence_length=sequence_length, dtype=dtype)
            states_fw.append(state_fw)
            states_bw.append(state_bw)
    return layer, tuple(states_fw), tuple(states_bw)


def stack_bidirectional_dynamic_rnn(cells_fw, cells_bw, inputs, initial_states_fw=None,
                                    initial_states_bw=None, dtype=None, sequence_length=None,
                                    parallel_iterations=None, time_major=False, scope=None,
                                    swap_memory=False):
    """Layers of bidirectional dynamic RNNs over [batch, time, depth] inputs (time_major:
    [time, batch, depth]); each layer reads the concatenated outputs of the one below.
    Returns (outputs of the last layer, forward states, backward states)."""
    _check_stack(cells_fw, cells_bw, initial_states_fw, initial_states_bw)
    states_fw, states_bw, layer = [], [], inputs
    with vs.variable_scope(scope or "stack_bidirectional_rnn"):
        for i, (cell_fw, cell_bw) in enumerate(zip(cells_fw, cells_bw)):
            with vs.variable_scope(f"cell_{i}"):
                outputs, (state_fw, state_bw) = bidirectional_dynamic_rnn(
                    cell_fw, cell_bw, layer, initial_state_fw=_initial(initial_states_fw, i),
                    initial_state_bw=_initial(initial_states_bw, i),
                    sequence_length=sequence_length, parallel_iterations=parallel_iterations,
                    dtype=dtype, swap_memory=swap_memory, time_major=time_major)
                layer = concat(outputs, 2)
            states_fw.append(state_fw)
            states_bw.append(state_bw)
    return layer, tuple(states_fw), tuple(states_bw)
