"""Attention -- mirrors TF 1.15's contrib/seq2seq/python/ops/attention_wrapper.py.

An attention mechanism holds the encoder's outputs, the memory [batch, max_time, depth], and
scores them against a query (the decoder cell's output) at every decoder step:

    keys       = memory @ memory_layer                       ('memory_layer/kernel')
    Luong      score[b, i] = query[b] . keys[b, i]           (times 'attention_g' if scale)
    Bahdanau   score[b, i] = v . tanh(keys[b, i] + query[b] @ query_layer)
               ('query_layer/kernel', 'attention_v'; with normalize, v is replaced by
               g * v / |v| and a bias 'attention_b' is added inside the tanh)
    alignments = softmax(score)  -- positions past memory_sequence_length[b] score -inf,
                                    so they get weight 0
    context    = sum_i alignments[b, i] * memory[b, i]

AttentionWrapper turns a cell into a cell with attention. Its state, AttentionWrapperState,
carries the previous attention vector, which is concatenated to the inputs:

    cell_output, cell_state = cell(concat([inputs, previous attention]), cell_state)
    alignments = mechanism(cell_output);  context = alignments @ memory
    attention  = concat([cell_output, context]) @ attention_layer   ('attention_layer/kernel')
                 (or the context itself without attention_layer_size)
    output     = attention (or cell_output when output_attention=False)

The variables are named as TF names them; in dynamic_decode: 'decoder/attention_wrapper/
basic_lstm_cell/kernel', 'decoder/attention_wrapper/bahdanau_attention/query_layer/kernel',
'decoder/attention_wrapper/bahdanau_attention/attention_v', 'decoder/attention_wrapper/
attention_layer/kernel'; the memory layer is made with the mechanism: 'memory_layer/kernel'.
"""
import collections
import math

import numpy as np

from ...api.nest import map_structure
from ...framework import dtypes as _dtypes
from ...framework.graph import control_dependencies, name_scope
from ...framework.tensor import Tensor, convert_to_tensor
from ...framework.tensor_shape import TensorShape
from ...layers.core import Dense
from ...ops import array_ops, basic_math_ops, check_ops, clip_ops, comparison_ops, indexing_ops
from ...ops import functional_ops, init_ops, math_extra_ops, math_ops, matmul_ops, nn_ops
from ...ops import random_ops, reduction_ops, slicing_ops
from ...ops.control_flow_ops import identity
from ...ops.func_graph import flatten, is_tensor_array
from ...ops.rnn_cell_impl import RNNCell, _zeros
from ...ops.tensor_array_ops import TensorArray
from ...ops.variable_scope import get_variable, variable_scope
from .basic_decoder import check_like_rnncell

__all__ = ["AttentionMechanism", "BahdanauAttention", "LuongAttention",
           "BahdanauMonotonicAttention", "LuongMonotonicAttention", "AttentionWrapper",
           "AttentionWrapperState", "hardmax", "safe_cumprod", "monotonic_attention"]


class AttentionMechanism:
    """The base class of attention mechanisms (used for isinstance checks, as in TF)."""

    @property
    def alignments_size(self):
        raise NotImplementedError

    @property
    def state_size(self):
        raise NotImplementedError


def _prepare_memory(memory, memory_sequence_length, check_inner_dims_defined):
    """The memory with the steps past memory_sequence_length[b] set to 0."""
    memory = map_structure(lambda m: convert_to_tensor(m, name="memory"), memory)
    if memory_sequence_length is not None:
        memory_sequence_length = convert_to_tensor(memory_sequence_length,
                                                   name="memory_sequence_length")
    if check_inner_dims_defined:
        for m in flatten(memory):
            if not m.get_shape()[2:].is_fully_defined():
                raise ValueError(f"Expected memory {m.name} to have fully defined inner dims, "
                                 f"but saw shape: {m.get_shape()}")
    if memory_sequence_length is None:
        return memory
    first = flatten(memory)[0]
    mask = array_ops.sequence_mask(memory_sequence_length, maxlen=array_ops.shape(first)[1],
                                   dtype=first.dtype.base_dtype)

    def masked(m):
        rank = m.get_shape().ndims
        # the mask [batch, time] with a 1 for each inner axis: [batch, time, 1, ...]
        shape = slicing_ops.concat([array_ops.shape(mask),
                                    array_ops.ones([rank - 2], dtype=_dtypes.int32)], 0)
        return m * array_ops.reshape(mask, shape)
    return map_structure(masked, memory)


