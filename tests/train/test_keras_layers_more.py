"""More tf.keras layers (sandbox/keras/layers/: advanced_activations.py, noise.py, core.py's
Masking, SpatialDropout1D/2D/3D, ActivityRegularization, Permute, RepeatVector, and
convolutional_reshaping.py's Cropping, ZeroPadding, UpSampling): outputs on fixed inputs
compared with what TF 2.15.1 (tf.compat.v1.keras, v2 behaviour disabled) printed, TF's config
keys, serialize / deserialize, and the random layers' statistics while training."""
import json

import numpy as np
import pytest

import sandbox as tf
from tests.train.keras_fixture import fixed, fresh_keras, set_fixed_weights  # noqa: F401

keras = tf.keras
layers = keras.layers


pytestmark = pytest.mark.usefixtures("fresh_keras")


def run(layer, x, weights=None, training=None, feed=None):
    """The layer applied to x (through a placeholder), in keras's session."""
    inputs = keras.Input(x.shape[1:])
    outputs = layer(inputs) if training is None else layer(inputs, training=training)
    if weights is not None:
        layer.set_weights(weights)
    return keras.backend.get_session().run(outputs, {inputs: x, **(feed or {})})


X = 4 * fixed((2, 3, 2), 1)
POSITIVE = [1.6829419136047363, 1.9598162174224854, 1.9714384078979492, 1.716235637664795,
            1.2287485599517822, 0.5749559998512268]       # X's first 6 entries, all > 0

# -- activations: TF 2.15.1's outputs on X -------------------------------------------------

ACTIVATIONS = [
    ("LeakyReLU()", lambda: layers.LeakyReLU(), None, POSITIVE + [
        -0.04699622094631195, -0.2601185441017151, -0.4380350410938263, -0.5566655397415161,
        -0.5999539494514465, -0.5620414614677429]),
    ("LeakyReLU(0.1)", lambda: layers.LeakyReLU(0.1), None, POSITIVE + [
        -0.015665410086512566, -0.08670617640018463, -0.14601168036460876,
        -0.18555517494678497, -0.19998465478420258, -0.1873471587896347]),
    ("PReLU()", lambda: layers.PReLU(), [fixed((3, 2), 5)], POSITIVE + [
        0.07510969042778015, 0.3431200683116913, 0.3773419260978699, 0.15987513959407806,
        -0.19553150236606598, -0.5029780268669128]),
    ("PReLU(shared_axes=1)", lambda: layers.PReLU(shared_axes=1), [fixed((1, 2), 6)],
     POSITIVE + [0.02188578061759472, -0.03758959844708443, 0.20398962497711182,
                 -0.08044344186782837, 0.2793940305709839, -0.08122032135725021]),
    ("ELU()", lambda: layers.ELU(), None, POSITIVE + [
        -0.14500021934509277, -0.579815685749054, -0.7677908539772034, -0.8436333537101746,
        -0.864643931388855, -0.8464104533195496]),
    ("ELU(0.5)", lambda: layers.ELU(0.5), None, POSITIVE + [
        -0.07250010967254639, -0.289907842874527, -0.3838954269886017, -0.4218166768550873,
        -0.4323219656944275, -0.4232052266597748]),
    ("ThresholdedReLU()", lambda: layers.ThresholdedReLU(), None, POSITIVE[:5] + [0.0] * 7),
    ("ThresholdedReLU(0.5)", lambda: layers.ThresholdedReLU(0.5), None, POSITIVE + [0.0] * 6),
    ("Softmax()", lambda: layers.Softmax(), None, [
        0.43122029304504395, 0.568779706954956, 0.563456654548645, 0.436543345451355,
        0.6578646302223206, 0.34213539958000183, 0.6704912781715393, 0.32950878143310547,
        0.5975903868675232, 0.4024096727371216, 0.4684482514858246, 0.5315517783164978]),
    ("Softmax(axis=1)", lambda: layers.Softmax(axis=1), None, [
        0.3367707133293152, 0.4915997087955475, 0.4493933916091919, 0.38532397150993347,
        0.21383588016033173, 0.12307634204626083, 0.6993492245674133, 0.5754841566085815,
        0.18993602693080902, 0.21415965259075165, 0.11071483045816422, 0.21035616099834442]),
    ("ReLU()", lambda: layers.ReLU(), None, POSITIVE + [0.0] * 6),
    ("ReLU(max_value=6)", lambda: layers.ReLU(max_value=6), None, POSITIVE + [0.0] * 6),
    ("ReLU(max_value=1)", lambda: layers.ReLU(max_value=1.0), None,
     [1.0] * 5 + [0.5749559998512268] + [0.0] * 6),
    ("ReLU(negative_slope=0.2)", lambda: layers.ReLU(negative_slope=0.2), None, POSITIVE + [
        -0.031330808997154236, -0.17341235280036926, -0.29202336072921753,
        -0.37111034989356995, -0.39996930956840515, -0.3746943175792694]),
    ("ReLU(threshold=0.3)", lambda: layers.ReLU(threshold=0.3), None, POSITIVE + [0.0] * 6),
    ("ReLU(1, 0.1, 0.5)", lambda: layers.ReLU(1.0, 0.1, 0.5), None,
     [1.0] * 5 + [0.5749559998512268, -0.06566540896892548, -0.1367061883211136,
                  -0.19601167738437653, -0.23555518686771393, -0.24998466670513153,
                  -0.23734715580940247]),
]


