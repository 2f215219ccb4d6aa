"""tf.contrib.framework (arg_scope and the variable helpers) and tf.contrib.slim: the
arg_scope rules of TF 1.15's contrib/framework/python/ops/arg_scope.py, the variable lookups
of its variables.py, and a classic slim LeNet -- built with TF-Slim's variable names and
trained by slim.learning.create_train_op / slim.learning.train. The optimizer numbers are
TF 2.15.1's (tf.compat.v1 MomentumOptimizer on clip_by_norm'ed gradients, as slim does)."""
import os

import numpy as np
import pytest

import sandbox as tf

framework = tf.contrib.framework
slim = tf.contrib.slim
arg_scope, add_arg_scope = framework.arg_scope, framework.add_arg_scope


@add_arg_scope
def scoped(a, b=1, c=2):
    return (a, b, c)


def plain(a, b=1):
    return (a, b)


def test_arg_scope_defaults_explicit_kwargs_nesting_and_reuse():
    assert framework.has_arg_scope(scoped) and not framework.has_arg_scope(plain)
    assert framework.arg_scoped_arguments(scoped) == ("b", "c")
    assert scoped.__name__ == "scoped"
    with arg_scope([scoped], b=10) as outer:
        assert scoped(0) == (0, 10, 2)
        assert scoped(0, b=5) == (0, 5, 2)                    # explicit kwargs win
        with arg_scope([scoped], c=20):
            assert scoped(0) == (0, 10, 20)                   # nested scopes merge
            with arg_scope([scoped], b=30):
                assert scoped(0) == (0, 30, 20)
        assert scoped(0) == (0, 10, 2)
    assert scoped(0) == (0, 1, 2) and framework.current_arg_scope() == {}
    with arg_scope(outer):                                    # re-entering a saved scope
        assert scoped(0) == (0, 10, 2)
    # TF 1.15 passes the function's (module, name) as a second argument of the ValueError.
    with pytest.raises(ValueError) as err:
        with arg_scope([plain], b=3):
            pass
    assert err.value.args == ("%s is not decorated with @add_arg_scope",
                              (__name__, "plain"))
    with pytest.raises(ValueError, match="kwargs must be empty"):
        with arg_scope(outer, b=1):
            pass
    with pytest.raises(TypeError, match="list_ops_or_scope must either be a list/tuple"):
        with arg_scope(scoped, b=1):
            pass
    assert framework.current_arg_scope() == {}
    # Every contrib layer is decorated, as in TF.
    for fn in (slim.conv2d, slim.fully_connected, slim.batch_norm, slim.max_pool2d,
               slim.avg_pool2d, slim.dropout, slim.flatten, slim.layer_norm,
               slim.conv2d_transpose, slim.separable_conv2d, slim.variable,
               slim.model_variable):
        assert framework.has_arg_scope(fn), fn


def test_variable_helpers_find_filter_and_make_variables():
    with tf.variable_scope("conv1"):
        w = slim.model_variable("weights", [3, 3, 1, 2],
                                initializer=tf.truncated_normal_initializer(stddev=0.1),
                                regularizer=slim.l2_regularizer(0.05))
        b = slim.variable("biases", [2], initializer=tf.zeros_initializer())
    with tf.variable_scope("logits"):
        lw = slim.model_variable("weights", [2, 10], device="/cpu:0")
    counter = slim.local_variable(0, name="counter")
    step = slim.get_or_create_global_step()
    assert step is framework.get_global_step() and step.op.name == "global_step"
    assert [v.op.name for v in slim.get_model_variables()] == ["conv1/weights",
                                                               "logits/weights"]
    assert slim.get_variables("conv1") == [w, b]
    assert slim.get_trainable_variables("conv1") == [w, b]
    assert slim.get_local_variables() == [counter] and counter not in tf.global_variables()
    assert slim.get_variables_by_name("weights") == [w, lw]
    assert slim.get_variables_by_suffix("ases") == [b]
    assert slim.get_unique_variable("conv1/weights") is w
    assert lw.device.endswith("CPU:0") or lw.device.endswith("cpu:0")
    assert len(tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)) == 1
    assert slim.get_variables_to_restore(exclude=["logits", "global_step"]) == [w, b]
    assert slim.get_variables_to_restore(include=["logits"]) == [lw]
    assert framework.filter_variables([w, b, lw], include_patterns=["conv1"],
                                      exclude_patterns=["biases"]) == [w]
    with pytest.raises(ValueError, match="Couldn't find variable nope"):
        slim.get_unique_variable("nope")
    with pytest.raises(TypeError, match="exclude is provided but is not a list or a tuple"):
        slim.get_variables_to_restore(exclude="logits")
    with tf.variable_scope("conv1", reuse=True), arg_scope([slim.model_variable], shape=[2]):
        assert slim.model_variable("weights", shape=[3, 3, 1, 2]) is w


