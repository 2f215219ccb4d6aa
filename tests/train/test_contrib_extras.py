"""tf.contrib.training (HParams), tf.contrib.crf, tf.contrib.opt, tf.contrib.metrics and
tf.contrib.distributions.

TF 2.15.1 has no tf.contrib: HParams' messages are TF 1.15's (hparam.py); the CRF is
checked against a NumPy brute force over every tag sequence (tensorflow_addons is not
installed); AdamW / MomentumW / LazyAdam against TF 1.15's update rules written in NumPy;
the streaming metrics against TF 2.15.1's tf.compat.v1.metrics on the same batches.
"""
import itertools
import json
import math

import numpy as np
import pytest

import sandbox as tf

crf = tf.contrib.crf


# -- tf.contrib.training.HParams ------------------------------------------------------------

def test_hparams_parse_set_json_and_errors():
    hp = tf.contrib.training.HParams(lr=0.1, layers=[64, 32], act="relu", use_bn=False)
    assert hp.lr == 0.1 and hp.layers == [64, 32] and "act" in hp and "nope" not in hp
    assert hp.parse("lr=1, layers=[8 16,4],act=tanh,use_bn=true") is hp
    assert (hp.lr, hp.layers, hp.act, hp.use_bn) == (1.0, [8, 16, 4], "tanh", True)
    assert type(hp.lr) is float                     # an int parsed for a float stays a float
    hp.parse("use_bn=0")
    assert hp.use_bn is False
    assert repr(hp) == ("HParams([('act', 'tanh'), ('layers', [8, 16, 4]), ('lr', 1.0), "
                        "('use_bn', False)])")
    assert str(hp) == "lr=1.0,layers=[8, 16, 4],act=tanh,use_bn=False"
    assert json.loads(hp.to_json()) == hp.values()
    hp.parse_json('{"lr": 0.5, "layers": [2]}')
    assert (hp.lr, hp.layers) == (0.5, [2])
    hp.override_from_dict({"act": "elu"})
    assert hp.get("act") == "elu" and hp.get("missing", 3) == 3
    hp.add_hparam("steps", 10)
    hp.set_hparam("steps", 20)
    assert hp.steps == 20
    hp.del_hparam("steps")
    assert "steps" not in hp and not hasattr(hp, "steps")
    # TF 1.15's errors (hparam.py).
    cases = [
        (lambda: hp.parse("lr=abc"),
         "Could not parse hparam 'lr' of type 'float' with value 'abc' in lr=abc"),
        (lambda: hp.parse("zz=1"), "Unknown hyperparameter type for zz"),
        (lambda: hp.parse("lr=1,lr=2"), "Multiple assignments to variable 'lr' in lr=1,lr=2"),
        (lambda: hp.parse("-x"), "Malformed hyperparameter value: -x"),
        (lambda: hp.parse("lr=[1,2]"), "Must not pass a list for single-valued parameter: lr"),
        (lambda: hp.parse("layers=3"), "Must pass a list for multi-valued parameter: layers."),
        (lambda: hp.set_hparam("layers", [1.5]),
         "Could not cast hparam 'layers' of type '<class 'int'>' from value 1.5"),
        (lambda: hp.set_hparam("use_bn", 1),
         "Could not cast hparam 'use_bn' of type '<class 'bool'>' from value 1"),
        (lambda: hp.add_hparam("values", 1), "Hyperparameter name is reserved: values"),
        (lambda: hp.add_hparam("empty", []), "Multi-valued hyperparameters cannot be empty"),
        (lambda: hp.get("lr", "x"), "Hparam 'lr' of type '<class 'float'>' is incompatible "
                                    "with default=x"),
    ]
    for fn, message in cases:
        with pytest.raises(ValueError) as info:
            fn()
        assert message in str(info.value)
    with pytest.raises(KeyError):
        hp.set_hparam("nope", 1)
    assert tf.contrib.training.parse_values("x=5,L=[1,2],arr[1]=3",
                                            {"x": int, "L": int, "arr": int}) == \
        {"x": 5, "L": [1, 2], "arr": {1: 3}}


# -- tf.contrib.crf ---------------------------------------------------------------------------

