"""Rounds of one question share a byte-identical prompt prefix, so the server's prompt cache can reuse it."""

from __future__ import annotations

import json

import pytest

from copilot_core.agent import AgentRequest, run_copilot
from tests.fakes.scripted_openai import answer, call

QUESTION = "How is qubit 5?"


def ask(server, style, toolkit, **provider):
    return run_copilot(AgentRequest(QUESTION, chip_id="64Qv3"), provider=server.provider(style, **provider),
                       toolkit=toolkit, repo=None)


def turns(body: dict) -> list:
    return body["input"] if "input" in body else body["messages"]


def dumped(value) -> str:
    return json.dumps(value, sort_keys=True)


def _repeat_then_forced(server):
    """Three rounds of calls, the last a repeat, which forces the finalize call."""
    same = call("get_qubit_params", {"chip_id": "64Qv3", "qid": "5"})
    server.push(call("generate_chip_heatmap", {"chip_id": "64Qv3", "metric_name": "t1"}),
                same, same, answer("Forced answer."))


def test_every_round_resends_the_same_prefix_and_the_final_call_keeps_the_tools(scripted_openai, style, toolkit):
    _repeat_then_forced(scripted_openai)
    result = ask(scripted_openai, style, toolkit)
    assert result.answer == "Forced answer."
    bodies = scripted_openai.bodies()
    assert len(bodies) == 4
    first = bodies[0]
    for earlier, later in zip(bodies, bodies[1:]):
        assert dumped(later["tools"]) == dumped(first["tools"])  # same tools, same order, same bytes
        assert later.get("instructions") == first.get("instructions")
        assert dumped(turns(later)[:len(turns(earlier))]) == dumped(turns(earlier))  # earlier turns unchanged
    assert [b.get("tool_choice") for b in bodies] == [None] * (len(bodies) - 1) + ["none"]


