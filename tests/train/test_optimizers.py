"""tf.train optimizers, the Apply* training ops, slots and the global step."""
import threading

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import sandbox as tf
from sandbox.ops import training_ops

SHAPE = (2, 3)


# -- NumPy references (float64) ------------------------------------------------------------

def ref_gd(var, grads, lr):
    for g in grads:
        var = var - lr * g
    return var, {}


def ref_momentum(var, grads, lr, momentum, nesterov=False):
    accum = np.zeros_like(var)
    for g in grads:
        accum = accum * momentum + g
        var = var - (g * lr + accum * momentum * lr if nesterov else lr * accum)
    return var, {"momentum": accum}


def ref_adagrad(var, grads, lr, init):
    accum = np.full_like(var, init)
    for g in grads:
        accum = accum + g * g
        var = var - lr * g / np.sqrt(accum)
    return var, {"accumulator": accum}


def ref_rmsprop(var, grads, lr, decay, momentum, eps, centered=False):
    ms, mom, mg = np.ones_like(var), np.zeros_like(var), np.zeros_like(var)
    for g in grads:
        ms = ms + (g * g - ms) * (1 - decay)
        if centered:
            mg = mg + (g - mg) * (1 - decay)
            mom = mom * momentum + lr * g / np.sqrt(ms - mg * mg + eps)
        else:
            mom = mom * momentum + lr * g / np.sqrt(ms + eps)
        var = var - mom
    slots = {"rms": ms, "momentum": mom}
    if centered:
        slots["mg"] = mg
    return var, slots


def ref_adam(var, grads, lr, beta1, beta2, eps, nesterov=False):
    m, v = np.zeros_like(var), np.zeros_like(var)
    b1p, b2p = beta1, beta2
    for g in grads:
        alpha = lr * np.sqrt(1 - b2p) / (1 - b1p)
        m = m + (g - m) * (1 - beta1)
        v = v + (g * g - v) * (1 - beta2)
        step = m * beta1 + g * (1 - beta1) if nesterov else m
        var = var - step * alpha / (np.sqrt(v) + eps)
        b1p, b2p = b1p * beta1, b2p * beta2
    return var, {"m": m, "v": v}, (b1p, b2p)


OPTIMIZERS = {
    "gd": (lambda: tf.train.GradientDescentOptimizer(0.1),
           lambda w, gs: ref_gd(w, gs, 0.1)),
    "momentum": (lambda: tf.train.MomentumOptimizer(0.1, 0.9),
                 lambda w, gs: ref_momentum(w, gs, 0.1, 0.9)),
    "nesterov": (lambda: tf.train.MomentumOptimizer(0.1, 0.9, use_nesterov=True),
                 lambda w, gs: ref_momentum(w, gs, 0.1, 0.9, nesterov=True)),
    "adagrad": (lambda: tf.train.AdagradOptimizer(0.3, initial_accumulator_value=0.2),
                lambda w, gs: ref_adagrad(w, gs, 0.3, 0.2)),
    "rmsprop": (lambda: tf.train.RMSPropOptimizer(0.01, decay=0.8, momentum=0.5, epsilon=1e-6),
                lambda w, gs: ref_rmsprop(w, gs, 0.01, 0.8, 0.5, 1e-6)),
    "rmsprop_centered": (
        lambda: tf.train.RMSPropOptimizer(0.01, decay=0.8, momentum=0.5, epsilon=1e-6,
                                          centered=True),
        lambda w, gs: ref_rmsprop(w, gs, 0.01, 0.8, 0.5, 1e-6, centered=True)),
    "adam": (lambda: tf.train.AdamOptimizer(0.05, beta1=0.8, beta2=0.9, epsilon=1e-6),
             lambda w, gs: ref_adam(w, gs, 0.05, 0.8, 0.9, 1e-6)[:2]),
}


def run_fed_gradients(make_opt, w0, grads, dtype=tf.float32):
    """Applies the given gradient values step by step; returns final var and slot values."""
    w = tf.Variable(w0.astype(dtype.as_numpy_dtype), name="weights")
    g = tf.placeholder(dtype, w0.shape, name="g")
    opt = make_opt()
    train = opt.apply_gradients([(g, w)])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for value in grads:
            sess.run(train, {g: value.astype(dtype.as_numpy_dtype)})
        slots = {name: sess.run(opt.get_slot(w, name)) for name in opt.get_slot_names()}
        return sess.run(w), slots, opt