def test_assign_from_checkpoint_fn_and_checkpoint_readers(tmp_path):
    v = tf.get_variable("v", initializer=tf.constant([1.0, 2.0]))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        path = tf.train.Saver().save(sess, str(tmp_path / "model.ckpt"))
    assert dict(framework.list_variables(path)) == {"v": [2]}
    np.testing.assert_allclose(framework.load_variable(path, "v"), [1.0, 2.0])
    tf.reset_default_graph()
    v = tf.get_variable("v", initializer=tf.constant([0.0, 0.0]))
    extra = tf.get_variable("extra", initializer=tf.constant(5.0))
    with pytest.raises(ValueError, match="var_list cannot be empty"):
        slim.assign_from_checkpoint_fn(path, [])
    init_fn = slim.assign_from_checkpoint_fn(path, [v, extra], ignore_missing_vars=True)
    assert slim.assign_from_checkpoint_fn(path, [extra], ignore_missing_vars=True) is None
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        init_fn(sess)
        np.testing.assert_allclose(sess.run(v), [1.0, 2.0])
        assert sess.run(extra) == 5.0


def test_create_train_op_clips_each_gradient_like_tf():
    w = tf.get_variable("w", initializer=tf.constant([1.0, 2.0]))
    b = tf.get_variable("b", initializer=tf.constant(3.0))
    loss = tf.reduce_sum(w * w) + b * b
    train_op = slim.learning.create_train_op(loss, tf.train.MomentumOptimizer(0.1, 0.9),
                                             clip_gradient_norm=1.0,
                                             summarize_gradients=True)
    assert train_op.name == "train_op/control_dependency:0"
    assert any(t is train_op for t in tf.get_collection(tf.GraphKeys.TRAIN_OP))
    assert [s.op.name for s in tf.get_collection(tf.GraphKeys.SUMMARIES)] == [
        "summarize_grads/w_gradient", "summarize_grads/w_gradient_norm",
        "summarize_grads/b_gradient", "summarize_grads/b_gradient_norm"]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        assert sess.run(train_op) == pytest.approx(14.0)
        sess.run(train_op)
        # TF 2.15.1's Momentum(0.1, 0.9) on tf.clip_by_norm(g, 1.0), two steps:
        np.testing.assert_allclose(sess.run(w), [0.87030804, 1.7406161], rtol=1e-6)
        np.testing.assert_allclose(sess.run(b), 2.71, rtol=1e-6)
        assert sess.run(tf.train.get_global_step()) == 2
    # slim.learning.train without a logdir: a fresh session, init_fn after initialization,
    # three steps; it returns the last loss (b = 2.71 after two steps, w held at 0).
    zero_w = w.assign([0.0, 0.0])
    with pytest.raises(ValueError, match="Cannot provide saver because logdir=None"):
        slim.learning.train(train_op, None, saver=tf.train.Saver())
    final = slim.learning.train(train_op, None, number_of_steps=3, log_every_n_steps=0,
                                init_fn=lambda sess: sess.run(zero_w))
    assert final == pytest.approx(2.71 ** 2, rel=1e-5)


