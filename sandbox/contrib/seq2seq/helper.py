"""Decoder helpers -- mirrors TF 1.15's contrib/seq2seq/python/ops/helper.py.

A BasicDecoder (basic_decoder.py) runs its cell one step at a time; a Helper decides what
happens between two steps:

    finished, inputs = helper.initialize()                  # before the first step
    sample_ids = helper.sample(time, outputs, state)        # after each step: ids from logits
    finished, inputs, state = helper.next_inputs(time, outputs, state, sample_ids)

    TrainingHelper            feeds the ground truth: step t reads inputs[:, t] ("teacher
                              forcing"); example b finishes after sequence_length[b] steps.
    ScheduledEmbeddingTrainingHelper  the ground truth, or (with sampling_probability) the
                              embedding of an id sampled from the step's logits.
    GreedyEmbeddingHelper     feeds back embedding(argmax(logits)); an example finishes when
                              it emits end_token.
    SampleEmbeddingHelper     the same with an id sampled from softmax(logits / temperature).
    InferenceHelper           sample_fn and end_fn of your own, outputs fed back as they are.
    CustomHelper              initialize, sample and next_inputs are your three functions.

TF chooses between the real next inputs and a placeholder (zeros, or the start inputs) with a
tf.cond once every example has finished; the sandbox computes both and picks one with
tf.where, which gives the same values.
"""
from ...api.nest import map_structure
from ...framework import dtypes as _dtypes
from ...framework.graph import name_scope
from ...framework.tensor import Tensor, convert_to_tensor
from ...framework.tensor_shape import TensorShape
from ...ops import array_ops, basic_math_ops, comparison_ops, math_ops, nn_impl, random_ops
from ...ops import reduction_ops, slicing_ops
from ...ops.func_graph import flatten
from ...ops.tensor_array_ops import TensorArray

__all__ = ["Helper", "CustomHelper", "TrainingHelper", "ScheduledEmbeddingTrainingHelper",
           "GreedyEmbeddingHelper", "SampleEmbeddingHelper", "InferenceHelper"]


def transpose_batch_time(x):
    """[batch, time, ...] <-> [time, batch, ...] (TF's rnn._transpose_batch_time)."""
    x = convert_to_tensor(x)
    rank = x.get_shape().ndims
    if rank is not None and rank < 2:
        return x
    if rank is None:
        raise ValueError(f"transpose_batch_time: the rank of {x.name!r} must be known")
    return array_ops.transpose(x, [1, 0] + list(range(2, rank)))


def _unstack_ta(inp):
    """A TensorArray holding inp[0], inp[1], ... (inp time-major). clear_after_read=False:
    the sandbox reads the last step again once all examples are done (see next_inputs)."""
    return TensorArray(dtype=inp.dtype, size=array_ops.shape(inp)[0], clear_after_read=False,
                       element_shape=inp.get_shape()[1:]).unstack(inp)


def _all_false(batch_size):
    return slicing_ops.tile(convert_to_tensor([False]), array_ops.reshape(batch_size, [1]))


def _embedding_fn(embedding):
    if callable(embedding):
        return embedding
    return lambda ids: nn_impl.embedding_lookup(embedding, ids)


class Helper:
    """The interface BasicDecoder asks between two steps (see the module docstring)."""

    @property
    def batch_size(self):
        """The batch size: a scalar int32 tensor (or an int)."""
        raise NotImplementedError("batch_size has not been implemented")

    @property
    def sample_ids_shape(self):
        """The shape of one example's sample_ids (TensorShape([]) for one id per step)."""
        raise NotImplementedError("sample_ids_shape has not been implemented")

    @property
    def sample_ids_dtype(self):
        raise NotImplementedError("sample_ids_dtype has not been implemented")

    def initialize(self, name=None):
        """(initial_finished, initial_inputs)."""
        raise NotImplementedError

    def sample(self, time, outputs, state, name=None):
        """sample_ids from this step's outputs."""
        raise NotImplementedError

    def next_inputs(self, time, outputs, state, sample_ids, name=None):
        """(finished, next_inputs, next_state)."""
        raise NotImplementedError