def _maybe_mask_score(score, memory_sequence_length, score_mask_value):
    """score [batch, max_time] with score_mask_value past memory_sequence_length[b]."""
    if memory_sequence_length is None:
        return score
    score_mask = array_ops.sequence_mask(memory_sequence_length,
                                         maxlen=array_ops.shape(score)[1])
    score_mask_values = score_mask_value * array_ops.ones_like(score)
    return comparison_ops.where(score_mask, score, score_mask_values)


class _BaseAttentionMechanism(AttentionMechanism):
    """What Luong and Bahdanau share: the memory (masked), its keys (the memory through
    memory_layer) and the probability function, masked by memory_sequence_length."""

    def __init__(self, query_layer, memory, probability_fn, memory_sequence_length=None,
                 memory_layer=None, check_inner_dims_defined=True, score_mask_value=None,
                 name=None):
        if query_layer is not None and not isinstance(query_layer, Dense):
            raise TypeError(f"query_layer is not a Layer: {type(query_layer).__name__}")
        if memory_layer is not None and not isinstance(memory_layer, Dense):
            raise TypeError(f"memory_layer is not a Layer: {type(memory_layer).__name__}")
        self._query_layer = query_layer
        self._memory_layer = memory_layer
        self.dtype = memory_layer.dtype if memory_layer is not None else None
        if not callable(probability_fn):
            raise TypeError(f"probability_fn must be callable, saw type: "
                            f"{type(probability_fn).__name__}")
        if memory_sequence_length is not None:
            memory_sequence_length = convert_to_tensor(memory_sequence_length,
                                                       name="memory_sequence_length")
        if score_mask_value is None:
            score_mask_value = -np.inf
        self._mask_score = lambda score: _maybe_mask_score(score, memory_sequence_length,
                                                           score_mask_value)
        self._probability_fn = lambda score, prev: probability_fn(self._mask_score(score), prev)
        with name_scope(name, "BaseAttentionMechanismInit", flatten(memory)):
            self._values = _prepare_memory(memory, memory_sequence_length,
                                           check_inner_dims_defined)
            self._keys = self.memory_layer(self._values) if self.memory_layer \
                else self._values
            self._batch_size = self._keys.get_shape()[0].value or \
                array_ops.shape(self._keys)[0]
            self._alignments_size = self._keys.get_shape()[1].value or \
                array_ops.shape(self._keys)[1]
        if self.dtype is None:
            self.dtype = self._values.dtype.base_dtype

    @property
    def memory_layer(self):
        return self._memory_layer

    @property
    def query_layer(self):
        return self._query_layer

    @property
    def values(self):
        return self._values

    @property
    def keys(self):
        return self._keys

    @property
    def batch_size(self):
        return self._batch_size

    @property
    def alignments_size(self):
        return self._alignments_size

    @property
    def state_size(self):
        return self._alignments_size

    def initial_alignments(self, batch_size, dtype):
        """All-zero alignments [batch_size, max_time]."""
        return _zeros(self._alignments_size, batch_size, _dtypes.as_dtype(dtype))

    def initial_state(self, batch_size, dtype):
        return self.initial_alignments(batch_size, dtype)

    def _score_bias(self, dtype):
        """The monotonic mechanisms' scalar 'attention_score_bias' (none for the others)."""
        init = self.__dict__.get("_score_bias_init")
        if init is None:
            return None
        return get_variable("attention_score_bias", dtype=dtype,
                            initializer=convert_to_tensor(init, dtype=dtype))

    def _score_variables(self, default_name, query, make):
        """The score's variables, made by make(dtype) at the first call in variable scope
        default_name (inside the wrapper's scope: 'attention_wrapper/luong_attention'), and
        kept: the sandbox's while loop body cannot look variables up (ops/while_v2.py)."""
        made = self.__dict__.get("_made_variables")
        if made is None:
            with variable_scope(None, default_name, [query]) as scope:
                self._variable_scope = scope
                made = self._made_variables = make(query.dtype.base_dtype)
        return made


