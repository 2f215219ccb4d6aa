"""Recurrent networks -- mirrors TensorFlow 1.x's python/ops/rnn.py: tf.nn.dynamic_rnn,
tf.nn.static_rnn, tf.nn.bidirectional_dynamic_rnn and tf.nn.static_bidirectional_rnn.

They run a cell (rnn_cell_impl.py) along the time axis, carrying the state from one step to
the next:

    state = initial_state (or cell.zero_state(batch, dtype))
    for t in range(time):
        output[t], state = cell(inputs[t], state)
    return outputs, state

static_rnn takes the inputs as a Python list of [batch, depth] tensors (one per step) and
returns a list; dynamic_rnn takes one [batch, time, depth] tensor ([time, batch, depth] with
time_major=True) and returns one. Both create the cell's variables in variable scope 'rnn'
('rnn/basic_lstm_cell/kernel' ...), as TF does.

With sequence_length ([batch] ints), example b stops at step sequence_length[b]: its outputs
after that are zeros and its final state is the state at its last step (TF's "copy through").

One difference from TF: TF's dynamic_rnn builds a tf.while_loop, so the number of steps may be
known only when the graph runs. The sandbox's dynamic_rnn unrolls the loop into one cell call
per step, so the time dimension of `inputs` must be known when the graph is built (the batch
may be unknown); the numbers are the same as TF's. An unknown time dimension is an error that
says so; pad the sequences to a fixed length (and pass sequence_length) instead.
"""
from ..framework import dtypes as _dtypes
from ..framework.tensor import convert_to_tensor
from . import array_ops, comparison_ops, math_ops, slicing_ops
from .rnn_cell_impl import LSTMStateTuple
from .variable_scope import variable_scope

__all__ = []   # reached as tf.nn.* (sandbox/nn.py)


def _map(fn, *structures):
    """fn applied leaf by leaf to nested tuples (LSTMStateTuple, tuples of states)."""
    first = structures[0]
    if isinstance(first, (tuple, list)):
        items = [_map(fn, *parts) for parts in zip(*structures)]
        if isinstance(first, LSTMStateTuple) or hasattr(first, "_fields"):
            return type(first)(*items)
        return type(first)(items)
    return fn(*structures)


def _batch_size(x, axis):
    """The batch size of x: an int when static, else a scalar tensor."""
    size = x.get_shape()[axis].value
    return size if size is not None else array_ops.shape(x)[axis]


def _initial_state(cell, initial_state, dtype, batch_size):
    if initial_state is not None:
        return initial_state
    if dtype is None:
        raise ValueError("If there is no initial_state, you must give a dtype.")
    return cell.zero_state(batch_size, dtype)


def _copy_through(t, sequence_length, new_output, new_state, state):
    """Past an example's sequence_length: zero output, previous state."""
    alive = comparison_ops.less(t, sequence_length)                    # [batch] bool

    def keep_or(new, old):
        return comparison_ops.where(alive, new, old)

    output = comparison_ops.where(alive, new_output, array_ops.zeros_like(new_output))
    return output, _map(keep_or, new_state, state)


def _unroll(cell, steps, state, sequence_length):
    """The loop: one cell call per step; returns (list of outputs, final state)."""
    outputs = []
    for t, x in enumerate(steps):
        output, new_state = cell(x, state)
        if sequence_length is not None:
            output, new_state = _copy_through(t, sequence_length, output, new_state, state)
        outputs.append(output)
        state = new_state
    return outputs, state


def _sequence_length(sequence_length):
    if sequence_length is None:
        return None
    seq = math_ops.cast(convert_to_tensor(sequence_length, name="sequence_length"),
                        _dtypes.int32)
    if seq.get_shape().ndims not in (None, 1):
        raise ValueError(f"sequence_length must be a vector of length batch_size, but saw "
                         f"shape: {seq.get_shape()}")
    return seq


def dynamic_rnn(cell, inputs, sequence_length=None, initial_state=None, dtype=None,
                parallel_iterations=None, swap_memory=False, time_major=False, scope=None):
    """Runs `cell` over inputs [batch, time, depth] (or [time, batch, depth] when
    time_major). Returns (outputs [batch, time, cell.output_size] -- time-major when
    time_major -- and the final state). Unrolled over the time dimension, which must be
    known when the graph is built (TF uses a while_loop; see the module docstring)."""
    with variable_scope(scope or "rnn"):
        inputs = convert_to_tensor(inputs, name="inputs")
        shape = inputs.get_shape()
        if shape.ndims is not None and shape.ndims < 3:
            raise ValueError(f"dynamic_rnn: inputs must be at least rank 3 ([batch, time, "
                             f"depth]), got shape {shape}")
        time_axis, batch_axis = (0, 1) if time_major else (1, 0)
        steps = shape[time_axis].value if shape.ndims is not None else None
        if steps is None:
            raise ValueError(
                f"The sandbox's dynamic_rnn unrolls the time loop when the graph is built, so "
                f"the time dimension of inputs must be known; inputs {inputs.name!r} has shape "
                f"{shape}. Pad the sequences to a fixed length (placeholder [None, T, depth]) "
                f"and pass sequence_length for the real lengths.")
        seq = _sequence_length(sequence_length)
        batch_size = _batch_size(inputs, batch_axis)
        state = _initial_state(cell, initial_state, dtype, batch_size)
        xs = array_ops.unstack(inputs, num=steps, axis=time_axis)
        outputs, final_state = _unroll(cell, xs, state, seq)
        stacked = array_ops.stack(outputs, axis=time_axis)
        return stacked, final_state


