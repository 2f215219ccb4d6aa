"""tf.train.Coordinator, LooperThread, QueueRunner, add_queue_runner, start_queue_runners --
in this process and with the queue on the ps of a real cluster. Every test checks that no
thread it started is left alive."""
import sys
import threading
import time

import numpy as np
import pytest

import sandbox as tf
from sandbox.cluster import LocalCluster
from sandbox.train.coordinator import Coordinator, LooperThread
from sandbox.train.queue_runner import QueueRunner, add_queue_runner, start_queue_runners


@pytest.fixture(autouse=True)
def no_thread_left():
    """Fails the test if a thread it started is still alive a moment after it ends."""
    before = set(threading.enumerate())
    yield
    deadline = time.monotonic() + 5
    while True:
        left = [t for t in threading.enumerate() if t not in before and t.is_alive()
                and not t.name.startswith("master-rungraph")]
        if not left or time.monotonic() > deadline:
            break
        time.sleep(0.02)
    assert not left, f"threads left alive: {[t.name for t in left]}"


def _raise(exc):
    raise exc


# -- Coordinator ---------------------------------------------------------------------------

def test_request_stop_should_stop_clear_stop_wait_for_stop():
    coord = Coordinator()
    assert not coord.should_stop()
    t0 = time.monotonic()
    assert coord.wait_for_stop(0.05) is False
    assert time.monotonic() - t0 >= 0.04
    threading.Timer(0.05, coord.request_stop).start()
    assert coord.wait_for_stop(5) is True
    assert coord.should_stop()
    coord.clear_stop()
    assert not coord.should_stop()


def test_join_reraises_the_first_error_only():
    coord = Coordinator()
    first = ValueError("first")

    def worker(exc, delay):
        time.sleep(delay)
        try:
            raise exc
        except Exception as e:
            coord.request_stop(e)
    threads = [threading.Thread(target=worker, args=(first, 0.0)),
               threading.Thread(target=worker, args=(RuntimeError("second"), 0.1))]
    for t in threads:
        t.start()
    with pytest.raises(ValueError, match="first") as info:
        coord.join(threads)
    assert info.value is first
    assert info.tb is not None and "worker" in str(info.traceback[-1])   # original traceback
    assert coord.joined
    # after join there is nobody to report to: request_stop raises
    with pytest.raises(KeyError):
        coord.request_stop(KeyError("late"))
    coord.request_stop()                 # without an exception: fine
    coord.request_stop(tf.errors.OutOfRangeError(None, None, "clean"))   # clean: not raised


def test_out_of_range_is_a_clean_stop_and_the_types_are_configurable():
    coord = Coordinator()
    coord.request_stop(tf.errors.OutOfRangeError(None, None, "input exhausted"))
    assert coord.should_stop()
    coord.join([])                          # nothing raised
    coord.raise_requested_exception()       # nothing raised

    coord = Coordinator(clean_stop_exception_types=(tf.errors.CancelledError,))
    coord.request_stop(tf.errors.CancelledError(None, None, "cancelled"))
    coord.join()
    coord.clear_stop()
    coord.request_stop(tf.errors.OutOfRangeError(None, None, "now an error"))
    with pytest.raises(tf.errors.OutOfRangeError, match="now an error"):
        coord.raise_requested_exception()
    with pytest.raises(tf.errors.OutOfRangeError):
        coord.join()


def test_exc_info_tuple_and_stop_on_exception():
    coord = Coordinator()
    with coord.stop_on_exception():
        raise tf.errors.InvalidArgumentError(None, None, "bad value")
    assert coord.should_stop()
    with coord.stop_on_exception():     # no exception: nothing happens
        pass
    with pytest.raises(tf.errors.InvalidArgumentError, match="bad value"):
        coord.join()

    coord = Coordinator()
    try:
        _raise(IndexError("from exc_info"))
    except IndexError:
        coord.request_stop(sys.exc_info())
    with pytest.raises(IndexError, match="from exc_info"):
        coord.raise_requested_exception()

    coord = Coordinator()
    with coord.stop_on_exception():
        raise tf.errors.OutOfRangeError(None, None, "end of input")
    assert coord.should_stop()
    coord.join()                        # clean


