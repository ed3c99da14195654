"""Browser tests in Debian's chromium: a real ``streamlit run`` server on a free loopback port.

Reusable by every page's e2e tests:

- ``streamlit_env`` (session): the environment of the server: the seeded demo DATA_DIR, no MongoDB URI,
  no secrets file.  Override it in a test module (same name) to add e.g. OPENAI_BASE_URL for a scripted model.
- ``small_streamlit_env`` (session): the same on the small store (one 64-qubit chip over 4 days).
- ``demo_db`` (session): the root fixture's demo documents, read from this worker's seeded store (opened once).
- ``copilot_server`` (session): this worker's one long-lived app, on its own copy of the demo with the fit
  figures of ``FIGURE_QUBIT``; its model is a scripted OpenAI-compatible server that a module points at its
  script with ``scripted_app(copilot_server, smart)``.  ``app_url`` (session) is its base URL.
- ``start_streamlit(env)``: the context manager behind it, for tests that need their own server.
- ``wait_idle(page)``, ``open_page(page, title)`` (click the sidebar link: a URL change is a new session),
  ``open_link(page, address, heading)`` (a shared link, read once the run that drew its heading has finished),
  ``open_copilot(page, url)``, ``ask_on_copilot_page(page, url, question)`` (through the Overview and the
  sidebar, as a user goes), ``open_copilot_link``/``ask_at_copilot_link`` (the page's own address: one page run
  instead of two, for tests of what an answer shows), ``click_df_row(page, row)``,
  ``download(page, button, folder)``, ``shot(page, name)`` (PNG under test-artifacts/).

"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.fakes.scripted_openai import ScriptedOpenAI, SmartRequest, Step, answer, call, error

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
HAVE_CHROMIUM = Path(CHROMIUM).is_file()
SERVER_START_TIMEOUT = 90.0
RENDER_TIMEOUT_MS = 120_000  # first renders read the database cold on a shared 2-core machine
_CLEARED = ("MONGODB_URI", "MONGO_DB_NAME", "QDASH_PROJECT_ID")
FIGURE_QUBIT = ("144Qv2", "17")  # (chip, qid) whose fit figures ``app_url`` serves


def pytest_collection_modifyitems(config, items):
    here = Path(__file__).parent
    for item in items:
        if Path(str(item.fspath)).is_relative_to(here):
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session", autouse=True)
def _require_browser():
    """No chromium: a clear skip on a developer machine, a failure where REQUIRE_BROWSER=1 (CI)."""
    if HAVE_CHROMIUM:
        return
    if os.environ.get("REQUIRE_BROWSER") == "1":
        pytest.fail(f"REQUIRE_BROWSER=1 but chromium is missing at {CHROMIUM}")
    pytest.skip(f"chromium not found at {CHROMIUM}: install Debian's chromium (make browser) "
                "or set CHROMIUM_PATH; REQUIRE_BROWSER=1 makes this a failure")


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """pytest-playwright must use Debian's chromium: Playwright cannot download its own here."""
    return {**browser_type_launch_args, "executable_path": CHROMIUM}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "viewport": {"width": 1500, "height": 1000}}


@pytest.fixture(scope="session", autouse=True)
def _patient_expectations() -> None:
    """Every ``expect`` waits as long as a first render may take on a loaded 2-core machine (the default 5 s does
    not), so a slow machine is never mistaken for a missing element."""
    from playwright.sync_api import expect

    expect.set_options(timeout=RENDER_TIMEOUT_MS)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PortTaken(RuntimeError):
    """The port a caller chose for a server was bound by another process first (a parallel worker's server or any
    outgoing connection may take a port between its pick and the bind)."""


def _spawn(app: Path, env: dict[str, str], port: int, extra_args: tuple[str, ...], log) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(app), "--server.headless=true",
         "--server.address=127.0.0.1", f"--server.port={port}", "--server.fileWatcherType=none",
         "--browser.gatherUsageStats=false", *extra_args], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)


