"""Feedable iterators: Iterator.string_handle and Iterator.from_string_handle, in a local
Session and on a cluster of processes. The messages and behaviours were checked against
TensorFlow 2.15's tf.compat.v1 (IteratorToStringHandle, IteratorFromStringHandleV2), locally
and on a 2-task in-process cluster of tf.train.Server."""
import numpy as np
import pytest

import sandbox as tf
from sandbox.cluster import LocalCluster
from sandbox.ops.dataset_ops import decode_handle


def _feedable(dataset):
    handle = tf.placeholder(tf.string, shape=[])
    iterator = tf.data.Iterator.from_string_handle(handle, dataset.output_types,
                                                   dataset.output_shapes)
    return handle, iterator.get_next()


def test_train_and_validation_switch_by_handle():
    train_ds = tf.data.Dataset.range(5)
    val_ds = tf.data.Dataset.range(100, 103)
    handle, next_element = _feedable(train_ds)
    train_it = tf.data.make_one_shot_iterator(train_ds)
    val_it = val_ds.make_initializable_iterator()
    with tf.Session() as sess:
        train_handle, val_handle = sess.run([train_it.string_handle(),
                                             val_it.string_handle()])
        assert isinstance(train_handle, bytes) and train_handle != val_handle
        assert [sess.run(next_element, {handle: train_handle}) for _ in range(2)] == [0, 1]
        sess.run(val_it.initializer)
        assert [sess.run(next_element, {handle: val_handle}) for _ in range(3)] == \
            [100, 101, 102]
        with pytest.raises(tf.errors.OutOfRangeError, match="'IteratorV2'"):
            sess.run(next_element, {handle: val_handle})
        assert sess.run(next_element, {handle: train_handle}) == 2    # training went on
        sess.run(val_it.initializer)                                # validation starts over
        assert sess.run(next_element, {handle: val_handle}) == 100
        assert [sess.run(next_element, {handle: train_handle}) for _ in range(2)] == [3, 4]
        with pytest.raises(tf.errors.OutOfRangeError, match="'OneShotIterator'"):
            sess.run(next_element, {handle: train_handle})
        assert sess.run(next_element, {handle: val_handle}) == 101


def test_nested_elements_keep_their_structure():
    x = np.arange(6, dtype=np.float32).reshape(3, 2)
    ds = tf.data.Dataset.from_tensor_slices({"x": x, "y": np.arange(3)}).batch(2)
    handle = tf.placeholder(tf.string, shape=[])
    feedable = tf.data.Iterator.from_string_handle(handle, ds.output_types, ds.output_shapes)
    element = feedable.get_next()
    assert feedable.output_types == ds.output_types
    assert element["x"].shape.as_list() == [None, 2]
    it = ds.make_initializable_iterator()
    with tf.Session() as sess:
        sess.run(it.initializer)
        first = sess.run(element, {handle: sess.run(it.string_handle())})
    np.testing.assert_array_equal(first["x"], x[:2])
    np.testing.assert_array_equal(first["y"], [0, 1])


def test_string_handle_names_device_container_and_iterator():
    it = tf.data.Dataset.range(3).make_initializable_iterator()
    handle = it.string_handle()
    assert it.string_handle() is handle                 # one per iterator, as in TF
    assert handle.op.type == "IteratorToStringHandle"
    assert handle.dtype == tf.string and handle.shape.as_list() == []
    assert it.string_handle(name="named").op.name == "named"
    with tf.Session() as sess:
        fields = decode_handle(sess.run(handle))
    assert fields[1] == "/job:localhost/replica:0/task:0/device:CPU:0"
    assert fields[3] == it._iterator_resource.op.name
    assert fields[5] == "IteratorResource"


@pytest.mark.parametrize("make, message", [
    (lambda: tf.data.Dataset.from_tensor_slices(([1.0, 2.0], [[1, 2], [3, 4]])),
     "Number of components does not match: expected 1 types but got 2."),
    (lambda: tf.data.Dataset.range(3).map(lambda v: tf.cast(v, tf.float32)),
     "Data type mismatch at component 0: expected int64 but got float."),
    (lambda: tf.data.Dataset.range(4).batch(2),
     r"Incompatible shapes at component 0: expected \[\] but got \[\?\]."),
])
def test_a_handle_of_another_structure_is_refused(make, message):
    handle, next_element = _feedable(tf.data.Dataset.range(5))
    other = make().make_one_shot_iterator()
    with tf.Session() as sess:
        other_handle = sess.run(other.string_handle())
        with pytest.raises(tf.errors.InvalidArgumentError, match=message) as e:
            sess.run(next_element, {handle: other_handle})
    assert e.value.message.count("OneShotIterator") == 1      # names the iterator fed
    assert "from_string_handle needs the output_types" in e.value.message


