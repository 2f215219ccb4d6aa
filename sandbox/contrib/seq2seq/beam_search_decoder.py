"""Beam search -- mirrors TF 1.15's contrib/seq2seq/python/ops/beam_search_decoder.py:
BeamSearchDecoder, its state and outputs, and tile_batch.

Greedy decoding keeps the single best token at each step; a beam search keeps the
beam_width best *sequences* (hypotheses) of each example, scored by their total
log-probability (divided by a length penalty ((5 + length) / 6) ** length_penalty_weight):

    step t: for each live beam k and token w:
                total[k, w] = log_probs[k] + log_softmax(logits[k])[w]
            (a finished beam may only add end_token, at no cost)
            keep the beam_width best (k, w) pairs: predicted_ids = w, parent_ids = k,
            and the cell states of the parents they came from

At the start only beam 0 is live (the others have log-probability -inf). At the end,
gather_tree (beam_search_ops.py) follows the parent_ids back to spell each final beam:
FinalBeamSearchDecoderOutput.predicted_ids [batch, time, beam_width], best beam first.

The cell runs on batch * beam_width rows: tile the encoder's outputs, lengths and final state
with tile_batch, which repeats each example beam_width times in a row,

    tile_batch([[1, 2], [3, 4]], 2)  ->  [[1, 2], [1, 2], [3, 4], [3, 4]]

and make the AttentionWrapper's zero_state with batch_size * beam_width.
"""
import collections

import numpy as np

from ...api.nest import map_structure
from ...framework import dtypes as _dtypes
from ...framework.graph import name_scope
from ...framework.tensor import Tensor, convert_to_tensor
from ...framework.tensor_shape import TensorShape
from ...framework.tensor_util import constant_value
from ...ops import array_ops, comparison_ops, indexing_ops, math_ops, nn_impl, nn_ops
from ...ops import reduction_ops, slicing_ops
from ...ops.func_graph import flatten, is_tensor_array
from .beam_search_ops import gather_tree
from .basic_decoder import check_like_rnncell, check_output_layer, rnn_output_size
from .decoder import Decoder
from .helper import _embedding_fn

__all__ = ["BeamSearchDecoderOutput", "BeamSearchDecoderState", "BeamSearchDecoder",
           "FinalBeamSearchDecoderOutput", "tile_batch", "gather_tree_from_array"]


class BeamSearchDecoderState(collections.namedtuple("BeamSearchDecoderState", (
        "cell_state", "log_probs", "finished", "lengths", "accumulated_attention_probs"))):
    """The loop state: the cell's state [batch, beam, ...], each beam's total log-probability,
    whether it has finished and its length (int64)."""
    __slots__ = ()


class BeamSearchDecoderOutput(collections.namedtuple("BeamSearchDecoderOutput", (
        "scores", "predicted_ids", "parent_ids"))):
    """One step: each beam's score, its new token and the beam it continues."""
    __slots__ = ()


class FinalBeamSearchDecoderOutput(collections.namedtuple("FinalBeamDecoderOutput", (
        "predicted_ids", "beam_search_decoder_output"))):
    """predicted_ids [batch, time, beam_width] (best first) and the steps' outputs."""
    __slots__ = ()


def _tile_batch(t, multiplier):
    t = convert_to_tensor(t, name="t")
    shape_t = array_ops.shape(t)
    if t.get_shape().ndims is None or t.get_shape().ndims < 1:
        raise ValueError("t must have statically known rank")
    tiling = [1] * (t.get_shape().ndims + 1)
    tiling[1] = multiplier
    batch = t.get_shape()[0].value
    tiled_static_batch_size = batch * multiplier if batch is not None else None
    tiled = slicing_ops.tile(array_ops.expand_dims(t, 1), tiling)
    tiled = array_ops.reshape(tiled, slicing_ops.concat(
        [array_ops.reshape(shape_t[0] * multiplier, [1]), shape_t[1:]], 0))
    tiled.set_shape(TensorShape([tiled_static_batch_size]).concatenate(t.get_shape()[1:]))
    return tiled


def tile_batch(t, multiplier, name=None):
    """Each example of t (a tensor or a structure of them, batch first) repeated `multiplier`
    times in a row: [batch, ...] -> [batch * multiplier, ...]."""
    flat_t = flatten(t)
    with name_scope(name, "tile_batch", flat_t + [multiplier]):
        return map_structure(lambda t_: _tile_batch(t_, multiplier), t)


