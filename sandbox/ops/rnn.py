"""Recurrent networks -- mirrors TensorFlow 1.x's python/ops/rnn.py: tf.nn.dynamic_rnn,
tf.nn.static_rnn, tf.nn.bidirectional_dynamic_rnn, tf.nn.static_bidirectional_rnn,
tf.nn.raw_rnn and tf.nn.static_state_saving_rnn.

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

raw_rnn is the loop itself, as TF's: a tf.while_loop (ops/while_v2.py) whose every step asks
the caller's loop_fn for the next input and what to emit into a TensorArray, until loop_fn
says every example has finished -- so its number of steps is known only when it runs.
"""
from ..framework import dtypes as _dtypes
from ..framework.tensor import convert_to_tensor
from . import array_ops, comparison_ops, manip_ops, math_ops, slicing_ops
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
    """x reversed along time: the whole axis, or only each example's first seq[b] steps
    (TF's ReverseSequence)."""
    if seq is None:
        return array_ops.reverse(x, [time_axis])
    return manip_ops.reverse_sequence(x, seq, seq_axis=time_axis, batch_axis=batch_axis)


def _reverse_seq(input_seq, lengths):
    """A list of per-step tensors (or nested tuples of them) reversed in time, each example up
    to its length: TF's rnn._reverse_seq -- no op at all without lengths, else stack,
    ReverseSequence and unstack of each component."""
    if lengths is None:
        return list(reversed(input_seq))
    flat_steps = [_flatten(step) for step in input_seq]
    flat_results = [[] for _ in input_seq]
    for sequence in zip(*flat_steps):
        joined = array_ops.stack(list(sequence))
        for r, flat_result in zip(array_ops.unstack(_reverse(joined, lengths, 0, 1),
                                                    num=len(input_seq)), flat_results):
            flat_result.append(r)
    return [_pack(step, flat) for step, flat in zip(input_seq, flat_results)]


def _flatten(structure):
    if isinstance(structure, (tuple, list)):
        return [leaf for item in structure for leaf in _flatten(item)]
    return [structure]


def _pack(structure, flat):
    """`flat` (a list of leaves) in the nesting of `structure`."""
    leaves = iter(flat)
    return _map(lambda _: next(leaves), structure)


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
    output_bw = _reverse(tmp, seq, time_axis, batch_axis)      # outside the scope, as TF
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
            reversed_inputs = _reverse_seq([convert_to_tensor(x) for x in inputs], seq)
            tmp, state_bw = static_rnn(cell_bw, reversed_inputs, initial_state_bw, dtype,
                                       sequence_length, scope=bw_scope)
    # as TF, outside the scope: the outputs are 'concat', 'concat_1' ...
    output_bw = _reverse_seq(tmp, seq)
    outputs = [slicing_ops.concat([fw, bw], 1) for fw, bw in zip(output_fw, output_bw)]
    return outputs, state_fw, state_bw


# -- raw_rnn: the loop itself, with the caller's loop_fn deciding every step ------------------

