"""Every lesson notebook as a student opens it: JupyterLab serves a copy of notebooks/ and
lessons/, headless Chromium opens each notebook in turn and runs all its cells (short mode,
SANDBOX_QUICK=1), and the page must then show every view the notebook displays, drawn from
what its cluster measured: a PlacementView's task boxes, a TrafficView's tasks, a CurvesView's
curves with points -- and no output saying a widget could not be displayed. Each notebook's
last cell stops its views before its cluster (`view.stop()`), so after a Run All they stay on
the page as they last were, and no traffic view still claims to be live. A
screenshot of each cell that shows a widget is saved. Each notebook's kernel is shut down before the next opens, and the harness
(tests/browser.py) waits until nothing the server, its kernels or their clusters started is
left running.

tests/test_notebooks.py runs the same notebooks headless (nbclient), with the same checks of
their outputs (no error, no traceback on stderr); when this test runs, it leaves the lesson
notebooks to it (tests/conftest.py), so that each runs once. CI's second pass, without the
browser, runs them headless on the offline MNIST subset."""
import re
import shutil

import pytest

from tests.browser import (chromium, console_errors, is_png, jupyter_lab,  # noqa: F401
                           open_notebook, page_report, run_all_cells, screenshot, wait_for)
from conftest import MNIST_DIR, REPO

pytestmark = pytest.mark.browser

LESSON_NOTEBOOKS = sorted(p.name for p in (REPO / "notebooks").glob("[0-9][0-9]_*.ipynb")
                          if not p.name.startswith("00_"))

# What each view draws once its model holds what the cluster measured (the data-* contract
# each front end documents at its top: sandbox/widgets/static/*.js).
VIEWS = {
    "PlacementView": (".sbx-placement", ".sbx-task[data-task]"),
    "TrafficView": (".sbx-traffic", ".sbx-node[data-task]"),
    "CurvesView": (".sbx-curves", "[data-testid='loss-chart']"),
}
# The Dashboard holds a placement, a traffic and a curves view (its curves may have no run).
SHOWN_BY = {"PlacementView": ("PlacementView", "Dashboard"),
            "TrafficView": ("TrafficView", "Dashboard"), "CurvesView": ("CurvesView",)}

# What a cell printed to stderr with a traceback (a thread's exception, a logged one): the
# checks of tests/test_notebooks.py, which leaves these notebooks to this test when it runs.
_STDERR_TRACEBACKS = """
const found = [];
window.jupyterapp.shell.currentWidget.content.widgets.forEach((cell, i) => {
    if (cell.model.type !== 'code') return;
    for (let k = 0; k < cell.model.outputs.length; k++) {
        const out = cell.model.outputs.get(k).toJSON();
        const text = [].concat(out.text || []).join('');
        if (out.output_type === 'stream' && out.name === 'stderr' && text.includes('Traceback'))
            found.push(`cell ${i}: ${text.slice(0, 1500)}`);
    }
});
return found;
"""

# The code cells whose outputs include a widget view, by index.
_WIDGET_CELLS = """
const cells = [];
window.jupyterapp.shell.currentWidget.content.widgets.forEach((cell, i) => {
    if (cell.model.type !== 'code') return;
    for (let k = 0; k < cell.model.outputs.length; k++)
        if ('application/vnd.jupyter.widget-view+json' in (cell.model.outputs.get(k).data || {})) {
            cells.push(i);
            return;
        }
});
return cells;
"""

# Bring cell `i` into view, as a student scrolling down does (JupyterLab draws only the cells
# near the viewport).
_SCROLL_TO = """
const i = arguments[0], done = arguments[arguments.length - 1];
const notebook = window.jupyterapp.shell.currentWidget.content;
notebook.activeCellIndex = i;
Promise.resolve(notebook.scrollToItem ? notebook.scrollToItem(i, 'start') : null).then(
    () => { notebook.widgets[i].node.scrollIntoView(); done(true); }, e => done(String(e)));
"""

