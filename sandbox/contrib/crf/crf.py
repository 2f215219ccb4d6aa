"""A linear-chain CRF -- mirrors TF 1.15's contrib/crf/python/ops/crf.py.

A CRF layer scores a whole tag sequence y_1..y_n of a sentence, not each tag alone:

    score(y) = sum_t inputs[t, y_t]  +  sum_t transitions[y_t, y_{t+1}]
               (the unary score)        (the binary score)

and p(y) = exp(score(y)) / Z, Z summing exp(score) over every tag sequence. log Z is
computed by the forward algorithm in log space (alpha_t = inputs_t + logsumexp over the
previous tag of alpha_{t-1} + transitions), in O(n * tags^2) instead of tags^n; the best
sequence by Viterbi (the same recursion with max instead of logsumexp, then backpointers).

    log_likelihood, transition_params = tf.contrib.crf.crf_log_likelihood(
        unary_scores, gold_tags, sequence_lengths)          # creates variable 'transitions'
    loss = tf.reduce_mean(-log_likelihood)
    viterbi_tags, viterbi_score = tf.contrib.crf.crf_decode(
        unary_scores, transition_params, sequence_lengths)

Everything is built from ordinary ops (gather, sequence_mask, scan, dynamic_rnn), so the
gradients flow into the unary scores and the transitions. Positions at or past a sequence's
length are ignored; a length of 0 gives a score and log-norm of 0 (and, as in TF 1.15, a
sequence of length 1 in a batch padded longer gets the log-norm of its first two positions:
see crf_forward). The sandbox's dynamic_rnn unrolls time, so crf_decode needs max_seq_len
known when the graph is built.
"""
import numpy as np

from ...framework import dtypes
from ...framework.tensor import convert_to_tensor
from ...ops import array_ops, math_ops, reduction_ops
from ...ops.basic_math_ops import maximum
from ...ops.comparison_ops import equal, less_equal, where
from ...ops.cond_v2 import cond
from ...ops.functional_ops import scan
from ...ops.indexing_ops import gather, gather_nd
from ...ops.manip_ops import reverse_sequence
from ...ops.rnn import dynamic_rnn
from ...ops.rnn_cell_impl import RNNCell
from ...ops.slicing_ops import concat, slice as _slice
from ...ops.variable_scope import get_variable

__all__ = ["crf_sequence_score", "crf_log_norm", "crf_log_likelihood", "crf_unary_score",
           "crf_binary_score", "crf_forward", "CrfForwardRnnCell", "viterbi_decode",
           "crf_decode", "CrfDecodeForwardRnnCell", "CrfDecodeBackwardRnnCell"]


def _smart_cond_on_length_one(tensor, true_fn, false_fn):
    """true_fn() when the time dimension (axis 1) of `tensor` is 1, else false_fn(): decided
    now when that size is known, else by a tf.cond (TF's utils.smart_cond)."""
    steps = tensor.get_shape()[1].value if tensor.get_shape().ndims else None
    if steps is not None:
        return true_fn() if steps == 1 else false_fn()
    return cond(equal(array_ops.shape(tensor)[1], 1), true_fn, false_fn)


def _zero_where_empty(values, sequence_lengths):
    """`values` with 0 for the examples of length <= 0."""
    return where(less_equal(sequence_lengths, 0), array_ops.zeros_like(values), values)


def crf_sequence_score(inputs, tag_indices, sequence_lengths, transition_params):
    """The unnormalized score of each tag sequence: [batch]. inputs [batch, max_seq_len,
    num_tags] are the unary potentials, tag_indices [batch, max_seq_len] the tags,
    transition_params [num_tags, num_tags] the binary potentials."""
    inputs = convert_to_tensor(inputs, name="inputs")
    tag_indices = convert_to_tensor(tag_indices, name="tag_indices")
    sequence_lengths = convert_to_tensor(sequence_lengths, name="sequence_lengths")

    def _single_seq_fn():
        # One step: the score is just the unary potential of the single tag.
        batch_size = array_ops.shape(inputs, out_type=tag_indices.dtype)[0]
        example_inds = array_ops.reshape(
            array_ops.range(batch_size, dtype=tag_indices.dtype), [-1, 1])
        scores = gather_nd(array_ops.squeeze(inputs, [1]),
                           concat([example_inds, tag_indices], axis=1))
        return _zero_where_empty(scores, sequence_lengths)

    def _multi_seq_fn():
        unary_scores = crf_unary_score(tag_indices, sequence_lengths, inputs)
        binary_scores = crf_binary_score(tag_indices, sequence_lengths, transition_params)
        return unary_scores + binary_scores

    return _smart_cond_on_length_one(inputs, _single_seq_fn, _multi_seq_fn)


