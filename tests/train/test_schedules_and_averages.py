"""Learning-rate schedules (train/learning_rate_decay.py), ExponentialMovingAverage
(train/moving_averages.py), AdadeltaOptimizer and FtrlOptimizer (train/adadelta.py, ftrl.py,
their Apply ops in ops/training_ops.py). Expected numbers were measured with TensorFlow 1.15.5
running the same programs (/tmp/tf115)."""
import numpy as np
import pytest

import sandbox as tf
from sandbox.cluster import LocalCluster

STEPS = [0, 5, 10, 15, 20, 45, 99, 100, 150]

# TF 1.15's values of each schedule at STEPS.
SCHEDULES = {
    "piecewise_constant": (lambda gs: tf.train.piecewise_constant(gs, [10, 20], [1.0, 0.5, 0.1]),
                           [1.0, 1.0, 1.0, 0.5, 0.5, 0.1, 0.1, 0.1, 0.1]),
    "polynomial": (lambda gs: tf.train.polynomial_decay(0.1, gs, 100, end_learning_rate=0.01,
                                                        power=0.5),
                   [0.1, 0.0977211520075798, 0.09538149833679199, 0.09297589957714081,
                    0.09049844741821289, 0.07674579322338104, 0.01900002360343933, 0.01, 0.01]),
    "polynomial_cycle": (lambda gs: tf.train.polynomial_decay(
        0.1, gs, 30, end_learning_rate=0.01, power=2.0, cycle=True),
        [0.1, 0.07249999791383743, 0.04999999701976776, 0.032499998807907104,
         0.019999999552965164, 0.015625, 0.01275625079870224, 0.012500000186264515, None]),
    "cosine": (lambda gs: tf.train.cosine_decay(0.1, gs, 100, alpha=0.1),
               [0.1, 0.09944597631692886, 0.09779754281044006, 0.09509529173374176,
                0.09140576422214508, 0.06203955039381981, 0.010022206231951714, 0.01, 0.01]),
    "cosine_restarts": (lambda gs: tf.train.cosine_decay_restarts(0.1, gs, 20, t_mul=2.0,
                                                                  m_mul=0.5, alpha=0.01),
                        [0.1, 0.0855017900466919, 0.05050000175833702, 0.015498215332627296,
                         0.05050000175833702, 0.0162785854190588, 0.013860838487744331,
                         0.013374999165534973, 0.013256109319627285]),
    "inverse_time": (lambda gs: tf.train.inverse_time_decay(0.1, gs, 10, 0.5),
                     [0.1, 0.08, 0.06666667014360428, 0.05714285746216774, 0.05,
                      0.03076923079788685, 0.016806721687316895, 0.01666666753590107,
                      0.0117647061124444]),
    "inverse_time_staircase": (lambda gs: tf.train.inverse_time_decay(0.1, gs, 10, 0.5,
                                                                      staircase=True),
                               [0.1, 0.1, 0.06666667014360428, 0.06666667014360428, 0.05,
                                0.03333333507180214, 0.0181818176060915, 0.01666666753590107,
                                0.0117647061124444]),
    "natural_exp": (lambda gs: tf.train.natural_exp_decay(0.1, gs, 10, 0.5),
                    [0.1, 0.07788007706403732, 0.060653068125247955, 0.04723665863275528,
                     0.03678794577717781, 0.01053992286324501, 0.0007083407836034894,
                     0.0006737948278896511, 5.5308450100710616e-05]),
    "natural_exp_staircase": (lambda gs: tf.train.natural_exp_decay(0.1, gs, 10, 0.5,
                                                                    staircase=True),
                              [0.1, 0.1, 0.060653068125247955, 0.060653068125247955,
                               0.03678794577717781, 0.013533529825508595,
                               0.0011108997277915478, 0.0006737948278896511,
                               5.5308450100710616e-05]),
    "linear_cosine": (lambda gs: tf.train.linear_cosine_decay(0.1, gs, 100, num_periods=2.0,
                                                              alpha=0.1, beta=0.01),
                      [0.111, 0.09597338736057281, 0.06645084917545319, 0.03382168710231781,
                       0.009594231843948364, 0.05979306250810623, 0.01195663120597601, 0.011,
                       0.011]),
    "exponential_staircase": (lambda gs: tf.train.exponential_decay(0.1, gs, 10, 0.5,
                                                                    staircase=True),
                              [0.1, 0.1, 0.05, 0.05, 0.025, 0.00625, 0.0001953125,
                               9.765625e-05, 3.0517578e-06]),
}


