"""keras.constraints, and the keras optimizers that impose them after each step
(sandbox/keras/constraints.py, optimizers.py): every number is TF 2.15.1's, printed by
tf.compat.v1.keras (graph mode) from the same weights and data -- TF 2.15.1's legacy
optimizers are TF 1.15's optimizer_v2 classes."""
import numpy as np
import pytest

import sandbox as tf

keras = tf.keras
C = keras.constraints

W = np.array([[1., -2., 0.5], [3., 0.1, -1.], [0.2, 0.3, 0.4]], np.float32)

# TF 2.15.1's constraint(W) for each constraint
CONSTRAINED = [
    (C.MaxNorm(2.), {"max_value": 2.0, "axis": 0},
     [[0.6311944, -1.975459, 0.49999994], [1.8935833, 0.09877295, -0.9999999],
      [0.12623888, 0.29631886, 0.39999995]]),
    (C.MaxNorm(1.5, axis=1), {"max_value": 1.5, "axis": 1},
     [[0.65465367, -1.3093073, 0.32732683], [1.4223139, 0.04741047, -0.47410464],
      [0.19999996, 0.29999995, 0.39999992]]),
    (C.NonNeg(), {}, [[1., 0., 0.5], [3., 0.1, 0.], [0.2, 0.3, 0.4]]),
    (C.UnitNorm(), {"axis": 0},
     [[0.3155972, -0.9877295, 0.4210759], [0.94679165, 0.04938648, -0.8421518],
      [0.06311944, 0.14815943, 0.33686075]]),
    (C.UnitNorm(axis=1), {"axis": 1},
     [[0.43643576, -0.8728715, 0.21821788], [0.9482093, 0.03160698, -0.31606978],
      [0.37139058, 0.5570859, 0.74278116]]),
    (C.MinMaxNorm(0.5, 1.5, rate=0.7), {"min_value": 0.5, "max_value": 1.5, "rate": 0.7,
                                        "axis": 0},
     [[0.63137704, -1.6371161, 0.49999994], [1.8941312, 0.0818558, -0.9999999],
      [0.1262754, 0.24556743, 0.39999995]]),
    (C.MinMaxNorm(), {"min_value": 0.0, "max_value": 1.0, "rate": 1.0, "axis": 0},
     [[0.3155972, -0.9877295, 0.4210759], [0.94679165, 0.04938648, -0.8421518],
      [0.06311944, 0.14815943, 0.33686075]]),
]


def test_constraints_values_configs_and_serialization_as_tf():
    graph = tf.Graph()
    with graph.as_default():
        outs = [c(tf.constant(W)) for c, _, _ in CONSTRAINED]
        with tf.Session() as sess:
            values = sess.run(outs)
    for (constraint, config, expected), value in zip(CONSTRAINED, values):
        np.testing.assert_allclose(value, expected, rtol=1e-6, atol=1e-7)
        assert constraint.get_config() == config
        serialized = C.serialize(constraint)
        assert serialized == {"class_name": type(constraint).__name__, "config": config}
        again = C.deserialize(serialized)
        assert type(again) is type(constraint) and again.get_config() == config
    # names: the aliases and Keras 1's; dicts; callables; TF's errors
    assert C.max_norm is C.MaxNorm and C.radial_constraint is C.RadialConstraint
    assert type(C.get("max_norm")) is C.MaxNorm and type(C.get("maxnorm")) is C.MaxNorm
    assert type(C.get("NonNeg")) is C.NonNeg and C.get(None) is None
    assert C.get({"class_name": "MaxNorm", "config": {"max_value": 3}}).get_config() == {
        "max_value": 3, "axis": 0}
    clip = (lambda w: w)
    assert C.get(clip) is clip
    with pytest.raises(ValueError, match="Could not interpret constraint identifier: 5"):
        C.get(5)
    with pytest.raises(ValueError, match="Unknown constraint: foo"):
        C.get("foo")


