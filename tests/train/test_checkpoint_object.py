"""tf.train.Checkpoint and CheckpointManager (train/checkpoint.py): the keys, values and files
below are those TensorFlow 2.15.1 wrote for the same programs in graph mode (tf.compat.v1,
eager off)."""
import os

import numpy as np
import pytest

import sandbox as tf

TF_KEYS = [  # tf.train.list_variables of TF's checkpoint of the first program
    ("_CHECKPOINTABLE_OBJECT_GRAPH", []),
    ("model/d1/bias/.ATTRIBUTES/VARIABLE_VALUE", [3]),
    ("model/d1/bias/.OPTIMIZER_SLOT/optimizer/m/.ATTRIBUTES/VARIABLE_VALUE", [3]),
    ("model/d1/bias/.OPTIMIZER_SLOT/optimizer/v/.ATTRIBUTES/VARIABLE_VALUE", [3]),
    ("model/d1/kernel/.ATTRIBUTES/VARIABLE_VALUE", [4, 3]),
    ("model/d1/kernel/.OPTIMIZER_SLOT/optimizer/m/.ATTRIBUTES/VARIABLE_VALUE", [4, 3]),
    ("model/d1/kernel/.OPTIMIZER_SLOT/optimizer/v/.ATTRIBUTES/VARIABLE_VALUE", [4, 3]),
    ("model/d2/bias/.ATTRIBUTES/VARIABLE_VALUE", [1]),
    ("model/d2/bias/.OPTIMIZER_SLOT/optimizer/m/.ATTRIBUTES/VARIABLE_VALUE", [1]),
    ("model/d2/bias/.OPTIMIZER_SLOT/optimizer/v/.ATTRIBUTES/VARIABLE_VALUE", [1]),
    ("model/d2/kernel/.ATTRIBUTES/VARIABLE_VALUE", [3, 1]),
    ("model/d2/kernel/.OPTIMIZER_SLOT/optimizer/m/.ATTRIBUTES/VARIABLE_VALUE", [3, 1]),
    ("model/d2/kernel/.OPTIMIZER_SLOT/optimizer/v/.ATTRIBUTES/VARIABLE_VALUE", [3, 1]),
    ("optimizer/beta1_power/.ATTRIBUTES/VARIABLE_VALUE", []),
    ("optimizer/beta2_power/.ATTRIBUTES/VARIABLE_VALUE", []),
    ("save_counter/.ATTRIBUTES/VARIABLE_VALUE", []),
    ("step/.ATTRIBUTES/VARIABLE_VALUE", []),
    ("v/.ATTRIBUTES/VARIABLE_VALUE", [2]),
    ("v/.OPTIMIZER_SLOT/optimizer/m/.ATTRIBUTES/VARIABLE_VALUE", [2]),
    ("v/.OPTIMIZER_SLOT/optimizer/v/.ATTRIBUTES/VARIABLE_VALUE", [2]),
]


