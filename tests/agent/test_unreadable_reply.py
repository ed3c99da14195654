"""A model reply the server could not read (llama.cpp: HTTP 500 "Failed to parse tool call arguments as JSON"), and
any provider failure after the tools found facts: what the person reads, and how many requests the server saw.

Through the page's path (``Copilot.ask``), the CLI and the loop on both APIs, streamed, against the scripted
OpenAI-compatible server over real HTTP.  The expected answer is a hand-written pymongo read of the demo data.
"""

from __future__ import annotations

import json
import math
import socket

import pytest

from copilot_core.agent import AgentRequest, run_copilot
from copilot_core.chat import ChatState
from copilot_core.llm.unreadable import unreadable_reply
from copilot_core.session import Copilot
from copilot_core.settings import load_settings
from copilot_core.skills import SkillLibrary
from copilot_core.tools import DataStore, Toolkit
from tests.agent.page_turn import SMALL, page_turn, shown
from tests.cli import run_main
from tests.fakes.scripted_openai import PARSE_FAILURE, error, text, unparsable
from tests.public_eval import CHIP

QUESTION = "How many qubits on this chip have a T1 below 30 μs?"
LIMIT_US = 30.0
NOTE = "The model's reply could not be read; this answer was computed from the data."
COMPUTED = "This answer was computed from the data."
KEY = "sk-test-provider-key-0001"  # the scripted server's provider key
# What the server's message holds (its words, the model's broken JSON): never shown.
SERVER_WORDS = ("Failed to parse", "json.exception", "parse error", '"metric_name"', "server_error")


def t1_below(db) -> tuple[list[str], int]:
    """Labels of the qubits whose newest completed, non-excluded T1 is below ``LIMIT_US``, and how many qubits have
    a usable T1 (NaN and QDash's 0 are none): a pymongo read written out here."""
    newest: dict[str, dict] = {}
    for doc in db["task_result_history"].find({"chip_id": CHIP, "status": "completed", "task_type": "qubit",
                                               "excluded": {"$ne": True}, "output_parameters.t1": {"$exists": True}}):
        if doc["qid"] not in newest or doc["start_at"] > newest[doc["qid"]]["start_at"]:
            newest[doc["qid"]] = doc
    values = {q: d["output_parameters"]["t1"]["value"] for q, d in newest.items()}
    usable = {q: v for q, v in values.items() if isinstance(v, (int, float)) and math.isfinite(v) and v != 0}
    return sorted(f"Q{int(q):02d}" for q, v in usable.items() if v < LIMIT_US), len(usable)


@pytest.fixture(scope="module")
def truth(demo_db) -> tuple[list[str], int]:
    below, with_value = t1_below(demo_db)
    assert 0 < len(below) < with_value  # the question has a non-trivial answer on the demo chip
    return below, with_value


def computed_right(said: str, truth: tuple[list[str], int]) -> bool:
    """The router's computed sentence with the count, the qubits with a value and every qubit below the limit."""
    below, with_value = truth
    return f"{len(below)} of {with_value} qubits" in said and all(label in said for label in below)


def no_server_text(said: str, server) -> None:
    for word in (*SERVER_WORDS, server.base_url, "127.0.0.1", KEY, "Traceback"):
        assert word not in said, (word, said)


def messages(body: dict) -> list[dict]:
    return body.get("messages") or body.get("input") or []


# ---------------------------------------------------------------------------------------------- the page's path


def test_an_unreadable_reply_after_the_routers_call_is_asked_once_more_without_tools(repo, scripted_openai,
                                                                                    tmp_path, truth):
    below, with_value = truth
    written = f"{len(below)} of the {with_value} qubits with a T1 value are below 30 μs: {', '.join(below)}."
    scripted_openai.push(unparsable(), text(written))
    turn = page_turn(repo, scripted_openai, tmp_path, QUESTION, SMALL)
    said = shown(turn)
    assert written in said and NOTE not in said, said
    assert turn.result is not None and turn.result.error is None and turn.result.claims != "computed"
    first, retry = scripted_openai.bodies()  # one try, one more try: not the three of a network failure
    assert first.get("tools") and first.get("tool_choice") == "none"
    assert not retry.get("tools") and "tool_choice" not in retry  # no call the server could fail to parse
    assert "could not be read" in messages(retry)[-1]["content"]  # the nudge to answer from the tool results
    assert [m["role"] for m in messages(retry)[:-1]] == [m["role"] for m in messages(first)]


