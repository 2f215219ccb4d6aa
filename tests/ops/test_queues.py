"""FIFOQueue / RandomShuffleQueue semantics in a local Session."""
import threading
import time

import numpy as np
import pytest

import sandbox as tf
from tests.waiting import wait_until


def test_fifo_enqueue_dequeue_many_size_close():
    q = tf.FIFOQueue(10, [tf.float32, tf.int32], shapes=[[2], []])
    with tf.Session() as sess:
        sess.run(q.enqueue(([1.0, 2.0], 3)))
        sess.run(q.enqueue_many(([[1, 1], [2, 2], [3, 3]], [4, 5, 6])))
        assert sess.run(q.size()) == 4
        a, b = sess.run(q.dequeue())
        assert a.tolist() == [1.0, 2.0] and b == 3
        a, b = sess.run(q.dequeue_many(2))
        assert a.shape == (2, 2) and b.tolist() == [4, 5]
        sess.run(q.close())
        assert sess.run(q.is_closed())
        with pytest.raises(tf.errors.CancelledError, match="closed"):
            sess.run(q.enqueue(([0.0, 0.0], 0)))
        assert sess.run(q.dequeue())[1] == 6              # drains what is left
        with pytest.raises(tf.errors.OutOfRangeError, match="is closed and has insufficient"):
            sess.run(q.dequeue())


def test_dequeue_many_larger_than_capacity_collects_as_elements_arrive():
    q = tf.FIFOQueue(2, tf.int32, shapes=[[]])
    put = q.enqueue_many([[1, 2, 3, 4, 5]])
    take = q.dequeue_many(5)
    with tf.Session() as sess:
        t = threading.Thread(target=lambda: sess.run(put))
        t.start()
        assert sess.run(take).tolist() == [1, 2, 3, 4, 5]
        t.join(5)
        assert not t.is_alive()


def test_dequeue_up_to_returns_the_rest_after_close():
    q = tf.FIFOQueue(5, tf.int32, shapes=[[]])
    with tf.Session() as sess:
        sess.run(q.enqueue_many([[1, 2]]))
        sess.run(q.close())
        assert sess.run(q.dequeue_up_to(5)).tolist() == [1, 2]


def test_random_shuffle_queue_keeps_a_reserve_and_shuffles():
    q = tf.RandomShuffleQueue(20, 5, tf.int32, shapes=[[]], seed=3)
    with tf.Session() as sess:
        sess.run(q.enqueue_many([list(range(15))]))
        got = [int(sess.run(q.dequeue())) for _ in range(10)]
        assert sorted(got) != got or len(set(got)) == 10
        assert sess.run(q.size()) == 5                   # min_after_dequeue kept back
        with pytest.raises(tf.errors.DeadlineExceededError):
            sess.run(q.dequeue(), options=tf.RunOptions(timeout_in_ms=200))
        sess.run(q.close())
        rest = sess.run(q.dequeue_up_to(10))
        assert sorted(got + rest.tolist()) == list(range(15))


def test_closing_the_session_cancels_a_blocked_dequeue():
    q = tf.FIFOQueue(1, tf.float32, shapes=[[]])
    item = q.dequeue()
    sess = tf.Session()
    errors = []

    def wait():
        try:
            sess.run(item)
        except tf.errors.OpError as e:
            errors.append(e)
    t = threading.Thread(target=wait)
    t.start()
    time.sleep(0.3)
    sess.close()
    t.join(5)
    assert not t.is_alive() and isinstance(errors[0], tf.errors.CancelledError)


def test_queue_shape_and_dtype_errors():
    q = tf.FIFOQueue(3, tf.float32, shapes=[[2]])
    p = tf.placeholder(tf.float32, [None])
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match="Shape mismatch"):
            sess.run(q.enqueue(p), {p: np.zeros(3)})
    with pytest.raises(ValueError, match="min_after_dequeue"):
        tf.RandomShuffleQueue(5, 5, tf.int32)


def test_a_blocked_dequeue_says_what_it_waits_for(monkeypatch, capsys):
    """Every few seconds a waiting dequeue names its queue and how full it is ("unbounded"
    for a queue without a capacity, like SyncReplicasOptimizer's token queue)."""
    from sandbox.framework import errors
    monkeypatch.setattr(errors, "WAIT_LOG_EVERY", 0.2)
    unbounded = tf.FIFOQueue(2**31 - 1, tf.int64, shapes=[[]], name="tokens")
    small = tf.FIFOQueue(3, tf.int64, shapes=[[]], name="small")
    with tf.Session() as sess:
        for q in (unbounded, small):
            with pytest.raises(tf.errors.DeadlineExceededError):
                sess.run(q.dequeue(), options=tf.RunOptions(timeout_in_ms=700))
    out = capsys.readouterr().out
    assert "still waiting to dequeue from queue 'tokens' (0 of unbounded elements" in out
    assert "still waiting to dequeue from queue 'small' (0 of 3 elements" in out


