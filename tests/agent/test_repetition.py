"""A model that repeats one line over and over is stopped at once, not at the output-token cap.

A small local model once wrote one line of analysis code again and again until the 4,096-token cap (14 minutes on two
cores), and the server then could not parse the call.  The scripted server plays it with a paused step: it streams
the repetition and then waits; only a client that closes the stream lets the test see ``pause.hung_up``.  The answer
is then computed from the data, as for a reply the server could not read; the expected count is a hand-written pymongo
read (``t1_below``).
"""

from __future__ import annotations

import json

import pytest

from copilot_core.agent import AgentRequest, run_copilot
from copilot_core.llm.repetition import REPEATING, repeating
from copilot_core.tools import DataStore, Toolkit
from tests.agent.page_turn import SMALL, page_turn, shown
from tests.agent.test_unreadable_reply import NOTE, QUESTION, computed_right, no_server_text, t1_below
from tests.fakes.scripted_openai import answer, call, paused, text
from tests.public_eval import CHIP

LOOP = "import numpy as np\nvalues = data['t1']\n" + "below = values[values < 30]\n" * 400
PROGRAM = "rows = []\n" + "".join(f"rows.append(('Q{i:02d}', data['t1'][{i}] * {i + 1}))\n" for i in range(64))


@pytest.fixture(scope="module")
def truth(demo_db) -> tuple[list[str], int]:
    return t1_below(demo_db)


def ask_until_hung_up(ask, pause):
    try:
        result = ask()
        assert pause.hung_up.wait(timeout=30), "the client kept reading the stream"
    finally:
        pause.release.set()
    return result


def test_a_call_whose_code_repeats_one_line_is_stopped_and_the_answer_computed(repo, scripted_openai, tmp_path, truth):
    step, pause = paused(call("execute_python_analysis", {"code": LOOP}), after=600)
    scripted_openai.push(step)
    turn = ask_until_hung_up(lambda: page_turn(repo, scripted_openai, tmp_path, QUESTION, SMALL,
                                               {"COPILOT_TOOL_ROUTER": "off"}), pause)
    said = shown(turn)
    assert computed_right(said, truth), said
    assert said.rstrip().endswith(f"_{NOTE}_"), said
    assert turn.result is not None and turn.result.error is None and turn.result.claims == "computed"
    assert scripted_openai.calls_made == 1  # not sampled again: the router's call answered
    assert "below = values" not in said
    no_server_text(said, scripted_openai)


@pytest.mark.parametrize("style", ["chat_completions", "responses"])
def test_either_api_stops_a_repeating_call_while_it_streams(style, repo, scripted_openai, truth):
    step, pause = paused(call("execute_python_analysis", {"code": LOOP}), after=600)
    scripted_openai.push(step)
    result = ask_until_hung_up(lambda: run_copilot(
        AgentRequest(QUESTION, chip_id=CHIP), provider=scripted_openai.provider(style, model=SMALL, timeout_s=30),
        toolkit=Toolkit(repo, store=DataStore()), repo=repo, router=False, stream=lambda _: None), pause)
    assert result.error is None and computed_right(result.answer, truth) and NOTE in result.answer, result.answer


def test_a_text_reply_that_repeats_one_sentence_is_stopped_with_a_clear_message(repo, scripted_openai, tmp_path):
    """No tool found anything and no call of the router's answers the question: the person reads why, not 14
    minutes of one sentence."""
    step, pause = paused(text("Let me check the data. " * 300), after=500)
    scripted_openai.push(step, text("Let me check the data. " * 30))
    turn = ask_until_hung_up(lambda: page_turn(repo, scripted_openai, tmp_path,
                                               "Tell me something interesting about the calibration data.", SMALL,
                                               {"COPILOT_TOOL_ROUTER": "off"}), pause)
    said = shown(turn)
    assert said.startswith(REPEATING) and NOTE not in said, said
    assert turn.result is not None and turn.result.error is not None
    assert scripted_openai.calls_made == 2  # one more sample, as for any reply that could not be read
    assert "Let me check the data. Let me check the data. Let me check" not in said, said


def test_a_long_program_whose_lines_differ_is_read_whole(scripted_openai, repo):
    """64 lines of one pattern with other numbers is a program, not a repetition: the call reaches its tool."""
    scripted_openai.push(call("execute_python_analysis", {"code": PROGRAM}), answer("Done.", "good"))
    result = run_copilot(AgentRequest("Make a table of T1 per qubit.", chip_id=CHIP),
                         provider=scripted_openai.provider("chat_completions", model=SMALL, timeout_s=30),
                         toolkit=Toolkit(repo, store=DataStore()), repo=repo, router=False, stream=lambda _: None)
    assert scripted_openai.disconnects == 0
    assert result.error is None
    replayed = [c["function"]["arguments"] for m in scripted_openai.bodies()[1]["messages"]
                for c in m.get("tool_calls") or []]  # the call as the loop sent it back with its result
    assert len(replayed) == 1 and json.loads(replayed[0])["code"] == PROGRAM


@pytest.mark.parametrize(("written", "expected"), [
    ("x = 1\n" * 100, True),  # 600 characters of one line
    ("x = 1\n" * 60, False),  # 360: under the span
    ("ab" * 240, True),
    ("The T1 of Q05 is 41.2 µs. " * 19, True),  # 494 characters
    ("".join(f"Q{i:02d}: {20 + i * 0.37:.2f} us\n" for i in range(64)), False),
    ("a" * 479, False),
    ("| --- " * 90, True),
    ("intro " + "y = 2\n" * 90, True),  # the repetition is the tail; what came before does not matter
    ("y = 2\n" * 90 + "print(y)\n", False),  # a tail that has moved on
])
def test_which_texts_repeat(written, expected):
    assert repeating(written) is expected
