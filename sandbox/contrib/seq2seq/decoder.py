"""Decoder and dynamic_decode -- mirrors TF 1.15's contrib/seq2seq/python/ops/decoder.py.

A Decoder says how to take one step (BasicDecoder, basic_decoder.py; BeamSearchDecoder);
dynamic_decode runs the steps in a tf.while_loop until every example has finished (or
maximum_iterations steps are done):

    finished, inputs, state = decoder.initialize()
    time = 0
    while not all(finished):
        outputs, state, inputs, step_finished = decoder.step(time, inputs, state)
        write outputs into TensorArrays at index `time`
        sequence_lengths[b] = time + 1 for every b not finished before this step
        finished |= step_finished;  time += 1
    outputs = the TensorArrays stacked: [time, batch, ...], transposed to [batch, time, ...]

With impute_finished=True, an example that has finished emits zeros and keeps its state, so
the final state is the state at its last step and no gradient flows through the steps after.

The cell's variables are created in variable scope 'decoder' ('decoder/basic_lstm_cell/
kernel'), as TF does. One difference: the sandbox's tf.while_loop cannot create variables in
its body (ops/while_v2.py), so dynamic_decode first takes one step outside the loop -- its ops
are never run -- which creates them under the same names; the steps in the loop reuse them.
"""
from ...api.nest import map_structure
from ...framework import dtypes as _dtypes
from ...framework.tensor import convert_to_tensor
from ...framework.tensor_shape import TensorShape
from ...framework.tensor_util import constant_value
from ...ops import array_ops, comparison_ops, reduction_ops, slicing_ops
from ...ops.constant_op import constant
from ...ops.func_graph import assert_same_structure, is_tensor_array
from ...ops.tensor_array_ops import TensorArray
from ...ops.variable_scope import variable_scope
from ...ops.while_v2 import while_loop
from .helper import transpose_batch_time

__all__ = ["Decoder", "dynamic_decode"]


class Decoder:
    """What dynamic_decode needs of a decoder: batch_size, output_size and output_dtype
    (structures of one step's output), initialize() -> (finished, inputs, state),
    step(time, inputs, state) -> (outputs, next_state, next_inputs, finished) and, if it
    has one, finalize(outputs, final_state, sequence_lengths)."""

    @property
    def batch_size(self):
        raise NotImplementedError

    @property
    def output_size(self):
        raise NotImplementedError

    @property
    def output_dtype(self):
        raise NotImplementedError

    @property
    def tracks_own_finished(self):
        """True if step() says itself which examples stay finished (beam search)."""
        return False

    def initialize(self, name=None):
        raise NotImplementedError

    def step(self, time, inputs, state, name=None):
        raise NotImplementedError

    def finalize(self, outputs, final_state, sequence_lengths):
        raise NotImplementedError


def _static_batch(batch_size):
    """batch_size as an int when known when the graph is built, else None."""
    if isinstance(batch_size, int):
        return batch_size
    value = constant_value(convert_to_tensor(batch_size, name="batch_size"))
    return None if value is None else int(value)


def _element_shape(batch_size, size):
    """[batch] + size: the shape of one step's output (None if size is not a shape)."""
    size = TensorShape(size) if isinstance(size, (int, list)) else size
    if not isinstance(size, TensorShape):
        return None
    return TensorShape([_static_batch(batch_size)]).concatenate(size)


def _zero_outputs(size, dtype, batch_size):
    """zeros [batch, *size] for each output of a step."""
    def zeros(s, d):
        s = TensorShape(s) if isinstance(s, (int, list)) else s
        shape = array_ops.reshape(batch_size, [1])
        if s.ndims:
            shape = slicing_ops.concat(
                [shape, convert_to_tensor(s.as_list(), dtype=_dtypes.int32)], 0)
        return array_ops.zeros(shape, dtype=d)
    return map_structure(zeros, size, dtype)


