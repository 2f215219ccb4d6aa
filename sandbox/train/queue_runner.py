"""Threads that fill queues -- mirrors TensorFlow's `tf.train.QueueRunner`,
`tf.train.add_queue_runner` and `tf.train.start_queue_runners`
(python/training/queue_runner_impl.py).

A TF-1 input pipeline is a chain of queues. Something must keep running the enqueue ops that
fill them while the training loop dequeues: a QueueRunner holds a queue and its enqueue ops,
and `create_threads` starts one Python thread per enqueue op, each running that op again and
again in the session.

    q = tf.FIFOQueue(100, tf.float32, shapes=[[]])
    qr = tf.train.QueueRunner(q, [q.enqueue(tf.random_uniform([]))] * 2)   # two threads
    tf.train.add_queue_runner(qr)
    ...
    coord = tf.train.Coordinator()
    threads = tf.train.start_queue_runners(sess, coord=coord)
    ... sess.run(q.dequeue()) ...
    coord.request_stop(); coord.join(threads)

How the threads end:
  * an enqueue op fails with OutOfRangeError (its own input queue is closed and empty): that
    thread ends; when the last one ends, the queue is closed, so its readers drain what is
    left and then get OutOfRangeError too -- the end of the input travels down the pipeline;
  * any other error is reported to the coordinator (request_stop(e); join() re-raises it);
  * when the coordinator requests a stop, an extra thread runs `cancel_op`: it closes the
    queue and cancels pending enqueues, so no thread stays blocked on a full queue.
Where the queue lives (this process, or a ps task of a cluster) does not matter: the threads
only run ops through the session.
"""
import logging
import threading
import weakref

from ..framework import errors
from ..framework.graph import GraphKeys, get_collection, add_to_collection

__all__ = ["QueueRunner", "add_queue_runner", "start_queue_runners"]

_log = logging.getLogger("sandbox")


