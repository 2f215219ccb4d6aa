"""The curriculum's shape: twelve lessons, each with its text (goals first, what to remember
last, the sandbox files where the mechanism lives), teacher notes, programs that CI runs, a
launcher, exercises with solutions and checks, and a notebook; the READMEs list them all."""
import ast
import json
import re

import pytest

from lesson_programs import (ALLOWED_SANDBOX_IMPORT, LESSON_DIRS, LESSONS, SANDBOX_IMPORT,
                             programs)
from conftest import REPO

NOTEBOOKS = REPO / "notebooks"


def test_there_are_twelve_lessons_numbered_in_order():
    assert [d.name[:2] for d in LESSON_DIRS] == [f"{n:02d}" for n in range(1, 13)]


@pytest.mark.parametrize("lesson", LESSON_DIRS, ids=lambda d: d.name)
def test_the_lesson_states_its_goals_first_and_ends_with_what_to_remember(lesson):
    text = (lesson / "README.md").read_text()
    assert text.startswith(f"# Lesson {int(lesson.name[:2])}"), text[:80]
    headings = re.findall(r"^## (.+)$", text, flags=re.M)
    assert headings, "the lesson has no sections"
    before_first_section = text.split("\n## ", 1)[0]
    assert "Goals" in before_first_section or headings[0].startswith("Goals")
    assert headings[-1].strip().lower().startswith("what to remember"), headings
    assert any(h.strip().lower().startswith("where it lives") for h in headings), headings
    assert any(h.strip().lower().startswith("run it") for h in headings), headings
    assert any(h.strip().lower().startswith("exercises") for h in headings), headings


@pytest.mark.parametrize("lesson", LESSON_DIRS, ids=lambda d: d.name)
def test_every_sandbox_file_the_lesson_points_to_exists(lesson):
    text = (lesson / "README.md").read_text() + (lesson / "TEACHER.md").read_text()
    paths = set(re.findall(r"\bsandbox/[\w/]+\.(?:py|js)\b", text))
    assert paths, "the lesson points to no sandbox file"
    missing = sorted(p for p in paths if not (REPO / p).exists())
    assert not missing, f"{lesson.name} points to files that do not exist: {missing}"


@pytest.mark.parametrize("lesson", LESSON_DIRS, ids=lambda d: d.name)
def test_the_teacher_notes_give_time_expected_output_and_mistakes(lesson):
    text = (lesson / "TEACHER.md").read_text().lower()
    for needed in ("time", "expected output", "mistake"):
        assert needed in text, f"{lesson.name}/TEACHER.md says nothing of {needed!r}"


@pytest.mark.parametrize("lesson", LESSON_DIRS, ids=lambda d: d.name)
def test_every_program_is_run_by_ci_and_changes_one_line_for_tensorflow(lesson):
    listed = {entry["file"] for d, entry in programs() if d == lesson}
    assert listed, f"{lesson.name}/programs.toml lists no program"
    on_disk = {p.name for p in lesson.glob("*.py")
               if not re.match(r"(exercise_|test_|conftest|launch\.py)", p.name)}
    assert on_disk <= listed, f"programs CI does not run: {sorted(on_disk - listed)}"
    for name in listed:
        source = (lesson / name).read_text()
        assert SANDBOX_IMPORT in source.splitlines(), f"{name}: no line `{SANDBOX_IMPORT}`"
        for node in ast.walk(ast.parse(source)):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            for module in names:
                if module.split(".")[0] == "sandbox":
                    line = ast.get_source_segment(source, node)
                    assert line in (SANDBOX_IMPORT, ALLOWED_SANDBOX_IMPORT), \
                        f"{name}: `{line}` would not run on TensorFlow"


@pytest.mark.parametrize("lesson", LESSON_DIRS, ids=lambda d: d.name)
def test_cluster_programs_have_a_launcher_and_exercises_have_solutions(lesson):
    if any(entry.get("jobs") for d, entry in programs() if d == lesson):
        assert (lesson / "launch.py").exists(), f"{lesson.name} has no launch.py"
    exercises = sorted(p.name for p in lesson.glob("exercise_*.py"))
    assert exercises, f"{lesson.name} has no exercise_*.py starter"
    missing = [e for e in exercises if not (lesson / "solutions" / e).exists()]
    assert not missing, f"exercises without a solution: {missing}"
    assert (lesson / "test_exercises.py").exists()


@pytest.mark.parametrize("lesson", LESSON_DIRS, ids=lambda d: d.name)
def test_each_lesson_has_its_notebook_with_goals_first_and_what_to_remember(lesson):
    path = NOTEBOOKS / f"{lesson.name}.ipynb"
    assert path.exists(), f"no notebook {path.name}"
    cells = json.loads(path.read_text())["cells"]
    markdown = ["".join(c["source"]) for c in cells if c["cell_type"] == "markdown"]
    assert "Goals" in markdown[0], markdown[0][:200]
    assert any("What to remember" in m for m in markdown[-3:]), "no 'What to remember' at the end"
    assert not any(c.get("outputs") for c in cells if c["cell_type"] == "code"), \
        "the notebook is stored with outputs; clear them"


def test_the_readmes_list_every_lesson_and_how_to_start():
    lessons_readme = (LESSONS / "README.md").read_text()
    readme = (REPO / "README.md").read_text()
    for lesson in LESSON_DIRS:
        assert lesson.name in lessons_readme, f"lessons/README.md does not list {lesson.name}"
        assert lesson.name in readme, f"README.md does not list {lesson.name}"
    assert "make lab" in readme and "make check-lessons" in readme
