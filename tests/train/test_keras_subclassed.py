"""Subclassed tf.keras Models and Layers made of layers (keras/engine/subclassed.py and
base_layer.py's tracking), against TensorFlow 2.15.1's v1 keras (tf.compat.v1 with eager
off): every number below was printed by it for the same program."""
import numpy as np
import pytest

import sandbox as tf
from tests.train.keras_fixture import fixed, fresh_keras  # noqa: F401 (a fixture)

pytestmark = pytest.mark.usefixtures("fresh_keras")
keras = tf.keras
L = keras.layers


class Block(L.Layer):
    """A layer made of layers: its weights are theirs (a residual block)."""

    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.d1 = L.Dense(units, activation="relu",
                          kernel_regularizer=keras.regularizers.l2(0.01))
        self.bn = L.BatchNormalization()
        self.d2 = L.Dense(units)

    def call(self, x, training=None):
        return x + self.d2(self.bn(self.d1(x), training=training))


class Net(keras.Model):
    def __init__(self):
        super().__init__()
        self.dense1 = L.Dense(6, activation="tanh")
        self.blocks = [Block(6), Block(6)]           # a list of layers is tracked too
        self.out = L.Dense(3, activation="softmax")

    def call(self, inputs, training=None):
        x = self.dense1(inputs)
        for block in self.blocks:
            x = block(x, training=training)
        return self.out(x)


def _data():
    rng = np.random.RandomState(0)
    return rng.rand(40, 5).astype("float32"), rng.randint(0, 3, 40)


def _set_fixed_weights(model):
    for i, layer in enumerate(model.layers):
        layer.set_weights([np.abs(fixed(w.shape, 10 * i + j)) + 0.5 if "variance" in v.name
                           else fixed(w.shape, 10 * i + j)
                           for j, (v, w) in enumerate(zip(layer.weights, layer.get_weights()))])


def test_a_subclassed_model_trains_as_tensorflow_does():
    x, y = _data()
    model = Net()
    model.build((None, 5))
    _set_fixed_weights(model)
    model.compile(tf.train.GradientDescentOptimizer(0.1), "sparse_categorical_crossentropy")
    assert [type(layer).__name__ for layer in model.layers] == ["Dense", "Block", "Block",
                                                                "Dense"]
    assert [len(layer.weights) for layer in model.layers] == [2, 8, 8, 2]
    # the blocks' batch norms' updates and their regularizers' losses are the model's
    assert (len(model.trainable_weights), len(model.updates), len(model.losses)) == (16, 4, 2)
    assert model.evaluate(x, y, batch_size=40, verbose=0) == pytest.approx(1.2604641914, 1e-5)
    history = model.fit(x, y, epochs=3, batch_size=10, shuffle=False, verbose=0)
    np.testing.assert_allclose(history.history["loss"], [1.242077, 1.189265, 1.181189],
                               rtol=1e-5)
    np.testing.assert_allclose(model.predict(x[:2]), [[0.468844, 0.290427, 0.240729],
                                                      [0.502209, 0.282424, 0.215368]],
                               atol=1e-5)
    np.testing.assert_allclose(model.blocks[0].bn.get_weights()[2][-2:],
                               [-0.434249, -0.358369], atol=1e-5)


def test_the_first_fit_builds_it_with_tensorflows_names(tmp_path, capsys):
    x, y = _data()
    model = Net()
    assert not model.built and model.layers[0].name == "dense"
    with pytest.raises(ValueError, match="not yet been built"):
        model.summary()
    model.compile("sgd", "sparse_categorical_crossentropy", metrics=["accuracy"])
    history = model.fit(x, y, epochs=1, batch_size=20, verbose=0)
    assert sorted(history.history) == ["acc", "loss"]
    assert [t.name for t in model.inputs] == ["input_1:0"]
    assert model.input_names == ["input_1"] and model.output_names == ["output_1"]
    assert [w.name for w in model.weights][:4] == [
        "net/dense/kernel:0", "net/dense/bias:0", "net/block/dense_1/kernel:0",
        "net/block/dense_1/bias:0"]
    model.summary()
    table = capsys.readouterr().out
    assert "block (Block)                multiple                  108" in table
    assert "Total params: 273" in table and "Non-trainable params: 24" in table
    with pytest.raises(NotImplementedError, match="subclassed models"):
        model.save(str(tmp_path / "net.h5"))
    with pytest.raises(NotImplementedError, match="save_weights"):
        model.get_config()
    expected = model.predict(x[:4])
    model.save_weights(str(tmp_path / "w.h5"))
    model.save_weights(str(tmp_path / "ckpt"))
    for path in ("w.h5", "ckpt"):        # by the order of the layers / by the attributes
        again = Net()                    # (a second copy: other variable names)
        again.build((None, 5))
        again.load_weights(str(tmp_path / path))
        np.testing.assert_allclose(again.predict(x[:4]), expected, rtol=1e-6)
    keys = [name for name, _ in tf.train.list_variables(str(tmp_path / "ckpt"))]
    assert keys[:3] == ["_CHECKPOINTABLE_OBJECT_GRAPH",   # TF's keys (its optimizer has
                        "blocks/0/bn/beta/.ATTRIBUTES/VARIABLE_VALUE",  # decay, momentum
                        "blocks/0/bn/gamma/.ATTRIBUTES/VARIABLE_VALUE"]  # too)
    assert keys[-4:] == ["optimizer/iter/.ATTRIBUTES/VARIABLE_VALUE",
                         "optimizer/learning_rate/.ATTRIBUTES/VARIABLE_VALUE",
                         "out/bias/.ATTRIBUTES/VARIABLE_VALUE",
                         "out/kernel/.ATTRIBUTES/VARIABLE_VALUE"]


def test_a_subclassed_model_called_on_an_input_is_a_layer_of_a_functional_model(capsys):
    x, y = _data()
    net = Net()
    inputs = keras.Input(shape=(5,))
    outputs = L.Dense(2, activation="softmax")(net(inputs))
    model = keras.Model(inputs, outputs)
    assert net.inputs == [inputs] and net.built
    assert len(model.trainable_weights) == len(net.trainable_weights) + 2 == 18
    net.summary()
    assert "dense (Dense)                (None, 6)                 36" in capsys.readouterr().out
    before = net.get_weights()
    model.compile("sgd", "sparse_categorical_crossentropy")
    model.fit(x, y % 2, epochs=1, batch_size=20, verbose=0)
    changed = [not np.array_equal(a, b) for a, b in zip(before, net.get_weights())]
    assert all(changed[:2]) and changed[2]        # the inner layers' kernels learned


def test_a_layer_of_layers_in_a_functional_model_learns():
    x, y = _data()
    inputs = keras.Input(shape=(5,))
    block = Block(5)
    model = keras.Model(inputs, L.Dense(3, activation="softmax")(block(inputs)))
    assert [w.name for w in block.trainable_weights] == [
        "block/dense/kernel:0", "block/dense/bias:0", "block/batch_normalization/gamma:0",
        "block/batch_normalization/beta:0", "block/dense_1/kernel:0", "block/dense_1/bias:0"]
    model.compile("sgd", "sparse_categorical_crossentropy")
    kernel = block.d1.get_weights()[0]
    model.fit(x, y, epochs=1, batch_size=20, verbose=0)
    assert not np.array_equal(kernel, block.d1.get_weights()[0])
    assert np.any(block.bn.get_weights()[2] != 0)           # its moving mean moved


def test_keras_model_without_inputs_or_call_says_what_it_needs():
    with pytest.raises(ValueError, match="subclass it and define `call`"):
        keras.Model()
