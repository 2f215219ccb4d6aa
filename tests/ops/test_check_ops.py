"""Assertions, printing and numerics (issue 27): tf.Assert, the tf.assert_* family, tf.Print,
tf.print, tf.check_numerics, tf.add_check_numerics_ops and the tf.debugging namespace. The
messages are the ones TF 1.15 gives (measured with TF 1.15.5, quoted in each test)."""
import numpy as np
import pytest

import sandbox as tf


def _failure(sess, op, feed=None):
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        sess.run(op, feed)
    return info.value


def test_assert_fails_naming_its_condition_and_data():
    x = tf.placeholder(tf.int32, [3])
    cond = tf.reduce_all(x > 5, name="all_big")
    check = tf.Assert(cond, ["x too small", x], name="check")
    with tf.Session() as sess:
        sess.run(check, {x: [6, 7, 8]})                   # holds: nothing happens
        e = _failure(sess, check, {x: [1, 2, 3]})
    # TF 1.15: 'assertion failed: [x too small] [1 2 3]'
    assert e.message.startswith("assertion failed: [x too small] [1 2 3]")
    assert "all_big:0" in e.message and e.node_def == "check/Assert"


def test_assert_summarize_as_tf():
    """TF 1.15: tf.Assert(False, [tf.range(10)]) says '[0 1 2...]'; summarize=20 all ten."""
    with tf.Session() as sess:
        e = _failure(sess, tf.Assert(tf.constant(False), [tf.range(10)]))
        assert e.message.startswith("assertion failed: [0 1 2...]")
        e = _failure(sess, tf.Assert(tf.constant(False), [tf.range(10)], summarize=20))
        assert e.message.startswith("assertion failed: [0 1 2 3 4 5 6 7 8 9]")


def test_assert_as_control_dependency_guards_an_op():
    x = tf.placeholder(tf.float32, [2])
    with tf.control_dependencies([tf.assert_positive(x)]):
        y = tf.log(x)
    with tf.Session() as sess:
        np.testing.assert_allclose(sess.run(y, {x: [1.0, np.e]}), [0.0, 1.0], rtol=1e-6)
        e = _failure(sess, y, {x: [1.0, -1.0]})
    assert "Condition x > 0 did not hold element-wise:" in e.message


@pytest.mark.parametrize("fn,sym", [
    (tf.assert_equal, "=="), (tf.assert_none_equal, "!="), (tf.assert_less, "<"),
    (tf.assert_less_equal, "<="), (tf.assert_greater, ">"), (tf.assert_greater_equal, ">=")])
def test_binary_asserts_at_run_time(fn, sym):
    """TF 1.15 (placeholder_with_default inputs): 'assertion failed: [Condition x == y did not
    hold element-wise:] [x (Const:0) = ] [1 2 3] [y (PlaceholderWithDefault:0) = ] [2 4 6]'."""
    x = tf.placeholder(tf.int32, [3], name="x")
    y = tf.placeholder(tf.int32, [3], name="y")
    check = fn(x, y)
    ok = {"==": [1, 2, 3], "!=": [4, 5, 6], "<": [2, 3, 4], "<=": [1, 3, 3], ">": [0, 1, 2],
          ">=": [1, 1, 2]}[sym]
    bad = {"==": [1, 5, 3], "!=": [9, 2, 9], "<": [2, 2, 4], "<=": [0, 3, 3], ">": [0, 2, 2],
           ">=": [1, 3, 2]}[sym]
    with tf.Session() as sess:
        sess.run(check, {x: [1, 2, 3], y: ok})
        e = _failure(sess, check, {x: [1, 2, 3], y: bad})
    assert e.message.startswith(f"assertion failed: [Condition x {sym} y did not hold "
                                "element-wise:] [x (x:0) = ] [1 2 3] [y (y:0) = ] "
                                f"[{' '.join(map(str, bad))}]")


def test_static_asserts_raise_while_building_as_tf():
    """TF 1.15 checks constants at once: tf.assert_less(3, 2) raises InvalidArgumentError
    'Condition x < y did not hold element-wise:\\nx (Const:0) = \\n3\\ny (Const_1:0) = \\n2'."""
    a, b = tf.constant(3), tf.constant(2)
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.assert_less(a, b)
    assert info.value.message == ("Condition x < y did not hold element-wise:\nx (Const:0) = "
                                  "\n3\ny (Const_1:0) = \n2")
    with pytest.raises(tf.errors.InvalidArgumentError, match="^custom\nCondition x == y"):
        tf.assert_equal(a, b, message="custom")
    assert tf.assert_equal(a, 3).type == "NoOp"         # holds: a NoOp, as in TF


@pytest.mark.parametrize("fn,sym,good,bad", [
    (tf.assert_positive, ">", [1.0, 2.0], [-1.0, 2.0]),
    (tf.assert_negative, "<", [-1.0, -2.0], [-1.0, 2.0]),
    (tf.assert_non_negative, ">=", [0.0, 2.0], [-1.0, 2.0]),
    (tf.assert_non_positive, "<=", [0.0, -2.0], [-1.0, 2.0])])
def test_sign_asserts(fn, sym, good, bad):
    x = tf.placeholder(tf.float32, [2], name="x")
    check = fn(x)
    with tf.Session() as sess:
        sess.run(check, {x: good})
        e = _failure(sess, check, {x: bad})
    assert f"[Condition x {sym} 0 did not hold element-wise:] [x (x:0) = ] [-1 2]" in e.message


