"""The part of a request every question shares comes first and is the same bytes whatever the question, chip,
selected qubit or mode, so a model server's prompt cache evaluates it once in the server's life
(``bench/cold_start.py`` measures that on the local model). Requests captured by the scripted server over HTTP."""

from __future__ import annotations

import json

import pytest

from copilot_core.chat import ChatState
from copilot_core.session import Copilot
from copilot_core.settings import load_settings
from copilot_core.skills import SkillLibrary
from tests.depth.conftest import provider_for
from tests.fakes.scripted_openai import answer

SMALL = "qwen2.5-coder-1.5b-instruct"


def first_part(body: dict) -> str:
    """What the model reads first: the instructions (Responses) or the first system message (Chat Completions)."""
    return body["instructions"] if "instructions" in body else json.dumps(body["messages"][0], sort_keys=True)


def context_part(body: dict) -> str:
    if "instructions" in body:
        return "\n".join(m["content"] for m in body["input"] if m.get("role") == "developer")
    return "\n".join(m["content"] for m in body["messages"][1:] if m["role"] == "system")


def tools_sent(body: dict) -> str:
    return json.dumps(body.get("tools"), sort_keys=True)


def first_request(server, repo, tmp_path, *, chip: str, qid: str | None, mode: str, question: str,
                  history: tuple[str, str] | None, style: str, model: str) -> dict:
    copilot = Copilot(repo, settings=load_settings({"DATA_DIR": str(tmp_path)}), skills=SkillLibrary.load(),
                      memory=None, gate=False)
    state = ChatState(username="local", provider=provider_for(server, style, model=model), chip_id=chip, qid=qid)
    if history is not None:  # an earlier turn in this chat, then the mode the page sets (analysis: a follow-up)
        server.push(answer(history[1]))
        copilot.ask(state, history[0])
    state.mode = mode  # type: ignore[assignment]
    before = len(server.bodies())
    server.push(answer("Answered."))
    turn = copilot.ask(state, question)
    assert turn.result is not None and turn.result.error is None, turn.notice
    return server.bodies()[before]


@pytest.mark.parametrize("model", [SMALL, "gpt-5.4"])
def test_questions_chips_qubits_and_modes_share_the_first_part_byte_for_byte(scripted_openai, repo, demo_chip_ids,
                                                                             tmp_path, style, model):
    first, second = demo_chip_ids[0], demo_chip_ids[1]
    cases = {  # as the pages ask: the Copilot page, a qubit picked on the Qubits page, a follow-up in analysis mode
        "t1 on one qubit": dict(chip=first, qid=None, mode="chat", question="What is the T1 of qubit Q5?",
                                history=None),
        "other chip, no qubit named": dict(chip=second, qid=None, mode="chat",
                                           question="How do T1 values compare across the chip?", history=None),
        "qubit selected": dict(chip=second, qid="3", mode="chat", question="Is this qubit healthy?", history=None),
        "analysis follow-up": dict(chip=first, qid="7", mode="analysis", question="Why is its T2 echo low?",
                                   history=("Review Q07", "Q07 looks fine.")),
    }
    bodies = {name: first_request(scripted_openai, repo, tmp_path / name.replace(" ", "-"), style=style,
                                  model=model, **case)
              for name, case in cases.items()}
    firsts = {name: first_part(body) for name, body in bodies.items()}
    assert len(set(firsts.values())) == 1, "the shared part differs between " + ", ".join(firsts)
    shared = next(iter(firsts.values()))
    # what differs travels later: the chip, the selected qubit and the review's qubit are in the context, not first
    for name, case in cases.items():
        assert f"- chip_id: {case['chip']}" in context_part(bodies[name]) and case["chip"] not in shared
    assert "- target qubit: Q003" in context_part(bodies["qubit selected"])
    assert "qubit 7 on chip" in context_part(bodies["analysis follow-up"])
    assert "AI review" in context_part(bodies["analysis follow-up"]) and "AI review" not in shared


def test_every_question_the_router_answers_sends_the_same_tools(scripted_openai, repo, demo_chip_ids, tmp_path,
                                                               style):
    """A small model's routed questions: when the router made the call, the answer round offers the same tool list
    (every tool, in the toolkit's order) for every question, so the tools that follow the shared part stay cached."""
    questions = [(demo_chip_ids[0], "What is the T1 of qubit Q5?"), (demo_chip_ids[1], "Show the T1 heatmap"),
                 (demo_chip_ids[0], "Give me a health summary of the chip")]
    bodies = [first_request(scripted_openai, repo, tmp_path / str(i), chip=chip, qid=None, mode="chat",
                            question=question, history=None, style=style, model=SMALL)
              for i, (chip, question) in enumerate(questions)]
    assert len({tools_sent(body) for body in bodies}) == 1
    assert len({first_part(body) for body in bodies}) == 1
