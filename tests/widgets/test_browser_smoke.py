"""The browser harness end to end: a notebook with an anywidget and an ipywidgets slider runs in
JupyterLab in headless Chromium; the anywidget's front end loads with no internet, a click on
its button reaches the Python kernel, and a screenshot is saved."""
import json
import time

import pytest

from tests.browser import (browser, click, console_errors, find_in_outputs, is_png,  # noqa: F401
                     lab, open_notebook, run_all_cells, run_in_kernel, screenshot, wait_for,
                     wait_for_text)

pytestmark = pytest.mark.browser

WIDGET_CELL = '''\
import pathlib
import anywidget
import ipywidgets
import traitlets


class Counter(anywidget.AnyWidget):
    _esm = """
    function render({ model, el }) {
      const button = document.createElement("button");
      button.dataset.testid = "counter";
      const show = () => { button.textContent = `clicked ${model.get("count")} times`; };
      button.addEventListener("click", () => {
        model.set("count", model.get("count") + 1);
        model.save_changes();
      });
      model.on("change:count", show);
      show();
      el.appendChild(button);
    }
    export default { render };
    """
    count = traitlets.Int(0).tag(sync=True)


counter = Counter()
# The kernel's own record of what it received: written by an observer in this process.
counter.observe(lambda change: pathlib.Path("clicks.txt").write_text(str(change["new"])),
                names="count")
slider = ipywidgets.IntSlider(value=7, min=0, max=10, description="workers")
display(counter, slider)
'''


def _notebook(cells):
    return {"nbformat": 4, "nbformat_minor": 5,
            "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3",
                                        "language": "python"},
                         "language_info": {"name": "python"}},
            "cells": [{"cell_type": "code", "id": f"cell-{i}", "metadata": {},
                       "execution_count": None, "outputs": [], "source": source}
                      for i, source in enumerate(cells)]}


def test_anywidget_renders_and_a_click_reaches_the_kernel(tmp_path, lab, browser):
    (tmp_path / "smoke.ipynb").write_text(json.dumps(_notebook(
        [WIDGET_CELL, "print('slider at', slider.value)"])))
    started = time.monotonic()
    open_notebook(browser, lab, "smoke.ipynb")
    run_all_cells(browser)

    button = find_in_outputs(browser, "[data-testid=counter]")[0]     # anywidget's front end ran
    assert button.text == "clicked 0 times"
    find_in_outputs(browser, ".widget-slider")                         # ipywidgets' too
    wait_for_text(browser, ".jp-RenderedText", "slider at 7")           # and the next cell

    click(browser, "[data-testid=counter]")
    wait_for_text(browser, "[data-testid=counter]", "clicked 1 times")
    clicks = tmp_path / "clicks.txt"
    wait_for(lambda: clicks.exists() and clicks.read_text() == "1", 30,
             "the kernel's observer to record the click in clicks.txt",
             detail=lambda: f"clicks.txt: {clicks.read_text() if clicks.exists() else 'missing'}")
    assert run_in_kernel(browser, "print(counter.count, slider.value)") == "1 7\n"

    shot = screenshot(browser, tmp_path / "smoke.png")
    assert is_png(shot), shot
    assert not [e for e in console_errors(browser) if "widget" in e.lower()], console_errors(browser)
    print(f"smoke notebook in the browser: {time.monotonic() - started:.1f} s")
