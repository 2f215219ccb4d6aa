"""tf.get_variable and tf.variable_scope: naming, sharing (reuse), defaults and TF's errors."""
import math
import re

import numpy as np
import pytest

import sandbox as tf
from sandbox.ops import variable_scope as vs

EXISTS = ("Variable layer1/w already exists, disallowed. Did you mean to set reuse=True or "
          "reuse=tf.AUTO_REUSE in VarScope?")
MISSING = ("Variable layer1/w does not exist, or was not created with tf.get_variable(). Did "
           "you mean to set reuse=tf.AUTO_REUSE in VarScope?")


def init_and_run(fetches):
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return sess.run(fetches)


# -- creating variables -------------------------------------------------------------

def test_get_variable_creates_a_named_variable_in_the_collections():
    with tf.variable_scope("layer1"):
        w = tf.get_variable("w", [3, 4])
    assert isinstance(w, tf.Variable)
    assert w.name == "layer1/w:0" and w.op.name == "layer1/w"
    assert w.get_shape().as_list() == [3, 4] and w.dtype.base_dtype == tf.float32
    assert w in tf.global_variables() and w in tf.trainable_variables()
    assert init_and_run(w).shape == (3, 4)


def test_ops_inside_get_the_scope_name_and_variables_ignore_name_scopes():
    with tf.variable_scope("layer1"):
        c = tf.constant(1.0, name="c")
        inner = tf.identity(c)
    assert c.op.name == "layer1/c" and inner.op.name == "layer1/Identity"
    with tf.name_scope("outer"):
        v = tf.get_variable("v", [1])
        with tf.variable_scope("vs"):
            u = tf.get_variable("u", [1])
            k = tf.constant(0, name="k")
    assert v.op.name == "v" and u.op.name == "vs/u"
    assert k.op.name == "outer/vs/k"


def test_initializer_ops_are_in_the_variable_scope_and_colocated():
    with tf.variable_scope("layer1"):
        w = tf.get_variable("w", [3, 4])
    init = w.initial_value.op
    assert init.name.startswith("layer1/w/Initializer/")
    assert init.get_attr("_class") == [b"loc:@layer1/w"]


def test_variable_creation_ignores_control_dependencies():
    c = tf.constant(1.0)
    with tf.control_dependencies([c]):
        w = tf.get_variable("w", [2])
    assert w.initializer.control_inputs == [] and w.op.control_inputs == []
    assert w.initial_value.op.control_inputs == []


def test_nested_scopes_and_get_variable_scope():
    assert tf.get_variable_scope().name == ""
    with tf.variable_scope("a") as a:
        assert tf.get_variable_scope() is a and a.name == "a"
        assert a.original_name_scope == "a/"
        with tf.variable_scope("b") as b:
            assert b.name == "a/b"
            v = tf.get_variable("v", [])
    assert v.name == "a/b/v:0"
    assert tf.get_variable_scope().name == ""


def test_scope_variable_collections():
    with tf.variable_scope("a") as a:
        x = tf.get_variable("x", [1])
        y = tf.get_variable("y", [1], trainable=False)
    with tf.variable_scope("ab"):
        tf.get_variable("z", [1])
    assert a.global_variables() == [x, y]
    assert a.trainable_variables() == [x]


# -- reuse -------------------------------------------------------------------------

def test_creating_twice_is_an_error_with_tfs_message():
    with tf.variable_scope("layer1"):
        tf.get_variable("w", [2])
    with pytest.raises(ValueError) as info:
        with tf.variable_scope("layer1"):
            tf.get_variable("w", [2])
    assert str(info.value).startswith(EXISTS)
    assert "Originally defined at" in str(info.value)
    assert "test_variable_scope.py" in str(info.value)     # points at the user's code


def test_reuse_of_a_missing_variable_is_an_error_with_tfs_message():
    with pytest.raises(ValueError) as info:
        with tf.variable_scope("layer1", reuse=True):
            tf.get_variable("w", [2])
    assert str(info.value) == MISSING


def test_reuse_true_returns_the_same_variable_and_a_new_name_scope():
    with tf.variable_scope("layer1"):
        w = tf.get_variable("w", [2, 3])
    with tf.variable_scope("layer1", reuse=True):
        w2 = tf.get_variable("w", [2, 3])
        w3 = tf.get_variable("w")                 # shape may be omitted on reuse
        c = tf.constant(0.0, name="c")
    assert w2 is w and w3 is w
    assert c.op.name == "layer1_1/c"
    assert len(tf.global_variables()) == 1