@pytest.mark.parametrize("name, make, weights, tf_out", ACTIVATIONS,
                         ids=[case[0] for case in ACTIVATIONS])
def test_activation_layers_match_tf(name, make, weights, tf_out):
    layer = make()
    np.testing.assert_allclose(run(layer, X, weights).ravel(), tf_out, atol=1e-6)
    assert layer.compute_output_shape((None, 3, 2)).as_list() == [None, 3, 2]


def test_prelu_weight_name_shape_and_input_spec_as_tf():
    model = keras.Sequential([layers.Conv2D(2, 2, input_shape=(3, 3, 1)),
                              layers.PReLU(shared_axes=[1, 2])])
    # TF 2.15.1's: ['conv2d/kernel:0', 'conv2d/bias:0', 'p_re_lu/alpha:0'], 12 params
    assert [w.name for w in model.weights] == ["conv2d/kernel:0", "conv2d/bias:0",
                                               "p_re_lu/alpha:0"]
    assert model.layers[1].weights[0].get_shape().as_list() == [1, 1, 2]
    assert model.count_params() == 12 and model.output_shape == (None, 2, 2, 2)
    np.testing.assert_array_equal(model.layers[1].get_weights()[0], np.zeros((1, 1, 2)))
    with pytest.raises(ValueError, match="expected axis 3 of input shape to have value 2"):
        model.layers[1](keras.Input((4, 4, 3)))


def test_relu_arguments_and_float32_config_as_tf():
    with pytest.raises(ValueError, match="max_value of Relu layer cannot be negative value: -1"):
        layers.ReLU(max_value=-1)
    with pytest.raises(ValueError, match="negative_slope of Relu layer cannot be negative"):
        layers.ReLU(negative_slope=-0.1)
    # TF keeps the numbers as float32: 0.1 -> 0.10000000149011612
    config = layers.ReLU(max_value=6, negative_slope=0.1).get_config()
    assert (config["max_value"], config["negative_slope"], config["threshold"]) == (
        6.0, 0.10000000149011612, 0.0)
    assert layers.ReLU().get_config()["max_value"] is None
    assert layers.LeakyReLU().get_config()["alpha"] == 0.30000001192092896


# -- reshaping: TF 2.15.1's outputs on 1, 2, 3, ... -----------------------------------------

