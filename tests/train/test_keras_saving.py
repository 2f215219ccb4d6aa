"""Saving tf.keras models (sandbox/keras/saving/, models.py, get_config / from_config): the
HDF5 file that TF 1.15's model.save writes, read back by keras.models.load_model, with the
same predictions and optimizer state; layer and model configs in TF's format; and, with
TF_PYTHON set, TensorFlow 2.15.1 loading the sandbox's files and the sandbox loading TF's.

Which configs: the sandbox writes TF 1.15's (the version it mirrors). TF 2.15.1's keras 2.15
differs only by additions: 'module' / 'registered_name' beside each class name, 'groups' in
the convolutions, 'keepdims' in the global poolings, 'ragged' in InputLayer, 'trainable' at
the top of a functional model's config; and its initializers are the v2 ones, whose configs
have no 'dtype' (TF 1.15's v1 initializers have one). The comparisons below drop exactly
those; TF's loaders read either form.
"""
import json
import os
import subprocess
import textwrap

import h5py
import numpy as np
import pytest

import sandbox as tf
from tests.train.keras_fixture import fresh_keras  # noqa: F401 (the fixture)

keras = tf.keras
layers = keras.layers

TF_PYTHON = os.environ.get("TF_PYTHON", "")
needs_tf = pytest.mark.skipif(
    not TF_PYTHON or not os.path.exists(TF_PYTHON),
    reason="set TF_PYTHON to a Python with tensorflow (CI does, in its TensorFlow step) to "
           "check that TensorFlow reads the sandbox's .h5 files and the other way round")

RNG = np.random.RandomState(0)
X3 = RNG.rand(16, 3).astype(np.float32)
Y2 = RNG.rand(16, 2).astype(np.float32)


pytestmark = pytest.mark.usefixtures("fresh_keras")


def _mlp():
    return keras.Sequential([layers.Dense(4, activation="relu", input_shape=(3,)),
                             layers.Dense(2)])


def _two_inputs():
    """Inputs a, b (3 features each) through one shared Dense, concatenated, BatchNorm."""
    a, b = keras.Input((3,), name="a"), keras.Input((3,), name="b")
    shared = layers.Dense(2, activation="tanh", name="shared")
    merged = layers.concatenate([shared(a), shared(b)], name="cat")
    out = layers.Dense(1, name="o")(layers.BatchNormalization(name="bn")(merged))
    return keras.Model([a, b], out, name="twin")


# -- whole models ------------------------------------------------------------------------------

def test_sequential_save_load_keeps_predictions_optimizer_state_and_training(tmp_path,
                                                                           caplog):
    model = _mlp()
    model.compile(keras.optimizers.Adam(0.01), "mse", metrics=["mae"])
    model.fit(X3, Y2, epochs=2, batch_size=8, verbose=0)
    path = str(tmp_path / "my_model.h5")
    model.save(path)

    with h5py.File(path, "r") as f:              # TF 1.15's layout (hdf5_format.py)
        assert f.attrs["keras_version"] == "2.2.4-tf" and f.attrs["backend"] == "tensorflow"
        config = json.loads(f.attrs["model_config"])
        assert config["class_name"] == "Sequential"
        assert [l["class_name"] for l in config["config"]["layers"]] == ["Dense", "Dense"]
        assert config["config"]["layers"][0]["config"]["batch_input_shape"] == [None, 3]
        training = json.loads(f.attrs["training_config"])
        assert training["loss"] == "mse" and training["metrics"] == ["mae"]
        assert training["optimizer_config"] == {"class_name": "Adam", "config": {
            "name": "Adam", "learning_rate": 0.01, "beta_1": 0.9, "beta_2": 0.999,
            "epsilon": 1e-07}}
        group = f["model_weights"]
        assert list(group.attrs["layer_names"]) == ["dense", "dense_1"]
        assert list(group["dense"].attrs["weight_names"]) == ["dense/kernel:0", "dense/bias:0"]
        np.testing.assert_array_equal(group["dense/dense/kernel:0"],
                                      model.layers[0].get_weights()[0])
        names = list(f["optimizer_weights"].attrs["weight_names"])
        assert len(names) == 9                   # iterations, 4 m, 4 v (TF's order)
        assert f["optimizer_weights"][names[0]][()] == 4          # 2 epochs x 2 batches

    # loaded next to the original (same graph): its weights are 'dense_2/...', as in TF
    loaded = keras.models.load_model(path)
    assert [l.name for l in loaded.layers] == ["dense", "dense_1"]
    np.testing.assert_array_equal(loaded.predict(X3), model.predict(X3))
    for ours, theirs in zip(model.optimizer.get_weights(), loaded.optimizer.get_weights()):
        np.testing.assert_array_equal(ours, theirs)
    # training goes on exactly as the original's would (Adam's step count included)
    h1 = model.fit(X3, Y2, epochs=1, batch_size=8, shuffle=False, verbose=0).history
    h2 = loaded.fit(X3, Y2, epochs=1, batch_size=8, shuffle=False, verbose=0).history
    assert h1 == h2 and set(h2) == {"loss", "mean_absolute_error"}
    np.testing.assert_allclose(loaded.predict(X3), model.predict(X3), rtol=1e-6)

    # include_optimizer=False: no training config, so load_model leaves it uncompiled
    model.save(path, include_optimizer=False)
    with h5py.File(path, "r") as f:
        assert "training_config" not in f.attrs and "optimizer_weights" not in f
    bare = keras.models.load_model(path)
    assert "No training configuration found in save file" in caplog.text
    assert bare.optimizer is None
    np.testing.assert_array_equal(bare.predict(X3), model.predict(X3))