def test_auto_reuse_creates_then_reuses():
    def layer():
        with tf.variable_scope("layer1", reuse=tf.AUTO_REUSE):
            return tf.get_variable("w", [2])
    a, b = layer(), layer()
    assert a is b and len(tf.global_variables()) == 1


def test_reuse_is_inherited_and_cannot_be_turned_off():
    with tf.variable_scope("a"):
        v = tf.get_variable("inner/v", [1])
    with tf.variable_scope("a", reuse=True) as s:
        assert s.reuse is True
        with tf.variable_scope("inner") as inner:
            assert inner.reuse is True
            assert tf.get_variable("v", [1]) is v
        with tf.variable_scope("inner", reuse=False):
            assert tf.get_variable_scope().reuse is True
            assert tf.get_variable("v") is v
    with tf.variable_scope("b", reuse=tf.AUTO_REUSE):
        with tf.variable_scope("c") as c:
            assert c.reuse is tf.AUTO_REUSE


def test_reuse_variables():
    with tf.variable_scope("model") as scope:
        w = tf.get_variable("w", [2])
        scope.reuse_variables()
        assert tf.get_variable("w", [2]) is w
        with tf.variable_scope("sub"):
            assert tf.get_variable_scope().reuse is True
    tf.get_variable_scope().reuse_variables()
    assert tf.get_variable_scope().reuse is True
    with pytest.raises(ValueError, match="does not exist"):
        tf.get_variable("fresh", [1])


def test_reentering_a_scope_object():
    with tf.variable_scope("layer1") as scope:
        w = tf.get_variable("w", [2])
    with tf.variable_scope(scope, reuse=True) as again:
        assert again.name == "layer1" and again.original_name_scope == "layer1/"
        assert tf.get_variable("w", [2]) is w
        c = tf.constant(0, name="c")
    assert c.op.name == "layer1_1/c"
    with pytest.raises(ValueError, match=re.escape(EXISTS)):
        with tf.variable_scope(scope):               # the object's reuse (False) is kept
            tf.get_variable("w", [2])
    with tf.variable_scope("other"):
        with tf.variable_scope(scope) as jumped:     # jumps out of 'other'
            assert jumped.name == "layer1"
            b = tf.get_variable("b", [1])
    assert b.name == "layer1/b:0"


def test_shape_and_dtype_mismatch_on_reuse():
    with tf.variable_scope("layer1"):
        tf.get_variable("w", [2, 3])
    with tf.variable_scope("layer1", reuse=True):
        with pytest.raises(ValueError, match=re.escape(
                "Trying to share variable layer1/w, but specified shape (3, 2) and found "
                "shape (2, 3).")):
            tf.get_variable("w", [3, 2])
        with pytest.raises(ValueError, match="Trying to share variable layer1/w, but "
                                             "specified dtype float64 and found dtype float32"):
            tf.get_variable("w", [2, 3], dtype=tf.float64)


# -- default scope names ----------------------------------------------------------------

def test_default_name_is_made_unique():
    names = []
    for _ in range(3):
        with tf.variable_scope(None, default_name="dense") as s:
            names.append(s.name)
            tf.get_variable("kernel", [1])
    assert names == ["dense", "dense_1", "dense_2"]
    with tf.variable_scope("outer"):
        with tf.variable_scope(None, default_name="dense") as s:
            assert s.name == "outer/dense"


def test_variable_scope_argument_errors():
    with pytest.raises(TypeError, match="If default_name is None then name_or_scope is required"):
        tf.variable_scope(None)
    with pytest.raises(ValueError, match="reuse=True cannot be used without a name_or_scope"):
        with tf.variable_scope(None, default_name="d", reuse=True):
            pass
    with pytest.raises(ValueError, match="The reuse parameter must be True or False or None."):
        tf.variable_scope("a", reuse="yes")
    with pytest.raises(TypeError, match="name_or_scope must be a string or VariableScope"):
        with tf.variable_scope(3):
            pass
    with pytest.raises(TypeError, match="auxiliary_name_scope"):
        tf.variable_scope("a", auxiliary_name_scope=1)
    assert tf.get_variable_scope().name == ""          # failed entries left nothing open


def test_auxiliary_name_scope_false_keeps_the_name_scope():
    with tf.name_scope("ns"):
        with tf.variable_scope("vs", auxiliary_name_scope=False) as s:
            c = tf.constant(0, name="c")
            v = tf.get_variable("v", [1])
    assert c.op.name == "ns/c" and v.op.name == "vs/v" and s.original_name_scope == "ns/"


