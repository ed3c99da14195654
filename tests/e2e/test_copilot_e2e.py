"""The Copilot page in Chromium: a typed question gets a native chart; "Analyze with copilot" on the Qubits
page opens an analysis answer.  The app runs as a real ``streamlit run`` server whose model is the scripted
OpenAI-compatible server (real HTTP from the app process to this test process).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.fakes.scripted_openai import ScriptedOpenAI, SmartRequest, answer, call
from tests.real_llm.conftest import local_llm  # noqa: F401  (L's session fixture: the local model server)

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = ROOT / "test-artifacts"
CHIP = "64Qv3"
TIMEOUT_MS = 60_000
REAL_TIMEOUT_MS = 600_000  # a 1.5B model on two shared cores: minutes per answer

if not Path(CHROMIUM).exists():
    if os.environ.get("REQUIRE_BROWSER") == "1":
        raise RuntimeError(f"REQUIRE_BROWSER=1 but {CHROMIUM} is missing (run `make browser`)")
    pytest.skip(f"{CHROMIUM} is missing (install Debian's chromium: `make browser`)", allow_module_level=True)

from playwright.sync_api import Page, expect  # noqa: E402  (after the skip: needs the browser)


def smart(req: SmartRequest):
    """A capable model: passes the readiness probe, reviews a qubit in analysis mode, else draws a heatmap."""
    if req.tool_names == ["report_number"]:
        return call("report_number", {"value": 42})
    if not req.has_tools:
        return answer("The probe worked.")
    if "## AI review" in req.system_text:
        if not req.tool_results:
            chip_id, qid = _target(req.system_text)
            return call("get_qubit_params", {"chip_id": chip_id, "qid": qid})
        return answer("**AI review**\n- Decision: PASS\n- Human label: CORRECT\n- Primary reason: parameters "
                      "within thresholds (browser test)", "good")
    if not req.tool_results:
        return call("generate_chip_heatmap", {"chip_id": CHIP, "metric_name": "t1"})
    stats = json.loads(req.tool_results[-1].output)["stats"]
    return answer(f"Median T1 on {CHIP} is {stats['median']} μs (browser test).", "good")


def _target(system: str) -> tuple[str, str]:
    """The (chip, qubit) the analysis prompt is about."""
    found = re.search(r"qubit (\d+) on chip ([A-Za-z0-9_-]+)", system)
    return (found.group(2), found.group(1)) if found else (CHIP, "0")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def scripted_model() -> Iterator[ScriptedOpenAI]:
    with ScriptedOpenAI(smart=smart) as server:
        yield server


@contextmanager
def streamlit_app(data_dir: Path, model_env: dict[str, str]) -> Iterator[str]:
    """``streamlit run app.py`` on a loopback port with this data dir and model; yields the URL."""
    port = _free_port()
    env = {k: v for k, v in os.environ.items()
           if k not in ("MONGODB_URI", "QDASH_PROJECT_ID", "OPENAI_API_KEY", "OPENAI_BASE_URL", "COPILOT_MODEL",
                        "COPILOT_API_STYLE")}
    env.update(DATA_DIR=str(data_dir), CALIBRATION_COPILOT_SECRETS=str(data_dir.parent / "no-secrets.toml"),
               USERNAME="e2e-user", TRACE_DIR=str(data_dir.parent / "traces"), PYTHONPATH=str(ROOT), **model_env)
    log = (data_dir.parent / f"streamlit-{port}.log").open("w")
    proc = subprocess.Popen([sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless=true",
                             "--server.address=127.0.0.1", f"--server.port={port}", "--server.fileWatcherType=none",
                             "--browser.gatherUsageStats=false"], cwd=ROOT, env=env, stdout=log,
                            stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    try:
        while True:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as resp:
                    if resp.read() == b"ok":
                        break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"streamlit did not start; see {log.name}") from None
                time.sleep(0.2)  # polling a server start-up, not synchronising the test
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture(scope="module")
def e2e_data_dir(seeded_data_dir: Path, tmp_path_factory) -> Path:
    """A private copy of the root demo: chats and memory written here never reach other tests."""
    data_dir = tmp_path_factory.mktemp("copilot-e2e") / "data"
    shutil.copytree(seeded_data_dir, data_dir)
    return data_dir


@pytest.fixture(scope="module")
def copilot_app_url(e2e_data_dir: Path, scripted_model: ScriptedOpenAI) -> Iterator[str]:
    with streamlit_app(e2e_data_dir, {"OPENAI_BASE_URL": scripted_model.base_url,
                                      "COPILOT_MODEL": "scripted-model"}) as url:
        yield url


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {**browser_type_launch_args, "executable_path": CHROMIUM}


def wait_idle(page: Page, timeout_ms: int = TIMEOUT_MS) -> None:
    expect(page.get_by_test_id("stApp")).to_have_attribute("data-test-script-state", "notRunning",
                                                           timeout=timeout_ms)


def ask_on_copilot_page(page: Page, url: str, question: str, timeout_ms: int = TIMEOUT_MS):
    """Open the app, go to the Copilot page through the sidebar (same session) and ask; the answer message."""
    page.set_viewport_size({"width": 1400, "height": 1000})
    page.goto(url)
    wait_idle(page)
    page.get_by_test_id("stSidebarNavLink").filter(has_text="Copilot").filter(has_not_text="memory").click()
    wait_idle(page)
    box = page.get_by_test_id("stChatInputTextArea")
    box.fill(question)
    box.press("Enter")
    messages = page.get_by_test_id("stChatMessage")
    expect(messages).to_have_count(2, timeout=timeout_ms)
    return messages.nth(1)


def test_typed_question_gets_a_native_chart(page: Page, copilot_app_url: str) -> None:
    answer_msg = ask_on_copilot_page(page, copilot_app_url, f"Show the T1 heatmap of {CHIP}")
    expect(answer_msg).to_contain_text(f"Median T1 on {CHIP} is", timeout=TIMEOUT_MS)
    expect(answer_msg.get_by_test_id("stPlotlyChart")).to_be_visible(timeout=TIMEOUT_MS)
    expect(answer_msg.locator(".js-plotly-plot .heatmaplayer").first).to_be_attached(timeout=TIMEOUT_MS)
    expect(answer_msg).to_contain_text("Done: 1 tool call")
    wait_idle(page)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "copilot_chat_chart.png"), full_page=True)


def test_analyze_with_copilot_from_the_qubits_table(page: Page, copilot_app_url: str) -> None:
    import ui.navigation

    assert ui.navigation.COPILOT_PAGE_READY, "ui/navigation.py must set COPILOT_PAGE_READY = True (the page exists)"
    page.set_viewport_size({"width": 1400, "height": 1000})
    page.goto(copilot_app_url)
    wait_idle(page)
    page.get_by_test_id("stSidebarNavLink").filter(has_text="Qubits").click()
    wait_idle(page)
    grid = page.get_by_test_id("stDataFrame").first
    expect(grid).to_be_visible(timeout=TIMEOUT_MS)
    bbox = grid.bounding_box()
    page.mouse.click(bbox["x"] + 16, bbox["y"] + 35 + 35 * 3 + 17)  # row-marker checkbox of the 4th row
    wait_idle(page)
    button = page.get_by_role("button", name="Analyze with copilot")
    expect(button).to_be_enabled(timeout=TIMEOUT_MS)
    button.click()
    messages = page.get_by_test_id("stChatMessage")
    expect(messages).to_have_count(2, timeout=TIMEOUT_MS)
    expect(messages.nth(0)).to_contain_text("Analyze qubit")
    expect(messages.nth(1)).to_contain_text("AI review", timeout=TIMEOUT_MS)
    expect(messages.nth(1)).to_contain_text("Decision: PASS")
    asked = re.search(r"Analyze qubit (\d+) on chip (\S+?):", messages.nth(0).inner_text())
    assert asked, messages.nth(0).inner_text()
    sidebar = page.get_by_test_id("stSidebar")
    expect(sidebar).to_contain_text(f"Q{asked.group(1)}")
    expect(sidebar).to_contain_text(asked.group(2))
    wait_idle(page)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "copilot_analysis.png"), full_page=True)


@pytest.mark.real_llm
def test_real_local_model_answers_in_the_browser(page: Page, local_llm: dict, e2e_data_dir: Path) -> None:
    """The same chat with the local 1.5B model (loose: a small model words and picks tools its own way)."""
    with streamlit_app(e2e_data_dir, {**local_llm["env"], "USERNAME": "e2e-real-model"}) as url:
        answer_msg = ask_on_copilot_page(page, url, f"Show the T1 heatmap of chip {CHIP}", timeout_ms=REAL_TIMEOUT_MS)
        expect(answer_msg.get_by_test_id("stExpander").filter(has_text="Show work")).to_be_visible(
            timeout=REAL_TIMEOUT_MS)
        wait_idle(page, REAL_TIMEOUT_MS)
        expect(page.get_by_test_id("stException")).to_have_count(0)
        text = answer_msg.inner_text()
        assert text.strip()
        answer_msg.get_by_test_id("stExpander").filter(has_text="Show work").click()
        if "generate_chip_heatmap" in answer_msg.inner_text():  # the model drew the heatmap: it must be shown
            expect(answer_msg.get_by_test_id("stPlotlyChart").first).to_be_visible()
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "copilot_real_model.png"), full_page=True)
