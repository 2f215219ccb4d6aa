"""Queue-based input -- mirrors TensorFlow 1.15's python/training/input.py
(tf.train.string_input_producer, slice_input_producer, batch, shuffle_batch ...).

Before tf.data, a TF-1 input pipeline was a chain of queues filled by threads:

    filenames = tf.train.string_input_producer(files, num_epochs=5)     # a queue of names
    image, label = read_and_decode(filenames.dequeue())                 # one example
    images, labels = tf.train.shuffle_batch([image, label], batch_size=100,
                                            capacity=2000, min_after_dequeue=1000)
    ...
    sess.run(tf.local_variables_initializer())        # the epoch counters are local
    coord = tf.train.Coordinator()
    threads = tf.train.start_queue_runners(sess, coord=coord)
    try:
        while not coord.should_stop():
            sess.run(train_op)
    except tf.errors.OutOfRangeError:                 # num_epochs passes are done
        pass
    finally:
        coord.request_stop(); coord.join(threads)

Every function here builds a queue (ops/data_flow_ops.py: a FIFOQueue, or a
RandomShuffleQueue for shuffle_batch) and a QueueRunner whose threads run its enqueue op
over and over (train/queue_runner.py), added to the QUEUE_RUNNERS collection -- so
tf.train.start_queue_runners, MonitoredTrainingSession and the Supervisor start them.

How the input ends: a producer's enqueue carries a `limit_epochs` counter (a local variable
and ops/dataset_counter_ops.CountUpTo); after num_epochs passes it fails with
OutOfRangeError, its runner closes the queue, the batching queue's runner then fails and
closes its own queue, and the training loop's dequeue ends with OutOfRangeError once what is
left is drained (or at once with allow_smaller_final_batch=True, after a smaller last batch).

The queues are placed like any op: build the pipeline under `tf.device('/job:ps/task:0')`
and every worker that builds the same graph shares the same queues (a shared input).
maybe_batch and the other maybe_* enqueue only the examples whose `keep_input` is True (a
vector keep_input picks them with dynamic_partition, as TF does; TF makes a scalar one a
tf.cond around the enqueue, the sandbox an enqueue_many of the example or of nothing, since
its functional cond cannot take a queue into a branch). batch(dynamic_pad=True) batches
through a PaddingFIFOQueue.

RandomShuffleQueue draws its order with NumPy's generator from the seed, not TF's (the same
seed gives the same order in the sandbox, not the order TF gives).
"""
from ..framework import dtypes as _dtypes
from ..framework.graph import GraphKeys, control_dependencies, name_scope
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..ops import array_ops, basic_math_ops, comparison_ops, control_flow_ops, indexing_ops, \
    math_ops, random_ops, summary_ops
from ..framework.tensor_util import constant_value
from ..ops.data_flow_ops import FIFOQueue, PaddingFIFOQueue, RandomShuffleQueue
from ..ops.partition_ops import dynamic_partition
from ..ops.dataset_counter_ops import count_up_to
from ..ops.variables import Variable
from .queue_runner import QueueRunner, add_queue_runner

__all__ = ["match_filenames_once", "limit_epochs", "input_producer", "string_input_producer",
           "range_input_producer", "slice_input_producer", "batch", "batch_join", "shuffle_batch",
           "shuffle_batch_join", "maybe_batch", "maybe_batch_join", "maybe_shuffle_batch",
           "maybe_shuffle_batch_join"]


# -- producers ------------------------------------------------------------------------------

def match_filenames_once(pattern, name=None):
    """A local variable initialized to the (sorted) names of the files matching `pattern` (a
    glob, or a 1-D tensor of globs), so the directory is listed only once: run
    tf.local_variables_initializer() first."""
    from ..ops.file_io_ops import matching_files
    with name_scope(name, "matching_filenames", [pattern]) as name:
        return Variable(name=name, initial_value=matching_files(pattern), trainable=False,
                        validate_shape=False, collections=[GraphKeys.LOCAL_VARIABLES])


