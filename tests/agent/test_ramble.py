"""A small local model that goes on writing after its answer is cut off there, through the real SDK over HTTP.

Qwen2.5-Coder 1.5B once wrote 4,096 tokens after a complete blocks answer (five minutes on two cores); the user
waited for text nobody reads.  The scripted server plays that model with a paused step: it streams the answer and
a long tail, then waits; only a client that closes the stream lets the test see ``pause.hung_up``.
"""

from __future__ import annotations

import json

from copilot_core.agent import AgentRequest, run_copilot
from copilot_core.agent.models import RAMBLE_PIECES
from tests.fakes.scripted_openai import paused, text

ANSWER = "The median T1 of 64Qv3 is 59.9 μs."
BLOCKS = json.dumps({"blocks": [{"type": "text", "content": ANSWER, "chart": None}], "assessment": "good"})


def ask(server, toolkit, **kwargs):
    return run_copilot(AgentRequest("What is the median T1?", chip_id="64Qv3"),
                       provider=server.provider("chat_completions", timeout_s=30), toolkit=toolkit, repo=None,
                       **kwargs)


def test_a_reply_that_rambles_after_a_complete_answer_is_cut_and_the_answer_kept(scripted_openai, toolkit):
    tail = " and" * 2000  # the tail alone is 2,000 pieces; the server waits after 400 until the client hangs up
    step, pause = paused(text(f"```json\n{BLOCKS}\n```{tail}"), after=400)
    scripted_openai.push(step)
    try:
        result = ask(scripted_openai, toolkit)
        assert pause.hung_up.wait(timeout=30), "the client kept reading after the answer was complete"
    finally:
        pause.release.set()
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
