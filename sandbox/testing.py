"""sandbox.testing -- a pytest plugin for checking exercises on real clusters.

Installing the sandbox (`pip install` it) registers this module with pytest (the `pytest11`
entry point in pyproject.toml), so a teacher's check file anywhere is an ordinary pytest
file that asks for these fixtures by name -- no conftest, no imports from the repository:

    def test_the_worker_updates_the_variable_on_the_ps(local_cluster):
        cluster = local_cluster(ps=1, worker=2)       # three processes, stopped after the test
        ...                                           # tf.Session(cluster.target("worker", 0))

    def test_the_program_trains(exercise, run_tasks):
        runs = run_tasks(exercise("train.py"), ps=1, worker=2, args=["--steps=50"])
        assert runs["worker", 0].returncode == 0
        assert "accuracy" in runs["worker", 0].stdout

`local_cluster(**jobs)` starts a sandbox.cluster.LocalCluster of that shape. `run_tasks` runs a
TF-1 program the way the tutorials run theirs -- the same script once per task, with
`--job_name`, `--task_index`, `--ps_hosts` and `--worker_hosts` (or TF_CONFIG) -- through the
launcher (sandbox/cluster/launcher.py): it waits for the workers, stops the ps tasks (which
`server.join()` forever, as in TensorFlow) and returns every task's exit code and output.
`run_program` runs a one-process program. `exercise(name)` finds the student's file: beside
the check file, or in `--exercise-dir DIR` (a student's hand-in), or in `solutions/` beside the
check file with `--solutions` (a teacher checking the checks). Whatever a fixture started is
gone when the test ends, failed or not.
"""
import os
import pathlib
import socket
import subprocess
import sys

import pytest

__all__ = ["TaskRun", "free_port", "local_cluster", "run_tasks", "run_program", "exercise"]


def __getattr__(name):
    # pytest loads this plugin in every run of this Python; the sandbox itself is imported
    # only when a test asks for it.
    if name == "TaskRun":
        from .cluster.launcher import TaskRun
        return TaskRun
    raise AttributeError(f"module 'sandbox.testing' has no attribute {name!r}")


def free_port():
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def pytest_addoption(parser):
    group = parser.getgroup("sandbox", "sandbox exercise checks")
    group.addoption("--solutions", action="store_true", default=False,
                    help="check the reference solutions (solutions/ beside each check file) "
                         "instead of the students' files")
    group.addoption("--exercise-dir", default=None, metavar="DIR",
                    help="check the exercise files found in DIR (a student's hand-in)")


@pytest.fixture
def exercise(request):
    """`exercise("exercise_1_counter.py")` -> the path of the file to check (see the module
    docstring); fails the test, saying where it looked, when the file is missing."""
    here = pathlib.Path(str(request.node.path)).parent
    if request.config.getoption("exercise_dir"):
        folder = pathlib.Path(request.config.getoption("exercise_dir")).resolve()
    elif request.config.getoption("solutions"):
        folder = here / "solutions"
    else:
        folder = here

    def find(name):
        path = folder / name
        if not path.exists():
            pytest.fail(f"exercise file {name} not found in {folder} (--exercise-dir and "
                        f"--solutions choose where the checks look)", pytrace=False)
        return path

    return find


@pytest.fixture
def local_cluster():
    """A factory: `local_cluster(ps=1, worker=2)` (or a dict of jobs) returns a started
    LocalCluster; every cluster it started is stopped when the test ends."""
    from .cluster import LocalCluster
    started = []

    def start(jobs=None, **counts):
        cluster = LocalCluster(jobs if jobs is not None else counts)
        started.append(cluster)
        return cluster

    yield start
    for cluster in reversed(started):
        cluster.close()


@pytest.fixture
def run_tasks():
    """`run_tasks(program, ps=1, worker=2, args=(), timeout=120, env=None, chief=0,
    evaluator=0, tf_config=False)` -> {(job, index): TaskRun}: the program run once per task
    on free local ports."""
    from .cluster.launcher import Launch
    launched = []

    def run(program, ps=1, worker=2, args=(), timeout=120.0, env=None, chief=0, evaluator=0,
            tf_config=False, cwd=None):
        jobs = {"ps": ps, "chief": chief, "worker": worker, "evaluator": evaluator}
        started = Launch(program, jobs, args=args, tf_config=tf_config, env=env, cwd=cwd)
        launched.append(started)
        try:
            return started.wait(timeout)
        except TimeoutError as e:
            outputs = "\n".join(f"--- {job} {index}:\n{run.stdout[-600:]}{run.stderr[-600:]}"
                                for (job, index), run in started.results().items())
            raise AssertionError(f"{program}: {e}\n{outputs}") from None

    yield run
    for started in launched:
        started.stop()


@pytest.fixture
def run_program():
    """`run_program(program, args=(), timeout=120, env=None, cwd=None)` -> TaskRun of a
    one-process program (its whole process group is stopped if it outlives the timeout)."""
    from .cluster.launcher import TaskRun, stop_group

    def run(program, args=(), timeout=120.0, env=None, cwd=None):
        process = subprocess.Popen(
            [sys.executable, os.fspath(program), *[str(a) for a in args]],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=cwd,
            env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})}, start_new_session=True)
        try:
            out, err = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            stop_group(process)
            out, err = process.communicate()
            raise AssertionError(f"{program} did not finish within {timeout} s; its output "
                                 f"so far:\n{out[-1500:]}{err[-1500:]}") from None
        finally:
            stop_group(process)       # anything it left behind in its group
        return TaskRun(process.returncode, out, err)

    return run