@pytest.mark.parametrize("kind", sorted(OPTIMIZERS))
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), steps=st.integers(1, 5))
def test_update_matches_numpy_formula(kind, seed, steps):
    tf.reset_default_graph()
    make_opt, reference = OPTIMIZERS[kind]
    rng = np.random.default_rng(seed)
    w0 = rng.standard_normal(SHAPE)
    grads = [rng.standard_normal(SHAPE) for _ in range(steps)]
    got, slots, _ = run_fed_gradients(make_opt, w0, grads)
    # the reference sees the float32-rounded inputs the sandbox sees
    want, want_slots = reference(w0.astype(np.float32).astype(np.float64),
                                 [gr.astype(np.float32).astype(np.float64) for gr in grads])
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-6)
    assert sorted(slots) == sorted(want_slots)
    for name, value in want_slots.items():
        assert slots[name].dtype == np.float32
        np.testing.assert_allclose(slots[name], value, rtol=2e-5, atol=2e-6, err_msg=name)


@pytest.mark.parametrize("kind", ["gd", "momentum", "adam"])
def test_float64_variables(kind):
    make_opt, reference = OPTIMIZERS[kind]
    rng = np.random.default_rng(1)
    w0 = rng.standard_normal(SHAPE)
    grads = [rng.standard_normal(SHAPE) for _ in range(3)]
    got, _, _ = run_fed_gradients(make_opt, w0, grads, dtype=tf.float64)
    assert got.dtype == np.float64
    # the hyper-parameters are float32 constants cast to float64 (as in TF): ~1e-8 off
    np.testing.assert_allclose(got, reference(w0, grads)[0], rtol=1e-6)


def test_adam_beta_powers():
    rng = np.random.default_rng(2)
    w0 = rng.standard_normal(SHAPE)
    grads = [rng.standard_normal(SHAPE) for _ in range(4)]
    w = tf.Variable(w0.astype(np.float32), name="weights")
    g = tf.placeholder(tf.float32, SHAPE)
    opt = tf.train.AdamOptimizer(0.05, beta1=0.8, beta2=0.9, epsilon=1e-6)
    train = opt.apply_gradients([(g, w)])
    b1, b2 = opt._get_beta_accumulators()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        assert np.isclose(sess.run(b1), 0.8) and np.isclose(sess.run(b2), 0.9)
        for value in grads:
            sess.run(train, {g: value})
        got_b1, got_b2 = sess.run([b1, b2])
    _, _, (want_b1, want_b2) = ref_adam(w0, grads, 0.05, 0.8, 0.9, 1e-6)
    np.testing.assert_allclose([got_b1, got_b2], [want_b1, want_b2], rtol=1e-5)


@pytest.mark.parametrize("nesterov", [False, True])
def test_apply_adam_op_directly(nesterov):
    rng = np.random.default_rng(3)
    w0, m0, v0, grad = (rng.standard_normal(SHAPE) for _ in range(4))
    v0 = np.abs(v0)
    var, m, v = (tf.Variable(a, name=n) for a, n in ((w0, "var"), (m0, "m"), (v0, "v")))
    out = training_ops.apply_adam(var, m, v, 0.5, 0.7, 0.01, 0.9, 0.99, 1e-7, grad,
                                  use_nesterov=nesterov)
    assert out.op.type == "ApplyAdam" and out.dtype == tf.float64
    assert out.get_shape().as_list() == list(SHAPE)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        new = sess.run(out)
        got_m, got_v, got_var = sess.run([m, v, var])
    alpha = 0.01 * np.sqrt(1 - 0.7) / (1 - 0.5)
    want_m = m0 + (grad - m0) * 0.1
    want_v = v0 + (grad * grad - v0) * 0.01
    step = want_m * 0.9 + grad * 0.1 if nesterov else want_m
    want = w0 - step * alpha / (np.sqrt(want_v) + 1e-7)
    np.testing.assert_allclose(new, want, rtol=1e-12)
    np.testing.assert_allclose(got_var, want, rtol=1e-12)
    np.testing.assert_allclose(got_m, want_m, rtol=1e-12)
    np.testing.assert_allclose(got_v, want_v, rtol=1e-12)


