"""Streamed answers and the stop button, through the real openai SDK over real HTTP, on both APIs.

The scripted server streams word pieces; a paused step is a slow model that waits (on an event, not a clock) until
the test stops the turn or releases it.
"""

from __future__ import annotations

import json
import threading

from tests.agent.conftest import T1_VALUE

from copilot_core.agent import AgentRequest, run_copilot
from copilot_core.answer.blocks import TextBlock
from copilot_core.checking.left_out import NOT_ANSWERED
from copilot_core.checking.marks import LEFT_OUT
from copilot_core.llm.streaming import draft_text
from copilot_core.cancel import STOPPED_MESSAGE, CancelToken
from tests.fakes.scripted_openai import answer, call, paused

ANSWER = "Qubit 5 has T1 42.5 μs, which is healthy."


def run(server, style, toolkit, timeout_s=5.0, **kwargs):
    return run_copilot(AgentRequest("How is qubit 5?", chip_id="64Qv3"),
                       provider=server.provider(style, timeout_s=timeout_s), toolkit=toolkit, repo=None, **kwargs)


def test_answer_text_streams_in_order_and_matches_the_final_answer(scripted_openai, style, toolkit):
    scripted_openai.push(call("get_qubit_params", {"chip_id": "64Qv3", "qid": "5"}), answer(ANSWER, "good"))
    seen: list[str] = []
    result = run(scripted_openai, style, toolkit, stream=seen.append)
    assert result.error is None and not result.stopped
    assert result.answer == ANSWER
    assert all(b.get("stream") is True for b in scripted_openai.bodies())
    updates = [s for s in seen if s]
    # the answer grows word by word: several updates, each a prefix of the next, the last one the whole answer
    assert len(updates) >= len(ANSWER.split()) - 1
    assert all(later.startswith(earlier) for earlier, later in zip(updates, updates[1:]))
    assert updates[-1] == ANSWER
    assert not any("{" in s or '"blocks"' in s for s in updates)  # JSON punctuation never reaches the reader
    assert result.unverified_numbers == []  # 42.5 is in the tool result; checked once the stream ended


def test_a_sentence_with_an_unsupported_number_is_left_out_after_the_stream(scripted_openai, style, toolkit):
    scripted_openai.push(call("get_qubit_params", {"chip_id": "64Qv3", "qid": "5"}),
                         answer(f"T1 is {T1_VALUE} μs and T2 is 77.7 μs."))
    result = run(scripted_openai, style, toolkit, stream=lambda _: None)
    # its one sentence is left out, and no tool wrote a sentence of its own: a plain "not answered", not a mark alone
    assert "77.7" not in result.answer and result.answer == NOT_ANSWERED
    assert result.unverified_numbers == []


def test_stop_during_a_streamed_answer_keeps_the_partial_text(scripted_openai, style, toolkit):
    slow, pause = paused(answer("Qubit 5 looks healthy today and nothing else matters"), after=9)
    scripted_openai.push(call("get_qubit_params", {"chip_id": "64Qv3", "qid": "5"}), slow)
    cancel = CancelToken()
    seen: list[str] = []
    on_screen = threading.Event()

    def show(draft: str) -> None:
        seen.append(draft)
        if "looks" in draft:
            on_screen.set()

    box: dict = {}
    # a read timeout far beyond the join below: only the stop itself can end the blocked read in time
    worker = threading.Thread(target=lambda: box.update(result=run(scripted_openai, style, toolkit, timeout_s=600,
                                                                   stream=show, cancel=cancel)))
    worker.start()
    assert on_screen.wait(30), "the slow model's first words never arrived"
    assert pause.reached.wait(30)  # the server holds the rest back (it may set this just after the client shows "looks")
    cancel.cancel()
    worker.join(60)
    assert not worker.is_alive(), "stopping did not end the model call"
    result = box["result"]
    assert result.stopped and result.error == STOPPED_MESSAGE
    shown = result.blocks[0].text if isinstance(result.blocks[0], TextBlock) else ""
    assert seen[-1].startswith("Qubit 5 looks") and seen[-1] in shown  # what was on screen is kept
    assert "matters" not in shown  # nothing the model would have written after the stop
    assert "qubit 5: t1 42.5" in shown  # the tool result shown before the stop is kept too
    assert len(scripted_openai.requests) == 2  # no retry, no finalize call after a stop
    assert pause.hung_up.wait(60)  # the connection to the model was closed


