"""tf.keras layers for text and CNN tutorials (sandbox/keras/layers/: embeddings.py, pooling.py,
normalization.py, recurrent.py, wrappers.py; sandbox/keras/regularizers.py): the same small
models as in TensorFlow, the same fixed weights through set_weights, and predict() compared
with the outputs TF 2.15 (tf.compat.v1.keras, v2 behaviour disabled) printed for them."""
import numpy as np
import pytest

import sandbox as tf
from tests.train.keras_fixture import fixed, fresh_keras, set_fixed_weights  # noqa: F401 (a fixture)

keras = tf.keras
layers = keras.layers

IDS = np.array([[1, 2, 3, 0, 0], [4, 5, 6, 7, 9]])


pytestmark = pytest.mark.usefixtures("fresh_keras")


def set_positive_variance(bn):
    weights = bn.get_weights()
    weights[3] = np.abs(weights[3]) + 0.5
    bn.set_weights(weights)


def summary_lines(model):
    lines = []
    model.summary(print_fn=lines.append)
    return lines


# -- TF 2.15's outputs --------------------------------------------------------------------

def test_embedding_conv1d_pooling_match_tf():
    model = keras.Sequential([layers.Embedding(10, 3, input_length=5),
                              layers.Conv1D(4, 3, padding="same", activation="tanh"),
                              layers.MaxPooling1D(2), layers.GlobalMaxPooling1D()])
    set_fixed_weights(model)
    tf_out = [[-0.38800603, -0.39642003, -0.35624194, -0.24726421],
              [-0.16931671, -0.19334967, -0.16110782, -0.09553805]]
    np.testing.assert_allclose(model.predict(IDS), tf_out, atol=1e-5)
    assert model.inputs[0].name == "embedding_input:0"
    assert model.inputs[0].get_shape().as_list() == [None, 5]
    assert [w.name for w in model.weights] == ["embedding/embeddings:0", "conv1d/kernel:0",
                                               "conv1d/bias:0"]
    text = "\n".join(summary_lines(model))
    for row in ("embedding (Embedding)        (None, 5, 3)              30",
                "conv1d (Conv1D)              (None, 5, 4)              40",
                "max_pooling1d (MaxPooling1D) (None, 2, 4)              0"):
        assert row in text
    assert "Total params: 70" in text                             # TF: 70


def test_global_average_pooling1d_with_and_without_mask_match_tf():
    model = keras.Sequential([layers.Embedding(10, 3, input_length=5),
                              layers.GlobalAveragePooling1D()])
    set_fixed_weights(model)
    np.testing.assert_allclose(model.predict(IDS), [[0.15049693, 0.17133197, 0.16897805],
                                                    [-0.08035380, -0.05165448, -0.01596397]],
                               atol=1e-5)
    keras.backend.clear_session()
    model = keras.Sequential([layers.Embedding(10, 3, input_length=5, mask_zero=True),
                              layers.GlobalAveragePooling1D()])
    set_fixed_weights(model)
    np.testing.assert_allclose(model.predict(IDS), [[0.25082824, 0.16501483, 0.05686744],
                                                    [-0.08035380, -0.05165448, -0.01596397]],
                               atol=1e-5)


def test_batch_normalization_inference_and_moving_statistics_match_tf():
    images = fixed((2, 5, 5, 1), 3)
    model = keras.Sequential([layers.Conv2D(2, 3, input_shape=(5, 5, 1)),
                              layers.BatchNormalization(), layers.GlobalAveragePooling2D()])
    set_fixed_weights(model)
    bn = model.layers[1]
    set_positive_variance(bn)
    assert [w.name for w in bn.weights] == [
        "batch_normalization/gamma:0", "batch_normalization/beta:0",
        "batch_normalization/moving_mean:0", "batch_normalization/moving_variance:0"]
    assert (bn.momentum, bn.epsilon) == (0.99, 1e-3)
    np.testing.assert_allclose(model.predict(images), [[-0.71015716, -0.68507272],
                                                       [-0.74247515, -0.76802379]], atol=1e-5)
    text = "\n".join(summary_lines(model))
    assert "Total params: 28" in text and "Non-trainable params: 4" in text
    # one fit step (SGD with learning rate 0): only the moving statistics move, as in TF
    # (a 4-D input: TF's fused kernel, whose batch variance has Bessel's correction)
    model.compile(keras.optimizers.SGD(0.0), "mse")
    model.fit(images, np.zeros((2, 2)), batch_size=2, epochs=1, verbose=0)
    moving_mean, moving_variance = bn.get_weights()[2:]
    np.testing.assert_allclose(moving_mean, [-0.26127031, -0.09157620], atol=1e-5)
    np.testing.assert_allclose(moving_variance, [0.70993388, 0.85764760], atol=1e-5)


