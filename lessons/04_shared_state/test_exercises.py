"""Checks of lesson 4's exercises (a few seconds each).

    pytest lessons/04_shared_state               # your files
    pytest lessons/04_shared_state --solutions   # the reference solutions
"""
import re


def test_exercise_1_worker_1_reads_what_worker_0_assigned(exercise, run_program):
    path = exercise("exercise_1_make_it_state.py")
    run = run_program(path, timeout=60)
    assert run.returncode == 0, run.stderr[-2000:]
    assert re.search(r"^worker 0 set the value to: 13\.0$", run.stdout, flags=re.M), run.stdout
    found = re.search(r"^worker 1 reads: (\S+)$", run.stdout, flags=re.M)
    assert found, f"worker 1 printed nothing:\n{run.stdout}"
    assert found.group(1) == "13.0", (
        f"worker 1 reads {found.group(1)}, not 13.0: a constant is part of each program's "
        "graph and never changes; only a Variable on the ps is shared")


def test_exercise_2_the_reset_clears_scratch_and_keeps_the_model(exercise, run_program):
    path = exercise("exercise_2_reset_scratch.py")
    run = run_program(path, timeout=60)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "before the reset: kept = 11.0, scratch = 5.0" in run.stdout, run.stdout
    found = re.search(r"after the reset, uninitialized: \[(.*)\]", run.stdout)
    assert found, run.stdout
    assert found.group(1) == "'scratch'", (
        f"after reset(target, ['experiment']) these are uninitialized: [{found.group(1)}]; "
        "only scratch should be: build it inside `with tf.container('experiment'):`")
    assert "after the reset: kept = 11.0" in run.stdout, run.stdout
    source = path.read_text()
    assert 'containers=["experiment"]' in source, "the reset line was changed"
