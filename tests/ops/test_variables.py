"""tf.Variable: its ops, initialization, assignment, collections and errors."""
import numpy as np
import pytest

import sandbox as tf


def test_variable_builds_tf_ops():
    v = tf.Variable(tf.zeros([2, 3]), name="weights")
    assert v.name == "weights:0"
    assert v.op.name == "weights" and v.op.type == "VariableV2"
    assert v.initializer.name == "weights/Assign"
    assert v.value().name == "weights/read:0"
    assert v.dtype == tf.float32_ref
    assert v.get_shape().as_list() == [2, 3]
    assert repr(v) == "<tf.Variable 'weights:0' shape=(2, 3) dtype=float32_ref>"


def test_uninitialized_read_names_the_variable():
    with tf.name_scope("weights"):
        v = tf.Variable(1.0)
    with tf.Session() as sess:
        with pytest.raises(tf.errors.FailedPreconditionError,
                           match="Attempting to use uninitialized value weights/Variable"):
            sess.run(v)
        with pytest.raises(tf.errors.FailedPreconditionError):
            sess.run(v * 2.0)


def test_initializers_and_assignment():
    v = tf.Variable([1.0, 2.0], name="v")
    w = tf.Variable(lambda: tf.ones([2]), name="w")
    n = tf.Variable(5, name="n")
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        assert sess.run(v).tolist() == [1.0, 2.0]
        assert sess.run(w).tolist() == [1.0, 1.0]
        assert sess.run(n) == 5 and sess.run(n).dtype == np.int32
        assert sess.run(v.assign([3.0, 4.0])).tolist() == [3.0, 4.0]
        assert sess.run(v.assign_add([1.0, 1.0])).tolist() == [4.0, 5.0]
        assert sess.run(v.assign_sub([4.0, 5.0])).tolist() == [0.0, 0.0]
        assert sess.run(tf.assign(v, [7.0, 7.0])).tolist() == [7.0, 7.0]
        assert sess.run(v.read_value()).tolist() == [7.0, 7.0]
        v.load([9.0, 9.0], sess)
        assert sess.run(v).tolist() == [9.0, 9.0]


def test_fetched_value_does_not_change_when_variable_does():
    v = tf.Variable([1.0, 2.0], name="v")
    with tf.Session() as sess:
        sess.run(v.initializer)
        before = sess.run(v)
        sess.run(v.assign_add([1.0, 1.0]))
        assert before.tolist() == [1.0, 2.0]
        fed = np.array([5.0, 5.0], dtype=np.float32)
        sess.run(v.assign(fed))
        fed[0] = -1.0
        assert sess.run(v).tolist() == [5.0, 5.0]


def test_assign_shape_mismatch():
    v = tf.Variable([1.0, 2.0], name="v")
    with pytest.raises(ValueError):
        v.assign([1.0, 2.0, 3.0])
    p = tf.placeholder(tf.float32, [None])
    op = v.assign(p)
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match="lhs shape= \\[2\\] rhs shape= \\[3\\]"):
            sess.run(op, {p: [1.0, 2.0, 3.0]})


def test_variable_needs_known_shape():
    p = tf.placeholder(tf.float32, [None])
    with pytest.raises(ValueError, match="shape specified"):
        tf.Variable(p)
    v = tf.Variable(p, validate_shape=False)
    assert v.get_shape().ndims is None


def test_report_and_is_initialized():
    a = tf.Variable(1.0, name="a")
    b = tf.Variable(2.0, name="b")
    report = tf.report_uninitialized_variables()
    flag = tf.is_variable_initialized(a)
    with tf.Session() as sess:
        assert sorted(sess.run(report).tolist()) == [b"a", b"b"]
        assert not sess.run(flag)
        sess.run(a.initializer)
        assert sess.run(report).tolist() == [b"b"]
        assert sess.run(flag)
        sess.run(tf.variables_initializer([b]))
        assert sess.run(report).tolist() == []


def test_collections_and_aliases():
    a = tf.Variable(1.0, name="a")
    b = tf.Variable(1.0, name="b", trainable=False)
    c = tf.Variable(1.0, name="c", collections=[tf.GraphKeys.LOCAL_VARIABLES])
    assert tf.global_variables() == [a, b] == tf.all_variables()
    assert tf.trainable_variables() == [a, c]     # trainable=True by default, as in TF
    assert tf.local_variables() == [c]
    with tf.Session() as sess:
        sess.run(tf.initialize_all_variables())
        sess.run(tf.local_variables_initializer())
        assert sess.run([a, b, c]) == [1.0, 1.0, 1.0]


