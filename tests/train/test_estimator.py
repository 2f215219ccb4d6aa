"""tf.estimator on one process (sandbox/estimator/): Estimator train / evaluate / predict with
checkpoints in model_dir, EstimatorSpec, ModeKeys, RunConfig from TF_CONFIG, numpy_input_fn,
and train_and_evaluate without a cluster. The numbers marked "TF 1.15" were measured by running
the same program under TensorFlow 1.15.5 (/tmp/tf115/bin/python)."""
import json
import os

import numpy as np
import pytest

import sandbox as tf

RNG = np.random.RandomState(0)
X = RNG.rand(64, 3).astype(np.float32)
TRUE_W = np.array([[1.0], [2.0], [3.0]], np.float32)
Y = X @ TRUE_W
LR = 0.5


def model_fn(features, labels, mode, params):
    """Linear regression y = x w, w starting at 0, plain gradient descent."""
    w = tf.get_variable("w", [3, 1], initializer=tf.zeros_initializer())
    pred = tf.matmul(features["x"], w)
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions={"y": pred})
    loss = tf.reduce_mean(tf.square(pred - labels))
    train_op = tf.train.GradientDescentOptimizer(params["lr"]).minimize(
        loss, global_step=tf.train.get_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


def train_input(batch_size=16):
    return tf.estimator.inputs.numpy_input_fn({"x": X}, Y, batch_size=batch_size,
                                              num_epochs=None, shuffle=False)


def eval_input():
    return tf.estimator.inputs.numpy_input_fn({"x": X}, Y, batch_size=16, num_epochs=1,
                                              shuffle=False)


def numpy_weights(steps, batch_size=16):
    """The same training in NumPy: batches taken in order, cycling over the 64 rows."""
    w = np.zeros((3, 1), np.float64)
    for step in range(steps):
        rows = [(step * batch_size + j) % len(X) for j in range(batch_size)]
        x, y = X[rows].astype(np.float64), Y[rows].astype(np.float64)
        w -= LR * 2.0 / batch_size * x.T @ (x @ w - y)
    return w


@pytest.fixture(autouse=True)
def _no_tf_config(monkeypatch):
    monkeypatch.delenv("TF_CONFIG", raising=False)


@pytest.fixture
def estimator(tmp_path):
    return tf.estimator.Estimator(model_fn, model_dir=str(tmp_path), params={"lr": LR})


# -- train, checkpoints, resume --------------------------------------------------------------

def test_train_follows_numpy_and_a_second_train_resumes_from_the_checkpoint(estimator, tmp_path):
    assert estimator.latest_checkpoint() is None
    estimator.train(train_input(), steps=10)
    assert estimator.latest_checkpoint() == str(tmp_path / "model.ckpt-10")
    assert estimator.get_variable_value("global_step") == 10
    # TF 1.15: w after 10 steps = [1.5244090557, 1.9683896303, 2.5759563446]
    np.testing.assert_allclose(estimator.get_variable_value("w").ravel(),
                               [1.5244090557, 1.9683896303, 2.5759563446], rtol=1e-5)
    np.testing.assert_allclose(estimator.get_variable_value("w"), numpy_weights(10), rtol=1e-5)
    assert sorted(estimator.get_variable_names()) == ["global_step", "w"]

    estimator.train(train_input(), steps=5)          # 5 more, from the saved step 10
    assert estimator.get_variable_value("global_step") == 15
    assert estimator.latest_checkpoint().endswith("model.ckpt-15")
    # Resumed from the checkpoint (not from zero), and the input starts again at row 0:
    w = numpy_weights(10)
    for step in range(5):
        rows = [(step * 16 + j) % 64 for j in range(16)]
        x, y = X[rows].astype(np.float64), Y[rows].astype(np.float64)
        w -= LR * 2.0 / 16 * x.T @ (x @ w - y)
    np.testing.assert_allclose(estimator.get_variable_value("w"), w, rtol=1e-5)

    estimator.train(train_input(), max_steps=15)     # already there: skipped
    assert estimator.get_variable_value("global_step") == 15
    estimator.train(train_input(), max_steps=20)
    assert estimator.get_variable_value("global_step") == 20


def test_loss_decreases(estimator):
    first = estimator.evaluate(eval_input())["loss"]
    estimator.train(train_input(), steps=5)
    after5 = estimator.evaluate(eval_input())["loss"]
    estimator.train(train_input(), steps=45)
    after50 = estimator.evaluate(eval_input())["loss"]
    assert first > after5 > after50
    assert first == pytest.approx(10.522551, rel=1e-5)      # TF 1.15: 10.522551 untrained
    w = numpy_weights(5)                  # then 45 steps, the input starting again at row 0
    for step in range(45):
        rows = [(step * 16 + j) % 64 for j in range(16)]
        w -= LR * 2.0 / 16 * X[rows].T @ (X[rows] @ w - Y[rows])
    expected = np.mean([np.mean((X[i:i + 16] @ w - Y[i:i + 16]) ** 2) for i in (0, 16, 32, 48)])
    assert after50 == pytest.approx(expected, rel=1e-3)


def test_train_arguments_are_checked(estimator):
    with pytest.raises(ValueError, match="Can not provide both steps and max_steps"):
        estimator.train(train_input(), steps=1, max_steps=3)
    with pytest.raises(ValueError, match="Must specify steps > 0, given: 0"):
        estimator.train(train_input(), steps=0)
    with pytest.raises(ValueError, match="Must specify max_steps > 0"):
        estimator.train(train_input(), max_steps=-1)
    with pytest.raises(TypeError, match="SessionRunHook"):
        estimator.train(train_input(), steps=1, hooks=["not a hook"])


def test_training_ends_when_the_input_does(estimator):
    """num_epochs=1 over 64 rows in batches of 16: 4 steps, then OutOfRangeError ends it."""
    once = tf.estimator.inputs.numpy_input_fn({"x": X}, Y, batch_size=16, num_epochs=1,
                                              shuffle=False)
    estimator.train(once)
    assert estimator.get_variable_value("global_step") == 4


def test_hooks_and_checkpoint_steps(tmp_path):
    class Count(tf.train.SessionRunHook):
        def __init__(self):
            self.runs = 0

        def after_run(self, run_context, run_values):
            self.runs += 1

    config = tf.estimator.RunConfig(model_dir=str(tmp_path), save_checkpoints_steps=4,
                                    keep_checkpoint_max=2)
    est = tf.estimator.Estimator(model_fn, config=config, params={"lr": LR})
    hook = Count()
    est.train(train_input(), max_steps=10, hooks=[hook])
    assert hook.runs == 10
    state = tf.train.get_checkpoint_state(str(tmp_path))
    # saved at 0, 4, 8 and 10; keep_checkpoint_max=2 keeps the last two
    assert [os.path.basename(p) for p in state.all_model_checkpoint_paths] == \
        ["model.ckpt-8", "model.ckpt-10"]


# -- evaluate ----------------------------------------------------------------------------------

def test_evaluate_returns_loss_metrics_and_global_step(tmp_path):
    def with_metric(features, labels, mode, params):
        spec = model_fn(features, labels, mode, params)
        if mode != tf.estimator.ModeKeys.EVAL:
            return spec
        err = tf.reduce_max(tf.abs(spec.loss))
        biggest = tf.Variable(0.0, trainable=False, name="biggest",
                              collections=[tf.GraphKeys.LOCAL_VARIABLES])
        update = tf.assign(biggest, tf.maximum(biggest, err))
        return spec._replace(eval_metric_ops={"worst_batch": (biggest.value(), update)})

    est = tf.estimator.Estimator(with_metric, model_dir=str(tmp_path), params={"lr": LR})
    est.train(train_input(), steps=10)
    result = est.evaluate(eval_input(), steps=2)
    assert sorted(result) == ["global_step", "loss", "worst_batch"]
    assert result["global_step"] == 10 and isinstance(result["global_step"], np.int64)
    # TF 1.15: the mean loss of the first 2 batches after 10 steps is 0.026397716
    assert result["loss"] == pytest.approx(0.026397716, rel=1e-4)
    w = numpy_weights(10)
    batch_losses = [np.mean((X[i:i + 16] @ w - Y[i:i + 16]) ** 2) for i in (0, 16, 32, 48)]
    assert result["loss"] == pytest.approx(np.mean(batch_losses[:2]), rel=1e-4)
    assert result["worst_batch"] == pytest.approx(max(batch_losses[:2]), rel=1e-4)

    everything = est.evaluate(eval_input(), name="val")   # steps=None: until the input ends
    assert everything["loss"] == pytest.approx(np.mean(batch_losses), rel=1e-4)
    # TF 1.15: 0.029076416 over the 4 batches
    assert everything["loss"] == pytest.approx(0.029076416, rel=1e-4)
    assert (tmp_path / "eval").is_dir() and (tmp_path / "eval_val").is_dir()
    assert any(p.name.startswith("events.out.tfevents") for p in (tmp_path / "eval").iterdir())


def test_evaluate_rejects_metrics_named_like_the_defaults(tmp_path):
    def named_loss(features, labels, mode):
        spec = model_fn(features, labels, mode, {"lr": LR})
        return spec._replace(eval_metric_ops={"loss": (spec.loss, tf.no_op())})

    est = tf.estimator.Estimator(named_loss, model_dir=str(tmp_path))
    with pytest.raises(ValueError, match='Metric with name "loss" is not allowed'):
        est.evaluate(eval_input())


# -- predict -----------------------------------------------------------------------------------

def test_predict_yields_one_prediction_per_example(estimator):
    estimator.train(train_input(), steps=10)
    five = tf.estimator.inputs.numpy_input_fn({"x": X[:5]}, batch_size=2, num_epochs=1,
                                              shuffle=False)
    predictions = list(estimator.predict(five))
    assert len(predictions) == 5
    assert all(sorted(p) == ["y"] and p["y"].shape == (1,) for p in predictions)
    expected = X[:5] @ numpy_weights(10)
    np.testing.assert_allclose([p["y"][0] for p in predictions], expected.ravel(), rtol=1e-5)
    batches = list(estimator.predict(five, yield_single_examples=False))
    assert [b["y"].shape for b in batches] == [(2, 1), (2, 1), (1, 1)]      # as in TF 1.15
    with pytest.raises(ValueError, match="Expected to run at least one output"):
        list(estimator.predict(five, predict_keys=["nope"]))


def test_predict_with_a_tensor_and_no_checkpoint(tmp_path):
    def plain(features, mode):
        w = tf.get_variable("w", [3, 1], initializer=tf.ones_initializer())
        return tf.estimator.EstimatorSpec(mode, predictions=tf.matmul(features["x"], w)[:, 0])

    est = tf.estimator.Estimator(plain, model_dir=str(tmp_path))
    two = tf.estimator.inputs.numpy_input_fn({"x": X[:2]}, batch_size=2, num_epochs=1,
                                             shuffle=False)
    got = list(est.predict(two))        # no checkpoint: initialized variables, as TF 1.15 does
    np.testing.assert_allclose(got, X[:2].sum(axis=1), rtol=1e-6)


# -- the model_fn and its EstimatorSpec ---------------------------------------------------------

def test_mode_keys_are_tfs_strings():
    assert (tf.estimator.ModeKeys.TRAIN, tf.estimator.ModeKeys.EVAL,
            tf.estimator.ModeKeys.PREDICT) == ("train", "eval", "infer")


def test_estimator_spec_checks_what_each_mode_needs():
    loss = tf.constant(1.0)
    with pytest.raises(ValueError, match="Missing train_op"):
        tf.estimator.EstimatorSpec("train", loss=loss)
    with pytest.raises(ValueError, match="Missing loss"):
        tf.estimator.EstimatorSpec("eval")
    with pytest.raises(ValueError, match="Missing predictions"):
        tf.estimator.EstimatorSpec("infer")
    with pytest.raises(ValueError, match="Loss must be scalar"):
        tf.estimator.EstimatorSpec("eval", loss=tf.constant([1.0, 2.0]))
    with pytest.raises(TypeError, match="eval_metric_ops must be a dict"):
        tf.estimator.EstimatorSpec("eval", loss=loss, eval_metric_ops=[1])
    with pytest.raises(TypeError, match=r"\(metric_value, update_op\) tuples"):
        tf.estimator.EstimatorSpec("eval", loss=loss, eval_metric_ops={"m": loss})
    with pytest.raises(ValueError, match="mode must be one of"):     # TF accepts any string
        tf.estimator.EstimatorSpec("bogus", loss=loss)
    spec = tf.estimator.EstimatorSpec("eval", loss=tf.constant([3.0]), export_outputs={"a": 1})
    assert spec.loss.shape.as_list() == [] and spec.export_outputs == {"a": 1}   # [1] -> ()
    assert isinstance(spec.scaffold, tf.train.Scaffold) and spec.predictions == {}
    other = tf.Graph()
    with other.as_default():
        foreign = tf.constant(2.0)
    with pytest.raises(ValueError, match="must be from the default graph"):
        tf.estimator.EstimatorSpec("eval", loss=foreign)


def test_estimator_checks_model_fn_and_model_dir(tmp_path):
    with pytest.raises(ValueError, match="must include features argument"):
        tf.estimator.Estimator(lambda x: None)
    with pytest.raises(ValueError, match="has following not expected args"):
        tf.estimator.Estimator(lambda features, other: None, model_dir=str(tmp_path))
    with pytest.raises(ValueError, match="does not include params argument"):
        tf.estimator.Estimator(lambda features: None, model_dir=str(tmp_path), params={"a": 1})
    with pytest.raises(ValueError, match="`model_dir` are set both"):
        tf.estimator.Estimator(model_fn, model_dir=str(tmp_path / "a"),
                               config=tf.estimator.RunConfig(model_dir=str(tmp_path / "b")))
    est = tf.estimator.Estimator(model_fn, params={"lr": 1.0})     # a temporary model_dir
    assert os.path.isdir(est.model_dir)
    with pytest.raises(ValueError, match="Could not find trained model in model_dir"):
        est.get_variable_value("w")

    def returns_nothing(features, labels):
        return None
    bad = tf.estimator.Estimator(returns_nothing, model_dir=str(tmp_path / "c"))
    with pytest.raises(ValueError, match="model_fn should return an EstimatorSpec"):
        bad.train(train_input(), steps=1)


# -- numpy_input_fn ----------------------------------------------------------------------------

def test_numpy_input_fn_gives_every_row_then_out_of_range():
    x = {"a": np.arange(5, dtype=np.float32), "b": np.arange(10, dtype=np.int64).reshape(5, 2)}
    y = np.arange(5, dtype=np.int32) * 10
    features, labels = tf.estimator.inputs.numpy_input_fn(
        x, y, batch_size=2, num_epochs=2, shuffle=False)()
    assert sorted(features) == ["a", "b"]
    assert features["b"].shape.as_list() == [None, 2]
    got = []
    with tf.train.MonitoredSession() as sess:       # starts the queue runner
        while not sess.should_stop():
            f, l = sess.run([features, labels])
            got.append((f["a"].tolist(), f["b"][:, 0].tolist(), l.tolist()))
    # two epochs of rows 0..4 in batches of 2 (a batch may span the epochs); the last is short
    assert got == [([0, 1], [0, 2], [0, 10]), ([2, 3], [4, 6], [20, 30]),
                   ([4, 0], [8, 0], [40, 0]), ([1, 2], [2, 4], [10, 20]),
                   ([3, 4], [6, 8], [30, 40])]


def test_numpy_input_fn_shuffles_and_repeats():
    features = tf.estimator.inputs.numpy_input_fn(
        {"a": np.arange(100, dtype=np.int64)}, batch_size=50, num_epochs=None, shuffle=True,
        queue_capacity=100)()
    with tf.train.MonitoredSession() as sess:
        batches = [sess.run(features)["a"] for _ in range(6)]
    rows = np.concatenate(batches)
    assert all(len(b) == 50 for b in batches)        # num_epochs=None: always full batches
    assert set(rows.tolist()) <= set(range(100)) and len(set(rows.tolist())) > 50
    assert rows[:50].tolist() != list(range(50))      # not in order


def test_numpy_input_fn_errors_like_tf():
    with pytest.raises(ValueError, match="shuffle must be provided and explicitly set"):
        tf.estimator.inputs.numpy_input_fn({"x": X}, Y)
    with pytest.raises(ValueError, match="Length of tensors in x and y is mismatched"):
        tf.estimator.inputs.numpy_input_fn({"x": X}, Y[:3], shuffle=False)()
    with pytest.raises(ValueError, match="x cannot be an empty dict"):
        tf.estimator.inputs.numpy_input_fn({}, shuffle=False)()
    with pytest.raises(ValueError, match="1 duplicate keys"):
        tf.estimator.inputs.numpy_input_fn({"x": X}, {"x": Y}, shuffle=False)()


# -- RunConfig from TF_CONFIG --------------------------------------------------------------------

CLUSTER = {"chief": ["host0:2222"], "ps": ["host1:2222", "host2:2222"],
           "worker": ["host3:2222", "host4:2222"]}
# Measured with TF 1.15's tf.estimator.RunConfig() under each TF_CONFIG:
# (task_type, task_id, master, is_chief, num_ps, num_worker, global_id, device_filters)
TF115_RUN_CONFIGS = {
    ("chief", 0): ("chief", 0, "grpc://host0:2222", True, 2, 3, 0, ["/job:ps", "/job:chief"]),
    ("worker", 1): ("worker", 1, "grpc://host4:2222", False, 2, 3, 2,
                    ["/job:ps", "/job:worker/task:1"]),
    ("ps", 1): ("ps", 1, "grpc://host2:2222", False, 2, 3, 4,
                ["/job:ps", "/job:worker", "/job:chief", "/job:master"]),
    ("evaluator", 0): ("evaluator", 0, "", False, 0, 0, None, None),
}


@pytest.mark.parametrize("task", sorted(TF115_RUN_CONFIGS))
def test_run_config_reads_tf_config_as_tf_1_15(monkeypatch, task):
    monkeypatch.setenv("TF_CONFIG", json.dumps(
        {"cluster": CLUSTER, "task": {"type": task[0], "index": task[1]}}))
    c = tf.estimator.RunConfig()
    task_type, task_id, master, is_chief, num_ps, num_worker, gid, filters = \
        TF115_RUN_CONFIGS[task]
    assert (c.task_type, c.task_id, c.master, c.is_chief, c.num_ps_replicas,
            c.num_worker_replicas, c.global_id_in_cluster) == \
        (task_type, task_id, master, is_chief, num_ps, num_worker, gid)
    if task_type == "evaluator":
        assert c.cluster_spec.as_dict() == {} and c.session_config is None
    else:
        assert c.cluster_spec.as_dict() == CLUSTER
        assert c.session_config.device_filters == filters
        assert c.session_config.allow_soft_placement
    assert c.evaluation_master == "" and c.model_dir is None
    assert (c.save_checkpoints_steps, c.save_checkpoints_secs, c.keep_checkpoint_max,
            c.log_step_count_steps, c.save_summary_steps) == (None, 600, 5, 100, 100)


def test_run_config_without_tf_config_and_its_settings(monkeypatch):
    c = tf.estimator.RunConfig()              # TF 1.15: a single local worker, the chief
    assert (c.task_type, c.task_id, c.master, c.is_chief, c.num_ps_replicas,
            c.num_worker_replicas, c.global_id_in_cluster) == ("worker", 0, "", True, 0, 1, 0)
    assert not c.cluster_spec and c.session_config is None
    c = tf.estimator.RunConfig(save_checkpoints_steps=10)
    assert (c.save_checkpoints_steps, c.save_checkpoints_secs) == (10, None)
    c2 = c.replace(save_checkpoints_secs=5)
    assert (c2.save_checkpoints_steps, c2.save_checkpoints_secs) == (None, 5)
    assert c.save_checkpoints_steps == 10                            # replace() copies
    with pytest.raises(ValueError, match="cannot be both set"):
        tf.estimator.RunConfig(save_checkpoints_steps=10, save_checkpoints_secs=10)
    with pytest.raises(ValueError, match="Replacing master is not supported"):
        c.replace(master="x")
    monkeypatch.setenv("TF_CONFIG", json.dumps(
        {"cluster": CLUSTER, "task": {"type": "worker", "index": 0}, "model_dir": "/tmp/md"}))
    assert tf.estimator.RunConfig().model_dir == "/tmp/md"
    monkeypatch.setenv("TF_CONFIG", json.dumps(
        {"cluster": {"chief": ["h:1"]}, "task": {"type": "chief", "index": 0}}))
    single = tf.estimator.RunConfig()         # TF 1.15: one task -> an in-process master ''
    assert (single.master, single.num_worker_replicas, single.is_chief) == ("", 1, True)


@pytest.mark.parametrize("config, message", [     # TF 1.15's errors
    ({"cluster": {"ps": ["a:1"], "worker": ["b:1"]}, "task": {"type": "worker", "index": 0}},
     'it must have one "chief" node'),
    ({"cluster": CLUSTER, "task": {"type": "worker", "index": 5}},
     "5 is not a valid task_id for task_type worker"),
    ({"cluster": CLUSTER, "task": {"type": "foo", "index": 0}},
     "foo is not a valid task_type in the cluster_spec"),
    ({"cluster": CLUSTER}, "task type must be set"),
    ({"task": {"type": "ps", "index": 0}}, "task type must be WORKER"),
])
def test_run_config_rejects_bad_tf_config(monkeypatch, config, message):
    monkeypatch.setenv("TF_CONFIG", json.dumps(config))
    with pytest.raises(ValueError, match=message):
        tf.estimator.RunConfig()


# -- train_and_evaluate, locally ------------------------------------------------------------------

def test_train_and_evaluate_locally_evaluates_after_checkpoints(tmp_path):
    config = tf.estimator.RunConfig(model_dir=str(tmp_path), save_checkpoints_steps=20)
    est = tf.estimator.Estimator(model_fn, config=config, params={"lr": LR})
    metrics, exports = tf.estimator.train_and_evaluate(
        est, tf.estimator.TrainSpec(train_input(), max_steps=50),
        tf.estimator.EvalSpec(eval_input(), steps=None, throttle_secs=0))
    # TF 1.15: ({'loss': 0.00014995468, 'global_step': 50}, []), checkpoints 0, 20, 40, 50
    assert exports == [] and sorted(metrics) == ["global_step", "loss"]
    assert metrics["global_step"] == 50
    assert metrics["loss"] == pytest.approx(0.00014995468, rel=1e-3)
    assert sorted(int(p.name.split("-")[1].split(".")[0]) for p in tmp_path.glob("*.index")) == \
        [0, 20, 40, 50]


def test_train_and_evaluate_checks_its_specs(tmp_path):
    est = tf.estimator.Estimator(model_fn, model_dir=str(tmp_path), params={"lr": LR})
    with pytest.raises(ValueError, match="Must specify max_steps > 0"):
        tf.estimator.TrainSpec(train_input(), max_steps=0)
    with pytest.raises(TypeError, match="`input_fn` must be callable"):
        tf.estimator.EvalSpec("not a function")
    with pytest.raises(ValueError, match="Must specify throttle_secs >= 0"):
        tf.estimator.EvalSpec(eval_input(), throttle_secs=-1)
    spec = tf.estimator.EvalSpec(eval_input())
    assert (spec.steps, spec.name, spec.start_delay_secs, spec.throttle_secs) == \
        (100, None, 120, 600)                                        # TF's defaults
    with pytest.raises(TypeError, match="`train_spec` must have type"):
        tf.estimator.train_and_evaluate(est, None, spec)


def test_pandas_input_fn_feeds_the_columns():
    pd = pytest.importorskip("pandas")
    x = pd.DataFrame({"b": np.arange(4, dtype=np.float32), "a": np.arange(4, dtype=np.int64) * 2},
                     index=np.arange(100, 104))
    y = pd.Series(np.arange(4, dtype=np.int32) + 10, index=x.index)
    features, target = tf.estimator.inputs.pandas_input_fn(x, y, batch_size=3, num_epochs=1,
                                                           shuffle=False)()
    assert sorted(features) == ["a", "b"]
    got = []
    with tf.train.MonitoredSession() as sess:
        while not sess.should_stop():
            f, t = sess.run([features, target])
            got.append((f["b"].tolist(), f["a"].tolist(), t.tolist()))
    assert got == [([0, 1, 2], [0, 2, 4], [10, 11, 12]), ([3], [6], [13])]
    with pytest.raises(ValueError, match="Index for x and y are mismatched"):
        tf.estimator.inputs.pandas_input_fn(x, pd.Series([1, 2, 3, 4]), shuffle=False)