def _luong_score(query, keys, attention_g):
    """query [batch, depth] . keys [batch, max_time, depth] -> [batch, max_time]."""
    depth = query.get_shape()[-1]
    key_units = keys.get_shape()[-1]
    if depth != key_units:
        raise ValueError(
            f"Incompatible or unknown inner dimensions between query and keys.  Query "
            f"({query.name}) has units: {depth}.  Keys ({keys.name}) have units: {key_units}.  "
            f"Perhaps you need to set num_units to the keys' dimension ({key_units})?")
    score = matmul_ops.matmul(array_ops.expand_dims(query, 1), keys, transpose_b=True)
    score = array_ops.squeeze(score, [1])
    if attention_g is not None:
        score = attention_g * score
    return score


class LuongAttention(_BaseAttentionMechanism):
    """Multiplicative attention (Luong et al., 2015): score = query . (memory @ W), times a
    scalar 'attention_g' (starting at 1) when scale=True."""
    _scope_name = "luong_attention"

    def __init__(self, num_units, memory, memory_sequence_length=None, scale=False,
                 probability_fn=None, score_mask_value=None, dtype=None,
                 custom_key_value_fn=None, name="LuongAttention"):
        probability_fn = probability_fn or nn_ops.softmax
        dtype = dtype or _dtypes.float32
        super().__init__(
            query_layer=None,
            memory_layer=Dense(num_units, name="memory_layer", use_bias=False, dtype=dtype),
            memory=memory, probability_fn=lambda score, _: probability_fn(score),
            memory_sequence_length=memory_sequence_length,
            score_mask_value=score_mask_value, name=name)
        self._num_units = num_units
        self._scale = scale
        self._name = name

    def __call__(self, query, state):
        """(alignments [batch, max_time], next_state = alignments)."""
        def make(dtype):
            attention_g = None
            if self._scale:
                attention_g = get_variable("attention_g", dtype=dtype, shape=(),
                                           initializer=init_ops.ones_initializer())
            return attention_g, self._score_bias(dtype)
        attention_g, score_bias = self._score_variables(self._scope_name, query, make)
        with name_scope(None, self._scope_name, [query]):
            score = _luong_score(query, self._keys, attention_g)
            if score_bias is not None:
                score += score_bias
        alignments = self._probability_fn(score, state)
        return alignments, alignments


def _bahdanau_score(processed_query, keys, attention_v, attention_g=None, attention_b=None):
    """sum(v * tanh(keys + query), axis 2) -> [batch, max_time] (normalized v if g, b)."""
    processed_query = array_ops.expand_dims(processed_query, 1)
    if attention_g is not None and attention_b is not None:
        normed_v = attention_g * attention_v * basic_math_ops.rsqrt(
            reduction_ops.reduce_sum(basic_math_ops.square(attention_v)))
        return reduction_ops.reduce_sum(
            normed_v * basic_math_ops.tanh(keys + processed_query + attention_b), [2])
    return reduction_ops.reduce_sum(
        attention_v * basic_math_ops.tanh(keys + processed_query), [2])


class BahdanauAttention(_BaseAttentionMechanism):
    """Additive attention (Bahdanau et al., 2015): score = v . tanh(memory @ W1 + query @ W2).
    normalize=True is weight normalization of v ('attention_g' starts at sqrt(1 / num_units),
    'attention_b' at 0)."""
    _scope_name = "bahdanau_attention"

    def __init__(self, num_units, memory, memory_sequence_length=None, normalize=False,
                 probability_fn=None, score_mask_value=None, dtype=None,
                 custom_key_value_fn=None, name="BahdanauAttention"):
        probability_fn = probability_fn or nn_ops.softmax
        dtype = dtype or _dtypes.float32
        super().__init__(
            query_layer=Dense(num_units, name="query_layer", use_bias=False, dtype=dtype),
            memory_layer=Dense(num_units, name="memory_layer", use_bias=False, dtype=dtype),
            memory=memory, probability_fn=lambda score, _: probability_fn(score),
            memory_sequence_length=memory_sequence_length,
            score_mask_value=score_mask_value, name=name)
        self._num_units = num_units
        self._normalize = normalize
        self._name = name

    def __call__(self, query, state):
        """(alignments [batch, max_time], next_state = alignments)."""
        def make(dtype):
            self.query_layer(query)     # its first call makes 'query_layer/kernel' here
            attention_v = get_variable("attention_v", [self._num_units], dtype=dtype)
            attention_g = attention_b = None
            if self._normalize:
                attention_g = get_variable(
                    "attention_g", dtype=dtype, shape=(),
                    initializer=init_ops.constant_initializer(math.sqrt(1. / self._num_units)))
                attention_b = get_variable("attention_b", [self._num_units], dtype=dtype,
                                           initializer=init_ops.zeros_initializer())
            return attention_v, attention_g, attention_b, self._score_bias(dtype)
        attention_v, attention_g, attention_b, score_bias = self._score_variables(
            self._scope_name, query, make)
        with name_scope(None, self._scope_name, [query]):
            processed_query = self.query_layer(query)
            score = _bahdanau_score(processed_query, self._keys, attention_v, attention_g,
                                    attention_b)
            if score_bias is not None:
                score += score_bias
        alignments = self._probability_fn(score, state)
        return alignments, alignments


