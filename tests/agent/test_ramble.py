"""A small local model that goes on writing after its answer is cut off there, through the real SDK over HTTP.

Qwen2.5-Coder 1.5B once wrote 4,096 tokens after a complete blocks answer (five minutes on two cores); the user
waited for text nobody reads.  The scripted server plays that model with a paused step: it streams the answer and
a long tail, then waits; only a client that closes the stream lets the test see ``pause.hung_up``.
"""

from __future__ import annotations

import json

from tests.agent.conftest import CHART_MARKER

from copilot_core.agent import AgentRequest, run_copilot
from copilot_core.answer.blocks import ChartBlock, TextBlock, answer_text
from copilot_core.llm.stream_read import RAMBLE_PIECES
from tests.fakes.scripted_openai import answer, call, paused, text

ANSWER = "The heatmap shows T1 across 64Qv3."
BLOCKS = json.dumps({"blocks": [{"type": "text", "content": ANSWER, "chart": None}], "assessment": "good"})


def ask(server, toolkit, **kwargs):
    return run_copilot(AgentRequest("What is the median T1?", chip_id="64Qv3"),
                       provider=server.provider("chat_completions", timeout_s=30), toolkit=toolkit, repo=None,
                       **kwargs)


def ask_until_hung_up(server, toolkit, pause):
    """The turn's result, once the client has closed the paused stream (the server never ends it by itself)."""
    try:
        result = ask(server, toolkit)
        assert pause.hung_up.wait(timeout=30), "the client kept reading the stream"
    finally:
        pause.release.set()
    return result


def test_a_reply_that_rambles_after_a_complete_answer_is_cut_and_the_answer_kept(scripted_openai, toolkit):
    tail = " and" * 2000  # the tail alone is 2,000 pieces; the server waits after 400 until the client hangs up
    step, pause = paused(text(f"```json\n{BLOCKS}\n```{tail}"), after=400)
    scripted_openai.push(step)
    result = ask_until_hung_up(scripted_openai, toolkit, pause)
    assert result.error is None
    assert result.answer == ANSWER
    # the output tokens the round counted are the pieces read: the answer's and at most RAMBLE_PIECES + 1 after it
    assert result.usage["output_tokens"] <= len(BLOCKS.split()) + RAMBLE_PIECES + 8


def test_a_reply_that_ends_soon_after_its_answer_is_read_whole(scripted_openai, toolkit):
    scripted_openai.push(text(f"```json\n{BLOCKS}\n```\nHope this helps."))
    result = ask(scripted_openai, toolkit, stream=lambda _: None)
    assert result.answer == ANSWER
    assert scripted_openai.disconnects == 0
    assert result.usage["output_tokens"] > 0  # the server's own count arrived with the last chunk


FAKE_CHART = json.dumps({"data": [[i, 0] for i in range(3000)]})  # what the small model wrote: invented points


def test_a_chart_the_model_starts_after_a_tool_drew_one_is_cut_where_it_begins(scripted_openai, toolkit):
    reply = json.dumps({"blocks": [{"type": "text", "content": ANSWER},
                                   {"type": "chart", "content": None, "chart": json.loads(FAKE_CHART)}]})
    step, pause = paused(text(f"```json\n{reply}\n```"), after=1000)  # the server waits long before the chart ends
    scripted_openai.push(call("generate_chip_heatmap", {"chip_id": "64Qv3", "metric_name": "t1"}), step)
    result = ask_until_hung_up(scripted_openai, toolkit, pause)
    assert result.error is None
    assert answer_text([b for b in result.blocks if isinstance(b, TextBlock)]) == ANSWER
    charts = [b.figure for b in result.blocks if isinstance(b, ChartBlock)]
    assert len(charts) == 1 and charts[0]["data"][0]["name"] == CHART_MARKER  # the tool's chart, drawn once


def test_a_chart_the_model_writes_when_no_tool_drew_one_is_read_whole(scripted_openai, toolkit):
    chart = {"data": [{"type": "bar", "x": ["Q1", "Q2"], "y": [1, 2]}]}
    scripted_openai.push(answer(ANSWER, "good", charts=[chart]))
    result = ask(scripted_openai, toolkit)
    assert scripted_openai.disconnects == 0
    charts = [b.figure for b in result.blocks if isinstance(b, ChartBlock)]
    assert len(charts) == 1 and list(charts[0]["data"][0]["y"]) == [1, 2]
