"""The dashboard end to end, in a real browser: JupyterLab serves notebooks/00_dashboard.ipynb,
headless Chromium opens it and runs it, the Run button is pressed on the page, and the page
must then show every task of the cluster and a curve with points; Kill on a worker must mark
it dead in the placement and traffic views. A screenshot is saved. Nothing is left running:
the harness (tests/browser.py) waits for every process the server, its kernel and the
kernel's cluster started."""
import shutil
import time

import pytest
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.support.ui import Select

from tests.browser import (chromium, click, console_errors, find_in_outputs, is_png,  # noqa: F401
                     jupyter_lab, open_notebook, run_all_cells, run_in_kernel, screenshot,
                     wait_for)
from conftest import MNIST_DIR, REPO

pytestmark = pytest.mark.browser

TASKS = ["ps:0", "worker:0", "worker:1", "worker:2"]


# Counted in the page itself: the views redraw several times a second, so an element found
# from Python may be gone by the time its attribute is read.
def _count(driver, css):
    return driver.execute_script("return document.querySelectorAll(arguments[0]).length", css)


def _curve_points(driver):
    return driver.execute_script(
        "return Math.max(0, ...Array.from(document.querySelectorAll("
        "'[data-run][data-points]'), e => Number(e.dataset.points)))")


def _choose(driver, css, text, timeout=30):
    """Selects `text` in the <select> at `css`, again if the widget redrew it meanwhile (its
    options change as the tasks' states do)."""
    def chosen():
        try:
            select = Select(find_in_outputs(driver, css)[0])
            select.select_by_visible_text(text)
            return select.first_selected_option.text == text
        except (StaleElementReferenceException, NoSuchElementException):
            return False
    wait_for(chosen, timeout, f"{text!r} chosen in {css}")


def test_the_dashboard_runs_in_a_browser_and_a_killed_worker_shows_dead(tmp_path):
    shutil.copy(REPO / "notebooks" / "00_dashboard.ipynb", tmp_path / "dashboard.ipynb")
    env = {"SANDBOX_QUICK": "1"}
    if (MNIST_DIR / "train-images-idx3-ubyte.gz").exists():
        env["MNIST_DIR"] = str(MNIST_DIR)
    with jupyter_lab(tmp_path, env=env) as lab, chromium() as driver:
        open_notebook(driver, lab, "dashboard.ipynb")
        run_all_cells(driver)
        find_in_outputs(driver, ".sandbox-run")
        # a run long enough to kill a worker while it trains: 20 epochs of the quick data
        run_in_kernel(driver, "dashboard.controls['epochs'].value = 20")
        click(driver, ".sandbox-run")

        for task in TASKS:
            wait_for(lambda: _count(driver, f"[data-task='{task}']") >= 2, 60,
                     f"{task} in the traffic and placement views")
        wait_for(lambda: _curve_points(driver) > 0, 60, "a curve with points")

        _choose(driver, ".sandbox-task-picker select", "worker:1")
        click(driver, ".sandbox-kill")
        wait_for(lambda: _count(driver, "[data-task='worker:1'][data-state='dead']") >= 2, 60,
                 "worker:1 to be marked dead in the traffic and placement views")
        assert _count(driver, "[data-task='worker:0'][data-state='alive']") >= 2
        time.sleep(0.5)                               # let the curves show a few more points
        shot = screenshot(driver, tmp_path / "dashboard.png")
        assert is_png(shot)
        print(f"screenshot: {shot}")
        errors = [e for e in console_errors(driver) if "sandbox" in e or "anywidget" in e]
        assert not errors, errors
        run_in_kernel(driver, "dashboard.close()")