class CustomHelper(Helper):
    """A Helper made of three functions: initialize_fn() -> (finished, inputs),
    sample_fn(time, outputs, state) -> sample_ids and next_inputs_fn(time, outputs, state,
    sample_ids) -> (finished, next_inputs, next_state)."""

    def __init__(self, initialize_fn, sample_fn, next_inputs_fn, sample_ids_shape=None,
                 sample_ids_dtype=None):
        self._initialize_fn = initialize_fn
        self._sample_fn = sample_fn
        self._next_inputs_fn = next_inputs_fn
        self._batch_size = None
        self._sample_ids_shape = TensorShape(sample_ids_shape or [])
        self._sample_ids_dtype = sample_ids_dtype or _dtypes.int32

    @property
    def batch_size(self):
        if self._batch_size is None:
            raise ValueError("batch_size accessed before initialize was called")
        return self._batch_size

    @property
    def sample_ids_shape(self):
        return self._sample_ids_shape

    @property
    def sample_ids_dtype(self):
        return self._sample_ids_dtype

    def initialize(self, name=None):
        with name_scope(name, f"{type(self).__name__}Initialize"):
            (finished, next_inputs) = self._initialize_fn()
            if self._batch_size is None:
                self._batch_size = array_ops.size(finished)
        return (finished, next_inputs)

    def sample(self, time, outputs, state, name=None):
        with name_scope(name, f"{type(self).__name__}Sample", (time, outputs, state)):
            return self._sample_fn(time=time, outputs=outputs, state=state)

    def next_inputs(self, time, outputs, state, sample_ids, name=None):
        with name_scope(name, f"{type(self).__name__}NextInputs", (time, outputs, state)):
            return self._next_inputs_fn(time=time, outputs=outputs, state=state,
                                        sample_ids=sample_ids)


class TrainingHelper(Helper):
    """Teacher forcing: step t's input is inputs[:, t] ([t, :] when time_major), whatever the
    decoder emitted; example b has finished once sequence_length[b] steps are done."""

    def __init__(self, inputs, sequence_length, time_major=False, name=None):
        with name_scope(name, "TrainingHelper", flatten(inputs) + [sequence_length]):
            inputs = map_structure(lambda x: convert_to_tensor(x, name="inputs"), inputs)
            self._inputs = inputs
            if not time_major:
                inputs = map_structure(transpose_batch_time, inputs)
            self._input_tas = map_structure(_unstack_ta, inputs)
            self._last_time = array_ops.shape(flatten(inputs)[0])[0] - 1
            self._sequence_length = convert_to_tensor(sequence_length, name="sequence_length")
            if self._sequence_length.get_shape().ndims != 1:
                raise ValueError(f"Expected sequence_length to be a vector, but received "
                                 f"shape: {self._sequence_length.get_shape()}")
            self._zero_inputs = map_structure(
                lambda inp: array_ops.zeros_like(inp[0, :]), inputs)
            self._batch_size = array_ops.size(self._sequence_length)

    @property
    def inputs(self):
        return self._inputs

    @property
    def sequence_length(self):
        return self._sequence_length

    @property
    def batch_size(self):
        return self._batch_size

    @property
    def sample_ids_shape(self):
        return TensorShape([])

    @property
    def sample_ids_dtype(self):
        return _dtypes.int32

    def _inputs_at(self, time, all_finished):
        """The inputs of step `time`, or zeros once all examples are done (time may then be
        past the last step: the read is clamped, its value unused)."""
        index = basic_math_ops.minimum(time, self._last_time)
        return map_structure(
            lambda ta, zero: comparison_ops.where(all_finished, zero, ta.read(index)),
            self._input_tas, self._zero_inputs)

    def initialize(self, name=None):
        with name_scope(name, "TrainingHelperInitialize"):
            finished = comparison_ops.equal(0, self._sequence_length)
            all_finished = reduction_ops.reduce_all(finished)
            return (finished, self._inputs_at(0, all_finished))

    def sample(self, time, outputs, name=None, **unused_kwargs):
        with name_scope(name, "TrainingHelperSample", [time, outputs]):
            return math_ops.cast(reduction_ops.argmax(outputs, axis=-1), _dtypes.int32)

    def next_inputs(self, time, outputs, state, name=None, **unused_kwargs):
        with name_scope(name, "TrainingHelperNextInputs", [time, outputs]):
            next_time = time + 1
            finished = comparison_ops.greater_equal(next_time, self._sequence_length)
            all_finished = reduction_ops.reduce_all(finished)
            return (finished, self._inputs_at(next_time, all_finished), state)


