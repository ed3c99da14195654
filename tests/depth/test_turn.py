"""The whole turn through the turn service, as the chat page, the CLI and the evals run it: skills and memory in
the prompt the model receives, the model calling recall_memory, the cache, the trace summary, memory learned
afterwards, and readiness gating."""

from __future__ import annotations

import json

from copilot_core.answer.blocks import ChartBlock, TextBlock
from copilot_core.chat import ChatMessage, ChatState
from copilot_core.session import Copilot
from copilot_core.settings import load_settings
from copilot_core.skills import SkillLibrary
from tests.depth.conftest import provider_for
from tests.fakes.scripted_openai import answer, call, error, text


def system_text(body: dict) -> str:
    """The prompt the app wrote: the shared system part and this question's context message after it."""
    if "instructions" in body:
        return "\n\n".join([body["instructions"], *(m["content"] for m in body["input"]
                                                     if m.get("role") == "developer")])
    return "\n\n".join(m["content"] for m in body["messages"] if m["role"] == "system")


def offered(body: dict) -> list[str]:
    return [t.get("name") or t["function"]["name"] for t in body.get("tools") or []]


def copilot(repo, memory, tmp_path, *, gate: bool = False) -> Copilot:
    settings = load_settings({"DATA_DIR": str(tmp_path)})
    return Copilot(repo, settings=settings, skills=SkillLibrary.load(), memory=memory, gate=gate)


def test_turn_injects_skills_and_memory_and_learns(scripted_openai, repo, demo_chip_ids, memory, tmp_path, style):
    chip = demo_chip_ids[0]
    memory.learn(chip, [{"name": "get_parameter_timeseries", "ok": True,
                         "args": {"chip_id": chip, "parameter_name": "t2_echo", "qid": "1"}}])
    state = ChatState(username="local", provider=provider_for(scripted_openai, style), chip_id=chip)
    scripted_openai.push(call("recall_memory", {"chip_id": chip}),
                         call("get_parameter_timeseries", {"parameter_name": "t1", "chip_id": chip, "qid": "4"}),
                         # the same call spelled otherwise: a new call to the loop, a hit for the cache
                         call("get_parameter_timeseries", {"parameter_name": "t1", "chip_id": chip, "qid": "Q04"}),
                         answer("T1 of Q4 dipped once.", "warning"))
    turn = copilot(repo, memory, tmp_path).ask(state, "Why did the T1 of Q4 drop?")
    result = turn.result
    assert turn.sent and result is not None and result.error is None
    assert [m.role for m in state.messages] == ["user", "assistant"] and state.messages[1].text == "T1 of Q4 dipped once."

    first = scripted_openai.bodies()[0]
    system = system_text(first)
    assert '<skill name="coherence-trends">' in system and '<skill name="provenance-root-cause">' in system
    assert f"## Memory for chip {chip}" in system and "t2_echo" in system
    assert "recall_memory" in offered(first)

    recall = result.tool_calls[0]
    assert recall.name == "recall_memory" and recall.ok
    assert json.loads(recall.model_text)["entries"][0]["parameter"] == "t2_echo"

    summary = turn.answer.work.trace
    assert set(summary["skills"]) == {"coherence-trends", "provenance-root-cause"} and summary["cache_hits"] == 1
    assert [t["cached"] for t in summary["tools"]] == [False, False, True]
    assert summary["input_tokens"] == result.usage["input_tokens"]
    learned = {e["key"]: e["hits"] for e in memory.entries(chip)}
    assert learned["t1"] == 1.0 and learned["t2_echo"] == 0.9  # decayed once, t1 added


def test_failed_turn_does_not_teach_memory(scripted_openai, repo, demo_chip_ids, memory, tmp_path):
    chip = demo_chip_ids[0]
    state = ChatState(username="local", provider=provider_for(scripted_openai), chip_id=chip)
    memory.learn(chip, [{"name": "x", "ok": True, "args": {"parameter_name": "t1"}}])
    before = memory.entries(chip)
    scripted_openai.push(error(401, "bad key"))  # before any fact (after one, the answer is computed from it)
    turn = copilot(repo, memory, tmp_path).ask(state, "T1 of Q2?")
    assert turn.answer.error and "HTTP 401" in turn.answer.error
    assert memory.entries(chip) == before  # neither learned nor decayed
    summary = turn.answer.work.trace
    assert summary["trace_file"] and scripted_openai.calls_made == 1


def test_a_model_that_cannot_call_tools_gets_no_tools_and_no_memory_tool(scripted_openai, repo, demo_chip_ids,
                                                                          memory, tmp_path):
    chip = demo_chip_ids[0]
    memory.learn(chip, [{"name": "x", "ok": True, "args": {"parameter_name": "t1"}}])
    provider = provider_for(scripted_openai, model="prose-only-model")
    state = ChatState(username="local", provider=provider, chip_id=chip)
    # The readiness probe: prose instead of the tool call, then a valid blocks answer; then the real turn.
    scripted_openai.push(text("I would report 42."), answer("The probe worked."), answer("T1 is fine."))
    turn = copilot(repo, memory, tmp_path, gate=True).ask(state, "T1?")
    assert turn.readiness is not None and turn.readiness.level == "none"
    real = scripted_openai.bodies()[-1]
    assert offered(real) == []
    section = system_text(real)
    assert "Memory for chip" in section and "t1" in section and "recall_memory" not in section
    assert turn.answer.text == "T1 is fine."


def test_skills_are_chosen_from_the_turns_the_model_reads_not_from_an_earlier_charts_data(scripted_openai, repo,
                                                                                         demo_chip_ids, tmp_path):
    """An earlier answer's chart stays on the page and is not sent to the model; its hover text names readout
    fidelity, the answer's words do not, so a follow-up gets no readout procedure from the chart's data."""
    chip = demo_chip_ids[0]
    state = ChatState(username="local", provider=provider_for(scripted_openai), chip_id=chip)
    chart = {"data": [{"type": "heatmap", "z": [[97.1, 98.4]], "hovertext": [["Q000 readout fidelity 97.1 %",
                                                                              "Q001 readout fidelity 98.4 %"]]}],
             "layout": {"title": {"text": "Chip"}}}
    state.add(ChatMessage.user("Show me the chip"))
    state.add(ChatMessage.assistant([TextBlock("Here is the chip."), ChartBlock(chart)]))
    scripted_openai.push(answer("Answered."))
    turn = copilot(repo, None, tmp_path).ask(state, "And what about Q4?")
    body = scripted_openai.bodies()[-1]
    assert turn.answer is not None and turn.answer.work.trace["skills"] == []
    assert "## Skills for this request" not in system_text(body)
    assert "Here is the chip." in json.dumps(body, ensure_ascii=False)  # the earlier answer's words were sent
