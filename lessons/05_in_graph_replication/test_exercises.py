"""Checks of lesson 5's exercises (run: pytest lessons/05_in_graph_replication; add
--solutions to check the reference solutions). The fixtures come from the sandbox.testing
plugin."""
import re


def test_average_gradients_gives_the_full_batch_gradient(exercise, run_program):
    run = run_program(exercise("exercise_1_average_gradients.py"), timeout=60)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "averaged gradient equals the full-batch gradient: True" in run.stdout, (
        "the averaged gradient is not the full batch's: does average_gradients average "
        "every tower's gradient (not just tower 0's), one average per variable?\n"
        + run.stdout)


def test_towers_share_one_variable_on_the_ps_cpu(exercise, run_program):
    run = run_program(exercise("exercise_2_shared_variables.py"), timeout=60)
    assert run.returncode == 0, run.stderr[-2000:]
    count = re.search(r"trainable variables: (\d+)", run.stdout)
    assert count and count.group(1) == "1", (
        "each tower made its own variable: use tf.get_variable and reuse_variables() after "
        "the first tower\n" + run.stdout)
    assert re.search(r"^w on /job:ps/task:0/device:CPU:0$", run.stdout, flags=re.M), (
        "the variable is not on the ps's CPU: inside a tower's GPU scope, ask for "
        "'/job:ps/task:0/cpu:0'\n" + run.stdout)
    assert "towers' outputs, concatenated: [ 1.5  6.  10.5 15. ]" in run.stdout, run.stdout