def test_functional_config_json_clone_and_save(tmp_path):
    model = _two_inputs()
    config = model.get_config()
    # TF 2.15.1's get_config of the same model, less each layer's own config and the
    # additions of keras 2.15 (module, registered_name, build_config, top-level trainable)
    assert {k: v for k, v in config.items() if k != "layers"} == {
        "name": "twin", "input_layers": [["a", 0, 0], ["b", 0, 0]],
        "output_layers": [["o", 0, 0]]}
    assert [{k: l[k] for k in ("class_name", "name", "inbound_nodes")}
            for l in config["layers"]] == [
        {"class_name": "InputLayer", "name": "a", "inbound_nodes": []},
        {"class_name": "InputLayer", "name": "b", "inbound_nodes": []},
        {"class_name": "Dense", "name": "shared",
         "inbound_nodes": [[["a", 0, 0, {}]], [["b", 0, 0, {}]]]},
        {"class_name": "Concatenate", "name": "cat",
         "inbound_nodes": [[["shared", 0, 0, {}], ["shared", 1, 0, {}]]]},
        {"class_name": "BatchNormalization", "name": "bn",
         "inbound_nodes": [[["cat", 0, 0, {}]]]},
        {"class_name": "Dense", "name": "o", "inbound_nodes": [[["bn", 0, 0, {}]]]}]
    assert config["layers"][0]["config"] == {"batch_input_shape": (None, 3),
                                             "dtype": "float32", "sparse": False, "name": "a"}

    as_json = json.loads(model.to_json())
    assert as_json["class_name"] == "Model" and as_json["keras_version"] == "2.2.4-tf"
    rebuilt = keras.models.model_from_json(model.to_json())
    clone = keras.models.clone_model(model)
    for other in (rebuilt, clone):
        assert other.get_config() == config and other is not model
        assert len(other.weights) == len(model.weights) == 8      # shared once, BN's four
    xs = [X3, X3[::-1].copy()]
    # uncompiled, saved and loaded: the same numbers (BatchNormalization's moving stats too)
    keras.backend.set_value(model.get_layer("bn").moving_mean, np.array([0.5, -0.5, 0.2, 0.0]))
    path = str(tmp_path / "twin.h5")
    model.save(path)
    loaded = keras.models.load_model(path)
    assert loaded.optimizer is None and loaded.input_names == ["a", "b"]
    np.testing.assert_array_equal(loaded.predict(xs), model.predict(xs))

    # a path without an extension is HDF5 as well (TF 1.x's default format), and compile=False
    model.compile("sgd", "mse")
    model.save(str(tmp_path / "no_extension"))
    assert h5py.is_hdf5(str(tmp_path / "no_extension"))
    again = keras.models.load_model(str(tmp_path / "no_extension"), compile=False)
    assert again.optimizer is None
    np.testing.assert_array_equal(again.predict(xs), model.predict(xs))