def limit_epochs(tensor, num_epochs=None, name=None):
    """`tensor`, but only `num_epochs` times: then running it raises OutOfRangeError. The
    count is a local variable ('epochs'): run tf.local_variables_initializer() first."""
    if num_epochs is None:
        return tensor
    if num_epochs <= 0:
        raise ValueError(f"num_epochs must be > 0 not {num_epochs}.")
    with name_scope(name, "limit_epochs", [tensor]) as name:
        zero64 = convert_to_tensor(0, dtype=_dtypes.int64)
        epochs = Variable(zero64, name="epochs", trainable=False,
                          collections=[GraphKeys.LOCAL_VARIABLES])
        counter = count_up_to(epochs, num_epochs)
        with control_dependencies([counter]):
            return control_flow_ops.identity(tensor, name=name)


def input_producer(input_tensor, element_shape=None, num_epochs=None, shuffle=True, seed=None,
                   capacity=32, shared_name=None, summary_name=None, name=None,
                   cancel_op=None):
    """A queue holding the rows of `input_tensor`, refilled by a QueueRunner, `num_epochs`
    times (forever when None), each pass shuffled when `shuffle`."""
    with name_scope(name, "input_producer", [input_tensor]):
        input_tensor = convert_to_tensor(input_tensor, name="input_tensor")
        element_shape = input_tensor.get_shape()[1:].merge_with(
            TensorShape(None) if element_shape is None else TensorShape(element_shape))
        if not element_shape.is_fully_defined():
            raise ValueError("Either `input_tensor` must have a fully defined shape or "
                             "`element_shape` must be specified")
        if shuffle:
            input_tensor = random_ops.random_shuffle(input_tensor, seed=seed)
        input_tensor = limit_epochs(input_tensor, num_epochs)
        q = FIFOQueue(capacity=capacity, dtypes=[input_tensor.dtype.base_dtype],
                      shapes=[element_shape], shared_name=shared_name, name=name)
        enq = q.enqueue_many([input_tensor])
        add_queue_runner(QueueRunner(q, [enq], cancel_op=cancel_op))
        if summary_name is not None:
            summary_ops.scalar(summary_name, _fraction(q.size(), capacity))
        return q


def string_input_producer(string_tensor, num_epochs=None, shuffle=True, seed=None,
                          capacity=32, shared_name=None, name=None, cancel_op=None):
    """A queue of strings (usually file names), `num_epochs` passes, shuffled by default."""
    not_null_err = "string_input_producer requires a non-null input tensor"
    if not isinstance(string_tensor, Tensor) and not len(string_tensor):
        raise ValueError(not_null_err)
    with name_scope(name, "input_producer", [string_tensor]) as name:
        string_tensor = convert_to_tensor(string_tensor, dtype=_dtypes.string)
        from ..ops.logging_ops import Assert
        with control_dependencies([Assert(comparison_ops.greater(array_ops.size(string_tensor),
                                                                 0), [not_null_err])]):
            string_tensor = control_flow_ops.identity(string_tensor)
        return input_producer(string_tensor, [], num_epochs, shuffle, seed, capacity,
                              shared_name, f"fraction_of_{capacity}_full", name, cancel_op)


def range_input_producer(limit, num_epochs=None, shuffle=True, seed=None, capacity=32,
                         shared_name=None, name=None):
    """A queue of the integers 0 .. limit-1, `num_epochs` passes, shuffled by default."""
    with name_scope(name, "input_producer", [limit]) as name:
        range_tensor = array_ops.range(limit)
        return input_producer(range_tensor, [], num_epochs, shuffle, seed, capacity,
                              shared_name, f"fraction_of_{capacity}_full", name)


def slice_input_producer(tensor_list, num_epochs=None, shuffle=True, seed=None, capacity=32,
                         shared_name=None, name=None):
    """One row of each tensor of `tensor_list` at a time (the same row of each), `num_epochs`
    passes: a range_input_producer of row indices, and a gather per tensor."""
    with name_scope(name, "input_producer", tensor_list):
        tensor_list = [convert_to_tensor(t) for t in tensor_list]
        if not tensor_list:
            raise ValueError("Expected at least one tensor in slice_input_producer().")
        range_size = array_ops.shape(tensor_list[0])[0]
        queue = range_input_producer(range_size, num_epochs=num_epochs, shuffle=shuffle,
                                     seed=seed, capacity=capacity, shared_name=shared_name)
        index = queue.dequeue()
        return [indexing_ops.gather(t, index) for t in tensor_list]


