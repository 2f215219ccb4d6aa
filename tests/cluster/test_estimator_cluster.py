"""tf.estimator.train_and_evaluate on real clusters (sandbox/estimator/training.py): every task
runs the same program and TF_CONFIG says what it does -- the ps holds the variables, the chief
and the worker train them between-graph, the evaluator evaluates the chief's checkpoints.

Here the tasks of a LocalCluster run the program in their own processes
(LocalCluster.run_in_task); tests/lessons/test_12_estimator.py starts lesson 12's program as
four processes with TF_CONFIG, as a student starts it in four terminals."""
import json
import os
import threading

import numpy as np

import sandbox as tf
from sandbox.cluster import LocalCluster
from sandbox.runtime.peers import Peers

RNG = np.random.RandomState(0)
X = RNG.rand(64, 3).astype(np.float32)
Y = X @ np.array([[1.0], [2.0], [3.0]], np.float32)


def model_fn(features, labels, mode, params):
    w = tf.get_variable("w", [3, 1], initializer=tf.zeros_initializer())
    pred = tf.matmul(features["x"], w)
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions=pred)
    loss = tf.reduce_mean(tf.square(pred - labels))
    train_op = tf.train.GradientDescentOptimizer(params["lr"]).minimize(
        loss, global_step=tf.train.get_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


def train_input():
    return tf.estimator.inputs.numpy_input_fn({"x": X}, Y, batch_size=16, num_epochs=None,
                                              shuffle=True)


def eval_input():
    return tf.estimator.inputs.numpy_input_fn({"x": X}, Y, batch_size=16, num_epochs=1,
                                              shuffle=False)


class CountRuns(tf.train.SessionRunHook):
    def __init__(self):
        self.runs = 0

    def after_run(self, run_context, run_values):
        self.runs += 1


def make_estimator(model_dir):
    config = tf.estimator.RunConfig(model_dir=model_dir, save_checkpoints_steps=50,
                                    experimental_max_worker_delay_secs=0, tf_random_seed=1)
    return tf.estimator.Estimator(model_fn, config=config, params={"lr": 0.1}), config


def train_and_evaluate_in_task(server, report, should_stop, cluster, task_type, model_dir,
                               max_steps):
    """Runs in the chief's or the worker's own process, next to its server."""
    os.environ["TF_CONFIG"] = json.dumps({"cluster": cluster,
                                          "task": {"type": task_type, "index": 0}})
    estimator, config = make_estimator(model_dir)
    counter = CountRuns()
    tf.estimator.train_and_evaluate(
        estimator, tf.estimator.TrainSpec(train_input(), max_steps=max_steps, hooks=[counter]),
        tf.estimator.EvalSpec(eval_input(), steps=None))
    return {"runs": counter.runs, "master": config.master, "is_chief": config.is_chief,
            "num_ps": config.num_ps_replicas, "target": server.target}


def ps_resources(port, secret):
    peers = Peers({"ps": ("127.0.0.1", port)}, secret)
    try:
        return {row[1]: row for row in peers.call("ps", "ListResources")}
    finally:
        peers.close()


def test_train_and_evaluate_on_a_local_cluster(tmp_path, monkeypatch):
    max_steps = 300
    model_dir = str(tmp_path)
    with LocalCluster({"ps": 1, "chief": 1, "worker": 1}) as cluster:
        spec = cluster.cluster_spec.as_dict()
        runs = [cluster.run_in_task(job, 0, train_and_evaluate_in_task, spec, job, model_dir,
                                    max_steps) for job in ("chief", "worker")]
        # The evaluator: this process, which never joins the cluster.
        monkeypatch.setenv("TF_CONFIG", json.dumps(
            {"cluster": spec, "task": {"type": "evaluator", "index": 0}}))
        evaluator, config = make_estimator(model_dir)
        assert (config.task_type, config.master, config.num_ps_replicas) == ("evaluator", "", 0)
        evaluations = CountRuns()
        evaluating = threading.Thread(target=tf.estimator.train_and_evaluate, daemon=True, args=(
            evaluator, tf.estimator.TrainSpec(train_input(), max_steps=max_steps),
            tf.estimator.EvalSpec(eval_input(), steps=None, hooks=[evaluations],
                                  start_delay_secs=0, throttle_secs=0.2)))
        evaluating.start()             # it evaluates the checkpoints while the others train
        chief, worker = [run.result(timeout=60) for run in runs]
        evaluating.join(timeout=30)
        assert not evaluating.is_alive()    # it stopped after the checkpoint at max_steps

        assert chief["is_chief"] and not worker["is_chief"]
        assert chief["master"] == chief["target"] and worker["master"] == worker["target"]
        assert chief["num_ps"] == worker["num_ps"] == 1
        # Both trained (asynchronously) the one model held by the ps.
        assert chief["runs"] > 0 and worker["runs"] > 0
        assert chief["runs"] + worker["runs"] >= max_steps
        resources = ps_resources(cluster._task("ps", 0).port, cluster.secret)
        assert {"w", "global_step"} <= set(resources)
        assert [resources[name][2:5] for name in ("global_step", "w")] == \
            [["Variable", "int64", []], ["Variable", "float32", [3, 1]]]
        assert all(resources[name][6] == "initialized" for name in ("w", "global_step"))
        for job in ("chief", "worker"):        # the workers hold no variable of their own
            peers = Peers({job: ("127.0.0.1", cluster._task(job, 0).port)}, cluster.secret)
            try:
                assert not [r for r in peers.call(job, "ListResources") if r[2] == "Variable"]
            finally:
                peers.close()
        graph = tf.Graph()
        with graph.as_default(), tf.device("/job:ps/task:0"):
            step = tf.Variable(0, dtype=tf.int64, name="global_step")
        with tf.Session(cluster.target("chief", 0), graph=graph) as sess:
            on_the_ps = sess.run(step)
        assert max_steps <= on_the_ps <= max_steps + 2     # each task may take an extra step

    # The evaluator evaluated the checkpoints until the one at max_steps, and stopped.
    assert evaluations.runs >= 4                       # 4 batches per evaluation
    monkeypatch.delenv("TF_CONFIG")
    local = tf.estimator.Estimator(model_fn, model_dir=model_dir, params={"lr": 0.1})
    saved = local.get_variable_value("global_step")
    assert max_steps <= saved <= on_the_ps     # the worker may step once after the last save
    result = local.evaluate(eval_input())
    assert result["global_step"] == saved and result["loss"] < 0.05
    assert any(p.name.startswith("events.out.tfevents") for p in (tmp_path / "eval").iterdir())