def test_variable_operators_use_its_value():
    v = tf.Variable(3.0, name="v")
    with tf.Session() as sess:
        sess.run(v.initializer)
        assert sess.run(v * 2.0) == 6.0
        assert sess.run(-v) == -3.0
        assert sess.run(v + v) == 6.0


def test_initialized_value_orders_initialization():
    v = tf.Variable(2.0, name="v")
    w = tf.Variable(v.initialized_value() * 3.0, name="w")
    with tf.Session() as sess:
        sess.run(w.initializer)
        assert sess.run(w) == 6.0


def test_an_op_that_takes_a_variable_by_reference_is_colocated_with_it():
    """TF's _apply_op_helper colocates an op with its ref inputs: Assign and the Apply* updates
    get the variable's device and "loc:@" group whatever device scope they are built in
    (checked on TensorFlow 2.15.1); a read through Identity is not colocated."""
    with tf.device("/job:ps/task:0"):
        b = tf.Variable(1.0, name="b")
    with tf.device("/job:worker/task:0"):
        assign = tf.assign(b, 2.0)
        update = tf.train.GradientDescentOptimizer(0.1).minimize(b * b)
        read = tf.identity(b)
    assert assign.op.device == "/job:ps/task:0"
    assert assign.op.colocation_groups() == [b"loc:@b"]
    applies = [op for op in tf.get_default_graph().get_operations()
               if op.type == "ApplyGradientDescent"]
    assert [op.device for op in applies] == ["/job:ps/task:0"] and update is not None
    assert read.op.device == "/job:worker/task:0"


def test_a_read_made_under_control_dependencies_sees_their_updates():
    # TF 1.15: `v + 0` under control_dependencies([update]) runs after the update and reads
    # the variable's memory then (TF 2.15.1 with ref variables prints 2.0 and [[0.9375] ...]),
    # which the pattern `with tf.control_dependencies([train_op]): ema.apply(...)` counts on
    v = tf.Variable(1.0, name="v")
    inc = tf.assign_add(v, 1.0)
    with tf.control_dependencies([inc]):
        after = v + 0
    before = v + 0                                   # outside: the plain read, v/read
    assert before.op.inputs[0].name == "v/read:0"
    w = tf.Variable([[0.5], [-1.0]], name="w")
    loss = tf.reduce_sum(tf.square(tf.matmul(tf.constant([[1.0, 2.0]]), w) - 1.0))
    train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    ema = tf.train.ExponentialMovingAverage(0.5)
    with tf.control_dependencies([train]):
        apply = ema.apply([w])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        assert sess.run(after) == 2.0
        for _ in range(3):
            sess.run(apply)
        np.testing.assert_allclose(sess.run(ema.average(w)), [[0.9375], [-0.125]])


def test_variable_sparse_updates_reads_counter_and_references():
    """TF 1.15's RefVariable methods: scatter_* take tf.IndexedSlices, scatter_nd_* indices and
    updates; sparse_read and gather_nd read rows; count_up_to; experimental_ref hashes."""
    with tf.Graph().as_default():
        v = tf.Variable(np.zeros([4, 2], np.float32))
        counter = tf.Variable(0)
        updates = [v.scatter_add(tf.IndexedSlices(tf.ones([2, 2]), tf.constant([0, 2]))),
                   v.scatter_sub(tf.IndexedSlices(tf.fill([1, 2], 0.5), tf.constant([2]))),
                   v.scatter_max(tf.IndexedSlices(tf.fill([1, 2], 3.0), tf.constant([3]))),
                   v.scatter_nd_update([[1, 1]], [5.0]), v.scatter_nd_add([[1, 0]], [2.0])]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for update in updates:
                sess.run(update)
            assert sess.run(v).tolist() == [[1, 1], [2, 5], [0.5, 0.5], [3, 3]]
            assert sess.run(v.sparse_read([2, 1])).tolist() == [[0.5, 0.5], [2, 5]]
            assert sess.run(v.gather_nd([[1, 1]])).tolist() == [5.0]
            step = counter.count_up_to(2)
            assert [sess.run(step), sess.run(step)] == [0, 1]
            with pytest.raises(tf.errors.OutOfRangeError):
                sess.run(step)
        with pytest.raises(TypeError, match="sparse_delta is not IndexedSlices"):
            v.scatter_add([1.0])
        assert v.experimental_ref() == v.experimental_ref() and \
            v.experimental_ref().deref() is v
        t = v.value()
        assert {t.experimental_ref(): 1}[t.experimental_ref()] == 1