def test_join_waits_for_threads_that_end_by_themselves_and_registered_ones():
    coord = Coordinator()
    done = []
    t1 = threading.Thread(target=lambda: (time.sleep(0.2), done.append(1)))
    t2 = threading.Thread(target=lambda: (time.sleep(0.1), done.append(2)))
    coord.register_thread(t1)
    t1.start()
    t2.start()
    coord.join([t2])
    assert sorted(done) == [1, 2] and not coord.should_stop()


def test_join_grace_period_stragglers():
    coord = Coordinator()
    release = threading.Event()
    straggler = threading.Thread(target=release.wait, name="slow-thread")
    straggler.start()
    coord.request_stop()
    t0 = time.monotonic()
    with pytest.raises(RuntimeError,
                       match="Coordinator stopped with threads still running: slow-thread"):
        coord.join([straggler], stop_grace_period_secs=0.2)
    assert 0.15 < time.monotonic() - t0 < 2
    coord.clear_stop()
    coord.request_stop()
    coord.join([straggler], stop_grace_period_secs=0.05, ignore_live_threads=True)
    release.set()
    straggler.join()


def test_looper_thread():
    coord = Coordinator()
    calls = []
    looper = LooperThread.loop(coord, 0.01, target=calls.append, args=(1,))
    assert looper.daemon
    time.sleep(0.3)
    coord.request_stop()
    coord.join()                        # the looper registered itself
    assert not looper.is_alive() and 3 <= len(calls)

    coord = Coordinator()
    LooperThread.loop(coord, None, target=_raise, args=(ZeroDivisionError("in loop"),))
    with pytest.raises(ZeroDivisionError, match="in loop"):
        coord.join()

    class Counter(LooperThread):
        def __init__(self, coord):
            super().__init__(coord, None)
            self.events = []

        def start_loop(self):
            self.events.append("start")

        def run_loop(self):
            if len(self.events) == 3:
                self._coord.request_stop()
            else:
                self.events.append("loop")

        def stop_loop(self):
            self.events.append("stop")
    coord = Coordinator()
    counter = Counter(coord)
    counter.start()
    coord.join()
    assert counter.events == ["start", "loop", "loop", "stop"]
    with pytest.raises(ValueError, match="must be a Coordinator"):
        LooperThread(object(), 1.0)
    with pytest.raises(ValueError, match="require that you also pass 'target'"):
        LooperThread(Coordinator(), 1.0, args=(1,))


# -- QueueRunner in this process ---------------------------------------------------------------

def _counter_pipeline(capacity=3, threads=1):
    counter = tf.Variable(0, name="counter")
    q = tf.FIFOQueue(capacity, tf.int32, shapes=[[]], name="numbers")
    enqueue = q.enqueue(counter.assign_add(1))
    qr = QueueRunner(q, [enqueue] * threads)
    return counter, q, qr


def test_producer_thread_fills_the_queue_and_stops_with_the_coordinator():
    counter, q, qr = _counter_pipeline(capacity=3)
    item = q.dequeue()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        coord = Coordinator()
        threads = qr.create_threads(sess, coord=coord, start=True)
        assert [t.name for t in threads] == ["QueueRunnerThread-numbers-QueueEnqueueV2",
                                             "QueueRunnerThread-numbers-close_on_stop"]
        assert qr.create_threads(sess, coord=coord) == []       # already running here
        got = [int(sess.run(item)) for _ in range(20)]
        assert got == list(range(1, 21))
        time.sleep(0.1)                     # the producer is now blocked on the full queue
        assert sess.run(q.size()) == 3
        t0 = time.monotonic()
        coord.request_stop()
        coord.join(threads, stop_grace_period_secs=5)
        assert time.monotonic() - t0 < 2
        assert not any(t.is_alive() for t in threads)
        assert sess.run(q.is_closed())      # cancel_op closed it
        # at most one more element went in; what is left can still be drained
        left = [int(sess.run(item)) for _ in range(sess.run(q.size()))]
        assert left == list(range(21, 21 + len(left))) and 3 <= len(left) <= 4
        with pytest.raises(tf.errors.OutOfRangeError):
            sess.run(item)


