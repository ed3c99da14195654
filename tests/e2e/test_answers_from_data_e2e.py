"""Answers that come from data, in Chromium with the scripted model (issue 39): a data question the model answers
with no tool call shows "could not look this up", never the model's numbers; a why-question quotes the stored
failure messages; a plot of several qubits over N days is one chart with a line per qubit; What changed's chosen
runs survive a reload through the URL.  Expected values are read from the demo store with pymongo."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime, timedelta

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import RENDER_TIMEOUT_MS, CopilotServer, open_copilot_link, open_link, scripted_app, wait_idle
from tests.fakes.scripted_openai import SmartRequest, answer

CHIP = "64Qv3"
INVENTED = "Coupling health is excellent, 99.1 % everywhere."
WHY_INVENTED = "It failed because of a hardware issue with the readout circuit, 42 operator notes say so."
PLOT_REPLY = "The T1 median of Q21 and Q5 is 45.2 μs, good."


def thin_air(req: SmartRequest):
    """A model that never calls a tool: it invents numbers and reasons."""
    asked = req.user_text
    if "Why did" in asked:
        return answer(WHY_INVENTED)
    if "Plot" in asked:
        return answer(PLOT_REPLY)
    return answer(INVENTED)


@pytest.fixture(scope="module")
def chat_url(copilot_server: CopilotServer) -> Iterator[str]:
    with scripted_app(copilot_server, thin_air) as url:
        yield url


def ask(page: Page, question: str):
    box = page.get_by_test_id("stChatInputTextArea")
    expect(box).to_be_enabled()
    box.fill(question)
    box.press("Enter")
    reply = page.get_by_test_id("stChatMessage").nth(1)
    expect(reply.get_by_text("Done:")).to_have_count(1, timeout=RENDER_TIMEOUT_MS)
    wait_idle(page)
    return reply


def test_a_turn_with_no_tool_call_says_it_could_not_look_it_up(page: Page, chat_url: str) -> None:
    open_copilot_link(page, chat_url)
    reply = ask(page, f"Is the chip {CHIP} healthy enough for tonight's run?")
    expect(reply).to_contain_text("I could not look this up")
    expect(reply).not_to_contain_text("99.1")
    expect(reply).not_to_contain_text("excellent")


def test_a_why_question_quotes_the_stored_failure_message(page: Page, chat_url: str, demo_db) -> None:
    failed = demo_db["task_result_history"].find_one({"chip_id": CHIP, "status": "failed", "qid": {"$regex": r"^\d+$"},
                                                      "message": {"$nin": [None, ""]}}, sort=[("start_at", -1)])
    qid = failed["qid"]
    open_copilot_link(page, chat_url)
    reply = ask(page, f"Why did Q{int(qid):02d}'s tasks fail on {CHIP}?")
    expect(reply).to_contain_text(f"“{failed['message']}”")
    expect(reply).not_to_contain_text("hardware issue")
    expect(reply).not_to_contain_text("operator notes")


def _t1_qubits_with_points(db, days: int) -> dict[str, int]:
    newest = db["execution_history"].find_one({"chip_id": CHIP}, sort=[("start_at", -1)])["start_at"]
    start = datetime(newest.year, newest.month, newest.day) + timedelta(days=1 - days)  # whole UTC days
    counts: dict[str, int] = {}
    for qid in ("5", "21"):
        docs = db["task_result_history"].find({"chip_id": CHIP, "qid": qid, "status": "completed",
                                               "start_at": {"$gte": start}})
        counts[f"Q{int(qid):02d}"] = sum(1 for d in docs if not d.get("excluded")
                                         and "t1" in (d.get("output_parameters") or {}))
    return counts


def test_a_plot_of_several_qubits_over_days_is_one_chart_a_line_each(page: Page, chat_url: str, demo_db) -> None:
    expected = _t1_qubits_with_points(demo_db, 14)
    assert min(expected.values()) > 10, expected  # more than a count of 10 points: a window of days
    open_copilot_link(page, chat_url)
    reply = ask(page, f"Plot the T1 of Q21 and Q5 over the last 14 days on {CHIP}")
    charts = reply.locator(".js-plotly-plot")
    expect(charts).to_have_count(1, timeout=RENDER_TIMEOUT_MS)
    # the points Plotly drew (its full data holds the decoded arrays; the input may keep them base64-encoded)
    lines = charts.first.evaluate("el => Object.fromEntries(el._fullData.map(t => [t.name, t.y ? t.y.length : null]))")
    assert {name: n for name, n in lines.items() if name in expected} == expected, lines


def test_what_changed_runs_survive_a_reload_through_the_url(page: Page, app_url: str, demo_db) -> None:
    runs = [e["execution_id"] for e in demo_db["execution_history"].find({"chip_id": CHIP}, sort=[("start_at", -1)])]
    link = f"{app_url.rstrip('/')}/compare?chip={CHIP}&by=runs&from={runs[4]}&to={runs[2]}"
    open_link(page, link, "What changed")
    main = page.get_by_test_id("stMain")
    expect(main).to_contain_text(f"run {runs[4]}", timeout=RENDER_TIMEOUT_MS)
    expect(main).to_contain_text(f"→ run {runs[2]}")
    assert f"from={runs[4]}" in page.url and f"to={runs[2]}" in page.url
    page.reload()
    wait_idle(page)
    expect(main).to_contain_text(f"run {runs[4]}", timeout=RENDER_TIMEOUT_MS)
    expect(main).to_contain_text(f"→ run {runs[2]}")
    assert re.search(rf"[?&]from={runs[4]}", page.url) and re.search(rf"[?&]to={runs[2]}", page.url)