def test_schedules_match_tf_1_15_at_several_steps():
    gs = tf.placeholder(tf.int64, [])
    rates = {name: make(gs) for name, (make, _) in SCHEDULES.items()}
    with tf.Session() as sess:
        for name, (_, expected) in SCHEDULES.items():
            assert rates[name].dtype == tf.float32
            for step, want in zip(STEPS, expected):
                if want is None:
                    # TF 1.15 gives 0.0125 here: its float32 150 / 30 rounds above 5, so its
                    # ceil says 6 periods; the sandbox's exact division says 5 (rate 0.01).
                    continue
                np.testing.assert_allclose(sess.run(rates[name], {gs: step}), want, rtol=2e-6,
                                           err_msg=f"{name} at step {step}")
    assert rates["polynomial"].name == "PolynomialDecay:0"
    assert rates["cosine_restarts"].name == "SGDRDecay:0"
    assert rates["natural_exp"].name == "ExponentialDecay:0"        # as TF names it


def test_piecewise_constant_keeps_the_dtype_of_its_values_and_checks_lengths():
    step = tf.placeholder(tf.int32, [])
    rate = tf.train.piecewise_constant(step, [10, 20], [1, 2, 3])
    assert rate.dtype == tf.int32
    with tf.Session() as sess:
        assert [sess.run(rate, {step: s}) for s in (0, 10, 11, 20, 21)] == [1, 1, 2, 2, 3]
    with pytest.raises(ValueError, match="1 less than the length of values"):
        tf.train.piecewise_constant(step, [10, 20], [1.0, 2.0])
    with pytest.raises(ValueError, match="global_step is required"):
        tf.train.cosine_decay(0.1, None, 100)


def test_a_schedule_drives_an_optimizer_through_the_global_step():
    gs = tf.train.get_or_create_global_step()
    w = tf.Variable(0.0, name="w")
    lr = tf.train.piecewise_constant(gs, [1], [1.0, 0.1])
    train = tf.train.GradientDescentOptimizer(lr).minimize(-w, global_step=gs)  # grad -1
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(3):
            sess.run(train)
        np.testing.assert_allclose(sess.run(w), 1.0 + 1.0 + 0.1, rtol=1e-6)


# -- ExponentialMovingAverage ---------------------------------------------------------------

def test_ema_values_names_and_restore_map_match_tf_1_15():
    w = tf.Variable([1.0, 2.0], name="w")
    b = tf.Variable(3.0, name="b")
    step = tf.Variable(0, trainable=False, name="step")
    t = tf.identity(w * 2.0, name="t")
    ema = tf.train.ExponentialMovingAverage(0.9, num_updates=step)
    op = ema.apply([w, b, t])
    assert (op.name, op.type) == ("ExponentialMovingAverage", "NoOp")
    assert [v.name for v in tf.global_variables()] == [
        "w:0", "b:0", "step:0", "w/ExponentialMovingAverage:0", "b/ExponentialMovingAverage:0",
        "t/ExponentialMovingAverage:0"]
    assert tf.moving_average_variables() == [w, b]          # the variables, not the shadows
    assert ema.average(w).name == "w/ExponentialMovingAverage:0"
    assert ema.average_name(step) == "step/ExponentialMovingAverage"
    assert ema.average(step) is None
    assert sorted(ema.variables_to_restore()) == [
        "b/ExponentialMovingAverage", "step", "t/ExponentialMovingAverage",
        "w/ExponentialMovingAverage"]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run([w.assign([2.0, 0.0]), step.assign(5)])
        sess.run(op)                                         # decay min(0.9, 6/15) = 0.4
        first = sess.run([ema.average(w), ema.average(b), ema.average(t)])
        sess.run(step.assign(100))
        sess.run(op)                                         # decay 0.9
        second = sess.run([ema.average(w), ema.average(b), ema.average(t)])
    for got, want in zip(first, [[1.6, 0.79999995], 3.0, [2.4, 0.0]]):
        np.testing.assert_allclose(got, want, rtol=1e-6)
    for got, want in zip(second, [[1.64, 0.7199999], 3.0, [2.5600002, 0.0]]):
        np.testing.assert_allclose(got, want, rtol=1e-6)


def test_ema_zero_debias_for_tensors_matches_tf():
    v = tf.Variable([1.0, 2.0], name="v")
    t = tf.identity(v * 3.0, name="t")
    ema = tf.train.ExponentialMovingAverage(0.8, zero_debias=True)
    op = ema.apply([t])
    assert sorted(x.name for x in tf.global_variables()) == [
        "t/ExponentialMovingAverage/biased:0", "t/ExponentialMovingAverage/local_step:0",
        "t/ExponentialMovingAverage:0", "v:0"]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(op)
        np.testing.assert_allclose(sess.run(ema.average(t)), [3.0, 6.0], rtol=1e-6)
        sess.run(v.assign([2.0, 0.0]))
        sess.run(op)
        np.testing.assert_allclose(sess.run(ema.average(t)), [4.666667, 2.666667], rtol=1e-6)