def _queue_state(sess, q):
    """The queue's state in the local session's resource manager (to see who waits)."""
    sess.run(q.size())                                   # creates it
    (state,) = [s for _, s in sess._runtime.resources.items() if hasattr(s, "line")]
    return state


def test_waiting_dequeues_are_served_first_come_first_served():
    """As TF's queues serve their pending attempts in order: a dequeue_many(2) that came
    first gets both elements, though a later dequeue could have taken the first alone."""
    q = tf.FIFOQueue(10, tf.int32, shapes=[[]], name="line")
    take_two, take_one, put = q.dequeue_many(2), q.dequeue(), q.enqueue_many([[1, 2, 3]])
    got = {}
    with tf.Session() as sess:
        state = _queue_state(sess, q)
        first = threading.Thread(target=lambda: got.__setitem__("two", sess.run(take_two)))
        first.start()
        assert wait_until(lambda: len(state.line) == 1)
        second = threading.Thread(target=lambda: got.__setitem__("one", sess.run(take_one)))
        second.start()
        assert wait_until(lambda: len(state.line) == 2)
        sess.run(put)
        first.join(10)
        second.join(10)
        assert got["two"].tolist() == [1, 2] and got["one"] == 3
        assert len(state.line) == 0


def test_a_dequeue_many_that_times_out_gives_its_elements_back():
    q = tf.FIFOQueue(10, tf.int32, shapes=[[]])
    with tf.Session() as sess:
        sess.run(q.enqueue_many([[7, 8]]))
        with pytest.raises(tf.errors.DeadlineExceededError):
            sess.run(q.dequeue_many(3), options=tf.RunOptions(timeout_in_ms=200))
        assert sess.run(q.dequeue_many(2)).tolist() == [7, 8]


def test_the_enqueuing_thread_hands_the_elements_to_the_waiting_dequeues():
    """As TF's queues do (QueueBase::FlushUnlocked): the enqueue serves the whole line, so the
    three workers waiting for their sync tokens wake up together, each with its token, and
    none waits for the one before it to wake up first."""
    q = tf.FIFOQueue(10, tf.int64, shapes=[[]], name="tokens")
    take, put = q.dequeue(), q.enqueue_many([[5, 6, 7]])
    got = []
    with tf.Session() as sess:
        state = _queue_state(sess, q)
        waiters = [threading.Thread(target=lambda: got.append(int(sess.run(take))))
                   for _ in range(3)]
        for i, t in enumerate(waiters):
            t.start()
            assert wait_until(lambda: len(state.line) == i + 1)
        attempts = list(state.line)
        with state.cond:            # the waiters cannot run while this thread holds the lock
            sess.run(put)
            assert [a.taken for a in attempts] == [[(5,)], [(6,)], [(7,)]]
            assert all(a.done for a in attempts) and not state.items and not state.line
        for t in waiters:
            t.join(10)
        assert sorted(got) == [5, 6, 7]


def test_a_closed_queue_fails_a_dequeue_many_it_cannot_fill_and_serves_the_next():
    """On close, a waiting dequeue_many(3) with 2 elements left fails without taking them
    (OutOfRangeError); a dequeue_up_to(5) behind it gets both."""
    q = tf.FIFOQueue(10, tf.int32, shapes=[[]])
    many, up_to = q.dequeue_many(3), q.dequeue_up_to(5)
    got = {}

    def run(key, op):
        try:
            got[key] = sess.run(op).tolist()
        except tf.errors.OutOfRangeError as e:
            got[key] = e

    with tf.Session() as sess:
        state = _queue_state(sess, q)
        sess.run(q.enqueue_many([[1, 2]]))
        first = threading.Thread(target=run, args=("many", many))
        first.start()
        assert wait_until(lambda: len(state.line) == 1)
        second = threading.Thread(target=run, args=("up_to", up_to))
        second.start()
        assert wait_until(lambda: len(state.line) == 2)
        sess.run(q.close())
        first.join(10)
        second.join(10)
    assert isinstance(got["many"], tf.errors.OutOfRangeError)
    assert got["up_to"] == [1, 2]
