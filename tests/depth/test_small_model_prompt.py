"""What a small model reads per question, through the turn service and the real SDK over HTTP: when the router made
the question's call, no skills (tool procedures) in the prompt and the tool result as a table; a large model, or a
small one choosing its own calls, still gets the skills; the page keeps the full result."""

from __future__ import annotations

import json
import re
from pathlib import Path

from copilot_core.chat import ChatState
from copilot_core.session import Copilot
from copilot_core.settings import load_settings
from copilot_core.skills import SkillLibrary
from copilot_core.tracing import ROOT_SPAN
from tests.depth.conftest import provider_for
from tests.depth.test_turn import system_text
from tests.fakes.scripted_openai import answer, call

SMALL = "qwen2.5-coder-1.5b-instruct"
LARGE = "gpt-5.4"
SKILL = '<skill name="coherence-trends">'


def ask(server, repo, chip, tmp_path, model: str, question: str, style: str, *script):
    copilot = Copilot(repo, settings=load_settings({"DATA_DIR": str(tmp_path)}), skills=SkillLibrary.load(),
                      memory=None, gate=False)
    state = ChatState(username="local", provider=provider_for(server, style, model=model), chip_id=chip)
    server.push(*script, answer("Answered."))
    turn = copilot.ask(state, question)
    assert turn.result is not None and turn.result.error is None, turn.notice
    return turn, server.bodies()[-1]


def turn_span(turn) -> dict:
    """The attributes of this turn's root span as written to the trace file (what an OpenTelemetry reader gets)."""
    trace = turn.answer.work.trace
    records = [json.loads(line) for line in Path(trace["trace_file"]).read_text().splitlines()]
    [root] = [r for r in records if r.get("name") == ROOT_SPAN and r.get("trace_id") == trace["trace_id"]]
    return root["attributes"]


def tool_replies(body: dict) -> list[dict]:
    items = body.get("input") or body.get("messages") or []
    return [json.loads(i.get("output") or i.get("content")) for i in items
            if i.get("type") == "function_call_output" or i.get("role") == "tool"]


def test_a_prefetched_question_to_a_small_model_reads_a_table_and_no_skills(scripted_openai, repo, demo_db,
                                                                            demo_chip_ids, tmp_path, style):
    chip = demo_chip_ids[0]
    raw = demo_db["qubit"].find_one({"chip_id": chip, "qid": "5"})["data"]
    turn, body = ask(scripted_openai, repo, chip, tmp_path, SMALL, "What is the T1 of qubit Q5?", style)
    result = turn.result
    assert turn.answer.work.trace["skills"] == []  # show-work lists what the model read
    assert turn_span(turn)["skills"] == ""  # and so does the trace
    assert [(c.name, c.origin) for c in result.tool_calls] == [("get_qubit_params", "router")]
    assert SKILL not in system_text(body) and "## Skills for this request" not in system_text(body)
    (reply,) = tool_replies(body)
    table = reply["parameters"]
    assert table["columns"][:3] == ["name", "value", "unit"]
    rows = {row[0]: row for row in table["rows"]}
    assert rows["t1"][1:3] == [float(f"{raw['t1']['value']:.4g}"), "μs"]  # stored in μs, 4 significant figures
    assert set(rows) == {name for name, item in raw.items() if item.get("value") is not None}
    assert json.dumps(reply).count('"execution_id"') <= 1  # one run wrote them all: said once, not per row
    full = result.tool_calls[0].full  # what the page and the claim check read: every field per parameter
    assert full["parameters"]["t1"]["execution_id"] == raw["t1"]["execution_id"]


def test_a_large_model_gets_the_skills_and_the_result_as_objects(scripted_openai, repo, demo_chip_ids, tmp_path):
    turn, body = ask(scripted_openai, repo, demo_chip_ids[0], tmp_path, LARGE, "What is the T1 of qubit Q5?",
                     "chat_completions", call("get_qubit_params", {"qid": "5"}))
    result = turn.result
    assert SKILL in system_text(body) and "coherence-trends" in turn.answer.work.trace["skills"]
    assert "coherence-trends" in turn_span(turn)["skills"].split(",")
    assert [(c.name, c.origin) for c in result.tool_calls] == [("get_qubit_params", "model")]
    (reply,) = tool_replies(body)
    assert reply["parameters"]["t1"]["unit"] == "μs" and "execution_id" in reply["parameters"]["t1"]


def test_a_small_model_choosing_its_own_calls_keeps_the_skills(scripted_openai, repo, demo_chip_ids, tmp_path):
    turn, body = ask(scripted_openai, repo, demo_chip_ids[0], tmp_path, SMALL,
                     "Compare the T1 trend of qubits 5 and 12.", "chat_completions")
    assert turn.result.tool_calls == [] and SKILL in system_text(body)


def test_an_answer_quoting_no_value_gets_the_values_it_rests_on(scripted_openai, repo, demo_db, demo_chip_ids,
                                                                 tmp_path, style):
    """"Q05 looks fine." leaves the claim check nothing to check: the router's own answer (the values from the
    database) is added below it, with a note that says why; an answer that quotes the value is left as written."""
    chip = demo_chip_ids[0]
    t1 = demo_db["qubit"].find_one({"chip_id": chip, "qid": "5"})["data"]["t1"]["value"]  # stored in μs
    copilot = Copilot(repo, settings=load_settings({"DATA_DIR": str(tmp_path)}), skills=SkillLibrary.load(),
                      memory=None, gate=False)
    state = ChatState(username="local", provider=provider_for(scripted_openai, style, model=SMALL), chip_id=chip)
    scripted_openai.push(answer("Q05 looks fine."))
    turn = copilot.ask(state, "What is the T1 of qubit Q5?")
    result = turn.result
    assert [(c.name, c.origin) for c in result.tool_calls] == [("get_qubit_params", "router")]
    assert result.claims == "completed"
    model_text, added, note = [b.text for b in result.blocks]
    assert model_text == "Q05 looks fine."
    shown = [float(n) for n in re.findall(r"\bt1 (\d+(?:\.\d+)?) μs", added)]
    assert len(shown) == 1 and abs(shown[0] - t1) <= 0.051  # the dashboard's rounding of the stored value
    assert "quotes no value" in note

    scripted_openai.push(answer(f"Q05 has T1 {t1:.1f} μs."))
    turn = copilot.ask(ChatState(username="local", provider=provider_for(scripted_openai, style, model=SMALL),
                                 chip_id=chip), "What is the T1 of qubit Q5?")
    assert turn.result.claims == "kept" and turn.result.answer == f"Q05 has T1 {t1:.1f} μs."