def test_improper_nesting_is_detected():
    a, b = tf.variable_scope("a"), tf.variable_scope("b")
    a.__enter__()
    b.__enter__()
    with pytest.raises(RuntimeError, match="Improper nesting of variable_scope."):
        a.__exit__(None, None, None)
    b.__exit__(None, None, None)          # leaves the graph stack clean for the next test


# -- defaults: initializer, dtype, regularizer ---------------------------------------------

def test_default_initializer_is_glorot_uniform_for_floats():
    w = tf.get_variable("w", [30, 70])
    v = init_and_run(w)
    limit = math.sqrt(6 / (30 + 70))
    assert np.abs(v).max() <= limit and np.abs(v).max() > 0.9 * limit
    assert "random_uniform" in w.initial_value.op.name


@pytest.mark.parametrize("dtype", [tf.int32, tf.int64, tf.bool])
def test_default_initializer_is_zeros_for_ints_and_bools(dtype):
    v = tf.get_variable("v", [3], dtype=dtype)
    assert v.dtype.base_dtype == dtype
    np.testing.assert_array_equal(init_and_run(v), np.zeros(3, dtype.as_numpy_dtype))


def test_scope_defaults_are_inherited():
    with tf.variable_scope("a", initializer=tf.constant_initializer(3.0), dtype=tf.float64):
        x = tf.get_variable("x", [2])
        with tf.variable_scope("b"):
            y = tf.get_variable("y", [2])
            z = tf.get_variable("z", [2], initializer=tf.zeros_initializer())
    assert x.dtype.base_dtype == tf.float64 and y.dtype.base_dtype == tf.float64
    vx, vy, vz = init_and_run([x, y, z])
    np.testing.assert_array_equal(vx, [3.0, 3.0])
    np.testing.assert_array_equal(vy, [3.0, 3.0])
    np.testing.assert_array_equal(vz, [0.0, 0.0])


def test_initializer_forms():
    a = tf.get_variable("a", initializer=tf.constant([[1, 2], [3, 4]]))      # a tensor
    b = tf.get_variable("b", initializer=np.array([1.5, 2.5], np.float32))    # a value
    c = tf.get_variable("c", [2], initializer=tf.ones_initializer)            # a class
    d = tf.get_variable("d", initializer=lambda: tf.constant([7.0]))          # no-arg fn
    e = tf.get_variable("e", [2, 2], initializer=tf.random_normal_initializer(seed=1))
    assert a.dtype.base_dtype == tf.int32 and a.get_shape().as_list() == [2, 2]
    va, vb, vc, vd, ve = init_and_run([a, b, c, d, e])
    np.testing.assert_array_equal(va, [[1, 2], [3, 4]])
    np.testing.assert_array_equal(vb, [1.5, 2.5])
    np.testing.assert_array_equal(vc, [1.0, 1.0])
    np.testing.assert_array_equal(vd, [7.0])
    assert ve.shape == (2, 2) and ve.dtype == np.float32


def test_initializer_errors():
    with pytest.raises(ValueError, match="If initializer is a constant, do not specify shape."):
        tf.get_variable("a", [2], initializer=np.zeros(2, np.float32))
    with pytest.raises(ValueError, match="The initializer passed is not valid"):
        tf.get_variable("b", initializer=tf.zeros_initializer())      # needs a shape
    with pytest.raises(ValueError, match="Initializer type 'int32' and explicit dtype "
                                         "'float32' don't match."):
        tf.get_variable("c", initializer=tf.constant([1, 2]), dtype=tf.float32)
    with pytest.raises(ValueError, match="The initializer passed is not valid"):
        tf.get_variable("d", [None, 3])                 # glorot needs a full shape
    assert tf.global_variables() == []


def test_regularizer_losses_are_collected():
    def l2(v):
        return tf.reduce_sum(v * v)

    with tf.variable_scope("layer1", regularizer=l2):
        w = tf.get_variable("w", [2], initializer=tf.constant_initializer(3.0))
        b = tf.get_variable("b", [2], regularizer=vs.no_regularizer)
    with tf.variable_scope("layer1", reuse=True):
        tf.get_variable("w", [2])              # reuse adds no second loss
    losses = tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)
    assert len(losses) == 1
    assert losses[0].op.name.startswith("layer1/w/Regularizer/")
    assert b not in [v for v in losses]
    got = init_and_run(losses[0])
    assert got == 18.0


