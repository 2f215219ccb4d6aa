"""tf.keras's convolution, pooling and locally-connected layers (sandbox/keras/layers/:
convolutional.py, pooling.py, local.py): each layer alone in a Sequential, the same fixed
weights through set_weights as in TensorFlow, and predict() compared with what TF 2.15.1's
tf.compat.v1.keras (v2 behaviour disabled) printed for the same script; the weights' names
and shapes, the config keys, serialize / deserialize, save / load_model, and a small CNN
that trains as TF's does."""
import numpy as np
import pytest

import sandbox as tf
from tests.train.keras_fixture import fixed, fresh_keras  # noqa: F401 (a fixture)

keras = tf.keras
layers = keras.layers


pytestmark = pytest.mark.usefixtures("fresh_keras")


def set_fixed_weights(layer, k):
    """Weight j <- fixed(shape, 10 k + j): the same values as in TF's script."""
    layer.set_weights([fixed(w.shape, 10 * k + j) for j, w in enumerate(layer.get_weights())])


def summaries(y):
    """What TF's script printed of an output: its sum, a position-weighted sum, the first 4."""
    weighted = float((y * np.arange(y.size).reshape(y.shape) % 7).sum())
    return float(y.sum()), weighted, y.ravel()[:4]


# The config keys of TF 1.15 (TF 2.15.1's, less its new 'groups' and 'keepdims'), besides
# name, trainable, batch_input_shape and dtype
CONV = {"filters", "kernel_size", "strides", "padding", "data_format", "dilation_rate",
        "activation", "use_bias", "kernel_initializer", "bias_initializer", "kernel_regularizer",
        "bias_regularizer", "activity_regularizer", "kernel_constraint", "bias_constraint"}
TRANSPOSE = CONV | {"output_padding"}
TRANSPOSE_3D = TRANSPOSE - {"dilation_rate"}
SEPARABLE = CONV | {"depth_multiplier", "depthwise_initializer", "pointwise_initializer",
                    "depthwise_regularizer", "pointwise_regularizer", "depthwise_constraint",
                    "pointwise_constraint"}
DEPTHWISE = (CONV - {"filters", "kernel_initializer", "kernel_regularizer",
                     "kernel_constraint"}) | {"depth_multiplier", "depthwise_initializer",
                                              "depthwise_regularizer", "depthwise_constraint"}
POOL = {"pool_size", "padding", "strides", "data_format"}
GLOBAL = {"data_format"}
LOCAL = (CONV - {"dilation_rate"}) | {"implementation"}