def test_slim_losses_take_the_model_output_first_as_tf_contrib_losses():
    assert tf.contrib.losses is slim.losses          # TF 1.15's slim exports contrib's
    logits = tf.constant([[2.0, -1.0, 0.5], [0.1, 0.2, 3.0]])
    onehot = tf.constant([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
    xent = slim.losses.softmax_cross_entropy(logits, onehot, weights=[1.0, 0.0])
    log = slim.losses.log_loss(tf.constant([0.9, 0.3]), tf.constant([1.0, 0.0]))
    hinge = slim.losses.hinge_loss(tf.constant([0.3, 0.4]), tf.constant([1.0, 0.0]))
    assert slim.losses.get_losses() == [xent, log]           # hinge_loss is not collected
    with tf.Session() as sess:
        xent_v, log_v, hinge_v, total = sess.run([xent, log, hinge,
                                                  slim.losses.get_total_loss()])
    # TF 2.15.1's tf.compat.v1.losses on the same values, (labels, predictions) order:
    assert xent_v == pytest.approx(3.2413113, rel=1e-6)
    assert log_v == pytest.approx(0.2310176, rel=1e-6)
    np.testing.assert_allclose(hinge_v, [0.7, 1.4], rtol=1e-6)     # Reduction.NONE's
    assert total == pytest.approx(3.2413113 + 0.2310176, rel=1e-6)


def lenet(images, is_training=True):
    with slim.arg_scope([slim.conv2d, slim.fully_connected],
                        weights_regularizer=slim.l2_regularizer(0.0005),
                        weights_initializer=slim.variance_scaling_initializer(),
                        normalizer_fn=slim.batch_norm,
                        normalizer_params={"is_training": is_training}):
        net = slim.conv2d(images, 6, [5, 5], scope="conv1")
        net = slim.max_pool2d(net, [2, 2], scope="pool1")
        net = slim.repeat(net, 2, slim.conv2d, 8, [3, 3], scope="conv2")
        net = slim.max_pool2d(net, [2, 2], scope="pool2")
        net = slim.flatten(net)
        net = slim.stack(net, slim.fully_connected, [32, 16], scope="fc3")
        net = slim.dropout(net, 0.9, is_training=is_training, scope="dropout3")
        return slim.fully_connected(net, 10, activation_fn=None, normalizer_fn=None,
                                    scope="fc4")


def test_slim_lenet_has_tf_slim_names_and_trains(tmp_path):
    rng = np.random.RandomState(0)
    images = tf.constant(rng.rand(16, 28, 28, 1).astype(np.float32))
    labels = tf.constant(np.eye(10, dtype=np.float32)[np.arange(16) % 10])
    logits = lenet(images)
    slim.losses.softmax_cross_entropy(logits, labels)
    total_loss = slim.losses.get_total_loss()
    names = [v.op.name for v in slim.get_model_variables()]
    bn = ["BatchNorm/beta", "BatchNorm/moving_mean", "BatchNorm/moving_variance"]
    assert names == (["conv1/weights"] + ["conv1/" + n for n in bn]
                     + ["conv2/conv2_1/weights"] + ["conv2/conv2_1/" + n for n in bn]
                     + ["conv2/conv2_2/weights"] + ["conv2/conv2_2/" + n for n in bn]
                     + ["fc3/fc3_1/weights"] + ["fc3/fc3_1/" + n for n in bn]
                     + ["fc3/fc3_2/weights"] + ["fc3/fc3_2/" + n for n in bn]
                     + ["fc4/weights", "fc4/biases"])
    assert len(tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)) == 6
    assert len(tf.get_collection(tf.GraphKeys.UPDATE_OPS)) == 10
    n_params, n_bytes = slim.model_analyzer.analyze_vars(slim.get_trainable_variables())
    # conv1 5x5x1x6 + beta, conv2_1 3x3x6x8 + beta, conv2_2 3x3x8x8 + beta, fc3_1 392x32 +
    # beta (7x7x8 after two poolings), fc3_2 32x16 + beta, fc4 16x10 + biases:
    assert n_params == (150 + 6) + (432 + 8) + (576 + 8) + (12544 + 32) + (512 + 16) + 170
    assert n_bytes == 4 * n_params
    train_op = slim.learning.create_train_op(total_loss, tf.train.AdamOptimizer(0.01))
    final = slim.learning.train(train_op, str(tmp_path), number_of_steps=4,
                                log_every_n_steps=0, save_summaries_secs=0)
    assert np.isfinite(final)
    ckpt = tf.train.latest_checkpoint(str(tmp_path))
    assert ckpt.endswith("model.ckpt-4")
    saved = dict(framework.list_variables(ckpt))
    assert saved["conv1/BatchNorm/beta"] == [6] and saved["global_step"] == []
    # The moving averages were updated by the train op (its update_ops ran).
    assert not np.allclose(framework.load_variable(ckpt, "conv1/BatchNorm/moving_mean"), 0.0)
    # The Supervisor finalized the graph, as TF's does. A new program training in the same
    # logdir restores step 4 and goes on to number_of_steps.
    tf.reset_default_graph()
    logits = lenet(tf.constant(rng.rand(16, 28, 28, 1).astype(np.float32)))
    slim.losses.softmax_cross_entropy(logits, np.eye(10, dtype=np.float32)[np.arange(16) % 10])
    train_op = slim.learning.create_train_op(slim.losses.get_total_loss(),
                                             tf.train.AdamOptimizer(0.01))
    slim.learning.train(train_op, str(tmp_path), number_of_steps=6, log_every_n_steps=0,
                        save_summaries_secs=0)
    assert tf.train.latest_checkpoint(str(tmp_path)).endswith("model.ckpt-6")
    assert os.path.exists(str(tmp_path / "checkpoint"))
