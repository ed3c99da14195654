"""Browser tests in Debian's chromium: a real ``streamlit run`` server on a free loopback port.

Reusable by every page's e2e tests:

- ``streamlit_env`` (session): the environment of the server: the seeded demo DATA_DIR, no MongoDB URI,
  no secrets file.  Override it in a test module (same name) to add e.g. OPENAI_BASE_URL for a scripted model.
- ``small_streamlit_env`` (session): the same on the small store (one 64-qubit chip over 4 days).
- ``app_url`` (session): starts the server with ``streamlit_env``, waits for ``/_stcore/health``, yields the
  base URL and stops the server.
- ``start_streamlit(env)``: the context manager behind ``app_url`` for tests that need their own server.
- ``wait_idle(page)``, ``open_page(page, title)`` (click the sidebar link: a URL change is a new session),
  ``click_df_row(page, row)``, ``shot(page, name)`` (PNG under test-artifacts/).

Browser tests skip with a reason when chromium is missing, unless REQUIRE_BROWSER=1 (then they fail).
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
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
HAVE_CHROMIUM = Path(CHROMIUM).is_file()
SERVER_START_TIMEOUT = 90.0
RENDER_TIMEOUT_MS = 120_000  # first renders read the database cold on a shared 2-core machine
_CLEARED = ("MONGODB_URI", "MONGO_DB_NAME", "QDASH_PROJECT_ID")


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


def _spawn(app: Path, env: dict[str, str], port: int, extra_args: tuple[str, ...], log) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(app), "--server.headless=true",
         "--server.address=127.0.0.1", f"--server.port={port}", "--server.fileWatcherType=none",
         "--browser.gatherUsageStats=false", *extra_args], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)


def _wait_healthy(proc: subprocess.Popen, url: str, log) -> str | None:
    """None once ``url`` answers its health check; the log tail if the server exited first."""
    deadline = time.monotonic() + SERVER_START_TIMEOUT
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
            raise RuntimeError(f"streamlit did not answer on {url} within {SERVER_START_TIMEOUT:.0f} s")
        time.sleep(0.2)  # polling a server we started, not synchronising the test


@contextmanager
def start_streamlit(env: dict[str, str], app: Path = ROOT / "app.py", *, port: int | None = None,
                    extra_args: tuple[str, ...] = ()) -> Iterator[str]:
    """Serve ``app`` on 127.0.0.1:``port`` (default: a free one) with ``env`` and extra ``streamlit run``
    options; yield its URL; always stop it.  A free port taken by a parallel test worker between the pick and
    the bind gets a new pick (a port the caller chose does not)."""
    log = tempfile.NamedTemporaryFile("w+", prefix="streamlit-", suffix=".log", delete=False)
    proc: subprocess.Popen | None = None
    try:
        for attempt in range(3 if port is None else 1):
            chosen = port or free_port()
            url = f"http://127.0.0.1:{chosen}"
            log.seek(0)
            log.truncate()
            proc = _spawn(app, env, chosen, extra_args, log)
            died = _wait_healthy(proc, url, log)
            if died is None:
                break
            if port is None and f"Port {chosen} is not available" in died and attempt < 2:
                continue
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
def app_url(streamlit_env) -> Iterator[str]:
    if not HAVE_CHROMIUM:
        pytest.skip("chromium missing")
    with start_streamlit(streamlit_env) as url:
        yield url


def wait_idle(page, timeout: int = RENDER_TIMEOUT_MS) -> None:
    """Wait until Streamlit finished the current script run (stApp's data-test-script-state)."""
    from playwright.sync_api import expect

    expect(page.get_by_test_id("stApp")).to_have_attribute("data-test-script-state", "notRunning", timeout=timeout)


def open_page(page, link_text: str, heading: str | None = None) -> None:
    """Switch pages by the sidebar link, as a user does (page.goto would start a new session), and wait
    for the page's heading (the run state may still read "notRunning" just after the click)."""
    from playwright.sync_api import expect

    page.get_by_test_id("stSidebarNavLink").filter(has_text=link_text).first.click()
    expect(page.get_by_role("heading", name=heading or link_text).first).to_be_visible(timeout=RENDER_TIMEOUT_MS)
    wait_idle(page)


def click_df_row(page, row: int, nth: int = 0, header_h: int = 35, row_h: int = 35) -> None:
    """Tick the row-marker checkbox of ``row`` in the ``nth`` st.dataframe (the grid is a canvas)."""
    box = page.get_by_test_id("stDataFrame").nth(nth).bounding_box()
    page.mouse.click(box["x"] + 16, box["y"] + header_h + row_h * row + row_h / 2)


def shot(page, name: str, show=None) -> Path:
    """Screenshot of the viewport (Streamlit scrolls inside its main block) after scrolling ``show`` into view."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    if show is not None:
        show.scroll_into_view_if_needed()
    page.screenshot(path=str(path))
    return path