def test_trainable_collections_and_local_variables():
    t = tf.get_variable("t", [1], trainable=False)
    c = tf.get_variable("c", [1], collections=["mine"])
    loc = tf.get_local_variable("loc", [1])
    assert t in tf.global_variables() and t not in tf.trainable_variables()
    assert tf.get_collection("mine") == [c] and c not in tf.global_variables()
    assert c in tf.trainable_variables()
    assert tf.local_variables() == [loc] and loc not in tf.trainable_variables()
    assert loc not in tf.global_variables()


def test_device_scope_applies():
    with tf.device("/job:ps/task:0"):
        w = tf.get_variable("w", [2])
    assert w.device == "/job:ps/task:0"
    assert w.initial_value.op.get_attr("_class") == [b"loc:@w"]    # placed with w


def test_caching_device_is_inherited():
    with tf.variable_scope("s", caching_device="/job:worker/task:1"):
        w = tf.get_variable("w", [2])
    assert w.value().device == "/job:worker/task:1" and w.device == ""


# -- custom getters ------------------------------------------------------------------------

def test_custom_getters_wrap_and_compose():
    calls = []

    def outer(getter, name, *args, **kwargs):
        calls.append(("outer", name))
        return getter(name, *args, **kwargs)

    def inner(getter, name, *args, **kwargs):
        calls.append(("inner", name))
        kwargs["trainable"] = False
        return getter(name, *args, **kwargs)

    with tf.variable_scope("a", custom_getter=outer):
        with tf.variable_scope("b", custom_getter=inner):
            v = tf.get_variable("v", [1])
    assert calls == [("inner", "a/b/v"), ("outer", "a/b/v")]
    assert v.name == "a/b/v:0" and v not in tf.trainable_variables()
    with pytest.raises(ValueError, match="custom_getter which is not callable"):
        tf.get_variable("x", [1], custom_getter=3)


# -- the stores live in the graph ---------------------------------------------------------

def test_each_graph_has_its_own_store_and_scope():
    g1, g2 = tf.Graph(), tf.Graph()
    with g1.as_default():
        with tf.variable_scope("layer1"):
            a = tf.get_variable("w", [1])
        tf.get_variable_scope().reuse_variables()
    with g2.as_default():
        assert tf.get_variable_scope().reuse is False
        with tf.variable_scope("layer1"):
            b = tf.get_variable("w", [1])
    assert a is not b and a.graph is g1 and b.graph is g2
    assert len(g1.get_collection(vs._VARSTORE_KEY)) == 1


def test_variable_scope_uses_the_graph_of_values():
    g = tf.Graph()
    with g.as_default():
        x = tf.constant(1.0)
    with tf.variable_scope("s", values=[x]):
        assert tf.get_default_graph() is g
        v = tf.get_variable("v", [1])
    assert v.graph is g


def test_reset_default_graph_clears_the_store():
    with tf.variable_scope("layer1"):
        tf.get_variable("w", [1])
    tf.reset_default_graph()
    with tf.variable_scope("layer1"):
        assert tf.get_variable("w", [1]).name == "layer1/w:0"


def test_shared_layer_uses_one_variable_in_both_branches():
    def layer(x):
        with tf.variable_scope("shared", reuse=tf.AUTO_REUSE):
            w = tf.get_variable("w", [2], initializer=tf.constant_initializer([1.0, 2.0]))
            return w * x

    a, b = layer(tf.constant([1.0, 1.0])), layer(tf.constant([3.0, 3.0]))
    va, vb = init_and_run([a, b])
    np.testing.assert_array_equal(va, [1.0, 2.0])
    np.testing.assert_array_equal(vb, [3.0, 6.0])
    assert len(tf.trainable_variables()) == 1


def test_a_loop_body_reuses_a_variable_of_the_graph_around_it():
    # TF 1.15: get_variable(reuse=True) inside a tf.while_loop body finds the outer variable
    # (the seq2seq decoders count on it); a new one still cannot be born there
    v = tf.get_variable("v", [], initializer=tf.ones_initializer())

    def body(i, x):
        with tf.variable_scope("", reuse=True):
            w = tf.get_variable("v", [])
        assert w is v
        return i + 1, x + w

    out = tf.while_loop(lambda i, x: i < 3, body, [0, 0.0])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        assert sess.run(out)[1] == 3.0

    def fresh(i, x):
        return i + 1, x + tf.get_variable("fresh", [])

    with pytest.raises(ValueError, match="^Variable 'fresh' is created inside the function of "
                                         "a tf.cond / tf.while_loop"):
        tf.while_loop(lambda i, x: i < 3, fresh, [0, 0.0])
