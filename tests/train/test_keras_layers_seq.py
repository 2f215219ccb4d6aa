"""tf.keras layers for sequences and attention (sandbox/keras/layers/: wrappers.py
TimeDistributed, recurrent.py StackedRNNCells / AbstractRNNCell / CuDNNLSTM / CuDNNGRU,
convolutional_recurrent.py ConvLSTM2D, dense_attention.py, normalization.py
LayerNormalization, merge.py Dot, dense_features.py, engine/input_spec.py): fixed weights
through set_weights and predict() compared with the outputs TF 2.15.1's tf.compat.v1.keras
(v2 behaviour disabled) printed for the same script; weight names, shapes and config keys
as TF's."""
import numpy as np
import pytest

import sandbox as tf
from tests.train.keras_fixture import fixed, fresh_keras, set_fixed_weights  # noqa: F401 (a fixture)

keras = tf.keras
layers = keras.layers


pytestmark = pytest.mark.usefixtures("fresh_keras")


def names_and_shapes(layer):
    return [(w.name, w.get_shape().as_list()) for w in layer.weights]


def round_trip(layer):
    """serialize -> deserialize gives a layer of the same config."""
    again = layers.deserialize(layers.serialize(layer))
    assert type(again) is type(layer) and again.get_config() == layer.get_config()
    return again


SEQ = fixed((2, 4, 2), 7)


# -- TimeDistributed -------------------------------------------------------------------------

def test_time_distributed_dense_and_conv2d_match_tf():
    model = keras.Sequential([layers.TimeDistributed(layers.Dense(3, activation="tanh"),
                                                     input_shape=(4, 2))])
    set_fixed_weights(model)
    tf_out = [[[0.55039114, 0.64676893, 0.67306584], [0.56310040, 0.67541075, 0.71278554],
               [0.49485672, 0.60345709, 0.64114392], [0.36609504, 0.43608740, 0.45231992]],
              [[0.23984042, 0.24305144, 0.21447438], [0.19490488, 0.15395558, 0.09168600],
               [0.26088619, 0.23310216, 0.17394862], [0.39445907, 0.42338702, 0.40147221]]]
    np.testing.assert_allclose(model.predict(SEQ), tf_out, atol=1e-5)
    wrapper = model.layers[0]
    assert names_and_shapes(wrapper) == [("time_distributed/kernel:0", [2, 3]),
                                         ("time_distributed/bias:0", [3])]
    assert list(wrapper.get_config()) == ["name", "trainable", "batch_input_shape", "dtype",
                                          "layer"]
    assert round_trip(wrapper).layer.units == 3
    keras.backend.clear_session()
    model = keras.Sequential([layers.TimeDistributed(layers.Conv2D(2, 2),
                                                     input_shape=(2, 3, 3, 1))])
    set_fixed_weights(model)
    tf_out = [[[[[0.28335702, 0.21024418], [0.48922020, 0.42000413]],
                [[0.84653115, 0.83825487], [0.94961858, 0.99013734]]],
               [[[0.45387349, 0.66587520], [0.24923858, 0.44757146]],
                [[-0.06584248, 0.05694291], [-0.13364387, -0.06251219]]]]]
    np.testing.assert_allclose(model.predict(fixed((1, 2, 3, 3, 1), 5)), tf_out, atol=1e-5)
    assert model.output_shape == (None, 2, 2, 2, 2)
    assert names_and_shapes(model.layers[0])[0] == ("time_distributed/kernel:0", [2, 2, 1, 2])
    with pytest.raises(ValueError, match="at least 3 dimensions"):
        layers.TimeDistributed(layers.Dense(2))(keras.Input(shape=(3,)))
    with pytest.raises(ValueError, match="with a `Layer` instance"):
        layers.TimeDistributed(lambda x: x)


def test_time_distributed_and_lstm_model_fits_and_saves(tmp_path):
    model = keras.Sequential([layers.TimeDistributed(layers.Dense(4, activation="relu"),
                                                     input_shape=(4, 2)),
                              layers.LSTM(3), layers.Dense(1)])
    model.compile(keras.optimizers.SGD(0.1), "mse")
    x, y = SEQ, np.array([[1.0], [-1.0]], np.float32)
    history = model.fit(x, y, epochs=2, batch_size=2, verbose=0)
    assert history.history["loss"][1] < history.history["loss"][0]
    path = str(tmp_path / "td.h5")
    model.save(path)
    loaded = keras.models.load_model(path)
    np.testing.assert_allclose(loaded.predict(x), model.predict(x), atol=1e-6)
    assert isinstance(loaded.layers[0], layers.TimeDistributed)