def test_ema_refuses_integer_variables():
    with pytest.raises(TypeError, match="half, float, or double"):
        tf.train.ExponentialMovingAverage(0.9).apply([tf.Variable(1, name="count")])


def test_variables_to_restore_loads_the_averages_into_the_variables(tmp_path):
    w = tf.Variable(10.0, name="w")
    ema = tf.train.ExponentialMovingAverage(0.5)
    op = ema.apply([w])
    saver = tf.train.Saver()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(w.assign(20.0))
        sess.run(op)                                          # shadow: 10 + 0.5 * 10 = 15
        path = saver.save(sess, str(tmp_path / "model"))
    tf.reset_default_graph()
    w = tf.Variable(0.0, name="w")
    restorer = tf.train.Saver(tf.train.ExponentialMovingAverage(0.5).variables_to_restore())
    with tf.Session() as sess:
        restorer.restore(sess, path)
        assert sess.run(w) == 15.0


def test_ema_shadows_live_on_the_ps_with_their_variables(capfd):
    with LocalCluster({"ps": 1, "worker": 1}) as cluster:
        with tf.device("/job:ps/task:0"):
            w = tf.Variable([4.0], name="w")
        with tf.device("/job:worker/task:0"):
            ema = tf.train.ExponentialMovingAverage(0.75)
            op = ema.apply([w])
        config = tf.ConfigProto(log_device_placement=True)
        with tf.Session(cluster.target("worker", 0), config=config) as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(w.assign([8.0]))
            sess.run(op)
            assert sess.run(ema.average(w)).tolist() == [5.0]     # 4 + 0.25 * (8 - 4)
    err = capfd.readouterr().err
    ps = "/job:ps/replica:0/task:0/device:CPU:0"
    assert f"w/ExponentialMovingAverage: (VariableV2): {ps}" in err
    assert f"ExponentialMovingAverage/AssignMovingAvg: (AssignSub): {ps}" in err


# -- Adadelta and FTRL ---------------------------------------------------------------------

def _train(make, steps=3):
    w = tf.Variable([1.0, -2.0, 3.0], name="w")
    b = tf.Variable(0.5, name="b")
    x = tf.constant([0.5, 1.5, -1.0])
    loss = tf.reduce_sum(tf.square(w * x - 1.0)) + b * b * 3.0
    opt = make()
    train = opt.minimize(loss)
    apply_types = [op.type for op in tf.get_default_graph().get_operations()
                   if op.type.startswith("Apply")]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(steps):
            sess.run(train)
        values = sess.run([w, b] + [opt.get_slot(w, n) for n in opt.get_slot_names()])
    return opt, apply_types, values


# TF 1.15 after three steps: w, b, then w's slots in get_slot_names() order.
OPTIMIZERS = [
    (lambda: tf.train.AdadeltaOptimizer(), "ApplyAdadelta",
     [[1.0000014, -1.9999986, 2.9999986], 0.49999866, [0.03565622, 20.537998, 9.128],
      [2.9200244e-08, 2.9200280e-08, 2.9200280e-08]]),
    (lambda: tf.train.AdadeltaOptimizer(learning_rate=1.0, rho=0.9, epsilon=1e-6),
     "ApplyAdadelta",
     [[1.0096909, -1.9902986, 2.9902966], 0.4903257, [0.067288876, 38.924202, 17.314419],
      [2.8362479e-06, 2.8429522e-06, 2.8442685e-06]]),
    (lambda: tf.train.FtrlOptimizer(0.1), "ApplyFtrl",
     [[0.6866102, -1.7232664, 2.6570106], 0.2482151, [1.3465889, 393.1831, 176.44446],
      [-7.9676046, 341.70383, -352.93707]]),
    (lambda: tf.train.FtrlOptimizer(0.5, initial_accumulator_value=0.2,
                                    l1_regularization_strength=0.01,
                                    l2_regularization_strength=0.1), "ApplyFtrl",
     [[1.155531, -0.8773416, 1.7415113], -0.00016093564, [1.2184478, 295.6336, 143.59785],
      [-2.7921333, 30.35549, -42.096172]]),
    (lambda: tf.train.FtrlOptimizer(0.5, learning_rate_power=-0.25,
                                    l1_regularization_strength=0.01,
                                    l2_regularization_strength=0.1,
                                    l2_shrinkage_regularization_strength=0.05), "ApplyFtrlV2",
     [[1.0190156, 0.57712495, -0.13583659], -0.07185704, [1.3039341, 152.02617, 85.04582],
      [-2.3916368, -4.1784515, 0.8621788]]),
    (lambda: tf.train.FtrlOptimizer(0.5, learning_rate_power=0.0), "ApplyFtrl",
     [[1.015625, 9.0, -1.0], -6.0, [1.5462891, 1620.1, 100.1], [-2.03125, -18.0, 2.0]]),
]


