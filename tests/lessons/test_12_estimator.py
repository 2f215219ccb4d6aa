"""Lesson 12 (lessons/12_estimator): estimator_mnist.py run as the four tasks a TFJob names --
ps, chief, worker and evaluator -- each its own process with its own TF_CONFIG, as the
launcher's --tf-config starts them. What each task must do: the ps holds the variables, the
chief and the worker train them and only the chief saves, the evaluator (outside the cluster)
evaluates the chief's checkpoints until one at max_steps."""
import os
import pathlib
import re
import subprocess
import sys

from sandbox.cluster.launcher import Launch
from sandbox.runtime.cluster_secret import parse_secret
from sandbox.runtime.peers import Peers

REPO = pathlib.Path(__file__).resolve().parents[2]
PROGRAM = REPO / "lessons" / "12_estimator" / "estimator_mnist.py"
MAX_STEPS = 200


def _ps_resources(address, secret):
    host, port = address.rsplit(":", 1)
    peers = Peers({"ps": (host, int(port))}, parse_secret(secret))
    try:
        return {row[1]: row for row in peers.call("ps", "ListResources")}
    finally:
        peers.close()


def test_ps_chief_worker_and_evaluator_from_tf_config(tmp_path):
    jobs = {"ps": 1, "chief": 1, "worker": 1, "evaluator": 1}
    args = ["--synthetic", f"--max_steps={MAX_STEPS}", "--save_checkpoints_steps=50",
            "--max_worker_delay_secs=0", "--throttle_secs=0", f"--model_dir={tmp_path / 'm'}"]
    with Launch(PROGRAM, jobs, args=args, tf_config=True, cwd=tmp_path) as launch:
        assert "evaluator" not in launch.cluster          # the evaluator is not in the cluster
        launch.processes["chief", 0].wait(120)
        resources = _ps_resources(launch.cluster["ps"][0], launch.secret)   # the ps still serves
        runs = launch.wait(120)
    for task, run in runs.items():
        if task[0] != "ps":
            assert run.returncode == 0, f"{task}:\n{run.stderr[-3000:]}"
    out = {job: runs[job, 0].stdout for job in jobs}

    assert "Task: chief 0, is_chief True, 1 ps, 2 worker replicas, jobs it sees " \
           "['chief', 'ps', 'worker']" in out["chief"]
    assert "Task: worker 0, is_chief False, 1 ps, 2 worker replicas" in out["worker"]
    assert "Task: ps 0, is_chief False, 1 ps, 2 worker replicas" in out["ps"]
    assert "Task: evaluator 0, is_chief False, 0 ps, 0 worker replicas, jobs it sees []" \
        in out["evaluator"] and "master: ''" in out["evaluator"]
    assert "master: '%s'" % ("grpc://" + launch.cluster["chief"][0]) in out["chief"]

    # The variables live on the ps, initialized (by the chief).
    variables = {name: row for name, row in resources.items() if row[2] == "Variable"}
    assert {"global_step", "hidden/kernel", "hidden/bias", "logits/kernel",
            "logits/bias"} <= set(variables)
    assert variables["hidden/kernel"][4] == [784, 100]
    assert all(row[6] == "initialized" for row in variables.values())

    # The chief and the worker ran the global steps between them; only the chief saved.
    steps = {job: int(re.search(r"%s 0: trained (\d+) of the steps" % job, out[job]).group(1))
             for job in ("chief", "worker")}
    saved = int(re.search(r"chief: saved the last checkpoint at global step (\d+)",
                          out["chief"]).group(1))
    assert MAX_STEPS <= saved <= MAX_STEPS + 2
    assert MAX_STEPS <= steps["chief"] + steps["worker"] <= MAX_STEPS + 2, steps
    assert "saved the last checkpoint" not in out["worker"]

    # The evaluator evaluated newer and newer checkpoints and stopped after one at max_steps.
    log = runs["evaluator", 0].stderr
    during = log.partition("Exiting evaluation")[0]
    evaluated = [int(s) for s in re.findall(r"Saving dict for global step (\d+):", during)]
    assert evaluated and evaluated == sorted(evaluated) and len(set(evaluated)) == \
        len(evaluated), evaluated
    assert evaluated[-1] >= MAX_STEPS and "Exiting evaluation" in log
    final = re.search(r"Final evaluation: global_step=(\d+) accuracy=([0-9.]+)",
                      out["evaluator"])
    assert int(final.group(1)) == evaluated[-1] and float(final.group(2)) > 0.9
    assert (tmp_path / "m" / "eval").is_dir()


def test_alone_without_tf_config(tmp_path):
    """No TF_CONFIG: one process trains, evaluating after each checkpoint."""
    env = {k: v for k, v in os.environ.items() if k != "TF_CONFIG"}
    run = subprocess.run([sys.executable, str(PROGRAM), "--synthetic", "--max_steps=60",
                          "--save_checkpoints_steps=30"], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-3000:]
    assert "Task: worker 0, is_chief True, 0 ps, 1 worker replicas, jobs it sees []" \
        in run.stdout
    assert re.search(r"Final evaluation: global_step=60 accuracy=1\.0000", run.stdout), \
        run.stdout
    assert (tmp_path / "estimator_mnist_model" / "checkpoint").exists()