def test_radial_constraint_rings_as_tf():
    graph = tf.Graph()
    with graph.as_default():
        kernels = {n: np.arange(n * n * 2, dtype=np.float32).reshape(n, n, 2, 1)
                   for n in (3, 4, 5)}
        outs = {n: C.RadialConstraint()(tf.constant(k)) for n, k in kernels.items()}
        with pytest.raises(ValueError, match="rank 4"):
            C.RadialConstraint()(tf.constant(W))
        with tf.Session() as sess:
            values = sess.run(outs)
    # TF 2.15.1's: each ring copies one entry ((1, 1)-th ... of channel 0; channel 1 is +1)
    expected = {
        3: [[8, 8, 8], [8, 0, 8], [8, 8, 8]],
        4: [[30, 30, 30, 30], [30, 10, 10, 30], [30, 10, 10, 30], [30, 30, 30, 30]],
        5: [[36, 36, 36, 36, 36], [36, 24, 24, 24, 36], [36, 24, 12, 24, 36],
            [36, 24, 24, 24, 36], [36, 36, 36, 36, 36]],
    }
    for n, value in values.items():
        np.testing.assert_array_equal(value[:, :, 0, 0], expected[n])
        np.testing.assert_array_equal(value[:, :, 1, 0], np.array(expected[n]) + 1)


X = np.array([[1., 2.], [-1., 0.5], [0.3, -0.7]], np.float32)
Y = np.array([[1., 0., 2.], [0., 1., -1.], [0.5, 0.5, 0.]], np.float32)
K0 = np.array([[0.5, -0.3, 0.9], [0.2, 0.8, -0.4]], np.float32)
B0 = np.array([0.1, -0.2, 0.05], np.float32)

# TF 2.15.1's kernel and bias after each of two SGD(0.5) steps
CONSTRAINED_STEPS = [
    ((C.max_norm(1.), C.non_neg()), [
        ([[0.47966653, -0.43277767, 0.9984317], [0.1863333, 0.47833326, 0.05598205]],
         [0.17666668, 0., 0.19444446]),
        ([[0.46345833, -0.49528253, 0.97765374], [0.16744553, 0.30510914, 0.21022107]],
         [0.23118891, 0.08542594, 0.19626328])]),
    ((C.unit_norm(axis=1), C.min_max_norm(0.2, 0.3, rate=0.5)), [
        ([[0.38114703, -0.34388873, 0.8581767], [0.3604794, 0.925381, 0.11715048]],
         [0.17666662, -0.11666664, 0.1944444]),
        ([[0.31728172, -0.42602846, 0.84724957], [0.40375608, 0.80646104, 0.43197367]],
         [0.19964357, -0.08472431, 0.18870467])]),
    (("non_neg", None), [
        ([[0.47966665, 0., 1.0799999], [0.18633334, 0.47833335, 0.06055558]],
         [0.17666668, -0.11666667, 0.19444446]),
        ([[0.4634585, 0., 1.1473721], [0.16744556, 0.26641113, 0.22386299]],
         [0.2311889, -0.00677779, 0.19262965])]),
]


