"""End-to-end tests in a real browser: JupyterLab on 127.0.0.1, headless Chromium driven by Selenium.

A browser test starts a JupyterLab server on a notebook folder, opens a notebook in Debian's
Chromium, runs all its cells, and then looks at the rendered page like a user would:

    from tests.browser import chromium, jupyter_lab, open_notebook, run_all_cells, find_in_outputs

    with jupyter_lab(tmp_path) as lab, chromium() as driver:
        open_notebook(driver, lab, "dashboard.ipynb")        # kernel started and idle
        run_all_cells(driver)                                 # every cell ran, no error
        button = find_in_outputs(driver, "[data-testid=start]")[0]
        button.click()
        screenshot(driver, tmp_path / "dashboard.png")

(or take the `lab` and `browser` fixtures below; mark such tests `@pytest.mark.browser`).

The pieces, and what keeps them honest:

* `jupyter_lab(root_dir)` runs the venv's `python -m jupyter lab` on a free port with a random
  token, in a process session of its own, with Jupyter's config, runtime, settings and
  workspace folders in a fresh temporary directory (a developer's own ~/.jupyter cannot change
  what the test sees, and the page never asks about news or update checks). The JupyterLab
  application object is exposed to the page as `window.jupyterapp`, so the helpers drive it
  through its commands and models rather than through menus. On exit the server is shut down
  through its REST API (then terminated, then killed), and the context manager waits until no
  process it started is left: the server, its kernels, and anything a kernel started. A
  leftover is killed and reported as a failure.
* `chromium()` is a Selenium `webdriver.Chrome` on /usr/bin/chromium and /usr/bin/chromedriver
  (Debian's `chromium` and `chromium-driver` packages), given both paths so that Selenium
  Manager never tries a download, with the flags a closed network needs, and a fresh
  user-data-dir. Without those two programs the test is skipped, saying how to install them.
  On exit the browser quits, and every browser process must be gone.
* Every wait has a timeout and says, when it runs out, what it was waiting for, what it saw
  last, and the browser console's errors.
"""
import contextlib
import json
import os
import pathlib
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
INSTALL_HINT = "install them with `apt-get install chromium chromium-driver`"

# Flags Chromium needs here: running as root (--no-sandbox), no display (--headless), and a
# network that refuses every outside connection (no background fetches, updates or sync).
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage", "--window-size=1400,1000"]

# JupyterLab user settings for tests: every cell is attached to the page (the default
# windowing leaves off-screen cells unrendered), and no notification toast (news, update
# checks) pops up over the widgets.
LAB_SETTINGS = {
    "@jupyterlab/notebook-extension/tracker": {"windowingMode": "none"},
    "@jupyterlab/apputils-extension/notification": {
        "fetchNews": "false", "checkForUpdates": False, "doNotDisturbMode": True},
}


# ---------------------------------------------------------------------------------------------
# Waiting

def wait_for(condition, timeout, what, detail=None, interval=0.1):
    """Call `condition()` until it returns something true and return that. After `timeout`
    seconds raise TimeoutError naming `what` was awaited, with `detail()` (what was seen
    last) appended when given. Exceptions from `condition` propagate."""
    deadline = time.monotonic() + timeout
    while True:
        result = condition()
        if result:
            return result
        if time.monotonic() >= deadline:
            message = f"timed out after {timeout:g} s waiting for {what}"
            if detail is not None:
                message += f"\n{detail()}"
            raise TimeoutError(message)
        time.sleep(interval)


# ---------------------------------------------------------------------------------------------
# Processes, read from /proc. What a server or a browser started is found two ways: by process
# session (each is started in a session of its own; kernels get sessions of their own too),
# and by a variable only its environment holds (anything that daemonized itself into yet
# another session still inherited it -- Chromium's crash handler does that).

def _process_table():
    """{pid: (parent pid, session id)} of every live process (zombies excluded)."""
    table = {}
    for stat in pathlib.Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if fields[0] != "Z":
            table[int(stat.parent.name)] = (int(fields[1]), int(fields[3]))
    return table


