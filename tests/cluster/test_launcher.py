"""The launcher (sandbox/cluster/launcher.py): a TF-1 program started once per task, as the
tutorials do by hand in N terminals -- real processes on real ports; the ps tasks stopped at
the end; a failed task stops the rest rather than leave them waiting; nothing left running."""
import json
import os
import subprocess
import sys

import pytest

from sandbox.cluster.launcher import Launch, launch

from conftest import REPO
from test_testing_plugin import PROGRAM

COUNTER = PROGRAM      # a TF-1 program written the tutorials' way (ps joins; workers add)


def _alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_a_program_runs_once_per_task_and_the_ps_is_stopped(tmp_path):
    program = tmp_path / "counter.py"
    program.write_text(COUNTER)
    env = {"PYTHONPATH": str(REPO)}
    with Launch(program, {"ps": 1, "worker": 1}, env=env) as started:
        pids = [p.pid for p in started.processes.values()]
        runs = started.wait(timeout=90)
    assert runs["worker", 0].returncode == 0, runs["worker", 0].stderr[-2000:]
    assert "worker 0 added, total now >= 1" in runs["worker", 0].stdout
    assert runs["ps", 0].returncode is not None            # it served until it was stopped
    assert not any(_alive(pid) for pid in pids)


def test_each_task_gets_the_tutorial_flags_or_tf_config(tmp_path):
    program = tmp_path / "show.py"
    program.write_text("import os, sys, json\n"
                       "print(json.dumps([sys.argv[1:], os.environ.get('TF_CONFIG')]))\n")
    runs = launch(program, {"ps": 1, "worker": 2}, args=["--steps=3"], timeout=30)
    argv, tf_config = json.loads(runs["worker", 1].stdout)
    assert tf_config is None
    assert argv[-1] == "--steps=3" and "--job_name=worker" in argv and "--task_index=1" in argv
    ps_hosts = [a for a in argv if a.startswith("--ps_hosts=")][0]
    worker_hosts = [a for a in argv if a.startswith("--worker_hosts=")][0]
    assert ps_hosts.count("localhost:") == 1 and worker_hosts.count(",") == 1

    runs = launch(program, {"chief": 1, "worker": 1, "ps": 1, "evaluator": 1}, tf_config=True,
                  timeout=30)
    argv, tf_config = json.loads(runs["evaluator", 0].stdout)
    config = json.loads(tf_config)
    assert argv == []
    assert config["task"] == {"type": "evaluator", "index": 0}
    assert sorted(config["cluster"]) == ["chief", "ps", "worker"]     # the evaluator is outside
    chief_config = json.loads(json.loads(runs["chief", 0].stdout)[1])
    assert chief_config["cluster"] == config["cluster"]


def test_a_failed_task_stops_the_others_instead_of_leaving_them_waiting(tmp_path):
    program = tmp_path / "fails.py"
    program.write_text("import sys, time\n"
                       "if '--task_index=1' in sys.argv: sys.exit('worker 1 gives up')\n"
                       "time.sleep(60)\n")
    with Launch(program, {"ps": 1, "worker": 2}) as started:
        pids = [p.pid for p in started.processes.values()]
        runs = started.wait(timeout=50)
    assert runs["worker", 1].returncode == 1
    assert "worker 1 gives up" in runs["worker", 1].stderr
    assert runs["worker", 0].returncode is not None       # stopped, not left sleeping
    assert not any(_alive(pid) for pid in pids)


def test_a_task_that_outlives_the_timeout_is_named_and_everything_stopped(tmp_path):
    program = tmp_path / "waits.py"
    program.write_text("import time\ntime.sleep(60)\n")
    started = Launch(program, {"worker": 2})
    pids = [p.pid for p in started.processes.values()]
    with pytest.raises(TimeoutError, match="worker 0, worker 1 still running after 1 s"):
        started.wait(timeout=1)
    assert not any(_alive(pid) for pid in pids)


def test_bad_requests_are_refused_with_a_reason(tmp_path):
    with pytest.raises(FileNotFoundError, match="no program at"):
        Launch(tmp_path / "missing.py", {"worker": 1})
    (tmp_path / "p.py").write_text("")
    with pytest.raises(ValueError, match="number of 'worker' tasks"):
        Launch(tmp_path / "p.py", {"worker": -1})
    with pytest.raises(ValueError, match="at least one task"):
        Launch(tmp_path / "p.py", {"ps": 0})


def test_the_command_line_prefixes_each_line_with_its_task(tmp_path):
    program = tmp_path / "hello.py"
    # Worker 1 fails only once worker 0 has printed: the launcher stops the other tasks when one
    # fails, so a worker 1 that fails first could cut worker 0 off before its line.
    printed = tmp_path / "worker0-printed"
    program.write_text(
        "import pathlib, sys, time\n"
        "print('hello from', sys.argv[-1], flush=True)\n"
        f"mark = pathlib.Path({str(printed)!r})\n"
        "if sys.argv[-1] == '--task_index=0':\n"
        "    mark.touch()\n"
        "    sys.exit(0)\n"
        "deadline = time.monotonic() + 30\n"
        "while not mark.exists() and time.monotonic() < deadline:\n"
        "    time.sleep(0.02)\n"
        "sys.exit(3)\n")
    out = subprocess.run([sys.executable, "-m", "sandbox", "launch", str(program), "--ps", "0",
                          "--worker", "2"], capture_output=True, text=True, timeout=60,
                         cwd=REPO, env=dict(os.environ, PYTHONPATH=str(REPO)))
    assert "[worker 0] hello from --task_index=0" in out.stdout
    assert "[worker 1] hello from --task_index=1" in out.stdout
    assert "worker 1 exited with code 3" in out.stderr
    assert out.returncode == 3
