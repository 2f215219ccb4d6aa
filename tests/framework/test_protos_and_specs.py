"""TF 1.15's remaining top-level names: the protocol buffers (framework/protos.py), the version
constants (version.py), OpError / NoGradient / UnconnectedGradients / VariableAggregation /
VariableSynchronization / op_scope / variable_op_scope, the type specs (framework/type_spec.py,
ops/tensor_array_spec.py, data/), tf.data.Options and tf.debugging's log_device_placement.

Bytes, reprs, messages and values are TF 2.15.1's (tf.compat.v1) unless said to be TF 1.15's.
"""
import glob
import subprocess
import sys

import numpy as np
import pytest

import sandbox as tf


# -- protocol buffers ----------------------------------------------------------------------

def test_protos_are_the_sandbox_own_classes_and_write_tf_bytes():
    from tensorboardX.proto import event_pb2, graph_pb2, summary_pb2
    from sandbox.framework import saved_model_pb2
    assert tf.Summary is summary_pb2.Summary and tf.Event is event_pb2.Event
    assert tf.GraphDef is graph_pb2.GraphDef and tf.MetaGraphDef is saved_model_pb2.MetaGraphDef
    assert tf.compat.v1.SessionLog is tf.SessionLog
    # TF 2.15.1's bytes for the same messages.
    assert tf.Summary(value=[tf.Summary.Value(tag="loss", simple_value=0.5)]) \
        .SerializeToString() == b"\n\x0b\n\x04loss\x15\x00\x00\x00?"
    assert tf.Event(step=4, session_log=tf.SessionLog(status=tf.SessionLog.START)) \
        .SerializeToString() == b"\x10\x04:\x02\x08\x01"
    assert tf.Event(step=5, log_message=tf.LogMessage(level=tf.LogMessage.WARN, message="hi")) \
        .SerializeToString() == b"\x10\x052\x06\x08\x1e\x12\x02hi"
    assert tf.HistogramProto(min=0, max=1, num=2, sum=1, sum_squares=1, bucket_limit=[0.5, 1],
                             bucket=[1, 1]).SerializeToString() == (
        b"\x11\x00\x00\x00\x00\x00\x00\xf0?\x19\x00\x00\x00\x00\x00\x00\x00@!\x00\x00\x00\x00"
        b"\x00\x00\xf0?)\x00\x00\x00\x00\x00\x00\xf0?2\x10\x00\x00\x00\x00\x00\x00\xe0?\x00"
        b"\x00\x00\x00\x00\x00\xf0?:\x10\x00\x00\x00\x00\x00\x00\xf0?\x00\x00\x00\x00\x00\x00"
        b"\xf0?")
    assert tf.AttrValue(list=tf.AttrValue.ListValue(i=[1, 2])).SerializeToString() == \
        b"\n\x04\x1a\x02\x01\x02"
    assert tf.NameAttrList(name="f", attr={"T": tf.AttrValue(type=1)}).SerializeToString() == \
        b"\n\x01f\x12\x07\n\x01T\x12\x020\x01"
    assert tf.TensorInfo(name="x:0", dtype=1).SerializeToString() == b"\n\x03x:0\x10\x01"
    meta = tf.MetaGraphDef()
    meta.meta_info_def.tags.append("serve")
    meta.signature_def["s"].method_name = "m"
    assert meta.SerializeToString() == b'\n\x07"\x05serve*\x08\n\x01s\x12\x03\x1a\x01m'
    assert tf.SummaryMetadata(display_name="d", plugin_data=tf.SummaryMetadata.PluginData(
        plugin_name="scalars")).SerializeToString() == b"\n\t\n\x07scalars\x12\x01d"
    assert tf.GraphDef(versions={"producer": 134}).SerializeToString() == b'"\x03\x08\x86\x01'
    assert (tf.SessionLog.START, tf.SessionLog.STOP, tf.SessionLog.CHECKPOINT) == (1, 2, 3)
    assert [f.name for f in tf.Summary.Image.DESCRIPTOR.fields] == \
        ["height", "width", "colorspace", "encoded_image_string"]
    with pytest.raises(ValueError, match='Protocol message Summary has no "foo" field'):
        tf.Summary(foo=1)
    with pytest.raises(AttributeError, match="no attribute 'NoSuchProto'"):
        tf.NoSuchProto