def static_rnn(cell, inputs, initial_state=None, dtype=None, sequence_length=None,
               scope=None):
    """Runs `cell` over a list of inputs, one [batch, depth] tensor per step. Returns
    (list of outputs, final state)."""
    if not isinstance(inputs, (list, tuple)):
        raise TypeError("inputs must be a sequence")
    if not inputs:
        raise ValueError("inputs must not be empty")
    with variable_scope(scope or "rnn"):
        xs = [convert_to_tensor(x, name="inputs") for x in inputs]
        state = _initial_state(cell, initial_state, dtype, _batch_size(xs[0], 0))
        seq = _sequence_length(sequence_length)
        return _unroll(cell, xs, state, seq)


def _reverse(x, seq, time_axis, batch_axis):
    """x reversed along time: the whole axis, or only each example's first seq[b] steps."""
    if seq is None:
        return array_ops.reverse(x, [time_axis])
    steps = x.get_shape()[time_axis].value
    xs = array_ops.unstack(x, num=steps, axis=time_axis)
    out = []
    for t in range(steps):
        # step t of example b is step seq[b] - 1 - t of the original (if inside seq[b])
        picked = xs[t]
        src_index = math_ops.subtract(math_ops.subtract(seq, 1), t)
        for s in range(steps):
            picked = comparison_ops.where(comparison_ops.equal(src_index, s), xs[s], picked)
        out.append(picked)
    return array_ops.stack(out, axis=time_axis)


def bidirectional_dynamic_rnn(cell_fw, cell_bw, inputs, sequence_length=None,
                              initial_state_fw=None, initial_state_bw=None, dtype=None,
                              parallel_iterations=None, swap_memory=False, time_major=False,
                              scope=None):
    """A forward and a backward dynamic_rnn over the same inputs, in variable scopes
    'bidirectional_rnn/fw' and 'bidirectional_rnn/bw'. Returns ((output_fw, output_bw),
    (state_fw, state_bw)); output_bw is in the original time order."""
    with variable_scope(scope or "bidirectional_rnn"):
        with variable_scope("fw") as fw_scope:
            output_fw, state_fw = dynamic_rnn(cell_fw, inputs, sequence_length, initial_state_fw,
                                              dtype, time_major=time_major, scope=fw_scope)
        time_axis, batch_axis = (0, 1) if time_major else (1, 0)
        seq = _sequence_length(sequence_length)
        with variable_scope("bw") as bw_scope:
            inputs = convert_to_tensor(inputs, name="inputs")
            reversed_inputs = _reverse(inputs, seq, time_axis, batch_axis)
            tmp, state_bw = dynamic_rnn(cell_bw, reversed_inputs, seq, initial_state_bw, dtype,
                                        time_major=time_major, scope=bw_scope)
        output_bw = _reverse(tmp, seq, time_axis, batch_axis)
    return (output_fw, output_bw), (state_fw, state_bw)


def static_bidirectional_rnn(cell_fw, cell_bw, inputs, initial_state_fw=None,
                             initial_state_bw=None, dtype=None, sequence_length=None,
                             scope=None):
    """static_rnn forward and backward ('bidirectional_rnn/fw', '.../bw'). Returns (outputs,
    state_fw, state_bw), each output the concatenation [forward, backward] on the last axis."""
    if not isinstance(inputs, (list, tuple)) or not inputs:
        raise TypeError("inputs must be a non-empty list")
    with variable_scope(scope or "bidirectional_rnn"):
        with variable_scope("fw") as fw_scope:
            output_fw, state_fw = static_rnn(cell_fw, inputs, initial_state_fw, dtype,
                                             sequence_length, scope=fw_scope)
        with variable_scope("bw") as bw_scope:
            seq = _sequence_length(sequence_length)
            stacked = array_ops.stack([convert_to_tensor(x) for x in inputs], axis=0)
            reversed_inputs = array_ops.unstack(_reverse(stacked, seq, 0, 1), num=len(inputs))
            tmp, state_bw = static_rnn(cell_bw, reversed_inputs, initial_state_bw, dtype,
                                       sequence_length, scope=bw_scope)
        output_bw = array_ops.unstack(
            _reverse(array_ops.stack(tmp, axis=0), seq, 0, 1), num=len(inputs))
        outputs = [slicing_ops.concat([fw, bw], 1) for fw, bw in zip(output_fw, output_bw)]
    return outputs, state_fw, state_bw