class ScheduledEmbeddingTrainingHelper(TrainingHelper):
    """Scheduled sampling (Bengio et al., 2015): a TrainingHelper that, for each example and
    step with probability sampling_probability, feeds the embedding of an id sampled from the
    step's logits instead of the ground truth. sample_ids is -1 where it did not sample."""

    def __init__(self, inputs, sequence_length, embedding, sampling_probability,
                 time_major=False, seed=None, scheduling_seed=None, name=None):
        with name_scope(name, "ScheduledEmbeddingSamplingWrapper", [sampling_probability]):
            self._embedding_fn = _embedding_fn(embedding)
            self._sampling_probability = convert_to_tensor(sampling_probability,
                                                           name="sampling_probability")
            if self._sampling_probability.get_shape().ndims not in (0, 1):
                raise ValueError(f"sampling_probability must be either a scalar or a vector. "
                                 f"saw shape: {self._sampling_probability.get_shape()}")
            self._seed = seed
            self._scheduling_seed = scheduling_seed
            super().__init__(inputs=inputs, sequence_length=sequence_length,
                             time_major=time_major, name=name)

    def sample(self, time, outputs, state, name=None):
        with name_scope(name, "ScheduledEmbeddingTrainingHelperSample", [time, outputs]):
            uniform = random_ops.random_uniform(array_ops.reshape(self.batch_size, [1]),
                                                seed=self._scheduling_seed)
            select_sample = comparison_ops.less(uniform, self._sampling_probability)
            drawn = array_ops.reshape(random_ops.multinomial(
                outputs, 1, seed=self._seed, output_dtype=_dtypes.int32), [-1])
            return comparison_ops.where(select_sample, drawn,
                                        array_ops.fill(array_ops.reshape(self.batch_size, [1]),
                                                       -1))

    def next_inputs(self, time, outputs, state, sample_ids, name=None):
        with name_scope(name, "ScheduledEmbeddingTrainingHelperNextInputs", [time, outputs]):
            (finished, base_next_inputs, state) = super().next_inputs(
                time=time, outputs=outputs, state=state, sample_ids=sample_ids)
            # TF gathers the sampled rows and scatters them back; a where gives the same
            sampled = self._embedding_fn(basic_math_ops.maximum(sample_ids, 0))
            all_finished = reduction_ops.reduce_all(finished)
            use_sample = comparison_ops.logical_and(
                comparison_ops.greater(sample_ids, -1),
                comparison_ops.logical_not(all_finished))
            return (finished, comparison_ops.where(use_sample, sampled, base_next_inputs), state)