RESHAPING = [
    (lambda: layers.Permute((2, 1)), (2, 3, 2), (2, 2, 3), [1, 3, 5, 2, 4, 6, 7, 9, 11, 8, 10, 12]),
    (lambda: layers.RepeatVector(2), (2, 3), (2, 2, 3), [1, 2, 3, 1, 2, 3, 4, 5, 6, 4, 5, 6]),
    (lambda: layers.Cropping1D((1, 0)), (2, 3, 2), (2, 2, 2), [3, 4, 5, 6, 9, 10, 11, 12]),
    (lambda: layers.Cropping2D(((1, 0), (0, 1))), (1, 3, 2, 2), (1, 2, 1, 2), [5, 6, 9, 10]),
    (lambda: layers.Cropping2D(((0, 1), (1, 0)), data_format="channels_first"), (1, 2, 3, 2),
     (1, 2, 2, 1), [2, 4, 8, 10]),
    (lambda: layers.Cropping3D(((1, 0), (0, 1), (0, 0)), data_format="channels_first"),
     (1, 1, 2, 3, 2), (1, 1, 1, 2, 2), [7, 8, 9, 10]),
    (lambda: layers.Cropping3D(((0, 1), (1, 0), (1, 0))), (1, 2, 2, 3, 1), (1, 1, 1, 2, 1),
     [5, 6]),
    (lambda: layers.ZeroPadding1D((1, 2)), (1, 3, 2), (1, 6, 2),
     [0, 0, 1, 2, 3, 4, 5, 6, 0, 0, 0, 0]),
    (lambda: layers.ZeroPadding2D(((1, 0), (0, 1))), (1, 2, 2, 1), (1, 3, 3, 1),
     [0, 0, 0, 1, 2, 0, 3, 4, 0]),
    (lambda: layers.ZeroPadding2D((1, 0), data_format="channels_first"), (1, 2, 1, 2),
     (1, 2, 3, 2), [0, 0, 1, 2, 0, 0, 0, 0, 3, 4, 0, 0]),
    (lambda: layers.ZeroPadding3D(((0, 1), (1, 0), (0, 0))), (1, 1, 2, 2, 1), (1, 2, 3, 2, 1),
     [0, 0, 1, 2, 3, 4, 0, 0, 0, 0, 0, 0]),
    (lambda: layers.ZeroPadding3D(((1, 0), (0, 0), (0, 1)), data_format="channels_first"),
     (1, 1, 1, 2, 2), (1, 1, 2, 2, 3), [0, 0, 0, 0, 0, 0, 1, 2, 0, 3, 4, 0]),
    (lambda: layers.UpSampling1D(3), (1, 2, 2), (1, 6, 2), [1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4]),
    (lambda: layers.UpSampling2D((2, 1)), (1, 2, 2, 1), (1, 4, 2, 1), [1, 2, 1, 2, 3, 4, 3, 4]),
    (lambda: layers.UpSampling2D((1, 2), data_format="channels_first"), (1, 2, 2, 1),
     (1, 2, 2, 2), [1, 1, 2, 2, 3, 3, 4, 4]),
    (lambda: layers.UpSampling3D((1, 2, 1)), (1, 1, 2, 2, 1), (1, 1, 4, 2, 1),
     [1, 2, 1, 2, 3, 4, 3, 4]),
    (lambda: layers.UpSampling3D((2, 1, 1), data_format="channels_first"), (1, 2, 1, 1, 2),
     (1, 2, 2, 1, 2), [1, 2, 1, 2, 3, 4, 3, 4]),
]


@pytest.mark.parametrize("make, in_shape, out_shape, tf_out", RESHAPING)
def test_reshaping_layers_match_tf(make, in_shape, out_shape, tf_out):
    layer = make()
    x = np.arange(1, 1 + np.prod(in_shape), dtype=np.float32).reshape(in_shape)
    out = run(layer, x)
    assert out.shape == out_shape
    np.testing.assert_array_equal(out.ravel(), tf_out)
    # the static shape too, with the batch unknown
    assert layer.output_shape == (None,) + out_shape[1:]
    assert layer.compute_output_shape((None,) + in_shape[1:]).as_list() == \
        [None] + list(out_shape[1:])