def test_batch_normalization_2d_moves_in_fit_not_in_predict():
    x = fixed((4, 3), 5)
    model = keras.Sequential([layers.Dense(3, input_shape=(3,)),
                              layers.BatchNormalization(momentum=0.9)])
    set_fixed_weights(model)
    bn = model.layers[1]
    set_positive_variance(bn)
    tf_predict = [[-0.63188362, -0.56847310, -0.38317341],
                  [-0.77087039, -0.76718658, -0.58902192],
                  [-0.85585976, -0.91570801, -0.77176058],
                  [-0.79245591, -0.84907806, -0.72842586]]
    before = bn.get_weights()
    np.testing.assert_allclose(model.predict(x), tf_predict, atol=1e-5)
    model.compile(keras.optimizers.SGD(0.0), "mse")
    model.evaluate(x, np.zeros((4, 3)), verbose=0)
    for a, b in zip(before, bn.get_weights()):                # predict/evaluate: unchanged
        np.testing.assert_array_equal(a, b)
    model.fit(x, np.zeros((4, 3)), batch_size=4, epochs=1, verbose=0)
    moving_mean, moving_variance = bn.get_weights()[2:]
    np.testing.assert_allclose(moving_mean, [-0.18682465, -0.02664505, 0.13714083], atol=1e-5)
    np.testing.assert_allclose(moving_variance, [0.64550072, 0.78285527, 0.87440914],
                               atol=1e-5)
    assert not np.allclose(model.predict(x), tf_predict, atol=1e-3)   # new statistics


SEQ = fixed((2, 4, 2), 7)


@pytest.mark.parametrize("name, make, params, tf_out", [
    ("simple_rnn", lambda: layers.SimpleRNN(3, input_shape=(4, 2)), 18,
     [[0.79416877, 0.68717235, 0.45302320], [0.66297036, 0.56045467, 0.36544502]]),
    ("gru", lambda: layers.GRU(3, input_shape=(4, 2)), 54,
     [[-0.31618562, -0.36033577, -0.36214483], [-0.39556000, -0.42259118, -0.39861724]]),
])
def test_simple_rnn_and_gru_match_tf(name, make, params, tf_out):
    model = keras.Sequential([make()])
    set_fixed_weights(model)
    np.testing.assert_allclose(model.predict(SEQ), tf_out, atol=1e-5)
    assert model.count_params() == params
    assert [w.name for w in model.weights] == [f"{name}/{name}_cell/kernel:0",
                                               f"{name}/{name}_cell/recurrent_kernel:0",
                                               f"{name}/{name}_cell/bias:0"]


def test_gru_reset_after_and_backwards_simple_rnn_match_tf():
    model = keras.Sequential([layers.GRU(3, reset_after=True, recurrent_activation="sigmoid",
                                         input_shape=(4, 2))])
    set_fixed_weights(model)
    assert [w.get_shape().as_list() for w in model.weights] == [[2, 9], [3, 9], [2, 9]]
    np.testing.assert_allclose(model.predict(SEQ), [[-0.11335126, -0.15620326, -0.17872488],
                                                    [-0.22741610, -0.24500810, -0.23037656]],
                               atol=1e-5)
    keras.backend.clear_session()
    model = keras.Sequential([layers.SimpleRNN(2, go_backwards=True, return_sequences=True,
                                               activation="relu", input_shape=(4, 2))])
    set_fixed_weights(model)
    tf_out = [[[0.42692345, 0.33019328], [0.88865340, 0.89448065], [1.43246758, 1.47426629],
               [1.93315625, 1.94063020]],
              [[0.45188919, 0.31090644], [0.68231910, 0.46814275], [0.80434787, 0.57401639],
               [0.94338351, 0.76677966]]]
    np.testing.assert_allclose(model.predict(SEQ), tf_out, atol=1e-5)