def _fraction(size, capacity):
    return math_ops.multiply(math_ops.cast(size, _dtypes.float32), 1.0 / capacity)


# -- batching -------------------------------------------------------------------------------

def _as_tensor_list(tensors):
    if isinstance(tensors, dict):
        return [tensors[k] for k in sorted(tensors)]
    if isinstance(tensors, Tensor):
        raise TypeError("tf.train.batch takes a list (or dict) of tensors, not one tensor: "
                        "write tf.train.batch([x], ...).")
    return list(tensors)


def _as_original_type(original, dequeued):
    if not isinstance(dequeued, list):
        dequeued = [dequeued]
    if isinstance(original, dict):
        return {k: dequeued[i] for i, k in enumerate(sorted(original))}
    return dequeued[0] if len(dequeued) == 1 else dequeued


def _shapes(tensor_list_list, shapes, enqueue_many, dynamic_pad=False):
    if shapes is not None:
        return [TensorShape(s) for s in shapes]
    result = []
    for i, t in enumerate(tensor_list_list[0]):
        shape = t.get_shape()
        if shape.ndims is None:
            raise ValueError(f"Cannot infer Tensor's rank: {t}. Give tf.train.batch its "
                             "`shapes`, or set_shape() the tensor.")
        shape = shape[1:] if enqueue_many else shape
        for other in tensor_list_list[1:]:
            other_shape = other[i].get_shape()
            shape = shape.merge_with(other_shape[1:] if enqueue_many else other_shape)
        if not shape.is_fully_defined() and not dynamic_pad:
            raise ValueError(f"All shapes must be fully defined: {shape} ({t.name}). Give "
                             "tf.train.batch its `shapes`, or set_shape() the tensor.")
        result.append(shape)
    return result


def _types_of(tensor_list_list):
    types = [t.dtype.base_dtype for t in tensor_list_list[0]]
    for other in tensor_list_list[1:]:
        if [t.dtype.base_dtype for t in other] != types:
            raise TypeError(f"Expected types {types} in every tensor list, got "
                            f"{[t.dtype.base_dtype for t in other]}.")
    return types


def _validate_keep_input(keep_input, enqueue_many):
    """TF's input._validate_keep_input: a bool scalar, or a vector (one per example) with
    enqueue_many."""
    keep_input = convert_to_tensor(keep_input)
    ndims = keep_input.get_shape().ndims
    if ndims is None:
        raise ValueError("`keep_input` dimensions must be known at graph construction.")
    if not enqueue_many and ndims == 1:
        raise ValueError("`keep_input` cannot be a vector when `enqueue_many=False`.")
    if ndims > 1:
        raise ValueError("`keep_input` must be 0 or 1 dimensions.")
    return keep_input


def _enqueue(queue, tensor_list, enqueue_many, keep_input):
    """The enqueue op of one tensor list, as TF's input._enqueue builds it: a vector
    keep_input selects the examples to enqueue (dynamic_partition); a scalar one makes the
    enqueue conditional (smart_cond: decided now when it is a constant, else a tf.cond)."""
    enqueue_fn = queue.enqueue_many if enqueue_many else queue.enqueue
    if keep_input is None:
        return enqueue_fn(tensor_list)
    if keep_input.get_shape().ndims == 1:
        select = math_ops.cast(keep_input, _dtypes.int32)
        return enqueue_fn([dynamic_partition(x, select, num_partitions=2)[1]
                           for x in tensor_list])
    keep = constant_value(keep_input)
    if keep is not None:
        return enqueue_fn(tensor_list) if bool(keep) else control_flow_ops.no_op()
    # TF: tf.cond(keep_input, enqueue, no_op). The sandbox's functional cond cannot take a
    # queue's reference into a branch, so the example is enqueued as a batch of one (or the
    # batch as it is) of which a vector keep_input selects all or nothing.
    if not enqueue_many:
        tensor_list = [array_ops.expand_dims(t, 0) for t in tensor_list]
    keep_vector = array_ops.fill(array_ops.shape(tensor_list[0])[:1], keep_input)
    select = math_ops.cast(keep_vector, _dtypes.int32)
    return queue.enqueue_many([dynamic_partition(x, select, num_partitions=2)[1]
                               for x in tensor_list])


