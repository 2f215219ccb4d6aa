"""The dashboard end to end, in a real browser: JupyterLab serves notebooks/00_dashboard.ipynb,
headless Chromium opens it and runs it, the Run button is pressed on the page, and the page
must then show every task of the cluster and a curve with points; Kill on a worker must mark
it dead in the placement and traffic views. A screenshot is saved. Nothing is left running:
the harness (tests/browser.py) waits for every process the server, its kernel and the
kernel's cluster started."""
import shutil
import time

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from browser import (chromium, click, console_errors, find_in_outputs, is_png,  # noqa: F401
                     jupyter_lab, open_notebook, run_all_cells, run_in_kernel, screenshot,
                     wait_for)
from conftest import MNIST_DIR, REPO

pytestmark = pytest.mark.browser

TASKS = ["ps:0", "worker:0", "worker:1", "worker:2"]


def _count(driver, css):
    return len(driver.find_elements(By.CSS_SELECTOR, css))


def _curve_points(driver):
    points = [int(e.get_attribute("data-points") or 0)
              for e in driver.find_elements(By.CSS_SELECTOR, "[data-run][data-points]")]
    return max(points, default=0)


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

        picker = find_in_outputs(driver, ".sandbox-task-picker select")[0]
        Select(picker).select_by_visible_text("worker:1")
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