def test_learning_rate_tensor():
    w = tf.Variable([1.0, -2.0], name="w")
    g = tf.constant([1.0, 1.0])
    lr = tf.placeholder(tf.float32, [])
    train = tf.train.MomentumOptimizer(lr, 0.5).apply_gradients([(g, w)])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(train, {lr: 0.1})            # accum = 1
        sess.run(train, {lr: 1.0})            # accum = 1.5
        np.testing.assert_allclose(sess.run(w), [1.0 - 0.1 - 1.5, -2.0 - 0.1 - 1.5],
                                   rtol=1e-6)


def test_learning_rate_callable():
    w = tf.Variable([1.0], name="w")
    train = tf.train.GradientDescentOptimizer(lambda: 0.25).apply_gradients(
        [(tf.constant([2.0]), w)])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(train)
        np.testing.assert_allclose(sess.run(w), [0.5])


# -- minimize on a real loss ----------------------------------------------------------------

@pytest.mark.parametrize("kind", sorted(OPTIMIZERS))
def test_minimize_decreases_quadratic_loss(kind):
    make_opt, _ = OPTIMIZERS[kind]
    target = np.array([[1.0, -2.0, 0.5], [3.0, 0.0, -1.0]], dtype=np.float32)
    w = tf.Variable(tf.zeros(SHAPE), name="weights")
    b = tf.Variable(tf.zeros([3]), name="bias")
    loss = tf.reduce_sum(tf.square(w + b - target))
    step = tf.train.create_global_step()
    train = make_opt().minimize(loss, global_step=step)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        first = sess.run(loss)
        losses = [sess.run([train, loss])[1] for _ in range(30)]
        assert sess.run(loss) < 0.7 * first, (first, losses)
        assert tf.train.global_step(sess, step) == 30


def test_compute_gradients_and_var_list():
    w = tf.Variable([1.0, 2.0], name="w")
    u = tf.Variable([3.0], name="u")
    frozen = tf.Variable([5.0], name="frozen", trainable=False)
    loss = tf.reduce_sum(w * w) + tf.reduce_sum(frozen)
    opt = tf.train.GradientDescentOptimizer(0.1)
    pairs = opt.compute_gradients(loss)
    assert [v for _, v in pairs] == [w, u]            # trainable variables only
    assert pairs[1][0] is None                        # u does not affect the loss
    pairs = opt.compute_gradients(loss, var_list=[frozen])
    assert [v for _, v in pairs] == [frozen]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        np.testing.assert_allclose(sess.run(pairs[0][0]), [1.0])
        gated = opt.compute_gradients(loss, var_list=[w, u],
                                      gate_gradients=tf.train.Optimizer.GATE_GRAPH)
        assert gated[1][0] is None
        np.testing.assert_allclose(sess.run(gated[0][0]), [2.0, 4.0])
        # grad_loss scales the gradient
        scaled = opt.compute_gradients(loss, var_list=[w], grad_loss=tf.constant(3.0))
        np.testing.assert_allclose(sess.run(scaled[0][0]), [6.0, 12.0])
        # a variable without gradient is skipped by apply_gradients
        train = opt.apply_gradients(pairs + [(None, u)])
        sess.run(train)
        np.testing.assert_allclose(sess.run([frozen, u]), [[4.9], [3.0]])


def test_gate_constants():
    assert (tf.train.Optimizer.GATE_NONE, tf.train.Optimizer.GATE_OP,
            tf.train.Optimizer.GATE_GRAPH) == (0, 1, 2)


# -- graph structure: names, slots, colocation, collections -----------------------------------

def test_update_op_names_and_train_op():
    w = tf.Variable(tf.zeros([2]), name="weights")
    loss = tf.reduce_sum(w * w)
    train = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
    assert train.name == "GradientDescent" and train.type == "NoOp"
    apply = tf.get_default_graph().get_operation_by_name(
        "GradientDescent/update_weights/ApplyGradientDescent")
    assert apply.type == "ApplyGradientDescent"
    assert apply.colocation_groups() == [b"loc:@weights"]
    assert apply.inputs[0].dtype == tf.float32_ref
    assert train in tf.get_collection(tf.GraphKeys.TRAIN_OP)
    # a second optimizer gets a unique scope; name= names the returned op
    train2 = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
    assert train2.name == "GradientDescent_1"
    train3 = tf.train.GradientDescentOptimizer(0.5).minimize(loss, name="train")
    assert train3.name == "train"
    assert tf.get_default_graph().get_operation_by_name(
        "train/update_weights/ApplyGradientDescent").type == "ApplyGradientDescent"


