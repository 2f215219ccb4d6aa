"""Control flow (issue 27): tf.cond, tf.case, tf.while_loop, map_fn/foldl/scan, their gradients,
tf.py_func -- values against NumPy/Python, side effects of the untaken branch, gradients
against finite differences, and a cond on a real cluster."""
import numpy as np
import pytest

import sandbox as tf
from sandbox.cluster import LocalCluster
from tests.gradcheck import check_gradients


# -- tf.cond -------------------------------------------------------------------------------

def test_cond_takes_the_branch_of_the_predicate():
    p = tf.placeholder(tf.bool, [])
    x = tf.constant(3.0)
    r = tf.cond(p, lambda: x * 2.0, lambda: x + 10.0)
    assert r.dtype == tf.float32 and r.get_shape().as_list() == []
    with tf.Session() as sess:
        assert sess.run(r, {p: True}) == 6.0
        assert sess.run(r, {p: False}) == 13.0


def test_untaken_branch_does_not_run_its_assign():
    p = tf.placeholder(tf.bool, [])
    v = tf.Variable(1.0, name="v")
    w = tf.Variable(0.0, name="w")
    r = tf.cond(p, lambda: v.assign(10.0), lambda: w.assign_add(1.0))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        assert sess.run(r, {p: False}) == 1.0
        assert sess.run([v, w]) == [1.0, 1.0]          # then-branch's assign did not run
        assert sess.run(r, {p: True}) == 10.0
        assert sess.run([v, w]) == [10.0, 1.0]         # else-branch's did not, this time


def test_cond_nested_structures_and_strict():
    p = tf.placeholder(tf.bool, [])
    a, b = tf.constant([1, 2]), tf.constant(5.0)
    r = tf.cond(p, lambda: {"x": a * 2, "y": (b, b + 1)}, lambda: {"x": a, "y": (b - 1, b)})
    single = tf.cond(p, lambda: [a], lambda: [a + 1])
    strict = tf.cond(p, lambda: [a], lambda: [a + 1], strict=True)
    assert isinstance(single, tf.Tensor) and isinstance(strict, list)
    with tf.Session() as sess:
        got = sess.run(r, {p: True})
        np.testing.assert_array_equal(got["x"], [2, 4])
        assert got["y"] == (5.0, 6.0)
        got = sess.run(r, {p: False})
        np.testing.assert_array_equal(got["x"], [1, 2])
        assert got["y"] == (4.0, 5.0)
        np.testing.assert_array_equal(sess.run(single, {p: False}), [2, 3])


def test_nested_cond():
    p = tf.placeholder(tf.bool, [])
    q = tf.placeholder(tf.bool, [])
    x = tf.constant(2.0)
    r = tf.cond(p, lambda: tf.cond(q, lambda: x * 3.0, lambda: x * 5.0), lambda: x - 1.0)
    with tf.Session() as sess:
        for pv, qv, want in [(True, True, 6.0), (True, False, 10.0), (False, True, 1.0)]:
            assert sess.run(r, {p: pv, q: qv}) == want


def test_cond_errors_as_tf():
    """Measured in TF 1.15: a Python bool is a TypeError, a vector predicate a ValueError,
    branches of different dtypes a ValueError."""
    with pytest.raises(TypeError, match="pred must not be a Python bool"):
        tf.cond(True, lambda: 1, lambda: 2)
    with pytest.raises(ValueError, match="rank 0"):
        tf.cond(tf.constant([True]), lambda: 1, lambda: 2)
    with pytest.raises(ValueError, match="same type"):
        tf.cond(tf.constant(True), lambda: tf.constant(1), lambda: tf.constant(1.0))
    with pytest.raises(ValueError, match="create the variable before"):
        tf.cond(tf.constant(True), lambda: tf.Variable(1.0).value(), lambda: tf.constant(1.0))


def test_gradient_through_cond_matches_finite_differences():
    def build(x, w):
        return tf.cond(tf.reduce_sum(x) > 0, lambda: tf.tanh(x) * w, lambda: x * x * w)
    check_gradients(build, [np.array([0.5, 1.0]), np.array([2.0, -1.0])])
    check_gradients(build, [np.array([-0.5, -1.0]), np.array([2.0, -1.0])])