def crf_log_norm(inputs, sequence_lengths, transition_params):
    """log Z, the log of the sum of exp(score) over all tag sequences: [batch]."""
    inputs = convert_to_tensor(inputs, name="inputs")
    sequence_lengths = convert_to_tensor(sequence_lengths, name="sequence_lengths")
    first_input = array_ops.squeeze(_slice(inputs, [0, 0, 0], [-1, 1, -1]), [1])

    def _single_seq_fn():
        log_norm = reduction_ops.reduce_logsumexp(first_input, [1])
        return _zero_where_empty(log_norm, sequence_lengths)

    def _multi_seq_fn():
        rest_of_input = _slice(inputs, [0, 1, 0], [-1, -1, -1])
        alphas = crf_forward(rest_of_input, first_input, transition_params, sequence_lengths)
        log_norm = reduction_ops.reduce_logsumexp(alphas, [1])
        return _zero_where_empty(log_norm, sequence_lengths)

    return _smart_cond_on_length_one(inputs, _single_seq_fn, _multi_seq_fn)


def crf_log_likelihood(inputs, tag_indices, sequence_lengths, transition_params=None):
    """(log_likelihood [batch], transition_params): log p(tag_indices). Without
    transition_params a variable 'transitions' [num_tags, num_tags] is created with
    tf.get_variable (in the current variable scope)."""
    inputs = convert_to_tensor(inputs, name="inputs")
    num_tags = inputs.get_shape()[2].value
    if transition_params is None:
        if num_tags is None:
            raise ValueError("crf_log_likelihood: the last dimension of inputs (num_tags) "
                             "must be known to create the 'transitions' variable; got shape "
                             f"{inputs.get_shape()}. Give inputs a static shape or pass "
                             "transition_params.")
        transition_params = get_variable("transitions", [num_tags, num_tags])
    sequence_scores = crf_sequence_score(inputs, tag_indices, sequence_lengths,
                                         transition_params)
    log_norm = crf_log_norm(inputs, sequence_lengths, transition_params)
    return sequence_scores - log_norm, transition_params


def crf_unary_score(tag_indices, sequence_lengths, inputs):
    """sum over t < length of inputs[b, t, tag_indices[b, t]]: [batch]."""
    inputs = convert_to_tensor(inputs, name="inputs")
    tag_indices = convert_to_tensor(tag_indices, name="tag_indices")
    batch_size = array_ops.shape(inputs)[0]
    max_seq_len = array_ops.shape(inputs)[1]
    num_tags = array_ops.shape(inputs)[2]
    flattened_inputs = array_ops.reshape(inputs, [-1])
    # The position of inputs[b, t, 0] in the flattened inputs, for every (b, t).
    offsets = array_ops.expand_dims(array_ops.range(batch_size) * max_seq_len * num_tags, 1)
    offsets += array_ops.expand_dims(array_ops.range(max_seq_len) * num_tags, 0)
    if tag_indices.dtype == dtypes.int64:
        offsets = math_ops.cast(offsets, dtypes.int64)
    flattened_tag_indices = array_ops.reshape(offsets + tag_indices, [-1])
    unary_scores = array_ops.reshape(gather(flattened_inputs, flattened_tag_indices),
                                     [batch_size, max_seq_len])
    masks = array_ops.sequence_mask(sequence_lengths, maxlen=array_ops.shape(tag_indices)[1],
                                    dtype=dtypes.float32)
    return reduction_ops.reduce_sum(unary_scores * masks, 1)