def test_rank_type_integer_checks():
    """TF 1.15: ValueError '.  Tensor Const:0 must have rank 2.  Received rank 1, shape (2,)',
    TypeError '  Const:0 must be of type <dtype: 'int32'>', TypeError '  Expected "x" to be
    integer type.  Found: Const:0 of dtype <dtype: 'float32'>'."""
    z = tf.constant([-1.0, 2.0])
    with pytest.raises(ValueError, match="must have rank 2.  Received rank 1"):
        tf.assert_rank(z, 2)
    assert tf.assert_rank(z, 1).type == "NoOp"
    with pytest.raises(TypeError, match="must be of type"):
        tf.assert_type(z, tf.int32)
    with pytest.raises(TypeError, match='Expected "x" to be integer type'):
        tf.assert_integer(z)
    tf.assert_integer(tf.constant([1]))
    p = tf.placeholder(tf.float32)                         # rank known only at run time
    check = tf.assert_rank(p, 2)
    with tf.Session() as sess:
        sess.run(check, {p: np.zeros((2, 2))})
        e = _failure(sess, check, {p: np.zeros(3)})
    assert "must have rank" in e.message


def test_predicates():
    assert tf.debugging.is_numeric_tensor(tf.constant(1.0))
    assert not tf.debugging.is_numeric_tensor(tf.constant("a"))
    assert not tf.is_numeric_tensor(1.0)                  # not a tensor
    with tf.Session() as sess:
        assert sess.run(tf.is_non_decreasing([1, 2, 2])) is np.True_
        assert not sess.run(tf.is_strictly_increasing([1, 2, 2]))
        assert sess.run(tf.is_strictly_increasing([[1, 2], [3, 4]]))
        assert not sess.run(tf.is_non_decreasing([3, 1]))


def test_check_numerics_names_the_op_and_message():
    """TF 1.15: 'bad value : Tensor had NaN values'."""
    x = tf.placeholder(tf.float32, [2])
    y = tf.check_numerics(tf.sqrt(x), "bad value", name="checked")
    with tf.Session() as sess:
        np.testing.assert_allclose(sess.run(y, {x: [4.0, 9.0]}), [2.0, 3.0])
        e = _failure(sess, y, {x: [4.0, -1.0]})
    assert e.message.startswith("bad value : Tensor had NaN values") and e.node_def == "checked"
    assert tf.debugging.check_numerics is tf.check_numerics


def test_add_check_numerics_ops_checks_every_float_tensor():
    x = tf.placeholder(tf.float32, [], name="x")
    y = tf.log(x, name="logx")
    z = y * 2.0
    check = tf.add_check_numerics_ops()
    with tf.Session() as sess:
        assert sess.run([z, check], {x: 1.0})[0] == 0.0
        e = _failure(sess, [z, check], {x: -1.0})
    assert "logx:0" in e.message and "NaN" in e.message


def test_print_passes_its_value_through_and_prints_to_stderr(capfd):
    """TF 1.15: tf.Print(x, [tf.constant(3)], message='hi: ') prints 'hi: [3]'; a 2x2
    [[1.5, 2], [3, 4]] with summarize 3 prints '[[1.5 2][3...]...]', True prints '[1]'."""
    x = tf.constant([1.0, 2.0])
    y = tf.Print(x, [tf.constant(3), tf.constant([[1.5, 2.0], [3.0, 4.0]]), tf.constant(True)],
                 message="hi: ")
    once = tf.Print(x, [x], message="once: ", first_n=1)
    assert y.get_shape().as_list() == [2]
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(y), [1.0, 2.0])
        sess.run(once)
        sess.run(once)
    err = capfd.readouterr().err
    assert "hi: [3][[1.5 2][3...]...][1]\n" in err
    assert err.count("once: [1 2]") == 1
    g = tf.gradients(tf.reduce_sum(y * 3.0), x)[0]
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(g), [3.0, 3.0])


def test_tf_print_prints_when_run(capfd):
    """TF 1.15: tf.print('hello', [1 2 3], tf.range(10), summarize=2) prints
    'hello [1 2 3] [0 1 ... 8 9]'."""
    x = tf.constant([1, 2, 3])
    op = tf.print("hello", x, tf.range(10), summarize=2)
    assert isinstance(op, tf.Operation)
    assert capfd.readouterr().err == ""                   # building prints nothing
    with tf.Session() as sess:
        sess.run(op)
    assert capfd.readouterr().err == "hello [1 2 3] [0 1 ... 8 9]\n"


def test_debugging_namespace_has_tf_names():
    for name in ["Assert", "assert_equal", "assert_none_equal", "assert_less",
                 "assert_less_equal", "assert_greater", "assert_greater_equal",
                 "assert_positive", "assert_negative", "assert_non_negative",
                 "assert_non_positive", "assert_rank", "assert_type", "assert_integer",
                 "is_numeric_tensor", "is_non_decreasing", "is_strictly_increasing",
                 "check_numerics", "assert_all_finite"]:
        assert callable(getattr(tf.debugging, name)), name
    assert tf.debugging.assert_equal is tf.assert_equal
