"""Checks of lesson 11's exercises (run: pytest lessons/11_model_parallelism; add --solutions
to check the reference solutions). The fixtures come from the sandbox.testing plugin."""
import re


def test_colocated_gradients_leave_only_the_cut_on_the_wire(exercise, run_program):
    run = run_program(exercise("exercise_1_colocate_gradients.py"), timeout=60)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "only the cut's activations and their gradients cross: True" in run.stdout, (
        "more than the hidden activations and their gradient cross the tasks: are the "
        "gradient ops colocated with their forward ops?\n" + run.stdout)
    crossing = int(re.search(r"bytes across tasks per step: (\d+)", run.stdout).group(1))
    assert crossing == 2 * 32 * 48 * 4 + 4, run.stdout
    before, after = map(float, re.search(r"loss: (\S+) -> (\S+)", run.stdout).groups())
    assert after < before, "the model no longer trains\n" + run.stdout


def test_the_split_layer_holds_half_its_parameters_on_each_task(exercise, run_program):
    run = run_program(exercise("exercise_2_split_columns.py"), timeout=60)
    assert run.returncode == 0, run.stderr[-2000:]
    sizes = dict(re.findall(r"parameters on (/job:worker/task:\d): (\d+) bytes", run.stdout))
    assert sizes == {"/job:worker/task:0": "2600", "/job:worker/task:1": "2600"}, (
        "each task should hold half of the layer (w1_K [24, 26] and b1_K [26])\n" + run.stdout)
    assert "hidden units: 52" in run.stdout, run.stdout
    assert "the split layer computes sigmoid(x w + b): True" in run.stdout, run.stdout