def test_save_weights_and_load_weights_in_hdf5_by_order_and_by_name(tmp_path):
    model = _mlp()
    model.save_weights(str(tmp_path / "w.h5"))
    model.save_weights(str(tmp_path / "w"), save_format="h5")
    with h5py.File(str(tmp_path / "w.h5"), "r") as f:
        assert list(f.attrs["layer_names"]) == ["dense", "dense_1"]
        assert list(f["dense_1"].attrs["weight_names"]) == ["dense_1/kernel:0",
                                                            "dense_1/bias:0"]
    other = _mlp()
    other.load_weights(str(tmp_path / "w"))          # an HDF5 file, whatever its name
    np.testing.assert_array_equal(other.predict(X3), model.predict(X3))

    # by name: only the layers of the same names, in any order, a layer without weights
    # in the saved model or not
    renamed = keras.Sequential([layers.Dense(4, activation="relu", input_shape=(3,),
                                             name="dense"),
                                layers.Dropout(0.5),
                                layers.Dense(2, name="elsewhere")])
    before = renamed.layers[2].get_weights()
    renamed.load_weights(str(tmp_path / "w.h5"), by_name=True)
    np.testing.assert_array_equal(renamed.layers[0].get_weights()[0],
                                  model.layers[0].get_weights()[0])
    np.testing.assert_array_equal(renamed.layers[2].get_weights()[1], before[1])
    # TF's errors for a file that does not fit
    wider = keras.Sequential([layers.Dense(5, input_shape=(3,), name="dense")])
    with pytest.raises(ValueError, match=r'Layer #0 \(named "dense"\), weight .* has shape '
                                         r"\(3, 5\), but the saved weight has shape \(3, 4\)"):
        wider.load_weights(str(tmp_path / "w.h5"), by_name=True)
    with pytest.raises(ValueError, match="You are trying to load a weight file containing 2 "
                                         "layers into a model with 1 layers"):
        wider.load_weights(str(tmp_path / "w.h5"))
    # a TensorFlow checkpoint still by default for other paths
    model.save_weights(str(tmp_path / "ckpt"))
    assert os.path.exists(str(tmp_path / "ckpt.index"))


# -- layer configs ------------------------------------------------------------------------------

def _tf115(config):
    """A keras 2.15 config as TF 1.15 wrote it (see the module docstring)."""
    if isinstance(config, dict):
        return {k: _tf115(v) for k, v in config.items()
                if k not in ("module", "registered_name", "groups")}
    return config


def _v2_initializers(config):
    """The sandbox's (TF 1.15's) config with the initializers' dtype left out, as TF 2's."""
    return {k: (dict(v, config={a: b for a, b in v["config"].items() if a != "dtype"})
                if k.endswith("_initializer") else v) for k, v in config.items()}


GLOROT = {"module": "keras.initializers", "class_name": "GlorotUniform",
          "config": {"seed": None}, "registered_name": None}
ZEROS = {"module": "keras.initializers", "class_name": "Zeros", "config": {},
         "registered_name": None}
ONES = dict(ZEROS, class_name="Ones")
NO_REGULARIZERS = {"kernel_regularizer": None, "bias_regularizer": None,
                   "activity_regularizer": None, "kernel_constraint": None,
                   "bias_constraint": None}
