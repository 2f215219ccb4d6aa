"""The exercise checks in lessons/ are ordinary pytest files (the sandbox.testing plugin gives
them their fixtures). They are run here as `make check-lessons` runs them, all lessons in one
pytest process: every check passes on the reference solutions (`--solutions`) and fails on the
unmodified starter files -- so each one can tell a solved exercise from an unsolved one. Each
lesson is still its own test, reading its checks' outcomes from the run's JUnit report."""
import os
import subprocess
import sys
import xml.etree.ElementTree as ElementTree

import pytest

from lesson_programs import LESSON_DIRS, quick_env
from conftest import REPO

CHECKED = [d for d in LESSON_DIRS if (d / "test_exercises.py").exists()]


def _run_checks(tmp_path, *options):
    """Every lesson's checks in one pytest process, as `make check-lessons` runs them:
    {lesson folder: {check: outcome}} and the end of the log."""
    report = tmp_path / "report.xml"
    out = subprocess.run(
        [sys.executable, "-m", "pytest", *[str(d) for d in CHECKED], "-q",
         "-p", "no:cacheprovider", "--import-mode=importlib", f"--junitxml={report}", *options],
        capture_output=True, text=True, cwd=REPO, timeout=1800,
        env=dict(os.environ, **quick_env()))
    assert report.exists(), out.stdout[-3000:] + out.stderr[-3000:]
    outcomes = {}
    for case in ElementTree.parse(report).iter("testcase"):
        kinds = {child.tag for child in case}
        lesson = case.get("classname").split(".")[1]      # lessons.<folder>.test_exercises
        outcomes.setdefault(lesson, {})[case.get("name")] = (
            "failed" if kinds & {"failure", "error"} else
            "skipped" if "skipped" in kinds else "passed")
    return outcomes, out.stdout


@pytest.fixture(scope="module")
def checks_run(tmp_path_factory):
    """The two runs, each made once for all lessons (a pytest process costs seconds to start:
    hypothesis, the sandbox, the plugin), on the solutions and on the starter files."""
    runs = {}

    def run(kind):
        if kind not in runs:
            runs[kind] = _run_checks(tmp_path_factory.mktemp(kind),
                                     *(["--solutions"] if kind == "solutions" else []))
        return runs[kind]
    return run


def _outcomes(run, kind, lesson):
    outcomes, log = run(kind)
    lines = "\n".join(line for line in log.splitlines() if lesson.name in line)
    return outcomes.get(lesson.name, {}), f"{lines[-2000:]}\n...\n{log[-4000:]}"


@pytest.mark.parametrize("lesson", CHECKED, ids=lambda d: d.name)
def test_every_check_passes_on_the_solutions(lesson, checks_run):
    outcomes, log = _outcomes(checks_run, "solutions", lesson)
    assert outcomes, f"no checks collected in {lesson.name}:\n{log}"
    assert set(outcomes.values()) == {"passed"}, log


@pytest.mark.parametrize("lesson", CHECKED, ids=lambda d: d.name)
def test_every_check_fails_on_the_starter_files(lesson, checks_run):
    outcomes, log = _outcomes(checks_run, "starters", lesson)
    assert outcomes, f"no checks collected in {lesson.name}:\n{log}"
    passing = [name for name, outcome in outcomes.items() if outcome != "failed"]
    assert not passing, f"these checks do not fail on the unsolved starters: {passing}\n{log}"


def test_every_lesson_has_exercise_checks():
    assert [d.name for d in LESSON_DIRS if d not in CHECKED] == []