# What cell `i` shows: per view kind, its roots and how many of them are drawn; whether any
# widget is there at all; and any output saying a widget is missing.
_CELL_VIEWS = """
const i = arguments[0], views = arguments[1];
const node = window.jupyterapp.shell.currentWidget.content.widgets[i].node;
const result = {attached: node.isConnected, views: {}};
for (const [name, [root, drawn]] of Object.entries(views)) {
    const roots = Array.from(node.querySelectorAll('.jp-OutputArea ' + root));
    result.views[name] = {roots: roots.length,
                          drawn: roots.filter(r => r.querySelector(drawn) !== null).length};
}
result.widgets = node.querySelectorAll('.jp-OutputArea .jupyter-widgets, .jp-OutputArea .lm-Widget .sbx-placement, .jp-OutputArea .sbx-traffic, .jp-OutputArea .sbx-curves').length;
result.points = Math.max(0, ...Array.from(node.querySelectorAll('[data-run][data-points]'),
                                          e => Number(e.dataset.points)));
result.stillLive = Array.from(node.querySelectorAll('.sbx-traffic [data-testid="status"]'))
    .filter(e => e.textContent.includes('live')).length;
result.broken = Array.from(node.querySelectorAll('.jp-OutputArea-output'))
    .map(o => o.innerText || '')
    .filter(t => t.includes('Error displaying widget') || t.includes('Loading widget'))
    .map(t => t.slice(0, 200));
return result;
"""

_SHUT_DOWN = """
const done = arguments[arguments.length - 1];
const app = window.jupyterapp, panel = app.shell.currentWidget;
panel.sessionContext.shutdown().then(() => {
    panel.dispose();                          // closed without saving (the outputs need not be)
    return app.serviceManager.sessions.refreshRunning();
}).then(() => done(Array.from(app.serviceManager.sessions.running()).length),
        e => done(String(e)));
"""


def _views_in(path):
    """The view classes a notebook's code displays (by name, from its source)."""
    import nbformat
    source = "\n".join(c.source for c in nbformat.read(path, as_version=4).cells
                       if c.cell_type == "code")
    return sorted(view for view, callers in SHOWN_BY.items()
                  if any(re.search(rf"\b{name}\(", source) for name in callers))


def test_every_lesson_notebook_runs_in_jupyterlab_and_shows_its_views(tmp_path):
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".ipynb_checkpoints")
    shutil.copytree(REPO / "notebooks", tmp_path / "notebooks", ignore=ignore)
    shutil.copytree(REPO / "lessons", tmp_path / "lessons", ignore=ignore)
    env = {"SANDBOX_QUICK": "1", "SANDBOX_MNIST_MIRRORS": "none"}
    if (MNIST_DIR / "train-images-idx3-ubyte.gz").exists():
        env["MNIST_DIR"] = str(MNIST_DIR)
    assert len(LESSON_NOTEBOOKS) == 12, LESSON_NOTEBOOKS
    shots = []
    with jupyter_lab(tmp_path, env=env) as lab, chromium() as driver:
        for name in LESSON_NOTEBOOKS:
            views = _views_in(REPO / "notebooks" / name)
            assert views, f"{name} displays none of the sandbox's views"
            open_notebook(driver, lab, f"notebooks/{name}", reset=True,
                          in_page=name != LESSON_NOTEBOOKS[0])
            run_all_cells(driver, timeout=240)          # raises on a cell's error output
            tracebacks = driver.execute_script(_STDERR_TRACEBACKS)
            assert not tracebacks, f"{name} printed a traceback:\n" + "\n".join(tracebacks)

            cells = driver.execute_script(_WIDGET_CELLS)
            assert cells, f"{name}: no cell shows a widget after Run All"
            seen, points = set(), 0
            for i in cells:
                driver.set_script_timeout(30)
                assert driver.execute_async_script(_SCROLL_TO, i) is True, (name, i)

                def shown(i=i):
                    cell = driver.execute_script(_CELL_VIEWS, i, VIEWS)
                    ok = (cell["attached"] and cell["widgets"] > 0 and not cell["broken"]
                          and not cell["stillLive"]       # the last cell stopped every view
                          and all(v["drawn"] == v["roots"] for v in cell["views"].values()))
                    return cell if ok else None

                cell = wait_for(shown, 60, f"{name}, cell {i}: its widgets drawn",
                                detail=lambda i=i: f"{driver.execute_script(_CELL_VIEWS, i, VIEWS)}"
                                                   f"\n{page_report(driver)}")
                seen |= {v for v, counts in cell["views"].items() if counts["drawn"]}
                points = max(points, cell["points"])
                shots.append(screenshot(driver, tmp_path / "shots" / f"{name[:-6]}-cell{i}.png"))
            missing = [v for v in views if v not in seen]
            assert not missing, f"{name}: {missing} never drawn (drawn: {sorted(seen)})"
            if "CurvesView" in views:     # the curves of the runs the notebook trained
                assert points > 0, f"{name}: its CurvesView shows no curve with points"
            driver.set_script_timeout(60)
            assert driver.execute_async_script(_SHUT_DOWN) == 0, f"{name}: kernels left running"
        errors = [e for e in console_errors(driver) if "sandbox" in e or "anywidget" in e]
        assert not errors, errors
    assert all(is_png(shot) for shot in shots)
    print(f"screenshots: {tmp_path / 'shots'}")
