"""Streamed answers and the stop button in Chromium: a real ``streamlit run`` server whose model is the scripted
server streaming word pieces, paused (on an event, not a clock) in the middle of the answer.

Every link and image the page ever inserts while the answer streams is recorded by a MutationObserver; none may
point off 127.0.0.1, and the browser may request nothing off 127.0.0.1.
"""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import app_button, CopilotServer, open_copilot_link, scripted_app, wait_idle
from tests.fakes.scripted_openai import Pause, SmartRequest, answer, call, paused

TIMEOUT_MS = 120_000
CHIP = "64Qv3"
# streamed a word at a time (a link is written over several updates), paused just after the bare URL
HOSTILE = ("Streaming words arrive first, then [a link](https://evil.example/steal?d=1) and "
           "https://evil.example/bare and ![img](https://evil.example/p.png) end.")
SLOW = "The answer starts streaming here and then waits for the stop button forever"
RECORD_LINKS = """
window.__seen = [];
new MutationObserver(records => {
  for (const r of records) for (const n of r.addedNodes) {
    if (!(n instanceof Element)) continue;
    for (const el of [n, ...n.querySelectorAll('a[href], img[src]')]) {
      if (el.matches && el.matches('a[href], img[src]')) window.__seen.push(el.href || el.src);
    }
  }
}).observe(document, {subtree: true, childList: true});
"""


class Model:
    """The scripted model's plan: the probe, then per question a paused or plain streamed answer."""

    def __init__(self) -> None:
        self.pauses: dict[str, Pause] = {}

    def smart(self, req: SmartRequest):
        if "hostile" in req.user_text:
            step, self.pauses["hostile"] = paused(answer(HOSTILE), after=14)
            return step
        if "stop me" in req.user_text:
            if not req.tool_results:
                return call("generate_chip_heatmap", {"chip_id": CHIP, "metric_name": "t1"})
            step, self.pauses["stop"] = paused(answer(SLOW), after=10)
            return step
        return answer("A fresh answer after the stop.")


@pytest.fixture(scope="module")
def model() -> Iterator[Model]:
    plan = Model()
    yield plan
    for pause in plan.pauses.values():
        pause.release.set()


@pytest.fixture(scope="module")
def stream_app_url(copilot_server: CopilotServer, model: Model) -> Iterator[str]:
    with scripted_app(copilot_server, model.smart) as url:
        yield url


def ask(page: Page, question: str) -> None:
    box = page.get_by_test_id("stChatInputTextArea")
    box.fill(question)
    box.press("Enter")


def test_a_half_written_hostile_link_is_never_live(page: Page, stream_app_url: str, model: Model) -> None:
    plan = model
    requested: list[str] = []
    page.on("request", lambda r: requested.append(r.url))
    page.add_init_script(RECORD_LINKS)
    open_copilot_link(page, stream_app_url)
    ask(page, "hostile stream please")
    reply = page.get_by_test_id("stChatMessage").nth(1)
    expect(reply).to_contain_text("Streaming words arrive first", timeout=TIMEOUT_MS)  # shown before the end
    expect(reply).not_to_contain_text("end.")
    plan.pauses["hostile"].release.set()
    expect(reply).to_contain_text("Done:", timeout=TIMEOUT_MS)
    wait_idle(page)
    seen = page.evaluate("window.__seen")
    assert [u for u in seen if urlsplit(u).hostname not in (None, "", "127.0.0.1")] == []
    outside = {urlsplit(u).hostname for u in requested if urlsplit(u).scheme not in ("data", "blob")} - {"127.0.0.1"}
    assert outside == set(), f"requests left for {outside}"


def test_stop_button_stops_a_slow_answer_and_the_chat_goes_on(page: Page, stream_app_url: str, model: Model) -> None:
    plan = model
    open_copilot_link(page, stream_app_url)
    ask(page, "stop me while you write")
    reply = page.get_by_test_id("stChatMessage").nth(1)
    expect(reply).to_contain_text("The answer starts streaming", timeout=TIMEOUT_MS)
    stop = app_button(page, "Stop")
    expect(stop).to_be_visible()
    stop.click()
    expect(reply).to_contain_text("Stopped by you", timeout=TIMEOUT_MS)  # at once, before any new question
    wait_idle(page)
    expect(page.get_by_test_id("stChatInputTextArea")).to_be_enabled(timeout=TIMEOUT_MS)
    ask(page, "a new question after the stop")
    messages = page.get_by_test_id("stChatMessage")
    expect(messages).to_have_count(4, timeout=TIMEOUT_MS)
    expect(messages.nth(1)).to_contain_text("Stopped by you", timeout=TIMEOUT_MS)  # redrawn from the saved chat
    expect(messages.nth(1)).to_contain_text("The answer starts streaming")  # what was shown is kept
    expect(messages.nth(1)).not_to_contain_text("forever")
    expect(messages.nth(3)).to_contain_text("A fresh answer after the stop.", timeout=TIMEOUT_MS)
    assert plan.pauses["stop"].hung_up.wait(60)  # the app closed the model's stream at the stop
    wait_idle(page)