def _batch(tensor_list_list, original, batch_size, queue_fn, threads_per_list, capacity,
           enqueue_many, shapes, allow_smaller_final_batch, name, default_name,
           summary=None, keep_input=None, dynamic_pad=False):
    flat = [t for tl in tensor_list_list for t in tl]
    extra = [] if keep_input is None else [keep_input]
    with name_scope(name, default_name, flat + extra) as name:
        tensor_list_list = [[convert_to_tensor(t) for t in tl] for tl in tensor_list_list]
        if keep_input is not None:
            keep_input = _validate_keep_input(keep_input, enqueue_many)
        types = _types_of(tensor_list_list)
        shapes = _shapes(tensor_list_list, shapes, enqueue_many, dynamic_pad)
        queue = queue_fn(types, shapes)
        enqueue_ops = []
        for tl in tensor_list_list:
            op = _enqueue(queue, tl, enqueue_many, keep_input)
            enqueue_ops += [op] * threads_per_list
        add_queue_runner(QueueRunner(queue, enqueue_ops))
        if summary is None:
            summary_ops.scalar(f"fraction_of_{capacity}_full", _fraction(queue.size(),
                                                                         capacity))
        else:
            summary(queue)
        if allow_smaller_final_batch:
            dequeued = queue.dequeue_up_to(batch_size, name=name)
        else:
            dequeued = queue.dequeue_many(batch_size, name=name)
        return _as_original_type(original, dequeued)


def _fifo(capacity, shared_name, dynamic_pad):
    """TF's _which_queue: a PaddingFIFOQueue when dynamic_pad, else a FIFOQueue."""
    def fifo(types, shapes):
        cls = PaddingFIFOQueue if dynamic_pad else FIFOQueue
        return cls(capacity, types, shapes=shapes, shared_name=shared_name)
    return fifo


def batch(tensors, batch_size, num_threads=1, capacity=32, enqueue_many=False, shapes=None,
          dynamic_pad=False, allow_smaller_final_batch=False, shared_name=None, name=None):
    """Batches of `batch_size` from a FIFOQueue filled by `num_threads` threads running the
    enqueue of `tensors` (one example each, or many with enqueue_many=True). With
    dynamic_pad=True the queue is a PaddingFIFOQueue: only the ranks need be known, and each
    batch is padded to its largest example."""
    return _batch([_as_tensor_list(tensors)], tensors, batch_size,
                  _fifo(capacity, shared_name, dynamic_pad), num_threads, capacity,
                  enqueue_many, shapes, allow_smaller_final_batch, name, "batch",
                  dynamic_pad=dynamic_pad)


def maybe_batch(tensors, keep_input, batch_size, num_threads=1, capacity=32,
                enqueue_many=False, shapes=None, dynamic_pad=False,
                allow_smaller_final_batch=False, shared_name=None, name=None):
    """Like batch, but only the examples whose `keep_input` is True are enqueued (a bool
    scalar, or with enqueue_many a vector with one entry per example)."""
    return _batch([_as_tensor_list(tensors)], tensors, batch_size,
                  _fifo(capacity, shared_name, dynamic_pad), num_threads, capacity,
                  enqueue_many, shapes, allow_smaller_final_batch, name, "batch",
                  keep_input=keep_input, dynamic_pad=dynamic_pad)


def batch_join(tensors_list, batch_size, capacity=32, enqueue_many=False, shapes=None,
               dynamic_pad=False, allow_smaller_final_batch=False, shared_name=None,
               name=None):
    """Like batch, with one enqueue thread per tensor list of `tensors_list` (e.g. one
    reader per file)."""
    return _batch([_as_tensor_list(t) for t in tensors_list], tensors_list[0], batch_size,
                  _fifo(capacity, shared_name, dynamic_pad), 1, capacity, enqueue_many,
                  shapes, allow_smaller_final_batch, name, "batch_join",
                  dynamic_pad=dynamic_pad)