# -- monotonic attention (Raffel et al., 2017) -------------------------------------------

def monotonic_attention(p_choose_i, previous_attention, mode):
    """The expected monotonic alignments [batch, max_time]: the attention moves forward
    along the memory, stopping at position i with probability p_choose_i[:, i]:

        q[j] = (1 - p[j-1]) q[j-1] + previous_attention[j],   attention = p * q

    mode 'recursive' computes q with tf.scan, 'parallel' with cumulative products (faster,
    less exact), 'hard' for 0/1 p_choose_i (test time)."""
    p_choose_i = convert_to_tensor(p_choose_i, name="p_choose_i")
    previous_attention = convert_to_tensor(previous_attention, name="previous_attention")
    if mode == "recursive":
        batch_size = p_choose_i.get_shape()[0].value or array_ops.shape(p_choose_i)[0]
        shifted_1mp_choose_i = slicing_ops.concat(
            [array_ops.ones(array_ops.stack([batch_size, 1]), dtype=p_choose_i.dtype),
             1 - p_choose_i[:, :-1]], 1)
        q = functional_ops.scan(
            lambda x, yz: yz[0] * x + yz[1],
            [array_ops.transpose(shifted_1mp_choose_i), array_ops.transpose(previous_attention)],
            array_ops.zeros(array_ops.reshape(batch_size, [1]), dtype=p_choose_i.dtype))
        return p_choose_i * array_ops.transpose(q)
    if mode == "parallel":
        cumprod_1mp_choose_i = safe_cumprod(1 - p_choose_i, axis=1, exclusive=True)
        return p_choose_i * cumprod_1mp_choose_i * reduction_ops.cumsum(
            previous_attention / clip_ops.clip_by_value(cumprod_1mp_choose_i, 1e-10, 1.),
            axis=1)
    if mode == "hard":
        p_choose_i = math_ops.cast(p_choose_i > .5, p_choose_i.dtype.base_dtype)
        p_choose_i *= reduction_ops.cumsum(previous_attention, axis=1)
        return p_choose_i * math_extra_ops.cumprod(1 - p_choose_i, axis=1, exclusive=True)
    raise ValueError("mode must be 'recursive', 'parallel', or 'hard'.")


def _monotonic_probability_fn(score, previous_alignments, sigmoid_noise, mode, seed=None):
    """p_choose_i = sigmoid(score + noise) (or score > 0 in 'hard' mode), then
    monotonic_attention."""
    if sigmoid_noise > 0:
        score += sigmoid_noise * random_ops.random_normal(array_ops.shape(score),
                                                          dtype=score.dtype, seed=seed)
    if mode == "hard":
        p_choose_i = math_ops.cast(score > 0, score.dtype.base_dtype)
    else:
        p_choose_i = basic_math_ops.sigmoid(score)
    return monotonic_attention(p_choose_i, previous_alignments, mode)


class _Monotonic:
    """What the monotonic mechanisms change: p_choose_i from the score (with a learned
    'attention_score_bias'), and the first alignments all on position 0."""

    def _make_monotonic(self, sigmoid_noise, sigmoid_noise_seed, score_bias_init, mode):
        self._score_bias_init = score_bias_init
        self._probability_fn = lambda score, prev: _monotonic_probability_fn(
            self._mask_score(score), prev, sigmoid_noise, mode, sigmoid_noise_seed)

    def initial_alignments(self, batch_size, dtype):
        return indexing_ops.one_hot(array_ops.zeros([batch_size], dtype=_dtypes.int32),
                                    self._alignments_size, dtype=_dtypes.as_dtype(dtype))