def test_gradient_of_cond_uses_the_forward_values_of_random_ops():
    """Dropout inside a branch: the gradient uses the mask the forward pass drew (recorded by
    the If), not a new one."""
    tf.set_random_seed(3)
    p = tf.placeholder(tf.bool, [])
    x = tf.constant(np.ones(50, np.float32))
    y = tf.cond(p, lambda: tf.nn.dropout(x, keep_prob=0.5), lambda: x)
    g = tf.gradients(tf.reduce_sum(y), x)[0]
    with tf.Session() as sess:
        y_val, g_val = sess.run([y, g], {p: True})
        np.testing.assert_allclose(g_val, (y_val != 0) * 2.0)
        assert 0 < np.count_nonzero(y_val) < 50
        np.testing.assert_allclose(sess.run(g, {p: False}), np.ones(50))


def test_gradient_through_nested_cond_and_variable():
    p = tf.placeholder(tf.bool, [])
    v = tf.Variable(3.0)
    y = tf.cond(p, lambda: tf.cond(p, lambda: v * v, lambda: v), lambda: 2.0 * v)
    g = tf.gradients(y, v)[0]
    with tf.Session() as sess:
        sess.run(v.initializer)
        assert sess.run(g, {p: True}) == 6.0
        assert sess.run(g, {p: False}) == 2.0


# -- tf.case -------------------------------------------------------------------------------

def test_case_first_true_predicate_and_default():
    x = tf.placeholder(tf.int32, [])
    r = tf.case([(x < 0, lambda: tf.constant(-1)), (x < 10, lambda: tf.constant(1))],
                default=lambda: tf.constant(100))
    with tf.Session() as sess:
        assert [sess.run(r, {x: v}) for v in (-5, 5, 50)] == [-1, 1, 100]


def test_case_without_default_and_exclusive():
    """TF 1.15: without a default the last pair is the default, asserted; exclusive=True
    asserts that at most one predicate is true."""
    x = tf.placeholder(tf.int32, [])
    r = tf.case([(tf.equal(x, 1), lambda: tf.constant(10)),
                 (tf.equal(x, 2), lambda: tf.constant(20))])
    e = tf.case({x > 0: lambda: tf.constant(1), x > 5: lambda: tf.constant(2)},
                default=lambda: tf.constant(0), exclusive=True)
    with tf.Session() as sess:
        assert sess.run(r, {x: 1}) == 10 and sess.run(r, {x: 2}) == 20
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match="None of conditions evaluated as True"):
            sess.run(r, {x: 3})
        assert sess.run(e, {x: 3}) == 1 and sess.run(e, {x: -1}) == 0
        with pytest.raises(tf.errors.InvalidArgumentError, match="exclusive=True"):
            sess.run(e, {x: 7})


# -- tf.while_loop -------------------------------------------------------------------------

def test_while_loop_sums_and_counts():
    i0, s0 = tf.constant(0), tf.constant(0)
    i, s = tf.while_loop(lambda i, s: i < 10, lambda i, s: (i + 1, s + i), [i0, s0])
    n = tf.placeholder(tf.int32, [])
    count = tf.while_loop(lambda c: c * c < n, lambda c: c + 1, [tf.constant(0)])
    assert isinstance(count, tf.Tensor)
    with tf.Session() as sess:
        assert sess.run([i, s]) == [10, sum(range(10))]
        assert sess.run(count, {n: 50}) == 8          # first c with c*c >= 50


def test_while_loop_maximum_iterations_and_nested_loop_vars():
    r = tf.while_loop(lambda i: i < 1000, lambda i: i + 1, [tf.constant(0)],
                      maximum_iterations=7)
    state = {"k": tf.constant(0), "acc": (tf.constant(1.0), tf.constant([0.0, 0.0]))}
    out = tf.while_loop(lambda st: st["k"] < 4,
                        lambda st: {"k": st["k"] + 1,
                                    "acc": (st["acc"][0] * 2.0, st["acc"][1] + 1.0)},
                        [state])
    with tf.Session() as sess:
        assert sess.run(r) == 7
        got = sess.run(out)[0]
        assert got["k"] == 4 and got["acc"][0] == 16.0
        np.testing.assert_array_equal(got["acc"][1], [4.0, 4.0])


def test_while_loop_shape_invariants():
    x = tf.constant([1.0])
    with pytest.raises(ValueError, match="shape_invariants"):
        tf.while_loop(lambda a: tf.size(a) < 4, lambda a: tf.concat([a, a], 0), [x])
    y = tf.while_loop(lambda a: tf.size(a) < 4, lambda a: tf.concat([a, a], 0), [x],
                      shape_invariants=[tf.TensorShape([None])])
    assert y.get_shape().as_list() == [None]
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(y), [1.0] * 4)


