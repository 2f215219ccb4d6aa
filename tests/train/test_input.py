"""Queue-based input (issue 27): tf.train.string_input_producer, slice_input_producer,
range_input_producer, limit_epochs, batch, shuffle_batch, batch_join -- with queue runners,
a Coordinator, MonitoredTrainingSession, and a real cluster whose ps holds the queues. Names
and return types were checked against TensorFlow 1.15.5."""
import numpy as np
import pytest

import sandbox as tf
from sandbox.cluster import LocalCluster


def run_until_end(sess, fetch, limit=1000):
    out = []
    for _ in range(limit):
        try:
            out.append(sess.run(fetch))
        except tf.errors.OutOfRangeError:
            return out
    raise AssertionError("the input did not end")


class Threads:
    """start_queue_runners with a Coordinator; on exit, stop and join (must end cleanly)."""

    def __init__(self, sess):
        self.sess = sess

    def __enter__(self):
        self.coord = tf.train.Coordinator()
        self.threads = tf.train.start_queue_runners(self.sess, coord=self.coord)
        return self

    def __exit__(self, *exc):
        self.coord.request_stop()
        self.coord.join(self.threads, stop_grace_period_secs=5)
        assert not any(t.is_alive() for t in self.threads)


def test_string_input_producer_epochs_end_cleanly():
    q = tf.train.string_input_producer(["a", "b", "c"], num_epochs=2, shuffle=False)
    assert q.name == "input_producer"                            # TF's names
    assert [v.op.name for v in tf.local_variables()] == ["input_producer/limit_epochs/epochs"]
    assert [s.op.name for s in tf.get_collection(tf.GraphKeys.SUMMARIES)] == \
        ["input_producer/fraction_of_32_full"]
    assert len(tf.get_collection(tf.GraphKeys.QUEUE_RUNNERS)) == 1
    name = q.dequeue()
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        with Threads(sess) as t:
            assert run_until_end(sess, name) == [b"a", b"b", b"c"] * 2
        assert t.coord.should_stop()


def test_limit_epochs_counts_in_a_local_variable():
    x = tf.train.limit_epochs(tf.constant([1, 2]), num_epochs=3)
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        for _ in range(3):
            np.testing.assert_array_equal(sess.run(x), [1, 2])
        with pytest.raises(tf.errors.OutOfRangeError, match="Reached limit of 3"):
            sess.run(x)
        assert sess.run(tf.local_variables()[0]) == 3
    assert tf.train.limit_epochs(x, None) is x
    with pytest.raises(ValueError, match="num_epochs must be > 0"):
        tf.train.limit_epochs(x, 0)


def test_slice_input_producer_and_batch_with_smaller_final_batch():
    images = np.arange(14, dtype=np.float32).reshape(7, 2)
    labels = np.arange(7, dtype=np.int32) * 10
    image, label = tf.train.slice_input_producer([images, labels], num_epochs=1,
                                                 shuffle=False)
    assert image.get_shape().as_list() == [2] and label.get_shape().as_list() == []
    xs, ys = tf.train.batch([image, label], batch_size=3, allow_smaller_final_batch=True)
    assert xs.get_shape().as_list() == [None, 2]
    fixed = tf.train.batch([tf.constant(1.0)], 4)
    assert fixed.get_shape().as_list() == [4] and fixed.op.name == "batch_1"
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        with Threads(sess):
            batches = run_until_end(sess, [xs, ys])
    assert [len(b[1]) for b in batches] == [3, 3, 1]
    np.testing.assert_array_equal(np.concatenate([b[0] for b in batches]), images)
    np.testing.assert_array_equal(np.concatenate([b[1] for b in batches]), labels)


def test_shuffle_batch_sees_every_example_once_per_epoch():
    value = tf.train.range_input_producer(20, num_epochs=2, shuffle=True, seed=3).dequeue()
    batch = tf.train.shuffle_batch([value], batch_size=8, capacity=16, min_after_dequeue=4,
                                   num_threads=2, seed=5, allow_smaller_final_batch=True)
    assert batch.op.name == "shuffle_batch"
    assert "shuffle_batch/fraction_over_4_of_12_full" in \
        [s.op.name for s in tf.get_collection(tf.GraphKeys.SUMMARIES)]
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        with Threads(sess):
            got = np.concatenate(run_until_end(sess, batch))
    assert sorted(got.tolist()) == sorted(list(range(20)) * 2)
    assert got.tolist() != sorted(got.tolist())          # shuffled


def test_batch_enqueue_many_dict_and_batch_join():
    rows = tf.constant(np.arange(12).reshape(6, 2))
    out = tf.train.batch({"r": rows}, batch_size=4, enqueue_many=True)
    assert isinstance(out, dict) and out["r"].get_shape().as_list() == [4, 2]
    a = tf.train.limit_epochs(tf.constant([1, 2]), 1)
    b = tf.train.limit_epochs(tf.constant([3, 4]), 1)
    joined = tf.train.batch_join([[a], [b]], batch_size=2, enqueue_many=True)
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        with Threads(sess):
            np.testing.assert_array_equal(sess.run(out["r"]), np.arange(8).reshape(4, 2))
            both = np.concatenate(run_until_end(sess, joined))
    assert sorted(both.tolist()) == [1, 2, 3, 4]


def test_input_errors_say_what_to_do():
    with pytest.raises(ValueError, match="non-null input tensor"):
        tf.train.string_input_producer([])
    with pytest.raises(ValueError, match="Cannot infer Tensor's rank"):
        tf.train.batch([tf.placeholder(tf.float32)], 2)
    with pytest.raises(ValueError, match="fully defined"):
        tf.train.batch([tf.placeholder(tf.float32, [None])], 2)
    with pytest.raises(ValueError, match="fully defined shape"):
        tf.train.input_producer(tf.placeholder(tf.float32, [None, None]))


def test_monitored_training_session_starts_the_queue_runners():
    value = tf.train.range_input_producer(10, num_epochs=1, shuffle=False).dequeue()
    batch = tf.train.batch([value], batch_size=5)
    tf.train.get_or_create_global_step()
    seen = []
    with tf.train.MonitoredTrainingSession() as sess:      # initializes the local counters
        while not sess.should_stop():
            seen.extend(sess.run(batch).tolist())           # OutOfRangeError ends the loop
    assert seen == list(range(10))


def _resources(cluster, job):
    return cluster._knobs_call_method(job, 0, "ListResources")


def test_shared_queue_input_on_the_ps():
    with LocalCluster({"ps": 1, "worker": 1}) as cluster:
        with tf.device("/job:ps/task:0"):
            value = tf.train.range_input_producer(10, num_epochs=1, shuffle=False).dequeue()
            batch = tf.train.batch([value], batch_size=2)
        target = cluster.target("worker", 0)
        with tf.Session(target) as first, tf.Session(target) as second:
            first.run(tf.local_variables_initializer())
            with Threads(first):
                taken = first.run(batch).tolist() + first.run(batch).tolist()
                rest = run_until_end(second, batch)           # another client, same queues
        assert taken + np.concatenate(rest).tolist() == list(range(10))
        kinds = sorted(r[2] for r in _resources(cluster, "ps"))
        assert kinds == ["Queue", "Queue", "Variable"]          # both queues and the counter
        assert _resources(cluster, "worker") == []