def raw_rnn(cell, loop_fn, parallel_iterations=None, swap_memory=False, scope=None):
    """TF 1.15's rnn.raw_rnn: a tf.while_loop (ops/while_v2.py) in which the caller's

        loop_fn(time, cell_output, cell_state, loop_state)
            -> (elements_finished, next_input, next_cell_state, emit_output, next_loop_state)

    chooses each step's input and what to emit. It is first called with time = 0 and
    cell_output = cell_state = loop_state = None, and returns the initial state there (and
    emit_output: a structure of tensors, one example's shapes, or None for cell.output_size).
    The loop runs until elements_finished ([batch] bool) is all true; a finished example
    emits zeros and keeps its state. Returns (emit_ta, final_state, final_loop_state):
    emit_ta a TensorArray (or a structure of them) whose element t is step t's
    [batch, ...] emit_output -- `emit_ta.stack()` gives [time, batch, ...]."""
    from . import reduction_ops
    from .constant_op import constant
    from .func_graph import assert_same_structure, flatten, pack_sequence_as
    from .tensor_array_ops import TensorArray
    from .while_v2 import while_loop
    if not callable(getattr(cell, "__call__", None)) or not hasattr(cell, "output_size"):
        raise TypeError(f"raw_rnn: cell must be an RNNCell, got {cell!r}")
    if not callable(loop_fn):
        raise TypeError("loop_fn must be a callable")
    with variable_scope(scope or "rnn"):
        time = constant(0, dtype=_dtypes.int32)
        (elements_finished, next_input, initial_state, emit_structure,
         init_loop_state) = loop_fn(time=time, cell_output=None, cell_state=None,
                                    loop_state=None)
        # a surrogate loop state for the while_loop when loop_fn keeps none
        loop_state = init_loop_state if init_loop_state is not None else \
            constant(0, dtype=_dtypes.int32)
        flat_input = [convert_to_tensor(x) for x in flatten(next_input)]
        next_input = pack_sequence_as(next_input, flat_input)
        static_batch = flat_input[0].get_shape()[0]
        for x in flat_input[1:]:
            static_batch = static_batch.merge_with(x.get_shape()[0])
        batch_size = static_batch.value if static_batch.value is not None else \
            array_ops.shape(flat_input[0])[0]
        assert_same_structure(initial_state, cell.state_size,
                              "raw_rnn: the initial state and cell.state_size")
        state = pack_sequence_as(initial_state,
                                 [convert_to_tensor(s) for s in flatten(initial_state)])
        flat_state = flatten(state)
        if emit_structure is not None:
            flat_emit = flatten(emit_structure)
            emit_sizes = [e.get_shape() if e.get_shape().is_fully_defined()
                          else array_ops.shape(e) for e in flat_emit]
            emit_dtypes = [e.dtype.base_dtype for e in flat_emit]
        else:
            emit_structure = cell.output_size
            emit_sizes = flatten(emit_structure)
            emit_dtypes = [flat_state[0].dtype.base_dtype] * len(emit_sizes)

        def size_list(size):
            if isinstance(size, int):
                return [size]
            return size.as_list() if hasattr(size, "as_list") else size

        emit_ta = pack_sequence_as(emit_structure, [
            TensorArray(dtype=d, size=0, dynamic_size=True, name=f"rnn_output_{i}",
                        element_shape=[static_batch.value] + size_list(s)
                        if not hasattr(s, "op") else None)
            for i, (d, s) in enumerate(zip(emit_dtypes, emit_sizes))])
        zero_emit = pack_sequence_as(emit_structure, [
            array_ops.zeros(slicing_ops.concat([[batch_size], s], 0) if hasattr(s, "op")
                            else [batch_size] + size_list(s), d)
            for s, d in zip(emit_sizes, emit_dtypes)])

        # The sandbox's loop body cannot create variables (ops/while_v2.py): one call of the
        # cell here creates them, under the names TF gives them ('rnn/basic_rnn_cell/kernel');
        # the calls in the body reuse them. (This call's ops are never run.)
        if not getattr(cell, "built", True):
            cell(next_input, state)

        def condition(unused_time, elements_finished, *_):
            return comparison_ops.logical_not(reduction_ops.reduce_all(elements_finished))

        def body(time, elements_finished, current_input, emit_ta, state, loop_state):
            next_output, cell_state = cell(current_input, state)
            assert_same_structure(state, cell_state, "raw_rnn: the cell's state")
            next_time = time + 1
            (next_finished, next_input, next_state, emit_output,
             next_loop_state) = loop_fn(next_time, next_output, cell_state, loop_state)
            assert_same_structure(state, next_state, "raw_rnn: loop_fn's next_cell_state")
            assert_same_structure(current_input, next_input, "raw_rnn: loop_fn's next_input")
            assert_same_structure(emit_ta, emit_output, "raw_rnn: loop_fn's emit_output")
            loop_state = loop_state if next_loop_state is None else next_loop_state

            def copy_some_through(current, candidate):   # finished examples keep `current`
                def pick(cur, cand):
                    if cur.get_shape().ndims == 0:
                        return cand
                    return comparison_ops.where(elements_finished, cur, cand)
                return pack_sequence_as(current, [pick(c, n) for c, n in
                                                  zip(flatten(current), flatten(candidate))])

            emit_output = copy_some_through(zero_emit, emit_output)
            next_state = copy_some_through(state, next_state)
            emit_ta = pack_sequence_as(emit_ta, [ta.write(time, e) for ta, e in
                                                 zip(flatten(emit_ta), flatten(emit_output))])
            elements_finished = comparison_ops.logical_or(elements_finished, next_finished)
            return (next_time, elements_finished, next_input, emit_ta, next_state, loop_state)

        returned = while_loop(condition, body, loop_vars=[
            time, elements_finished, next_input, emit_ta, state, loop_state],
            parallel_iterations=parallel_iterations or 32, swap_memory=swap_memory)
        emit_ta, final_state, final_loop_state = returned[-3:]
        if init_loop_state is None:
            final_loop_state = None
        return emit_ta, final_state, final_loop_state


def static_state_saving_rnn(cell, inputs, state_saver, state_name, sequence_length=None,
                            scope=None):
    """static_rnn whose initial state comes from `state_saver` and whose final state goes back
    to it (TF 1.15's rnn.static_state_saving_rnn): the state of a long sequence carried over
    from one batch of its pieces to the next. state_saver has state(name) -> tensor and
    save_state(name, value) -> op (e.g. a SequenceQueueingStateSaver); state_name is one name,
    or a structure of names like cell.state_size (an LSTMStateTuple of two, ...). The last
    output and the final state are returned only after the state is saved."""
    from ..framework.graph import control_dependencies
    from .control_flow_ops import identity
    from .func_graph import flatten, is_sequence, pack_sequence_as
    state_size = cell.state_size
    state_is_tuple = is_sequence(state_size)
    if state_is_tuple != is_sequence(state_name):
        raise ValueError(f"state_name should be the same type as cell.state_size.  state_name: "
                         f"{state_name}, cell.state_size: {state_size}")
    names = flatten(state_name) if state_is_tuple else [state_name]
    if state_is_tuple:
        if len(names) != len(flatten(state_size)):
            raise ValueError(f"#elems allowed in state_name does not match #elems in "
                             f"state_size: {len(names)} vs. {len(flatten(state_size))}")
        initial_state = pack_sequence_as(state_size, [state_saver.state(n) for n in names])
    else:
        initial_state = state_saver.state(state_name)
    outputs, state = static_rnn(cell, inputs, initial_state=initial_state,
                                sequence_length=sequence_length, scope=scope)
    flat_state = flatten(state) if state_is_tuple else [state]
    save_state = [state_saver.save_state(n, s) for n, s in zip(names, flat_state)]
    with control_dependencies(save_state):
        outputs[-1] = pack_sequence_as(outputs[-1], [identity(o) for o in flatten(outputs[-1])])
        if state_is_tuple:
            state = pack_sequence_as(state, [identity(s) for s in flat_state])
        else:
            state = identity(state)
    return outputs, state