# TF 2.15.1's tf.keras get_config() of each layer, made the same way
TF_CONFIGS = [
    (lambda: layers.Dense(3), {
        "name": "dense", "trainable": True, "dtype": "float32", "units": 3,
        "activation": "linear", "use_bias": True, "kernel_initializer": GLOROT,
        "bias_initializer": ZEROS, **NO_REGULARIZERS}),
    (lambda: layers.Conv2D(4, 3), {
        "name": "conv2d", "trainable": True, "dtype": "float32", "filters": 4,
        "kernel_size": (3, 3), "strides": (1, 1), "padding": "valid",
        "data_format": "channels_last", "dilation_rate": (1, 1), "groups": 1,
        "activation": "linear", "use_bias": True, "kernel_initializer": GLOROT,
        "bias_initializer": ZEROS, **NO_REGULARIZERS}),
    (lambda: layers.MaxPooling2D(), {
        "name": "max_pooling2d", "trainable": True, "dtype": "float32", "pool_size": (2, 2),
        "padding": "valid", "strides": (2, 2), "data_format": "channels_last"}),
    (lambda: layers.Dropout(0.5), {
        "name": "dropout", "trainable": True, "dtype": "float32", "rate": 0.5,
        "noise_shape": None, "seed": None}),
    (lambda: layers.Embedding(10, 4), {
        "name": "embedding", "trainable": True, "batch_input_shape": (None, None),
        "dtype": "float32", "input_dim": 10, "output_dim": 4,
        "embeddings_initializer": {"module": "keras.initializers",
                                   "class_name": "RandomUniform",
                                   "config": {"minval": -0.05, "maxval": 0.05, "seed": None},
                                   "registered_name": None},
        "embeddings_regularizer": None, "activity_regularizer": None,
        "embeddings_constraint": None, "mask_zero": False, "input_length": None}),
    (lambda: layers.BatchNormalization(), {
        "name": "batch_normalization", "trainable": True, "dtype": "float32", "axis": -1,
        "momentum": 0.99, "epsilon": 0.001, "center": True, "scale": True,
        "beta_initializer": ZEROS, "gamma_initializer": ONES,
        "moving_mean_initializer": ZEROS, "moving_variance_initializer": ONES,
        "beta_regularizer": None, "gamma_regularizer": None, "beta_constraint": None,
        "gamma_constraint": None}),
    (lambda: layers.Concatenate(), {
        "name": "concatenate", "trainable": True, "dtype": "float32", "axis": -1}),
]
# TF 2.15.1's LSTM config keys, in order (its defaults are TF 2's: sigmoid, implementation 2)
TF_LSTM_KEYS = [
    "name", "trainable", "dtype", "return_sequences", "return_state", "go_backwards",
    "stateful", "unroll", "time_major", "units", "activation", "recurrent_activation",
    "use_bias", "kernel_initializer", "recurrent_initializer", "bias_initializer",
    "unit_forget_bias", "kernel_regularizer", "recurrent_regularizer", "bias_regularizer",
    "activity_regularizer", "kernel_constraint", "recurrent_constraint", "bias_constraint",
    "dropout", "recurrent_dropout", "implementation"]


def test_layer_configs_are_tfs_and_make_the_layer_again():
    for make, tf_config in TF_CONFIGS:
        config = make().get_config()
        assert _v2_initializers(config) == _tf115(tf_config), tf_config["name"]
        # TF 1.15's v1 initializers keep their dtype
        if "kernel_initializer" in config:
            assert config["kernel_initializer"] == {
                "class_name": "GlorotUniform", "config": {"seed": None, "dtype": "float32"}}
    lstm = layers.LSTM(3, recurrent_activation="sigmoid", implementation=2)
    assert list(lstm.get_config()) == TF_LSTM_KEYS
    # every layer class: from_config(get_config()) makes a layer of the same config
    # (TF 2.15's extra keys at their defaults are read too)
    every = [layers.Dense(3, activation="relu", kernel_regularizer=keras.regularizers.l2(0.1)),
             layers.Conv1D(4, 3), layers.Conv2D(2, (2, 3), strides=2, padding="same"),
             layers.AveragePooling2D(), layers.MaxPooling1D(), layers.AveragePooling1D(3),
             layers.GlobalAveragePooling1D(), layers.GlobalMaxPooling1D(),
             layers.GlobalAveragePooling2D(), layers.GlobalMaxPooling2D(), layers.Flatten(),
             layers.Activation("softmax"), layers.Reshape((2, -1)), layers.Dropout(0.2),
             layers.Embedding(5, 2, input_length=4, mask_zero=True),
             layers.BatchNormalization(momentum=0.9), layers.SimpleRNN(2),
             layers.LSTM(2, return_sequences=True), layers.GRU(2, reset_after=True),
             layers.Bidirectional(layers.GRU(2), merge_mode="sum"), layers.Add(),
             layers.Subtract(), layers.Multiply(), layers.Average(), layers.Maximum(),
             layers.Minimum(), layers.Concatenate(axis=1),
             layers.InputLayer(input_shape=(3,), name="x"),
             layers.RNN(layers.LSTMCell(2))]
    for layer in every:
        config = layer.get_config()
        again = layers.deserialize({"class_name": type(layer).__name__, "config": config})
        assert type(again) is type(layer) and again.get_config() == config
    assert layers.Dense.from_config({**TF_CONFIGS[0][1], "units": 5}).units == 5
    assert layers.Conv2D.from_config(TF_CONFIGS[1][1]).filters == 4
    # a Lambda keeps its function as bytecode (TF's func_dump), arguments as they are
    scale = layers.Lambda(lambda x, k: x * k, arguments={"k": 3.0})
    again = layers.Lambda.from_config(scale.get_config())
    assert again.get_config()["function_type"] == "lambda" and again.arguments == {"k": 3.0}
    assert again.function(2.0, 3.0) == 6.0