def test_global_step_op_structure():
    w = tf.Variable(tf.zeros([2]), name="weights")
    step = tf.train.get_or_create_global_step()
    train = tf.train.AdamOptimizer().minimize(tf.reduce_sum(w * w), global_step=step)
    assert train.name == "Adam" and train.type == "AssignAdd"
    assert train.colocation_groups() == [b"loc:@global_step"]
    finish = tf.get_default_graph().get_operation_by_name("Adam/update")
    # the increment waits for the updates (through its constant input, as in TF)
    assert finish in train.control_inputs + [c for t in train.inputs
                                             for c in t.op.control_inputs]
    assert {op.name for op in finish.control_inputs} >= {"Adam/update_weights/ApplyAdam",
                                                         "Adam/Assign", "Adam/Assign_1"}


def test_adam_slots_and_non_slot_variables():
    with tf.device("/job:ps/task:1"):
        w = tf.Variable(tf.zeros([2, 3]), name="weights")
    with tf.device("/job:ps/task:0"):
        a = tf.Variable(tf.zeros([3]), name="a_bias")
    with tf.device("/job:worker/task:0"):
        loss = tf.reduce_sum(w * w) + tf.reduce_sum(a)
        opt = tf.train.AdamOptimizer()
        opt.minimize(loss)
    m, v = opt.get_slot(w, "m"), opt.get_slot(w, "v")
    assert (m.op.name, v.op.name) == ("weights/Adam", "weights/Adam_1")
    assert opt.get_slot(a, "m").op.name == "a_bias/Adam"
    assert opt.get_slot_names() == ["m", "v"]
    assert opt.get_slot(w, "nope") is None
    for slot in (m, v):
        assert slot.get_shape().as_list() == [2, 3] and slot.dtype == tf.float32_ref
        assert slot.device == "/job:ps/task:1"             # lives with its variable
        assert slot.op.colocation_groups() == [b"loc:@weights"]
        assert slot in tf.global_variables() and slot not in tf.trainable_variables()
    b1, b2 = opt._get_beta_accumulators()
    assert (b1.op.name, b2.op.name) == ("beta1_power", "beta2_power")
    # colocated with the first variable by name: a_bias
    assert b1.device == "/job:ps/task:0" and b1.op.colocation_groups() == [b"loc:@a_bias"]
    assert b1 in tf.global_variables() and b1 not in tf.trainable_variables()
    assert [x.op.name for x in opt.variables()] == [
        "a_bias/Adam", "a_bias/Adam_1", "beta1_power", "beta2_power", "weights/Adam",
        "weights/Adam_1"]
    # A local session has no /job:ps, and soft placement changes only an op's device type and
    # index, never its job or task: TensorFlow 1.15 refuses this graph locally too (measured).
    with tf.Session(config=tf.ConfigProto(allow_soft_placement=True)) as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match="/job:ps/task"):
            sess.run(tf.global_variables_initializer())


def test_adam_slots_start_at_zero():
    w = tf.Variable(tf.ones([2, 3]), name="weights")
    opt = tf.train.AdamOptimizer()
    opt.minimize(tf.reduce_sum(w * w))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        assert np.all(sess.run(opt.get_slot(w, "m")) == 0)
        assert np.all(sess.run(opt.get_slot(w, "v")) == 0)


def test_slot_names_of_other_optimizers():
    w = tf.Variable(tf.zeros([2]), name="w")
    loss = tf.reduce_sum(w * w)
    mom = tf.train.MomentumOptimizer(0.1, 0.9)
    mom.minimize(loss)
    assert mom.get_slot(w, "momentum").op.name == "w/Momentum"
    rms = tf.train.RMSPropOptimizer(0.1, centered=True)
    rms.minimize(loss)
    assert rms.get_slot_names() == ["mg", "momentum", "rms"]
    assert [rms.get_slot(w, n).op.name for n in ("rms", "mg", "momentum")] == [
        "w/RMSProp", "w/RMSProp_1", "w/RMSProp_2"]
    ada = tf.train.AdagradOptimizer(0.1)
    ada.minimize(loss)
    assert ada.get_slot(w, "accumulator").op.name == "w/Adagrad"
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        np.testing.assert_allclose(sess.run(ada.get_slot(w, "accumulator")), [0.1, 0.1])
        np.testing.assert_allclose(sess.run(rms.get_slot(w, "rms")), [1.0, 1.0])
    assert tf.train.GradientDescentOptimizer(0.1).get_slot_names() == []