def _wait_healthy(proc: subprocess.Popen, url: str, log, timeout: float) -> str | None:
    """None once ``url`` answers its health check; the log tail if the server exited first."""
    deadline = time.monotonic() + timeout
    while True:
        if proc.poll() is not None:
            log.seek(0)
            return log.read()[-3000:]
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as resp:
                if resp.read().strip() == b"ok":
                    return None
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"streamlit did not answer on {url} within {timeout:.0f} s")
        time.sleep(0.2)  # polling a server we started, not synchronising the test


@contextmanager
def start_streamlit(env: dict[str, str], app: Path = ROOT / "app.py", *, port: int | None = None,
                    extra_args: tuple[str, ...] = (), start_timeout: float = SERVER_START_TIMEOUT) -> Iterator[str]:
    """Serve ``app`` on 127.0.0.1:``port`` (default: a free one) with ``env`` and extra ``streamlit run``
    options; yield its URL once it answers (within ``start_timeout`` seconds); always stop it.  A free port taken
    by a parallel test worker between the pick and the bind gets a new pick; a port the caller chose raises
    ``PortTaken`` (the caller picks again)."""
    log = tempfile.NamedTemporaryFile("w+", prefix="streamlit-", suffix=".log", delete=False)
    proc: subprocess.Popen | None = None
    try:
        for attempt in range(3 if port is None else 1):
            chosen = port or free_port()
            url = f"http://127.0.0.1:{chosen}"
            log.seek(0)
            log.truncate()
            proc = _spawn(app, env, chosen, extra_args, log)
            died = _wait_healthy(proc, url, log, start_timeout)
            if died is None:
                break
            if f"Port {chosen} is not available" in died:
                if port is None and attempt < 2:
                    continue
                raise PortTaken(f"port {chosen} was taken before streamlit could bind it:\n{died}")
            raise RuntimeError(f"streamlit exited with {proc.returncode}:\n{died}")
        yield url
    finally:
        if proc is not None:
            proc.terminate()
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)
        log.close()
        os.unlink(log.name)


