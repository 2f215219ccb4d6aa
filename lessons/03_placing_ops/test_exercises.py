"""Checks of lesson 3's exercises (a few seconds each).

    pytest lessons/03_placing_ops               # your files
    pytest lessons/03_placing_ops --solutions   # the reference solutions
"""
import re

PS = "/job:ps/replica:0/task:0/device:CPU:0"
WORKER = "/job:worker/replica:0/task:0/device:CPU:0"


def _ran_on(stdout):
    return dict(re.findall(r"^(\w+) +ran on (\S+)$", stdout, flags=re.M))


def test_exercise_1_the_loss_runs_on_the_worker(exercise, run_program):
    run = run_program(exercise("exercise_1_forgotten_scope.py"), timeout=60)
    assert run.returncode == 0, run.stderr[-2000:]
    assert re.search(r"^loss: 10\.5$", run.stdout, flags=re.M), \
        f"the loss must still be 10.5 (only its device changes):\n{run.stdout}"
    ran_on = _ran_on(run.stdout)
    assert ran_on.get("w") == PS, f"the variable w must stay on the ps: {ran_on}"
    for name in ("y", "error", "loss"):
        assert ran_on.get(name) == WORKER, (
            f"{name} ran on {ran_on.get(name)}, not on {WORKER}: an op that asks for no "
            "device lands on the first device of the cluster, /job:ps/task:0")


def test_exercise_2_the_device_function_spreads_the_variables(exercise, run_program):
    run = run_program(exercise("exercise_2_device_function.py"), timeout=60)
    assert run.returncode == 0, run.stderr[-2000:]
    asked = dict(re.findall(r"^(\w+) +\w+ +asks for '([^']*)'$", run.stdout, flags=re.M))
    expected = {"w1": "/job:ps/task:0", "w2": "/job:ps/task:1", "w3": "/job:ps/task:0",
                "h": "/job:worker/task:0", "y": "/job:worker/task:0"}
    assert asked == expected, f"the ops ask for {asked}, expected {expected}"