def maybe_batch_join(tensors_list, keep_input, batch_size, capacity=32, enqueue_many=False,
                     shapes=None, dynamic_pad=False, allow_smaller_final_batch=False,
                     shared_name=None, name=None):
    """Like batch_join, enqueuing only the examples whose `keep_input` is True."""
    return _batch([_as_tensor_list(t) for t in tensors_list], tensors_list[0], batch_size,
                  _fifo(capacity, shared_name, dynamic_pad), 1, capacity, enqueue_many,
                  shapes, allow_smaller_final_batch, name, "batch_join",
                  keep_input=keep_input, dynamic_pad=dynamic_pad)


def _shuffle_summary(capacity, min_after_dequeue):
    def summary(queue):
        full = math_ops.multiply(math_ops.cast(basic_math_ops.maximum(
            0, math_ops.subtract(queue.size(), min_after_dequeue)), _dtypes.float32),
            1.0 / (capacity - min_after_dequeue))
        summary_ops.scalar(f"fraction_over_{min_after_dequeue}_of_"
                           f"{capacity - min_after_dequeue}_full", full)
    return summary


def shuffle_batch(tensors, batch_size, capacity, min_after_dequeue, num_threads=1, seed=None,
                  enqueue_many=False, shapes=None, allow_smaller_final_batch=False,
                  shared_name=None, name=None):
    """Batches of `batch_size` drawn at random from a RandomShuffleQueue that keeps at least
    `min_after_dequeue` examples (until its input ends), filled by `num_threads` threads."""
    def shuffling(types, shapes):
        return RandomShuffleQueue(capacity, min_after_dequeue, types, shapes=shapes,
                                  seed=seed, shared_name=shared_name)
    return _batch([_as_tensor_list(tensors)], tensors, batch_size, shuffling, num_threads,
                  capacity, enqueue_many, shapes, allow_smaller_final_batch, name,
                  "shuffle_batch", _shuffle_summary(capacity, min_after_dequeue))


def maybe_shuffle_batch(tensors, batch_size, capacity, min_after_dequeue, keep_input,
                        num_threads=1, seed=None, enqueue_many=False, shapes=None,
                        allow_smaller_final_batch=False, shared_name=None, name=None):
    """Like shuffle_batch, enqueuing only the examples whose `keep_input` is True."""
    def shuffling(types, shapes):
        return RandomShuffleQueue(capacity, min_after_dequeue, types, shapes=shapes,
                                  seed=seed, shared_name=shared_name)
    return _batch([_as_tensor_list(tensors)], tensors, batch_size, shuffling, num_threads,
                  capacity, enqueue_many, shapes, allow_smaller_final_batch, name,
                  "shuffle_batch", _shuffle_summary(capacity, min_after_dequeue),
                  keep_input=keep_input)


def shuffle_batch_join(tensors_list, batch_size, capacity, min_after_dequeue, seed=None,
                       enqueue_many=False, shapes=None, allow_smaller_final_batch=False,
                       shared_name=None, name=None):
    """Like shuffle_batch, with one enqueue thread per tensor list of `tensors_list`."""
    def shuffling(types, shapes):
        return RandomShuffleQueue(capacity, min_after_dequeue, types, shapes=shapes,
                                  seed=seed, shared_name=shared_name)
    return _batch([_as_tensor_list(t) for t in tensors_list], tensors_list[0], batch_size,
                  shuffling, 1, capacity, enqueue_many, shapes, allow_smaller_final_batch,
                  name, "shuffle_batch_join", _shuffle_summary(capacity, min_after_dequeue))


def maybe_shuffle_batch_join(tensors_list, batch_size, capacity, min_after_dequeue,
                             keep_input, seed=None, enqueue_many=False, shapes=None,
                             allow_smaller_final_batch=False, shared_name=None, name=None):
    """Like shuffle_batch_join, enqueuing only the examples whose `keep_input` is True."""
    def shuffling(types, shapes):
        return RandomShuffleQueue(capacity, min_after_dequeue, types, shapes=shapes,
                                  seed=seed, shared_name=shared_name)
    return _batch([_as_tensor_list(t) for t in tensors_list], tensors_list[0], batch_size,
                  shuffling, 1, capacity, enqueue_many, shapes, allow_smaller_final_batch,
                  name, "shuffle_batch_join", _shuffle_summary(capacity, min_after_dequeue),
                  keep_input=keep_input)