@pytest.mark.parametrize("make, apply_type, expected", OPTIMIZERS)
def test_adadelta_and_ftrl_match_tf_1_15_after_three_steps(make, apply_type, expected):
    opt, apply_types, values = _train(make)
    assert apply_types == [apply_type, apply_type]
    for got, want in zip(values, expected):
        np.testing.assert_allclose(got, want, rtol=5e-6, atol=1e-9)


def test_slot_names_and_slot_variables_are_tfs():
    opt, _, _ = _train(tf.train.AdadeltaOptimizer, steps=0)
    assert opt.get_slot_names() == ["accum", "accum_update"]
    assert [v.name for v in tf.global_variables()] == [
        "w:0", "b:0", "w/Adadelta:0", "w/Adadelta_1:0", "b/Adadelta:0", "b/Adadelta_1:0"]
    tf.reset_default_graph()
    opt, _, values = _train(lambda: tf.train.FtrlOptimizer(0.1), steps=0)
    assert opt.get_slot_names() == ["accum", "linear"]
    assert [v.name for v in tf.global_variables()][2:4] == ["w/Ftrl:0", "w/Ftrl_1:0"]
    np.testing.assert_allclose(values[2], [0.1, 0.1, 0.1])       # initial_accumulator_value
    for bad, match in ((dict(initial_accumulator_value=-1.0), "positive or zero"),
                       (dict(learning_rate_power=0.5), "negative or zero"),
                       (dict(l1_regularization_strength=-0.1), "l1_regularization_strength")):
        with pytest.raises(ValueError, match=match):
            tf.train.FtrlOptimizer(0.1, **bad)


# TF 1.15 after three steps of the same IndexedSlices gradient (rows 2, 0, 2): emb, then its
# slots in get_slot_names() order. Rows 1 and 3 are never touched and keep their values.
SPARSE = [
    (lambda: tf.train.AdadeltaOptimizer(1.0, rho=0.9, epsilon=1e-6), "SparseApplyAdadelta",
     [[-0.5097069144248962, -0.4097062647342682, -0.2902974784374237],
      [0.09029252827167511, 0.20970746874809265, 0.29029256105422974]],
     [[0.024390006437897682, 0.010840002447366714, 0.0027100006118416786],
      [0.6097501516342163, 0.6097501516342163, 0.27100005745887756]]),
    (lambda: tf.train.FtrlOptimizer(0.5, l1_regularization_strength=0.01,
                                    l2_regularization_strength=0.1), "SparseApplyFtrl",
     [[-0.8324246406555176, -0.6157052516937256, 0.3140904903411865],
      [-0.9918381571769714, 1.2153712511062622, -0.8310537934303284]],
     [[0.37, 0.22, 0.13], [6.85, 6.85, 3.1]]),
    (lambda: tf.train.FtrlOptimizer(0.5, learning_rate_power=-0.25,
                                    l1_regularization_strength=0.01,
                                    l2_shrinkage_regularization_strength=0.05),
     "SparseApplyFtrlV2",
     [[-0.6083319187164307, -0.4208846986293793, 0.2426174432039261],
      [-1.4757860898971558, 1.6177124977111816, -1.1110718250274658]],
     [[0.37, 0.22, 0.13], [6.85, 6.85, 3.1]]),
]


@pytest.mark.parametrize("make, op_type, rows_0_2, accum_0_2", SPARSE)
def test_sparse_updates_change_only_the_looked_up_rows_as_tf(make, op_type, rows_0_2,
                                                             accum_0_2):
    start = np.arange(12, dtype=np.float32).reshape(4, 3) / 10 - 0.5
    emb = tf.Variable(start, name="emb")
    grad = tf.IndexedSlices(tf.constant([[1., -2., 0.5], [0.3, 0.2, -0.1], [0.5, 0.5, 0.5]]),
                            tf.constant([2, 0, 2]), tf.constant([4, 3]))
    opt = make()
    train = opt.apply_gradients([(grad, emb)])
    assert op_type in {op.type for op in tf.get_default_graph().get_operations()}
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(3):
            sess.run(train)
        value, accum = sess.run([emb, opt.get_slot(emb, "accum")])
    np.testing.assert_allclose(value[[0, 2]], rows_0_2, rtol=2e-6)
    np.testing.assert_allclose(accum[[0, 2]], accum_0_2, rtol=2e-6)
    np.testing.assert_array_equal(value[[1, 3]], start[[1, 3]])     # untouched rows
