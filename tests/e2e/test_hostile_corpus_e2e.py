"""Every chart the allowlist accepts and every hostile answer, drawn by the real copilot page in Chromium.

The scripted model answers "batch: <name>" with a group of corpus answers (one text block each) or with the
accepted hostile charts (plus refused ones, which the page reports as dropped).  Streamlit's own plotly.js and
markdown renderer draw them; every chart is hovered so hover templates are filled in.  The request log may
name no host but 127.0.0.1, and the reply may hold no link (HTML or SVG) off the app.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import CopilotServer, ask_at_copilot_link, scripted_app, wait_idle
from tests.fakes.scripted_openai import SmartRequest, Step, answer, call
from tests.render_safety.corpus import CASES, EXFIL, Case
from tests.render_safety.hostile_answers import ANSWERS
from tests.render_safety.hostile_charts import ACCEPTED, CHARTS, COSTLY
from tests.render_safety.shortcut_answers import SHORTCUT_ANSWERS

TIMEOUT_MS = 120_000
PER_BATCH = 16
TEXTS: tuple[Case, ...] = tuple(c for c in CASES if not c.charts) + ANSWERS
BATCHES: dict[str, tuple[Case, ...]] = {f"answers {i // PER_BATCH}": TEXTS[i:i + PER_BATCH]
                                        for i in range(0, len(TEXTS), PER_BATCH)}
BATCHES |= {f"shortcuts {i // PER_BATCH}": SHORTCUT_ANSWERS[i:i + PER_BATCH]
            for i in range(0, len(SHORTCUT_ANSWERS), PER_BATCH)}
# Refused charts small enough to send: the page shows a note for each instead of a chart.
REFUSED_SENT = tuple(c for c in CHARTS if c.refused and c.name not in COSTLY)


def smart(req: SmartRequest) -> Step:
    if req.tool_names == ["report_number"]:
        return call("report_number", {"value": 42})
    if not req.has_tools:
        return answer("The probe worked.")
    found = re.search(r"batch: (.+)$", req.user_text.strip())
    name = found.group(1) if found else ""
    if name == "charts" and not req.tool_results:  # a chart of data is drawn from a tool's result
        return call("get_chip_summary", {"chip_id": "64Qv3"})
    if name == "charts":
        return answer("Charts follow.", charts=[c.chart for c in ACCEPTED + REFUSED_SENT])
    blocks = [{"type": "text", "content": c.text, "chart": None} for c in BATCHES.get(name, ())]
    return Step("text", text=json.dumps({"blocks": blocks or [{"type": "text", "content": "unknown"}],
                                         "assessment": None}))


@pytest.fixture(scope="module")
def corpus_app_url(copilot_server: CopilotServer) -> Iterator[str]:
    with scripted_app(copilot_server, smart) as url:
        yield url


def _off_app(reply, requested: list[str]) -> tuple[set[str | None], list[str]]:
    """Hosts requested other than 127.0.0.1, and links (HTML ``href`` or SVG ``xlink:href``) off the app."""
    outside = {urlsplit(u).hostname for u in requested if urlsplit(u).scheme not in ("data", "blob")} - {"127.0.0.1"}
    links = reply.locator("a").evaluate_all(
        "els => els.map(e => e.getAttribute('href') || e.getAttribute('xlink:href') || e.href?.baseVal || '')")
    off = [h for h in links if h and urlsplit(h).hostname not in (None, "127.0.0.1")]
    return outside, off


@pytest.mark.parametrize("name", list(BATCHES))
def test_hostile_answers_in_chromium(page: Page, corpus_app_url: str, name: str) -> None:
    requested: list[str] = []
    page.on("request", lambda r: requested.append(r.url))
    reply = ask_at_copilot_link(page, corpus_app_url, f"batch: {name}")
    for case in BATCHES[name]:
        for word in case.words:
            expect(reply).to_contain_text(word, timeout=TIMEOUT_MS)
    wait_idle(page)
    images = reply.locator("img").evaluate_all("els => els.map(e => e.src)")
    assert [src for src in images if urlsplit(src).hostname not in (None, "", "127.0.0.1")] == []
    outside, off = _off_app(reply, requested)
    assert outside == set() and off == [], (outside, off)
    expected_links = sorted(h for c in BATCHES[name] for h in c.app_links if not h.startswith("#"))
    hrefs = reply.locator("a[href]").evaluate_all("els => els.map(e => e.getAttribute('href'))")
    assert sorted(h for h in hrefs if not h.startswith("#")) == expected_links  # "#": Streamlit's heading anchors
    assert EXFIL not in " ".join(requested)


def test_accepted_hostile_charts_in_chromium(page: Page, corpus_app_url: str) -> None:
    requested: list[str] = []
    page.on("request", lambda r: requested.append(r.url))
    reply = ask_at_copilot_link(page, corpus_app_url, "batch: charts")
    plots = reply.locator(".js-plotly-plot")
    expect(plots).to_have_count(len(ACCEPTED), timeout=TIMEOUT_MS)
    expect(reply.get_by_text("A chart written by the model was dropped")).to_have_count(len(REFUSED_SENT))
    wait_idle(page)
    for i in range(len(ACCEPTED)):
        plot = plots.nth(i)
        plot.scroll_into_view_if_needed()
        drag = plot.locator(".nsewdrag")  # a pie has no cartesian drag layer: hover the plot itself
        box = (drag.first if drag.count() else plot).bounding_box()
        assert box is not None
        for fx in (0.25, 0.5, 0.75):  # over the bars: hover and text templates are filled in
            page.mouse.move(box["x"] + box["width"] * fx, box["y"] + box["height"] * 0.9)
    buttons = reply.locator(".js-plotly-plot .updatemenu-button")
    clicked = buttons.count()
    assert clicked >= 3  # the charts' menu buttons: their (name, value) and object args run in plotly.js
    for i in range(clicked):
        buttons.nth(i).scroll_into_view_if_needed()
        buttons.nth(i).click()
    wait_idle(page)
    title = reply.locator(".js-plotly-plot .gtitle").all_text_contents()
    assert any("<img src='/" in t for t in title), title  # the assembled tag is shown as text
    assert any("<a href='//" in t for t in title), title  # entities in a title stay text after plotly.js decodes them
    assert any(t.startswith("T1 <a href='//x'>") for t in title), title  # a (name, value) button set this title
    outside, off = _off_app(reply, requested)
    assert outside == set() and off == [], (outside, off)
    assert EXFIL not in " ".join(requested)
