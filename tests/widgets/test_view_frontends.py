"""The three views' front ends (sandbox/widgets/static/*.js) in a real browser, without Jupyter.

Each ES module is a pure renderer: `render({model, el})` draws the model's `state` and sets
the model's other traits when the user acts. So a static page served on 127.0.0.1 imports
the three modules and renders each with a stub model (get/set/on/off/save_changes, recording
what the front end set), fed with the to_dict() of models that watched real runs --
tests/data/view_*.json: a graph run through a Session on 2 ps + 2 workers (worker:1 then
marked dead), what 1 ps + 3 workers held during a SyncReplicasOptimizer run (at most 5 ops
kept per group), the traffic of that sync run and of an async x3 run whose worker:2 was
killed, and the curves of both runs -- and with the largest cases synthesized from them
(2 ps and 16 workers). Then the DOM is checked through the hooks each module documents at
its top, and a screenshot of each view is saved in the test's tmp_path (look at them to judge
legibility).

The Python classes are checked without a browser: they construct, their traits sync, and
their front end is the module on disk.
"""
import contextlib
import copy
import functools
import http.server
import json
import os
import pathlib
import tempfile
import threading

import pytest

from sandbox.widgets.curves_widget import CurvesWidget
from sandbox.widgets.front_end import esm
from sandbox.widgets.placement_widget import PlacementWidget
from sandbox.widgets.traffic_widget import TrafficWidget

STATIC = pathlib.Path(__file__).resolve().parents[2] / "sandbox" / "widgets" / "static"
DATA = pathlib.Path(__file__).resolve().parents[1] / "data"
CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
DEAD = "#b0b0b0"


def load(name):
    return json.loads((DATA / f"view_{name}.json").read_text())


# ---------------------------------------------------------------------------------------------
# The Python side

@pytest.mark.parametrize("cls, traits, module", [
    (PlacementWidget, {"state": {}, "expanded": [], "selected": {}}, "placement.js"),
    (TrafficWidget, {"state": {}, "paused": False, "view_end": None, "view_length": None,
                     "selected_message": {}}, "traffic.js"),
    (CurvesWidget, {"state": {}, "x_axis": "step", "show_reference": True}, "curves.js"),
])
def test_widget_constructs_its_traits_sync_and_its_front_end_is_the_module(cls, traits, module):
    widget = cls()
    try:
        for name, default in traits.items():
            assert widget.trait_metadata(name, "sync"), f"{cls.__name__}.{name} is not synced"
            assert getattr(widget, name) == default
        esm = widget._esm
        assert esm.strip() and "export default" in esm
        assert esm == (STATIC / "dom.js").read_text() + "\n" + (STATIC / module).read_text()
        assert "data-task" in esm or module == "curves.js"
        widget.state = {"tasks": []}                   # a state is plain JSON
    finally:
        widget.close()


def test_curves_widget_says_which_x_axes_exist():
    widget = CurvesWidget()
    try:
        widget.x_axis = "time"
        with pytest.raises(Exception, match="by global step .* or by wall time"):
            widget.x_axis = "epochs"
    finally:
        widget.close()


# ---------------------------------------------------------------------------------------------
# A page that renders the modules with a stub model

PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>views</title>
<link rel="icon" href="data:,">
<style>body { margin: 0; background: #fff; } #out { padding: 6px; }</style></head>
<body><div id="out"></div>
<script type="module">
import placement from "./placement.js";
import traffic from "./traffic.js";
import curves from "./curves.js";
const views = { placement, traffic, curves };

// What anywidget gives render(): a Backbone-like model. set() fires change:<name> at once,
// as the real one does; the page records what the front end set and saved.
class StubModel {
  constructor(values) { this.values = values; this.handlers = {}; this.sets = []; this.saves = 0; }
  get(name) { return this.values[name]; }
  set(name, value) { this.sets.push([name, value]); this.update(name, value); }
  update(name, value) {
    this.values[name] = value;
    (this.handlers["change:" + name] || []).slice().forEach((f) => f());
  }
  on(event, f) { (this.handlers[event] = this.handlers[event] || []).push(f); }
  off(event, f) { this.handlers[event] = (this.handlers[event] || []).filter((g) => g !== f); }
  save_changes() { this.saves += 1; }
  send() {}
}

window.sbx = {
  mount(view, values, width) {
    if (window.sbx.cleanup) window.sbx.cleanup();
    const out = document.getElementById("out");
    out.replaceChildren();
    out.style.width = width + "px";
    window.sbx.model = new StubModel(values);
    window.sbx.cleanup = views[view].render({ model: window.sbx.model, el: out });
    return true;
  },
  ready: true,
};
</script></body></html>
"""


class Page:
    """The browser on the page: mount a view, push a trait as the kernel would, read what
    the front end set, wait for its next frame."""

    def __init__(self, driver, url):
        self.driver, self.url = driver, url

    def mount(self, view, values, width=1300):
        self.driver.set_window_size(1400, 1000)
        self.driver.get(self.url)
        self.wait_until("window.sbx && window.sbx.ready", "the page's modules to load")
        self.driver.execute_script("window.sbx.mount(arguments[0], arguments[1], arguments[2])",
                                   view, values, width)
        return self

    def push(self, name, value):
        """A new value from the Python side (fires change:<name>, not recorded as set)."""
        self.driver.execute_script("window.sbx.model.update(arguments[0], arguments[1])",
                                   name, value)
        self.next_frame()

    def sets(self):
        return self.driver.execute_script("return window.sbx.model.sets")

    def saves(self):
        return self.driver.execute_script("return window.sbx.model.saves")

    def value(self, name):
        return self.driver.execute_script("return window.sbx.model.get(arguments[0])", name)

    def next_frame(self):
        self.driver.execute_async_script(
            "const done = arguments[0]; requestAnimationFrame(() => requestAnimationFrame(done));")

    def all(self, css):
        from selenium.webdriver.common.by import By
        return self.driver.find_elements(By.CSS_SELECTOR, css)

    def one(self, css):
        found = self.all(css)
        assert found, f"nothing on the page matches {css!r}"
        return found[0]

    def attrs(self, css, *names):
        """[(attribute values...)] of every element matching css."""
        return [tuple(e.get_attribute(n) for n in names) for e in self.all(css)]

    def wait_until(self, script, what, timeout=20):
        from selenium.webdriver.support.ui import WebDriverWait
        WebDriverWait(self.driver, timeout).until(
            lambda d: d.execute_script(f"return !!({script})"),
            message=f"waited {timeout} s for {what}")

    def errors(self):
        return [e["message"] for e in self.driver.get_log("browser") if e["level"] == "SEVERE"]

    def hover(self, element):
        from selenium.webdriver.common.action_chains import ActionChains
        ActionChains(self.driver).move_to_element(element).perform()

    def screenshot(self, path):
        """The whole view (the window grown to its height) as a PNG at `path`."""
        from selenium.webdriver.common.actions.action_builder import ActionBuilder
        away = ActionBuilder(self.driver)
        away.pointer_action.move_to_location(1395, 2)        # the mouse off the view: no tooltip
        away.perform()
        height = self.driver.execute_script("return document.getElementById('out').scrollHeight")
        self.driver.set_window_size(1400, min(5000, height + 140))
        self.next_frame()
        assert self.driver.save_screenshot(str(path)), f"no screenshot saved to {path}"
        return path

    def overflows(self):
        """Elements of the view wider than the view (something would be cut off)."""
        return self.driver.execute_script("""
            const out = document.getElementById('out');
            const right = out.getBoundingClientRect().right;
            return [...out.querySelectorAll('*')].filter(e =>
                e.getBoundingClientRect().right > right + 1
                && !e.closest('.sbx-tip') && !(e.ownerSVGElement && e.closest('[clip-path]'))
                && getComputedStyle(e).display !== 'none')
              .map(e => e.tagName + '.' + (e.getAttribute('class') || '')).slice(0, 5);""")


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@contextlib.contextmanager
def _served(folder):
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(_Quiet, directory=str(folder)))
    thread = threading.Thread(target=server.serve_forever, name="view-pages", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/index.html"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)


@contextlib.contextmanager
def _chromium():
    missing = [p for p in (CHROMIUM, CHROMEDRIVER) if not os.access(p, os.X_OK)]
    if missing:
        pytest.skip(f"the front-end tests need Debian's Chromium and its driver, and "
                    f"{' and '.join(missing)} is missing: apt-get install chromium chromium-driver")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    with tempfile.TemporaryDirectory(prefix="sandbox-views-") as home:
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                     "--no-first-run", "--disable-background-networking",
                     "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
                     "--window-size=1400,1000", f"--user-data-dir={home}/profile"):
            options.add_argument(flag)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        service = Service(CHROMEDRIVER, log_output=os.devnull)
        service.env_path = lambda: None          # never another driver than Debian's
        driver = webdriver.Chrome(options=options, service=service)
        driver.set_script_timeout(20)
        try:
            yield driver
        finally:
            try:
                driver.quit()
            finally:
                service.stop()
                assert service.process is None or service.process.poll() is not None, \
                    "chromedriver still running after quit"


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    www = tmp_path_factory.mktemp("views-www")
    for module in ("placement.js", "traffic.js", "curves.js"):      # what anywidget gets
        (www / module).write_text(esm(module))
    (www / "index.html").write_text(PAGE)
    with _served(www) as url, _chromium() as driver:
        yield Page(driver, url)


# ---------------------------------------------------------------------------------------------
# Synthesized largest cases: 2 ps and 16 workers

def placement_16_workers():
    """2 ps (as measured) and 16 workers, each holding what worker:0 held (~530 ops);
    worker:5 dead, worker:9 not answering."""
    state = load("placement_session")
    ps = [t for t in state["tasks"] if t["job"] == "ps"]
    template = next(t for t in state["tasks"] if t["short"] == "worker:0")
    workers = []
    for i in range(16):
        t = copy.deepcopy(template)
        t["name"], t["short"] = f"/job:worker/replica:0/task:{i}", f"worker:{i}"
        for device in t["devices"]:
            device["full"] = f"{t['name']}/device:{device['name']}"
        t["state"] = {5: "dead", 9: "not answering"}.get(i, "alive")
        t["color"] = DEAD if t["state"] == "dead" else t["job_color"]
        workers.append(t)
    state["tasks"] = ps + workers
    ops = sum(t["ops"] for t in state["tasks"])
    state["counts"] = {"tasks": 18, "ops": ops, "variables": 4}
    state["note"] = f"Synthesized for the tests: 2 ps and 16 workers, {ops} ops."
    return state


def traffic_16_workers():
    """The measured sync x3 state widened to 2 ps and 16 workers: worker i does what worker
    i % 3 did, a little later; ps:1 serves half as much as ps:0; worker:12 dead, worker:7's
    lane only half read."""
    state = load("traffic_sync_paused")
    ps0, w0 = state["tasks"][0], state["tasks"][1]
    tasks = [ps0, dict(ps0, name="/job:ps/replica:0/task:1", short="ps:1")]
    for i in range(16):
        dead = i == 12
        tasks.append(dict(w0, name=f"/job:worker/replica:0/task:{i}", short=f"worker:{i}",
                          state="dead" if dead else "alive", color=DEAD if dead else w0["color"]))
    arrows, messages, spans = [], [], []
    lanes = state["lanes"]
    for i in range(16):
        like, me, shift = f"worker:{i % 3}", f"worker:{i}", 0.0004 * (i // 3)

        def rename(name, ps="ps:0"):
            return me if name == like else ps if name == "ps:0" else name
        for a in state["arrows"]:
            if like in (a["src"], a["dst"]):
                for ps, scale in (("ps:0", 1.0), ("ps:1", 0.5)):
                    arrows.append(dict(a, src=rename(a["src"], ps), dst=rename(a["dst"], ps),
                                       bytes_per_s=a["bytes_per_s"] * scale,
                                       messages_per_s=a["messages_per_s"] * scale))
        for m in lanes["messages"]:
            if like in (m["src"], m["dst"]):
                t_recv = None if m["t_recv"] is None or i == 12 else m["t_recv"] + shift
                messages.append(dict(m, src=rename(m["src"]), dst=rename(m["dst"]),
                                     t_send=m["t_send"] + shift, t_recv=t_recv))
        for sp in lanes["spans"]:
            if sp["task"] == like or sp["peer"] == like:
                spans.append(dict(sp, task=rename(sp["task"]), peer=rename(sp["peer"]),
                                  t0=sp["t0"] + shift, t1=sp["t1"] + shift))
    coverage = {t["short"]: [[lanes["start"] - 1, lanes["end"] + 1]] for t in tasks}
    coverage["worker:7"] = [[(lanes["start"] + lanes["end"]) / 2, lanes["end"] + 1]]
    coverage["worker:12"] = []
    state.update(tasks=tasks, arrows=arrows, live=True)
    state["lanes"] = dict(lanes, messages=messages, spans=spans, coverage=coverage)
    return state


# ---------------------------------------------------------------------------------------------
# The placement view

def test_placement_view_draws_every_task_and_opens_groups(page, tmp_path):
    state = load("placement_session")
    page.mount("placement", {"state": state, "expanded": [], "selected": {}})

    # every task, with its state; the dead one grey with its badge
    assert sorted(page.attrs("[data-task]", "data-task", "data-state")) == [
        ("ps:0", "alive"), ("ps:1", "alive"), ("worker:0", "alive"), ("worker:1", "dead")]
    dead = page.one('[data-task="worker:1"]')
    assert "dead" in dead.find_element("css selector", "[data-testid=badge]").text
    assert page.attrs(".sbx-job", "data-job") == [("ps",), ("worker",)]
    assert "48 ops" in page.one("[data-testid=caption]").text
    assert "not placed yet" in page.one("[data-testid=caption]").text

    # groups collapsed; clicking one opens it into its ops and tells the Python side
    assert page.all(".sbx-op") == []
    chip = page.one('[data-group="ps:0|CPU:0|hidden"]')
    assert "3" in chip.text and "940.8" in chip.text
    chip.click()
    page.next_frame()
    assert page.value("expanded") == ["ps:0|CPU:0|hidden"] and page.saves() >= 1
    assert page.attrs('[data-task="ps:0"] .sbx-op', "data-op", "data-kind") == [
        ("hidden/w1", "variable"), ("hidden/w1/Assign", "op"), ("hidden/w1/read", "op")]

    # hover an op: its name, type, dtype, shape and bytes
    page.hover(page.one('[data-op="hidden/w1"]'))
    tip = page.one(".sbx-tip")
    assert tip.is_displayed()
    for text in ("hidden/w1", "VariableV2", "float32", "[784, 100]", "313.6"):
        assert text in tip.text, (text, tip.text)

    # click it: selected, and the details panel says what it is
    page.one('[data-op="hidden/w1"]').click()
    page.next_frame()
    selected = page.value("selected")
    assert (selected["name"], selected["task"], selected["device"], selected["bytes"]) == (
        "hidden/w1", "ps:0", "CPU:0", 313600)
    assert "hidden/w1" in page.one("[data-testid=details]").text

    # a new state keeps the group open, the selection and the list's scroll position
    state["note"] = "a newer state"
    page.push("state", state)
    assert page.one('[data-group="ps:0|CPU:0|hidden"]').get_attribute("data-open") == "true"
    assert page.all(".sbx-op.sbx-selected")
    assert "a newer state" in page.one("[data-testid=caption]").text

    # ops not placed yet: apart, collapsed
    unplaced = page.one("[data-testid=unplaced]")
    assert unplaced.get_attribute("open") is None and "4 ops" in unplaced.text
    page.one('[data-group="worker:0|CPU:0|gradients"]').click()
    page.next_frame()
    assert not page.overflows()
    page.screenshot(tmp_path / "placement_session.png")
    assert page.errors() == []


def test_placement_view_of_a_cluster_keeps_scroll_and_the_largest_case_fits(page, tmp_path):
    state = load("placement_cluster")
    ps_groups = [f"ps:0|CPU:0|{g['scope']}" for g in state["tasks"][0]["devices"][0]["groups"]]
    page.mount("placement", {"state": state, "expanded": ps_groups, "selected": {}})
    assert len(page.all(".sbx-task")) == 4
    assert ("w1", "variable") in page.attrs('[data-task="ps:0"] .sbx-op', "data-op", "data-kind")
    # scroll the ps's groups, then a new state arrives: the scroll position stays
    page.driver.execute_script(
        "document.querySelector('[data-task=\"ps:0\"] .sbx-groups').scrollTop = 60")
    page.push("state", copy.deepcopy(state))
    assert page.driver.execute_script(
        "return document.querySelector('[data-task=\"ps:0\"] .sbx-groups').scrollTop") == 60
    page.screenshot(tmp_path / "placement_cluster.png")

    big = placement_16_workers()
    page.mount("placement", {"state": big, "expanded": ["worker:3|CPU:0|hidden"], "selected": {}})
    states = dict(page.attrs(".sbx-task", "data-task", "data-state"))
    assert len(states) == 18 and states["worker:5"] == "dead"
    assert states["worker:9"] == "not answering" and states["ps:1"] == "alive"
    assert len(page.all('[data-task="worker:3"] .sbx-op')) == 10
    assert not page.overflows()
    page.driver.execute_script("document.getElementById('out').style.width = '960px'")
    page.next_frame()
    assert not page.overflows()
    page.screenshot(tmp_path / "placement_16_workers.png")
    assert page.errors() == []


# ---------------------------------------------------------------------------------------------
# The traffic view

def test_traffic_view_draws_arrows_lanes_and_messages(page, tmp_path):
    state = load("traffic_sync_paused")
    page.mount("traffic", {"state": state, "paused": True, "view_end": state["lanes"]["end"],
                           "view_length": None, "selected_message": {}})
    tasks = [("ps:0", "alive"), ("worker:0", "alive"), ("worker:1", "alive"),
             ("worker:2", "alive")]
    assert sorted(page.attrs(".sbx-node", "data-task", "data-state")) == tasks
    assert sorted(page.attrs(".sbx-lane", "data-task", "data-state")) == tasks

    # one arrow per (src, dst, kind), wider when more bytes/s
    arrows = page.attrs(".sbx-arrow", "data-src", "data-dst", "data-kind")
    assert sorted(arrows) == sorted((a["src"], a["dst"], a["kind"]) for a in state["arrows"])
    pull = page.one('.sbx-arrow[data-src="ps:0"][data-dst="worker:0"][data-kind="pull"] .sbx-vis')
    sync = page.one('.sbx-arrow[data-src="ps:0"][data-dst="worker:0"][data-kind="sync"] .sbx-vis')
    assert float(pull.get_attribute("stroke-width")) > float(sync.get_attribute("stroke-width"))
    page.hover(page.one('.sbx-arrow[data-src="ps:0"][data-dst="worker:0"][data-kind="pull"]'))
    assert "w1/read:0" in page.one(".sbx-tip").text and "MB/s" in page.one(".sbx-tip").text
    assert "88.4" in page.one("[data-testid=arrows]").text          # ps:0 -> worker:0 pulls

    # every message of the lanes, by kind; spans on their lanes
    kinds = sorted(k for (k,) in page.attrs(".sbx-msg", "data-kind"))
    assert kinds == sorted(m["kind"] for m in state["lanes"]["messages"])
    assert len(page.all(".sbx-span")) == len(state["lanes"]["spans"])
    assert page.all('.sbx-span[data-kind="straggle"][data-task="worker:2"]')

    # clicking a message selects it and tells its tensor, size, step and latency
    message = next(m for m in state["lanes"]["messages"] if m["tensor"] == "w1/read:0")
    target = page.one(f'.sbx-msg[data-tensor="w1/read:0"][data-dst="{message["dst"]}"]')
    page.driver.execute_script(
        "arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", target)
    page.next_frame()
    chosen = page.value("selected_message")
    assert chosen["tensor"] == "w1/read:0" and chosen in state["lanes"]["messages"]
    details = page.one("[data-testid=message-details]").text
    for text in ("w1/read:0", "313.6", f"{chosen['src']} \u2192 {chosen['dst']}",
                 f"step {chosen['step']}", f"{chosen['latency_ms']:.3f} ms"):
        assert text in details, (text, details)
    assert page.attrs('.sbx-msg[data-selected="true"]', "data-tensor") == [("w1/read:0",)]
    page.screenshot(tmp_path / "traffic_sync.png")

    # the controls: resume, pause, scrub, zoom
    page.driver.set_window_size(1400, 1000)
    assert "Resume" in page.one("[data-testid=pause]").text
    page.one("[data-testid=pause]").click()
    assert page.value("paused") is False and page.value("view_end") is None
    assert "Pause" in page.one("[data-testid=pause]").text
    page.one("[data-testid=pause]").click()
    assert ["paused", True] in page.sets()[-1:]
    page.driver.execute_script("""
        const s = document.querySelector('[data-testid=scrub]');
        s.value = String((Number(s.min) + Number(s.max)) / 2);
        s.dispatchEvent(new Event('input', {bubbles: true}));
        s.dispatchEvent(new Event('change', {bubbles: true}));""")
    history = state["history"]
    assert page.value("view_end") == pytest.approx((history["start"] + history["end"]) / 2)
    assert page.value("paused") is True
    length = state["lanes"]["end"] - state["lanes"]["start"]
    page.one("[data-testid=zoom-in]").click()
    assert page.value("view_length") == pytest.approx(length / 2)
    page.one("[data-testid=zoom-out]").click()
    page.one("[data-testid=zoom-out]").click()
    assert page.value("view_length") == pytest.approx(length * 2)
    page.one("[data-testid=zoom-auto]").click()
    assert page.value("view_length") is None
    assert page.errors() == []

    # in a notebook's narrower output area, nothing is cut off
    page.mount("traffic", {"state": state, "paused": True, "view_end": None,
                           "view_length": None, "selected_message": {}}, width=960)
    assert not page.overflows()


def test_traffic_view_shows_a_dead_task_and_what_was_not_read(page, tmp_path):
    state = load("traffic_async_paused")
    page.mount("traffic", {"state": state, "paused": True, "view_end": None,
                           "view_length": None, "selected_message": {}})
    nodes = dict(page.attrs(".sbx-node", "data-task", "data-state"))
    assert nodes == {"ps:0": "alive", "worker:0": "alive", "worker:1": "alive",
                     "worker:2": "dead"}
    assert dict(page.attrs(".sbx-lane", "data-task", "data-state")) == nodes
    assert "dead" in page.one('.sbx-node[data-task="worker:2"]').text
    # lanes with no coverage in the window are shaded whole: unknown, not idle
    assert {t for (t,) in page.attrs(".sbx-unread", "data-task")} == set(nodes)
    assert "not read" in page.driver.find_element("css selector", ".sbx-traffic").text
    assert page.all(".sbx-msg") == []
    page.screenshot(tmp_path / "traffic_async_dead.png")
    assert page.errors() == []


def test_traffic_view_of_16_workers(page, tmp_path):
    state = traffic_16_workers()
    page.mount("traffic", {"state": state, "paused": False, "view_end": None,
                           "view_length": None, "selected_message": {}})
    nodes = dict(page.attrs(".sbx-node", "data-task", "data-state"))
    assert len(nodes) == 18 and nodes["worker:12"] == "dead"
    assert len(page.all(".sbx-lane")) == 18
    assert len(page.all(".sbx-msg")) == len(state["lanes"]["messages"])
    assert page.all('.sbx-msg[data-arrival="not seen"]')
    assert page.attrs(".sbx-unread", "data-task").count(("worker:7",)) == 1
    assert "live" in page.one("[data-testid=status]").text
    assert not page.overflows()
    page.screenshot(tmp_path / "traffic_16_workers.png")
    assert page.errors() == []


# ---------------------------------------------------------------------------------------------
# The curves view

def test_curves_view_draws_each_run_its_events_and_the_reference(page, tmp_path):
    state = load("curves")
    page.mount("curves", {"state": state, "x_axis": "step", "show_reference": True})
    paths = page.attrs("path.sbx-curve", "data-run", "data-chart", "data-points")
    expected = sorted((str(r["id"]), chart, str(len(r[chart])))
                      for r in state["runs"] for chart in ("loss", "accuracy"))
    assert sorted(paths) == expected and all(int(n) > 0 for _, _, n in paths)
    # the async run's line breaks where its segment changes: one M per segment
    d = page.one('path.sbx-curve[data-run="0"][data-chart="loss"]').get_attribute("d")
    assert d.count("M") == len({p[3] for p in state["runs"][0]["loss"]})
    assert page.attrs(".sbx-event", "data-run", "data-event") == [("0", "kill"), ("0", "kill")]
    page.hover(page.one(".sbx-event"))
    assert "worker:2 was killed" in page.one(".sbx-tip").text
    legend = dict(page.attrs(".sbx-run", "data-run", "data-state"))
    assert legend == {"0": "done", "1": "done"}
    reference = page.one("[data-testid=reference]").text
    assert "seed 002" in reference and "0.65" in reference and "0.496" in reference
    assert not page.overflows()
    page.screenshot(tmp_path / "curves_step.png")

    page.one("[data-testid=x-axis-time]").click()
    page.next_frame()
    assert page.value("x_axis") == "time"
    assert "wall time" in page.one("[data-testid=loss-chart]").text
    assert page.one("[data-testid=x-axis-time]").get_attribute("aria-pressed") == "true"
    page.screenshot(tmp_path / "curves_time.png")

    page.one("[data-testid=show-reference]").click()
    page.next_frame()
    assert page.value("show_reference") is False and page.all("[data-testid=reference]") == []
    page.mount("curves", {"state": state, "x_axis": "step", "show_reference": True}, width=960)
    assert not page.overflows() and page.all("[data-testid=reference]")
    page.push("state", dict(state, runs=[]))
    assert "No run yet" in page.one(".sbx-curves").text
    assert page.errors() == []