def test_slots_ignore_name_scope_and_control_dependencies():
    w = tf.Variable(tf.zeros([2]), name="w")
    loss = tf.reduce_sum(w * w)
    dep = tf.no_op(name="dep")
    opt = tf.train.MomentumOptimizer(0.1, 0.9)
    with tf.name_scope("training"), tf.control_dependencies([dep]):
        train = opt.minimize(loss)
    slot = opt.get_slot(w, "momentum")
    assert slot.op.name == "w/Momentum"
    assert slot.initializer.control_inputs == []
    assert train.name == "training/Momentum"


def test_minimize_twice_reuses_slots():
    w = tf.Variable(tf.zeros([2]), name="w")
    opt = tf.train.AdamOptimizer()
    opt.minimize(tf.reduce_sum(w * w))
    opt.minimize(tf.reduce_sum(w))
    assert len(opt.variables()) == 4
    assert len(tf.global_variables()) == 5


# -- errors ---------------------------------------------------------------------------------

def test_no_variables_to_optimize():
    loss = tf.constant(1.0) * 2.0
    with pytest.raises(ValueError, match="No variables to optimize."):
        tf.train.GradientDescentOptimizer(0.1).minimize(loss)


def test_no_gradients_for_any_variable():
    w = tf.Variable([1.0], name="lonely")
    loss = tf.constant(1.0) * 2.0
    with pytest.raises(ValueError, match="No gradients provided for any variable.*lonely"):
        tf.train.GradientDescentOptimizer(0.1).minimize(loss, var_list=[w])
    with pytest.raises(ValueError, match="No gradients provided for any variable.*lonely"):
        tf.train.AdamOptimizer().apply_gradients([(None, w)])
    with pytest.raises(ValueError, match="No variables provided."):
        tf.train.AdamOptimizer().apply_gradients([])


def test_invalid_arguments():
    w = tf.Variable([1], name="int_var")
    with pytest.raises(ValueError, match="Invalid type int32"):
        tf.train.GradientDescentOptimizer(0.1).minimize(tf.reduce_sum(w))
    v = tf.Variable([1.0], name="v")
    with pytest.raises(ValueError, match="gate_gradients must be one of"):
        tf.train.GradientDescentOptimizer(0.1).minimize(tf.reduce_sum(v), gate_gradients=7)
    with pytest.raises(ValueError, match="initial_accumulator_value must be positive"):
        tf.train.AdagradOptimizer(0.1, initial_accumulator_value=0.0)
    with pytest.raises(ValueError, match="Must specify the optimizer name"):
        tf.train.GradientDescentOptimizer(0.1, name="")
    with pytest.raises(NotImplementedError, match="Trying to update a Tensor"):
        tf.train.GradientDescentOptimizer(0.1).apply_gradients([(tf.constant([1.0]),
                                                                  tf.constant([2.0]))])


def test_apply_op_static_shape_errors():
    w = tf.Variable(tf.zeros([2, 3]), name="w")
    with pytest.raises(ValueError, match="Dimension 1 in both shapes must be equal, but are "
                                         "3 and 4"):
        training_ops.apply_gradient_descent(w, 0.1, tf.zeros([2, 4]))
    with pytest.raises(ValueError, match="Shapes must be equal rank, but are 2 and 1"):
        training_ops.apply_gradient_descent(w, 0.1, tf.zeros([3]))
    with pytest.raises(ValueError, match="Shape must be rank 0 but is rank 1"):
        training_ops.apply_gradient_descent(w, [0.1], tf.zeros([2, 3]))
    with pytest.raises(TypeError, match="variable references"):
        training_ops.apply_gradient_descent(tf.zeros([2, 3]), 0.1, tf.zeros([2, 3]))


def test_apply_op_runtime_errors():
    w = tf.Variable(tf.zeros([2]), name="w")
    g = tf.placeholder(tf.float32, None)
    update = training_ops.apply_gradient_descent(w, 0.1, g)
    with tf.Session() as sess:
        with pytest.raises(tf.errors.FailedPreconditionError, match="uninitialized value w"):
            sess.run(update, {g: [1.0, 1.0]})
        sess.run(w.initializer)
        with pytest.raises(tf.errors.InvalidArgumentError, match="same shape"):
            sess.run(update, {g: [1.0, 1.0, 1.0]})


