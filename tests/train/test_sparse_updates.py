"""The optimizers' sparse updates (Optimizer._apply_sparse_duplicate_indices, _apply_sparse;
ops/sparse_training_ops.py): an IndexedSlices gradient changes only its rows, repeated indices
are summed first, and the numbers are TF 1.15's.

TF_AFTER_TWO_STEPS was measured with TensorFlow 1.15.5 (/tmp/tf115) on the program of
`_train`: a 6 x 3 embedding, loss = sum(embedding_lookup(emb, ids) * W), two sparse steps
with ids [1, 1, 4] then [4, 2, 4]. The same program with the gradient made dense
(tf.convert_to_tensor) gave the same numbers as the sandbox's dense path."""
import numpy as np
import pytest

import sandbox as tf
from sandbox.ops import sparse_training_ops

INIT = np.arange(18, dtype=np.float32).reshape(6, 3) / 10.0 - 0.5
BATCHES = [[1, 1, 4], [4, 2, 4]]
W = np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75], [-2.0, 1.0, 0.5]], np.float32)

OPTIMIZERS = {
    "GradientDescent": lambda: tf.train.GradientDescentOptimizer(0.1),
    "Momentum": lambda: tf.train.MomentumOptimizer(0.1, 0.9),
    "MomentumNesterov": lambda: tf.train.MomentumOptimizer(0.1, 0.9, use_nesterov=True),
    "Adagrad": lambda: tf.train.AdagradOptimizer(0.1),
    "Adam": lambda: tf.train.AdamOptimizer(0.1),
    "RMSProp": lambda: tf.train.RMSPropOptimizer(0.1),
    "RMSPropMomentum": lambda: tf.train.RMSPropOptimizer(0.1, momentum=0.5),
    "RMSPropCentered": lambda: tf.train.RMSPropOptimizer(0.1, momentum=0.5, centered=True),
}

# The update ops TF 1.15 builds under 'update_emb' for the sparse gradient.
TF_SPARSE_OPS = {
    "GradientDescent": "ScatterSub", "Momentum": "SparseApplyMomentum",
    "MomentumNesterov": "SparseApplyMomentum", "Adagrad": "SparseApplyAdagrad",
    "Adam": "ScatterAdd", "RMSProp": "SparseApplyRMSProp",
    "RMSPropMomentum": "SparseApplyRMSProp", "RMSPropCentered": "SparseApplyCenteredRMSProp",
}

TF_AFTER_TWO_STEPS = {
    "GradientDescent": [[-0.5, -0.4, -0.3], [-0.4, -0.02499999, -0.125], [-0.04999998, 0.175, 0.375], [0.4, 0.5, 0.6], [1.05, 0.6999999, 0.6], [1, 1.1, 1.2]],  # noqa: E501
    "Momentum": [[-0.5, -0.4, -0.3], [-0.4, -0.02499999, -0.125], [-0.04999998, 0.175, 0.375], [0.4, 0.5, 0.6], [1.23, 0.61, 0.5549999], [1, 1.1, 1.2]],  # noqa: E501
    "MomentumNesterov": [[-0.5, -0.4, -0.3], [-0.58, 0.0425, -0.2375], [-0.185, 0.1525, 0.4425], [0.4, 0.5, 0.6], [1.527, 0.529, 0.2895], [1, 1.1, 1.2]],  # noqa: E501
    "Adagrad": [[-0.5, -0.4, -0.3], [-0.298773, -0.007855728, -0.09694584], [0.002150811, 0.1379826, 0.3921443], [0.4, 0.5, 0.6], [0.8582987, 0.7046537, 0.7181721], [1, 1.1, 1.2]],  # noqa: E501
    "Adam": [[-0.5, -0.4, -0.3], [-0.3670056, 0.06700554, -0.1670055], [0.02558661, 0.1255867, 0.3744134], [0.4, 0.5, 0.6], [0.8982572, 0.6329944, 0.7138957], [1, 1.1, 1.2]],  # noqa: E501
    "RMSProp": [[-0.5, -0.4, -0.3], [-0.3754116, -0.02330349, -0.1216261], [-0.04142135, 0.1737387, 0.3766965], [0.4, 0.5, 0.6], [1.002412, 0.6999999, 0.6409336], [1, 1.1, 1.2]],  # noqa: E501
    "RMSPropMomentum": [[-0.5, -0.4, -0.3], [-0.3754116, -0.02330349, -0.1216261], [-0.04142135, 0.1737387, 0.3766965], [0.4, 0.5, 0.6], [1.090118, 0.6499999, 0.6149398], [1, 1.1, 1.2]],  # noqa: E501
    "RMSPropCentered": [[-0.5, -0.4, -0.3], [-0.3781741, -0.02307692, -0.1225358], [-0.04285714, 0.1737296, 0.3769231], [0.4, 0.5, 0.6], [1.099529, 0.6492442, 0.6083607], [1, 1.1, 1.2]],  # noqa: E501
}