def test_lstm_return_sequences_matches_tf():
    model = keras.Sequential([layers.LSTM(3, return_sequences=True, input_shape=(4, 2))])
    set_fixed_weights(model)
    tf_out = [[[-0.05589037, -0.06381834, -0.06343059], [-0.06985746, -0.08444940, -0.08807046],
               [-0.09362008, -0.11568838, -0.12318603], [-0.14052130, -0.16632408, -0.17375852]],
              [[-0.12719223, -0.14565557, -0.14956133], [-0.19488978, -0.21541871, -0.21675320],
               [-0.22705317, -0.24165861, -0.23484793], [-0.23354264, -0.23815732, -0.22110611]]]
    out = model.predict(SEQ)
    assert out.shape == (2, 4, 3) and model.output_shape == (None, 4, 3)
    np.testing.assert_allclose(out, tf_out, atol=1e-5)
    kernel, recurrent, bias = model.layers[0].weights
    assert kernel.get_shape().as_list() == [2, 12] and recurrent.get_shape().as_list() == [3, 12]
    assert model.count_params() == 72                          # TF: 72


def test_lstm_forget_bias_and_stacked_shapes():
    model = keras.Sequential([layers.Embedding(100, 8, input_length=5),
                              layers.LSTM(6, return_sequences=True), layers.GRU(4),
                              layers.Dense(1)])
    assert [layer.output_shape for layer in model.layers] == [(None, 5, 8), (None, 5, 6),
                                                              (None, 4), (None, 1)]
    assert "Total params: 1,297" in summary_lines(model)       # TF: 800 + 360 + 132 + 5
    bias = model.layers[1].get_weights()[2]
    np.testing.assert_array_equal(bias, [0] * 6 + [1] * 6 + [0] * 12)   # i, f, c, o
    assert model.predict(np.zeros((3, 5))).shape == (3, 1)


def test_masked_lstm_matches_tf():
    model = keras.Sequential([layers.Embedding(10, 2, input_length=5, mask_zero=True),
                              layers.LSTM(3)])
    set_fixed_weights(model)
    np.testing.assert_allclose(model.predict(IDS), [[0.11397240, 0.11740402, 0.10524253],
                                                    [0.20262772, 0.20554507, 0.17654452]],
                               atol=1e-5)


def test_bidirectional_matches_tf():
    model = keras.Sequential([
        layers.Bidirectional(layers.LSTM(2, return_sequences=True), input_shape=(4, 2)),
        layers.Bidirectional(layers.GRU(2))])
    set_fixed_weights(model)
    np.testing.assert_allclose(model.predict(SEQ), [[0.38180357, 0.43997326, -0.21887502,
                                                     -0.30553323],
                                                    [0.37212941, 0.42830008, -0.21818423,
                                                     -0.30544329]], atol=1e-5)
    assert model.count_params() == 164 and model.output_shape == (None, 4)
    assert [w.name for w in model.weights][:3] == [
        "bidirectional/forward_lstm/lstm_cell/kernel:0",
        "bidirectional/forward_lstm/lstm_cell/recurrent_kernel:0",
        "bidirectional/forward_lstm/lstm_cell/bias:0"]
    assert model.weights[9].name == "bidirectional_1/backward_gru/gru_cell/kernel:0"


def test_recurrent_layers_need_a_known_number_of_steps():
    with pytest.raises(ValueError, match="number of steps must be known"):
        keras.Sequential([layers.Embedding(10, 2), layers.LSTM(3)])


# -- regularizers ---------------------------------------------------------------------------