def test_update_stores_new_arrays():
    w = tf.Variable([1.0, 2.0], name="w")
    opt = tf.train.MomentumOptimizer(0.5, 0.9)
    train = opt.apply_gradients([(tf.constant([1.0, 1.0]), w)])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        before, slot_before = sess.run([w, opt.get_slot(w, "momentum")])
        after = sess.run([train, w])[1]
        # values read earlier were not modified in place
        np.testing.assert_allclose(before, [1.0, 2.0])
        np.testing.assert_allclose(slot_before, [0.0, 0.0])
        np.testing.assert_allclose(after, [0.5, 1.5])
        np.testing.assert_allclose(sess.run(opt.get_slot(w, "momentum")), [1.0, 1.0])


@pytest.mark.parametrize("use_locking", [True, False])
def test_concurrent_updates(use_locking):
    w = tf.Variable(tf.zeros([100]), name="w")
    train = tf.train.GradientDescentOptimizer(1.0, use_locking=use_locking).apply_gradients(
        [(tf.constant(-np.ones(100, np.float32)), w)])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())

        def work():
            for _ in range(50):
                sess.run(train)
        threads = [threading.Thread(target=work) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        value = sess.run(w)
    if use_locking:
        np.testing.assert_array_equal(value, np.full(100, 200.0))
    else:   # without locks updates may be lost, but never more than were made
        assert np.all(value <= 200.0) and np.all(value >= 50.0)


# -- global step -----------------------------------------------------------------------------

def test_global_step_helpers():
    assert tf.train.get_global_step() is None
    with tf.name_scope("somewhere"):
        step = tf.train.create_global_step()
    assert step.op.name == "global_step" and step.dtype == tf.int64_ref
    assert step.get_shape().as_list() == []
    assert step in tf.get_collection(tf.GraphKeys.GLOBAL_STEP)
    assert step in tf.global_variables() and step not in tf.trainable_variables()
    assert tf.train.get_global_step() is step
    assert tf.train.get_or_create_global_step() is step
    with pytest.raises(ValueError, match='"global_step" already exists.'):
        tf.train.create_global_step()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        assert tf.train.global_step(sess, step) == 0
        sess.run(step.assign_add(5))
        value = tf.train.global_step(sess, step)
        assert value == 5 and isinstance(value, int)


def test_global_step_in_other_graph_and_by_name():
    g = tf.Graph()
    step = tf.train.get_or_create_global_step(graph=g)
    assert step.graph is g and tf.train.get_global_step() is None
    assert tf.train.get_global_step(g) is step
    # without the collection, a tensor named global_step:0 is found by name
    h = tf.Graph()
    with h.as_default():
        v = tf.Variable(3, name="global_step")
        assert tf.train.get_global_step().name == "global_step:0"
        assert tf.train.get_global_step().op is v.op


def test_assert_global_step():
    with pytest.raises(TypeError, match="does not have integer type"):
        tf.train.assert_global_step(tf.Variable(1.0, name="f"))
    with pytest.raises(TypeError, match="is not scalar"):
        tf.train.assert_global_step(tf.Variable([1, 2], name="vec"))
    with pytest.raises(TypeError, match="must be a Variable or Tensor"):
        tf.train.assert_global_step(3)
    tf.train.assert_global_step(tf.Variable(1, name="ok"))


def test_global_step_counts_minimize_steps():
    w = tf.Variable([3.0], name="w")
    step = tf.train.get_or_create_global_step()
    train = tf.train.GradientDescentOptimizer(0.1).minimize(tf.reduce_sum(w * w),
                                                            global_step=step)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for i in range(1, 4):
            sess.run(train)
            assert sess.run(step) == i
        np.testing.assert_allclose(sess.run(w), [3.0 * 0.8 ** 3], rtol=1e-6)


@pytest.mark.parametrize("staircase", [False, True])
def test_exponential_decay(staircase):
    step = tf.train.get_or_create_global_step()
    lr = tf.train.exponential_decay(0.1, step, decay_steps=10, decay_rate=0.5,
                                    staircase=staircase)
    assert lr.op.name == "ExponentialDecay" and lr.dtype == tf.float32
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for s in (0, 5, 10, 25):
            sess.run(step.assign(s))
            p = s // 10 if staircase else s / 10
            np.testing.assert_allclose(sess.run(lr), 0.1 * 0.5 ** p, rtol=1e-6)
    with pytest.raises(ValueError, match="global_step is required"):
        tf.train.exponential_decay(0.1, None, 10, 0.5)