def test_several_threads_one_enqueue_op_each():
    counter, q, qr = _counter_pipeline(capacity=5, threads=3)
    batch = q.dequeue_many(5)
    with tf.Session() as sess:
        sess.run(counter.initializer)
        coord = Coordinator()
        threads = qr.create_threads(sess, coord=coord, daemon=True, start=True)
        assert len(threads) == 4 and all(t.daemon for t in threads)
        values = np.concatenate([sess.run(batch) for _ in range(10)])
        coord.request_stop()
        coord.join(threads)
    assert len(set(values.tolist())) == 50 and values.min() >= 1


def test_out_of_range_closes_the_queue_and_stops_cleanly():
    """The end of the input travels down the pipeline: source closed -> the runner's enqueue
    ops fail with OutOfRange -> the last one closes the destination -> the reader's
    dequeue fails with OutOfRange after the last element."""
    source = tf.FIFOQueue(20, tf.float32, shapes=[[]], name="source")
    fill = source.enqueue_many([np.arange(12, dtype=np.float32)])
    close_source = source.close()
    dest = tf.FIFOQueue(4, tf.float32, shapes=[[]], name="dest")
    qr = QueueRunner(dest, [dest.enqueue(source.dequeue() * 10.0)] * 2)
    item = dest.dequeue()
    with tf.Session() as sess:
        sess.run(fill)
        sess.run(close_source)
        coord = Coordinator()
        threads = qr.create_threads(sess, coord=coord, start=True)
        got = []
        try:
            while not coord.should_stop():
                got.append(float(sess.run(item)))
        except tf.errors.OutOfRangeError as e:
            coord.request_stop(e)           # a clean stop
        finally:
            coord.request_stop()
        coord.join(threads)                 # nothing raised
        assert sorted(got) == [10.0 * i for i in range(12)]
        assert sess.run(dest.is_closed())
        assert qr._runs_per_session[sess] == 0
        assert qr.exceptions_raised == []


def test_error_in_an_enqueue_op_is_reported_through_join():
    never_initialized = tf.Variable(1.0, name="never_initialized")
    q = tf.FIFOQueue(2, tf.float32, shapes=[[]], name="broken")
    qr = QueueRunner(q, [q.enqueue(never_initialized + 1.0)])
    item = q.dequeue()
    with tf.Session() as sess:
        coord = Coordinator()
        threads = qr.create_threads(sess, coord=coord, start=True)
        # the reader, blocked on the empty queue, is released: the cancel op closed it
        with coord.stop_on_exception():
            sess.run(item)
        assert coord.should_stop()
        with pytest.raises(tf.errors.FailedPreconditionError, match="never_initialized"):
            coord.join(threads)
    assert not any(t.is_alive() for t in threads)


@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")
def test_without_coordinator_errors_are_kept_and_raised_in_the_thread():
    never_initialized = tf.Variable(1.0, name="never_initialized")
    q = tf.FIFOQueue(2, tf.float32, shapes=[[]], name="broken")
    qr = QueueRunner(q, [q.enqueue(never_initialized + 1.0)])
    with tf.Session() as sess:
        threads = qr.create_threads(sess, start=True)
        assert len(threads) == 1            # no close_on_stop thread without a coordinator
        threads[0].join(5)
        assert not threads[0].is_alive()
    assert len(qr.exceptions_raised) == 1
    assert isinstance(qr.exceptions_raised[0], tf.errors.FailedPreconditionError)