# (id, layer, config keys, TF's output shape, sum, weighted sum, first 4 values,
#  TF's weights (name, shape)); the input is fixed((2,) + input_shape, case index)
CASES = [
    ("conv2d_transpose_same",
     lambda: layers.Conv2DTranspose(3, (3, 2), strides=2, padding="same", activation="relu",
                                    input_shape=(3, 4, 2)), TRANSPOSE,
     (2, 6, 8, 3), 138.95611572265625, 990.9946929812431,
     [0.45342689752578735, 0.5709286332130432, 0.5797625780105591, 0.4681110978126526],
     [("conv2d_transpose/kernel:0", (3, 2, 3, 2)), ("conv2d_transpose/bias:0", (3,))]),
    ("conv2d_transpose_output_padding",
     lambda: layers.Conv2DTranspose(2, 3, strides=(2, 3), output_padding=(1, 2),
                                    input_shape=(3, 4, 2)), TRANSPOSE,
     (2, 8, 14, 2), -216.0916748046875, 1487.922533661127,
     [-0.8130245804786682, -0.9122685194015503, -0.847023069858551, -0.5309877395629883],
     [("conv2d_transpose/kernel:0", (3, 3, 2, 2)), ("conv2d_transpose/bias:0", (2,))]),
    ("conv2d_transpose_dilated",
     lambda: layers.Convolution2DTranspose(2, 2, dilation_rate=2, input_shape=(3, 4, 2)),
     TRANSPOSE, (2, 5, 6, 2), 42.79444885253906, 438.1454902589321,
     [0.7999609708786011, 0.6412765383720398, 0.5154287815093994, 0.3898482024669647],
     [("conv2d_transpose/kernel:0", (2, 2, 2, 2)), ("conv2d_transpose/bias:0", (2,))]),
    ("conv3d",
     lambda: layers.Conv3D(2, (2, 3, 2), strides=(1, 2, 1), padding="same",
                           input_shape=(3, 4, 5, 2)), CONV,
     (2, 3, 2, 5, 2), -5.802068710327148, 401.0539752840996,
     [-0.06258295476436615, -0.5958362221717834, 1.4727693796157837, 0.6709227561950684],
     [("conv3d/kernel:0", (2, 3, 2, 2, 2)), ("conv3d/bias:0", (2,))]),
    ("conv3d_transpose",
     lambda: layers.Conv3DTranspose(2, 2, strides=2, input_shape=(2, 3, 2, 3)), TRANSPOSE_3D,
     (2, 4, 6, 4, 2), -62.835296630859375, 1338.192508623004,
     [-0.3522087633609772, 0.1499079167842865, 0.5514235496520996, -0.09390623867511749],
     [("conv3d_transpose/kernel:0", (2, 2, 2, 2, 3)), ("conv3d_transpose/bias:0", (2,))]),
    ("conv3d_transpose_output_padding",
     lambda: layers.Convolution3DTranspose(3, (3, 2, 2), strides=2, padding="same",
                                           output_padding=1, input_shape=(2, 2, 3, 2)),
     TRANSPOSE_3D, (2, 4, 3, 5, 3), 153.19175720214844, 1213.6140233427286,
     [0.3773714005947113, 0.18915539979934692, 0.0751630961894989, -0.03145447373390198],
     [("conv3d_transpose/kernel:0", (3, 2, 2, 3, 2)), ("conv3d_transpose/bias:0", (3,))]),
    ("separable_conv1d",
     lambda: layers.SeparableConv1D(3, 3, strides=2, padding="same", depth_multiplier=2,
                                    activation="tanh", input_shape=(7, 2)), SEPARABLE,
     (2, 4, 3), -4.752772808074951, 87.19582419469953,
     [-0.3253457546234131, -0.15686941146850586, 0.04264559596776962, -0.2653554379940033],
     [("separable_conv1d/depthwise_kernel:0", (3, 2, 2)),
      ("separable_conv1d/pointwise_kernel:0", (1, 4, 3)), ("separable_conv1d/bias:0", (3,))]),
    ("separable_conv2d",
     lambda: layers.SeparableConvolution2D(3, (2, 3), dilation_rate=(2, 1), depth_multiplier=2,
                                           input_shape=(5, 6, 2)), SEPARABLE,
     (2, 3, 4, 3), -3.8851728439331055, 218.8951362594962,
     [0.2529960572719574, 0.10429516434669495, -0.058521583676338196, 0.20394697785377502],
     [("separable_conv2d/depthwise_kernel:0", (2, 3, 2, 2)),
      ("separable_conv2d/pointwise_kernel:0", (1, 1, 4, 3)), ("separable_conv2d/bias:0", (3,))]),
    ("depthwise_conv2d",
     lambda: layers.DepthwiseConv2D((3, 3), strides=2, padding="same", depth_multiplier=2,
                                    input_shape=(5, 5, 3)), DEPTHWISE,
     (2, 3, 3, 6), 12.997384071350098, 378.5147016867995,
     [0.003279387950897217, 0.11769922077655792, 0.3332953155040741, 0.4238123297691345],
     [("depthwise_conv2d/depthwise_kernel:0", (3, 3, 3, 2)), ("depthwise_conv2d/bias:0", (6,))]),
    ("max_pooling3d", lambda: layers.MaxPooling3D(input_shape=(4, 5, 4, 2)), POOL,
     (2, 2, 2, 2, 2), 15.33221435546875, 102.28345787525177,
     [0.4992032051086426, 0.4552173912525177, 0.49954140186309814, 0.4756242334842682], []),
    ("average_pooling3d",
     lambda: layers.AvgPool3D((2, 2, 1), strides=1, padding="same", input_shape=(3, 4, 2, 2)),
     POOL, (2, 3, 4, 2, 2), 3.1335983276367188, 314.7620540522039,
     [-0.3290093243122101, -0.3623442053794861, -0.346637487411499, -0.284015029668808], []),
    ("global_max_pooling3d", lambda: layers.GlobalMaxPool3D(input_shape=(2, 3, 2, 3)), GLOBAL,
     (2, 3), 2.9522504806518555, 7.383980393409729,
     [0.4907326102256775, 0.49276256561279297, 0.4921734631061554, 0.4933287501335144], []),
    ("global_average_pooling3d",
     lambda: layers.GlobalAveragePooling3D(input_shape=(2, 3, 2, 3)), GLOBAL,
     (2, 3), 0.00035011209547519684, 14.132014789938694,
     [-0.01971643604338169, -0.010644860565662384, -0.00013256010424811393,
      0.00026399455964565277], []),
    ("global_average_pooling2d_channels_first",
     lambda: layers.GlobalAveragePooling2D("channels_first", input_shape=(3, 2, 4)), GLOBAL,
     (2, 3), 0.05138692259788513, 20.286986619234085,
     [0.33416715264320374, -0.33827754855155945, 0.33126360177993774, -0.31335586309432983],
     []),
    ("locally_connected1d",
     lambda: layers.LocallyConnected1D(3, 2, strides=2, input_shape=(7, 2)), LOCAL,
     (2, 3, 3), -5.859323978424072, 81.70280835777521,
     [0.20248234272003174, -0.11237625032663345, -0.4120252728462219, -0.45167797803878784],
     [("locally_connected1d/kernel:0", (3, 4, 3)), ("locally_connected1d/bias:0", (3, 3))]),
    ("locally_connected2d",
     lambda: layers.LocallyConnected2D(2, (2, 3), strides=(1, 2), activation="relu",
                                       input_shape=(4, 6, 3)), LOCAL,
     (2, 3, 2, 2), 10.130112648010254, 43.315093368291855,
     [0.2772776186466217, 0.8909942507743835, 0.0, 0.0],
     [("locally_connected2d/kernel:0", (6, 18, 2)), ("locally_connected2d/bias:0", (3, 2, 2))]),
    ("locally_connected1d_implementation2",
     lambda: layers.LocallyConnected1D(2, 3, padding="same", implementation=2,
                                       input_shape=(5, 2)), LOCAL,
     (2, 5, 2), -3.5339713096618652, 78.84684942662716,
     [-0.49510738253593445, -0.5792297124862671, -0.45659250020980835, -0.398825466632843],
     [("locally_connected1d/kernel:0", (5, 2, 5, 2)), ("locally_connected1d/bias:0", (5, 2))]),
    ("locally_connected2d_implementation2",
     lambda: layers.LocallyConnected2D(2, (2, 3), strides=(2, 1), padding="same",
                                       implementation=2, input_shape=(3, 4, 2)), LOCAL,
     (2, 2, 4, 2), -0.9086410999298096, 122.78983634710312,
     [0.6017751693725586, 0.30781084299087524, 0.0038167834281921387, -0.36072927713394165],
     [("locally_connected2d/kernel:0", (3, 4, 2, 2, 4, 2)),
      ("locally_connected2d/bias:0", (2, 4, 2))]),
]