def _read_proc(pid, name):
    try:
        return pathlib.Path(f"/proc/{pid}/{name}").read_bytes()
    except OSError:
        return b""


def _command_line(pid):
    return _read_proc(pid, "cmdline").replace(b"\0", b" ").decode(errors="replace").strip()[:200]


def _sessions_of_tree(root_pid):
    """The sessions of `root_pid` and of all its live descendants."""
    table = _process_table()
    children = {}
    for pid, (ppid, _) in table.items():
        children.setdefault(ppid, []).append(pid)
    sessions, todo = set(), [root_pid]
    while todo:
        pid = todo.pop()
        if pid in table:
            sessions.add(table[pid][1])
        todo.extend(children.get(pid, ()))
    sessions.discard(os.getsid(0))      # never this test process's own session
    sessions.discard(0)
    return sessions


def _processes_of(sessions, env_entry):
    """PIDs of the live processes in one of `sessions`, or whose environment has the entry
    `env_entry` ("NAME=value"); never this process."""
    entry = env_entry.encode()
    return [pid for pid, (_, sid) in _process_table().items() if pid != os.getpid() and (
        sid in sessions or entry in _read_proc(pid, "environ").split(b"\0"))]


def _wait_none_left(sessions, env_entry, what, timeout=20):
    """Wait until no process of `sessions` or with `env_entry` is left; kill what is still
    there after `timeout` seconds, and fail naming it."""
    deadline = time.monotonic() + timeout
    while _processes_of(sessions, env_entry) and time.monotonic() < deadline:
        time.sleep(0.2)
    left = _processes_of(sessions, env_entry)
    if not left:
        return
    described = "; ".join(f"{pid}: {_command_line(pid)}" for pid in left)
    for pid in left:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    raise AssertionError(f"{what}: processes still running {timeout} s after shutdown "
                         f"(now killed): {described}")


