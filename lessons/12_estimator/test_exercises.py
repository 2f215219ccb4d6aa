"""Checks of lesson 12's exercises (quick: one process each, a few seconds).

    pytest lessons/12_estimator               # your files
    pytest lessons/12_estimator --solutions   # the reference solutions
"""
import json
import re

SERVERS = ["chief", "ps", "worker"]


def _pods(stdout):
    """{pod name: (TF_CONFIG dict, RunConfig line)} from exercise 1's output."""
    found = re.findall(r"pod (\S+)\n  TF_CONFIG=(.*)\n  RunConfig: (.*)", stdout)
    return {name: (json.loads(text), line) for name, text, line in found}


def test_exercise_1_tf_config_as_the_tfjob_operator_writes_it(exercise, run_program):
    run = run_program(exercise("exercise_1_tfjob_tf_config.py"), timeout=60)
    assert run.returncode == 0, run.stderr[-2000:]
    pods = _pods(run.stdout)
    assert sorted(pods) == ["mnist-chief-0", "mnist-evaluator-0", "mnist-ps-0",
                            "mnist-worker-0", "mnist-worker-1"], run.stdout[-2000:]
    expected_cluster = {"chief": ["mnist-chief-0.default.svc:2222"],
                        "ps": ["mnist-ps-0.default.svc:2222"],
                        "worker": ["mnist-worker-0.default.svc:2222",
                                   "mnist-worker-1.default.svc:2222"]}
    for name, (config, line) in pods.items():
        assert config["cluster"] == expected_cluster, (
            f"{name}: the cluster must hold the chief, the ps and the workers -- and not the "
            f"evaluator, which never starts a server -- got {config['cluster']}")
        job, index = name.split("-")[1:]
        assert config["task"] == {"type": job, "index": int(index)}, name
    worker_1 = pods["mnist-worker-1"][1]
    assert "master 'grpc://mnist-worker-1.default.svc:2222'" in worker_1
    assert "global id 2," in worker_1 and "3 worker replicas" in worker_1
    assert f"jobs it sees {SERVERS}" in pods["mnist-chief-0"][1]
    assert "master '', is_chief False, 0 ps, 0 worker replicas, global id None, jobs it sees []" \
        in pods["mnist-evaluator-0"][1]


def test_exercise_2_the_evaluator_reports_accuracy_and_confidence(exercise, run_program,
                                                                  tmp_path):
    run = run_program(exercise("exercise_2_eval_metrics.py"),
                      args=["--synthetic", "--max_steps=60", "--save_checkpoints_steps=30",
                            f"--model_dir={tmp_path / 'model'}"],
                      env={"SANDBOX_QUICK": "1", "TF_CONFIG": "{}"}, timeout=90)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "Final evaluation: global_step=60" in run.stdout, run.stdout[-1000:]
    metrics = dict(re.findall(r"  (accuracy|mean_confidence): (.+)", run.stdout))
    for name in ("accuracy", "mean_confidence"):
        assert metrics.get(name, "not reported") != "not reported", \
            f"the evaluation did not report {name!r}:\n{run.stdout[-800:]}"
    # The synthetic digits are easy: after 60 steps the model is right and sure of itself.
    assert float(metrics["accuracy"]) > 0.9
    assert 0.5 < float(metrics["mean_confidence"]) <= 1.0