RNG = np.random.RandomState(0)
B, T, O = 3, 4, 3
X = RNG.randn(B, T, O).astype(np.float32)
TAGS = RNG.randint(0, O, (B, T)).astype(np.int32)
LENS = np.array([4, 2, 1], np.int32)
TRANS = RNG.randn(O, O).astype(np.float32)


def np_score(x, tags, n):
    return (sum(x[t, tags[t]] for t in range(n))
            + sum(TRANS[tags[t - 1], tags[t]] for t in range(1, n)))


def np_brute_force(x, n):
    """(log Z, best path, best score) over all O**n tag paths."""
    paths = list(itertools.product(range(O), repeat=n))
    scores = np.array([np_score(x, p, n) for p in paths], np.float64)
    return np.log(np.exp(scores).sum()), list(paths[int(scores.argmax())]), scores.max()


def test_crf_matches_brute_force_over_all_tag_paths():
    with tf.Graph().as_default():
        x, tags, lens, trans = (tf.constant(a) for a in (X, TAGS, LENS, TRANS))
        ll, tp = crf.crf_log_likelihood(x, tags, lens, trans)
        decoded, best = crf.crf_decode(x, trans, lens)
        fetches = [ll, crf.crf_sequence_score(x, tags, lens, trans),
                   crf.crf_log_norm(x, lens, trans), crf.crf_unary_score(tags, lens, x),
                   crf.crf_binary_score(tags, lens, trans), decoded, best]
        assert tp is trans and decoded.dtype == tf.int32
        assert ll.get_shape().as_list() == [3] and decoded.get_shape().as_list() == [3, 4]
        with tf.Session() as sess:
            ll, score, log_norm, unary, binary, decoded, best = sess.run(fetches)
    for b in (0, 1):                    # full length, and shorter than max_seq_len
        log_z, path, best_score = np_brute_force(X[b], LENS[b])
        n = LENS[b]
        np.testing.assert_allclose(score[b], np_score(X[b], TAGS[b], n), rtol=1e-5)
        np.testing.assert_allclose(unary[b], sum(X[b, t, TAGS[b, t]] for t in range(n)),
                                   rtol=1e-5)
        np.testing.assert_allclose(log_norm[b], log_z, rtol=1e-5)
        np.testing.assert_allclose(ll[b], np_score(X[b], TAGS[b], n) - log_z, rtol=1e-5)
        assert list(decoded[b, :n]) == path and not decoded[b, n:].any()
        np.testing.assert_allclose(best[b], best_score, rtol=1e-5)
        np_tags, np_best = crf.viterbi_decode(X[b, :n], TRANS)
        assert list(np_tags) == path and np.isclose(np_best, best_score)
    # Example 2 has length 1 in a batch of max_seq_len 4: its score is its unary potential
    # and binary score 0, but TF 1.15's crf_forward reads the alphas after one step (index
    # max(0, len - 2)), so its log-norm is that of the first two positions -- kept as in TF.
    assert binary[2] == 0 and np.isclose(score[2], X[2, 0, TAGS[2, 0]])
    alpha_1 = X[2, 1] + np.log(np.exp(X[2, 0][:, None] + TRANS).sum(0))
    np.testing.assert_allclose(log_norm[2], np.log(np.exp(alpha_1).sum()), rtol=1e-5)
    assert decoded[2, 0] == X[2, 0].argmax() and np.isclose(best[2], X[2, 0].max())


def test_crf_single_step_and_forward_cell():
    with tf.Graph().as_default():
        x = tf.constant(X[:, :1])
        ll, _ = crf.crf_log_likelihood(x, tf.constant(TAGS[:, :1]), tf.constant([1, 1, 0]),
                                       tf.constant(TRANS))
        decoded, best = crf.crf_decode(x, tf.constant(TRANS), tf.constant([1, 1, 1]))
        cell = crf.CrfForwardRnnCell(tf.constant(TRANS))
        alphas, _ = cell(tf.constant(X[:, 1]), tf.constant(X[:, 0]))
        assert cell.state_size == cell.output_size == 3
        with tf.Session() as sess:
            ll, decoded, best, alphas = sess.run([ll, decoded, best, alphas])
    log_softmax = X[:, 0] - np.log(np.exp(X[:, 0]).sum(1, keepdims=True))
    np.testing.assert_allclose(ll[:2], log_softmax[[0, 1], TAGS[:2, 0]], rtol=1e-5)
    assert ll[2] == 0                                   # length 0: score and norm are 0
    assert list(decoded[:, 0]) == list(X[:, 0].argmax(1))
    np.testing.assert_allclose(best, X[:, 0].max(1), rtol=1e-6)
    expected = X[:, 1] + np.log(np.exp(X[:, 0][:, :, None] + TRANS[None]).sum(1))
    np.testing.assert_allclose(alphas, expected, rtol=1e-5)