@pytest.mark.parametrize("failure", [unparsable(), unparsable(mid_stream=True), unparsable(status=400)],
                         ids=["http-500", "streamed-event", "http-400"])
def test_an_unreadable_reply_that_persists_gives_the_computed_answer_with_a_note(failure, repo, scripted_openai,
                                                                                 tmp_path, truth):
    scripted_openai.push(failure, failure)
    turn = page_turn(repo, scripted_openai, tmp_path, QUESTION, SMALL)
    said = shown(turn)
    print(said)
    assert computed_right(said, truth), said
    assert said.rstrip().endswith(f"_{NOTE}_"), said
    assert turn.result is not None and turn.result.error is None and turn.result.claims == "computed"
    assert scripted_openai.calls_made == 2, scripted_openai.calls_made
    no_server_text(said, scripted_openai)


@pytest.mark.parametrize(("failures", "requests", "why"), [
    ([error(500, "upstream exploded at http://10.9.8.7:9000/v1")] * 3, 3, "(HTTP 500) after 3 attempts"),
    ([error(401, "Incorrect API key provided")], 1, "rejected the API key (HTTP 401)"),
], ids=["http-500-thrice", "http-401"])
def test_any_provider_failure_after_the_routers_call_gives_the_computed_answer(failures, requests, why, repo,
                                                                               scripted_openai, tmp_path, truth):
    scripted_openai.push(*failures)
    turn = page_turn(repo, scripted_openai, tmp_path, QUESTION, SMALL)
    said = shown(turn)
    assert computed_right(said, truth), said
    assert why in said and COMPUTED in said and NOTE not in said, said
    assert turn.result is not None and turn.result.error is None and turn.result.claims == "computed"
    assert scripted_openai.calls_made == requests
    assert "upstream exploded" not in said and "10.9.8.7" not in said, said


VAGUE = "Tell me something interesting about the calibration data."  # no call of the router's answers it


def test_an_unreadable_reply_with_no_facts_is_a_clear_error(repo, scripted_openai, tmp_path):
    scripted_openai.push(unparsable(), unparsable())
    turn = page_turn(repo, scripted_openai, tmp_path, VAGUE, SMALL, {"COPILOT_TOOL_ROUTER": "off"})
    said = shown(turn)
    assert turn.result is not None and turn.result.error is not None and not turn.result.tool_calls
    assert said.startswith("The model's reply could not be read") and "Ask again" in said, said
    assert NOTE not in said, said
    first, retry = scripted_openai.bodies()  # one more sample of the same step, then the error
    assert first.get("tools") and retry.get("tools") == first["tools"] and messages(retry) == messages(first)
    no_server_text(said, scripted_openai)


def test_an_unreadable_reply_with_no_facts_on_a_question_the_router_answers_makes_its_call_at_once(
        repo, scripted_openai, tmp_path, truth):
    """Router off, so no call before the model's round: the unreadable reply is not sampled again (minutes on a
    small model); the router's own call is made and its sentence is the answer, with the note."""
    scripted_openai.push(unparsable(), unparsable())
    turn = page_turn(repo, scripted_openai, tmp_path, QUESTION, SMALL, {"COPILOT_TOOL_ROUTER": "off"})
    said = shown(turn)
    assert computed_right(said, truth), said
    assert said.rstrip().endswith(f"_{NOTE}_"), said
    assert turn.result is not None and turn.result.error is None and turn.result.claims == "computed"
    assert scripted_openai.calls_made == 1, scripted_openai.calls_made
    no_server_text(said, scripted_openai)