IMAGE = fixed((1, 2, 3, 1), 2)


def test_upsampling2d_bilinear_and_nearest_match_tf_1_15():
    # TF 1.15's keras.backend.resize_images: tf.compat.v1.image.resize_bilinear (no half-pixel
    # centers). TF 2.15.1's printed numbers (its own keras 2 layer uses the v2 resize and
    # gives other ones: 0.42814624 for the second entry)
    tf_bilinear = [0.4546487033367157, 0.4016437828540802, 0.3486388623714447,
                   0.27204063534736633, 0.19544239342212677, 0.19544239342212677,
                   0.23522120714187622, 0.1632721722126007, 0.0913231372833252,
                   0.013194024562835693, -0.06493507325649261, -0.06493507325649261,
                   0.015793699771165848, -0.07509943842887878, -0.1659925878047943,
                   -0.24565257132053375, -0.3253125548362732, -0.3253125548362732]
    out = run(layers.UpSampling2D(interpolation="bilinear"), IMAGE).ravel()
    np.testing.assert_allclose(out[:18], tf_bilinear, atol=1e-6)
    np.testing.assert_allclose(out[18:], tf_bilinear[12:], atol=1e-6)   # last row repeats
    cf = fixed((1, 2, 2, 3), 3)                          # NCHW: 2 channels of 2 x 3
    tf_cf = [0.07056000083684921, -0.02132663130760193, -0.11321326345205307,
             -0.19743844866752625, -0.2816636562347412, -0.2816636562347412,
             -0.4119921624660492, -0.44927582144737244, -0.4865594804286957,
             -0.49091637134552, -0.49527326226234436, -0.49527326226234436,
             -0.436954140663147, -0.3782247304916382, -0.319495290517807,
             -0.23914478719234467, -0.15879428386688232, -0.15879428386688232,
             0.02339879795908928, 0.1129118800163269, 0.20242495834827423, 0.2782393991947174,
             0.3540538549423218, 0.3540538549423218]
    out = run(layers.UpSampling2D((1, 2), data_format="channels_first",
                                  interpolation="bilinear"), cf)
    assert out.shape == (1, 2, 2, 6)
    np.testing.assert_allclose(out.ravel(), tf_cf, atol=1e-6)
    nearest = run(layers.UpSampling2D((2, 3)), IMAGE)
    np.testing.assert_array_equal(nearest[0, ::2, ::3, 0], IMAGE[0, :, :, 0])
    assert nearest.shape == (1, 4, 9, 1) and np.unique(nearest).size == 6


def test_reshaping_arguments_rejected_as_tf():
    with pytest.raises(ValueError, match="`padding` should have two elements. Found: "
                                         r"\(1, 2, 3\)"):
        layers.ZeroPadding2D((1, 2, 3))
    with pytest.raises(ValueError, match="`cropping` should have 3 elements"):
        layers.Cropping3D((1, 2))
    with pytest.raises(ValueError, match="`padding` should be either an int, a tuple of 2 "
                                         "ints"):
        layers.ZeroPadding2D(1.5)
    with pytest.raises(ValueError, match="The `cropping` argument must be a tuple of 2 "
                                         "integers"):
        layers.Cropping1D((1, 2, 3))
    with pytest.raises(ValueError, match="`interpolation` argument should be one of"):
        layers.UpSampling2D(interpolation="bicubic")
    with pytest.raises(ValueError, match="Invalid permutation `dims` for Permute Layer"):
        layers.Permute((1, 3))
    with pytest.raises(ValueError, match="expected ndim=3, found ndim=4"):
        layers.Cropping1D()(keras.Input((2, 3, 4)))
    assert layers.ZeroPadding3D(2).padding == ((2, 2), (2, 2), (2, 2))
    assert layers.Cropping2D((1, 2)).cropping == ((1, 1), (2, 2))
    assert layers.ZeroPadding1D(2).padding == (2, 2)