def test_regularizers_add_to_the_loss_as_tf():
    x = fixed((4, 3), 5)

    def model(regularized):
        reg = dict(kernel_regularizer=keras.regularizers.l2(0.01),
                   bias_regularizer=keras.regularizers.l1(0.1)) if regularized else {}
        out = dict(kernel_regularizer=keras.regularizers.l1_l2(l1=0.01, l2=0.02)) \
            if regularized else {}
        m = keras.Sequential([layers.Dense(3, input_shape=(3,), **reg), layers.Dense(1, **out)])
        set_fixed_weights(m)
        m.compile("sgd", "mse")
        return m

    with_reg = model(True)
    assert len(with_reg.losses) == 3
    loss_reg = with_reg.evaluate(x, np.ones((4, 1)), verbose=0)
    keras.backend.clear_session()
    loss_plain = model(False).evaluate(x, np.ones((4, 1)), verbose=0)
    assert loss_reg == pytest.approx(5.05474758, abs=1e-5)      # TF 2.15
    assert loss_plain == pytest.approx(4.88272285, abs=1e-5)    # TF 2.15
    kernel, bias = [fixed((3, 3), 0), fixed((3,), 1)]
    expected = 0.01 * (kernel ** 2).sum() + 0.1 * np.abs(bias).sum() + \
        0.01 * np.abs(fixed((3, 1), 10)).sum() + 0.02 * (fixed((3, 1), 10) ** 2).sum()
    assert loss_reg - loss_plain == pytest.approx(expected, abs=1e-5)
    assert keras.regularizers.l1_l2().get_config() == pytest.approx(
        {"l1": 0.009999999776482582, "l2": 0.009999999776482582})


def test_regularizer_by_name_and_conv_regularizer():
    model = keras.Sequential([layers.Conv1D(2, 2, input_shape=(4, 1), kernel_regularizer="l2"),
                              layers.Flatten(), layers.Dense(1, bias_regularizer="l1")])
    assert len(model.losses) == 2
    set_fixed_weights(model)
    model.compile("sgd", "mse")
    x, y = fixed((3, 4, 1), 2), np.ones((3, 1))
    mse = float(np.mean((model.predict(x) - y) ** 2))
    penalty = 0.01 * (fixed((2, 1, 2), 0) ** 2).sum() + 0.01 * np.abs(fixed((1,), 21)).sum()
    assert model.evaluate(x, y, verbose=0) == pytest.approx(mse + penalty, abs=1e-5)


# -- training --------------------------------------------------------------------------------

def token_task(n, steps, vocab, token, seed=0):
    """Sequences of ids 1..vocab-1; the label is whether `token` appears."""
    rng = np.random.RandomState(seed)
    x = rng.randint(1, vocab, size=(n, steps))
    return x, (x == token).any(axis=1).astype(np.float32)


def test_imdb_like_embedding_average_pooling_learns():
    x, y = token_task(400, 20, 50, 7)
    model = keras.Sequential([layers.Embedding(50, 8, input_length=20),
                              layers.GlobalAveragePooling1D(),
                              layers.Dense(1, activation="sigmoid")])
    model.compile(keras.optimizers.Adam(0.05), "binary_crossentropy", metrics=["acc"])
    history = model.fit(x, y, epochs=12, batch_size=32, verbose=0)
    assert history.history["acc"][-1] >= 0.97
    x_test, y_test = token_task(200, 20, 50, 7, seed=1)
    loss, acc = model.evaluate(x_test, y_test, verbose=0)
    assert acc >= 0.95


def test_lstm_and_batch_norm_cnn_train():
    x, y = token_task(200, 6, 10, 3)
    model = keras.Sequential([layers.Embedding(10, 4, input_length=6), layers.LSTM(8),
                              layers.Dense(1, activation="sigmoid")])
    model.compile(keras.optimizers.Adam(0.05), "binary_crossentropy", metrics=["acc"])
    assert model.fit(x, y, epochs=8, verbose=0).history["acc"][-1] >= 0.95
    keras.backend.clear_session()
    rng = np.random.RandomState(0)
    images = rng.rand(120, 6, 6, 1).astype(np.float32)
    labels = (images[:, :3].mean(axis=(1, 2, 3)) > images[:, 3:].mean(axis=(1, 2, 3)))
    model = keras.Sequential([layers.Conv2D(4, 3, padding="same", input_shape=(6, 6, 1)),
                              layers.BatchNormalization(), layers.Activation("relu"),
                              layers.GlobalMaxPooling2D(), layers.Dense(2, activation="softmax")])
    model.compile(keras.optimizers.Adam(0.05), "sparse_categorical_crossentropy",
                  metrics=["acc"])
    bn = model.layers[1]
    history = model.fit(images, labels.astype(np.int64), epochs=10, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]
    assert not np.allclose(bn.get_weights()[2], 0)                # moving mean moved