@pytest.mark.parametrize("constraints,steps", CONSTRAINED_STEPS)
def test_constraint_holds_after_each_training_step_as_tf(constraints, steps):
    keras.backend.clear_session()
    kernel_constraint, bias_constraint = constraints
    model = keras.Sequential([keras.layers.Dense(3, input_shape=(2,),
                                                 kernel_constraint=kernel_constraint,
                                                 bias_constraint=bias_constraint)])
    model.layers[0].set_weights([K0, B0])
    model.compile(keras.optimizers.SGD(0.5), "mse")
    for kernel, bias in steps:
        model.train_on_batch(X, Y)
        got_kernel, got_bias = model.get_weights()
        np.testing.assert_allclose(got_kernel, kernel, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(got_bias, bias, rtol=1e-5, atol=1e-6)


def test_radial_constraint_on_a_conv2d_kernel_after_a_step_as_tf():
    keras.backend.clear_session()
    model = keras.Sequential([keras.layers.Conv2D(1, 3, input_shape=(4, 4, 1), use_bias=False,
                                                  kernel_constraint="radial_constraint")])
    model.layers[0].set_weights([np.arange(9, dtype=np.float32).reshape(3, 3, 1, 1) / 10])
    model.compile(keras.optimizers.SGD(0.1), "mse")
    model.train_on_batch(np.linspace(-1, 1, 32).reshape(2, 4, 4, 1).astype(np.float32),
                         np.ones((2, 2, 2, 1), np.float32))
    ring, centre = 0.19546306, -0.23658688                        # TF 2.15.1's
    expected = np.full((3, 3), ring, np.float32)
    expected[1, 1] = centre
    np.testing.assert_allclose(model.get_weights()[0][:, :, 0, 0], expected, rtol=1e-5)


def test_constrained_dense_survives_save_and_load_model(tmp_path):
    keras.backend.clear_session()
    model = keras.Sequential([keras.layers.Dense(3, input_shape=(2,),
                                                 kernel_constraint=C.max_norm(2.),
                                                 bias_constraint="non_neg")])
    model.compile(keras.optimizers.SGD(5.0), "mse")
    config = model.layers[0].get_config()
    assert config["kernel_constraint"] == {"class_name": "MaxNorm",
                                           "config": {"max_value": 2.0, "axis": 0}}
    assert config["bias_constraint"] == {"class_name": "NonNeg", "config": {}}
    path = str(tmp_path / "constrained.h5")
    model.save(path)
    loaded = keras.models.load_model(path)
    layer = loaded.layers[0]
    assert isinstance(layer.kernel_constraint, C.MaxNorm)
    assert layer.kernel_constraint.max_value == 2.0
    assert layer.get_config()["kernel_constraint"] == config["kernel_constraint"]
    # and the loaded model's training keeps the constraints
    layer.set_weights([K0 * 10, -np.ones(3, np.float32)])
    loaded.fit(X, Y * 50, epochs=2, batch_size=3, verbose=0)
    kernel, bias = layer.get_weights()
    assert np.all(np.linalg.norm(kernel, axis=0) <= 2.0 + 1e-5)
    assert np.all(bias >= 0)


# -- the optimizers: three steps of a Dense(2) on mse, from the same weights -----------------

OX = np.array([[1., 2., 3.], [-1., 0.5, 2.], [0.3, -0.7, 1.]], np.float32)
OY = np.array([[1., 0.], [0., 1.], [0.5, 0.5]], np.float32)
OK0 = np.array([[0.5, -0.3], [0.2, 0.8], [-0.6, 0.1]], np.float32)
OB0 = np.array([0.1, -0.2], np.float32)

# TF 2.15.1's kernel, bias after 3 steps; its get_config (without TF 2's 'decay' for all but
# Nadam, where it is the momentum schedule's, and Ftrl's 'beta'); its optimizer.weights count
OPTIMIZER_STEPS = [
    ("adadelta", {"name": "Adadelta", "learning_rate": 0.001, "rho": 0.95, "epsilon": 1e-07},
     [[0.5000043, -0.30000427], [0.2000043, 0.7999957], [-0.59999573, 0.09999571]],
     [0.10000429, -0.19999571], 5),
    (lambda: keras.optimizers.Adadelta(1.0),
     {"name": "Adadelta", "learning_rate": 1.0, "rho": 0.95, "epsilon": 1e-07},
     [[0.5042628, -0.30427986], [0.20427796, 0.7957191], [-0.5957189, 0.09573127]],
     [0.10428225, -0.19560416], 5),
    ("adamax", {"name": "Adamax", "learning_rate": 0.001, "beta_1": 0.9, "beta_2": 0.999,
                "epsilon": 1e-07},
     [[0.50298965, -0.30299774], [0.20299682, 0.7970018], [-0.59700173, 0.09700762]],
     [0.10299887, -0.1970453], 5),
    (lambda: keras.optimizers.Adamax(0.1),
     {"name": "Adamax", "learning_rate": 0.1, "beta_1": 0.9, "beta_2": 0.999, "epsilon": 1e-07},
     [[0.6756925, -0.5499711], [0.441283, 0.5448432], [-0.34480703, -0.10027798]],
     [0.36049822, 0.02575189], 5),
    ("nadam", {"name": "Nadam", "learning_rate": 0.001, "decay": 0.004, "beta_1": 0.9,
               "beta_2": 0.999, "epsilon": 1e-07},
     [[0.5025647, -0.3025694], [0.20256886, 0.79743034], [-0.59743035, 0.09743366]],
     [0.10257001, -0.19739823], 6),
    (lambda: keras.optimizers.Nadam(0.1),
     {"name": "Nadam", "learning_rate": 0.1, "decay": 0.004, "beta_1": 0.9, "beta_2": 0.999,
      "epsilon": 1e-07},
     [[0.6045135, -0.5187919], [0.40715304, 0.5737913], [-0.37735355, -0.06515992]],
     [0.32783645, 0.09616852], 6),
    ("ftrl", {"name": "Ftrl", "learning_rate": 0.001, "initial_accumulator_value": 0.1,
              "learning_rate_power": -0.5, "l1_regularization_strength": 0.0,
              "l2_regularization_strength": 0.0, "l2_shrinkage_regularization_strength": 0.0},
     [[0.07876878, -0.12737553], [0.15207231, 0.58998454], [-0.5374053, 0.06052363]],
     [0.08064292, -0.00206465], 5),
    (lambda: keras.optimizers.Ftrl(0.5, l1_regularization_strength=0.01,
                                   l2_regularization_strength=0.02),
     {"name": "Ftrl", "learning_rate": 0.5, "initial_accumulator_value": 0.1,
      "learning_rate_power": -0.5, "l1_regularization_strength": 0.01,
      "l2_regularization_strength": 0.02, "l2_shrinkage_regularization_strength": 0.0},
     [[0.3436325, -0.5717019], [0.39370358, 0.13651466], [-0.14222899, -0.13132156]],
     [0.52055407, 0.38338745], 5),
]


@pytest.mark.parametrize("make,config,kernel,bias,n_weights", OPTIMIZER_STEPS)
def test_optimizer_steps_configs_and_state_as_tf(make, config, kernel, bias, n_weights):
    keras.backend.clear_session()
    model = keras.Sequential([keras.layers.Dense(2, input_shape=(3,))])
    model.layers[0].set_weights([OK0, OB0])
    model.compile(make if isinstance(make, str) else make(), "mse")
    for _ in range(3):
        model.train_on_batch(OX, OY)
    got_kernel, got_bias = model.get_weights()
    np.testing.assert_allclose(got_kernel, kernel, rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(got_bias, bias, rtol=1e-5, atol=1e-7)
    optimizer = model.optimizer
    assert optimizer.get_config() == config
    weights = optimizer.weights
    assert len(weights) == n_weights and weights[0].name.endswith("/iter:0")
    assert optimizer.get_weights()[0] == 3
    # serialize / deserialize: the same optimizer again
    again = keras.optimizers.deserialize(keras.optimizers.serialize(optimizer))
    assert type(again) is type(optimizer) and again.get_config() == config


def test_optimizer_state_moves_through_save_and_load_model(tmp_path):
    keras.backend.clear_session()
    model = keras.Sequential([keras.layers.Dense(2, input_shape=(3,))])
    model.compile("nadam", "mse")
    model.train_on_batch(OX, OY)
    path = str(tmp_path / "nadam.h5")
    model.save(path)
    loaded = keras.models.load_model(path)
    assert type(loaded.optimizer) is keras.optimizers.Nadam
    for ours, theirs in zip(model.optimizer.get_weights(), loaded.optimizer.get_weights()):
        np.testing.assert_array_equal(ours, theirs)     # momentum_cache included
    model.train_on_batch(OX, OY)
    loaded.train_on_batch(OX, OY)
    np.testing.assert_allclose(loaded.get_weights()[0], model.get_weights()[0], rtol=1e-6)


def test_learning_rate_is_a_variable_set_between_steps():
    keras.backend.clear_session()
    model = keras.Sequential([keras.layers.Dense(2, input_shape=(3,))])
    model.layers[0].set_weights([OK0, OB0])
    optimizer = keras.optimizers.SGD(0.1)
    model.compile(optimizer, "mse")
    assert optimizer.lr is optimizer.learning_rate
    assert keras.backend.get_value(optimizer.lr) == np.float32(0.1)
    model.train_on_batch(OX, OY)
    before = model.get_weights()[0]
    keras.backend.set_value(optimizer.lr, 0.0)          # no step at all from now on
    model.train_on_batch(OX, OY)
    np.testing.assert_array_equal(model.get_weights()[0], before)
    keras.backend.set_value(optimizer.lr, 0.05)
    assert optimizer.get_config()["learning_rate"] == pytest.approx(0.05)
    optimizer.lr = 0.2                                  # TF's __setattr__ does set_value
    assert keras.backend.get_value(optimizer.learning_rate) == np.float32(0.2)
    with pytest.raises(TypeError, match="Unexpected keyword argument"):
        keras.optimizers.Adadelta(bogus=1)
    with pytest.raises(ValueError, match="learning_rate_power"):
        keras.optimizers.Ftrl(learning_rate_power=0.5)