@pytest.mark.parametrize("index", range(len(CASES)), ids=[case[0] for case in CASES])
def test_layer_matches_tf_and_round_trips(index):
    _, make, keys, shape, tf_sum, tf_weighted, tf_first, tf_weights = CASES[index]
    model = keras.Sequential([make()])
    layer = model.layers[0]
    assert [(w.name, tuple(w.get_shape().as_list())) for w in layer.weights] == tf_weights
    set_fixed_weights(layer, index)
    x = fixed((2,) + tuple(model.input_shape[1:]), index)
    y = model.predict(x)
    assert y.shape == shape and layer.output_shape == (None,) + shape[1:]
    total, weighted, first = summaries(y)                          # TF 2.15.1's numbers
    np.testing.assert_allclose(total, tf_sum, atol=1e-4)
    np.testing.assert_allclose(weighted, tf_weighted, atol=1e-3)
    np.testing.assert_allclose(first, tf_first, atol=1e-5)
    config = layer.get_config()
    assert set(config) == keys | {"name", "trainable", "batch_input_shape", "dtype"}
    # serialize / deserialize: the same config, and with the same weights the same outputs
    clone = layers.deserialize(layers.serialize(layer))
    assert type(clone) is type(layer) and clone.get_config() == config
    again = keras.Sequential([clone])
    again.set_weights(model.get_weights())
    np.testing.assert_allclose(again.predict(x), y, atol=1e-6)