class GreedyEmbeddingHelper(Helper):
    """Inference: the argmax of each step's outputs (logits), embedded, is the next input.
    `embedding` is the embedding matrix (or a function ids -> inputs); an example finishes
    when it emits end_token."""

    def __init__(self, embedding, start_tokens, end_token):
        self._embedding_fn = _embedding_fn(embedding)
        self._start_tokens = convert_to_tensor(start_tokens, dtype=_dtypes.int32,
                                               name="start_tokens")
        self._end_token = convert_to_tensor(end_token, dtype=_dtypes.int32, name="end_token")
        if self._start_tokens.get_shape().ndims != 1:
            raise ValueError("start_tokens must be a vector")
        self._batch_size = array_ops.size(self._start_tokens)
        if self._end_token.get_shape().ndims != 0:
            raise ValueError("end_token must be a scalar")
        self._start_inputs = self._embedding_fn(self._start_tokens)

    @property
    def batch_size(self):
        return self._batch_size

    @property
    def sample_ids_shape(self):
        return TensorShape([])

    @property
    def sample_ids_dtype(self):
        return _dtypes.int32

    def initialize(self, name=None):
        return (_all_false(self._batch_size), self._start_inputs)

    def sample(self, time, outputs, state, name=None):
        del time, state
        if not isinstance(outputs, Tensor):
            raise TypeError(f"Expected outputs to be a single Tensor, got: {type(outputs)}")
        return reduction_ops.argmax(outputs, axis=-1, output_type=_dtypes.int32)

    def next_inputs(self, time, outputs, state, sample_ids, name=None):
        del time, outputs
        finished = comparison_ops.equal(sample_ids, self._end_token)
        all_finished = reduction_ops.reduce_all(finished)
        next_inputs = map_structure(
            lambda start, embedded: comparison_ops.where(all_finished, start, embedded),
            self._start_inputs, self._embedding_fn(sample_ids))
        return (finished, next_inputs, state)


class SampleEmbeddingHelper(GreedyEmbeddingHelper):
    """GreedyEmbeddingHelper that samples the next id from softmax(logits / temperature)
    instead of taking the argmax (temperature 1 by default)."""

    def __init__(self, embedding, start_tokens, end_token, softmax_temperature=None,
                 seed=None):
        super().__init__(embedding, start_tokens, end_token)
        self._softmax_temperature = softmax_temperature
        self._seed = seed

    def sample(self, time, outputs, state, name=None):
        del time, state
        if not isinstance(outputs, Tensor):
            raise TypeError(f"Expected outputs to be a single Tensor, got: {type(outputs)}")
        logits = outputs if self._softmax_temperature is None \
            else outputs / self._softmax_temperature
        drawn = random_ops.multinomial(logits, 1, seed=self._seed, output_dtype=_dtypes.int32)
        return array_ops.reshape(drawn, [-1])


class InferenceHelper(Helper):
    """Feeds each step's sample_fn(outputs) to the next (or next_inputs_fn of it), without
    embedding; end_fn(sample_ids) says which examples finished. For continuous outputs."""

    def __init__(self, sample_fn, sample_shape, sample_dtype, start_inputs, end_fn,
                 next_inputs_fn=None):
        self._sample_fn = sample_fn
        self._end_fn = end_fn
        self._sample_shape = TensorShape(sample_shape)
        self._sample_dtype = sample_dtype
        self._next_inputs_fn = next_inputs_fn
        self._start_inputs = convert_to_tensor(start_inputs, name="start_inputs")
        self._batch_size = array_ops.shape(self._start_inputs)[0]

    @property
    def batch_size(self):
        return self._batch_size

    @property
    def sample_ids_shape(self):
        return self._sample_shape

    @property
    def sample_ids_dtype(self):
        return self._sample_dtype

    def initialize(self, name=None):
        return (_all_false(self._batch_size), self._start_inputs)

    def sample(self, time, outputs, state, name=None):
        del time, state
        return self._sample_fn(outputs)

    def next_inputs(self, time, outputs, state, sample_ids, name=None):
        del time, outputs
        finished = self._end_fn(sample_ids)
        if self._next_inputs_fn is None:
            return (finished, sample_ids, state)
        return (finished, self._next_inputs_fn(sample_ids), state)