class BahdanauMonotonicAttention(_Monotonic, BahdanauAttention):
    """Monotonic attention with Bahdanau's score (variables in 'bahdanau_monotonic_attention')."""
    _scope_name = "bahdanau_monotonic_attention"

    def __init__(self, num_units, memory, memory_sequence_length=None, normalize=False,
                 score_mask_value=None, sigmoid_noise=0., sigmoid_noise_seed=None,
                 score_bias_init=0., mode="parallel", dtype=None,
                 name="BahdanauMonotonicAttention"):
        super().__init__(num_units, memory, memory_sequence_length=memory_sequence_length,
                         normalize=normalize, score_mask_value=score_mask_value, dtype=dtype,
                         name=name)
        self._make_monotonic(sigmoid_noise, sigmoid_noise_seed, score_bias_init, mode)


class LuongMonotonicAttention(_Monotonic, LuongAttention):
    """Monotonic attention with Luong's score (variables in 'luong_monotonic_attention')."""
    _scope_name = "luong_monotonic_attention"

    def __init__(self, num_units, memory, memory_sequence_length=None, scale=False,
                 score_mask_value=None, sigmoid_noise=0., sigmoid_noise_seed=None,
                 score_bias_init=0., mode="parallel", dtype=None,
                 name="LuongMonotonicAttention"):
        super().__init__(num_units, memory, memory_sequence_length=memory_sequence_length,
                         scale=scale, score_mask_value=score_mask_value, dtype=dtype, name=name)
        self._make_monotonic(sigmoid_noise, sigmoid_noise_seed, score_bias_init, mode)


def safe_cumprod(x, *args, **kwargs):
    """cumprod(x) computed as exp(cumsum(log(x))), with x clipped to [tiny, 1] first, so its
    gradient is safe where x is 0 (TF's safe_cumprod)."""
    with name_scope(None, "SafeCumprod", [x]):
        x = convert_to_tensor(x, name="x")
        tiny = np.finfo(x.dtype.as_numpy_dtype).tiny
        return basic_math_ops.exp(reduction_ops.cumsum(
            basic_math_ops.log(clip_ops.clip_by_value(x, tiny, 1)), *args, **kwargs))


def hardmax(logits, name=None):
    """one_hot(argmax(logits, -1)): 1 at the largest logit of each row, 0 elsewhere."""
    with name_scope(name, "Hardmax", [logits]):
        logits = convert_to_tensor(logits, name="logits")
        depth = logits.get_shape()[-1].value
        if depth is None:
            depth = array_ops.shape(logits)[-1]
        return indexing_ops.one_hot(reduction_ops.argmax(logits, -1), depth,
                                    dtype=logits.dtype.base_dtype)


class AttentionWrapperState(collections.namedtuple("AttentionWrapperState", (
        "cell_state", "attention", "time", "alignments", "alignment_history",
        "attention_state"))):
    """The state of an AttentionWrapper: the wrapped cell's state, the last attention vector
    [batch, attention_layer_size], the step (int32 scalar), the last alignments
    [batch, max_time], their history (a TensorArray, or () without alignment_history) and
    the mechanism's own state."""
    __slots__ = ()

    def clone(self, **kwargs):
        """A copy with some fields replaced -- e.g. clone(cell_state=encoder_state) to start
        the decoder from the encoder's final state. A new tensor gets the old one's static
        shape."""
        def with_same_shape(old, new):
            if isinstance(old, Tensor) and isinstance(new, Tensor):
                new.set_shape(old.get_shape())
            return new
        return map_structure(with_same_shape, self, self._replace(**kwargs))