def test_custom_queue_closed_exception_types():
    q = tf.FIFOQueue(2, tf.float32, shapes=[[]], name="q")
    closed_other = tf.FIFOQueue(2, tf.float32, shapes=[[]], name="closed_other")
    with tf.Session() as sess:
        sess.run(q.close())
        # enqueueing into a closed queue raises CancelledError; declared here as "closed"
        qr = QueueRunner(q, [q.enqueue(1.0)],
                         queue_closed_exception_types=(tf.errors.CancelledError,))
        assert qr.queue_closed_exception_types == (tf.errors.CancelledError,)
        coord = Coordinator()
        threads = qr.create_threads(sess, coord=coord, start=True)
        threads[0].join(5)
        assert not threads[0].is_alive() and not coord.should_stop()
        coord.request_stop()
        coord.join(threads)
        # the default types: the same CancelledError is an error
        qr2 = QueueRunner(closed_other, [q.enqueue(1.0)])
        coord = Coordinator()
        threads = qr2.create_threads(sess, coord=coord, start=True)
        with pytest.raises(tf.errors.CancelledError, match="is closed"):
            coord.join(threads)
    with pytest.raises(TypeError, match="must be a tuple of tf.error types"):
        QueueRunner(q, [q.enqueue(1.0)], queue_closed_exception_types=[tf.errors.OpError])
    with pytest.raises(TypeError, match="must be a tuple of tf.error types"):
        QueueRunner(q, [q.enqueue(1.0)], queue_closed_exception_types=(ValueError,))
    with pytest.raises(ValueError, match="Must provide queue and enqueue_ops"):
        QueueRunner(q, [])


def test_queue_runner_properties_and_default_ops():
    q = tf.FIFOQueue(2, tf.float32, shapes=[[]], name="props")
    enqueue = q.enqueue(1.0)
    qr = QueueRunner(q, [enqueue])
    assert qr.queue is q and qr.enqueue_ops == [enqueue] and qr.name == "props"
    assert qr.close_op.type == "QueueCloseV2"
    assert qr.close_op.get_attr("cancel_pending_enqueues") is False
    assert qr.cancel_op.get_attr("cancel_pending_enqueues") is True
    assert qr.queue_closed_exception_types == (tf.errors.OutOfRangeError,)
    mine = q.close(name="my_close")
    assert QueueRunner(q, [enqueue], close_op=mine).close_op is mine


def test_start_queue_runners_uses_the_collection_and_default_session(caplog):
    counter, q, qr = _counter_pipeline(capacity=2)
    add_queue_runner(qr)
    assert tf.get_collection(tf.GraphKeys.QUEUE_RUNNERS) == [qr]
    other_q = tf.FIFOQueue(2, tf.int32, shapes=[[]], name="other")
    other = QueueRunner(other_q, [other_q.enqueue(-1)])
    add_queue_runner(other, collection="my_runners")
    item = q.dequeue()
    with pytest.raises(ValueError, match="No default session is registered"):
        start_queue_runners()
    with pytest.raises(TypeError, match="sess must be a `tf.Session` object"):
        start_queue_runners(sess=object())

    class MonitoredSession:
        pass
    assert start_queue_runners(sess=MonitoredSession()) == []
    with tf.Session() as sess:              # the default session inside the block
        sess.run(counter.initializer)
        coord = Coordinator()
        threads = start_queue_runners(coord=coord, start=False)
        assert len(threads) == 2 and all(t.daemon and not t.is_alive() for t in threads)
        for t in threads:
            t.start()
        assert [int(sess.run(item)) for _ in range(5)] == [1, 2, 3, 4, 5]
        coord.request_stop()
        coord.join(threads)
        coord2 = Coordinator()
        threads2 = start_queue_runners(sess, coord=coord2, collection="my_runners")
        assert [t.name for t in threads2] == ["QueueRunnerThread-other-QueueEnqueueV2_1",
                                              "QueueRunnerThread-other-close_on_stop"]
        assert sess.run(other_q.dequeue()) == -1
        coord2.request_stop()
        coord2.join(threads2)
    g = tf.Graph()
    with tf.Session(graph=g) as sess, caplog.at_level("WARNING"):
        assert start_queue_runners(sess) == []
    assert "no queue runners were defined" in caplog.text


