"""Every lesson program runs to the end in short mode (SANDBOX_QUICK=1), as its lesson says to
run it -- one process, or one process per task through the launcher -- and prints what its
programs.toml expects; on full MNIST, or on the offline subset with SANDBOX_TEST_MNIST=offline
(CI runs both)."""
import re

import pytest

from conftest import MNIST_DIR, MNIST_OFFLINE
from lesson_programs import failures, mnist_sources, programs, program_id, run

PROGRAMS = programs()


@pytest.mark.parametrize("item", PROGRAMS, ids=[program_id(p) for p in PROGRAMS])
def test_lesson_program_runs_and_prints_what_its_lesson_says(item, tmp_path):
    lesson, entry = item
    stdout, runs = run(lesson, entry, tmp_path)
    assert not failures(runs), failures(runs)
    for pattern in entry.get("expect", []):
        assert re.search(pattern, stdout), f"{pattern!r} not in the output:\n{stdout[-3000:]}"
    assert entry.get("expect") or entry.get("agree"), "programs.toml says nothing to check"
    sources = mnist_sources(runs)
    if MNIST_OFFLINE:
        assert sources <= {"offline"}, "asked for the offline subset, a task read the files"
    elif (MNIST_DIR / "train-images-idx3-ubyte.gz").exists():
        assert sources <= {"full"}, "full MNIST is here, a task fell back to the offline subset"