@pytest.mark.parametrize(("failures", "requests", "why"), [
    ([error(500, "upstream exploded at http://10.9.8.7:9000/v1")] * 3, 3, "failed (HTTP 500) after 3 attempts"),
    ([error(401, f"Incorrect API key provided: {KEY}")], 1, "rejected the API key (HTTP 401). Check OPENAI_API_KEY"),
], ids=["http-500-thrice", "http-401"])
def test_a_provider_failure_with_no_facts_stays_a_clear_error(failures, requests, why, repo, scripted_openai,
                                                              tmp_path):
    scripted_openai.push(*failures)
    turn = page_turn(repo, scripted_openai, tmp_path, QUESTION, SMALL, {"COPILOT_TOOL_ROUTER": "off"})
    said = shown(turn)
    assert turn.result is not None and turn.result.error is not None
    assert said.startswith("The model provider") and why in said and COMPUTED not in said, said
    assert scripted_openai.calls_made == requests
    assert "upstream exploded" not in said and "10.9.8.7" not in said and KEY not in said, said


def test_a_server_that_is_down_is_a_clear_error_without_the_password(repo, tmp_path, scripted_openai):
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    provider = scripted_openai.provider("chat_completions", model=SMALL, max_retries=0,
                                        base_url=f"http://lab:pw-9f8e7d@127.0.0.1:{port}/v1")
    copilot = Copilot(repo, settings=load_settings({"DATA_DIR": str(tmp_path), "COPILOT_TOOL_ROUTER": "off"}),
                      skills=SkillLibrary.load(), memory=None, gate=False)
    turn = copilot.ask(ChatState(username="local", provider=provider, chip_id=CHIP), QUESTION, clarify=True)
    said = shown(turn)
    assert said.startswith("Cannot reach the model provider") and "OPENAI_BASE_URL" in said, said
    assert "pw-9f8e7d" not in said and KEY not in said and "Traceback" not in said, said


# ----------------------------------------------------------------------------------- the loop, both APIs, streamed


def test_the_loop_streamed_on_either_api_finishes_from_the_data(style, repo, scripted_openai, truth):
    scripted_openai.push(unparsable(mid_stream=True), unparsable(mid_stream=True))
    drafts: list[str] = []
    result = run_copilot(AgentRequest(QUESTION, chip_id=CHIP), provider=scripted_openai.provider(style, model=SMALL),
                         toolkit=Toolkit(repo, store=DataStore()), repo=repo, router=True, stream=drafts.append)
    assert computed_right(result.answer, truth) and NOTE in result.answer, result.answer
    assert result.error is None and result.claims == "computed"
    assert scripted_openai.calls_made == 2 and all(b.get("stream") for b in scripted_openai.bodies())
    assert drafts == ["Looking", "", "Looking"]  # each try's first piece shown; the failed try's cleared for the next
    no_server_text(result.answer, scripted_openai)


# ------------------------------------------------------------------------------------------------------- the CLI


def test_the_cli_prints_the_computed_answer_and_exits_0(app_env, scripted_openai, truth):
    from tests.agent.test_cli import llm_env

    scripted_openai.push(unparsable(), unparsable())
    env = {**llm_env(app_env, scripted_openai), "COPILOT_TOOL_ROUTER": "on", "COPILOT_MODEL": SMALL}
    proc = run_main(env, "ask", QUESTION, "--chip", CHIP)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert "error" not in out and computed_right(out["answer"], truth) and NOTE in out["answer"], out["answer"]
    assert scripted_openai.calls_made == 2
    assert "Failed to parse" not in proc.stdout


# ----------------------------------------------------------------------------------------------- the classifier


@pytest.mark.parametrize(("status", "message", "expected"), [
    (500, PARSE_FAILURE, True),
    (None, PARSE_FAILURE, True),  # an error event inside a stream
    (400, "Failed to parse tool call arguments as JSON: unexpected end of input", True),
    (500, "Failed to parse input at pos 184: <tool_call>{\"name\": ", True),
    (500, "error parsing tool call: raw='{\"chip_id\": 64Qv3}', err=invalid character", True),  # Ollama
    (500, "does not match the expected peg-native format", True),
    (500, "upstream exploded", False),
    (503, PARSE_FAILURE, False),  # a gateway's failure, whatever it quotes: retried as a server failure
    (429, PARSE_FAILURE, False),
    (400, "Failed to parse messages: invalid role", False),  # our request, not the model's output
    (500, "Conversation roles must alternate user/assistant/user/assistant", False),
    (400, "Invalid value for 'input'.", False),
])
def test_which_failures_are_an_unreadable_reply(status, message, expected):
    assert unreadable_reply(status, message) is expected