def test_a_pipeline_of_two_runners_ends_together_on_stop():
    """Two stages; stopping the coordinator while both producers are blocked on full queues
    ends every thread promptly."""
    counter = tf.Variable(0.0, name="counter")
    stage1 = tf.FIFOQueue(2, tf.float32, shapes=[[]], name="stage1")
    stage2 = tf.FIFOQueue(2, tf.float32, shapes=[[]], name="stage2")
    add_queue_runner(QueueRunner(stage1, [stage1.enqueue(counter.assign_add(1.0))]))
    add_queue_runner(QueueRunner(stage2, [stage2.enqueue(stage1.dequeue() * 2.0)] * 2))
    item = stage2.dequeue()
    with tf.Session() as sess:
        sess.run(counter.initializer)
        coord = Coordinator()
        threads = start_queue_runners(sess, coord=coord)
        assert len(threads) == 5
        values = sorted(float(sess.run(item)) for _ in range(6))
        assert all(v % 2 == 0 for v in values) and len(set(values)) == 6
        time.sleep(0.1)
        t0 = time.monotonic()
        coord.request_stop()
        coord.join(threads, stop_grace_period_secs=5)
        assert time.monotonic() - t0 < 2


# -- with the queue on a ps task --------------------------------------------------------------

def test_queue_on_the_ps_threads_in_the_client():
    with LocalCluster({"ps": 1, "worker": 1}) as cluster:
        with tf.device("/job:ps/task:0"):
            counter = tf.Variable(0, name="counter")
            q = tf.FIFOQueue(3, tf.int32, shapes=[[]], name="ps_numbers")
            source = tf.FIFOQueue(10, tf.int32, shapes=[[]], name="ps_source")
            dest = tf.FIFOQueue(2, tf.int32, shapes=[[]], name="ps_dest")
        with tf.device("/job:worker/task:0"):
            produce = q.enqueue(counter.assign_add(1) * 1)
            item = q.dequeue()
            move = dest.enqueue(source.dequeue() + 100)
            moved = dest.dequeue()
        qr = QueueRunner(q, [produce] * 2)
        mover = QueueRunner(dest, [move])
        with tf.Session(cluster.target("worker", 0)) as sess:
            sess.run(counter.initializer)
            # 1. producer -> consumer, stop through the coordinator
            coord = Coordinator()
            threads = qr.create_threads(sess, coord=coord, start=True)
            got = [int(sess.run(item)) for _ in range(10)]
            assert len(set(got)) == 10 and min(got) >= 1
            time.sleep(0.2)                 # both producers block on the full queue (on the ps)
            t0 = time.monotonic()
            coord.request_stop()
            coord.join(threads, stop_grace_period_secs=5)
            assert time.monotonic() - t0 < 3
            # the queue lives on the ps: a session on the ps sees it closed, with its elements
            with tf.Session(cluster.target("ps", 0)) as ps_sess:
                assert ps_sess.run(q.is_closed())
                assert 3 <= ps_sess.run(q.size()) <= 4
            # 2. the OutOfRange path across tasks
            sess.run(source.enqueue_many([np.arange(5, dtype=np.int32)]))
            sess.run(source.close())
            coord = Coordinator()
            threads = mover.create_threads(sess, coord=coord, start=True)
            out = []
            with coord.stop_on_exception():
                while True:
                    out.append(int(sess.run(moved)))
            coord.request_stop()
            coord.join(threads)
            assert out == [100, 101, 102, 103, 104]


def test_closing_a_remote_session_releases_blocked_runner_threads():
    with LocalCluster({"ps": 1, "worker": 1}) as cluster:
        with tf.device("/job:ps/task:0"):
            q = tf.FIFOQueue(1, tf.float32, shapes=[[]], name="full")
            empty = tf.FIFOQueue(1, tf.float32, shapes=[[]], name="empty")
        with tf.device("/job:worker/task:0"):
            # blocked forever: reads a queue nobody fills; its own cancel_op cannot help
            stuck = q.enqueue(empty.dequeue())
        qr = QueueRunner(q, [stuck])
        sess = tf.Session(cluster.target("worker", 0))
        coord = Coordinator()
        threads = qr.create_threads(sess, coord=coord, start=True)
        time.sleep(0.3)
        coord.request_stop()                # closes q, but the thread waits on `empty`
        time.sleep(0.3)
        assert threads[0].is_alive()
        t0 = time.monotonic()
        sess.close()                        # cancels the blocked step
        coord.join(threads, stop_grace_period_secs=5)   # the CancelledError came after the
        assert time.monotonic() - t0 < 3                # stop request: not reported
        assert not any(t.is_alive() for t in threads)
