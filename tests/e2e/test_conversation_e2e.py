"""The conversation paths of the Copilot page in Chromium, with the scripted model: a stop (typed, follow-up and option
turns) that leaves the chat clean, a streamed answer that never shows tool-call markup and never leaves a second copy
of the previous answer on the page.

The model pauses on an event (never a clock) in the middle of an answer, so the page is looked at while it streams.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import app_button, CopilotServer, open_copilot_link, scripted_app, wait_idle
from tests.fakes.scripted_openai import Pause, SmartRequest, answer, call, paused, text

CHIP = "64Qv3"
FIRST = "The first answer says qubit 5 is fine"
SLOW = "This answer starts streaming and then waits for the stop button forever"
MARKUP = ("Prose before the markup arrives <tool_response>{\"t1\": 99.9}</tool_response> and then the model waits "
          "for the test forever")


class Model:
    """Per question: a tool call, then a plain answer or one paused mid-stream (kept by name for the test)."""

    def __init__(self) -> None:
        self.pauses: dict[str, Pause] = {}

    def paused(self, name: str, step, after: int):
        step, self.pauses[name] = paused(step, after=after)
        return step

    def smart(self, req: SmartRequest):
        asked = req.user_text
        if not req.tool_results and req.has_tools:
            return call("get_qubit_params", {"chip_id": CHIP, "qid": "5"})
        if "first question" in asked:
            return answer(FIRST)
        if "markup question" in asked:
            return self.paused("markup", text(MARKUP), after=12)
        if "stop me" in asked or "Show every parameter of Q05" in asked or "I mean: T2 echo" in asked:
            return self.paused(asked, answer(SLOW), after=16)
        return answer("A fresh answer after the stop.")


@pytest.fixture(scope="module")
def model() -> Iterator[Model]:
    plan = Model()
    yield plan
    for pause in plan.pauses.values():
        pause.release.set()


@pytest.fixture(scope="module")
def chat_url(copilot_server: CopilotServer, model: Model) -> Iterator[str]:
    with scripted_app(copilot_server, model.smart) as url:
        yield url


def ask(page: Page, question: str) -> None:
    box = page.get_by_test_id("stChatInputTextArea")
    expect(box).to_be_enabled()
    box.fill(question)
    box.press("Enter")


def stop_and_see_the_mark(page: Page, reply) -> None:
    """The turn's own Stop button ends it, and the stopped mark is on the page at once (no new question needed)."""
    stop = app_button(page, "Stop")
    expect(stop).to_be_visible()
    stop.click()
    expect(reply).to_contain_text("Stopped by you")
    wait_idle(page)
    expect(page.get_by_text("Finalizing")).to_have_count(0)
    expect(app_button(page, "Stop")).to_have_count(0)


def test_stop_then_ask_again_in_the_same_chat(page: Page, chat_url: str, model: Model,
                                              copilot_server: CopilotServer) -> None:
    open_copilot_link(page, chat_url)
    ask(page, f"stop me while you write about {CHIP}")
    reply = page.get_by_test_id("stChatMessage").nth(1)
    expect(reply).to_contain_text("This answer starts streaming")
    stop_and_see_the_mark(page, reply)
    expect(reply).not_to_contain_text("forever")
    ask(page, f"a new question after the stop on {CHIP}")
    messages = page.get_by_test_id("stChatMessage")
    expect(messages).to_have_count(4)
    expect(messages.nth(3)).to_contain_text("A fresh answer after the stop.")
    expect(messages.nth(1)).to_contain_text("Stopped by you")
    asked_after = [json.dumps(r.body) for r in copilot_server.model.requests
                   if "a new question after the stop" in json.dumps(r.body)]
    assert asked_after, "the new question reached the model"
    # the stopped turn is not fed back as something the copilot said
    assert not [b for b in asked_after if "Stopped by the user" in b or "starts streaming" in b]
    wait_idle(page)


def test_follow_up_and_option_turns_have_the_stop_button(page: Page, chat_url: str, model: Model) -> None:
    open_copilot_link(page, chat_url)
    ask(page, f"first question: how is qubit 5 on {CHIP}?")
    messages = page.get_by_test_id("stChatMessage")
    expect(messages.nth(1)).to_contain_text(FIRST)
    follow_up = app_button(page, "Show every parameter of Q05")
    expect(follow_up).to_be_visible()
    follow_up.click()
    expect(messages.nth(3)).to_contain_text("This answer starts streaming")
    stop_and_see_the_mark(page, messages.nth(3))
    ask(page, f"What is the T2 of qubit 5 on {CHIP}?")  # a bare T2: the copilot asks which one
    option = app_button(page, "T2 echo")
    expect(option).to_be_visible()
    option.click()
    expect(messages.nth(7)).to_contain_text("This answer starts streaming")
    stop_and_see_the_mark(page, messages.nth(7))


def test_streaming_shows_no_markup_and_the_previous_answer_once(page: Page, chat_url: str, model: Model) -> None:
    open_copilot_link(page, chat_url)
    ask(page, f"first question: how is qubit 5 on {CHIP}?")
    messages = page.get_by_test_id("stChatMessage")
    expect(messages.nth(1)).to_contain_text(FIRST)
    wait_idle(page)
    ask(page, f"markup question about {CHIP}")
    expect(messages.nth(3)).to_contain_text("Prose before the markup arrives")
    assert model.pauses["markup"].reached.wait(60)
    expect(messages.nth(3)).not_to_contain_text("tool_response")
    expect(messages.nth(3)).not_to_contain_text("99.9")
    # the first answer is on the page once while the second streams (no stale copy of it or of its parts)
    expect(page.get_by_text(FIRST)).to_have_count(1)
    expect(messages.nth(1).get_by_text("Show work")).to_have_count(1)
    expect(app_button(messages.nth(1), "What changed on")).to_have_count(1)
    expect(messages.nth(1).get_by_text("Done:")).to_have_count(0)  # the finished turn's status is not left over
    model.pauses["markup"].release.set()
    expect(messages.nth(3)).to_contain_text("Done:")
    expect(messages.nth(3)).not_to_contain_text("tool_response")
    expect(page.get_by_text(FIRST)).to_have_count(1)
    wait_idle(page)