class Doubler(layers.Layer):
    def __init__(self, factor, **kwargs):
        super().__init__(**kwargs)
        self.factor = factor

    def call(self, inputs):
        return inputs * self.factor


class SavableDoubler(Doubler):
    def get_config(self):
        return {**super().get_config(), "factor": self.factor}


def test_custom_layers_need_get_config_and_custom_objects(tmp_path):
    model = keras.Sequential([layers.Dense(2, input_shape=(3,)), Doubler(2.0)])
    with pytest.raises(NotImplementedError,
                       match="Layers with arguments in `__init__` must override `get_config`"):
        model.save(str(tmp_path / "m.h5"))
    keras.backend.clear_session()
    model = keras.Sequential([layers.Dense(2, input_shape=(3,)), SavableDoubler(2.0)])
    model.save(str(tmp_path / "m.h5"))
    with pytest.raises(ValueError, match="Unknown layer: SavableDoubler.*custom_objects"):
        keras.models.load_model(str(tmp_path / "m.h5"))
    loaded = keras.models.load_model(str(tmp_path / "m.h5"),
                                     custom_objects={"SavableDoubler": SavableDoubler})
    assert loaded.layers[1].factor == 2.0
    np.testing.assert_array_equal(loaded.predict(X3), model.predict(X3))
    with pytest.raises(NotImplementedError, match="save_format='tf'"):
        model.save(str(tmp_path / "saved"), save_format="tf")
    with pytest.raises(IOError, match="SavedModel file does not exist"):
        keras.models.load_model(str(tmp_path / "missing"))


# -- TensorFlow reads the sandbox's files, the sandbox reads TensorFlow's ------------------------

_TF_SIDE = textwrap.dedent("""
    import json, sys
    import numpy as np
    import tensorflow as tf
    tf.compat.v1.disable_eager_execution()
    keras = tf.keras
    job = json.loads(sys.argv[1])
    x3 = np.array(job["x3"], np.float32)
    seq = np.array(job["seq"], np.float32)
    out = {}
    for name in ("sandbox_mlp", "sandbox_twin"):
        model = keras.models.load_model(job[name])
        xs = [x3, x3[::-1]] if name == "sandbox_twin" else x3
        out[name] = model.predict(xs).tolist()
        if model.optimizer is not None:
            out[name + "_optimizer"] = [w.tolist() for w in model.optimizer.get_weights()]
    tf.compat.v1.set_random_seed(1)
    mlp = keras.Sequential([keras.layers.Dense(4, activation="relu", input_shape=(3,)),
                            keras.layers.Dense(2, activation="softmax")])
    mlp.compile(keras.optimizers.legacy.Adam(0.01), "categorical_crossentropy",
                metrics=["accuracy"])
    mlp.fit(x3, np.eye(2)[np.arange(16) % 2], epochs=2, batch_size=8, shuffle=False,
            verbose=0)
    mlp.save(job["tf_mlp"])
    out["tf_mlp"] = mlp.predict(x3).tolist()
    out["tf_mlp_optimizer"] = [w.tolist() for w in mlp.optimizer.get_weights()]
    ids = keras.Input((5,), name="ids")
    h = keras.layers.Embedding(7, 3)(ids)
    h = keras.layers.Conv1D(4, 2, activation="relu")(h)
    h = keras.layers.concatenate([keras.layers.LSTM(2)(h), keras.layers.GRU(2)(h),
                                  keras.layers.GlobalMaxPooling1D()(h)])
    rnn = keras.Model(ids, keras.layers.Dense(1)(h))
    rnn.save(job["tf_rnn"])
    out["tf_rnn"] = rnn.predict(seq).tolist()
    print("RESULT" + json.dumps(out))
""")


