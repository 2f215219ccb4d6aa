"""DeviceSpec parsing, printing and merging, and device scopes on ops (TF's rules)."""
import pytest

import sandbox as tf
from sandbox.framework.device_spec import DeviceSpec


@pytest.mark.parametrize("text, canonical", [
    ("/job:ps/task:0", "/job:ps/task:0"),
    ("/job:worker/replica:0/task:1/device:GPU:0", "/job:worker/replica:0/task:1/device:GPU:0"),
    ("/cpu:0", "/device:CPU:0"),
    ("/gpu:1", "/device:GPU:1"),
    ("/device:CPU:0", "/device:CPU:0"),
    ("/job:worker/device:GPU:*", "/job:worker/device:GPU:*"),
    ("/GPU:0", "/device:GPU:0"),
    ("", ""),
])
def test_parse_and_print(text, canonical):
    assert DeviceSpec.from_string(text).to_string() == canonical


def test_fields():
    spec = DeviceSpec.from_string("/job:worker/replica:2/task:1/device:GPU:3")
    assert (spec.job, spec.replica, spec.task, spec.device_type, spec.device_index) == \
        ("worker", 2, 1, "GPU", 3)
    assert DeviceSpec(job="ps", task=0).to_string() == "/job:ps/task:0"


@pytest.mark.parametrize("bad", ["/job:ps/tusk:0", "/task:x", "/job:", "/device:CPU",
                                 "/task:-1", "/cpu:0:1"])
def test_malformed_raises_value_error_naming_it(bad):
    with pytest.raises(ValueError, match="Malformed device specification") as info:
        DeviceSpec.from_string(bad)
    assert repr(bad) in str(info.value)


def test_malformed_in_device_scope():
    with pytest.raises(ValueError, match="tusk"):
        with tf.device("/job:ps/tusk:0"):
            pass


def test_merging_inner_wins_field_by_field():
    spec = DeviceSpec.from_string("/job:ps/task:0")
    merged = spec.make_merged_spec(DeviceSpec.from_string("/device:GPU:1"))
    assert merged.to_string() == "/job:ps/task:0/device:GPU:1"
    assert spec.to_string() == "/job:ps/task:0"      # unchanged
    spec.merge_from(DeviceSpec.from_string("/task:3"))
    assert spec.to_string() == "/job:ps/task:3"


def test_nested_device_scopes_merge_as_tf():
    with tf.device("/job:worker/task:1"):
        a = tf.constant(1.0, name="a")
        with tf.device("/gpu:0"):
            b = tf.constant(2.0, name="b")
            with tf.device("/job:ps"):
                c = tf.constant(3.0, name="c")
        with tf.device(None):
            d = tf.constant(4.0, name="d")
    e = tf.constant(5.0, name="e")
    assert a.device == "/job:worker/task:1"
    assert b.device == "/job:worker/task:1/device:GPU:0"
    assert c.device == "/job:ps/task:1/device:GPU:0"
    assert d.device == ""
    assert e.device == ""
    assert a.op.device == a.device


def test_device_function_gets_the_operation():
    seen = []

    def on_type(op):
        seen.append(op.type)
        return "/job:ps/task:0" if op.type == "VariableV2" else "/job:worker/task:0"

    with tf.device(on_type):
        v = tf.Variable(1.0, name="v")
        c = tf.constant(2.0, name="c")
    assert v.op.device == "/job:ps/task:0"
    assert c.device == "/job:worker/task:0"
    assert "VariableV2" in seen and "Const" in seen


def test_device_spec_object_as_scope():
    with tf.device(DeviceSpec(job="ps", task=2)):
        c = tf.constant(1)
    assert c.device == "/job:ps/task:2"


def test_colocate_with_overrides_device_scope():
    with tf.device("/job:ps/task:0"):
        v = tf.Variable(1.0, name="v")
    with tf.device("/job:worker/task:0"):
        with tf.colocate_with(v):
            c = tf.identity(v, name="c")
        d = tf.identity(v, name="d")
    assert c.device == "/job:ps/task:0"
    assert c.op.colocation_groups() == [b"loc:@v"]
    assert d.device == "/job:worker/task:0"
    assert v.value().device == "/job:ps/task:0"      # the read is colocated with v
    assert v.initializer.device == "/job:ps/task:0"


def test_log_device_placement_prints_each_op(capfd):
    a = tf.constant(1.0, name="a")
    b = tf.identity(a, name="b")
    with tf.Session(config=tf.ConfigProto(log_device_placement=True)) as sess:
        sess.run(b)
    err = capfd.readouterr().err
    assert "a: (Const): /job:localhost/replica:0/task:0/device:CPU:0" in err
    assert "b: (Identity): /job:localhost/replica:0/task:0/device:CPU:0" in err


def test_local_session_rejects_missing_device_unless_soft():
    with tf.device("/gpu:0"):
        a = tf.constant(1.0, name="on_gpu")
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match="on_gpu.*available devices"):
            sess.run(a)
    with tf.Session(config=tf.ConfigProto(allow_soft_placement=True)) as sess:
        assert sess.run(a) == 1.0
    with tf.Session(config=tf.ConfigProto(device_count={"GPU": 2})) as sess:
        assert sess.run(a) == 1.0
        assert "/job:localhost/replica:0/task:0/device:GPU:1" in sess.list_devices()


def test_soft_placement_logs_the_device_actually_used(capfd):
    with tf.device("/gpu:3"):
        a = tf.constant(1.0, name="wants_gpu3")
    config = tf.ConfigProto(allow_soft_placement=True, log_device_placement=True,
                            device_count={"GPU": 1})
    with tf.Session(config=config) as sess:
        sess.run(a)
    assert "wants_gpu3: (Const): /job:localhost/replica:0/task:0/device:CPU:0" in \
        capfd.readouterr().err