# -- recurrent: StackedRNNCells, AbstractRNNCell, masks, CuDNN ------------------------------

def test_rnn_of_a_list_of_cells_stacks_them_as_tf():
    model = keras.Sequential([layers.RNN([layers.LSTMCell(2), layers.GRUCell(3)],
                                         input_shape=(4, 2))])
    set_fixed_weights(model)
    np.testing.assert_allclose(model.predict(SEQ), [[0.37064943, 0.46362767, 0.49487624],
                                                    [0.37815061, 0.46904483, 0.49795508]],
                               atol=1e-5)
    rnn = model.layers[0]
    assert isinstance(rnn.cell, layers.StackedRNNCells)
    assert names_and_shapes(rnn) == [
        ("rnn/stacked_rnn_cells/lstm_cell/kernel:0", [2, 8]),
        ("rnn/stacked_rnn_cells/lstm_cell/recurrent_kernel:0", [2, 8]),
        ("rnn/stacked_rnn_cells/lstm_cell/bias:0", [8]),
        ("rnn/stacked_rnn_cells/gru_cell/kernel:0", [2, 9]),
        ("rnn/stacked_rnn_cells/gru_cell/recurrent_kernel:0", [3, 9]),
        ("rnn/stacked_rnn_cells/gru_cell/bias:0", [9])]
    config = layers.serialize(rnn)["config"]["cell"]
    assert config["class_name"] == "StackedRNNCells"
    assert [c["class_name"] for c in config["config"]["cells"]] == ["LSTMCell", "GRUCell"]
    assert rnn.cell.state_size == [2, 2, 3] and rnn.cell.output_size == 3
    assert [type(c) for c in round_trip(rnn).cell.cells] == [layers.LSTMCell, layers.GRUCell]


class MinimalRNNCell(layers.AbstractRNNCell):
    """TF's own example of an AbstractRNNCell."""

    def __init__(self, units, **kwargs):
        self.units = units
        super().__init__(**kwargs)

    @property
    def state_size(self):
        return self.units

    @property
    def output_size(self):
        return self.units

    def build(self, input_shape):
        self.kernel = self.add_weight(shape=(input_shape[-1], self.units),
                                      initializer="uniform", name="kernel")
        self.recurrent_kernel = self.add_weight(shape=(self.units, self.units),
                                                initializer="uniform", name="recurrent_kernel")
        self.built = True

    def call(self, inputs, states):
        out = tf.matmul(inputs, self.kernel) + tf.matmul(states[0], self.recurrent_kernel)
        return tf.tanh(out), [tf.tanh(out)]


def test_abstract_rnn_cell_subclass_runs_in_rnn_as_tf():
    model = keras.Sequential([layers.RNN(MinimalRNNCell(3), input_shape=(4, 2))])
    set_fixed_weights(model)
    assert [w.name for w in model.weights] == ["rnn/minimal_rnn_cell/kernel:0",
                                               "rnn/minimal_rnn_cell/recurrent_kernel:0"]
    np.testing.assert_allclose(model.predict(SEQ), [[0.29312146, 0.22799531, 0.13001961],
                                                    [-0.34648287, -0.29422587, -0.20111728]],
                               atol=1e-5)
    with pytest.raises(NotImplementedError):
        layers.AbstractRNNCell().state_size


def test_masked_lstm_return_sequences_backwards_matches_tf():
    ids = np.array([[1, 2, 3, 0, 0], [4, 5, 6, 7, 9]])
    model = keras.Sequential([layers.Embedding(10, 2, input_length=5, mask_zero=True),
                              layers.LSTM(3, return_sequences=True, go_backwards=True)])
    set_fixed_weights(model)
    tf_out = [[[0, 0, 0], [0, 0, 0], [0.07571501, 0.07645850, 0.06755425],
               [0.08605413, 0.09020708, 0.08262162], [0.10073742, 0.09974998, 0.08551221]],
              [[0.07674532, 0.06771719, 0.04948921], [0.18153895, 0.16268347, 0.12039979],
               [0.24377373, 0.22829957, 0.17945297], [0.26222274, 0.25703010, 0.21460095],
               [0.23775627, 0.24517755, 0.21711549]]]
    np.testing.assert_allclose(model.predict(ids), tf_out, atol=1e-5)


def test_masking_layer_feeds_rnn_mask_as_tf():
    if not hasattr(layers, "Masking"):
        pytest.skip("keras.layers.Masking is not in the sandbox yet")
    model = keras.Sequential([layers.Masking(input_shape=(4, 2)), layers.SimpleRNN(2)])
    set_fixed_weights(model)
    x = SEQ.copy()
    x[0, 2:] = 0
    x[1, 0] = 0
    np.testing.assert_allclose(model.predict(x), [[-0.22011626, -0.20283231],
                                                  [-0.18463740, 0.02372460]], atol=1e-5)