class QueueRunner:
    """Holds a queue and the ops that fill it; `create_threads` runs them in threads."""

    def __init__(self, queue=None, enqueue_ops=None, close_op=None, cancel_op=None,
                 queue_closed_exception_types=None, queue_runner_def=None, import_scope=None):
        """
        Args:
          queue: the queue (tf.FIFOQueue, tf.RandomShuffleQueue).
          enqueue_ops: list of enqueue ops; one thread runs each (repeat an op to run it in
            several threads).
          close_op: closes the queue when the input is exhausted (default queue.close()).
          cancel_op: closes the queue and cancels pending enqueues on a stop request
            (default queue.close(cancel_pending_enqueues=True)).
          queue_closed_exception_types: tuple of tf.errors types that mean "the input is
            exhausted" when an enqueue op raises them (default (tf.errors.OutOfRangeError,)).
        """
        if queue_runner_def is not None:
            raise NotImplementedError("QueueRunner(queue_runner_def=...) (restoring from a "
                                      "MetaGraphDef) is not supported by the sandbox.")
        if not queue or not enqueue_ops:
            raise ValueError("Must provide queue and enqueue_ops.")
        if queue_closed_exception_types is not None:
            if (not isinstance(queue_closed_exception_types, tuple)
                    or not queue_closed_exception_types
                    or not all(isinstance(t, type) and issubclass(t, errors.OpError)
                               for t in queue_closed_exception_types)):
                raise TypeError("queue_closed_exception_types, when provided, must be a tuple "
                                "of tf.error types, but saw: %s" % (queue_closed_exception_types,))
        self._queue = queue
        self._enqueue_ops = list(enqueue_ops)
        # Close when no more will be produced; pending enqueues are kept.
        self._close_op = close_op if close_op is not None else queue.close()
        # Close and cancel pending enqueues: after an error or a stop request, so that every
        # thread blocked on this queue wakes up and can exit.
        self._cancel_op = cancel_op if cancel_op is not None else \
            queue.close(cancel_pending_enqueues=True)
        self._queue_closed_exception_types = tuple(queue_closed_exception_types or
                                                   (errors.OutOfRangeError,))
        self._lock = threading.Lock()
        # session -> number of this runner's threads still running in it
        self._runs_per_session = weakref.WeakKeyDictionary()
        self._exceptions_raised = []

    # -- properties -----------------------------------------------------------------
    @property
    def queue(self):
        return self._queue

    @property
    def enqueue_ops(self):
        return self._enqueue_ops

    @property
    def close_op(self):
        return self._close_op

    @property
    def cancel_op(self):
        return self._cancel_op

    @property
    def queue_closed_exception_types(self):
        return self._queue_closed_exception_types

    @property
    def exceptions_raised(self):
        """Exceptions raised in the threads when no coordinator was given."""
        return self._exceptions_raised

    @property
    def name(self):
        """The name of the queue."""
        return self._queue.name

    # -- the threads ------------------------------------------------------------------
    def _run(self, sess, enqueue_op, coord=None):
        """One thread: runs `enqueue_op` until the coordinator stops or the input ends."""
        decremented = False
        try:
            enqueue_callable = self._enqueue_callable(sess, enqueue_op)
            while True:
                if coord and coord.should_stop():
                    break
                try:
                    enqueue_callable()
                except self._queue_closed_exception_types:
                    # The input is exhausted: the last thread of this runner closes the queue.
                    with self._lock:
                        self._runs_per_session[sess] -= 1
                        decremented = True
                        if self._runs_per_session[sess] == 0:
                            try:
                                sess.run(self._close_op)
                            except Exception as e:
                                _log.debug("Ignored exception: %s", e)
                    return
        except Exception as e:
            if coord:
                coord.request_stop(e)
            else:
                _log.error("Exception in QueueRunner: %s", e)
                with self._lock:
                    self._exceptions_raised.append(e)
                raise
        finally:
            if not decremented:
                with self._lock:
                    self._runs_per_session[sess] -= 1

    def _enqueue_callable(self, sess, enqueue_op):
        """What a thread calls to enqueue once (the estimator's input runner feeds values
        too: estimator/inputs/queues.py)."""
        return sess.make_callable(enqueue_op)

    def _close_on_stop(self, sess, cancel_op, coord):
        """Waits for the stop request, then closes the queue and cancels pending enqueues."""
        coord.wait_for_stop()
        try:
            sess.run(cancel_op)
        except Exception as e:
            _log.debug("Ignored exception: %s", e)

    def create_threads(self, sess, coord=None, daemon=False, start=False):
        """Creates (and with start=True starts) the threads that run the enqueue ops in
        `sess`, plus, with a coordinator, the thread that cancels the queue on a stop.
        The threads are registered with `coord`. Returns [] if this runner's threads are
        already running in `sess`."""
        with self._lock:
            if self._runs_per_session.get(sess, 0) > 0:
                return []
            self._runs_per_session[sess] = len(self._enqueue_ops)
            self._exceptions_raised = []
        ret_threads = [threading.Thread(target=self._run, args=(sess, op, coord),
                                        name=f"QueueRunnerThread-{self.name}-{op.name}")
                       for op in self._enqueue_ops]
        if coord:
            ret_threads.append(threading.Thread(
                target=self._close_on_stop, args=(sess, self._cancel_op, coord),
                name=f"QueueRunnerThread-{self.name}-close_on_stop"))
        for t in ret_threads:
            if coord:
                coord.register_thread(t)
            if daemon:
                t.daemon = True
            if start:
                t.start()
        return ret_threads

    def __repr__(self):
        return (f"<QueueRunner queue={self.name!r} "
                f"enqueue_ops={[op.name for op in self._enqueue_ops]}>")


def add_queue_runner(qr, collection=GraphKeys.QUEUE_RUNNERS):
    """Adds `qr` to the graph collection that start_queue_runners() reads."""
    add_to_collection(collection, qr)


def start_queue_runners(sess=None, coord=None, daemon=True, start=True,
                        collection=GraphKeys.QUEUE_RUNNERS):
    """Starts the threads of every QueueRunner in the graph collection; returns the threads.

    `sess` defaults to the default session. With `coord`, the threads stop when it requests a
    stop, and their errors are re-raised by `coord.join(threads)`.
    """
    from ..client.session import BaseSession, get_default_session
    if sess is None:
        sess = get_default_session()
        if not sess:
            raise ValueError("Cannot start queue runners: No default session is registered. "
                             "Use `with sess.as_default()` or pass an explicit session to "
                             "tf.start_queue_runners(sess=sess)")
    if not isinstance(sess, BaseSession):
        # A MonitoredSession starts its queue runners itself (TF: b/62061352).
        if sess.__class__.__name__ in ("MonitoredSession", "SingularMonitoredSession"):
            return []
        raise TypeError(f"sess must be a `tf.Session` object. Given class: {sess.__class__}")
    with sess.graph.as_default():
        queue_runners = get_collection(collection)
        if not queue_runners:
            _log.warning("`tf.train.start_queue_runners()` was called when no queue runners "
                         "were defined. You can safely remove the call to this deprecated "
                         "function.")
        threads = []
        for qr in queue_runners:
            threads.extend(qr.create_threads(sess, coord=coord, daemon=daemon, start=start))
    return threads