def gather_tree_from_array(t, parent_ids, sequence_length):
    """t ([max_time, batch * beam, ...] or [max_time, batch, beam, ...], a stacked
    TensorArray) with each step's beams reordered along the final beams' paths."""
    max_time = parent_ids.get_shape()[0].value or array_ops.shape(parent_ids)[0]
    batch_size = parent_ids.get_shape()[1].value or array_ops.shape(parent_ids)[1]
    beam_width = parent_ids.get_shape()[2].value or array_ops.shape(parent_ids)[2]
    beam_ids = array_ops.expand_dims(array_ops.expand_dims(array_ops.range(beam_width), 0), 0)
    beam_ids = slicing_ops.tile(beam_ids, array_ops.stack([max_time, batch_size, 1]))
    max_sequence_lengths = math_ops.cast(reduction_ops.reduce_max(sequence_length, axis=1),
                                         _dtypes.int32)
    sorted_beam_ids = gather_tree(beam_ids, parent_ids, max_sequence_lengths,
                                  end_token=beam_width + 1)
    # steps past a beam's length keep their own beam
    in_bound_steps = array_ops.transpose(
        array_ops.sequence_mask(sequence_length, maxlen=max_time), [2, 0, 1])
    sorted_beam_ids = comparison_ops.where(in_bound_steps, sorted_beam_ids, beam_ids)
    time_ind = slicing_ops.tile(array_ops.reshape(array_ops.range(max_time), [-1, 1, 1]),
                                array_ops.stack([1, batch_size, beam_width]))
    batch_ind = slicing_ops.tile(array_ops.reshape(array_ops.range(batch_size), [-1, 1, 1]),
                                 array_ops.stack([1, max_time, beam_width]))
    batch_ind = array_ops.transpose(batch_ind, [1, 0, 2])
    indices = array_ops.stack([time_ind, batch_ind, sorted_beam_ids], -1)
    final_shape = array_ops.shape(t)
    gather_from = array_ops.reshape(t, array_ops.stack([max_time, batch_size, beam_width, -1]))
    ordered = indexing_ops.gather_nd(gather_from, indices)
    return array_ops.reshape(ordered, final_shape)


def _check_ndims(t):
    if t.get_shape().ndims is None:
        raise ValueError(f"Expected tensor ({t}) to have known rank, but ndims == None.")


def _length_penalty(sequence_lengths, penalty_factor):
    """((5 + length) / 6) ** penalty_factor (Wu et al. 2016), or 1.0 for a factor of 0."""
    penalty_factor = convert_to_tensor(penalty_factor, name="penalty_factor")
    penalty_factor.set_shape(())
    static_penalty = constant_value(penalty_factor)
    if static_penalty is not None and static_penalty == 0:
        return 1.0
    return math_ops.truediv(
        (5. + math_ops.cast(sequence_lengths, _dtypes.float32)) ** penalty_factor,
        (5. + 1.) ** penalty_factor)


def _mask_probs(probs, eos_token, finished):
    """Finished beams put all their probability on eos (log 0 there, the dtype's min
    elsewhere); the others keep theirs."""
    vocab_size = array_ops.shape(probs)[2]
    dtype = probs.dtype.base_dtype
    finished_row = indexing_ops.one_hot(eos_token, vocab_size, dtype=dtype,
                                        on_value=convert_to_tensor(0., dtype=dtype),
                                        off_value=float(np.finfo(dtype.as_numpy_dtype).min))
    finished_probs = slicing_ops.tile(array_ops.reshape(finished_row, [1, 1, -1]),
                                      slicing_ops.concat([array_ops.shape(finished), [1]], 0))
    finished_mask = slicing_ops.tile(array_ops.expand_dims(finished, 2),
                                     array_ops.stack([1, 1, vocab_size]))
    return comparison_ops.where(finished_mask, finished_probs, probs)


def _tensor_gather_helper(gather_indices, gather_from, batch_size, range_size, gather_shape,
                          name=None):
    """gather_from's entries [b, gather_indices[b, k]] (batch b's rows are offset by
    b * range_size once gather_from is reshaped to gather_shape)."""
    with name_scope(name, "tensor_gather_helper"):
        range_ = array_ops.expand_dims(array_ops.range(batch_size) * range_size, 1)
        gather_indices = array_ops.reshape(gather_indices + range_, [-1])
        output = indexing_ops.gather(array_ops.reshape(gather_from, gather_shape),
                                     gather_indices)
        final_shape = array_ops.shape(gather_from)[:1 + len(gather_shape)]
        static_batch_size = constant_value(convert_to_tensor(batch_size))
        final_static_shape = TensorShape([static_batch_size]).concatenate(
            gather_from.get_shape()[1:1 + len(gather_shape)])
        output = array_ops.reshape(output, final_shape, name="output")
        output.set_shape(final_static_shape)
        return output