def _graph(make, densify=False):
    """emb, ids, the optimizer, and its train op for loss = sum(lookup(emb, ids) * W)."""
    emb = tf.Variable(INIT, name="emb")
    ids = tf.placeholder(tf.int32, [3], name="ids")
    loss = tf.reduce_sum(tf.nn.embedding_lookup(emb, ids) * W)
    opt = make()
    (grad, var), = opt.compute_gradients(loss, [emb])
    assert isinstance(grad, tf.IndexedSlices)
    if densify:
        grad = tf.convert_to_tensor(grad)
    return emb, ids, opt, opt.apply_gradients([(grad, var)])


@pytest.mark.parametrize("name", sorted(OPTIMIZERS))
def test_sparse_steps_give_tensorflows_numbers_with_tensorflows_ops(name):
    emb, ids, _, train = _graph(OPTIMIZERS[name])
    types = {op.type for op in tf.get_default_graph().get_operations()
             if "update_emb" in op.name}
    assert TF_SPARSE_OPS[name] in types
    assert not {t for t in types if t.startswith("Apply")}       # no dense Apply op
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for batch in BATCHES:
            sess.run(train, {ids: batch})
        np.testing.assert_allclose(sess.run(emb), TF_AFTER_TWO_STEPS[name], rtol=2e-6,
                                   atol=2e-7)


def _values_after(name, densify):
    """(emb after step 1, emb after step 2) on the sparse or the densified path."""
    with tf.Graph().as_default():
        emb, ids, _, train = _graph(OPTIMIZERS[name], densify)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            out = []
            for batch in BATCHES:
                sess.run(train, {ids: batch})
                out.append(sess.run(emb))
    return out


@pytest.mark.parametrize("name", sorted(OPTIMIZERS))
def test_sparse_step_is_the_dense_step_on_its_rows_and_leaves_the_others(name):
    """Step 2 touches rows 2 and 4; row 1 was touched by step 1 only, so its slots are
    not zero: a dense step may move it (momentum), a sparse one leaves it. Adam is the
    exception, in TF 1.15 too: its sparse step decays m and v of every row and moves them.
    (RMSProp's dense step 1 also decayed the mean square of row 2, which it did not touch,
    so from step 2 on only row 4 has the same state on both paths.)"""
    (sparse_1, sparse_2), (dense_1, dense_2) = (_values_after(name, False),
                                                _values_after(name, True))
    np.testing.assert_allclose(sparse_1, dense_1, rtol=1e-6)
    touched = [4] if name.startswith("RMSProp") else [2, 4]
    untouched = [0, 1, 3, 5]
    np.testing.assert_allclose(sparse_2[touched], dense_2[touched], rtol=1e-6)
    if name == "Adam":
        np.testing.assert_allclose(sparse_2, dense_2, rtol=1e-6)
        assert not np.allclose(sparse_2[1], sparse_1[1])          # row 1 still moved
    else:
        np.testing.assert_array_equal(sparse_2[untouched], sparse_1[untouched])
    if name in ("Momentum", "MomentumNesterov", "RMSPropMomentum", "RMSPropCentered"):
        assert not np.allclose(dense_2[1], dense_1[1])            # the dense step moved it