def crf_binary_score(tag_indices, sequence_lengths, transition_params):
    """sum over 0 < t < length of transition_params[tag[t-1], tag[t]]: [batch]."""
    tag_indices = convert_to_tensor(tag_indices, name="tag_indices")
    transition_params = convert_to_tensor(transition_params, name="transition_params")
    num_tags = transition_params.get_shape()[0].value
    num_transitions = array_ops.shape(tag_indices)[1] - 1
    # The start and end tag of each transition.
    start_tag_indices = _slice(tag_indices, [0, 0], [-1, num_transitions])
    end_tag_indices = _slice(tag_indices, [0, 1], [-1, num_transitions])
    flattened_transition_indices = start_tag_indices * num_tags + end_tag_indices
    flattened_transition_params = array_ops.reshape(transition_params, [-1])
    binary_scores = gather(flattened_transition_params, flattened_transition_indices)
    masks = array_ops.sequence_mask(sequence_lengths, maxlen=array_ops.shape(tag_indices)[1],
                                    dtype=dtypes.float32)
    truncated_masks = _slice(masks, [0, 1], [-1, -1])
    return reduction_ops.reduce_sum(binary_scores * truncated_masks, 1)


def crf_forward(inputs, state, transition_params, sequence_lengths):
    """The forward algorithm: the alphas [batch, num_tags] at each sequence's last position.
    inputs [batch, max_seq_len - 1, num_tags] are the unary potentials after the first step,
    state [batch, num_tags] the first step's (alpha_0)."""
    inputs = convert_to_tensor(inputs, name="inputs")
    sequence_lengths = convert_to_tensor(sequence_lengths, name="sequence_lengths")
    # all_alphas[:, k] is alpha_{k+1}; a sequence of length n ends at alpha_{n-1}, index n-2.
    # TF 1.15 clamps that index at 0, so a length-1 sequence in a longer batch gets alpha_1
    # (its first two positions) instead of alpha_0 -- kept here (tensorflow_addons fixed it).
    last_index = maximum(array_ops.zeros([], sequence_lengths.dtype), sequence_lengths - 2)
    inputs = array_ops.transpose(inputs, [1, 0, 2])                  # time major
    forward_step = CrfForwardRnnCell(transition_params)

    def _scan_fn(state, inputs):
        return forward_step(inputs, state)[0]

    all_alphas = array_ops.transpose(scan(_scan_fn, inputs, state), [1, 0, 2])
    idxs = array_ops.stack([array_ops.range(array_ops.shape(last_index)[0]),
                            math_ops.cast(last_index, dtypes.int32)], axis=1)
    return gather_nd(all_alphas, idxs)


class _TransitionCell(RNNCell):
    """A cell over num_tags scores, holding the transitions as [1, num_tags, num_tags] (to
    broadcast over the batch): what the forward and Viterbi cells share."""

    def __init__(self, transition_params):
        super().__init__()
        transition_params = convert_to_tensor(transition_params, name="transition_params")
        self._transition_params = array_ops.expand_dims(transition_params, 0)
        self._num_tags = transition_params.get_shape()[0].value

    @property
    def state_size(self):
        return self._num_tags

    @property
    def output_size(self):
        return self._num_tags


class CrfForwardRnnCell(_TransitionCell):
    """One step of the forward algorithm as an RNN cell: state = alphas [batch, num_tags]."""

    def __call__(self, inputs, state, scope=None):
        # [B, O, 1] + [1, O, O]: the previous alphas times the transitions, in log space.
        transition_scores = array_ops.expand_dims(state, 2) + self._transition_params
        new_alphas = inputs + reduction_ops.reduce_logsumexp(transition_scores, [1])
        return new_alphas, new_alphas


def viterbi_decode(score, transition_params):
    """The best tag sequence of one sentence, in NumPy (at test time):
    (viterbi: list of seq_len ints, viterbi_score: float). score [seq_len, num_tags]."""
    trellis = np.zeros_like(score)
    backpointers = np.zeros_like(score, dtype=np.int32)
    trellis[0] = score[0]
    for t in range(1, score.shape[0]):
        v = np.expand_dims(trellis[t - 1], 1) + transition_params
        trellis[t] = score[t] + np.max(v, 0)
        backpointers[t] = np.argmax(v, 0)
    viterbi = [np.argmax(trellis[-1])]
    for bp in reversed(backpointers[1:]):
        viterbi.append(bp[viterbi[-1]])
    viterbi.reverse()
    viterbi_score = np.max(trellis[-1])
    return viterbi, viterbi_score


