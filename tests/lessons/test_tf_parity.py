"""Every lesson program also runs on real TensorFlow by changing its one import line
(`import sandbox as tf` -> `import tensorflow.compat.v1 as tf; tf.disable_v2_behavior()`), and
prints the same values where its programs.toml says they must agree.

TensorFlow is not one of the sandbox's dependencies. Point TF_PYTHON at a Python that has it
(TensorFlow 2.15 keeps tf.estimator; `pip install tensorflow-cpu==2.15.1 mlxtend` in a venv) or
install it beside the sandbox; otherwise these tests are skipped, saying so."""
import importlib.util
import os
import subprocess
import sys

import pytest

from lesson_programs import agreeing, failures, programs, program_id, run


def _tensorflow_python():
    if os.environ.get("TF_PYTHON"):
        return os.environ["TF_PYTHON"], None
    if importlib.util.find_spec("tensorflow") is not None:
        return sys.executable, None
    return None, ("TensorFlow is not installed here: set TF_PYTHON to a Python with "
                  "tensorflow (e.g. a venv with `pip install tensorflow-cpu==2.15.1 mlxtend`) "
                  "to run every lesson program on TensorFlow too")


TF_PYTHON, WHY_NOT = _tensorflow_python()
PROGRAMS = programs()


@pytest.fixture(scope="module")
def tf_version():
    if WHY_NOT:
        pytest.skip(WHY_NOT)
    out = subprocess.run([TF_PYTHON, "-c", "import tensorflow as tf; print(tf.__version__)"],
                         capture_output=True, text=True, timeout=120,
                         env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2"))
    if out.returncode != 0:
        pytest.fail(f"TF_PYTHON={TF_PYTHON} cannot import tensorflow:\n{out.stderr[-1500:]}")
    return out.stdout.strip()


@pytest.mark.parametrize("item", PROGRAMS, ids=[program_id(p) for p in PROGRAMS])
def test_lesson_program_prints_the_same_on_tensorflow(item, tf_version, tmp_path):
    lesson, entry = item
    if entry.get("tf_skip"):
        pytest.skip(f"{entry['file']} does not run on TensorFlow {tf_version}: "
                    f"{entry['tf_skip']}")
    (tmp_path / "sandbox").mkdir()
    (tmp_path / "tf").mkdir()
    ours, our_runs = run(lesson, entry, tmp_path / "sandbox")
    theirs, their_runs = run(lesson, entry, tmp_path / "tf", python=TF_PYTHON, tensorflow=True)
    assert not failures(our_runs), failures(our_runs)
    assert not failures(their_runs), f"on TensorFlow {tf_version}: {failures(their_runs)}"
    expected = agreeing(entry, theirs)
    assert expected or not entry.get("agree"), \
        f"TensorFlow printed nothing the agree patterns match:\n{theirs[-3000:]}"
    assert agreeing(entry, ours) == expected, (
        f"sandbox and TensorFlow {tf_version} disagree.\n--- sandbox:\n{ours[-2000:]}\n"
        f"--- TensorFlow:\n{theirs[-2000:]}")