def test_crf_layer_trains_on_a_toy_ner_batch():
    words = np.array([[0, 1, 2, 3], [4, 1, 5, 0], [2, 3, 0, 0]], np.int32)
    gold = np.array([[0, 1, 2, 0], [1, 1, 0, 0], [2, 0, 0, 0]], np.int32)
    with tf.Graph().as_default():
        tf.set_random_seed(1)
        embeddings = tf.get_variable("emb", [6, O])
        unary = tf.nn.embedding_lookup(embeddings, words)
        ll, transitions = crf.crf_log_likelihood(unary, tf.constant(gold),
                                                 tf.constant([4, 3, 2]))
        assert transitions.name == "transitions:0"
        assert transitions.get_shape().as_list() == [O, O]
        loss = tf.reduce_mean(-ll)
        train = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
        decoded, _ = crf.crf_decode(unary, transitions, tf.constant([4, 3, 2]))
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            first = sess.run(loss)
            for _ in range(40):
                sess.run(train)
            last, decoded = sess.run([loss, decoded])
    assert last < 0.3 * first
    np.testing.assert_array_equal(decoded, gold)


# -- tf.contrib.opt ---------------------------------------------------------------------------

VAR0 = np.array([[1., 2.], [3., -4.], [0.5, 0.5]])
COEF = np.array([[1., 2.], [.5, 1.], [1., 1.]])


def run_steps(make_optimizer, steps=3, decay_var_list=None):
    """VAR0 after `steps` steps on loss = sum(COEF * var**2) (gradient 2 * COEF * var)."""
    with tf.Graph().as_default():
        var = tf.Variable(VAR0.astype(np.float32), name="v")
        other = tf.Variable(np.ones(2, np.float32), name="other")
        loss = tf.reduce_sum(var * var * COEF.astype(np.float32)) + tf.reduce_sum(other)
        opt = make_optimizer()
        if decay_var_list == "minimize":
            train = opt.minimize(loss, decay_var_list=[var])
        elif decay_var_list == "apply_gradients":
            train = opt.apply_gradients(opt.compute_gradients(loss), decay_var_list=[var])
        else:
            train = opt.minimize(loss)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for _ in range(steps):
                sess.run(train)
            return sess.run([var, other]) + [opt]


def np_adamw(wd, lr, steps, var0=VAR0, grad=lambda var: 2 * COEF * var, b1=0.9, b2=0.999,
             eps=1e-8):
    """TF 1.15's AdamWOptimizer: var -= wd * var, then Adam's step with grad at the old var."""
    var, m, v = np.array(var0, np.float64), 0., 0.
    for t in range(1, steps + 1):
        g = grad(var)
        var = var - wd * var
        m, v = b1 * m + (1 - b1) * g, b2 * v + (1 - b2) * g * g
        var = var - lr * math.sqrt(1 - b2 ** t) / (1 - b1 ** t) * m / (np.sqrt(v) + eps)
    return var