class CrfDecodeForwardRnnCell(_TransitionCell):
    """One Viterbi step: output the backpointers (the best previous tag for each tag,
    int32 [batch, num_tags]); state = the best scores so far [batch, num_tags]."""

    def __call__(self, inputs, state, scope=None):
        transition_scores = array_ops.expand_dims(state, 2) + self._transition_params  # [B,O,O]
        new_state = inputs + reduction_ops.reduce_max(transition_scores, [1])          # [B, O]
        backpointers = math_ops.cast(reduction_ops.argmax(transition_scores, 1),
                                     dtype=dtypes.int32)                               # [B, O]
        return backpointers, new_state


class CrfDecodeBackwardRnnCell(RNNCell):
    """Follows the backpointers: input = a step's backpointers [batch, num_tags], state = the
    tag chosen at the next position [batch, 1]; outputs the tag at this one [batch, 1]."""

    def __init__(self, num_tags):
        super().__init__()
        self._num_tags = num_tags

    @property
    def state_size(self):
        return 1

    @property
    def output_size(self):
        return 1

    def __call__(self, inputs, state, scope=None):
        state = array_ops.squeeze(state, axis=[1])                           # [B]
        batch_size = array_ops.shape(inputs)[0]
        indices = array_ops.stack([array_ops.range(batch_size), state], axis=1)  # [B, 2]
        new_tags = array_ops.expand_dims(gather_nd(inputs, indices), axis=-1)   # [B, 1]
        return new_tags, new_tags


def crf_decode(potentials, transition_params, sequence_length):
    """Viterbi in the graph: (decode_tags int32 [batch, max_seq_len], best_score [batch]).
    Tags past a sequence's length are 0."""
    potentials = convert_to_tensor(potentials, name="potentials")
    sequence_length = convert_to_tensor(sequence_length, name="sequence_length")

    def _single_seq_fn():
        squeezed_potentials = array_ops.squeeze(potentials, [1])
        decode_tags = array_ops.expand_dims(reduction_ops.argmax(squeezed_potentials, axis=1), 1)
        best_score = reduction_ops.reduce_max(squeezed_potentials, axis=1)
        return math_ops.cast(decode_tags, dtype=dtypes.int32), best_score

    def _multi_seq_fn():
        num_tags = potentials.get_shape()[2].value
        # Forward: the best scores at the last step, and the backpointers of every step.
        crf_fwd_cell = CrfDecodeForwardRnnCell(transition_params)
        initial_state = array_ops.squeeze(_slice(potentials, [0, 0, 0], [-1, 1, -1]),
                                          axis=[1])                           # [B, O]
        inputs = _slice(potentials, [0, 1, 0], [-1, -1, -1])                  # [B, T-1, O]
        sequence_length_less_one = maximum(array_ops.zeros([], sequence_length.dtype),
                                           sequence_length - 1)
        backpointers, last_score = dynamic_rnn(
            crf_fwd_cell, inputs=inputs, sequence_length=sequence_length_less_one,
            initial_state=initial_state, time_major=False, dtype=dtypes.int32)
        backpointers = reverse_sequence(backpointers, sequence_length_less_one, seq_axis=1)
        # Backward: from the best last tag, follow the backpointers to the first position.
        crf_bwd_cell = CrfDecodeBackwardRnnCell(num_tags)
        initial_state = math_ops.cast(reduction_ops.argmax(last_score, axis=1),
                                      dtype=dtypes.int32)                     # [B]
        initial_state = array_ops.expand_dims(initial_state, axis=-1)         # [B, 1]
        decode_tags, _ = dynamic_rnn(
            crf_bwd_cell, inputs=backpointers, sequence_length=sequence_length_less_one,
            initial_state=initial_state, time_major=False, dtype=dtypes.int32)
        decode_tags = array_ops.squeeze(decode_tags, axis=[2])               # [B, T-1]
        decode_tags = concat([initial_state, decode_tags], axis=1)  # [B, T]
        decode_tags = reverse_sequence(decode_tags, sequence_length, seq_axis=1)
        best_score = reduction_ops.reduce_max(last_score, axis=1)
        return decode_tags, best_score

    return _smart_cond_on_length_one(potentials, _single_seq_fn, _multi_seq_fn)