def test_lstm_dropout_trains_and_is_off_in_predict():
    x, y = token_task(100, 5, 10, 3)
    model = keras.Sequential([layers.Embedding(10, 4, input_length=5),
                              layers.LSTM(4, dropout=0.2, recurrent_dropout=0.2),
                              layers.Dense(1, activation="sigmoid")])
    model.compile("adam", "binary_crossentropy")
    model.fit(x, y, epochs=1, verbose=0)
    np.testing.assert_array_equal(model.predict(x[:8]), model.predict(x[:8]))


# -- several inputs and outputs, merge layers -------------------------------------------------

def two_in_two_out():
    a, b = keras.Input(shape=(3,), name="a"), keras.Input(shape=(2,), name="b")
    h1 = layers.Dense(4, activation="tanh")(a)
    h2 = layers.Dense(4, activation="tanh")(b)
    out1 = layers.Dense(1, activation="sigmoid", name="out1")(layers.concatenate([h1, h2]))
    out2 = layers.Dense(2, name="out2")(layers.Add()([h1, h2]))
    model = keras.Model([a, b], [out1, out2])
    set_fixed_weights(model)
    return model


XA, XB = fixed((4, 3), 1), fixed((4, 2), 2)
Y1, Y2 = np.array([[1], [0], [1], [0]], np.float32), fixed((4, 2), 3)


def test_multi_input_multi_output_model_matches_tf():
    model = two_in_two_out()
    assert [layer.name for layer in model.layers] == ["a", "b", "dense", "dense_1",
                                                      "concatenate", "add", "out1", "out2"]
    p1, p2 = model.predict([XA, XB])
    np.testing.assert_allclose(p1.ravel(), [0.40819445, 0.34170684, 0.29679990, 0.30662456],
                               atol=1e-5)
    np.testing.assert_allclose(p2, [[0.64209205, 0.50409299], [0.85832453, 0.68599832],
                                    [0.94234061, 0.74482310], [0.84771401, 0.67512429]],
                               atol=1e-5)
    lines = summary_lines(model)
    assert "Total params: 47" in lines
    text = "\n".join(lines)
    assert "Connected to" in text and "concatenate (Concatenate)" in text
    assert any(line.rstrip().endswith("dense_1[0][0]") and line.startswith(" ")
               for line in lines)
    model.compile("sgd", loss={"out1": "binary_crossentropy", "out2": "mse"},
                  loss_weights=[1.0, 0.5], metrics={"out1": "acc"})
    assert model.metrics_names == ["loss", "out1_loss", "out2_loss", "out1_acc"]
    results = model.evaluate({"a": XA, "b": XB}, {"out1": Y1, "out2": Y2}, verbose=0)
    np.testing.assert_allclose(results, [1.313256025, 0.72374934, 1.1790134, 0.5], atol=1e-5)
    history = model.fit([XA, XB], [Y1, Y2], epochs=1, verbose=0)
    assert sorted(history.history) == ["loss", "out1_acc", "out1_loss", "out2_loss"]


def test_multi_output_loss_list_metrics_and_validation_names():
    model = two_in_two_out()
    model.compile("sgd", loss=["binary_crossentropy", "mse"], metrics=["acc"])
    assert model.metrics_names == ["loss", "out1_loss", "out2_loss", "out1_acc", "out2_acc"]
    history = model.fit([XA, XB], [Y1, Y2], epochs=2, verbose=0, validation_split=0.5)
    assert sorted(history.history) == [
        "loss", "out1_acc", "out1_loss", "out2_acc", "out2_loss", "val_loss",
        "val_out1_acc", "val_out1_loss", "val_out2_acc", "val_out2_loss"]
    with pytest.raises(ValueError, match="Expected to see 2 array"):
        model.predict(XA)
    with pytest.raises(ValueError, match="one entry per model output"):
        model.compile("sgd", loss=["mse"])