# -- masking and activity regularization ----------------------------------------------------

SEQ = fixed((2, 4, 2), 7)
SEQ[0, 2:] = 0
SEQ[1, 0] = 0


def test_masking_matches_tf():
    model = keras.Sequential([layers.Masking(input_shape=(4, 2)),
                              layers.GlobalAveragePooling1D()])
    np.testing.assert_allclose(model.predict(SEQ), [[0.41262441873550415, 0.46313878893852234],
                                                    [-0.372720330953598, -0.28331464529037476]],
                               atol=1e-6)
    mask = model.layers[0].output._keras_mask
    assert keras.backend.get_session().run(mask, {model.inputs[0]: SEQ}).tolist() == [
        [True, True, False, False], [False, True, True, True]]           # TF 2.15.1's
    keras.backend.clear_session()
    model = keras.Sequential([layers.Masking(input_shape=(4, 2)), layers.LSTM(3)])
    set_fixed_weights(model)
    np.testing.assert_allclose(model.predict(SEQ), [[0.08201751, 0.08265228, 0.07196584],
                                                    [0.22113153, 0.20994352, 0.16669612]],
                               atol=1e-6)


def test_activity_regularization_adds_tf_loss():
    x = fixed((4, 3), 5)
    model = keras.Sequential([layers.Dense(2, input_shape=(3,)),
                              layers.ActivityRegularization(0.1, 0.2)])
    set_fixed_weights(model)
    model.compile("sgd", "mse")
    assert len(model.losses) == 1
    # TF 2.15.1's: 0.5495896339416504 (0.25281062722206116 without the layer)
    assert model.evaluate(x, np.ones((4, 2)), verbose=0) == pytest.approx(0.5495896339, abs=1e-6)
    dense_out = model.predict(x)
    penalty = (0.1 * np.abs(dense_out).sum() + 0.2 * (dense_out ** 2).sum()) / 4
    assert penalty == pytest.approx(0.5495896339 - 0.2528106272, abs=1e-6)


# -- the random layers: identity at inference, noisy while training ------------------------

NOISY = [lambda: layers.GaussianNoise(0.5), lambda: layers.GaussianDropout(0.3),
         lambda: layers.AlphaDropout(0.3), lambda: layers.SpatialDropout1D(0.5),
         lambda: layers.SpatialDropout2D(0.5), lambda: layers.SpatialDropout3D(0.5)]


@pytest.mark.parametrize("make", NOISY)
def test_noise_layers_are_identity_at_inference_and_noisy_in_training(make):
    layer = make()
    rank = getattr(layer, "_rank", 1) + 2
    x = fixed((4,) + (3,) * (rank - 1), 1) + 1.0
    inputs = keras.Input(x.shape[1:])
    phase, on, off = layer(inputs), layer(inputs, training=True), layer(inputs, training=False)
    session = keras.backend.get_session()
    learning_phase = keras.backend.learning_phase()
    np.testing.assert_array_equal(session.run(phase, {inputs: x}), x)      # default: inference
    np.testing.assert_array_equal(session.run(off, {inputs: x, learning_phase: True}), x)
    noisy = session.run(phase, {inputs: x, learning_phase: True})
    assert noisy.shape == x.shape and not np.allclose(noisy, x)
    assert not np.allclose(session.run(on, {inputs: x}), x)
    assert not np.array_equal(session.run(on, {inputs: x}), session.run(on, {inputs: x}))


