"""PaddingFIFOQueue and PriorityQueue (sandbox/ops/data_flow_ops.py). The expected values are
TF 2.15's (tf.compat.v1) outputs for the same programs, hard-coded."""
import numpy as np
import pytest

import sandbox as tf
from bench.common import free_port


def test_padding_fifo_queue_pads_each_batch_to_its_largest_element():
    q = tf.PaddingFIFOQueue(10, [tf.int32, tf.string, tf.float32], shapes=[[None], [None, 2], []])
    a, s, f = (tf.placeholder(tf.int32, [None]), tf.placeholder(tf.string, [None, 2]),
               tf.placeholder(tf.float32, []))
    enq = q.enqueue([a, s, f])
    many, up_to, one = q.dequeue_many(3), q.dequeue_up_to(3), q.dequeue()
    assert [t.shape.as_list() for t in many] == [[3, None], [3, None, 2], [3]]     # TF 2.15
    assert [t.shape.as_list() for t in up_to] == [[None, None], [None, None, 2], [None]]
    assert [t.shape.as_list() for t in one] == [[None], [None, 2], []]
    assert tf.io.PaddingFIFOQueue is tf.PaddingFIFOQueue
    with tf.Session() as sess:
        sess.run(enq, {a: [1], s: [[b"a", b"b"]], f: 1.5})
        sess.run(enq, {a: [1, 2, 3], s: [[b"c", b"d"], [b"e", b"f"], [b"g", b"h"]], f: 2.5})
        sess.run(enq, {a: [], s: np.zeros([0, 2], object), f: 3.5})
        x, y, z = sess.run(many)
        # TF 2.15's output:
        assert x.tolist() == [[1, 0, 0], [1, 2, 3], [0, 0, 0]]
        assert y.tolist() == [[[b"a", b"b"], [b"", b""], [b"", b""]],
                              [[b"c", b"d"], [b"e", b"f"], [b"g", b"h"]],
                              [[b"", b""], [b"", b""], [b"", b""]]]
        assert z.tolist() == [1.5, 2.5, 3.5]
        sess.run(enq, {a: [7, 8], s: [[b"x", b"y"]], f: 4.5})
        x, y, z = sess.run(one)                                   # no padding for one
        assert x.tolist() == [7, 8] and y.tolist() == [[b"x", b"y"]] and z == 4.5
        sess.run(enq, {a: [9], s: [[b"x", b"y"]] * 2, f: 5.5})
        sess.run(q.close())
        x, y, z = sess.run(up_to)
        assert x.tolist() == [[9]] and y.tolist() == [[[b"x", b"y"], [b"x", b"y"]]]
        with pytest.raises(tf.errors.OutOfRangeError, match="closed"):
            sess.run(up_to)


def test_padding_of_bools_floats_and_names():
    q = tf.PaddingFIFOQueue(10, [tf.int32, tf.bool, tf.float64],
                            shapes=[[None], [None], [None, None]])
    named = tf.PaddingFIFOQueue(10, [tf.int32], shapes=[[None]], names=["x"])
    with tf.Session() as sess:
        sess.run(q.enqueue(([1], [True, True], [[1.0]])))
        sess.run(q.enqueue(([1, 2, 3], [False], [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])))
        x, b, f = sess.run(q.dequeue_many(2))
        assert x.tolist() == [[1, 0, 0], [1, 2, 3]]                      # TF 2.15's output
        assert b.tolist() == [[True, True], [False, False]]
        assert f.tolist() == [[[1, 0, 0], [0, 0, 0]], [[1, 2, 3], [4, 5, 6]]]
        sess.run(named.enqueue({"x": [1]}))
        sess.run(named.enqueue_many({"x": [[4, 5], [6, 7]]}))
        assert sess.run(named.dequeue_many(3))["x"].tolist() == [[1, 0], [4, 5], [6, 7]]


def test_padding_fifo_queue_errors_and_timeouts():
    with pytest.raises(ValueError, match="a list of shapes must be provided"):
        tf.PaddingFIFOQueue(10, [tf.int32], shapes=None)
    with pytest.raises(ValueError, match="received 2 dtypes and 1 shapes"):
        tf.PaddingFIFOQueue(10, [tf.int32, tf.int32], shapes=[[None]])
    q = tf.PaddingFIFOQueue(10, [tf.int32], shapes=[[None, 3]])
    with pytest.raises(ValueError, match=r"Shapes \(3,\) and \(\?, 3\) are incompatible"):
        q.enqueue([[1, 2, 3]])                                   # wrong rank (TF's words)
    with pytest.raises(ValueError, match=r"Shapes \(1, 2\) and \(\?, 3\) are incompatible"):
        q.enqueue([[[1, 2]]])                                    # wrong known dim
    p = tf.placeholder(tf.int32)
    enq = q.enqueue([p])
    with tf.Session() as sess:
        for value in ([1, 2, 3], [[1, 2]]):
            with pytest.raises(tf.errors.InvalidArgumentError, match="Shape mismatch"):
                sess.run(enq, {p: value})
        with pytest.raises(tf.errors.DeadlineExceededError):           # empty: waits, then
            sess.run(q.dequeue_many(1), options=tf.RunOptions(timeout_in_ms=200))  # times out
        sess.run(enq, {p: [[1, 2, 3]]})
        with pytest.raises(tf.errors.DeadlineExceededError):
            sess.run(q.dequeue_many(2), options=tf.RunOptions(timeout_in_ms=200))
        assert sess.run(q.size()) == 1                           # given back


