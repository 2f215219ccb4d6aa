"""Checks of lesson 8's exercises (the sandbox.testing plugin gives the fixtures):

    pytest lessons/08_sync_training               # the student's files
    pytest lessons/08_sync_training --solutions   # the reference solutions
"""
import re


def _all_ok(runs):
    for (job, index), run in runs.items():
        if job != "ps":
            assert run.returncode == 0, f"{job} {index} failed:\n{run.stderr[-2000:]}"


def test_exercise_1_every_update_averages_one_gradient_per_worker(exercise, run_tasks):
    runs = run_tasks(exercise("exercise_1_make_it_sync.py"), ps=1, worker=2, timeout=120)
    _all_ok(runs)
    steps = {}
    for index in (0, 1):
        m = re.search(r"worker %d: (\d+) local steps, global step (\d+)" % index,
                      runs["worker", index].stdout)
        assert m, f"worker {index} did not report its steps:\n{runs['worker', index].stdout}"
        steps[index] = (int(m.group(1)), int(m.group(2)))
    local = sum(s for s, _ in steps.values())
    global_step = max(g for _, g in steps.values())
    # synchronous with replicas_to_aggregate=2: every update consumed 2 gradients (at least);
    # asynchronous: every local step is one update
    assert local >= 1.5 * global_step, (
        f"the workers ran {local} local steps for {global_step} global steps: every local "
        "step was an update of its own, so the training is still asynchronous")


def test_exercise_2_every_worker_stops_at_the_same_last_step(exercise, run_tasks):
    runs = run_tasks(exercise("exercise_2_end_cleanly.py"), ps=1, worker=2, timeout=120)
    _all_ok(runs)
    for index in (0, 1):
        out = runs["worker", index].stdout
        assert "DeadlineExceededError" not in out, (
            f"worker {index} waited for a token that never came:\n{out}")
        assert re.search(r"worker %d: reached last_step=\d+: True" % index, out), (
            f"worker {index} did not stop at the last step:\n{out}")
