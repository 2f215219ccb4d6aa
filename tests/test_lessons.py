"""Every lesson program runs to the end (each in its own interpreter, as a student runs it)."""
import os
import pathlib
import subprocess
import sys

import pytest

REPO = pathlib.Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("lesson, args, expected", [
    ("three_servers.py", [], "the ps reads: 3"),
])
def test_lesson_runs(lesson, args, expected, tmp_path):
    env = dict(os.environ, PYTHONPATH=str(REPO))
    env.pop("TF_CONFIG", None)
    if lesson == "estimator_mnist.py":
        args = args + [f"--model_dir={tmp_path / 'model'}"]
    out = subprocess.run([sys.executable, str(REPO / "lessons" / lesson)] + args, env=env,
                         capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert out.returncode == 0, out.stderr[-2000:]
    assert expected in out.stdout