def test_adamw_and_momentumw_decoupled_weight_decay():
    var, other, opt = run_steps(lambda: tf.contrib.opt.AdamWOptimizer(0.1, learning_rate=0.1))
    assert opt.get_name() == "AdamW" and opt.get_slot_names() == ["m", "v"]
    np.testing.assert_allclose(var, np_adamw(0.1, 0.1, 3), rtol=1e-5)
    np.testing.assert_allclose(other, np_adamw(0.1, 0.1, 3, np.ones(2), np.ones_like),
                               rtol=1e-5)
    # weight_decay=0 is Adam.
    adam0 = run_steps(lambda: tf.contrib.opt.AdamWOptimizer(0.0, learning_rate=0.1))[0]
    adam = run_steps(lambda: tf.train.AdamOptimizer(0.1))[0]
    np.testing.assert_array_equal(adam0, adam)
    # decay_var_list given to apply_gradients: only `v` decays, `other` takes Adam steps.
    # Given to minimize it is reset by apply_gradients (TF 1.15's quirk): all decay.
    for where, other_decay in [("apply_gradients", 0.), ("minimize", 0.1)]:
        var, other, _ = run_steps(
            lambda: tf.contrib.opt.AdamWOptimizer(0.1, learning_rate=0.1), decay_var_list=where)
        np.testing.assert_allclose(var, np_adamw(0.1, 0.1, 3), rtol=1e-5)
        np.testing.assert_allclose(
            other, np_adamw(other_decay, 0.1, 3, np.ones(2), np.ones_like), rtol=1e-5)
    # MomentumW: var -= wd * var; accum = momentum * accum + g; var -= lr * accum.
    var, _, opt = run_steps(lambda: tf.contrib.opt.MomentumWOptimizer(0.05, 0.1, 0.9))
    expected, accum = VAR0.copy(), 0.
    for _ in range(3):
        g = 2 * COEF * expected
        expected = expected - 0.05 * expected
        accum = 0.9 * accum + g
        expected = expected - 0.1 * accum
    assert opt.get_name() == "MomentumW"
    np.testing.assert_allclose(var, expected, rtol=1e-5)
    adamw_class = tf.contrib.opt.extend_with_decoupled_weight_decay(tf.train.AdamOptimizer)
    var = run_steps(lambda: adamw_class(0.1, learning_rate=0.1))[0]
    np.testing.assert_allclose(var, np_adamw(0.1, 0.1, 3), rtol=1e-5)


def test_lazy_adam_touches_only_the_rows_of_a_sparse_gradient():
    table0 = np.arange(8, dtype=np.float32).reshape(4, 2)
    batches = [[0, 2, 0], [2], [1]]

    def run(make_optimizer):
        with tf.Graph().as_default():
            table = tf.Variable(table0, name="table")
            ids = tf.placeholder(tf.int32, [None])
            loss = tf.reduce_sum(tf.gather(table, ids) * [1., -2.])
            train = make_optimizer().minimize(loss)
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                for rows in batches:
                    sess.run(train, {ids: rows})
                return sess.run(table)

    lazy = run(lambda: tf.contrib.opt.LazyAdamOptimizer(0.1))
    dense = run(lambda: tf.train.AdamOptimizer(0.1))
    # NumPy: TF 1.15's LazyAdam updates m, v and var of the rows seen only.
    var, m, v = table0.astype(np.float64), np.zeros((4, 2)), np.zeros((4, 2))
    for t, rows in enumerate(batches, 1):
        g = np.zeros((4, 2))
        for r in rows:
            g[r] += [1., -2.]
        seen = sorted(set(rows))
        lr = 0.1 * math.sqrt(1 - 0.999 ** t) / (1 - 0.9 ** t)
        m[seen] = 0.9 * m[seen] + 0.1 * g[seen]
        v[seen] = 0.999 * v[seen] + 0.001 * g[seen] ** 2
        var[seen] -= lr * m[seen] / (np.sqrt(v[seen]) + 1e-8)
    np.testing.assert_allclose(lazy, var, rtol=1e-5)
    assert (lazy[3] == table0[3]).all()
    assert not np.allclose(lazy[0], dense[0])      # Adam keeps moving row 0 after step 1


