"""The Copilot page in Chromium: a typed question gets a native chart; "Analyze with copilot" on the Qubits
page opens an analysis answer.  The app runs as a real ``streamlit run`` server whose model is the scripted
OpenAI-compatible server (real HTTP from the app process to this test process).
"""

from __future__ import annotations

import json
import re
import shutil
import threading
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import (
    app_button,
    CopilotServer,
    ask_on_copilot_page,
    click_df_row,
    download,
    open_page,
    scripted_app,
    shot,
    start_streamlit,
    wait_idle,
)
from tests.fakes.scripted_openai import SmartRequest, answer, call, text
from tests.real_llm.conftest import local_llm  # noqa: F401  (the local model server fixture)

CHIP = "64Qv3"
TIMEOUT_MS = 120_000
REAL_TIMEOUT_MS = 1_500_000  # a 1.5B model on two shared cores: minutes per round


REVIEW_GATE = threading.Event()  # a qubit review is answered only once the test has seen the report
REVIEW_GATE.set()


def smart(req: SmartRequest):
    """A capable model: passes the readiness probe, reviews a qubit in analysis mode, else draws a heatmap."""
    if "Reply with exactly three short lines" in req.system_text:
        REVIEW_GATE.wait(TIMEOUT_MS / 1000)
        return text("What is wrong: see the findings of the report (browser test).\nWhat to re-run: nothing")
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


@pytest.fixture(scope="module")
def copilot_env(streamlit_env: dict[str, str], tmp_path_factory) -> dict[str, str]:
    """The e2e environment on a private copy of the demo (chats and memory written here stay here)."""
    data_dir = tmp_path_factory.mktemp("copilot-e2e") / "data"
    shutil.copytree(streamlit_env["DATA_DIR"], data_dir)
    env = {k: v for k, v in streamlit_env.items()
           if k not in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "COPILOT_MODEL", "COPILOT_API_STYLE")}
    return {**env, "DATA_DIR": str(data_dir), "USERNAME": "e2e-user", "TRACE_DIR": str(data_dir.parent / "traces")}


@pytest.fixture(scope="module")
def copilot_app_url(copilot_server: CopilotServer) -> Iterator[str]:
    """The app with the scripted model (real HTTP from the server process to this test process)."""
    with scripted_app(copilot_server, smart) as url:
        yield url


def test_typed_question_gets_a_native_chart(page: Page, copilot_app_url: str) -> None:
    answer_msg = ask_on_copilot_page(page, copilot_app_url, f"Show the T1 heatmap of {CHIP}")
    expect(answer_msg).to_contain_text(f"Median T1 on {CHIP} is", timeout=TIMEOUT_MS)
    expect(answer_msg.get_by_test_id("stPlotlyChart")).to_be_visible(timeout=TIMEOUT_MS)
    expect(answer_msg.locator(".js-plotly-plot .heatmaplayer").first).to_be_attached(timeout=TIMEOUT_MS)
    expect(answer_msg).to_contain_text("Done: 1 tool call")
    wait_idle(page)
    shot(page, "copilot_chat_chart", show=answer_msg.get_by_test_id("stPlotlyChart"))


def test_the_chat_downloads_hold_the_answer_shown(page: Page, copilot_app_url: str, tmp_path) -> None:
    """The notebook and the HTML page are written when their button is clicked: both hold the chat as shown."""
    answer_msg = ask_on_copilot_page(page, copilot_app_url, f"Show the T1 heatmap of {CHIP}")
    expect(answer_msg.get_by_test_id("stPlotlyChart")).to_be_visible(timeout=TIMEOUT_MS)
    wait_idle(page)
    shown = re.search(rf"Median T1 on {CHIP} is ([0-9.]+) μs", answer_msg.inner_text())
    assert shown is not None
    name, html = download(page, "Download as HTML", tmp_path)
    assert name.endswith(".html") and html.lstrip().lower().startswith("<!doctype html")
    assert f"Median T1 on {CHIP} is {shown[1]} μs" in html and f"Show the T1 heatmap of {CHIP}" in html
    assert html.count("Plotly.newPlot(\"chart-") == 1  # the answer's chart, drawn when the file opens
    name, notebook = download(page, "Download as notebook", tmp_path)
    cells = json.loads(notebook)["cells"]
    assert name.endswith(".ipynb")
    sources = ["".join(c["source"]) for c in cells]
    number = shown[1].replace(".", "\\.")  # the notebook's markdown escapes punctuation
    assert any(s.startswith("**Answer:**") and f"Median T1 on {CHIP} is {number} μs" in s for s in sources)
    assert any(s.startswith("outcome = run_tool('generate_chip_heatmap'") and CHIP in s for s in sources)