def test_repeated_indices_are_summed_before_the_update():
    """Momentum must see one row per index: accum = g1 + g2, not two momentum steps."""
    emb, ids, opt, train = _graph(lambda: tf.train.MomentumOptimizer(0.1, 0.9))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(train, {ids: [3, 0, 3]})
        accum = sess.run(opt.get_slot(emb, "momentum"))
        value = sess.run(emb)
    summed = W[0] + W[2]
    np.testing.assert_allclose(accum[3], summed, rtol=1e-6)
    np.testing.assert_allclose(value[3], INIT[3] - 0.1 * summed, rtol=1e-6)
    np.testing.assert_allclose(value[0], INIT[0] - 0.1 * W[1], rtol=1e-6)
    np.testing.assert_array_equal(value[[1, 2, 4, 5]], INIT[[1, 2, 4, 5]])


def test_gradient_descent_subtracts_every_repeated_row():
    emb, ids, _, train = _graph(lambda: tf.train.GradientDescentOptimizer(0.5))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(train, {ids: [5, 5, 5]})
        value = sess.run(emb)
    np.testing.assert_allclose(value[5], INIT[5] - 0.5 * W.sum(axis=0), rtol=1e-6)
    np.testing.assert_array_equal(value[:5], INIT[:5])


class _DenseOnlyGD(tf.train.Optimizer):
    """An optimizer with only _apply_dense, as the ones of other helpers (Adadelta, Ftrl)."""

    def __init__(self, lr):
        super().__init__(False, "DenseOnly")
        self._lr = lr

    def _apply_dense(self, grad, var):
        from sandbox.ops import training_ops
        return training_ops.apply_gradient_descent(var, self._lr, grad).op


def test_an_optimizer_without_apply_sparse_gets_the_gradient_made_dense_beside_the_var():
    emb, ids, _, train = _graph(lambda: _DenseOnlyGD(0.1))
    update_ops = [op for op in tf.get_default_graph().get_operations()
                  if "update_emb" in op.name]
    assert {"UnsortedSegmentSum", "ApplyGradientDescent"} <= {op.type for op in update_ops}
    assert all(op.colocation_groups() == [b"loc:@emb"] for op in update_ops)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for batch in BATCHES:
            sess.run(train, {ids: batch})
        np.testing.assert_allclose(sess.run(emb), TF_AFTER_TWO_STEPS["GradientDescent"],
                                   rtol=2e-6, atol=2e-7)


def test_constraint_on_a_sparse_variable_is_refused_and_gate_graph_keeps_it_sparse():
    emb = tf.Variable(INIT, name="emb", constraint=lambda v: v)
    loss = tf.reduce_sum(tf.gather(emb, [1]))
    opt = tf.train.GradientDescentOptimizer(0.1)
    (grad, _), = opt.compute_gradients(loss, [emb], gate_gradients=opt.GATE_GRAPH)
    assert isinstance(grad, tf.IndexedSlices)
    with pytest.raises(RuntimeError, match="constraint function on a sparse variable"):
        opt.apply_gradients([(grad, emb)])


def test_sparse_apply_kernels_apply_repeated_indices_one_after_another():
    """Given repeated indices directly (no optimizer summing them), TF's CPU kernels apply
    them in order: two momentum steps on row 0."""
    var = tf.Variable(np.ones((3, 2), np.float32))
    accum = tf.Variable(np.zeros((3, 2), np.float32))
    grad = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)
    op = sparse_training_ops.sparse_apply_momentum(var, accum, 0.1, grad, [0, 0], 0.9)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        value = sess.run(op)
        a1 = grad[0]
        v1 = 1.0 - 0.1 * a1
        a2 = a1 * 0.9 + grad[1]
        np.testing.assert_allclose(value[0], v1 - 0.1 * a2, rtol=1e-6)
        np.testing.assert_allclose(sess.run(accum)[0], a2, rtol=1e-6)
        np.testing.assert_array_equal(value[1:], np.ones((2, 2)))
        with pytest.raises(tf.errors.InvalidArgumentError, match="out of range"):
            sess.run(sparse_training_ops.sparse_apply_adagrad(var, accum, 0.1, grad, [0, 3]))
    with pytest.raises(ValueError):
        sparse_training_ops.sparse_apply_adagrad(var, accum, 0.1, np.ones((2, 5), np.float32),
                                                 [0, 1])
