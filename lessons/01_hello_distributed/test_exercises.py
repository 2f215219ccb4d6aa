"""Checks of lesson 1's exercises (run: pytest lessons/01_hello_distributed; add --solutions
to check the reference solutions). The fixtures come from the sandbox.testing plugin."""
import re


def test_shared_counter_three_sessions_share_one_counter(exercise, run_program):
    run = run_program(exercise("exercise_1_shared_counter.py"), timeout=60)
    assert run.returncode == 0, run.stderr[-2000:]
    visits = [int(v) for v in re.findall(r"visit \d: counter = (\d+)", run.stdout)]
    assert visits == [1, 2, 3], (
        f"the visits printed counter = {visits}, not [1, 2, 3]: does each session run on "
        "server.target, and is the counter initialized only once?\n" + run.stdout)
    assert "counter after 3 sessions: 3" in run.stdout


def test_client_runs_hello_on_the_cluster_named_by_its_target(exercise, run_program,
                                                               local_cluster):
    cluster = local_cluster(worker=1)
    run = run_program(exercise("exercise_2_client.py"), timeout=60,
                      args=[f"--target={cluster.target('worker', 0)}"],
                      env={"SANDBOX_CLUSTER_SECRET": cluster.secret.hex()})
    assert run.returncode == 0, run.stderr[-2000:]
    assert "Hello from the cluster!" in run.stdout
    assert "/job:worker/replica:0/task:0/device:CPU:0" in run.stdout, (
        "the session does not use the cluster's devices: is it opened on --target?\n"
        + run.stdout)
    steps = [r for r in cluster.trace("worker", 0) if r.kind == "RunStep" and r.src == "client"]
    assert steps, "the worker's master received no RunStep from the program's session"