def _maybe_tensor_gather_helper(gather_indices, gather_from, batch_size, range_size,
                                gather_shape):
    if is_tensor_array(gather_from):
        return gather_from
    _check_ndims(gather_from)
    if gather_from.get_shape().ndims >= len(gather_shape):
        return _tensor_gather_helper(gather_indices, gather_from, batch_size, range_size,
                                     gather_shape)
    return gather_from


def _beam_search_step(time, logits, next_cell_state, beam_state, batch_size, beam_width,
                      end_token, length_penalty_weight):
    """One step of the search (see the module docstring): (BeamSearchDecoderOutput,
    BeamSearchDecoderState)."""
    static_batch_size = constant_value(convert_to_tensor(batch_size))
    prediction_lengths = beam_state.lengths
    previously_finished = beam_state.finished
    not_finished = comparison_ops.logical_not(previously_finished)

    step_log_probs = nn_ops.log_softmax(logits)
    step_log_probs = _mask_probs(step_log_probs, end_token, previously_finished)
    total_probs = array_ops.expand_dims(beam_state.log_probs, 2) + step_log_probs

    # a live beam grows by 1 with any token but end_token
    vocab_size = logits.get_shape()[-1].value or array_ops.shape(logits)[-1]
    lengths_to_add = indexing_ops.one_hot(
        array_ops.fill(array_ops.stack([batch_size, beam_width]), end_token), vocab_size,
        on_value=math_ops.cast(0, _dtypes.int64), off_value=math_ops.cast(1, _dtypes.int64),
        dtype=_dtypes.int64)
    lengths_to_add *= array_ops.expand_dims(math_ops.cast(not_finished, _dtypes.int64), 2)
    new_prediction_lengths = lengths_to_add + array_ops.expand_dims(prediction_lengths, 2)

    penalty = _length_penalty(new_prediction_lengths, length_penalty_weight)
    scores = total_probs / (math_ops.cast(penalty, total_probs.dtype.base_dtype)
                            if isinstance(penalty, Tensor) else penalty)

    scores_flat = array_ops.reshape(scores, array_ops.stack([batch_size, -1]))
    next_beam_scores, word_indices = nn_impl.top_k(scores_flat, k=beam_width)
    next_beam_scores.set_shape([static_batch_size, beam_width])
    word_indices.set_shape([static_batch_size, beam_width])

    next_beam_probs = _tensor_gather_helper(word_indices, total_probs, batch_size,
                                            beam_width * vocab_size, [-1],
                                            name="next_beam_probs")
    next_word_ids = math_ops.cast(math_ops.floormod(word_indices, vocab_size), _dtypes.int32,
                                  name="next_beam_word_ids")
    next_beam_ids = math_ops.cast(math_ops.floordiv(word_indices, vocab_size), _dtypes.int32,
                                  name="next_beam_parent_ids")

    previously_finished = _tensor_gather_helper(next_beam_ids, previously_finished,
                                                batch_size, beam_width, [-1])
    next_finished = comparison_ops.logical_or(
        previously_finished, comparison_ops.equal(next_word_ids, end_token),
        name="next_beam_finished")
    # finished beams keep their length; the others (ending now or not) grow by 1
    lengths_to_add = math_ops.cast(comparison_ops.logical_not(previously_finished),
                                   _dtypes.int64)
    next_prediction_len = _tensor_gather_helper(next_beam_ids, beam_state.lengths,
                                                batch_size, beam_width, [-1])
    next_prediction_len += lengths_to_add

    # each new beam takes the cell state of the beam it continues
    next_cell_state = map_structure(
        lambda gather_from: _maybe_tensor_gather_helper(
            next_beam_ids, gather_from, batch_size, beam_width, [batch_size * beam_width, -1]),
        next_cell_state)

    next_state = BeamSearchDecoderState(
        cell_state=next_cell_state, log_probs=next_beam_probs, lengths=next_prediction_len,
        finished=next_finished, accumulated_attention_probs=())
    output = BeamSearchDecoderOutput(scores=next_beam_scores, predicted_ids=next_word_ids,
                                     parent_ids=next_beam_ids)
    return output, next_state