def test_cached_tokens_per_round_come_from_the_server(scripted_openai, style, toolkit):
    _repeat_then_forced(scripted_openai)
    result = ask(scripted_openai, style, toolkit)
    bodies = scripted_openai.bodies()
    # the scripted server's cache: the prompt (tools, system, turns) shared with the previous request, 4 chars a token
    prompts = [dumped(b.get("tools") or []) + (json.dumps(b["instructions"]) if "instructions" in b else "")
               + dumped(turns(b)) for b in bodies]
    expected = [0]
    for before, now in zip(prompts, prompts[1:]):
        same = 0
        while same < min(len(before), len(now)) and before[same] == now[same]:
            same += 1
        expected.append(same // 4)
    assert [r["cached_tokens"] for r in result.rounds] == expected
    assert result.usage["cached_tokens"] == sum(expected)
    # once the conversation starts, nearly the whole previous prompt is reused, the final call included
    assert all(e >= len(p) // 4 - 2 for e, p in zip(expected[1:], prompts))
    assert result.rounds[-1]["final"] and result.rounds[-1]["tools"] == 3


def test_a_server_that_rejects_tool_choice_gets_the_final_call_without_tools(scripted_openai, style, toolkit):
    _repeat_then_forced(scripted_openai)
    scripted_openai.reject_params = {"tool_choice"}
    result = ask(scripted_openai, style, toolkit)
    assert result.error is None and result.answer == "Forced answer."
    rejected, retried = scripted_openai.bodies()[-2:]
    assert rejected["tool_choice"] == "none" and "tools" not in retried and "tool_choice" not in retried


@pytest.mark.parametrize("api", ["responses", "chat"])
def test_scripted_server_reports_cached_tokens_in_each_api_field(scripted_openai, api):
    import openai

    client = openai.OpenAI(api_key="x", base_url=scripted_openai.base_url)
    scripted_openai.push(answer("one"), answer("two"))
    if api == "responses":
        first = client.responses.create(model="m", input=[{"role": "user", "content": "x" * 400}])
        second = client.responses.create(model="m", input=[{"role": "user", "content": "x" * 400},
                                                           {"role": "user", "content": "more"}])
        assert first.usage.input_tokens_details.cached_tokens == 0
        assert second.usage.input_tokens_details.cached_tokens > 100
    else:
        msgs = [{"role": "user", "content": "x" * 400}]
        first = client.chat.completions.create(model="m", messages=msgs)
        second = client.chat.completions.create(model="m", messages=msgs + [{"role": "user", "content": "more"}])
        assert first.usage.prompt_tokens_details.cached_tokens == 0
        assert second.usage.prompt_tokens_details.cached_tokens > 100
        assert second.model_extra["timings"]["cache_n"] == second.usage.prompt_tokens_details.cached_tokens


def _prompt_parts(body: dict) -> tuple[str, list[str]]:
    """(the system text sent first, the system/developer messages among the turns)."""
    if "instructions" in body:
        return body["instructions"], [t["content"] for t in body["input"] if t.get("role") == "developer"]
    system = [m["content"] for m in body["messages"] if m["role"] == "system"]
    return system[0], system[1:]


def test_two_questions_about_different_qubits_and_chips_share_the_system_text_and_tools(scripted_openai, style,
                                                                                       toolkit, repo):
    """The question's chip, qubit and thresholds travel in a message after the shared part, so a prompt cache
    keeps the system text and the tool list (which Qwen's template puts right after it) from one question to the
    next."""
    scripted_openai.push(answer("First."), answer("Second."))
    provider = scripted_openai.provider(style)
    run_copilot(AgentRequest("Is the T1 of qubit 5 good?", chip_id="64Qv3", qid="5"), provider=provider,
                toolkit=toolkit, repo=repo)
    run_copilot(AgentRequest("Show the execution history", chip_id="144Qv2"), provider=provider, toolkit=toolkit,
                repo=repo)
    first, second = scripted_openai.bodies()
    (system_a, context_a), (system_b, context_b) = _prompt_parts(first), _prompt_parts(second)
    assert system_a == system_b and dumped(first["tools"]) == dumped(second["tools"])
    assert len(context_a) == len(context_b) == 1
    assert "- chip_id: 64Qv3" in context_a[0] and "- target qubit: Q05" in context_a[0]
    assert "## Scoring thresholds" in context_a[0]  # "good" asks for a judgement
    assert "- chip_id: 144Qv2" in context_b[0] and "## Scoring thresholds" not in context_b[0]
    for text in ("64Qv3", "144Qv2", "target qubit", "## Scoring thresholds"):
        assert text not in system_a
    last_two = turns(first)[-2:]  # the context right before the question
    assert last_two[0]["content"] == context_a[0] and last_two[1] == {"role": "user",
                                                                      "content": "Is the T1 of qubit 5 good?"}


@pytest.mark.parametrize("status", [400, 500])
def test_a_template_that_takes_one_system_message_gets_the_context_joined_to_it(scripted_openai, style, toolkit,
                                                                                repo, status):
    """llama.cpp answers with the template's exception when a chat template refuses a second system message
    (Mistral's and Gemma's do): the request is sent again with the context after the shared text, once."""
    from tests.fakes.scripted_openai import error

    scripted_openai.push(error(status, "Jinja Exception: Conversation roles must alternate "
                                       "user/assistant/user/assistant/..."),
                         call("get_qubit_params", {"chip_id": "64Qv3", "qid": "5"}), answer("T1 is fine."))
    result = run_copilot(AgentRequest("How is qubit 5?", chip_id="64Qv3", qid="5"),
                         provider=scripted_openai.provider(style, max_retries=0), toolkit=toolkit, repo=repo)
    assert result.error is None and result.answer == "T1 is fine."
    rejected, retried, after_call = scripted_openai.bodies()
    system, context = _prompt_parts(rejected)
    assert len(context) == 1 and "- target qubit: Q05" in context[0]
    for body in (retried, after_call):  # every later round of the request keeps the joined form
        joined, rest = _prompt_parts(body)
        assert rest == [] and joined == f"{system}\n\n{context[0]}"
        assert [t.get("role") for t in turns(body) if t.get("role") in ("system", "developer", "user")][-1] == "user"
