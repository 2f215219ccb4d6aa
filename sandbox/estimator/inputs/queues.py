"""Feeding NumPy arrays into a queue from Python threads -- mirrors TensorFlow's
feeding_functions.py and feeding_queue_runner.py
(tensorflow_estimator/python/estimator/inputs/queues/).

An input_fn must return *tensors*, but the data is a NumPy array in the program's memory.
TF-1's answer is a queue filled by threads:

    placeholders --enqueue_many--> FIFOQueue / RandomShuffleQueue --dequeue_many--> the model

A `_FeedingQueueRunner` is a tf.train.QueueRunner whose threads, before every run of their
enqueue op, call a *feed function* that cuts the next `batch_size` rows out of the arrays and
feeds them to the placeholders. Each element of the queue is one row: (its index, column 1,
column 2, ...). After `num_epochs` passes over the data the feed function raises
OutOfRangeError; when the last thread has stopped the runner closes the queue, the model's
dequeue takes what is left (a last, shorter batch) and then raises OutOfRangeError itself --
which is how a MonitoredSession's loop learns that the input is exhausted.

The queue and its threads are added to the graph's QUEUE_RUNNERS collection, so the
MonitoredSession the Estimator creates starts them (and stops them when it closes).
"""
import random

import numpy as np

from ...framework import dtypes, errors
from ...ops import data_flow_ops
from ...ops.constant_op import placeholder
from ...train import queue_runner
from ...train.session_manager import logger as _log   # 'sandbox.train', as the hooks log

__all__ = []



def _indices_for_next_batch(start, batch_size, epoch_end, length, epoch, total_epochs):
    """The row indices of the next batch and the epoch count after it (TF's
    _get_integer_indices_for_next_batch): a batch may wrap around the end of the data, and
    the last one is cut where the last epoch ends."""
    if total_epochs is not None and epoch >= total_epochs:
        raise errors.OutOfRangeError(None, None, f"Already emitted {epoch} epochs.")
    indices = [j % length for j in range(start, start + batch_size)]
    epoch_ends = [i for i, x in enumerate(indices) if x == epoch_end]
    epoch += len(epoch_ends)
    if total_epochs is None or epoch < total_epochs:
        return indices, epoch
    last = epoch_ends[-(epoch - total_epochs + 1)]
    return indices[:last + 1], total_epochs


class _OrderedDictNumpyFeedFn:
    """Makes the feed dict of the next batch: {index placeholder: rows, column ph: values}."""

    def __init__(self, placeholders, ordered_dict_of_arrays, batch_size, random_start=False,
                 seed=None, num_epochs=None):
        if len(placeholders) != len(ordered_dict_of_arrays) + 1:
            raise ValueError(f"Expected {len(ordered_dict_of_arrays)} placeholders; got "
                             f"{len(placeholders)}.")
        self._index_placeholder = placeholders[0]
        self._col_placeholders = placeholders[1:]
        self._arrays = ordered_dict_of_arrays
        self._max = len(next(iter(ordered_dict_of_arrays.values())))
        for v in ordered_dict_of_arrays.values():
            if len(v) != self._max:
                raise ValueError("Array lengths must match.")
        self._batch_size = batch_size
        self._num_epochs = num_epochs
        self._epoch = 0
        rng = random.Random(seed)
        self._trav = rng.randrange(self._max) if random_start else 0
        self._epoch_end = (self._trav - 1) % self._max

    def __call__(self):
        indices, self._epoch = _indices_for_next_batch(
            self._trav, self._batch_size, self._epoch_end, self._max, self._epoch,
            self._num_epochs)
        self._trav = (indices[-1] + 1) % self._max
        feed_dict = {self._index_placeholder: np.asarray(indices, dtype=np.int64)}
        feed_dict.update({ph: column[indices] for ph, column
                          in zip(self._col_placeholders, self._arrays.values())})
        return feed_dict


class _FeedingQueueRunner(queue_runner.QueueRunner):
    """A QueueRunner whose i-th thread feeds `feed_fns[i]()` to its enqueue op."""

    def __init__(self, queue=None, enqueue_ops=None, close_op=None, cancel_op=None,
                 feed_fns=None, queue_closed_exception_types=None):
        # The data is exhausted (OutOfRange from a feed_fn) or the queue was cancelled: the
        # last thread closes the queue, so the reader drains it and then gets OutOfRangeError.
        super().__init__(queue, enqueue_ops, close_op, cancel_op,
                         queue_closed_exception_types=queue_closed_exception_types or
                         (errors.OutOfRangeError, errors.CancelledError))
        if feed_fns is None:
            self._feed_fns = [None for _ in enqueue_ops]
        else:
            self._feed_fns = feed_fns
        if len(self._feed_fns) != len(self._enqueue_ops):
            raise ValueError("If feed_fns is not None, it must have the same length as "
                             "enqueue_ops.")

    def _enqueue_callable(self, sess, enqueue_op):
        """Runs the enqueue op with its thread's feed_fn() as feed_dict."""
        feed_fn = self._feed_fns[self._enqueue_ops.index(enqueue_op)]
        if feed_fn is None:
            return super()._enqueue_callable(sess, enqueue_op)
        return lambda: sess.run(enqueue_op, feed_dict=feed_fn())


def enqueue_data(data, capacity, shuffle=False, min_after_dequeue=None, num_threads=1,
                 seed=None, name="enqueue_input", enqueue_size=1, num_epochs=None):
    """A queue of the rows of `data` (an OrderedDict of arrays), each element (index, col 1,
    col 2, ...), filled by a _FeedingQueueRunner added to the graph (TF's _enqueue_data)."""
    from ...framework.graph import get_default_graph
    with get_default_graph().name_scope(name):
        types = [dtypes.int64] + [dtypes.as_dtype(col.dtype) for col in data.values()]
        shapes = [()] + [col.shape[1:] for col in data.values()]
        if num_threads > 1 and num_epochs is not None:
            _log.warning("enqueue_data was called with num_epochs and num_threads > 1. "
                         "num_epochs is applied per thread, so this will produce more epochs "
                         "than you probably intend. If you want to limit epochs, use one "
                         "thread.")
        if not shuffle and num_threads > 1:
            _log.warning("enqueue_data was called with shuffle=False and num_threads > 1. "
                         "This will create multiple threads, all reading the arrays in order. "
                         "If you want examples read in order, use one thread; if you want "
                         "multiple threads, enable shuffling.")
        if shuffle:
            min_after_dequeue = int(capacity / 4 if min_after_dequeue is None
                                    else min_after_dequeue)
            queue = data_flow_ops.RandomShuffleQueue(capacity, min_after_dequeue,
                                                     dtypes=types, shapes=shapes, seed=seed)
        else:
            queue = data_flow_ops.FIFOQueue(capacity, dtypes=types, shapes=shapes)
        enqueue_ops, feed_fns = [], []
        for i in range(num_threads):
            # The placeholders have no shape: each feed is a whole batch of rows.
            placeholders = [placeholder(t) for t in types]
            enqueue_ops.append(queue.enqueue_many(placeholders))
            feed_fns.append(_OrderedDictNumpyFeedFn(
                placeholders, data, enqueue_size, random_start=shuffle,
                seed=None if seed is None else (i + 1) * seed, num_epochs=num_epochs))
        queue_runner.add_queue_runner(_FeedingQueueRunner(queue=queue, enqueue_ops=enqueue_ops,
                                                          feed_fns=feed_fns))
    return queue