@pytest.mark.parametrize("cls, name, bias, keys", [
    (layers.CuDNNLSTM, "cu_dnnlstm", 24, ["unit_forget_bias"]),
    (layers.CuDNNGRU, "cu_dnngru", 18, []),
])
def test_cudnn_layers_are_tfs_but_cannot_run_without_cudnn(cls, name, bias, keys):
    layer = cls(3)
    with pytest.raises(NotImplementedError, match=f"Layer {name} .*cuDNN.*"
                       f"Use keras.layers.{cls.__name__[5:]}\\(3\\)"):
        layer(keras.Input(shape=(4, 2)))
    assert [w.get_shape().as_list()[-1] for w in layer.weights] == [bias // 2, bias // 2, bias]
    assert layer.weights[0].name == f"{name}/kernel:0"
    assert list(layer.get_config()) == (
        ["name", "trainable", "dtype", "return_sequences", "return_state", "go_backwards",
         "stateful", "time_major", "units", "kernel_initializer", "recurrent_initializer",
         "bias_initializer"] + keys +
        ["kernel_regularizer", "recurrent_regularizer", "bias_regularizer",
         "activity_regularizer", "kernel_constraint", "recurrent_constraint", "bias_constraint"])
    round_trip(layer)
    if cls is layers.CuDNNLSTM:    # unit_forget_bias: ones for the second forget gate
        np.testing.assert_array_equal(layer.get_weights()[2], [0] * 15 + [1] * 3 + [0] * 6)


# -- ConvLSTM2D ------------------------------------------------------------------------------

def test_conv_lstm2d_same_sequences_and_valid_match_tf():
    model = keras.Sequential([layers.ConvLSTM2D(2, 2, padding="same", return_sequences=True,
                                                input_shape=(3, 3, 3, 1))])
    set_fixed_weights(model)
    out = model.predict(fixed((1, 3, 3, 3, 1), 4))
    assert out.shape == (1, 3, 3, 3, 2) and model.output_shape == (None, 3, 3, 3, 2)
    np.testing.assert_allclose(out[0, 0, 0], [[-0.04505914, -0.07156855],
                                              [-0.05472944, -0.08000586],
                                              [-0.09631259, -0.11164115]], atol=1e-5)
    np.testing.assert_allclose(out[0, 2, 2], [[-0.07032290, -0.12160622],
                                              [-0.06749956, -0.12038378],
                                              [-0.03225688, -0.09439132]], atol=1e-5)
    layer = model.layers[0]
    # TF 1.15's default name ('conv_lst_m2d'; TF 2.15 says 'conv_lstm2d')
    assert names_and_shapes(layer) == [("conv_lst_m2d/kernel:0", [2, 2, 1, 8]),
                                       ("conv_lst_m2d/recurrent_kernel:0", [2, 2, 2, 8]),
                                       ("conv_lst_m2d/bias:0", [8])]
    assert list(layer.get_config())[4:] == [
        "return_sequences", "return_state", "go_backwards", "stateful", "unroll", "time_major",
        "filters", "kernel_size", "strides", "padding", "data_format", "dilation_rate",
        "activation", "recurrent_activation", "use_bias", "kernel_initializer",
        "recurrent_initializer", "bias_initializer", "unit_forget_bias", "kernel_regularizer",
        "recurrent_regularizer", "bias_regularizer", "activity_regularizer",
        "kernel_constraint", "recurrent_constraint", "bias_constraint", "dropout",
        "recurrent_dropout"]
    round_trip(layer)
    keras.backend.clear_session()
    model = keras.Sequential([layers.ConvLSTM2D(2, (2, 2), input_shape=(2, 3, 3, 2))])
    set_fixed_weights(model)
    np.testing.assert_allclose(model.predict(fixed((1, 2, 3, 3, 2), 4)),
                               [[[[-0.06634204, -0.11435771], [-0.07861904, -0.12046836]],
                                 [[-0.05886076, -0.09997915], [-0.04430877, -0.08756687]]]],
                               atol=1e-5)
    assert model.output_shape == (None, 2, 2, 2)


# -- attention -------------------------------------------------------------------------------

Q, V, K = fixed((2, 3, 4), 1), fixed((2, 2, 4), 2), fixed((2, 2, 4), 3)


@pytest.mark.parametrize("cls, kwargs, weights, tf_first_row, tf_last_row", [
    (layers.Attention, {}, [],
     [0.21423982, 0.08758002, -0.05093336, -0.18255314],
     [-0.14169373, -0.00594843, 0.13060196, 0.24947597]),
    (layers.Attention, dict(use_scale=True, causal=True), [("attention/scale:0", [])],
     [0.45464870, 0.34863886, 0.19544239, 0.01579370],
     [-0.23325831, -0.11316105, 0.02225203, 0.15465339]),
    (layers.AdditiveAttention, {}, [("additive_attention/scale:0", [4])],
     [0.07925287, -0.05900167, -0.18927063, -0.29392269],
     [-0.26035208, -0.14488503, -0.00980847, 0.12659562]),
    (layers.AdditiveAttention, dict(use_scale=False), [],
     [0.28110752, 0.16019130, 0.01759395, -0.12738466],
     [-0.06889509, 0.07929119, 0.21674578, 0.32486486]),
])
def test_attention_layers_match_tf(cls, kwargs, weights, tf_first_row, tf_last_row):
    q, v, k = keras.Input((3, 4)), keras.Input((2, 4)), keras.Input((2, 4))
    layer = cls(**kwargs)
    model = keras.Model([q, v, k], layer([q, v, k]))
    layer.set_weights([fixed(w.shape, 5) for w in layer.get_weights()])
    out = model.predict([Q, V, K])
    assert out.shape == (2, 3, 4) and model.output_shape == (None, 3, 4)
    np.testing.assert_allclose(out[0, 0], tf_first_row, atol=1e-5)
    np.testing.assert_allclose(out[1, 2], tf_last_row, atol=1e-5)
    assert names_and_shapes(layer) == weights
    assert list(layer.get_config())[3:] == ["use_scale", "causal"]     # TF 1.15's keys
    round_trip(layer)


def test_attention_with_masks_matches_tf():
    qi, vi = keras.Input((3,)), keras.Input((4,))
    embedding = layers.Embedding(10, 4, mask_zero=True)
    q, v = embedding(qi), embedding(vi)
    attention, additive = layers.Attention(), layers.AdditiveAttention()
    dot_out, add_out = attention([q, v]), additive([q, v])
    model = keras.Model([qi, vi], [dot_out, add_out])
    embedding.set_weights([fixed((10, 4), 1)])
    additive.set_weights([fixed((4,), 5)])
    ids_q, ids_v = np.array([[1, 2, 0], [3, 0, 0]]), np.array([[4, 5, 0, 0], [6, 7, 8, 0]])
    dot_values, add_values = model.predict([ids_q, ids_v])
    np.testing.assert_allclose(dot_values[0, :2], [[0.36725834, 0.35903320, 0.30221456,
                                                    0.20449261],
                                                   [0.37616023, 0.35094672, 0.27823418,
                                                    0.16786398]], atol=1e-5)
    np.testing.assert_allclose(add_values[1, 0], [-0.24503918, -0.23262499, -0.18872613,
                                                  -0.11928408], atol=1e-5)
    for values in (dot_values, add_values):        # masked query steps: zeros
        np.testing.assert_array_equal(values[0, 2], 0)
        np.testing.assert_array_equal(values[1, 1:], 0)
    assert dot_out._keras_mask is q._keras_mask     # the query's mask goes on
    with pytest.raises(ValueError, match="length 2 or 3"):
        layers.Attention()([q])


# -- LayerNormalization, Dot, InputSpec -------------------------------------------------------

def test_layer_normalization_matches_tf():
    model = keras.Sequential([layers.LayerNormalization(input_shape=(4,))])
    set_fixed_weights(model)
    tf_out = [[0.42073548, 0.59362173, 0.37446854, -0.21374446],
              [0.42073548, 0.53519714, 0.27068600, -0.06264117],
              [0.42073548, 0.37801629, 0.59349996, 1.08946109]]
    np.testing.assert_allclose(model.predict(fixed((3, 4), 2) * 3), tf_out, atol=1e-5)
    layer = model.layers[0]
    assert names_and_shapes(layer) == [("layer_normalization/gamma:0", [4]),
                                       ("layer_normalization/beta:0", [4])]
    config = layer.get_config()
    assert list(config)[4:] == ["axis", "epsilon", "center", "scale", "beta_initializer",
                                "gamma_initializer", "beta_regularizer", "gamma_regularizer",
                                "beta_constraint", "gamma_constraint"]
    assert (config["axis"], config["epsilon"]) == ([1], 1e-3)
    round_trip(layer)
    keras.backend.clear_session()
    model = keras.Sequential([layers.LayerNormalization(axis=[1, 2], center=False,
                                                        input_shape=(2, 3))])
    set_fixed_weights(model)
    tf_out = [[[0.0, 0.17162985, 0.13249859], [-0.11611757, -0.45776698, -0.71989471]],
              [[0.0, -0.16704148, -0.28343761], [-0.12696323, 0.33478636, 0.91198212]]]
    np.testing.assert_allclose(model.predict(fixed((2, 2, 3), 2) * 3), tf_out, atol=1e-5)
    assert names_and_shapes(model.layers[0]) == [("layer_normalization/gamma:0", [2, 3])]


def test_dot_matches_tf():
    a, b = keras.Input((3,)), keras.Input((3,))
    layer = layers.Dot(axes=1, normalize=True)
    model = keras.Model([a, b], layer([a, b]))
    np.testing.assert_allclose(model.predict([fixed((2, 3), 1), fixed((2, 3), 2)]),
                               [[0.93217456], [-0.45503557]], atol=1e-5)
    assert model.output_shape == (None, 1)
    assert layer.get_config() == {"name": "dot", "trainable": True, "dtype": "float32",
                                  "axes": 1, "normalize": True}
    round_trip(layer)
    a, b = keras.Input((3, 4)), keras.Input((2, 4))
    model = keras.Model([a, b], layers.dot([a, b], axes=(2, 2)))
    out = model.predict([fixed((2, 3, 4), 1), fixed((2, 2, 4), 2)])
    assert model.output_shape == (None, 3, 2)
    np.testing.assert_allclose(out[0], [[0.46520594, -0.65930736], [0.17869751, 0.02707666],
                                        [-0.43280038, 0.66421753]], atol=1e-5)
    a, b = keras.Input((3, 4)), keras.Input((3, 2))
    model = keras.Model([a, b], layers.Dot(axes=1)([a, b]))
    out = model.predict([fixed((2, 3, 4), 1), fixed((2, 3, 2), 2)])
    assert model.output_shape == (None, 4, 2)
    np.testing.assert_allclose(out[1, 3], [-0.28499648, -0.26158661], atol=1e-5)
    with pytest.raises(ValueError, match=r"Incompatible input shapes: axis values 3 \(at axis "
                                         r"1\) != 4 \(at axis 1\)"):
        layers.Dot(axes=1)([keras.Input((3,)), keras.Input((4,))])


def test_input_spec_is_tfs():
    spec = layers.InputSpec(dtype="float32", shape=(None, 3), axes={-1: 3})
    assert repr(spec) == "InputSpec(dtype=float32, shape=(None, 3), ndim=2, axes={-1: 3})"
    with pytest.raises(ValueError, match="Axis 3 is greater than the maximum allowed value: 1"):
        layers.InputSpec(ndim=2, axes={3: 4})
    with pytest.raises(TypeError, match="keys in axes must be integers"):
        layers.InputSpec(axes={"a": 1})
    layer = layers.Dense(2)
    layer.input_spec = layers.InputSpec(min_ndim=2, axes={-1: 3})
    with pytest.raises(ValueError, match="expected axis -1 of input shape to have value 3"):
        layer(keras.Input((4,)))


# -- DenseFeatures ---------------------------------------------------------------------------

def test_dense_features_matches_tf():
    fc = tf.feature_column
    city = fc.categorical_column_with_identity("city", 4)
    table = [[0.1, 0.2], [0.3, 0.4], [0.5, 0.6], [0.7, 0.8]]
    columns = [fc.numeric_column("age"), fc.indicator_column(city),
               fc.embedding_column(city, 2, initializer=tf.constant_initializer(table))]
    layer = layers.DenseFeatures(columns)
    features = {"age": tf.constant([[30.0], [40.0]]),
                "city": tf.constant([[1], [3]], dtype=tf.int64)}
    out, again = layer(features), layer(features)
    assert names_and_shapes(layer) == [("dense_features/city_embedding/embedding_weights:0",
                                        [4, 2])]
    session = keras.backend.get_session()
    session.run(tf.global_variables_initializer())
    tf_out = [[30.0, 0.3, 0.4, 0, 1, 0, 0], [40.0, 0.7, 0.8, 0, 0, 0, 1]]   # TF 2.15.1's
    for value in session.run([out, again]):
        np.testing.assert_allclose(value, tf_out, atol=1e-6)
    assert list(layer.get_config()) == ["name", "trainable", "dtype", "feature_columns",
                                        "partitioner"]
    assert layer.compute_output_shape({"age": (None, 1)}).as_list() == [None, 7]
    with pytest.raises(ValueError, match="expected a dictionary"):
        layer(features["age"])
