"""The exercise checks in lessons/ are ordinary pytest files (the sandbox.testing plugin gives
them their fixtures). Each is run here as `make check-lessons` runs it, in its own pytest
process: every check passes on the reference solutions (`--solutions`) and fails on the
unmodified starter files -- so each one can tell a solved exercise from an unsolved one."""
import os
import subprocess
import sys
import xml.etree.ElementTree as ElementTree

import pytest

from lesson_programs import LESSON_DIRS, quick_env
from conftest import REPO

CHECKED = [d for d in LESSON_DIRS if (d / "test_exercises.py").exists()]


def _outcomes(lesson, tmp_path, *options):
    report = tmp_path / "report.xml"
    out = subprocess.run(
        [sys.executable, "-m", "pytest", str(lesson), "-q", "-p", "no:cacheprovider",
         "--import-mode=importlib", f"--junitxml={report}", *options],
        capture_output=True, text=True, cwd=REPO, timeout=600,
        env=dict(os.environ, **quick_env()))
    assert report.exists(), out.stdout[-3000:] + out.stderr[-3000:]
    outcomes = {}
    for case in ElementTree.parse(report).iter("testcase"):
        kinds = {child.tag for child in case}
        outcomes[case.get("name")] = ("failed" if kinds & {"failure", "error"} else
                                      "skipped" if "skipped" in kinds else "passed")
    return outcomes, out.stdout[-4000:]


@pytest.mark.parametrize("lesson", CHECKED, ids=lambda d: d.name)
def test_every_check_passes_on_the_solutions(lesson, tmp_path):
    outcomes, log = _outcomes(lesson, tmp_path, "--solutions")
    assert outcomes, f"no checks collected in {lesson.name}:\n{log}"
    assert set(outcomes.values()) == {"passed"}, log


@pytest.mark.parametrize("lesson", CHECKED, ids=lambda d: d.name)
def test_every_check_fails_on_the_starter_files(lesson, tmp_path):
    outcomes, log = _outcomes(lesson, tmp_path)
    assert outcomes, f"no checks collected in {lesson.name}:\n{log}"
    passing = [name for name, outcome in outcomes.items() if outcome != "failed"]
    assert not passing, f"these checks do not fail on the unsolved starters: {passing}\n{log}"


def test_every_lesson_has_exercise_checks():
    assert [d.name for d in LESSON_DIRS if d not in CHECKED] == []
