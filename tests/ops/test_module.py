"""tf.Module (ops/module.py): the names TensorFlow 2.15.1 printed for the same program in graph
mode (tf.compat.v1, eager off)."""
import pytest

import sandbox as tf


class Dense(tf.Module):
    def __init__(self, n_in, n_out, name=None):
        super().__init__(name=name)
        with self.name_scope:
            self.w = tf.Variable(tf.ones([n_in, n_out]), name="w")
            self.b = tf.Variable(tf.zeros([n_out]), name="b", trainable=False)

    @tf.Module.with_name_scope
    def __call__(self, x):
        return tf.nn.relu(tf.matmul(x, self.w) + self.b)


class MLP(tf.Module):
    def __init__(self):
        super().__init__()
        self.layers = [Dense(4, 3), Dense(3, 2)]
        self.extra = {"z": Dense(2, 2, name="zz")}

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return self.extra["z"](x)


def test_a_module_finds_its_variables_and_submodules_as_tensorflow_does():
    model = MLP()
    y = model(tf.ones([1, 4]))
    assert model.name == "mlp" and y.name == "zz/Relu:0"
    assert [v.name for v in model.variables] == ["zz/b:0", "zz/w:0", "dense/b:0", "dense/w:0",
                                                 "dense_1/b:0", "dense_1/w:0"]
    assert [v.name for v in model.trainable_variables] == ["zz/w:0", "dense/w:0",
                                                           "dense_1/w:0"]
    assert [m.name for m in model.submodules] == ["zz", "dense", "dense"]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        assert sess.run(y).tolist() == [[24.0, 24.0]]
    with pytest.raises(ValueError, match="valid module name"):
        tf.Module(name="bad name")