def test_noise_statistics():
    ones = np.ones((200, 100), np.float32)
    noise = run(layers.GaussianNoise(0.5), ones, training=True) - 1
    assert abs(noise.mean()) < 0.01 and noise.std() == pytest.approx(0.5, rel=0.02)
    keras.backend.clear_session()
    factor = run(layers.GaussianDropout(0.2), ones, training=True)
    assert abs(factor.mean() - 1) < 0.01
    assert factor.std() == pytest.approx(np.sqrt(0.2 / 0.8), rel=0.02)
    keras.backend.clear_session()
    normal = np.random.RandomState(1).randn(200, 100).astype(np.float32)
    out = run(layers.AlphaDropout(0.2), normal, training=True)
    assert abs(out.mean()) < 0.02 and out.std() == pytest.approx(1.0, abs=0.02)
    # the dropped entries are all a * alpha_p + b; the kept ones a * x + b
    alpha_p = -1.6732632423543772 * 1.0507009873554805
    a = ((1 - 0.2) * (1 + 0.2 * alpha_p ** 2)) ** -0.5
    b = -a * alpha_p * 0.2
    dropped = np.isclose(out, a * alpha_p + b, atol=1e-6)
    assert dropped.mean() == pytest.approx(0.2, abs=0.01)
    np.testing.assert_allclose(out[~dropped], a * normal[~dropped] + b, atol=1e-5)


@pytest.mark.parametrize("make, shape, shared", [
    (lambda: layers.SpatialDropout1D(0.5), (8, 5, 40), (1,)),
    (lambda: layers.SpatialDropout2D(0.5), (8, 3, 4, 40), (1, 2)),
    (lambda: layers.SpatialDropout2D(0.5, data_format="channels_first"), (8, 40, 3, 4), (2, 3)),
    (lambda: layers.SpatialDropout3D(0.5), (8, 2, 2, 3, 40), (1, 2, 3)),
])
def test_spatial_dropout_drops_whole_channels(make, shape, shared):
    x = np.ones(shape, np.float32)
    out = run(make(), x, training=True)
    assert set(np.unique(out)) == {0.0, 2.0}                     # 0 or 1 / (1 - rate)
    first = out[tuple(slice(0, 1) if i in shared else slice(None) for i in range(len(shape)))]
    np.testing.assert_array_equal(out, np.broadcast_to(first, shape))   # one draw per channel
    assert (out == 0).mean() == pytest.approx(0.5, abs=0.1)


def test_seeded_alpha_dropout_repeats_in_a_new_graph():
    def draw():
        keras.backend.clear_session()
        tf.set_random_seed(0)
        return run(layers.AlphaDropout(0.5, seed=3), np.ones((4, 6), np.float32), training=True)
    np.testing.assert_array_equal(draw(), draw())


# -- configs and serialization ---------------------------------------------------------------

BASE = ["name", "trainable", "dtype"]
# TF 2.15.1's keys (TF 2 adds 'seed' to GaussianNoise, GaussianDropout and AlphaDropout;
# TF 1.15 has not got it)
CONFIG_KEYS = [
    (lambda: layers.LeakyReLU(), ["alpha"]),
    (lambda: layers.PReLU(shared_axes=[1]),
     ["alpha_initializer", "alpha_regularizer", "alpha_constraint", "shared_axes"]),
    (lambda: layers.ELU(), ["alpha"]),
    (lambda: layers.ThresholdedReLU(), ["theta"]),
    (lambda: layers.Softmax(), ["axis"]),
    (lambda: layers.ReLU(), ["max_value", "negative_slope", "threshold"]),
    (lambda: layers.GaussianNoise(0.1), ["stddev"]),
    (lambda: layers.GaussianDropout(0.2), ["rate"]),
    (lambda: layers.AlphaDropout(0.2, seed=3), ["rate"]),
    (lambda: layers.Masking(), ["mask_value"]),
    (lambda: layers.SpatialDropout1D(0.2), ["rate", "noise_shape", "seed"]),
    (lambda: layers.SpatialDropout2D(0.2), ["rate", "noise_shape", "seed"]),
    (lambda: layers.SpatialDropout3D(0.2, data_format="channels_first"),
     ["rate", "noise_shape", "seed"]),
    (lambda: layers.ActivityRegularization(0.1, 0.2), ["l1", "l2"]),
    (lambda: layers.Permute((2, 1)), ["dims"]),
    (lambda: layers.RepeatVector(3), ["n"]),
    (lambda: layers.Cropping1D(), ["cropping"]),
    (lambda: layers.Cropping2D(), ["cropping", "data_format"]),
    (lambda: layers.Cropping3D(), ["cropping", "data_format"]),
    (lambda: layers.ZeroPadding1D(), ["padding"]),
    (lambda: layers.ZeroPadding2D(), ["padding", "data_format"]),
    (lambda: layers.ZeroPadding3D(), ["padding", "data_format"]),
    (lambda: layers.UpSampling1D(), ["size"]),
    (lambda: layers.UpSampling2D(), ["size", "data_format", "interpolation"]),
    (lambda: layers.UpSampling3D(), ["size", "data_format"]),
]