class Net(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.d1 = tf.keras.layers.Dense(3)
        self.d2 = tf.keras.layers.Dense(1)

    def call(self, x):
        return self.d2(self.d1(x))


@pytest.fixture
def fresh_graph():
    tf.keras.backend.clear_session()
    with tf.Graph().as_default() as graph:
        yield graph
    tf.keras.backend.clear_session()


def test_a_manager_saves_numbered_checkpoints_with_tensorflows_keys(tmp_path, fresh_graph):
    net = Net()
    y = net(tf.ones([2, 4]))
    step = tf.train.get_or_create_global_step()
    v = tf.Variable([1.0, 2.0], name="myvar")
    opt = tf.train.AdamOptimizer(0.1)
    train = opt.minimize(tf.reduce_sum(y) + tf.reduce_sum(v * v), global_step=step)
    ckpt = tf.train.Checkpoint(model=net, optimizer=opt, step=step, v=v, listed=[v])
    manager = tf.train.CheckpointManager(ckpt, str(tmp_path), max_to_keep=2)
    assert manager.latest_checkpoint is None
    status = ckpt.restore(manager.latest_checkpoint)
    with tf.Session() as sess:
        status.initialize_or_restore(sess)
        saved = []
        for _ in range(3):
            sess.run(train)
            with sess.as_default():
                saved.append(manager.save())
        np.testing.assert_allclose(sess.run(v), [0.7015873, 1.7006245], rtol=1e-6)
        other = ckpt.save(str(tmp_path / "other"), session=sess)
    assert saved == [str(tmp_path / f"ckpt-{i}") for i in (1, 2, 3)]
    assert other == str(tmp_path / "other-4")
    assert manager.checkpoints == saved[1:]          # max_to_keep: ckpt-1's files are gone
    assert sorted(os.listdir(tmp_path)) == sorted([
        "checkpoint", "ckpt-2.index", "ckpt-2.data-00000-of-00001", "ckpt-3.index",
        "ckpt-3.data-00000-of-00001", "other-4.index", "other-4.data-00000-of-00001"])
    assert [(name, list(shape)) for name, shape in
            tf.train.list_variables(manager.latest_checkpoint)] == TF_KEYS
    # Checkpoint.save named its file the directory's latest, as TF's does
    again = tf.train.CheckpointManager(ckpt, str(tmp_path), max_to_keep=2)
    assert again.latest_checkpoint == other and again.checkpoints == [other]


def test_restore_matches_objects_not_names(tmp_path, fresh_graph):
    v = tf.Variable([1.0, 2.0], name="myvar")
    step = tf.Variable(5, dtype=tf.int64, name="step")
    ckpt = tf.train.Checkpoint(v=v, step=step)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(v.assign([0.8, 1.8]))
        path = ckpt.save(str(tmp_path / "ckpt"), session=sess)
    with tf.Graph().as_default():
        w = tf.Variable([0.0, 0.0], name="another_name")        # another name: no matter
        extra = tf.Variable(7.0, name="extra")
        restored = tf.train.Checkpoint(v=w, more=extra)
        status = restored.restore(path)
        with tf.Session() as sess:
            status.initialize_or_restore(sess)                   # extra: initialized
            np.testing.assert_allclose(sess.run([w, extra])[0], [0.8, 1.8])
            assert sess.run(extra) == 7.0
            assert int(sess.run(restored.save_counter)) == 1
        with pytest.raises(AssertionError, match="step"):
            status.assert_consumed()                             # 'step' has no object here
        with pytest.raises(AssertionError, match="more"):
            status.assert_existing_objects_matched()             # 'more' is not in the file


def test_functional_models_and_modules_are_keyed_as_tensorflow_keys_them(tmp_path,
                                                                          fresh_graph):
    inputs = tf.keras.Input(shape=(3,))
    hidden = tf.keras.layers.Dense(2)(inputs)
    outputs = tf.keras.layers.BatchNormalization()(tf.keras.layers.Dropout(0.1)(hidden))
    model = tf.keras.Model(inputs, outputs)

    class M(tf.Module):
        def __init__(self):
            super().__init__()
            self.w = tf.Variable(1.0, name="w")
            self.parts = {"b": tf.Variable(2.0, name="b")}

    ckpt = tf.train.Checkpoint(net=model, mod=M())
    with tf.Session() as sess:
        ckpt.restore(None).initialize_or_restore(sess)
        path = ckpt.save(str(tmp_path / "c"), session=sess)
    assert [name for name, _ in tf.train.list_variables(path)] == [
        "_CHECKPOINTABLE_OBJECT_GRAPH", "mod/parts/b/.ATTRIBUTES/VARIABLE_VALUE",
        "mod/w/.ATTRIBUTES/VARIABLE_VALUE", "net/layer_with_weights-0/bias/.ATTRIBUTES/"
        "VARIABLE_VALUE", "net/layer_with_weights-0/kernel/.ATTRIBUTES/VARIABLE_VALUE",
        "net/layer_with_weights-1/beta/.ATTRIBUTES/VARIABLE_VALUE",
        "net/layer_with_weights-1/gamma/.ATTRIBUTES/VARIABLE_VALUE",
        "net/layer_with_weights-1/moving_mean/.ATTRIBUTES/VARIABLE_VALUE",
        "net/layer_with_weights-1/moving_variance/.ATTRIBUTES/VARIABLE_VALUE",
        "save_counter/.ATTRIBUTES/VARIABLE_VALUE"]


def test_checkpoint_errors_say_what_to_do(tmp_path, fresh_graph):
    with pytest.raises(ValueError, match="trackable object"):
        tf.train.Checkpoint(rate=0.1)
    ckpt = tf.train.Checkpoint(v=tf.Variable(1.0))
    with pytest.raises(ValueError, match="session=sess"):
        ckpt.save(str(tmp_path / "c"))
    with pytest.raises(AssertionError, match="No checkpoint"):
        ckpt.restore(None).assert_consumed()
