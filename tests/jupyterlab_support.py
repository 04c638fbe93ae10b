"""Helpers for end-to-end tests in a real JupyterLab driven by a real headless Chromium.

``JupyterLab`` starts ``jupyter lab`` on 127.0.0.1 with a free port, a random token, a
temporary root folder and private Jupyter/IPython folders (so neither the user's settings nor
their kernels' config can leak in, and nothing of theirs is touched).  Its log goes to a file
that the tests print when they fail.  ``open_page`` gives a Playwright page on Debian's
Chromium.  Every wait is on a selector or a condition, with a generous timeout; there is no
sleep that a slow machine could outrun.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
ARTIFACTS = REPO / "test-artifacts"

# Two shared cores: a kernel start plus the first JupyterLab load can take a while.
TIMEOUT_MS = 120_000
STARTUP_TIMEOUT_S = 120.0

LIGHT = "JupyterLab Light"
DARK = "JupyterLab Dark"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _write_settings(settings_dir: Path, plugin: str, values: dict[str, Any]) -> None:
    """Write a JupyterLab user setting file (``<package>/<plugin>.jupyterlab-settings``)."""
    package, _, name = plugin.partition(":")
    path = settings_dir / package / f"{name}.jupyterlab-settings"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(values), encoding="utf-8")


class JupyterLab:
    """A private JupyterLab server for one test session."""

    def __init__(self, *, theme: str = LIGHT) -> None:
        self.base = Path(tempfile.mkdtemp(prefix="ipy-istring-lab-"))
        self.root = self.base / "root"
        self.root.mkdir()
        self.port = free_port()
        self.token = secrets.token_hex(16)
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = self.base / "server.log"
        self.process: subprocess.Popen[bytes] | None = None
        self.theme = theme

    # -- environment ----------------------------------------------------------------------

    def environment(self) -> dict[str, str]:
        env = dict(os.environ)
        private = {
            "JUPYTER_CONFIG_DIR": self.base / "jupyter-config",
            "JUPYTER_DATA_DIR": self.base / "jupyter-data",
            "JUPYTER_RUNTIME_DIR": self.base / "jupyter-runtime",
            "IPYTHONDIR": self.base / "ipython",
            "JUPYTERLAB_SETTINGS_DIR": self.base / "lab-settings",
            "JUPYTERLAB_WORKSPACES_DIR": self.base / "lab-workspaces",
        }
        for key, path in private.items():
            path.mkdir(parents=True, exist_ok=True)
            env[key] = str(path)
        # The kernels import the working tree's ipy_istring, whatever is installed.
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
        env.pop("JUPYTER_PATH", None)
        env.pop("JUPYTER_PREFER_ENV_PATH", None)
        return env

    def settings_dir(self) -> Path:
        return self.base / "lab-settings"

    def write_user_settings(self) -> None:
        settings = self.settings_dir()
        _write_settings(settings, "@jupyterlab/apputils-extension:themes", {"theme": self.theme})
        # No news or update pop-ups over the page (and no attempt to reach the network).
        _write_settings(
            settings,
            "@jupyterlab/apputils-extension:notification",
            {"fetchNews": "false", "checkForUpdates": False},
        )

    # -- lifecycle ------------------------------------------------------------------------

    def start(self) -> JupyterLab:
        self.write_user_settings()
        env = self.environment()
        command = [
            sys.executable,
            "-m",
            "jupyterlab",
            "--no-browser",
            "--allow-root",
            "--ip=127.0.0.1",
            f"--port={self.port}",
            "--ServerApp.port_retries=0",
            f"--IdentityProvider.token={self.token}",
            f"--ServerApp.root_dir={self.root}",
            "--LabApp.news_url=",
            "--LabApp.check_for_updates_class=jupyterlab.handlers.announcements.NeverCheckForUpdate",
            "--expose-app-in-browser",
        ]
        log = self.log_path.open("wb")
        try:
            self.process = subprocess.Popen(
                command, cwd=self.root, env=env, stdout=log, stderr=subprocess.STDOUT
            )
        finally:
            log.close()
        self._wait_until_up()
        return self

    def _wait_until_up(self) -> None:
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        status = f"{self.url}/api/status?token={self.token}"
        last_error: Exception | None = None
        while time.monotonic() < deadline:
            assert self.process is not None
            if self.process.poll() is not None:
                raise RuntimeError(
                    f"jupyter lab exited with {self.process.returncode}:\n{self.log()}"
                )
            try:
                with urllib.request.urlopen(status, timeout=5) as response:
                    if response.status == 200:
                        return
            except (urllib.error.URLError, OSError) as error:
                last_error = error
            time.sleep(0.2)  # polling interval, not a timing assumption
        raise RuntimeError(
            f"jupyter lab did not answer within {STARTUP_TIMEOUT_S:.0f}s ({last_error}):\n"
            f"{self.log()}"
        )

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=30)
        self.process = None

    def cleanup(self) -> None:
        self.stop()
        shutil.rmtree(self.base, ignore_errors=True)

    def log(self) -> str:
        try:
            return self.log_path.read_text(encoding="utf-8", errors="replace")
        except OSError as error:
            return f"(no server log: {error})"

    # -- REST helpers -----------------------------------------------------------------------

    def api(self, method: str, path: str, body: Any = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            f"{self.url}{path}",
            data=data,
            method=method,
            headers={"Authorization": f"token {self.token}", "Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=30) as response:
            payload = response.read()
        return json.loads(payload) if payload else None

    def set_theme(self, theme: str) -> None:
        """Change the theme through the settings REST API (the page must be reloaded)."""
        self.api(
            "PUT",
            "/lab/api/settings/@jupyterlab/apputils-extension:themes",
            {"raw": json.dumps({"theme": theme})},
        )
        self.theme = theme

    def add_notebook(self, name: str, notebook: Any) -> Path:
        import nbformat

        path = self.root / name
        nbformat.write(notebook, path)
        return path

    def notebook_url(self, name: str) -> str:
        return f"{self.url}/lab/tree/{name}?token={self.token}&reset"

    def shutdown_kernels(self) -> None:
        for session in self.api("GET", "/api/sessions") or []:
            with contextlib.suppress(urllib.error.URLError):
                self.api("DELETE", f"/api/sessions/{session['id']}")


@contextlib.contextmanager
def running_lab(*, theme: str = LIGHT) -> Iterator[JupyterLab]:
    lab = JupyterLab(theme=theme)
    try:
        yield lab.start()
    finally:
        lab.cleanup()


# -- Playwright ---------------------------------------------------------------------------


@contextlib.contextmanager
def chromium(executable_path: str, args: list[str]) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=executable_path, args=args, headless=True
        )
        try:
            yield browser
        finally:
            browser.close()


@contextlib.contextmanager
def open_page(browser: Any, console: list[str]) -> Iterator[Any]:
    """A page of its own context (no shared storage), its console collected in ``console``."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, device_scale_factor=1)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    page.on("console", lambda message: console.append(f"[{message.type}] {message.text}"))
    page.on("pageerror", lambda error: console.append(f"[pageerror] {error}"))
    try:
        yield page
    finally:
        context.close()