@pytest.mark.parametrize("make, keys", CONFIG_KEYS)
def test_config_keys_as_tf_and_serialize_round_trip(make, keys):
    layer = make()
    config = layer.get_config()
    assert list(config) == BASE + keys
    assert config["name"] == tf.layers.base.to_snake_case(type(layer).__name__)
    again = layers.deserialize(json.loads(json.dumps(layers.serialize(layer))))
    assert type(again) is type(layer)
    assert json.loads(json.dumps(again.get_config())) == json.loads(json.dumps(config))


def test_tf_default_configs():
    # TF 2.15.1's values
    assert layers.PReLU().get_config()["alpha_initializer"]["class_name"] == "Zeros"
    assert layers.Cropping2D().get_config()["cropping"] == ((0, 0), (0, 0))
    assert layers.Cropping3D().get_config()["cropping"] == ((1, 1), (1, 1), (1, 1))
    assert layers.ZeroPadding2D().get_config()["padding"] == ((1, 1), (1, 1))
    assert layers.UpSampling3D().get_config()["size"] == (2, 2, 2)
    assert layers.Masking().get_config()["mask_value"] == 0.0
    # a TF 2 config with 'seed': None loads
    noise = layers.deserialize({"class_name": "GaussianNoise",
                                "config": {"name": "g", "stddev": 0.1, "seed": None}})
    assert noise.stddev == 0.1


# -- a model of several of them ----------------------------------------------------------------

def test_sequential_of_new_layers_fits_predicts_and_reloads(tmp_path):
    model = keras.Sequential([
        layers.ZeroPadding2D(1, input_shape=(4, 4, 1)), layers.Conv2D(2, 3),
        layers.LeakyReLU(), layers.UpSampling2D(), layers.Cropping2D(1),
        layers.SpatialDropout2D(0.2), layers.GaussianNoise(0.1), layers.Flatten(),
        layers.Dense(4), layers.PReLU(), layers.AlphaDropout(0.1),
        layers.RepeatVector(2), layers.Permute((2, 1)), layers.Flatten(), layers.Dense(1)])
    assert model.output_shape == (None, 1)
    assert [layer.output_shape for layer in model.layers[:5]] == [
        (None, 6, 6, 1), (None, 4, 4, 2), (None, 4, 4, 2), (None, 8, 8, 2), (None, 6, 6, 2)]
    model.compile(keras.optimizers.Adam(0.01), "mse")
    x = fixed((8, 4, 4, 1), 3)
    y = fixed((8, 1), 4)
    before = model.layers[9].get_weights()[0].copy()
    history = model.fit(x, y, batch_size=4, epochs=1, verbose=0)      # 2 steps
    assert np.isfinite(history.history["loss"][0])
    assert not np.array_equal(before, model.layers[9].get_weights()[0])   # alpha learned
    predictions = model.predict(x)
    assert predictions.shape == (8, 1)
    np.testing.assert_array_equal(predictions, model.predict(x))        # no noise in predict
    path = str(tmp_path / "m.h5")
    model.save(path)
    keras.backend.clear_session()
    loaded = keras.models.load_model(path)
    np.testing.assert_allclose(loaded.predict(x), predictions, atol=1e-6)