def test_while_loop_reads_captured_tensors_and_assigns_variables():
    v = tf.Variable(0.0)
    step = tf.constant(2.5)
    i = tf.while_loop(lambda i: i < 4,
                      lambda i: tf.tuple([i + 1], control_inputs=[v.assign_add(step)])[0],
                      [tf.constant(0)])
    with tf.Session() as sess:
        sess.run(v.initializer)
        assert sess.run(i) == 4
        assert sess.run(v) == 10.0


def test_gradient_through_while_loop_matches_finite_differences():
    def build(x, w):
        _, y = tf.while_loop(lambda k, y: k < 3, lambda k, y: (k + 1, tf.sin(y) * w),
                             [tf.constant(0), x])
        return y
    check_gradients(build, [np.array([0.3, -0.7]), np.array([1.5, 0.5])])


def test_gradient_of_a_power_loop():
    x = tf.placeholder(tf.float64, [])
    _, y = tf.while_loop(lambda i, y: i < 5, lambda i, y: (i + 1, y * x),
                         [tf.constant(0), tf.constant(1.0, tf.float64)])
    g = tf.gradients(y, x)[0]
    with tf.Session() as sess:
        assert sess.run([y, g], {x: 2.0}) == [32.0, 5 * 2.0 ** 4]


# -- map_fn, foldl, scan -------------------------------------------------------------------

def test_map_fn_foldl_foldr_scan_against_python():
    x = tf.constant([1.0, 2.0, 3.0, 4.0])
    m = tf.map_fn(lambda e: e * e + 1.0, x)
    pair = tf.map_fn(lambda e: (e[0] * e[1], e[0] - e[1]), (x, x * 2.0), dtype=(tf.float32,
                                                                                 tf.float32))
    fl = tf.foldl(lambda a, e: a * 10.0 + e, x)
    fr = tf.foldr(lambda a, e: a * 10.0 + e, x)
    sc = tf.scan(lambda a, e: a + e, x)
    sc0 = tf.scan(lambda a, e: a * e, x, initializer=tf.constant(2.0))
    with tf.Session() as sess:
        got = sess.run([m, pair, fl, fr, sc, sc0])
    xs = [1.0, 2.0, 3.0, 4.0]
    np.testing.assert_array_equal(got[0], [e * e + 1 for e in xs])
    np.testing.assert_array_equal(got[1][0], [2 * e * e for e in xs])
    np.testing.assert_array_equal(got[1][1], [-e for e in xs])
    assert got[2] == 1234.0 and got[3] == 4321.0
    np.testing.assert_array_equal(got[4], np.cumsum(xs))
    np.testing.assert_array_equal(got[5], 2 * np.cumprod(xs))


def test_gradient_through_map_fn():
    check_gradients(lambda x: tf.map_fn(lambda row: tf.reduce_sum(tf.tanh(row) * row), x),
                    [np.array([[0.1, 0.2], [0.3, -0.4], [1.0, 0.5]])])


# -- py_func -------------------------------------------------------------------------------

def test_py_func_runs_python_in_this_process():
    calls = []

    def f(a, b):
        calls.append(1)
        return a * b, np.int64(a.size)
    x = tf.constant([1.0, 2.0])
    y, n = tf.py_func(f, [x, tf.constant(3.0)], [tf.float32, tf.int64])
    with tf.Session() as sess:
        got = sess.run([y, n])
    np.testing.assert_array_equal(got[0], [3.0, 6.0])
    assert got[1] == 2 and calls == [1]


# -- on a cluster --------------------------------------------------------------------------