def open_notebook(page: Any, lab: JupyterLab, name: str) -> None:
    """Open a notebook in JupyterLab and wait until its kernel is idle."""
    page.goto(lab.notebook_url(name))
    page.wait_for_selector(".jp-Notebook .jp-Cell", state="visible")
    wait_for_theme(page, lab.theme)
    wait_kernel_idle(page)


def wait_for_theme(page: Any, theme: str) -> None:
    light = "true" if theme == LIGHT else "false"
    page.wait_for_selector(
        f"body[data-jp-theme-name='{theme}'][data-jp-theme-light='{light}']", state="attached"
    )


def wait_kernel_idle(page: Any) -> None:
    """Wait for the notebook's kernel to be connected and idle (JupyterLab's own indicator)."""
    page.wait_for_function(
        """() => {
            const app = window.jupyterapp;
            const widget = app && app.shell.currentWidget;
            const context = widget && widget.sessionContext;
            const kernel = context && context.session && context.session.kernel;
            return !!kernel && kernel.connectionStatus === 'connected'
                && kernel.status === 'idle';
        }"""
    )


def run_all_cells(page: Any) -> None:
    """Run every cell through the Run menu, as a person would, and wait until all ran."""
    page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
    page.locator(".lm-Menu-itemLabel", has_text="Run All Cells").first.click()
    wait_cells_done(page)


def wait_cells_done(page: Any) -> None:
    """Wait until no code cell is queued or running and every one has an execution count."""
    page.wait_for_function(
        """() => {
            const prompts = [...document.querySelectorAll('.jp-CodeCell .jp-InputPrompt')];
            return prompts.length > 0
                && prompts.every(p => /\\[\\d+\\]/.test(p.textContent || ''));
        }"""
    )
    wait_kernel_idle(page)