class AttentionWrapper(RNNCell):
    """A cell with attention over a memory (see the module docstring). attention_mechanism
    is one mechanism or a list of them (their attentions concatenated)."""
    _needs_depth = False

    def __init__(self, cell, attention_mechanism, attention_layer_size=None,
                 alignment_history=False, cell_input_fn=None, output_attention=True,
                 initial_cell_state=None, name=None, attention_layer=None, attention_fn=None):
        super().__init__(name=name)
        check_like_rnncell(cell)
        if isinstance(attention_mechanism, (list, tuple)):
            self._is_multi = True
            mechanisms = tuple(attention_mechanism)
            for m in mechanisms:
                if not isinstance(m, AttentionMechanism):
                    raise TypeError(f"attention_mechanism must contain only instances of "
                                    f"AttentionMechanism, saw type: {type(m).__name__}")
        else:
            self._is_multi = False
            if not isinstance(attention_mechanism, AttentionMechanism):
                raise TypeError(f"attention_mechanism must be an AttentionMechanism or list "
                                f"of multiple AttentionMechanism instances, saw type: "
                                f"{type(attention_mechanism).__name__}")
            mechanisms = (attention_mechanism,)
        if cell_input_fn is None:
            cell_input_fn = lambda inputs, attention: slicing_ops.concat(  # noqa: E731
                [inputs, attention], -1)
        elif not callable(cell_input_fn):
            raise TypeError(f"cell_input_fn must be callable, saw type: "
                            f"{type(cell_input_fn).__name__}")
        if attention_layer_size is not None and attention_layer is not None:
            raise ValueError("Only one of attention_layer_size and attention_layer should be "
                             "set")
        if attention_layer_size is not None:
            sizes = tuple(attention_layer_size if isinstance(attention_layer_size, (list, tuple))
                          else (attention_layer_size,))
            if len(sizes) != len(mechanisms):
                raise ValueError(f"If provided, attention_layer_size must contain exactly one "
                                 f"integer per attention_mechanism, saw: {len(sizes)} vs "
                                 f"{len(mechanisms)}")
            self._attention_layers = tuple(
                Dense(size, name="attention_layer", use_bias=False, dtype=m.dtype)
                for size, m in zip(sizes, mechanisms))
            self._attention_layer_size = sum(sizes)
        elif attention_layer is not None:
            layers = tuple(attention_layer if isinstance(attention_layer, (list, tuple))
                           else (attention_layer,))
            if len(layers) != len(mechanisms):
                raise ValueError(f"If provided, attention_layer must contain exactly one layer "
                                 f"per attention_mechanism, saw: {len(layers)} vs "
                                 f"{len(mechanisms)}")
            self._attention_layers = layers
            self._attention_layer_size = sum(
                layer.compute_output_shape(
                    [None, cell.output_size + m.values.get_shape()[-1].value])[-1].value
                for layer, m in zip(layers, mechanisms))
        else:
            self._attention_layers = None
            self._attention_layer_size = sum(m.values.get_shape()[-1].value
                                             for m in mechanisms)
        self._attention_fn = attention_fn or _compute_attention
        self._cell = cell
        self._attention_mechanisms = mechanisms
        self._cell_input_fn = cell_input_fn
        self._output_attention = output_attention
        self._alignment_history = alignment_history
        self._initial_cell_state = initial_cell_state

    def _batch_size_checks(self, batch_size, error_message):
        """Asserts that every memory has batch_size rows (an error when the graph is built
        if both are known then, else when it runs)."""
        return [check_ops.assert_equal(batch_size, m.batch_size, message=error_message)
                for m in self._attention_mechanisms]

    def _checked(self, structure, batch_size, error_message, name):
        with control_dependencies(self._batch_size_checks(batch_size, error_message)):
            return map_structure(lambda s: s if is_tensor_array(s) else identity(s, name=name),
                                 structure)

    def _item_or_tuple(self, seq):
        """One item for one mechanism, a tuple for a list of them (as the user passed)."""
        t = tuple(seq)
        return t if self._is_multi else t[0]

    @property
    def output_size(self):
        return self._attention_layer_size if self._output_attention else self._cell.output_size

    @property
    def state_size(self):
        return AttentionWrapperState(
            cell_state=self._cell.state_size, time=TensorShape([]),
            attention=self._attention_layer_size,
            alignments=self._item_or_tuple(m.alignments_size
                                           for m in self._attention_mechanisms),
            attention_state=self._item_or_tuple(m.state_size
                                                for m in self._attention_mechanisms),
            alignment_history=self._item_or_tuple(
                m.alignments_size if self._alignment_history else ()
                for m in self._attention_mechanisms))

    @property
    def variables(self):
        found = list(self._cell.variables) + list(self.__dict__.get("_variables", []))
        for layer in self._attention_layers or ():
            found += layer.variables
        return found

    def zero_state(self, batch_size, dtype):
        """The first state: the cell's zero state (or initial_cell_state), zero attention
        and alignments, time 0, an empty alignment history."""
        with name_scope(type(self).__name__ + "ZeroState", values=[batch_size]):
            if self._initial_cell_state is not None:
                cell_state = self._initial_cell_state
            else:
                cell_state = self._cell.zero_state(batch_size, dtype)
            cell_state = self._checked(
                cell_state, batch_size,
                f"When calling zero_state of AttentionWrapper {self.name}: Non-matching batch "
                "sizes between the memory (encoder output) and the requested batch size.  Are "
                "you using the BeamSearchDecoder?  If so, make sure your encoder output has "
                "been tiled to beam_width via tf.contrib.seq2seq.tile_batch, and the "
                "batch_size= argument passed to zero_state is batch_size * beam_width.",
                "checked_cell_state")
            initial_alignments = [m.initial_alignments(batch_size, dtype)
                                  for m in self._attention_mechanisms]
            return AttentionWrapperState(
                cell_state=cell_state,
                time=array_ops.zeros([], dtype=_dtypes.int32),
                attention=_zeros(self._attention_layer_size, batch_size,
                                 _dtypes.as_dtype(dtype)),
                alignments=self._item_or_tuple(initial_alignments),
                attention_state=self._item_or_tuple(
                    m.initial_state(batch_size, dtype) for m in self._attention_mechanisms),
                alignment_history=self._item_or_tuple(
                    TensorArray(dtype, size=0, dynamic_size=True,
                                element_shape=alignment.get_shape())
                    if self._alignment_history else () for alignment in initial_alignments))

    def call(self, inputs, state):
        if not isinstance(state, AttentionWrapperState):
            raise TypeError(f"Expected state to be instance of AttentionWrapperState. "
                            f"Received type {type(state)} instead.")
        cell_inputs = self._cell_input_fn(inputs, state.attention)
        cell_output, next_cell_state = self._cell(cell_inputs, state.cell_state)
        cell_batch_size = cell_output.get_shape()[0].value or array_ops.shape(cell_output)[0]
        cell_output = self._checked(
            cell_output, cell_batch_size,
            f"When applying AttentionWrapper {self.name}: Non-matching batch sizes between "
            "the memory (encoder output) and the query (decoder output).  Are you using the "
            "BeamSearchDecoder?  You may need to tile your memory input via the "
            "tf.contrib.seq2seq.tile_batch function with argument multiple=beam_width.",
            "checked_cell_output")
        if self._is_multi:
            previous_states, previous_histories = state.attention_state, \
                state.alignment_history
        else:
            previous_states, previous_histories = [state.attention_state], \
                [state.alignment_history]
        all_alignments, all_attentions, all_states, all_histories = [], [], [], []
        for i, mechanism in enumerate(self._attention_mechanisms):
            attention, alignments, next_attention_state = self._attention_fn(
                mechanism, cell_output, previous_states[i],
                self._attention_layers[i] if self._attention_layers else None)
            history = previous_histories[i].write(state.time, alignments) \
                if self._alignment_history else ()
            all_states.append(next_attention_state)
            all_alignments.append(alignments)
            all_attentions.append(attention)
            all_histories.append(history)
        attention = slicing_ops.concat(all_attentions, 1)
        next_state = AttentionWrapperState(
            time=state.time + 1, cell_state=next_cell_state, attention=attention,
            attention_state=self._item_or_tuple(all_states),
            alignments=self._item_or_tuple(all_alignments),
            alignment_history=self._item_or_tuple(all_histories))
        return (attention if self._output_attention else cell_output), next_state


def _compute_attention(attention_mechanism, cell_output, attention_state, attention_layer):
    """(attention, alignments, next_attention_state) of one mechanism for one step."""
    alignments, next_attention_state = attention_mechanism(cell_output, state=attention_state)
    context = matmul_ops.matmul(array_ops.expand_dims(alignments, 1), attention_mechanism.values)
    context = array_ops.squeeze(context, [1])
    if attention_layer is not None:
        attention = attention_layer(slicing_ops.concat([cell_output, context], 1))
    else:
        attention = context
    return attention, alignments, next_attention_state