def test_hand_made_summary_and_session_log_reach_the_event_file(tmp_path):
    writer = tf.summary.FileWriter(str(tmp_path))
    writer.add_summary(tf.Summary(value=[tf.Summary.Value(tag="loss", simple_value=0.5)]), 3)
    writer.add_session_log(tf.SessionLog(status=tf.SessionLog.START), 4)
    writer.add_event(tf.Event(step=5, log_message=tf.LogMessage(level=tf.LogMessage.INFO,
                                                                 message="hello")))
    writer.close()
    events = list(tf.train.summary_iterator(glob.glob(str(tmp_path / "events.*"))[0]))
    assert events[0].file_version == "brain.Event:2"
    assert (events[1].step, events[1].summary.value[0].tag,
            events[1].summary.value[0].simple_value) == (3, "loss", 0.5)
    assert (events[2].step, events[2].session_log.status) == (4, tf.SessionLog.START)
    assert (events[3].step, events[3].log_message.message) == (5, "hello")


def test_import_sandbox_does_not_load_protobuf():
    code = ("import sys, sandbox as tf; assert 'google.protobuf' not in sys.modules; "
            "tf.Summary; assert 'google.protobuf' in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)


# -- versions, errors, enums, deprecated scopes --------------------------------------------------

def test_version_constants():
    # TF 1.15's graph format (its core/public/version.h and API docs) ...
    assert (tf.GRAPH_DEF_VERSION, tf.GRAPH_DEF_VERSION_MIN_CONSUMER,
            tf.GRAPH_DEF_VERSION_MIN_PRODUCER) == (134, 0, 0)
    assert tf.version.GRAPH_DEF_VERSION == 134
    # ... and the sandbox's own build: no git version, no C++ library.
    assert (tf.GIT_VERSION, tf.CXX11_ABI_FLAG, tf.MONOLITHIC_BUILD) == ("unknown", 0, 0)
    assert isinstance(tf.COMPILER_VERSION, str) and tf.VERSION == tf.__version__


def test_op_error_no_gradient_and_the_enums():
    assert tf.OpError is tf.errors.OpError and issubclass(tf.errors.NotFoundError, tf.OpError)
    assert tf.NoGradient is tf.NotDifferentiable is tf.no_gradient
    assert [m.value for m in tf.UnconnectedGradients] == ["none", "zero"]
    assert repr(tf.UnconnectedGradients.ZERO) == "<UnconnectedGradients.ZERO: 'zero'>"
    with pytest.raises(ValueError, match="'foo' is not a valid UnconnectedGradients"):
        tf.UnconnectedGradients("foo")
    assert list(tf.VariableAggregation.__members__) == \
        ["NONE", "SUM", "MEAN", "ONLY_FIRST_REPLICA", "ONLY_FIRST_TOWER"]
    assert tf.VariableAggregation.ONLY_FIRST_TOWER is tf.VariableAggregation.ONLY_FIRST_REPLICA
    assert [(m.name, m.value) for m in tf.VariableSynchronization] == \
        [("AUTO", 0), ("NONE", 1), ("ON_WRITE", 2), ("ON_READ", 3)]
    assert repr(tf.VariableAggregation.MEAN) == "<VariableAggregation.MEAN: 2>"
    assert tf.VariableAggregation.MEAN != 2


def test_unconnected_gradients_zero():
    x = tf.placeholder(tf.float32, [2, 3], name="x")
    y = tf.placeholder(tf.float32, [2], name="y")
    w = tf.Variable(1.0, name="w")
    z = x * 2.0
    gx, gy = tf.gradients(z, [x, y], unconnected_gradients="zero")
    assert gx.name == "gradients/mul_grad/Mul:0" and gy.name == "zeros_like:0"   # TF's names
    (gy2,) = tf.gradients(z, [y], unconnected_gradients=tf.UnconnectedGradients.ZERO)
    assert gy2.name == "zeros_like_1:0" and gy2.get_shape().as_list() == [2]
    assert tf.gradients(z, [y]) == [None]
    assert tf.gradients(z, [y], unconnected_gradients="none") == [None]
    (gw,) = tf.gradients(z, [w], unconnected_gradients="zero")
    with pytest.raises(ValueError, match="Unknown value for unconnected_gradients: 'foo'"):
        tf.gradients(z, [y], unconnected_gradients="foo")
    with tf.Session() as sess:
        sess.run(w.initializer)
        out = sess.run([gx, gy, gw], {x: np.ones((2, 3)), y: [1.0, 2.0]})
    np.testing.assert_array_equal(out[0], np.full((2, 3), 2.0))
    np.testing.assert_array_equal(out[1], [0.0, 0.0])
    assert out[2] == 0.0


def test_variable_aggregation_and_synchronization():
    v = tf.Variable(1.0, synchronization=tf.VariableSynchronization.ON_READ,
                    aggregation=tf.VariableAggregation.MEAN, name="v")
    assert (v.synchronization, v.aggregation, v.trainable) == \
        (tf.VariableSynchronization.ON_READ, tf.VariableAggregation.MEAN, False)
    assert v not in tf.trainable_variables()
    plain = tf.Variable(1.0, name="plain")
    assert (plain.synchronization, plain.aggregation, plain.trainable) == \
        (tf.VariableSynchronization.AUTO, tf.VariableAggregation.NONE, True)
    gv = tf.get_variable("gv", [1], synchronization=tf.VariableSynchronization.ON_READ,
                         aggregation=tf.VariableAggregation.SUM)
    assert (gv.trainable, gv.synchronization, gv.aggregation) == \
        (False, tf.VariableSynchronization.ON_READ, tf.VariableAggregation.SUM)
    with pytest.raises(ValueError, match="Invalid variable aggregation mode: foo for "
                                         "variable: v3"):
        tf.Variable(1.0, aggregation="foo", name="v3")
    with pytest.raises(ValueError, match="Invalid variable synchronization mode: foo for "
                                         "variable: v4"):
        tf.Variable(1.0, synchronization="foo", name="v4")

    seen = {}

    def getter(getter, *args, **kwargs):       # custom getters are handed both, as in TF
        seen.update(kwargs)
        return getter(*args, **kwargs)

    with tf.variable_scope("s", custom_getter=getter):
        tf.get_variable("c", [1], aggregation=tf.VariableAggregation.MEAN)
    assert seen["aggregation"] is tf.VariableAggregation.MEAN


def test_op_scope_and_variable_op_scope():
    x = tf.constant(1.0)
    with tf.op_scope([x], None, "def") as scope:
        assert scope == "def/"
    with tf.op_scope([x], "myname") as scope:
        assert scope == "myname/"
    with tf.variable_op_scope([x], None, "vdef") as scope:
        assert scope.name == "vdef" and tf.get_variable("a", [1]).name == "vdef/a:0"
    with tf.variable_op_scope([x], "vs") as scope:
        assert (scope.name, tf.get_variable("a", [1]).name, tf.constant(1).name) == \
            ("vs", "vs/a:0", "vs/Const:0")


# -- type specs ------------------------------------------------------------------------------------

def test_tensor_spec():
    spec = tf.TensorSpec([2, None], tf.float32, name="x")
    # TF 1.15 prints unknown dimensions as '?' (TF 2.15.1 with disable_v2_behavior, too).
    assert repr(spec) == "TensorSpec(shape=(2, ?), dtype=tf.float32, name='x')"
    assert repr(tf.TensorSpec(None)) == "TensorSpec(shape=<unknown>, dtype=tf.float32, name=None)"
    assert repr(tf.TensorSpec([3], "int32")) == "TensorSpec(shape=(3,), dtype=tf.int32, name=None)"
    assert (spec.shape.as_list(), spec.dtype, spec.name) == ([2, None], tf.float32, "x")
    t = tf.placeholder(tf.float32, [2, 3], name="xx")
    assert repr(tf.TensorSpec.from_tensor(t)) == \
        "TensorSpec(shape=(2, 3), dtype=tf.float32, name='xx')"
    assert tf.TensorSpec.from_tensor(t, name="n").name == "n"
    assert tf.TensorSpec.from_spec(spec) == spec
    assert tf.TensorSpec.from_spec(spec, name="o").name == "o"
    assert [spec.is_compatible_with(other) for other in (
        tf.TensorSpec([2, 5]), tf.TensorSpec([3, 5]), t, tf.TensorSpec([2, 5], tf.int32))] == \
        [True, False, True, False]
    assert repr(tf.TensorSpec([2, 5]).most_specific_compatible_type(tf.TensorSpec([2, 6]))) == \
        "TensorSpec(shape=(2, ?), dtype=tf.float32, name=None)"
    # TF 1.15's rule: names that differ are dropped (TF 2 refuses them).
    assert spec.most_specific_compatible_type(tf.TensorSpec([2, 5])).name is None
    with pytest.raises(ValueError, match="Types are not compatible"):
        spec.most_specific_compatible_type(tf.TensorSpec([2], tf.int32))
    assert spec == tf.TensorSpec([2, None], tf.float32, "x")
    assert spec != tf.TensorSpec([2, None], tf.float32)
    assert hash(spec) == hash(tf.TensorSpec([2, None], tf.float32, "x"))
    assert spec.value_type is tf.Tensor and isinstance(spec, tf.TypeSpec)
    with pytest.raises(TypeError):
        tf.TensorSpec([2], "foo")
    with pytest.raises(TypeError, match="abstract"):     # TF's TypeSpec is abstract too
        tf.TypeSpec()


def test_composite_specs():
    # TF 2.15.1's reprs in TF-1 mode (tf.disable_v2_behavior(): a TensorShape prints its
    # Dimensions, as TF 1.x's does).
    assert repr(tf.SparseTensorSpec([2, 3], tf.int64)) == \
        "SparseTensorSpec(TensorShape([Dimension(2), Dimension(3)]), tf.int64)"
    assert repr(tf.SparseTensorSpec()) == "SparseTensorSpec(TensorShape(None), tf.float32)"
    assert repr(tf.IndexedSlicesSpec([4, 3], tf.float32)) == \
        ("IndexedSlicesSpec(TensorShape([Dimension(4), Dimension(3)]), tf.float32, tf.int64, "
         "None, TensorShape([Dimension(None)]))")
    assert repr(tf.IndexedSlicesSpec([4, 3], tf.float32, tf.int32, tf.int64, [3])) == \
        ("IndexedSlicesSpec(TensorShape([Dimension(4), Dimension(3)]), tf.float32, tf.int32, "
         "tf.int64, TensorShape([Dimension(3)]))")
    assert repr(tf.TensorArraySpec([2], tf.float32)) == \
        "TensorArraySpec(TensorShape([Dimension(2)]), tf.float32, False, True)"
    assert repr(tf.TensorArraySpec()) == \
        "TensorArraySpec(TensorShape(None), tf.float32, False, True)"
    assert repr(tf.OptionalSpec(tf.TensorSpec([2]))) == \
        "OptionalSpec(TensorSpec(shape=(2,), dtype=tf.float32, name=None),)"
    sparse = tf.SparseTensor([[0, 0]], [1.0], [2, 2])
    assert repr(tf.SparseTensorSpec.from_value(sparse)) == \
        "SparseTensorSpec(TensorShape([Dimension(2), Dimension(2)]), tf.float32)"
    assert tf.SparseTensorSpec([2, None]).is_compatible_with(sparse)
    assert not tf.SparseTensorSpec([3, None]).is_compatible_with(tf.SparseTensorSpec([2, 2]))
    assert tf.SparseTensorSpec([2, 3]).most_specific_compatible_type(
        tf.SparseTensorSpec([2, 4])) == tf.SparseTensorSpec([2, None])
    with pytest.raises(ValueError, match="No TypeSpec is compatible"):
        tf.SparseTensorSpec([2]).most_specific_compatible_type(
            tf.SparseTensorSpec([2], tf.int32))
    assert tf.SparseTensorSpec().value_type is tf.SparseTensor
    assert tf.IndexedSlicesSpec().value_type is tf.IndexedSlices
    ta = tf.TensorArray(tf.float32, size=2, element_shape=[3])
    assert tf.TensorArraySpec.from_value(ta) == tf.TensorArraySpec([3], tf.float32)
    assert tf.TensorArraySpec([None]).is_compatible_with(ta)
    assert not tf.TensorArraySpec([None], dynamic_size=True).is_compatible_with(ta)
    dataset = tf.data.Dataset.range(3)
    assert repr(dataset.element_spec) == "TensorSpec(shape=(), dtype=tf.int64, name=None)"
    assert repr(tf.data.DatasetSpec(tf.TensorSpec([], tf.int64))) == \
        "DatasetSpec(TensorSpec(shape=(), dtype=tf.int64, name=None), TensorShape([]))"
    assert tf.data.DatasetSpec.from_value(dataset) == \
        tf.data.DatasetSpec(tf.TensorSpec([], tf.int64))


def test_data_options():
    options = tf.data.Options()
    assert (options.experimental_deterministic, options.experimental_slack) == (None, None)
    assert type(options.experimental_optimization).__name__ == "OptimizationOptions"
    assert sorted(options.experimental_threading._OPTIONS) == \
        ["max_intra_op_parallelism", "private_threadpool_size"]
    with pytest.raises(AttributeError, match="Cannot set the property foo on Options."):
        options.foo = 1
    with pytest.raises(TypeError, match=r'Property "experimental_slack" must be of type '
                                        r"<class 'bool'>, got: 3 \(type: <class 'int'>\)"):
        options.experimental_slack = 3

    dataset = tf.data.Dataset.range(3)
    assert dataset.options() == tf.data.Options()
    first, second = tf.data.Options(), tf.data.Options()
    first.experimental_deterministic = False
    second.experimental_threading.private_threadpool_size = 4
    piped = dataset.with_options(first).with_options(second).map(lambda v: v * 2)
    assert piped.options().experimental_deterministic is False
    assert piped.options().experimental_threading.private_threadpool_size == 4
    conflicting = tf.data.Options()
    conflicting.experimental_deterministic = True
    with pytest.raises(ValueError, match=r"Cannot merge incompatible values \(False and True\) "
                                         r"of option: experimental_deterministic"):
        dataset.with_options(first).with_options(conflicting)     # TF 1.15's merge rule
    batch = piped.make_one_shot_iterator().get_next()
    with tf.Session() as sess:
        assert [sess.run(batch) for _ in range(3)] == [0, 2, 4]


def test_log_device_placement_setting(capfd):
    assert tf.debugging.get_log_device_placement() is False
    try:
        tf.debugging.set_log_device_placement(True)
        assert tf.debugging.get_log_device_placement() is True
        with tf.Graph().as_default():       # a Session without a config logs (as TF) ...
            c = tf.constant(1.0, name="logged")
            with tf.Session() as sess:
                sess.run(c)
            with tf.Session(config=tf.ConfigProto()) as sess:   # ... one given a config not
                sess.run(tf.constant(2.0, name="quiet"))
        err = capfd.readouterr().err
        assert "logged: (Const): /job:localhost/replica:0/task:0/device:CPU:0" in err
        assert "quiet" not in err
        tf.debugging.set_log_device_placement(0)
        assert tf.debugging.get_log_device_placement() is False
    finally:
        tf.debugging.set_log_device_placement(False)