def screenshot(page: Any, name: str, locator: Any = None) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / name
    (locator or page).screenshot(path=str(path))
    return path


# -- executing notebooks with nbclient -------------------------------------------------------

NOTEBOOKS = REPO / "notebooks"
PYTHON_314_NOTEBOOK = "06-python-3.14.ipynb"
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE_MIME = "application/vnd.jupyter.widget-state+json"


def find_python_314() -> str | None:
    """A Python 3.14 with ipykernel: ``$IPY_ISTRING_PYTHON314``, the CI's ``.venvs/3.14``,
    then ``python3.14`` on PATH."""
    candidates = [
        os.environ.get("IPY_ISTRING_PYTHON314"),
        REPO / ".venvs" / "3.14" / "bin" / "python",
        shutil.which("python3.14"),
    ]
    for candidate in candidates:
        if candidate and Path(candidate).exists():
            probe = subprocess.run(
                [
                    str(candidate),
                    "-c",
                    "import sys, ipykernel, ipy_istring; print(sys.version_info[:2])",
                ],
                capture_output=True,
                text=True,
                env={**os.environ, "PYTHONPATH": str(REPO)},
                check=False,
            )
            if probe.returncode == 0 and probe.stdout.strip() == "(3, 14)":
                return str(candidate)
    return None


def kernel_manager(python: str, base: Path, name: str = "ipy-istring") -> Any:
    """A kernel manager for a kernelspec written into ``base`` that runs ``python``, importing
    the working tree's ipy_istring, with a private IPython folder."""
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import AsyncKernelManager

    spec_dir = base / "kernels" / name
    spec_dir.mkdir(parents=True, exist_ok=True)
    ipython_dir = base / "ipython"
    ipython_dir.mkdir(exist_ok=True)
    spec = {
        "argv": [python, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": f"ipy_istring ({Path(python).name})",
        "language": "python",
        "env": {
            "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])),
            "IPYTHONDIR": str(ipython_dir),
        },
    }
    (spec_dir / "kernel.json").write_text(json.dumps(spec), encoding="utf-8")
    specs = KernelSpecManager(kernel_dirs=[str(base / "kernels")])
    return AsyncKernelManager(kernel_name=name, kernel_spec_manager=specs)


def execute_notebook(path: Path, python: str, workdir: Path, *, timeout: int = 300) -> Any:
    """Execute a notebook top to bottom on a real kernel; return it with outputs and widget
    state.  A cell error raises nbclient's CellExecutionError, which names the cell."""
    import nbclient
    import nbformat

    notebook = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(
        notebook,
        km=kernel_manager(python, workdir),
        timeout=timeout,
        store_widget_state=True,
        resources={"metadata": {"path": str(path.parent)}},
    )
    client.execute()
    return notebook


def without_widgets(notebook: Any) -> Any:
    """The notebook as any place without a kernel must show it: each output that also carries
    static HTML loses its widget view, and the saved widget state goes.

    Saved, a widget view is only a reference to a model that lives in a kernel: nbconvert
    (which prefers it whenever widget state is saved) and a JupyterLab reopened later show
    an empty box or "model not found" instead of the static HTML next to it.  Running the
    cell again in a live kernel brings the widget back.
    """
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if WIDGET_MIME in data and ("text/html" in data or "text/plain" in data):
                del data[WIDGET_MIME]
    notebook.metadata.pop("widgets", None)
    return notebook


HEADER = re.compile(r"^i-string template: ([\d,]+) fields?\b")


def expected_views(notebook: Any) -> list[tuple[list[str], list[str], str]]:
    """For each template output, from its text view: the expressions, the value reprs and the
    default renderer's output (its first line), in notebook order."""
    views = []
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            text = output.get("data", {}).get("text/plain", "")
            header = HEADER.match(text)
            if not header:
                continue
            lines = text.splitlines()
            count = int(header.group(1).replace(",", ""))
            table = lines[1]
            value_at, type_at = table.index("value"), table.index("type")
            rows = lines[2 : 2 + count]
            expressions = [row.split()[1] for row in rows]
            values = [row[value_at:type_at].strip() for row in rows]
            default = re.search(r"renderer '([^']*)'", lines[0])
            assert default is not None
            name = default.group(1)
            line = next(line for line in lines if line.strip().startswith(f"{name} → "))
            shown = line.split(" → ", 1)[1].split("  params: [")[0]
            shown = shown.removeprefix("error: ")
            views.append((expressions, values, "" if shown.startswith("[") else shown))
    return views