def test_conv2d_transpose_with_unknown_spatial_sizes():
    """The output shape is computed in the graph when the input's sizes are not known."""
    model = keras.Sequential([layers.Conv2DTranspose(3, (3, 2), strides=2, padding="same",
                                                     activation="relu",
                                                     input_shape=(None, None, 2))])
    assert model.output_shape == (None, None, None, 3)           # TF: (None, None, None, 3)
    set_fixed_weights(model.layers[0], 0)
    y = model.predict(fixed((2, 3, 4, 2), 0))
    np.testing.assert_allclose(summaries(y)[0], CASES[0][4], atol=1e-4)


def test_bad_arguments_raise_tfs_errors():
    with pytest.raises(ValueError, match="output padding"):
        layers.Conv2DTranspose(2, 3, strides=2, output_padding=2)
    with pytest.raises(ValueError, match='only "valid" is supported if implementation is 1'):
        layers.LocallyConnected1D(2, 3, padding="same")
    with pytest.raises(ValueError, match="ndim=4"):
        keras.Sequential([layers.DepthwiseConv2D(2, input_shape=(4, 3))])
    with pytest.raises(ValueError, match="channels_first"):
        keras.Sequential([layers.MaxPooling3D(data_format="channels_first",
                                              input_shape=(2, 4, 4, 4))])


def test_model_with_new_layers_saves_and_loads(tmp_path):
    model = keras.Sequential([layers.Conv3D(2, 2, input_shape=(3, 4, 4, 1)),
                              layers.Conv3DTranspose(2, 2, strides=2, output_padding=1),
                              layers.AveragePooling3D(), layers.GlobalMaxPooling3D()])
    x = fixed((2, 3, 4, 4, 1), 4)
    path = str(tmp_path / "volumes.h5")
    model.save(path)
    loaded = keras.models.load_model(path)
    assert [type(layer).__name__ for layer in loaded.layers] == [
        "Conv3D", "Conv3DTranspose", "AveragePooling3D", "GlobalMaxPooling3D"]
    assert loaded.layers[1].output_padding == (1, 1, 1)
    np.testing.assert_allclose(loaded.predict(x), model.predict(x), atol=1e-6)


def test_small_cnn_trains_as_tf():
    """Conv2D -> SeparableConv2D -> Conv2DTranspose -> GlobalAveragePooling2D -> Dense, SGD,
    two steps: the loss and every weight move, as in TF."""
    model = keras.Sequential([layers.Conv2D(4, 3, activation="relu", input_shape=(6, 6, 2)),
                              layers.SeparableConv2D(4, 2, depth_multiplier=2,
                                                     activation="relu"),
                              layers.Conv2DTranspose(3, 2, strides=2, padding="same"),
                              layers.GlobalAveragePooling2D(), layers.Dense(2)])
    for i, layer in enumerate(model.layers):
        set_fixed_weights(layer, i)
    x, y = fixed((8, 6, 6, 2), 1), fixed((8, 2), 2)
    model.compile(keras.optimizers.SGD(0.1), "mse")
    assert model.count_params() == 203                                      # TF: 203
    before = model.get_weights()
    np.testing.assert_allclose(model.evaluate(x, y, verbose=0), 0.1417311131954193, atol=1e-6)
    history = model.fit(x, y, batch_size=4, epochs=1, shuffle=False, verbose=0)
    np.testing.assert_allclose(history.history["loss"], [0.13896368443965912], atol=1e-6)
    np.testing.assert_allclose(model.evaluate(x, y, verbose=0), 0.1302640289068222, atol=1e-6)
    np.testing.assert_allclose(model.predict(x[:2]), [[0.04575869, -0.17751709],
                                                      [0.04552214, -0.17782995]], atol=1e-6)
    tf_sums = [1.001590609550476, 1.8326647281646729, 0.026993393898010254,
               0.8263376951217651, -0.018620312213897705, -0.5806384682655334,
               0.8187367916107178, -0.18873050808906555, -0.3115566372871399]
    after = model.get_weights()
    np.testing.assert_allclose([w.sum() for w in after], tf_sums, atol=1e-5)
    assert all(not np.array_equal(a, b) for a, b in zip(before, after))   # gradients reach all