def test_addsign_powersign_and_moving_average_optimizer(tmp_path):
    def run(make_optimizer, average=False):
        with tf.Graph().as_default():
            var = tf.Variable(VAR0.astype(np.float32), name="v")
            loss = tf.reduce_sum(var * var * COEF.astype(np.float32)) - 1.5 * tf.reduce_sum(var)
            opt = make_optimizer()
            train = opt.minimize(loss)
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                for _ in range(3):
                    sess.run(train)
                if not average:
                    return sess.run(var)
                saver = opt.swapping_saver()
                path = saver.save(sess, str(tmp_path / "model"))
                return sess.run([var, opt._ema.average(var)]) + [
                    tf.train.load_variable(path, "v"),
                    tf.train.load_variable(path, "v/ExponentialMovingAverage")]

    half = lambda global_step: 0.5  # noqa: E731 -- a constant sign_decay_fn
    add_sign = run(lambda: tf.contrib.opt.AddSignOptimizer(0.1, sign_decay_fn=half))
    power_sign = run(lambda: tf.contrib.opt.PowerSignOptimizer(0.1, base=2., sign_decay_fn=half))
    # TF 2.15.1's ResourceApplyAddSign / ResourceApplyPowerSign kernels, same 3 steps.
    np.testing.assert_allclose(add_sign, [[0.83575, 0.479], [2.4211874, -0.87924987],
                                          [0.66425, 0.66425]], rtol=1e-5)
    np.testing.assert_allclose(power_sign, [[0.8422111, 0.5081271], [2.4493613, -1.0020111],
                                            [0.6577889, 0.6577889]], rtol=1e-5)
    var, average, saved_v, saved_avg = run(lambda: tf.contrib.opt.MovingAverageOptimizer(
        tf.train.GradientDescentOptimizer(0.1), average_decay=0.5), average=True)
    # TF 2.15.1's GradientDescent steps and the average after them (the average reads each
    # step's updated value: the reads made under control_dependencies wait for the step)
    np.testing.assert_allclose(var, [[0.878, 0.726], [2.5935, -1.682], [0.622, 0.622]],
                               rtol=1e-5)
    np.testing.assert_allclose(average, [[0.91025, 1.02175], [2.70675, -2.29475],
                                         [0.58975, 0.58975]], rtol=1e-5)
    np.testing.assert_allclose(saved_v, average)       # swapped in the checkpoint
    np.testing.assert_allclose(saved_avg, var)
    with pytest.raises(RuntimeError, match="before creating the swapping_saver"):
        tf.contrib.opt.MovingAverageOptimizer(tf.train.AdamOptimizer()).swapping_saver()


# -- tf.contrib.metrics -----------------------------------------------------------------------

def test_streaming_metrics_match_tf_metrics_with_predictions_first():
    cm = tf.contrib.metrics
    batches = [([0.9, 0.2, 0.6, 0.4], [1., 0., 0., 1.], [1, 2, 0, 1], [1, 2, 1, 1]),
               ([0.1, 0.8, 0.7, 0.3], [0., 1., 1., 1.], [0, 0, 2, 2], [0, 1, 2, 0])]
    with tf.Graph().as_default():
        p, lab = tf.placeholder(tf.float32, [4]), tf.placeholder(tf.float32, [4])
        pc, lc = tf.placeholder(tf.int64, [4]), tf.placeholder(tf.int64, [4])
        values, updates = cm.aggregate_metric_map({
            "acc": cm.streaming_accuracy(pc, lc), "mean": cm.streaming_mean(p),
            "auc": cm.streaming_auc(p, tf.cast(lab, tf.bool)),
            "prec": cm.streaming_precision(p > 0.5, tf.cast(lab, tf.bool)),
            "rec": cm.streaming_recall(p > 0.5, tf.cast(lab, tf.bool)),
            "mse": cm.streaming_mean_squared_error(p, lab),
            "mae": cm.streaming_mean_absolute_error(p, lab)})
        value_list, update_list = cm.aggregate_metrics(cm.streaming_mean(p),
                                                       cm.streaming_mean(lab))
        assert len(value_list) == len(update_list) == 2
        assert values["acc"].op.name.startswith("accuracy")
        batch_accuracy = cm.accuracy(pc, lc, weights=[1., 1., 2., 1.])
        confusion = cm.confusion_matrix([1, 2, 0, 1], [1, 2, 1, 1], num_classes=3)
        with tf.Session() as sess:
            sess.run(tf.local_variables_initializer())
            for a, b, c, d in batches:
                sess.run(updates, {p: a, lab: b, pc: c, lc: d})
            got = sess.run(values)
            accuracy0 = sess.run(batch_accuracy, {pc: batches[0][2], lc: batches[0][3]})
            confusion = sess.run(confusion)
    # TF 2.15.1's tf.compat.v1.metrics on the same two batches.
    expected = {"acc": 0.625, "mean": 0.5, "auc": 0.86666644, "prec": 0.75, "rec": 0.6,
                "mse": 0.17500001, "mae": 0.35}
    for key, value in expected.items():
        np.testing.assert_allclose(got[key], value, rtol=1e-5, err_msg=key)
    assert accuracy0 == pytest.approx(3. / 5.)
    np.testing.assert_array_equal(confusion, [[0, 1, 0], [0, 2, 0], [0, 0, 1]])
    with pytest.raises(ValueError, match="at least one"):
        cm.aggregate_metrics()