@pytest.fixture(scope="session")
def streamlit_env(seeded_data_dir, tmp_path_factory) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in _CLEARED}
    env |= {"DATA_DIR": str(seeded_data_dir),
            "CALIBRATION_COPILOT_SECRETS": str(tmp_path_factory.mktemp("e2e") / "no-secrets.toml"),
            "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)}
    return env


@pytest.fixture(scope="session")
def small_streamlit_env(streamlit_env, small_seeded_data_dir) -> dict[str, str]:
    """``streamlit_env`` on the root's small store (one 64-qubit chip, 4 days): for a fresh server whose test
    asks how it starts, not what the demo's data says (the start-up index build reads a seventh as much)."""
    return streamlit_env | {"DATA_DIR": str(small_seeded_data_dir)}


@pytest.fixture(scope="session")
def demo_db(seeded_data_dir):
    """The demo (the root's seed and "now") as this worker's seeded store holds it, opened once per worker and
    read with pymongo calls: the documents the browser tests' servers start from.  Stands in for the root's
    in-memory copy, whose seeding costs about 11 s of CPU per worker against about 3 s to open the store.  Treat
    it as READ-ONLY."""
    from copilot_core.data.connection import open_database
    from copilot_core.settings import Settings

    db = open_database(Settings(data_dir=seeded_data_dir))
    yield db
    db.close()


@pytest.fixture(scope="session")
def figure_dir(demo_db, tmp_path_factory) -> Path:
    """The lab's fit figures (Plotly JSON, QDash's file layout) of qubit ``FIGURE_QUBIT``, drawn from its task
    results in the seeded store: ``copilot_server`` serves them as its CALIB_DATA_DIR."""
    from copilot_core.demo.figures import write_demo_figures
    from copilot_core.figures import FigureRoot

    calib = tmp_path_factory.mktemp("calib-e2e")
    chip, qid = FIGURE_QUBIT
    rows = list(demo_db["task_result_history"].find({"chip_id": chip, "qid": qid}, {"_id": 0}))
    assert write_demo_figures(rows, FigureRoot(calib)) > 0
    return calib


def _unscripted(req: SmartRequest) -> Step:
    return error(400, "scripted server: no module has scripted this model")


@dataclass
class CopilotServer:
    """A running app (``url``) whose model is ``model``, a scripted server a module scripts in turn."""

    url: str
    model: ScriptedOpenAI


@pytest.fixture(scope="session")
def copilot_server(streamlit_env: dict[str, str], figure_dir: Path, tmp_path_factory) -> Iterator[CopilotServer]:
    """This worker's one long-lived app: the dashboard tests' ``app_url`` and the app of every module that scripts
    the copilot's model, so a server start and the embedded store's index build are paid once per worker.  On a
    private copy of the demo (the chats and memory it writes stay out of the store fresh servers read), with one
    qubit's fit figures.  Served as ``make run`` and the container serve it (``server.py``): the index build
    happens before the server answers (so the start may take as long as a first render) and its heap is then
    out of the garbage collector's walks, which under a plain ``app.py`` cost about 0.5 s of CPU per script
    run."""
    if not HAVE_CHROMIUM:
        pytest.skip("chromium missing")
    data_dir = tmp_path_factory.mktemp("copilot-e2e") / "data"
    shutil.copytree(streamlit_env["DATA_DIR"], data_dir)
    env = {k: v for k, v in streamlit_env.items() if k not in ("OPENAI_API_KEY", "COPILOT_API_STYLE")}
    with ScriptedOpenAI(smart=_unscripted) as model:
        env |= {"DATA_DIR": str(data_dir), "TRACE_DIR": str(data_dir.parent / "traces"), "USERNAME": "e2e-user",
                "OPENAI_BASE_URL": model.base_url, "COPILOT_MODEL": "scripted-model",
                "CALIB_DATA_DIR": str(figure_dir),
                # the hostile chart corpus arrives as one answer of 14 charts, far over a CPU model's round cap
                "COPILOT_LOCAL_ROUND_TOKENS": "none"}
        with start_streamlit(env, app=ROOT / "server.py", start_timeout=RENDER_TIMEOUT_MS / 1000) as url:
            yield CopilotServer(url, model)


@pytest.fixture(scope="session")
def app_url(copilot_server: CopilotServer) -> str:
    """The dashboard on the seeded demo (``copilot_server``'s app; its model answers nothing until scripted)."""
    return copilot_server.url


def _answers_the_readiness_probe(smart: Callable[[SmartRequest], Step | None]) -> Callable[[SmartRequest], Step | None]:
    """``smart`` behind the readiness probe's two requests: the app probes once per process, so whichever module
    asks first must not decide the tool set of the others."""

    def reply(req: SmartRequest) -> Step | None:
        if req.tool_names == ["report_number"]:
            return call("report_number", {"value": 42})
        if req.system_text.startswith("You are a test harness."):
            return answer("The probe worked.")
        return smart(req)

    return reply


@contextmanager
def scripted_app(server: CopilotServer, smart: Callable[[SmartRequest], Step | None]) -> Iterator[str]:
    """``server``'s model answers with ``smart`` until the block ends; yields the app's URL."""
    server.model.smart = _answers_the_readiness_probe(smart)
    try:
        yield server.url
    finally:
        server.model.smart = _unscripted


def app_button(scope, name: str, *, exact: bool = False):
    """The app's own button named ``name``: a Streamlit button element, never a widget's internal control (a
    selectbox's toggle is a button whose accessible name is "Open"); ``exact`` matches the whole name, not a
    part of it."""
    own = scope.locator('[data-testid^="stBaseButton"]')
    return scope.get_by_role("button", name=name, exact=exact).and_(own)


def wait_idle(page, timeout: int = RENDER_TIMEOUT_MS) -> None:
    """Wait until Streamlit finished the current script run (stApp's data-test-script-state).  A locator wait,
    not ``expect``: a failed ``expect`` poll snapshots the page's accessibility tree, CPU a loaded machine lacks."""
    page.locator('[data-testid="stApp"][data-test-script-state="notRunning"]').wait_for(state="attached",
                                                                                       timeout=timeout)


def open_page(page, link_text: str, heading: str | None = None) -> None:
    """Switch pages by the sidebar link, as a user does (page.goto would start a new session), and wait
    for the page's heading (the run state may still read "notRunning" just after the click)."""

    page.get_by_test_id("stSidebarNavLink").filter(has_text=link_text).first.click()
    page.get_by_role("heading", name=heading or link_text).first.wait_for(timeout=RENDER_TIMEOUT_MS)
    wait_idle(page)


def open_copilot(page, url: str | None = None) -> None:
    """Open ``url`` (when given), then the Copilot page through the sidebar: the same session, as a user goes."""
    if url is not None:
        page.goto(url)
        wait_idle(page)
    page.get_by_test_id("stSidebarNavLink").filter(has_text="Copilot").filter(has_not_text="memory").click()
    page.get_by_role("heading", name="Copilot").first.wait_for(timeout=RENDER_TIMEOUT_MS)
    wait_idle(page)


def open_link(page, address: str, heading: str) -> None:
    """Open ``address`` (a shared link, a new session) and wait for the run that draws ``heading`` to finish.  The
    heading first, then the run state: right after ``goto`` the state still reads "notRunning" from before the
    first run, and a deep link to a fresh server runs its page twice (``ui.navigation.through_app``)."""
    page.goto(address)
    page.get_by_role("heading", name=heading).first.wait_for(timeout=RENDER_TIMEOUT_MS)
    wait_idle(page)


def open_copilot_link(page, url: str) -> None:
    """Open the Copilot page by its own address (a shared link): one page run, not the Overview's first."""
    open_link(page, f"{url.rstrip('/')}/copilot", "Copilot")


def ask_on_copilot_page(page, url: str, question: str, timeout_ms: int = RENDER_TIMEOUT_MS):
    """Open the app, go to the Copilot page through the sidebar (same session) and ask; the answer message."""
    open_copilot(page, url)
    return _ask(page, question, timeout_ms)


def ask_at_copilot_link(page, url: str, question: str, timeout_ms: int = RENDER_TIMEOUT_MS):
    """Open the Copilot page by its address and ask; the answer message (for tests of what an answer shows,
    not of how a user reaches the page)."""
    open_copilot_link(page, url)
    return _ask(page, question, timeout_ms)


def _ask(page, question: str, timeout_ms: int):
    from playwright.sync_api import expect

    box = page.get_by_test_id("stChatInputTextArea")
    box.fill(question)
    box.press("Enter")
    messages = page.get_by_test_id("stChatMessage")
    expect(messages).to_have_count(2, timeout=timeout_ms)
    return messages.nth(1)


def click_df_row(page, row: int, nth: int = 0, header_h: int = 35, row_h: int = 35) -> None:
    """Tick the row-marker checkbox of ``row`` in the ``nth`` st.dataframe (the grid is a canvas).  Waits for the
    grid itself: a click on the loading skeleton that stands in its place first is lost."""
    table = page.get_by_test_id("stDataFrame").nth(nth)
    table.locator(".dvn-scroller").wait_for(state="attached", timeout=RENDER_TIMEOUT_MS)
    box = table.bounding_box()
    page.mouse.click(box["x"] + 16, box["y"] + header_h + row_h * row + row_h / 2)


def download(page, button: str, folder: Path) -> tuple[str, str]:
    """Click the download button named ``button`` as a user does and save what the browser receives:
    (the file name the browser suggests, the file's text)."""
    target = app_button(page, button)
    target.wait_for(timeout=RENDER_TIMEOUT_MS)
    with page.expect_download(timeout=RENDER_TIMEOUT_MS) as info:
        target.click()
    saved = folder / "downloaded"
    info.value.save_as(saved)
    return info.value.suggested_filename, saved.read_text(encoding="utf-8")


def shot(page, name: str, show=None) -> Path:
    """Screenshot of the viewport (Streamlit scrolls inside its main block) after scrolling ``show`` into view."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    if show is not None:
        show.scroll_into_view_if_needed()
    page.screenshot(path=str(path))
    return path
