"""tf.train.maybe_batch, maybe_batch_join, maybe_shuffle_batch, maybe_shuffle_batch_join and
batch(dynamic_pad=True) (sandbox/train/input.py). Values and padding are TF 2.15's
(tf.compat.v1) outputs for the same programs, hard-coded."""
import numpy as np
import pytest

import sandbox as tf


def _run(outs, steps=1, options=None):
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess, coord=coord)
        try:
            return [sess.run(outs, options=options) for _ in range(steps)]
        finally:
            coord.request_stop()
            coord.join(threads, stop_grace_period_secs=5)


def test_maybe_batch_with_a_keep_vector_drops_the_examples_it_says():
    x = tf.constant([1, 2, 3, 4, 5, 6])
    keep = tf.constant([True, False, True, True, False, True])
    b = tf.train.maybe_batch([x], keep, 2, enqueue_many=True)
    assert b.shape.as_list() == [2]
    got = _run(b, 2)
    assert [v.tolist() for v in got] == [[1, 3], [4, 6]]                 # TF 2.15's output


def test_maybe_batch_with_a_scalar_keep_tensor():
    c = tf.train.range_input_producer(10, shuffle=False).dequeue()
    b = tf.train.maybe_batch([c, c * 10], tf.equal(c % 2, 0), 3)
    assert [t.shape.as_list() for t in b] == [[3], [3]]
    got = _run(b, 2)
    # TF 2.15's output:
    assert [[v.tolist() for v in step] for step in got] == [[[0, 2, 4], [0, 20, 40]],
                                                           [[6, 8, 0], [60, 80, 0]]]


def test_maybe_batch_with_keep_false_never_fills_and_times_out():
    c = tf.train.range_input_producer(10, shuffle=False).dequeue()
    b = tf.train.maybe_batch({"a": c}, False, 3)
    assert set(b) == {"a"}
    with pytest.raises(tf.errors.DeadlineExceededError):
        _run(b, 1, options=tf.RunOptions(timeout_in_ms=300))


def test_batch_dynamic_pad_pads_to_the_longest_example():
    c = tf.train.range_input_producer(4, shuffle=False).dequeue()
    v = tf.range(c + 1)
    b = tf.train.batch([v, tf.as_string(v)], 4, dynamic_pad=True)
    assert [t.shape.as_list() for t in b] == [[4, None], [4, None]]
    (ints, strings), = _run(b, 1)
    # TF 2.15's output:
    assert ints.tolist() == [[0, 0, 0, 0], [0, 1, 0, 0], [0, 1, 2, 0], [0, 1, 2, 3]]
    assert strings.tolist() == [[b"0", b"", b"", b""], [b"0", b"1", b"", b""],
                                [b"0", b"1", b"2", b""], [b"0", b"1", b"2", b"3"]]
    d = tf.train.maybe_batch_join([[v]], True, 2, dynamic_pad=True)
    assert d.shape.as_list() == [2, None]


def test_maybe_batch_join_and_the_shuffling_ones():
    b = tf.train.maybe_batch_join([[tf.constant([1, 2])], [tf.constant([3, 4])]],
                                  tf.constant([True, False]), 3, enqueue_many=True)
    assert b.shape.as_list() == [3]
    assert set(np.concatenate(_run(b, 3)).tolist()) <= {1, 3}
    s = tf.train.maybe_shuffle_batch([tf.constant([1, 2, 3, 4])], 2, 10, 1,
                                     tf.constant([True, False, True, False]),
                                     enqueue_many=True, seed=1)
    assert s.shape.as_list() == [2]
    assert set(np.concatenate(_run(s, 3)).tolist()) == {1, 3}
    j = tf.train.maybe_shuffle_batch_join(
        [[tf.constant([1, 2, 3, 4])], [tf.constant([5, 6, 7, 8])]], 2, 10, 1,
        tf.constant([False, True, False, True]), enqueue_many=True, seed=1)
    assert set(np.concatenate(_run(j, 4)).tolist()) <= {2, 4, 6, 8}


def test_keep_input_errors():
    x = [tf.constant([1])]
    with pytest.raises(ValueError, match="cannot be a vector when `enqueue_many=False`"):
        tf.train.maybe_batch(x, tf.placeholder(tf.bool, [1]), 2)
    with pytest.raises(ValueError, match="must be 0 or 1 dimensions"):
        tf.train.maybe_batch(x, tf.placeholder(tf.bool, [1, 1]), 2, enqueue_many=True)
    with pytest.raises(ValueError, match="must be known at graph construction"):
        tf.train.maybe_batch(x, tf.placeholder(tf.bool), 2)