def dynamic_decode(decoder, output_time_major=False, impute_finished=False,
                   maximum_iterations=None, parallel_iterations=32, swap_memory=False,
                   scope=None):
    """Runs `decoder` step by step until all examples finish (see the module docstring).
    Returns (final_outputs, final_state, final_sequence_lengths): final_outputs is the
    decoder's output structure (BasicDecoderOutput(rnn_output, sample_id)) of
    [batch, time, ...] tensors ([time, batch, ...] when output_time_major)."""
    if not isinstance(decoder, Decoder):
        raise TypeError(f"Expected decoder to be type Decoder, but saw: {type(decoder)}")
    with variable_scope(scope, "decoder"):
        if maximum_iterations is not None:
            maximum_iterations = convert_to_tensor(maximum_iterations, dtype=_dtypes.int32,
                                                   name="maximum_iterations")
            if maximum_iterations.get_shape().ndims != 0:
                raise ValueError("maximum_iterations must be a scalar")
        initial_finished, initial_inputs, initial_state = decoder.initialize()
        zero_outputs = _zero_outputs(decoder.output_size, decoder.output_dtype,
                                     decoder.batch_size)
        if maximum_iterations is not None:
            initial_finished = comparison_ops.logical_or(
                initial_finished, comparison_ops.greater_equal(0, maximum_iterations))
        initial_sequence_lengths = array_ops.zeros_like(initial_finished, dtype=_dtypes.int32)
        initial_time = constant(0, dtype=_dtypes.int32)

        # the step that creates the variables (never run): see the module docstring
        decoder.step(initial_time, initial_inputs, initial_state)

        initial_outputs_ta = map_structure(
            lambda s, d: TensorArray(dtype=d, size=0, dynamic_size=True,
                                     element_shape=_element_shape(decoder.batch_size, s)),
            decoder.output_size, decoder.output_dtype)

        def condition(unused_time, unused_outputs_ta, unused_state, unused_inputs, finished,
                      unused_sequence_lengths):
            return comparison_ops.logical_not(reduction_ops.reduce_all(finished))

        def body(time, outputs_ta, state, inputs, finished, sequence_lengths):
            (next_outputs, decoder_state, next_inputs,
             decoder_finished) = decoder.step(time, inputs, state)
            if decoder.tracks_own_finished:
                next_finished = decoder_finished
            else:
                next_finished = comparison_ops.logical_or(decoder_finished, finished)
            if maximum_iterations is not None:
                next_finished = comparison_ops.logical_or(
                    next_finished, comparison_ops.greater_equal(time + 1, maximum_iterations))
            next_sequence_lengths = comparison_ops.where(
                comparison_ops.logical_not(finished),
                array_ops.fill(array_ops.shape(sequence_lengths), time + 1),
                sequence_lengths)
            assert_same_structure(state, decoder_state, "dynamic_decode: the decoder's state")
            assert_same_structure(inputs, next_inputs, "dynamic_decode: the decoder's inputs")
            if impute_finished:
                emit = map_structure(lambda out, zero: comparison_ops.where(finished, zero, out),
                                     next_outputs, zero_outputs)

                def maybe_copy_state(new, cur):
                    if is_tensor_array(cur):
                        return new
                    new.set_shape(cur.get_shape())
                    if new.get_shape().ndims == 0:
                        return new
                    return comparison_ops.where(finished, cur, new)
                next_state = map_structure(maybe_copy_state, decoder_state, state)
            else:
                emit = next_outputs
                next_state = decoder_state
            outputs_ta = map_structure(lambda ta, out: ta.write(time, out), outputs_ta, emit)
            return (time + 1, outputs_ta, next_state, next_inputs, next_finished,
                    next_sequence_lengths)

        res = while_loop(condition, body,
                         loop_vars=(initial_time, initial_outputs_ta, initial_state,
                                    initial_inputs, initial_finished, initial_sequence_lengths),
                         parallel_iterations=parallel_iterations,
                         maximum_iterations=maximum_iterations, swap_memory=swap_memory)
        final_outputs_ta, final_state, final_sequence_lengths = res[1], res[2], res[5]
        final_outputs = map_structure(lambda ta: ta.stack(), final_outputs_ta)
        try:
            final_outputs, final_state = decoder.finalize(final_outputs, final_state,
                                                          final_sequence_lengths)
        except NotImplementedError:
            pass
        if not output_time_major:
            final_outputs = map_structure(transpose_batch_time, final_outputs)
    return final_outputs, final_state, final_sequence_lengths