def test_analyze_with_copilot_from_the_qubits_table(page: Page, copilot_app_url: str) -> None:
    page.goto(copilot_app_url)
    wait_idle(page)
    open_page(page, "Qubits")
    expect(page.get_by_test_id("stDataFrame").first).to_be_visible(timeout=TIMEOUT_MS)
    click_df_row(page, 3)  # the row-marker checkbox of the 4th qubit
    # the run the tick starts ends with the health report: the button is clicked on a settled page (a click while
    # that run still draws can land on a moving layout on a loaded machine)
    expect(page.get_by_test_id("stMain")).to_contain_text("neighbours are the nearest qubits", timeout=TIMEOUT_MS)
    wait_idle(page)
    button = app_button(page, "Analyze with copilot")
    expect(button).to_be_enabled(timeout=TIMEOUT_MS)
    REVIEW_GATE.clear()  # the model holds its review until the report has been seen
    try:
        button.click()
        messages = page.get_by_test_id("stChatMessage")
        expect(messages).to_have_count(2, timeout=TIMEOUT_MS)
        expect(messages.nth(0)).to_contain_text("Analyze Q")
        asked = re.search(r"Analyze Q(\d+) on chip (\S+?):", messages.nth(0).inner_text())
        assert asked, messages.nth(0).inner_text()
        label = re.compile(rf"Q{asked.group(1)} on {asked.group(2)}")
        expect(messages.nth(1).get_by_role("heading", name=label)).to_be_visible(timeout=TIMEOUT_MS)
        expect(messages.nth(1)).to_contain_text("The model's review of this report follows.")
        expect(messages.nth(1)).not_to_contain_text("Review of")  # the model has not answered yet
    finally:
        REVIEW_GATE.set()
    expect(messages.nth(1)).to_contain_text("see the findings of the report (browser test)", timeout=TIMEOUT_MS)
    expect(messages.nth(1).get_by_role("heading", name=label)).to_be_visible()  # the report stays first
    sidebar = page.get_by_test_id("stSidebar")
    expect(sidebar).to_contain_text(re.compile(rf"Qubit:\s*Q0*{asked.group(1)}(?!\d)"))  # Q03 / Q003 by chip size
    expect(sidebar).to_contain_text(asked.group(2))
    wait_idle(page)
    shot(page, "copilot_analysis")


@pytest.mark.real_llm
@pytest.mark.timeout(1800)
def test_real_local_model_answers_in_the_browser(page: Page, local_llm: dict, copilot_env: dict) -> None:  # noqa: F811
    """The same chat with the local 1.5B model: it may word the answer its own way, but the heatmap is drawn."""
    with start_streamlit({**copilot_env, **local_llm["env"], "USERNAME": "e2e-real-model"}) as url:
        answer_msg = ask_on_copilot_page(page, url, f"Show the T1 heatmap of chip {CHIP}", timeout_ms=REAL_TIMEOUT_MS)
        work = answer_msg.get_by_test_id("stExpander").filter(has_text="Show work")
        expect(work).to_be_visible(timeout=REAL_TIMEOUT_MS)  # an answer with show-work
        wait_idle(page, REAL_TIMEOUT_MS)
        expect(page.get_by_test_id("stException")).to_have_count(0)
        # The turn must have succeeded: a model or API error ends as "Stopped with a problem", never "Done".
        expect(answer_msg).not_to_contain_text("Stopped with a problem")
        expect(answer_msg).to_contain_text("Done:")
        assert answer_msg.inner_text().strip()
        work.click()
        expect(work).to_contain_text("rounds")
        # the question asks for a heatmap: the tool ran and its chart is in the answer, whatever the wording
        expect(work).to_contain_text(re.compile(r"generate_chip_heatmap\s*· ok"))
        expect(answer_msg.get_by_test_id("stPlotlyChart").first).to_be_visible()
        expect(answer_msg).to_contain_text(re.compile(r"T1|t1"))
        shot(page, "copilot_real_model", show=answer_msg)
        page.close()  # the session ends before the server stops (an open one holds its shutdown)