def test_graph_disconnected_and_merge_layers():
    a, b = keras.Input(shape=(3,), name="a"), keras.Input(shape=(3,), name="b")
    out = layers.Dense(1)(layers.concatenate([layers.Dense(2)(a), b]))
    with pytest.raises(ValueError, match='Graph disconnected: cannot obtain value for tensor '
                                         'Tensor\\("b:0"'):
        keras.Model(a, out)
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    y = np.ones((2, 3), np.float32)
    merged = [layers.Subtract()([a, b]), layers.multiply([a, b]), layers.average([a, b]),
              layers.maximum([a, b]), layers.minimum([a, b]), layers.add([a, b])]
    expected = [x - y, x * y, (x + y) / 2, np.maximum(x, y), np.minimum(x, y), x + y]
    for tensor, value in zip(merged, expected):
        np.testing.assert_allclose(keras.Model([a, b], tensor).predict([x, y]), value)
    with pytest.raises(ValueError, match="matching shapes except for the concat axis"):
        layers.concatenate([a, keras.Input(shape=(2, 3))])


def test_two_input_text_model_trains():
    x, y = token_task(300, 8, 20, 5)
    extra = np.random.RandomState(2).rand(300, 2).astype(np.float32)
    tokens, numbers = keras.Input(shape=(8,), name="tokens"), keras.Input(shape=(2,))
    h = layers.GlobalMaxPooling1D()(layers.Embedding(20, 8)(tokens))
    out = layers.Dense(1, activation="sigmoid")(layers.concatenate([h, numbers]))
    model = keras.Model([tokens, numbers], out)
    model.compile(keras.optimizers.Adam(0.05), "binary_crossentropy", metrics=["acc"])
    history = model.fit([x, extra], y, epochs=6, verbose=0)
    assert history.history["acc"][-1] >= 0.95


# -- metric classes ------------------------------------------------------------------------

def test_metric_classes_in_compile_and_standalone():
    model = keras.Sequential([layers.Dense(1, activation="sigmoid", input_shape=(2,))])
    model.compile("sgd", "binary_crossentropy",
                  metrics=[keras.metrics.BinaryAccuracy(), keras.metrics.MeanSquaredError(),
                           "mae", keras.metrics.BinaryAccuracy(name="acc2", threshold=0.3)])
    # TF 2.15's names
    assert model.metrics_names == ["loss", "binary_accuracy", "mean_squared_error",
                                   "mean_absolute_error", "acc2"]
    x, y = np.random.rand(8, 2), np.ones(8)
    model.fit(x, y, verbose=0)
    _, acc, mse, _, _ = model.evaluate(x, y, verbose=0)
    probs = model.predict(x).ravel()
    assert acc == pytest.approx(np.mean(probs > 0.5)) and mse == pytest.approx(
        np.mean((1 - probs) ** 2), abs=1e-6)
    acc = keras.metrics.BinaryAccuracy()
    session = keras.backend.get_session()
    session.run(acc.update_state([[1], [0], [1]], [[0.8], [0.6], [0.2]]))
    assert session.run(acc.result()) == pytest.approx(1 / 3)
    session.run(acc.update_state([[1]], [[0.9]]))
    assert session.run(acc.result()) == pytest.approx(0.5)
    acc.reset_states()
    assert session.run(acc.result()) == 0.0
    mean = keras.metrics.Mean()([1.0, 2.0, 3.0])     # update, then the result
    matches = keras.metrics.Accuracy()([1, 2], [1, 3])
    assert keras.backend.get_session().run([mean, matches]) == [2.0, 0.5]
    assert [keras.metrics.SparseCategoricalAccuracy().name,
            keras.metrics.CategoricalAccuracy().name,
            keras.metrics.MeanAbsoluteError().name] == ["sparse_categorical_accuracy",
                                                        "categorical_accuracy",
                                                        "mean_absolute_error"]
