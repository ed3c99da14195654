"""Hostile answers in Chromium: the real ``streamlit run`` server, its model the scripted server answering
with cases from the hostile corpus.  Every request the browser makes is logged; none may go to a host other
than 127.0.0.1, no image or outside link may be in the answer, and the answer's words stay readable."""

from __future__ import annotations

import re
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import CopilotServer, ask_at_copilot_link, scripted_app, wait_idle
from tests.fakes.scripted_openai import SmartRequest, answer, call
from tests.render_safety.corpus import BROWSER_CASES, CASES, EXFIL

TIMEOUT_MS = 120_000
BY_NAME = {c.name: c for c in CASES}


def smart(req: SmartRequest):
    """Answer the question "case: <name>" with that case's hostile answer."""
    if req.tool_names == ["report_number"]:
        return call("report_number", {"value": 42})
    if not req.has_tools:
        return answer("The probe worked.")
    found = re.search(r"case: (.+)$", req.user_text.strip())
    case = BY_NAME[found.group(1)] if found else None
    if case is not None and case.charts and not req.tool_results:  # a chart of data is drawn from a tool's result
        return call("get_chip_summary", {"chip_id": "64Qv3"})
    return answer(case.text, charts=case.charts) if case else answer("unknown case")


@pytest.fixture(scope="module")
def hostile_app_url(copilot_server: CopilotServer) -> Iterator[str]:
    with scripted_app(copilot_server, smart) as url:
        yield url


@pytest.mark.parametrize("name", BROWSER_CASES)
def test_hostile_answer_in_chromium(page: Page, hostile_app_url: str, name: str) -> None:
    case = BY_NAME[name]
    requested: list[str] = []
    page.on("request", lambda r: requested.append(r.url))
    reply = ask_at_copilot_link(page, hostile_app_url, f"case: {name}")
    for word in case.words:
        expect(reply).to_contain_text(word, timeout=TIMEOUT_MS)
    wait_idle(page)
    if case.charts and not case.chart_withheld:
        expect(reply.locator(".js-plotly-plot")).to_have_count(len(case.charts), timeout=TIMEOUT_MS)
    if case.chart_withheld:
        expect(reply.locator(".js-plotly-plot")).to_have_count(0)

    images = reply.locator("img").evaluate_all("els => els.map(e => e.src)")
    assert [src for src in images if urlsplit(src).hostname not in (None, "", "127.0.0.1")] == []
    links = reply.locator("a[href]").evaluate_all("els => els.map(e => e.href)")
    assert [h for h in links if urlsplit(h).hostname != "127.0.0.1"] == []
    assert len(links) == len(case.app_links)
    outside = {urlsplit(u).hostname for u in requested if urlsplit(u).scheme not in ("data", "blob")} - {"127.0.0.1"}
    assert outside == set(), f"requests left for {outside}"
    assert EXFIL not in " ".join(requested)