@pytest.mark.parametrize("garbage, message", [
    (b"garbage", "Could not parse string_handle as a valid ResourceHandle"),
    (b"", 'from handle defined on device ""'),
    (b"\n\x03abc", 'from handle defined on device "abc"'),
])
def test_a_garbage_handle_is_an_invalid_argument(garbage, message):
    handle, next_element = _feedable(tf.data.Dataset.range(5))
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match=message):
            sess.run(next_element, {handle: garbage})


def test_uninitialized_iterator_and_another_local_session():
    handle, next_element = _feedable(tf.data.Dataset.range(5))
    waiting = tf.data.Dataset.range(9).make_initializable_iterator()
    with tf.Session() as sess:
        waiting_handle = sess.run(waiting.string_handle())
        with pytest.raises(tf.errors.FailedPreconditionError, match="not been initialized"):
            sess.run(next_element, {handle: waiting_handle})
    with tf.Session() as other:          # a local Session keeps its own resources, as in TF
        with pytest.raises(tf.errors.NotFoundError, match="does not exist"):
            other.run(next_element, {handle: waiting_handle})


def _resources(cluster, job, task=0):
    return cluster._knobs_call_method(job, task, "ListResources")


def test_cluster_switches_between_iterators_on_a_worker_by_handle():
    with LocalCluster({"ps": 1, "worker": 2}) as cluster:
        with tf.device("/job:worker/task:0"):
            train_ds = tf.data.Dataset.range(5).map(lambda v: v * 10)
            val_ds = tf.data.Dataset.range(100, 103)
            train_it = tf.data.make_one_shot_iterator(train_ds)
            val_it = tf.data.make_initializable_iterator(val_ds)
        handle = tf.placeholder(tf.string, shape=[])
        with tf.device("/job:worker/task:0"):
            feedable = tf.data.Iterator.from_string_handle(handle, train_ds.output_types,
                                                           train_ds.output_shapes)
            next_element = feedable.get_next()
        with tf.device("/job:worker/task:1"):                     # the wrong task
            elsewhere = tf.data.Iterator.from_string_handle(
                handle, train_ds.output_types, train_ds.output_shapes).get_next()
        sess = tf.Session(cluster.target("worker", 1))            # the client talks to task 1
        try:
            train_handle, val_handle = sess.run([train_it.string_handle(),
                                                 val_it.string_handle()])
            assert decode_handle(train_handle)[1] == \
                "/job:worker/replica:0/task:0/device:CPU:0"
            assert decode_handle(train_handle)[2] == "worker"     # the job's container
            assert [sess.run(next_element, {handle: train_handle}) for _ in range(2)] == \
                [0, 10]
            sess.run(val_it.initializer)
            assert [sess.run(next_element, {handle: val_handle}) for _ in range(3)] == \
                [100, 101, 102]
            with pytest.raises(tf.errors.OutOfRangeError, match="task:0"):
                sess.run(next_element, {handle: val_handle})
            assert sess.run(next_element, {handle: train_handle}) == 20
            with pytest.raises(tf.errors.InvalidArgumentError,
                               match="Attempted create an iterator on device "
                                     r'"/job:worker/replica:0/task:1/device:CPU:0".*'
                                     r"tf.device\('/job:worker/task:0'\)"):
                sess.run(elsewhere, {handle: train_handle})

            # Another graph and session on the same task reads the same iterator, as in TF.
            with tf.Graph().as_default():
                handle2 = tf.placeholder(tf.string, shape=[])
                with tf.device("/job:worker/task:0"):
                    reader = tf.data.Iterator.from_string_handle(
                        handle2, tf.int64, tf.TensorShape([])).get_next()
                with tf.Session(cluster.target("worker", 0)) as other:
                    assert other.run(reader, {handle2: train_handle}) == 30
            assert sess.run(next_element, {handle: train_handle}) == 40
        finally:
            sess.close()
        names = {r[1] for r in _resources(cluster, "worker", 0)
                 if r[2] == "IteratorResource"}
        assert names == {train_it._iterator_resource.op.name,
                         val_it._iterator_resource.op.name}
        assert _resources(cluster, "worker", 1) == []        # nothing made on task 1
        assert _resources(cluster, "ps") == []
