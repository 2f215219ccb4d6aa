"""tf.keras (sandbox/keras/): graph-mode Keras as TF 1.15 runs it -- Sequential and functional
models trained by fit in the sandbox's graph and Session, with TF's names, history keys,
summary() counts and error messages (checked against TensorFlow's tf.compat.v1.keras)."""
import os

import numpy as np
import pytest

import sandbox as tf
from tests.train.keras_fixture import fresh_keras  # noqa: F401 (the fixture)

keras = tf.keras


pytestmark = pytest.mark.usefixtures("fresh_keras")


def blobs(n=300, seed=0):
    """Three well separated clusters in 4-D: labels 0, 1, 2."""
    rng = np.random.RandomState(seed)
    y = np.arange(n) % 3
    centers = np.array([[2, 0, 0, 0], [0, 2, 0, 0], [0, 0, 2, 0]], dtype=np.float32)
    x = centers[y] + 0.3 * rng.randn(n, 4).astype(np.float32)
    return x.astype(np.float32), y


def mlp(dropout=0.0):
    return keras.Sequential([
        keras.layers.Dense(16, activation="relu", input_shape=(4,)),
        keras.layers.Dropout(dropout),
        keras.layers.Dense(3, activation="softmax")])


def test_sequential_mlp_learns_with_tf_history_keys(capsys):
    x, y = blobs()
    model = mlp(dropout=0.2)
    model.compile(optimizer=keras.optimizers.Adam(learning_rate=0.05),
                  loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    history = model.fit(x, y, batch_size=32, epochs=4, verbose=1, validation_split=0.2)
    # TF 1.15 (and 2.15 with v2 behaviour disabled) names 'accuracy' 'acc' in graph mode
    assert sorted(history.history) == ["acc", "loss", "val_acc", "val_loss"]
    assert history.epoch == [0, 1, 2, 3]
    assert history is model.history and history.params["samples"] == 240
    losses = history.history["loss"]
    assert losses[-1] < losses[0]
    assert history.history["acc"][-1] >= 0.95 and history.history["val_acc"][-1] >= 0.95
    out = capsys.readouterr().out
    assert "Train on 240 samples, validate on 60 samples" in out
    assert "Epoch 4/4" in out and "240/240 [====" in out and " - val_acc: " in out
    loss, acc = model.evaluate(x, y, batch_size=64, verbose=0)
    assert model.metrics_names == ["loss", "acc"] and acc >= 0.95 and loss < losses[0]
    probs = model.predict(x[:10], batch_size=4)
    assert probs.shape == (10, 3) and np.allclose(probs.sum(axis=1), 1, atol=1e-5)


def test_variable_names_layer_names_and_weights():
    model = mlp()
    assert model.name == "sequential"
    assert [layer.name for layer in model.layers] == ["dense", "dropout", "dense_1"]
    assert [v.name for v in model.weights] == ["dense/kernel:0", "dense/bias:0",
                                               "dense_1/kernel:0", "dense_1/bias:0"]
    assert model.inputs[0].name == "dense_input:0"
    assert [v.name for v in model.layers[0].trainable_weights] == ["dense/kernel:0",
                                                                   "dense/bias:0"]
    assert keras.Sequential().name == "sequential_1"
    weights = model.get_weights()
    assert [w.shape for w in weights] == [(4, 16), (16,), (16, 3), (3,)]
    model.set_weights([np.ones_like(w) for w in weights])
    assert all((w == 1).all() for w in model.get_weights())
    with pytest.raises(ValueError, match="expecting 2 weights"):
        model.layers[0].set_weights([np.ones((4, 16))])


def test_summary_matches_tf_counts():
    lines = []
    mlp().summary(print_fn=lines.append)
    text = "\n".join(lines)
    assert lines[0] == 'Model: "sequential"'
    assert "Layer (type)                 Output Shape              Param #" in text
    for row in ("dense (Dense)                (None, 16)                80",
                "dropout (Dropout)            (None, 16)                0",
                "dense_1 (Dense)              (None, 3)                 51"):
        assert row in text
    assert "Total params: 131" in text and "Non-trainable params: 0" in text


def test_functional_model_binary_crossentropy():
    inputs = keras.Input(shape=(4,))
    hidden = keras.layers.Dense(8, activation="relu")(inputs)
    model = keras.Model(inputs, keras.layers.Dense(1, activation="sigmoid")(hidden))
    assert inputs.name == "input_1:0" and model.name == "model"
    assert [layer.name for layer in model.layers] == ["input_1", "dense", "dense_1"]
    lines = []
    model.summary(print_fn=lines.append)
    assert any(line.startswith("input_1 (InputLayer)         [(None, 4)]               0")
               for line in lines)
    assert "Total params: 49" in lines                         # TF: 40 + 9
    rng = np.random.RandomState(1)
    x = rng.rand(200, 4).astype(np.float32)
    y = (x[:, 0] > x[:, 1]).astype(np.float32)
    model.compile(keras.optimizers.SGD(lr=0.5, momentum=0.9), "binary_crossentropy",
                  metrics=["acc"])
    assert tf.get_default_graph().get_tensor_by_name("dense_1_target:0") is model.targets[0]
    history = model.fit(x, y, epochs=8, verbose=0)
    assert history.history["acc"][-1] >= 0.9


@pytest.mark.parametrize("optimizer", ["sgd", "adam", "rmsprop", "adagrad"])
def test_string_optimizers_and_losses_step(optimizer):
    x, y = blobs(60)
    model = mlp()
    model.compile(optimizer, "categorical_crossentropy", metrics=["mae"])
    history = model.fit(x, keras.utils.to_categorical(y, 3), epochs=2, verbose=0)
    assert sorted(history.history) == ["loss", "mean_absolute_error"]
    assert history.history["loss"][1] < history.history["loss"][0]


def test_object_and_tf_train_optimizers_and_loss_objects():
    x, y = blobs(90)
    onehot = keras.utils.to_categorical(y)
    model = mlp()
    model.compile(tf.train.GradientDescentOptimizer(0.5),
                  keras.losses.SparseCategoricalCrossentropy(), metrics=["accuracy"])
    first = model.evaluate(x, y, verbose=0)[0]
    model.fit(x, y, epochs=3, verbose=0)
    assert model.evaluate(x, y, verbose=0)[0] < first
    for loss in ("mse", "mae", keras.losses.mean_squared_error):
        model.compile(keras.optimizers.RMSprop(0.01), loss)
        before = model.evaluate(x, onehot, verbose=0)
        assert isinstance(before, float)
        model.fit(x, onehot, epochs=2, verbose=0)
        assert model.evaluate(x, onehot, verbose=0) < before


def test_dropout_obeys_the_learning_phase():
    x, _ = blobs(40)
    model = mlp(dropout=0.5)
    model.compile("sgd", "sparse_categorical_crossentropy")
    assert np.array_equal(model.predict(x), model.predict(x))    # learning phase 0
    sess = keras.backend.get_session()
    phase = keras.backend.learning_phase()
    assert phase.name == "keras_learning_phase:0"
    hidden = model.layers[1].output
    feed = {model.inputs[0]: x, phase: True}
    dropped = sess.run(hidden, feed)
    assert (dropped == 0).mean() > 0.5                  # relu zeros + half dropped
    assert not np.array_equal(dropped, sess.run(hidden, feed))


def test_conv2d_maxpooling_flatten_dense():
    model = keras.Sequential([
        keras.layers.Conv2D(4, 3, activation="relu", input_shape=(8, 8, 1)),
        keras.layers.MaxPooling2D(),
        keras.layers.Flatten(),
        keras.layers.Dense(2, activation="softmax")])
    assert [layer.output_shape for layer in model.layers] == [
        (None, 6, 6, 4), (None, 3, 3, 4), (None, 36), (None, 2)]
    assert [layer.count_params() for layer in model.layers] == [40, 0, 0, 74]   # TF's
    assert [v.name for v in model.weights][:2] == ["conv2d/kernel:0", "conv2d/bias:0"]
    rng = np.random.RandomState(0)
    x = rng.rand(64, 8, 8, 1).astype(np.float32)
    y = (x[:, :4].mean(axis=(1, 2, 3)) > x[:, 4:].mean(axis=(1, 2, 3))).astype(int)
    model.compile(keras.optimizers.Adam(0.01), "sparse_categorical_crossentropy",
                  metrics=["accuracy"])
    history = model.fit(x, y, batch_size=16, epochs=3, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]
    assert model.predict(x[:5]).shape == (5, 2)
    pooled = keras.Sequential([keras.layers.AveragePooling2D(input_shape=(4, 4, 1))])
    assert pooled.predict(np.arange(16.0).reshape(1, 4, 4, 1))[0, :, :, 0].tolist() == [
        [2.5, 4.5], [10.5, 12.5]]


def test_sequential_without_input_shape_builds_on_fit_and_other_layers():
    model = keras.Sequential()
    model.add(keras.layers.Reshape((2, 2)))
    model.add(keras.layers.Flatten())
    model.add(keras.layers.Lambda(lambda t: 2.0 * t))
    model.add(keras.layers.Dense(3))
    model.add(keras.layers.Activation("softmax"))
    with pytest.raises(ValueError, match="has not yet been built"):
        model.summary()
    x, y = blobs(30)
    model.compile("adam", "sparse_categorical_crossentropy", metrics=["acc"])
    model.fit(x, y, epochs=1, verbose=0)
    assert model.built and model.predict(x).shape == (30, 3)
    assert model.layers[0].output_shape == (None, 2, 2)


def test_clear_errors():
    model = mlp()
    x, y = blobs(12)
    with pytest.raises(RuntimeError, match=r"^You must compile your model before "
                       r"training/testing. Use `model.compile\(optimizer, loss\)`.$"):
        model.fit(x, y)
    with pytest.raises(RuntimeError, match="You must compile"):
        model.evaluate(x, y)
    model.compile("sgd", "categorical_crossentropy")
    with pytest.raises(ValueError, match=r"expected dense_input to have shape \(4,\) but got "
                       r"array with shape \(5,\)"):
        model.predict(np.zeros((3, 5)))
    with pytest.raises(ValueError, match="Found 12 input samples and 11 target samples"):
        model.fit(x, keras.utils.to_categorical(y)[:11])
    with pytest.raises(ValueError, match=r"A target array with shape \(12, 1\) was passed for "
                       r"an output of shape \(None, 3\) while using as loss "
                       "`categorical_crossentropy`"):
        model.fit(x, y)
    with pytest.raises(ValueError, match="Could not interpret optimizer"):
        model.compile("nope", "mse")
    with pytest.raises(ValueError, match="Unknown loss function"):
        model.compile("sgd", "nope")


def test_callbacks_early_stopping_and_weights_checkpoint(tmp_path):
    x, y = blobs(60)
    model = mlp()
    model.compile(keras.optimizers.SGD(0.0), "sparse_categorical_crossentropy")
    seen = []
    history = model.fit(x, y, epochs=10, verbose=0, validation_data=(x, y), callbacks=[
        keras.callbacks.EarlyStopping(monitor="val_loss", patience=1),
        keras.callbacks.LambdaCallback(on_epoch_end=lambda epoch, logs: seen.append(epoch))])
    assert history.epoch == [0, 1] and seen == [0, 1]          # no progress: stops early
    model.compile(keras.optimizers.SGD(0.5), "sparse_categorical_crossentropy")
    model.fit(x, y, epochs=2, verbose=0, validation_data=(x, y), callbacks=[
        keras.callbacks.ModelCheckpoint(str(tmp_path / "w-{epoch:02d}"), save_best_only=True)])
    assert (tmp_path / "w-01.index").exists() and (tmp_path / "w-02.index").exists()
    saved = model.get_weights()
    model.save_weights(str(tmp_path / "ckpt"))
    model.set_weights([np.zeros_like(w) for w in saved])
    model.load_weights(str(tmp_path / "ckpt"))
    assert all(np.array_equal(a, b) for a, b in zip(saved, model.get_weights()))


def test_backend_and_utils():
    K = keras.backend
    assert (K.floatx(), K.epsilon(), K.image_data_format()) == ("float32", 1e-7,
                                                               "channels_last")
    v = K.variable(np.ones((2, 3)), name="v")
    assert v.name == "v:0" and K.get_value(v).sum() == 6
    K.set_value(v, np.full((2, 3), 2.0))
    assert K.eval(v).sum() == 12
    p = K.placeholder(shape=(None, 3))
    assert K.int_shape(p) == (None, 3) and K.get_session().graph is tf.get_default_graph()
    assert keras.utils.to_categorical([0, 2, 1]).tolist() == [[1, 0, 0], [0, 0, 1], [0, 1, 0]]
    assert keras.utils.to_categorical(np.array([[1], [0]]), 3).shape == (2, 3)
    K.clear_session()
    assert keras.layers.Dense(1).name == "dense"


def test_mnist_load_data_from_idx_files():
    from conftest import MNIST_DIR
    if not (MNIST_DIR / "train-images-idx3-ubyte.gz").exists():
        pytest.skip("full MNIST not available")
    (x_train, y_train), (x_test, y_test) = keras.datasets.mnist.load_data(path=str(MNIST_DIR))
    assert x_train.shape == (60000, 28, 28) and x_test.shape == (10000, 28, 28)
    assert x_train.dtype == y_train.dtype == np.uint8 and y_test.shape == (10000,)
    assert set(np.unique(y_train)) == set(range(10))
    with pytest.raises(FileNotFoundError, match="does not download"):
        keras.datasets.mnist.load_data(path=os.path.join(str(MNIST_DIR), "missing.npz"))


def test_model_on_a_cluster_puts_its_variables_on_the_ps(local_cluster):
    cluster = local_cluster(ps=1, worker=1)
    with tf.device(tf.train.replica_device_setter(ps_tasks=1, worker_device="/job:worker/task:0")):
        model = mlp()
        model.compile(keras.optimizers.Adam(0.05), "sparse_categorical_crossentropy",
                      metrics=["acc"])
        x, y = blobs(90)
        keras.backend.set_session(tf.Session(cluster.target("worker", 0)))
        history = model.fit(x, y, epochs=3, verbose=0)
    assert all(v.device.startswith("/job:ps/task:0") for v in model.weights)
    slots = [v for v in tf.global_variables() if "Adam" in v.name]
    assert slots and all(v.device.startswith("/job:ps") for v in slots)
    assert history.history["loss"][-1] < history.history["loss"][0]
    assert history.history["acc"][-1] >= 0.9
    keras.backend.get_session().close()


def test_sample_and_class_weights_weigh_the_loss_as_tf():
    """fit's class_weight and sample_weight (arrays and generators), validation_data's third
    item and evaluate's sample_weight: the losses TF 2.15.1's v1 loops gave for the same
    model and data (each example's loss times its weight, over the batch's examples)."""
    x = np.sin(np.arange(36) * 0.7).reshape(12, 3).astype("float32")
    y = np.arange(12) % 3
    sw = np.linspace(0.1, 2.0, 12).astype("float32")
    start = [np.sin(np.arange(9)).reshape(3, 3).astype("float32"), np.zeros(3, "float32")]
    model = keras.Sequential([keras.layers.Dense(3, activation="softmax", input_shape=(3,))])
    model.compile(keras.optimizers.SGD(0.5), "sparse_categorical_crossentropy",
                  metrics=["accuracy"])
    model.layers[0].set_weights(start)
    h = model.fit(x, y, batch_size=4, epochs=2, shuffle=False, verbose=0,
                  class_weight={0: 1.0, 1: 2.0, 2: 0.5})
    np.testing.assert_allclose(h.history["loss"], [1.109291, 0.579693], atol=2e-6)
    h = model.fit(x, y, batch_size=5, epochs=1, shuffle=False, verbose=0, sample_weight=sw,
                  validation_data=(x[:6], y[:6], sw[:6]))
    np.testing.assert_allclose([h.history["loss"][0], h.history["val_loss"][0]],
                               [0.393646, 0.120529], atol=2e-6)
    np.testing.assert_allclose(model.evaluate(x, y, batch_size=4, sample_weight=sw, verbose=0),
                               [0.24871, 1.0], atol=2e-6)

    def batches(with_weights):
        while True:
            for i in range(0, 12, 4):
                yield (x[i:i + 4], y[i:i + 4], sw[i:i + 4]) if with_weights else \
                    (x[i:i + 4], y[i:i + 4])
    model.layers[0].set_weights(start)
    h = model.fit_generator(batches(True), steps_per_epoch=3, epochs=1, verbose=0)
    assert h.history["loss"][0] == pytest.approx(1.073403, abs=2e-6)
    model.layers[0].set_weights(start)
    h = model.fit_generator(batches(False), steps_per_epoch=3, epochs=2, verbose=0,
                            class_weight={0: 1.0, 1: 2.0, 2: 0.5})
    np.testing.assert_allclose(h.history["loss"], [1.109291, 0.579693], atol=2e-6)
    with pytest.raises(ValueError, match=r"classes \{2\} exist in the data but not in"):
        model.fit(x, y, verbose=0, class_weight={0: 1.0, 1: 2.0})

    regression = keras.Sequential([keras.layers.Dense(2, input_shape=(3,))])
    regression.layers[0].set_weights([np.cos(np.arange(6)).reshape(3, 2).astype("float32"),
                                      np.zeros(2, "float32")])
    regression.compile(keras.optimizers.SGD(0.1), keras.losses.MeanSquaredError())
    targets = np.stack([x.sum(1), x[:, 0]], 1)
    h = regression.fit(x, targets, batch_size=6, epochs=2, shuffle=False, verbose=0,
                       sample_weight=sw)
    np.testing.assert_allclose(h.history["loss"], [2.36179, 1.490506], atol=2e-6)
    assert regression.evaluate(x, targets, sample_weight=sw, verbose=0) == \
        pytest.approx(1.040017, abs=2e-6)


def _fixed_weights(model, k=0):
    """The weights TF's script gave every layer (each weight from a sine)."""
    for i, layer in enumerate(model.layers):
        layer.set_weights([
            (0.5 * np.sin(np.arange(w.size) * 0.37 + 10 * (i + k) + j)).reshape(w.shape)
            .astype("float32") for j, w in enumerate(layer.get_weights())])


def test_a_model_called_on_new_inputs_and_a_frozen_discriminator_train_as_tf():
    """A Sequential with BatchNormalization inside a functional model (its moving averages
    updated by the outer fit), and the Keras GAN pattern: a discriminator compiled, then
    frozen inside the combined model, still learning in its own train_on_batch -- the losses
    and weights TF 2.15.1's v1 loops gave."""
    x = np.sin(np.arange(48) * 0.7).reshape(16, 3).astype("float32")
    y = (np.arange(16) % 2).astype("float32")
    base = keras.Sequential([keras.layers.Dense(4, activation="relu", input_shape=(3,)),
                             keras.layers.BatchNormalization(),
                             keras.layers.Dense(2, activation="tanh")])
    _fixed_weights(base)
    inp = keras.Input((3,))
    model = keras.Model(inp, keras.layers.Dense(1, activation="sigmoid")(base(inp)))
    _fixed_weights(keras.Sequential([model.layers[-1]]), 5)
    assert [type(layer).__name__ for layer in model.layers] == ["InputLayer", "Sequential",
                                                                "Dense"]
    model.compile(keras.optimizers.SGD(0.3), "binary_crossentropy")
    history = model.fit(x, y, batch_size=8, epochs=2, shuffle=False, verbose=0).history
    np.testing.assert_allclose(history["loss"], [0.704419, 0.700643], atol=2e-6)
    np.testing.assert_allclose(base.layers[1].get_weights()[2],           # moving mean
                               [-0.23859, -0.07281, 0.10285, 0.26482], atol=2e-5)
    np.testing.assert_allclose(model.predict(x[:3]).ravel(), [0.57509, 0.57679, 0.56383],
                               atol=2e-5)

    g = keras.Sequential([keras.layers.Dense(3, activation="tanh", input_shape=(2,))])
    d = keras.Sequential([keras.layers.Dense(1, activation="sigmoid", input_shape=(3,))])
    _fixed_weights(g, 1)
    _fixed_weights(d, 2)
    d.compile(keras.optimizers.SGD(0.5), "binary_crossentropy")
    d.trainable = False
    z = keras.Input((2,))
    gan = keras.Model(z, d(g(z)))
    gan.compile(keras.optimizers.SGD(0.5), "binary_crossentropy")
    noise = np.cos(np.arange(16)).reshape(8, 2).astype("float32")
    losses = []
    for _ in range(3):
        fake = g.predict(noise)
        losses.append(d.train_on_batch(np.concatenate([x[:8], fake]),
                                       np.concatenate([np.ones(8), np.zeros(8)])))
        losses.append(gan.train_on_batch(noise, np.ones(8)))
    np.testing.assert_allclose(losses, [0.601951, 0.80076, 0.626052, 0.773454, 0.652105,
                                        0.741468], atol=2e-6)
    np.testing.assert_allclose(d.get_weights()[0].ravel(), [0.502, 0.51022, 0.4712], atol=2e-5)
    np.testing.assert_allclose(g.get_weights()[0].ravel()[:3], [-0.27003, -0.41235, -0.47949],
                               atol=2e-5)
    with pytest.raises(ValueError, match="expects 1 input"):
        base([inp, inp])
