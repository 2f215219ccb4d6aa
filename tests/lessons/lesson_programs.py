"""The lesson programs as CI runs them: every `lessons/NN_topic/programs.toml` lists a lesson's
programs, the cluster each one needs, what it must print (`expect`) and what must print the
same under real TensorFlow (`agree`). Shared by test_programs.py and test_tf_parity.py."""
import os
import pathlib
import re
import subprocess
import sys
import tomllib

from sandbox.cluster.launcher import Launch

from conftest import MNIST_DIR, MNIST_OFFLINE, REPO

LESSONS = REPO / "lessons"
LESSON_DIRS = sorted(p for p in LESSONS.iterdir() if p.is_dir() and re.match(r"\d\d_", p.name))
SANDBOX_IMPORT = "import sandbox as tf"
TF_IMPORT = "import tensorflow.compat.v1 as tf; tf.disable_v2_behavior()"
# The one other sandbox import a program may keep: TF 2 removed tensorflow.examples, and the
# tutorials' MNIST loader is plain numpy either way.
ALLOWED_SANDBOX_IMPORT = "from sandbox.examples.tutorials.mnist import input_data"


def programs():
    """[(lesson dir, entry of its programs.toml)] for every lesson."""
    found = []
    for lesson in LESSON_DIRS:
        spec = lesson / "programs.toml"
        if spec.exists():
            for entry in tomllib.loads(spec.read_text()).get("program", []):
                found.append((lesson, entry))
    return found


def program_id(item):
    lesson, entry = item
    return f"{lesson.name}/{entry['file']}"


def quick_env(extra=None):
    """Short mode, no downloads; full MNIST when this machine has it (and the tests are not
    asked for the offline subset, SANDBOX_TEST_MNIST=offline), else the offline subset."""
    env = {"SANDBOX_QUICK": "1", "SANDBOX_MNIST_MIRRORS": "none", "TF_CPP_MIN_LOG_LEVEL": "2",
           "PYTHONUNBUFFERED": "1", "SANDBOX_MNIST_DIR": ""}
    if not MNIST_OFFLINE and (MNIST_DIR / "train-images-idx3-ubyte.gz").exists():
        env["SANDBOX_MNIST_DIR"] = str(MNIST_DIR)
    env.update(extra or {})
    return env


def as_tensorflow(source):
    """The program with its one changed line changed back: TensorFlow 2's compat.v1."""
    lines = source.splitlines()
    if SANDBOX_IMPORT not in lines:
        raise AssertionError(f"the program has no line `{SANDBOX_IMPORT}`")
    lines[lines.index(SANDBOX_IMPORT)] = TF_IMPORT
    return "\n".join(lines) + "\n"


def run(lesson, entry, workdir, python=sys.executable, tensorflow=False, timeout=240):
    """Runs one program (as TF would have it with tensorflow=True) in `workdir`; returns
    (combined stdout of its tasks in task order, {task: TaskRun})."""
    program = lesson / entry["file"]
    if tensorflow:
        copy = workdir / entry["file"]
        copy.write_text(as_tensorflow(program.read_text()))
        for helper in lesson.glob("*.py"):          # modules the program imports from its folder
            if not (workdir / helper.name).exists():
                (workdir / helper.name).write_text(helper.read_text())
        program = copy
    env = quick_env({"PYTHONPATH": str(REPO)})
    args = [str(a) for a in entry.get("args", [])]
    jobs = entry.get("jobs") or {}
    if jobs:
        started = Launch(program, jobs, args=args, tf_config=entry.get("tf_config", False),
                         env=env, python=python, cwd=workdir)
        with started:
            runs = started.wait(timeout)
    else:
        from sandbox.cluster.launcher import TaskRun
        out = subprocess.run([python, str(program), *args], capture_output=True, text=True,
                             env=dict(os.environ, **env), cwd=workdir, timeout=timeout)
        runs = {("main", 0): TaskRun(out.returncode, out.stdout, out.stderr)}
    stdout = "".join(runs[t].stdout for t in runs)
    return stdout, runs


def mnist_sources(runs):
    """Which MNIST each task read, from the loader's line on stderr: {"full", "offline"}."""
    said = "".join(r.stderr for r in runs.values())
    return ({"full"} if re.search(r"MNIST: .* from IDX files", said) else set()) | \
           ({"offline"} if "from the offline subset" in said else set())


def failures(runs):
    """Tasks (not ps: they are stopped) that exited badly, with the end of their stderr."""
    return {f"{job} {index}": r.stderr[-2500:] for (job, index), r in runs.items()
            if job != "ps" and r.returncode != 0}


def agreeing(entry, stdout):
    """What the `agree` patterns captured, in order: the values TF must print too."""
    return [(pattern, match.groups() or match.group(0))
            for pattern in entry.get("agree", [])
            for match in re.finditer(pattern, stdout)]