def _stop_process(proc, grace=10):
    """terminate, then kill; always reaped."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(grace)
        except subprocess.TimeoutExpired:
            proc.kill()
    proc.wait(grace)


# ---------------------------------------------------------------------------------------------
# JupyterLab

def _free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class JupyterLab:
    """A running JupyterLab server: `url` (base URL, no trailing slash), `token`, `root_dir`,
    `log_path` (the server's stdout and stderr)."""

    def __init__(self, process, url, token, root_dir, log_path):
        self.process, self.url, self.token = process, url, token
        self.root_dir, self.log_path = pathlib.Path(root_dir), pathlib.Path(log_path)

    def notebook_url(self, path):
        """The URL that opens `path` (relative to root_dir) in JupyterLab, token included."""
        path = pathlib.PurePosixPath(pathlib.Path(path)).as_posix()
        return (f"{self.url}/lab/tree/{urllib.parse.quote(path)}"
                f"?token={urllib.parse.quote(self.token)}")

    def api(self, endpoint, method="GET", timeout=10):
        """Call the server's REST API (`endpoint` like "/api/status"); the decoded JSON, or
        None for an empty answer."""
        request = urllib.request.Request(f"{self.url}{endpoint}", method=method, headers={
            "Authorization": f"token {self.token}"})
        with urllib.request.urlopen(request, timeout=timeout) as response:
            body = response.read()
        return json.loads(body) if body else None

    def log_tail(self, lines=40):
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return "(no server log)"
        return "\n".join(text.splitlines()[-lines:])

    def _answers(self):
        if self.process.poll() is not None:
            raise RuntimeError(f"JupyterLab exited with status {self.process.returncode} "
                               f"before it answered; its log ends:\n{self.log_tail()}")
        try:
            return self.api("/api/status", timeout=2) is not None
        except (OSError, urllib.error.URLError, ValueError):
            return False


@contextlib.contextmanager
def jupyter_lab(root_dir, env=None, timeout=60):
    """Run JupyterLab on `root_dir` (127.0.0.1, a free port, a random token, no browser) and
    yield a `JupyterLab`. `env` adds to (or overrides) the server's and kernels' environment.
    On exit: shut the server down and check no process it started is left."""
    root_dir = pathlib.Path(root_dir).resolve()
    with tempfile.TemporaryDirectory(prefix="sandbox-lab-") as home:
        home = pathlib.Path(home)
        for plugin, values in LAB_SETTINGS.items():
            settings = home / "lab-settings" / f"{plugin}.jupyterlab-settings"
            settings.parent.mkdir(parents=True, exist_ok=True)
            settings.write_text(json.dumps(values))
        server_env = {**os.environ,
                      "JUPYTER_CONFIG_DIR": str(home / "config"),
                      "JUPYTER_DATA_DIR": str(home / "data"),
                      "JUPYTER_RUNTIME_DIR": str(home / "runtime"),
                      "JUPYTERLAB_SETTINGS_DIR": str(home / "lab-settings"),
                      "JUPYTERLAB_WORKSPACES_DIR": str(home / "lab-workspaces"),
                      "IPYTHONDIR": str(home / "ipython"),
                      **(env or {})}
        port, token = _free_port(), secrets.token_hex(24)
        command = [sys.executable, "-m", "jupyter", "lab", "--no-browser",
                   "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}",
                   "--ServerApp.port_retries=0", f"--IdentityProvider.token={token}",
                   f"--ServerApp.root_dir={root_dir}", "--ServerApp.allow_root=True",
                   "--LabApp.expose_app_in_browser=True", "--LabApp.news_url=None",
                   "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"]
        log_path = home / "server.log"
        with open(log_path, "wb") as log:
            process = subprocess.Popen(command, cwd=str(root_dir), env=server_env,
                                       stdin=subprocess.DEVNULL, stdout=log,
                                       stderr=subprocess.STDOUT, start_new_session=True)
        lab = JupyterLab(process, f"http://127.0.0.1:{port}", token, root_dir, log_path)
        sessions = {process.pid}
        try:
            wait_for(lab._answers, timeout, f"JupyterLab to answer on {lab.url}",
                     detail=lambda: f"its log ends:\n{lab.log_tail()}", interval=0.2)
            yield lab
        finally:
            sessions |= _sessions_of_tree(process.pid)
            if process.poll() is None:
                with contextlib.suppress(OSError, urllib.error.URLError, ValueError):
                    lab.api("/api/shutdown", method="POST")
                try:
                    process.wait(30)
                except subprocess.TimeoutExpired:
                    pass
            _stop_process(process)
            _wait_none_left(sessions, f"JUPYTER_RUNTIME_DIR={server_env['JUPYTER_RUNTIME_DIR']}",
                            "JupyterLab and its kernels")


# ---------------------------------------------------------------------------------------------
# Chromium

def chromium_missing():
    """Why Chromium cannot run here (a sentence), or None."""
    missing = [path for path in (CHROMIUM, CHROMEDRIVER) if not os.access(path, os.X_OK)]
    if missing:
        return (f"browser tests need Debian's Chromium and its driver, and {' and '.join(missing)} "
                f"{'is' if len(missing) == 1 else 'are'} missing: {INSTALL_HINT}")
    return None


@contextlib.contextmanager
def chromium(command_timeout=120):
    """A headless Chromium under Selenium (webdriver.Chrome); skips the test when Chromium or
    chromedriver is not installed. Quits at the end, and checks every browser process is gone.
    No Selenium command waits longer than `command_timeout` seconds for the browser."""
    reason = chromium_missing()
    if reason:
        pytest.skip(reason)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    with tempfile.TemporaryDirectory(prefix="sandbox-chromium-") as home:
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for flag in CHROMIUM_FLAGS + [f"--user-data-dir={home}/profile"]:
            options.add_argument(flag)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        # chromedriver (and so the browser it starts) in a session of its own.
        # XDG_CONFIG_HOME: Chromium's crash handler keeps its database there, not in ~/.config;
        # and it marks every process of this browser (see _processes_of).
        config_home = f"{home}/config"
        service = Service(CHROMEDRIVER, log_output=f"{home}/chromedriver.log",
                          env={**os.environ, "XDG_CONFIG_HOME": config_home},
                          popen_kw={"start_new_session": True})
        service.env_path = lambda: None     # $SE_CHROMEDRIVER must not pick another driver
        driver = None
        try:
            driver = webdriver.Chrome(options=options, service=service)
            driver.command_executor._client_config.timeout = command_timeout
            driver.set_page_load_timeout(60)
            driver.set_script_timeout(30)
            driver.console_entries = []     # see console_errors()
            yield driver
        finally:
            process = getattr(service, "process", None)     # None: chromedriver never started
            sessions = set() if process is None else {process.pid} | _sessions_of_tree(process.pid)
            try:
                if driver is not None:
                    driver.quit()
            finally:
                if process is not None:
                    _stop_process(process)
                    _wait_none_left(sessions, f"XDG_CONFIG_HOME={config_home}",
                                    "Chromium and chromedriver")


# ---------------------------------------------------------------------------------------------
# Pytest fixtures

@pytest.fixture
def lab(tmp_path):
    """JupyterLab serving tmp_path (write notebooks there before opening them)."""
    with jupyter_lab(tmp_path) as running:
        yield running


@pytest.fixture
def browser():
    """Headless Chromium (a selenium webdriver.Chrome)."""
    with chromium() as driver:
        yield driver


# ---------------------------------------------------------------------------------------------
# The page

def console_errors(driver):
    """The browser console's error messages so far (SEVERE entries), oldest first."""
    with contextlib.suppress(Exception):        # a dead browser has no console to read
        driver.console_entries.extend(driver.get_log("browser"))
    return [entry["message"] for entry in driver.console_entries if entry["level"] == "SEVERE"]


def page_report(driver):
    """What the page looks like now, for failure messages: URL, notebook state, console."""
    try:
        state = driver.execute_script(_NOTEBOOK_STATE)
    except Exception as error:      # noqa: BLE001 -- a report must not raise
        state = f"(page state unavailable: {error.__class__.__name__})"
    errors = console_errors(driver)
    lines = [f"page: {driver.current_url}", f"notebook: {state}",
             f"browser console errors ({len(errors)}):"] + [f"  {e}" for e in errors[-15:]]
    return "\n".join(lines)


# JupyterLab's state as seen by the page, from window.jupyterapp (see --LabApp.expose_app_in_browser)
_NOTEBOOK_STATE = """
const app = window.jupyterapp;
if (!app) return {app: false};
const dialog = document.querySelector('.jp-Dialog');    // e.g. "Select Kernel", an error
const panel = app.shell.currentWidget;
if (!panel || !panel.sessionContext || !panel.content || !panel.content.widgets)
    return {app: true, notebook: null, dialog: dialog ? dialog.innerText : null};
const kernel = panel.sessionContext.session ? panel.sessionContext.session.kernel : null;
const running = [], unexecuted = [];
panel.content.widgets.forEach((cell, i) => {
    if (cell.model.type !== 'code') return;
    const prompt = cell.node.querySelector('.jp-InputPrompt');
    if (cell.model.executionState === 'running' || (prompt && prompt.textContent.includes('*')))
        running.push(i);
    if (cell.model.executionCount === null && cell.model.sharedModel.getSource().trim())
        unexecuted.push(i);
});
return {app: true, notebook: panel.context.path, ready: panel.context.isReady,
        kernel: kernel ? kernel.status : null,
        connection: kernel ? kernel.connectionStatus : null,
        running: running, unexecuted: unexecuted, runAll: window.__sandboxRunAll || null,
        dialog: dialog ? dialog.innerText : null};
"""


def notebook_state(driver):
    """The current notebook's state: {"notebook": path, "kernel": status, "running": [cell
    indices showing [*]], "unexecuted": [...], ...}."""
    return driver.execute_script(_NOTEBOOK_STATE)


def _kernel_idle(state, path=None):
    return (state.get("notebook") is not None and state.get("ready")
            and (path is None or state["notebook"] == path)
            and state.get("kernel") == "idle" and state.get("connection") == "connected")


def open_notebook(driver, lab, path, timeout=90, reset=False, in_page=False):
    """Open `path` (relative to the lab's root_dir) in JupyterLab and wait until it is the
    current document and its kernel is started, connected and idle. `reset`: start from an
    empty workspace (JupyterLab's `?reset`), so the notebooks opened before are not reopened,
    each with a kernel of its own. `in_page`: open it from the JupyterLab already loaded
    (its command 'docmanager:open', as a double click in the file browser does) instead of
    loading the page again."""
    path = pathlib.PurePosixPath(pathlib.Path(path)).as_posix()
    if in_page:
        driver.execute_script("window.jupyterapp.commands.execute('docmanager:open', "
                              "{path: arguments[0], factory: 'Notebook'});", path)
    else:
        driver.get(lab.notebook_url(path) + ("&reset" if reset else ""))
    wait_for(lambda: _kernel_idle(notebook_state(driver), path), timeout,
             f"notebook {path} to open with its kernel idle",
             detail=lambda: f"{page_report(driver)}\nserver log ends:\n{lab.log_tail(15)}",
             interval=0.25)


def run_all_cells(driver, timeout=120, raise_on_error=True):
    """Run every cell of the current notebook (JupyterLab's command 'notebook:run-all-cells')
    and wait until it is done: the command finished, the kernel is idle, no cell shows [*].
    With raise_on_error, a cell that raised fails the call with its traceback's text."""
    driver.execute_script("""
        window.__sandboxRunAll = {done: false};
        window.jupyterapp.commands.execute('notebook:run-all-cells').then(
            ok => { window.__sandboxRunAll = {done: true, ok: ok}; },
            e => { window.__sandboxRunAll = {done: true, ok: false, error: String(e)}; });
    """)

    def finished():
        state = notebook_state(driver)
        run = state.get("runAll") or {}
        return (run.get("done") and _kernel_idle(state) and not state["running"]) and state

    state = wait_for(finished, timeout, "all cells to finish running",
                     detail=lambda: page_report(driver), interval=0.25)
    if raise_on_error:
        errors = cell_errors(driver)
        if errors or not state["runAll"].get("ok"):
            raise AssertionError("running all cells failed: "
                                 + ("\n\n".join(errors) or str(state["runAll"]))
                                 + f"\n{page_report(driver)}")
    return state


def cell_errors(driver):
    """The text of every error output (a traceback) in the current notebook."""
    return driver.execute_script("""
        const panel = window.jupyterapp.shell.currentWidget, errors = [];
        panel.content.widgets.forEach((cell, i) => {
            if (cell.model.type !== 'code') return;
            for (let k = 0; k < cell.model.outputs.length; k++) {
                const out = cell.model.outputs.get(k).toJSON();
                if (out.output_type === 'error')
                    errors.push(`cell ${i}: ${out.ename}: ${out.evalue}\\n`
                                + out.traceback.join('\\n').replace(/\\x1b\\[[0-9;]*m/g, ''));
            }
        });
        return errors;
    """)


def find_in_outputs(driver, css, timeout=30, count=1):
    """Wait until at least `count` displayed elements match `css` inside the notebook's cell
    outputs (`.jp-OutputArea`: each output is a `.jp-OutputArea-output` there, widget views
    included -- `.widget-slider`, `.widget-button`, an anywidget's own elements; printed text
    is a `.jp-RenderedText`), and return them all."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By

    selector = f".jp-OutputArea {css}"

    def found():
        try:
            elements = [e for e in driver.find_elements(By.CSS_SELECTOR, selector)
                        if e.is_displayed()]
        except StaleElementReferenceException:
            return None
        return elements if len(elements) >= count else None

    return wait_for(found, timeout, f"{count} displayed element(s) {selector!r} in the outputs",
                    detail=lambda: page_report(driver), interval=0.2)


def click(driver, css, timeout=30):
    """Click the first element matching `css` in the cell outputs, waiting (and retrying)
    until it is displayed, enabled and not covered by something else."""
    from selenium.common.exceptions import (ElementClickInterceptedException,
                                            ElementNotInteractableException,
                                            StaleElementReferenceException)
    from selenium.webdriver.common.by import By

    def clicked():
        try:
            elements = driver.find_elements(By.CSS_SELECTOR, f".jp-OutputArea {css}")
            if not elements or not elements[0].is_displayed() or not elements[0].is_enabled():
                return False
            elements[0].click()
        except (ElementClickInterceptedException, ElementNotInteractableException,
                StaleElementReferenceException):
            return False
        return True

    wait_for(clicked, timeout, f"{css!r} to be clickable", detail=lambda: page_report(driver),
             interval=0.2)


def wait_for_text(driver, css, text, timeout=30):
    """Wait until an element matching `css` in the outputs shows `text` (a substring); return it."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By

    def shows():
        try:
            for element in driver.find_elements(By.CSS_SELECTOR, f".jp-OutputArea {css}"):
                if text in element.text:
                    return element
        except StaleElementReferenceException:
            return None
        return None

    def seen():
        try:
            texts = [e.text for e in driver.find_elements(
                By.CSS_SELECTOR, f".jp-OutputArea {css}")]
        except StaleElementReferenceException:
            texts = "(changing)"
        return f"{css!r} shows {texts}\n{page_report(driver)}"

    return wait_for(shows, timeout, f"{css!r} to show {text!r}", detail=seen, interval=0.2)


def run_in_kernel(driver, code, timeout=30):
    """Execute `code` in the current notebook's kernel (not as a cell: the notebook is left as
    it is) and return what it printed. A Python exception fails the call with its message."""
    driver.set_script_timeout(timeout)
    try:
        result = driver.execute_async_script("""
            const code = arguments[0], done = arguments[arguments.length - 1];
            const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
            const out = [];
            let error = null;
            const future = kernel.requestExecute({code: code, store_history: false});
            future.onIOPub = msg => {
                const type = msg.header.msg_type;
                if (type === 'stream') out.push(msg.content.text);
                if (type === 'execute_result') out.push(msg.content.data['text/plain'] + '\\n');
                if (type === 'error') error = msg.content.ename + ': ' + msg.content.evalue;
            };
            future.done.then(() => done({out: out.join(''), error: error}),
                             e => done({out: out.join(''), error: String(e)}));
        """, code)
    finally:
        driver.set_script_timeout(30)
    if result["error"]:
        raise AssertionError(f"kernel raised running {code!r}: {result['error']}\n"
                             f"it printed: {result['out']}")
    return result["out"]


def screenshot(driver, path, element=None):
    """Save a PNG of the browser window (or of just `element`, e.g. a widget found with
    find_in_outputs) to `path`, parents created; return the path."""
    path = pathlib.Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    saved = (driver.save_screenshot(str(path)) if element is None
             else element.screenshot(str(path)))
    if not saved:
        raise AssertionError(f"the browser could not save a screenshot to {path}")
    return path


def is_png(path):
    """True when `path` is a non-empty PNG file."""
    path = pathlib.Path(path)
    return path.is_file() and path.stat().st_size > 100 and \
        path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


__all__ = ["jupyter_lab", "JupyterLab", "chromium", "chromium_missing", "lab", "browser",
           "open_notebook", "run_all_cells", "cell_errors", "notebook_state", "find_in_outputs",
           "click", "wait_for_text", "run_in_kernel", "screenshot", "is_png", "console_errors",
           "page_report", "wait_for"]