@needs_tf
def test_tensorflow_reads_the_sandboxs_h5_and_the_sandbox_reads_tensorflows(tmp_path):
    mlp = _mlp()
    mlp.compile("adam", "mse")
    mlp.fit(X3, Y2, epochs=1, batch_size=8, verbose=0)
    mlp.save(str(tmp_path / "sandbox_mlp.h5"))
    twin = _two_inputs()
    keras.backend.set_value(twin.get_layer("bn").moving_variance, np.array([2.0, 0.5, 1.5, 0.7]))
    twin.save(str(tmp_path / "sandbox_twin.h5"))
    seq = RNG.randint(0, 7, size=(4, 5)).astype(np.float32)
    job = {"x3": X3.tolist(), "seq": seq.tolist(),
           **{name: str(tmp_path / (name + ".h5"))
              for name in ("sandbox_mlp", "sandbox_twin", "tf_mlp", "tf_rnn")}}
    proc = subprocess.run([TF_PYTHON, "-c", _TF_SIDE, json.dumps(job)], capture_output=True,
                          text=True, timeout=300,
                          env={**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3"})
    assert proc.returncode == 0, proc.stderr[-3000:]
    theirs = json.loads(proc.stdout.split("RESULT", 1)[1])

    # TF 2.15.1 loads the sandbox's files: the same predictions, the same optimizer state
    np.testing.assert_allclose(theirs["sandbox_mlp"], mlp.predict(X3), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(theirs["sandbox_twin"], twin.predict([X3, X3[::-1].copy()]),
                               rtol=1e-5, atol=1e-6)
    ours = mlp.optimizer.get_weights()
    assert theirs["sandbox_mlp_optimizer"][0] == 2          # iterations
    for value, expected in zip(theirs["sandbox_mlp_optimizer"], ours):
        np.testing.assert_allclose(value, expected, rtol=1e-6)

    # the sandbox loads TF's files and predicts TF's numbers (Embedding, Conv1D, TF 2's LSTM
    # and GRU with reset_after=True, merge layers), and takes TF's Adam state
    loaded = keras.models.load_model(job["tf_mlp"])
    np.testing.assert_allclose(loaded.predict(X3), theirs["tf_mlp"], rtol=1e-5, atol=1e-6)
    assert loaded.metrics_names == ["loss", "acc"]
    for value, expected in zip(loaded.optimizer.get_weights(), theirs["tf_mlp_optimizer"]):
        np.testing.assert_allclose(value, expected, rtol=1e-6)
    rnn = keras.models.load_model(job["tf_rnn"])
    np.testing.assert_allclose(rnn.predict(seq), theirs["tf_rnn"], rtol=1e-5, atol=1e-6)


def test_yaml_round_trip_and_tfs_tuple_tags(monkeypatch):
    """model.to_yaml / keras.models.model_from_yaml (PyYAML): the same config back; the
    config's tuples written as !!python/tuple, as TF 1.15's yaml.dump wrote them; without
    PyYAML, TF's ImportError."""
    from sandbox.keras.saving import model_config
    model = keras.Sequential([keras.layers.Conv2D(2, (3, 3), input_shape=(5, 5, 1)),
                              keras.layers.Flatten(),
                              keras.layers.Dense(
                                  3, kernel_constraint=keras.constraints.max_norm(2.))])
    text = model.to_yaml()
    assert "batch_input_shape: !!python/tuple" in text and "keras_version:" in text
    again = keras.models.model_from_yaml(text)
    assert again.get_config() == model.get_config()
    assert type(again.layers[2].kernel_constraint).__name__ == "MaxNorm"
    monkeypatch.setattr(model_config, "yaml", None)
    with pytest.raises(ImportError, match="Requires yaml module installed"):
        keras.models.model_from_yaml(text)