class BeamSearchDecoder(Decoder):
    """Beam search with `cell` over batch * beam_width rows (see the module docstring).
    embedding: the embedding matrix or a function ids -> inputs; start_tokens [batch];
    end_token a scalar; initial_state the cell's state for batch * beam_width rows (tiled
    with tile_batch). coverage_penalty_weight is not supported."""

    def __init__(self, cell, embedding, start_tokens, end_token, initial_state, beam_width,
                 output_layer=None, length_penalty_weight=0.0, coverage_penalty_weight=0.0,
                 reorder_tensor_arrays=True):
        check_like_rnncell(cell)
        check_output_layer(output_layer)
        if coverage_penalty_weight:
            raise NotImplementedError("BeamSearchDecoder(coverage_penalty_weight) is not "
                                      "supported by the sandbox; leave it at 0.0")
        self._cell = cell
        self._output_layer = output_layer
        self._reorder_tensor_arrays = reorder_tensor_arrays
        self._beam_width = beam_width
        self._length_penalty_weight = length_penalty_weight
        self._embedding_fn = _embedding_fn(embedding)
        self._start_tokens = convert_to_tensor(start_tokens, dtype=_dtypes.int32,
                                               name="start_tokens")
        if self._start_tokens.get_shape().ndims != 1:
            raise ValueError("start_tokens must be a vector")
        self._end_token = convert_to_tensor(end_token, dtype=_dtypes.int32, name="end_token")
        if self._end_token.get_shape().ndims != 0:
            raise ValueError("end_token must be a scalar")
        static_batch = self._start_tokens.get_shape()[0].value
        self._batch_size = static_batch if static_batch is not None \
            else array_ops.size(self._start_tokens)
        self._initial_cell_state = map_structure(self._maybe_split_batch_beams, initial_state)
        self._start_tokens = slicing_ops.tile(array_ops.expand_dims(self._start_tokens, 1),
                                              [1, self._beam_width])
        self._start_inputs = self._embedding_fn(self._start_tokens)
        self._finished = indexing_ops.one_hot(
            array_ops.zeros([self._batch_size], dtype=_dtypes.int32),
            depth=self._beam_width, on_value=False, off_value=True, dtype=_dtypes.bool)

    @property
    def batch_size(self):
        return self._batch_size

    @property
    def tracks_own_finished(self):
        """True: beams move around, so the decoder says itself which have finished."""
        return True

    def _rnn_output_size(self):
        return rnn_output_size(self._cell, self._output_layer)

    @property
    def output_size(self):
        return BeamSearchDecoderOutput(scores=TensorShape([self._beam_width]),
                                       predicted_ids=TensorShape([self._beam_width]),
                                       parent_ids=TensorShape([self._beam_width]))

    @property
    def output_dtype(self):
        dtype = flatten(self._initial_cell_state)[0].dtype.base_dtype
        return BeamSearchDecoderOutput(
            scores=map_structure(lambda _: dtype, self._rnn_output_size()),
            predicted_ids=_dtypes.int32, parent_ids=_dtypes.int32)

    def initialize(self, name=None):
        """(finished, start inputs, BeamSearchDecoderState): only beam 0 alive."""
        dtype = flatten(self._initial_cell_state)[0].dtype.base_dtype
        log_probs = indexing_ops.one_hot(
            array_ops.zeros([self._batch_size], dtype=_dtypes.int32),
            depth=self._beam_width, on_value=convert_to_tensor(0.0, dtype=dtype),
            off_value=convert_to_tensor(-np.inf, dtype=dtype), dtype=dtype)
        initial_state = BeamSearchDecoderState(
            cell_state=self._initial_cell_state, log_probs=log_probs, finished=self._finished,
            lengths=array_ops.zeros(array_ops.stack([self._batch_size, self._beam_width]),
                                    dtype=_dtypes.int64),
            accumulated_attention_probs=())
        return (self._finished, self._start_inputs, initial_state)

    def finalize(self, outputs, final_state, sequence_lengths):
        """predicted_ids from gather_tree; TensorArrays in the cell state (an alignment
        history) reordered along the final beams and stacked."""
        del sequence_lengths
        max_sequence_lengths = math_ops.cast(
            reduction_ops.reduce_max(final_state.lengths, axis=1), _dtypes.int32)
        predicted_ids = gather_tree(outputs.predicted_ids, outputs.parent_ids,
                                    max_sequence_lengths=max_sequence_lengths,
                                    end_token=self._end_token)
        if self._reorder_tensor_arrays:
            final_state = final_state._replace(cell_state=map_structure(
                lambda t: self._maybe_sort_array_beams(t, outputs.parent_ids,
                                                       final_state.lengths),
                final_state.cell_state))
        outputs = FinalBeamSearchDecoderOutput(beam_search_decoder_output=outputs,
                                               predicted_ids=predicted_ids)
        return outputs, final_state

    def _merge_batch_beams(self, t, s=None):
        """[batch, beam, ...] -> [batch * beam, ...]."""
        s = TensorShape(s) if not isinstance(s, TensorShape) else s
        static = constant_value(convert_to_tensor(self._batch_size))
        reshaped = array_ops.reshape(t, slicing_ops.concat(
            [array_ops.reshape(self._batch_size * self._beam_width, [1]),
             array_ops.shape(t)[2:]], 0))
        reshaped.set_shape(TensorShape([None if static is None else static * self._beam_width])
                           .concatenate(s))
        return reshaped

    def _split_batch_beams(self, t, s=None):
        """[batch * beam, ...] -> [batch, beam, ...]."""
        s = TensorShape(s) if not isinstance(s, TensorShape) else s
        reshaped = array_ops.reshape(t, slicing_ops.concat(
            [array_ops.stack([self._batch_size, self._beam_width]), array_ops.shape(t)[1:]], 0))
        static = constant_value(convert_to_tensor(self._batch_size))
        expected = TensorShape([static, self._beam_width]).concatenate(s)
        if not reshaped.get_shape().is_compatible_with(expected):
            raise ValueError(f"Unexpected behavior when reshaping between beam width and batch "
                             f"size.  The reshaped tensor has shape: {reshaped.get_shape()}.  "
                             f"We expected it to have shape (batch_size, beam_width, depth) == "
                             f"{expected}.  Perhaps you forgot to create a zero_state with "
                             f"batch_size=encoder_batch_size * beam_width?")
        reshaped.set_shape(expected)
        return reshaped

    def _maybe_split_batch_beams(self, t):
        if is_tensor_array(t):
            return t
        _check_ndims(t)
        return self._split_batch_beams(t, t.get_shape()[1:]) if t.get_shape().ndims >= 1 else t

    def _maybe_merge_batch_beams(self, t):
        if is_tensor_array(t):
            return t
        _check_ndims(t)
        return self._merge_batch_beams(t, t.get_shape()[2:]) if t.get_shape().ndims >= 2 else t

    def _maybe_sort_array_beams(self, t, parent_ids, sequence_length):
        if not is_tensor_array(t):
            return t
        if t.element_shape.ndims is None or t.element_shape.ndims < 1:
            return t
        return gather_tree_from_array(t.stack(), parent_ids, sequence_length)

    def step(self, time, inputs, state, name=None):
        """(BeamSearchDecoderOutput, BeamSearchDecoderState, next_inputs, finished)."""
        with name_scope(name, "BeamSearchDecoderStep", (time, inputs)):
            inputs = map_structure(
                lambda inp: self._merge_batch_beams(inp, inp.get_shape()[2:]), inputs)
            cell_state = map_structure(self._maybe_merge_batch_beams, state.cell_state)
            cell_outputs, next_cell_state = self._cell(inputs, cell_state)
            cell_outputs = map_structure(
                lambda out: self._split_batch_beams(out, out.get_shape()[1:]), cell_outputs)
            next_cell_state = map_structure(self._maybe_split_batch_beams, next_cell_state)
            if self._output_layer is not None:
                cell_outputs = self._output_layer(cell_outputs)
            beam_search_output, beam_search_state = _beam_search_step(
                time=time, logits=cell_outputs, next_cell_state=next_cell_state,
                beam_state=state, batch_size=self._batch_size, beam_width=self._beam_width,
                end_token=self._end_token, length_penalty_weight=self._length_penalty_weight)
            finished = beam_search_state.finished
            sample_ids = beam_search_output.predicted_ids
            all_finished = reduction_ops.reduce_all(finished)
            next_inputs = map_structure(
                lambda start, embedded: comparison_ops.where(all_finished, start, embedded),
                self._start_inputs, self._embedding_fn(sample_ids))
        return (beam_search_output, beam_search_state, next_inputs, finished)