def test_cond_on_a_cluster_predicate_on_worker_branch_reads_ps_variable():
    """The If runs on the worker (where its predicate is computed); the variable's value is
    read on the ps and sent to the worker -- also when the other branch is taken (the
    sandbox's functional cond computes its captured inputs first: cond_v2.py)."""
    with LocalCluster({"ps": 1, "worker": 1}) as cluster:
        with tf.device("/job:ps/task:0"):
            v = tf.Variable(4.0, name="v")
        with tf.device("/job:worker/task:0"):
            x = tf.placeholder(tf.float32, [])
            r = tf.cond(x > 0.0, lambda: v * x, lambda: tf.constant(-1.0))
        with tf.Session(cluster.target("worker", 0)) as sess:
            sess.run(v.initializer)
            assert sess.run(r, {x: 2.0}) == 8.0
            md = tf.RunMetadata()
            assert sess.run(r, {x: -2.0}, options=tf.RunOptions(trace_level=3),
                            run_metadata=md) == -1.0
            # A branch that changes the ps variable: the If goes where the variable lives.
            with tf.device("/job:worker/task:0"):
                a = tf.cond(x > 0.0, lambda: v.assign(x), lambda: tf.identity(v))
                grad = tf.gradients(tf.cond(x > 0.0, lambda: v * x, lambda: v), v)[0]
            assert sess.run(a, {x: -3.0}) == 4.0 and sess.run(v) == 4.0
            assert sess.run(a, {x: 3.0}) == 3.0 and sess.run(v) == 3.0
            assert sess.run(grad, {x: 5.0}) == 5.0 and sess.run(grad, {x: -5.0}) == 1.0
            # A py_func's function lives in the process that built it: not in a task's.
            with tf.device("/job:worker/task:0"):
                pf = tf.py_func(lambda a: a + 1.0, [x], tf.float32)
            with pytest.raises(tf.errors.InvalidArgumentError, match="runs only in the "
                               "process that built it"):
                sess.run(pf, {x: 1.0})
        ran = {d.device: [n.node_name for n in d.node_stats] for d in md.step_stats.dev_stats}
        assert "cond/If" in ran["/job:worker/replica:0/task:0/device:CPU:0"]
        assert "v/read" in ran["/job:ps/replica:0/task:0/device:CPU:0"]
        assert a.op.colocation_groups() == [b"loc:@v"]


def test_while_loop_namedtuple_loop_vars_are_passed_as_arguments():
    import collections
    Pair = collections.namedtuple("Pair", "i total")
    out = tf.while_loop(lambda i, total: i < 4, lambda i, total: Pair(i + 1, total + i),
                        Pair(tf.constant(0), tf.constant(0)))
    assert isinstance(out, Pair)
    with tf.Session() as sess:
        assert sess.run(out) == Pair(4, 6)


def test_branch_changing_variables_of_two_devices_is_refused_with_a_reason():
    with tf.device("/job:ps/task:0"):
        a = tf.Variable(1.0, name="a")
    with tf.device("/job:ps/task:1"):
        b = tf.Variable(1.0, name="b")
    p = tf.placeholder(tf.bool, [])
    with pytest.raises(ValueError, match="change variables on several devices"):
        tf.cond(p, lambda: a.assign(2.0) + b.assign(3.0), lambda: tf.constant(0.0))
    r = tf.cond(p, lambda: a.assign(2.0) * 2.0, lambda: tf.constant(0.0))
    assert r.op.colocation_groups() == [b"loc:@a"] and r.op.device == "/job:ps/task:0"


def test_while_loop_runs_past_no_deadline():
    """Where TF would hang on an endless loop, the sandbox's loop honours RunOptions'
    timeout (the kernel checks the step between iterations)."""
    forever = tf.while_loop(lambda i: i >= 0, lambda i: i + 1, [tf.constant(0)])
    with tf.Session() as sess:
        with pytest.raises(tf.errors.DeadlineExceededError):
            sess.run(forever, options=tf.RunOptions(timeout_in_ms=200))


def test_py_func_errors_are_the_functions_not_the_sandboxs():
    def bad(a):
        raise RuntimeError("boom")
    y = tf.py_func(bad, [tf.constant(1.0)], tf.float32, name="bad")
    s = tf.py_func(lambda: np.array([b"a", b"bc"]), [], tf.string)
    with tf.Session() as sess:
        with pytest.raises(tf.errors.UnknownError, match="RuntimeError: boom"):
            sess.run(y)
        assert list(sess.run(s)) == [b"a", b"bc"]


def test_map_fn_on_empty_elems_gives_an_empty_result_as_tf():
    # (map_fn is built on TensorArrays now, as TF's: TF 2.15 returns shape (0,) here)
    x = tf.placeholder(tf.float32, [None])
    m = tf.map_fn(lambda e: e * 2.0, x)
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(m, {x: [1.0, 2.0]}), [2.0, 4.0])
        assert sess.run(m, {x: []}).shape == (0,)