def test_priority_queue_smallest_first_ties_in_tfs_order():
    q = tf.PriorityQueue(10, [tf.string, tf.int32], shapes=[[], [2]])
    assert q.dtypes == [tf.int64, tf.string, tf.int32]
    assert [s.as_list() for s in q.shapes] == [[], [], [2]]
    assert tf.io.PriorityQueue is tf.PriorityQueue
    with tf.Session() as sess:
        sess.run(q.enqueue_many(([5, 1, 3, 1, 5, 1, -2], [b"a", b"b", b"c", b"d", b"e", b"f",
                                                          b"g"], [[i, i] for i in range(7)])))
        sess.run(q.enqueue((3, b"h", [9, 9])))
        sess.run(q.enqueue((1, b"i", [8, 8])))
        # TF 2.15's output:
        p, s, v = sess.run(q.dequeue())
        assert (p, s, v.tolist()) == (-2, b"g", [6, 6])
        p, s, v = sess.run(q.dequeue_many(4))
        assert p.tolist() == [1, 1, 1, 1] and s.tolist() == [b"b", b"f", b"d", b"i"]
        assert v.tolist() == [[1, 1], [5, 5], [3, 3], [8, 8]]
        sess.run(q.close())
        p, s, v = sess.run(q.dequeue_up_to(3))
        assert p.tolist() == [3, 3, 5] and s.tolist() == [b"h", b"c", b"a"]
        with pytest.raises(tf.errors.OutOfRangeError, match="PriorityQueue"):
            sess.run(q.dequeue_up_to(3))      # TF's PriorityQueue fails a short dequeue_up_to
    q = tf.PriorityQueue(20, [tf.int32], shapes=[[]])
    with tf.Session() as sess:
        for i in range(10):
            sess.run(q.enqueue((i % 3, i)))
        assert sess.run(q.dequeue_many(10))[1].tolist() == [0, 6, 3, 9, 4, 1, 7, 5, 2, 8]
        sess.run(q.enqueue_many(([0] * 10, list(range(10)))))
        assert sess.run(q.dequeue_many(10))[1].tolist() == [0, 2, 6, 9, 8, 5, 7, 4, 1, 3]
        sess.run(q.enqueue_many(([2, 2, 1, 1, 0, 0], list(range(6)))))
        assert sess.run(q.dequeue_many(6))[1].tolist() == [4, 5, 2, 3, 1, 0]
        with pytest.raises(tf.errors.DeadlineExceededError):
            sess.run(q.dequeue(), options=tf.RunOptions(timeout_in_ms=200))


def test_priority_queue_errors():
    q = tf.PriorityQueue(10, [tf.int32], shapes=[[]])
    with pytest.raises(ValueError, match="int64"):
        q.enqueue((tf.constant(1, tf.int32), 1))                 # priority of wrong dtype
    with pytest.raises(TypeError, match="int64"):
        q.enqueue((1.5, 1))
    with pytest.raises(ValueError, match=r"Shapes \(2,\) and \(\) are incompatible"):
        q.enqueue((tf.constant([1, 2], tf.int64), 1))
    p = tf.placeholder(tf.int64)
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match="Shape mismatch"):
            sess.run(q.enqueue((p, 1)), {p: [1, 2]})
    with pytest.raises(ValueError, match="All shapes must be fully defined"):
        tf.PriorityQueue(10, [tf.int32], shapes=[[None]])
    with pytest.raises(TypeError, match="shapes"):
        tf.PriorityQueue(10, [tf.int32])


def test_padding_fifo_queue_on_the_ps_of_a_cluster():
    cluster = tf.train.ClusterSpec({"ps": [f"localhost:{free_port()}"],
                                    "worker": [f"localhost:{free_port()}"]})
    ps = worker = None
    try:
        ps = tf.train.Server(cluster, job_name="ps", task_index=0)
        worker = tf.train.Server(cluster, job_name="worker", task_index=0)
        with tf.device("/job:ps/task:0"):
            q = tf.PaddingFIFOQueue(5, [tf.int32], shapes=[[None]], shared_name="pad_q")
        with tf.device("/job:worker/task:0"):
            v = tf.placeholder(tf.int32, [None])
            enq = q.enqueue([v])
            batch = q.dequeue_many(2)
        config = tf.ConfigProto(operation_timeout_in_ms=2000)
        with tf.Session(worker.target, config=config) as sess:
            sess.run(enq, {v: [1, 2, 3]})
            sess.run(enq, {v: [4]})
            assert sess.run(q.size()) == 2
            assert sess.run(batch).tolist() == [[1, 2, 3], [4, 0, 0]]
            with pytest.raises(tf.errors.DeadlineExceededError):     # the session's
                sess.run(batch)                                        # operation timeout
    finally:
        for server in (worker, ps):
            if server is not None:
                server.stop()


def test_a_local_sessions_operation_timeout_ends_a_blocked_dequeue():
    # TF's DirectSession takes config.operation_timeout_in_ms as the default run timeout
    with tf.Graph().as_default():
        q = tf.FIFOQueue(2, tf.float32, shapes=[[]])
        config = tf.ConfigProto(operation_timeout_in_ms=300)
        with tf.Session(config=config) as sess:
            with pytest.raises(tf.errors.DeadlineExceededError):
                sess.run(q.dequeue())