def test_streaming_concat_keeps_every_batch():
    cm = tf.contrib.metrics
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [2, None])
        y = tf.placeholder(tf.float32, [None, 2])
        columns, add_columns = cm.streaming_concat(x, axis=1)
        rows, add_rows = cm.streaming_concat(y, max_size=3)
        assert columns.get_shape().as_list() == [2, None]
        with pytest.raises(ValueError, match="statically known size"):
            cm.streaming_concat(x)
        with tf.Session() as sess:
            sess.run(tf.local_variables_initializer())
            assert sess.run(columns).shape == (2, 0)
            sess.run([add_columns, add_rows], {x: [[1, 2], [3, 4]], y: [[1, 2], [3, 4]]})
            sess.run([add_columns, add_rows], {x: [[5], [6]], y: [[5, 6], [7, 8]]})
            columns, rows = sess.run([columns, rows])
    np.testing.assert_array_equal(columns, [[1, 2, 5], [3, 4, 6]])
    np.testing.assert_array_equal(rows, [[1, 2], [3, 4], [5, 6]])      # max_size=3


# -- tf.contrib.distributions -----------------------------------------------------------------

def test_contrib_distributions_logistic_and_mvn_diag():
    ds = tf.contrib.distributions
    assert ds.Normal is tf.distributions.Normal
    assert ds.kl_divergence is tf.distributions.kl_divergence
    x = np.array([0.5, -1.])
    loc, scale = np.array([0., 1.]), np.array([1., 2.])
    with tf.Graph().as_default():
        logistic = ds.Logistic(loc=loc.astype(np.float32), scale=scale.astype(np.float32))
        mvn = ds.MultivariateNormalDiag(loc=[[1., 2.], [0., 0.]], scale_diag=[0.5, 2.])
        unit = ds.MultivariateNormalDiag(loc=[0., 1.], scale_diag=[1., 1.])
        assert mvn.batch_shape.as_list() == [2] and mvn.event_shape.as_list() == [2]
        draws = mvn.sample(2000, seed=3)
        assert draws.get_shape().as_list() == [2000, 2, 2]
        with tf.Session() as sess:
            got = sess.run([logistic.log_prob(x.astype(np.float32)),
                            logistic.cdf(x.astype(np.float32)), logistic.entropy(),
                            logistic.stddev(), logistic.sample(2000, seed=1),
                            mvn.log_prob([1., 1.]), mvn.entropy(), mvn.covariance(),
                            ds.kl_divergence(mvn, unit), draws])
    lp, cdf, entropy, stddev, samples, mvn_lp, mvn_entropy, cov, kl, draws = got
    z = (x - loc) / scale
    np.testing.assert_allclose(lp, -z - 2 * np.log1p(np.exp(-z)) - np.log(scale), rtol=1e-5)
    np.testing.assert_allclose(cdf, 1 / (1 + np.exp(-z)), rtol=1e-5)
    np.testing.assert_allclose(entropy, 2 + np.log(scale), rtol=1e-6)
    np.testing.assert_allclose(stddev, scale * np.pi / np.sqrt(3), rtol=1e-6)
    np.testing.assert_allclose(samples.mean(0), loc, atol=0.25)
    sd = np.array([0.5, 2.])
    normal_lp = (-0.5 * ((1. - np.array([[1., 2.], [0., 0.]])) / sd) ** 2
                 - 0.5 * np.log(2 * np.pi) - np.log(sd))
    np.testing.assert_allclose(mvn_lp, normal_lp.sum(1), rtol=1e-5)
    np.testing.assert_allclose(mvn_entropy, (0.5 * np.log(2 * np.pi * np.e) + np.log(sd)).sum(),
                               rtol=1e-6)
    np.testing.assert_allclose(cov[0], np.diag(sd ** 2))
    r = sd ** 2
    kl_ref = [(((np.array(m) - [0., 1.]) ** 2) / 2 + 0.5 * (r - 1 - np.log(r))).sum()
              for m in ([1., 2.], [0., 0.])]
    np.testing.assert_allclose(kl, kl_ref, rtol=1e-5)
    np.testing.assert_allclose(draws.std(0)[0], sd, rtol=0.1)