def test_a_stopped_draft_is_checked_like_any_answer(scripted_openai, style, toolkit):
    """The stream ends after a complete sentence with a number no tool result holds: what stays on the page after
    the stop has that sentence left out, like a finished answer would."""
    slow, pause = paused(answer(f"Qubit 5 has T1 {T1_VALUE} μs. Its T2 echo is 777.7 μs, which is excellent. More "
                                "words follow here"), after=24)
    scripted_openai.push(call("get_qubit_params", {"chip_id": "64Qv3", "qid": "5"}), slow)
    cancel = CancelToken()
    on_screen = threading.Event()

    def show(draft: str) -> None:
        if "excellent" in draft:
            on_screen.set()

    box: dict = {}
    worker = threading.Thread(target=lambda: box.update(result=run(scripted_openai, style, toolkit, timeout_s=600,
                                                                   stream=show, cancel=cancel)))
    worker.start()
    assert on_screen.wait(30), "the draft never reached the wrong sentence"
    assert pause.reached.wait(30)
    cancel.cancel()
    worker.join(60)
    assert not worker.is_alive()
    shown = box["result"].blocks[0].text
    assert f"Qubit 5 has T1 {T1_VALUE} μs." in shown and LEFT_OUT in shown
    assert "777.7" not in shown and "excellent" not in shown


def test_stop_before_a_plain_call_returns_without_asking_the_model(scripted_openai, style, toolkit):
    cancel = CancelToken()
    cancel.cancel()
    result = run(scripted_openai, style, toolkit, cancel=cancel)
    assert result.stopped and scripted_openai.requests == []


def test_draft_text_reads_blocks_json_as_it_arrives():
    full = json.dumps({"blocks": [{"type": "text", "content": "Line \"one\"\nA\u00e9 [x](", "chart": None}]})
    drafts = [draft_text(full[:n]) for n in range(len(full) + 1)]
    assert drafts[-1] == "Line \"one\"\nA\u00e9 [x]("
    assert all(d == "" or drafts[-1].startswith(d) for d in drafts)
    assert draft_text('<tool_call>{"name": "get_qubit_params", "argu') == ""
    assert draft_text('{"name": "get_qubit_params", "arguments": {"qid": "5"}}') == ""
    assert draft_text("Plain **markdown**") == "Plain **markdown**"


MARKUP_REPLY = ("Qubit 5 has T1 42.5 μs. <tool_response>{\"qid\": \"5\", \"t1\": 99.9}</tool_response> "
                "<tool_call>{\"name\": \"lookup_all\", \"arguments\": {\"qid\": \"6\"}}</tool_call>")


def test_tool_call_markup_never_streams_and_never_stays_in_the_answer(scripted_openai, style, toolkit):
    """A small model writes prose, then an invented ``<tool_response>`` and a call as text: the reader sees the prose
    only, while it streams and in the answer."""
    from tests.fakes.scripted_openai import text

    scripted_openai.push(call("get_qubit_params", {"chip_id": "64Qv3", "qid": "5"}), text(MARKUP_REPLY))
    seen: list[str] = []
    result = run(scripted_openai, style, toolkit, stream=seen.append)
    assert [s for s in seen if s], "the prose streamed"
    assert not [s for s in seen if "<" in s or "99.9" in s or "tool_" in s]
    assert "Qubit 5 has T1 42.5 μs." in result.answer
    assert "<" not in result.answer and "99.9" not in result.answer and "tool_" not in result.answer


def test_draft_text_hides_markup_at_every_prefix():
    """Whatever part of the reply has arrived, no character of a tag (even one still arriving) is shown."""
    drafts = [draft_text(MARKUP_REPLY[:n]) for n in range(len(MARKUP_REPLY) + 1)]
    assert not [d for d in drafts if "<" in d or "tool" in d]
    assert drafts[-1].strip() == "Qubit 5 has T1 42.5 μs."
    assert draft_text("T1 < 50 μs is low") == "T1 < 50 μs is low"  # a less-than sign in prose stays
