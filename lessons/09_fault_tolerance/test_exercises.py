"""Checks of lesson 9's exercises (one process each, a few seconds).

    pytest lessons/09_fault_tolerance               # your files
    pytest lessons/09_fault_tolerance --solutions   # the reference solutions
"""
import re


def _step(pattern, text):
    found = re.findall(pattern, text)
    assert found, f"the output has no line matching {pattern!r}:\n{text[-1500:]}"
    return int(found[-1])


def test_exercise_1_a_second_run_resumes_from_the_checkpoint(exercise, run_program, tmp_path):
    program = exercise("exercise_1_resume.py")
    logs = tmp_path / "logs"
    first = run_program(program, [f"--checkpoint_dir={logs}", "--train_steps=30",
                                  "--save_checkpoint_steps=10"], timeout=60, cwd=tmp_path)
    assert first.returncode == 0, first.stderr[-2000:]
    assert _step(r"started at global step (\d+)", first.stdout) == 0
    assert _step(r"ended at global step (\d+)", first.stdout) == 30
    saved = sorted(int(m) for p in logs.glob("model.ckpt-*.index")
                   for m in re.findall(r"model\.ckpt-(\d+)\.index", p.name)) \
        if logs.exists() else []
    assert {10, 20, 30} <= set(saved), (
        f"the chief saved checkpoints at global steps {saved} in {logs}; it should save one "
        "every --save_checkpoint_steps=10 steps (and at the end)")
    second = run_program(program, [f"--checkpoint_dir={logs}", "--train_steps=60",
                                   "--save_checkpoint_steps=10"], timeout=60, cwd=tmp_path)
    assert second.returncode == 0, second.stderr[-2000:]
    assert _step(r"started at global step (\d+)", second.stdout) == 30, (
        "the second run did not start from the first run's last checkpoint (global step 30)")
    assert _step(r"ended at global step (\d+)", second.stdout) == 60


def test_exercise_2_the_session_does_not_wait_for_a_dead_worker(exercise, run_program):
    run = run_program(exercise("exercise_2_device_filters.py"), ["--timeout_ms=2000"],
                      timeout=60)
    assert run.returncode == 0 and "w * 2 = 6.0" in run.stdout, (
        "worker 0's session still waits for worker 1, which is down:\n"
        + run.stdout[-1500:] + run.stderr[-1000:])


def _latest_step(logs):
    import sandbox as tf
    path = tf.train.latest_checkpoint(str(logs)) if logs.exists() else None
    return int(tf.train.load_variable(path, "global_step")) if path else None


def test_exercise_3_the_worker_survives_a_ps_restart(exercise, tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import time
    from sandbox.testing import free_port
    program, logs = exercise("exercise_3_survive.py"), tmp_path / "logs"
    flags = [f"--ps_hosts=localhost:{free_port()}", f"--worker_hosts=localhost:{free_port()}",
             f"--checkpoint_dir={logs}", "--train_steps=150", "--save_checkpoint_steps=25"]

    def start(job):
        return subprocess.Popen([sys.executable, str(program), *flags, f"--job_name={job}",
                                 "--task_index=0"], stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True, cwd=tmp_path,
                                start_new_session=True)
    ps, worker = start("ps"), start("worker")
    try:
        deadline = time.monotonic() + 30
        while (_latest_step(logs) or 0) < 50 and worker.poll() is None \
                and time.monotonic() < deadline:
            time.sleep(0.02)
        alive_at_kill = worker.poll() is None
        os.killpg(ps.pid, signal.SIGKILL)                  # the ps dies mid-run...
        ps.wait()
        time.sleep(0.5)
        ps = start("ps")                                   # ...and comes back empty
        out, _ = worker.communicate(timeout=60)
    finally:
        for p in (ps, worker):
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
    assert alive_at_kill, (
        f"the worker ended (exit code {worker.returncode}) before it saved a checkpoint at "
        "global step 50 or later, so the ps could not be killed mid-run: does it save "
        f"checkpoints in --checkpoint_dir every --save_checkpoint_steps?\n{out[-1500:]}")
    assert worker.returncode == 0, f"the worker died with the ps:\n{out[-2500:]}"
    assert _latest_step(logs) == 150, (
        f"the worker should save checkpoints in --checkpoint_dir and train to global step 150; "
        f"the last checkpoint there holds {_latest_step(logs)}:\n{out[-1500:]}")
