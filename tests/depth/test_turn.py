"""The whole turn as the chat page runs it: skills and memory in the prompt the model receives, the model
calling recall_memory, the cache, the trace summary, and memory learned afterwards."""

from __future__ import annotations

import json

from copilot_core.agent import AgentRequest, run_copilot
from copilot_core.skills import SkillLibrary
from copilot_core.tools import DataStore, Toolkit
from copilot_core.turn import TurnExtras
from tests.depth.conftest import provider_for
from tests.fakes.scripted_openai import answer, call, error


def system_text(body: dict) -> str:
    if "instructions" in body:
        return body["instructions"]
    return next(m["content"] for m in body["messages"] if m["role"] == "system")


def test_turn_injects_skills_and_memory_and_learns(scripted_openai, repo, demo_chip_ids, memory, tmp_path, style):
    chip = demo_chip_ids[0]
    memory.learn(chip, [{"name": "get_parameter_timeseries", "ok": True,
                         "args": {"chip_id": chip, "parameter_name": "t2_echo", "qid": "1"}}])
    extras = TurnExtras(skills=SkillLibrary.load(), memory=memory, trace_dir=str(tmp_path))
    provider = provider_for(scripted_openai, style)
    message = "Why did the T1 of Q4 drop?"
    kit = extras.start(message, toolkit=Toolkit(repo, store=DataStore()), chip_id=chip, provider=provider)
    assert set(kit.skills) == {"coherence-trends", "provenance-root-cause"}
    scripted_openai.push(call("recall_memory", {"chip_id": chip}),
                         call("get_parameter_timeseries", {"parameter_name": "t1", "chip_id": chip, "qid": "4"}),
                         call("get_parameter_timeseries", {"parameter_name": "t1", "chip_id": chip, "qid": "4"}),
                         answer("T1 of Q4 dipped once.", "warning"))
    result = run_copilot(AgentRequest(message, chip_id=chip), provider=provider, toolkit=kit.toolkit, repo=repo,
                         tracer=kit.tracer, prompt_extras=kit.prompt_extras)
    assert result.error is None

    first = scripted_openai.bodies()[0]
    system = system_text(first)
    assert '<skill name="coherence-trends">' in system and '<skill name="provenance-root-cause">' in system
    assert f"## Memory for chip {chip}" in system and "t2_echo" in system
    offered = [t.get("name") or t["function"]["name"] for t in first["tools"]]
    assert "recall_memory" in offered

    recall = result.tool_calls[0]
    assert recall.name == "recall_memory" and recall.ok
    assert json.loads(recall.model_text)["entries"][0]["key"] == "t2_echo"

    summary = extras.finish(kit, result)
    assert summary["skills"] == kit.skills and summary["cache_hits"] == 1
    assert [t["cached"] for t in summary["tools"]] == [False, False, True]
    assert summary["input_tokens"] == result.usage["input_tokens"]
    learned = {e["key"]: e["hits"] for e in memory.entries(chip)}
    assert learned["t1"] == 1.0 and learned["t2_echo"] == 0.9  # decayed once, t1 added


def test_failed_turn_does_not_teach_memory(scripted_openai, repo, demo_chip_ids, memory, tmp_path):
    chip = demo_chip_ids[0]
    extras = TurnExtras(skills=SkillLibrary.load(), memory=memory, trace_dir=str(tmp_path))
    provider = provider_for(scripted_openai)
    kit = extras.start("T1 of Q2?", toolkit=Toolkit(repo, store=DataStore()), chip_id=chip, provider=provider)
    scripted_openai.push(call("get_parameter_timeseries", {"parameter_name": "t1", "chip_id": chip, "qid": "2"}),
                         error(401, "bad key"))
    result = run_copilot(AgentRequest("T1 of Q2?", chip_id=chip), provider=provider, toolkit=kit.toolkit, repo=repo,
                         tracer=kit.tracer, prompt_extras=kit.prompt_extras)
    assert result.error
    summary = extras.finish(kit, result)
    assert memory.entries(chip) == []
    assert summary["trace_file"] and summary["llm_calls"] == 1


def test_no_tools_path_gets_no_memory_tool(repo, demo_chip_ids, memory, tmp_path):
    chip = demo_chip_ids[0]
    memory.learn(chip, [{"name": "x", "ok": True, "args": {"parameter_name": "t1"}}])
    extras = TurnExtras(skills=SkillLibrary.load(), memory=memory, trace_dir=str(tmp_path))
    kit = extras.start("T1?", toolkit=Toolkit(repo, store=DataStore(), allowed=set()), chip_id=chip)
    assert kit.toolkit.schemas() == []
    section = next(x for x in kit.prompt_extras if "Memory for chip" in x)
    assert "t1" in section and "recall_memory" not in section
    kit.tracer.finish()
