"""The router switch through the turn service: a small model gets the routed tools, a large one every tool."""

from __future__ import annotations

import pytest

from copilot_core.chat import ChatState
from copilot_core.session import Copilot
from copilot_core.settings import load_settings
from copilot_core.skills import SkillLibrary
from copilot_core.tools.registry import TOOLS
from tests.depth.conftest import provider_for
from tests.fakes.scripted_openai import answer, call

SMALL = "qwen2.5-coder-1.5b-instruct"
EVERY_TOOL = [spec.name for spec in TOOLS if spec.requires is None]  # no memory, no figure directory here


def offered(body: dict) -> list[str]:
    return [t.get("name") or t["function"]["name"] for t in body.get("tools") or []]


def turn(server, repo, chip, tmp_path, model: str, **env: str):
    settings = load_settings({"DATA_DIR": str(tmp_path), **env})
    copilot = Copilot(repo, settings=settings, skills=SkillLibrary.load(), memory=None, gate=False)
    state = ChatState(username="local", provider=provider_for(server, model=model), chip_id=chip)
    server.push(call("get_chip_summary", {"chip_id": chip}), answer("Median T1 is in the summary."))
    # no call the router could make itself (that round would offer every tool): the model chooses from the tools sent
    return copilot.ask(state, f"How do T1 values compare on {chip}?")


@pytest.mark.parametrize(("model", "env", "expected"), [
    (SMALL, {}, ["compare_qubits", "more_tools"]),  # auto by default: small
    (SMALL, {"COPILOT_TOOL_ROUTER": "auto"}, ["compare_qubits", "more_tools"]),  # small
    (SMALL, {"COPILOT_TOOL_ROUTER": "auto", "COPILOT_MODEL_SIZE": "large"}, EVERY_TOOL),
    ("gpt-5.4", {"COPILOT_TOOL_ROUTER": "auto"}, EVERY_TOOL),  # auto: large
    ("gpt-5.4", {"COPILOT_TOOL_ROUTER": "on"}, ["compare_qubits", "more_tools"]),
])
def test_router_switch_decides_the_tools_sent(scripted_openai, repo, demo_chip_ids, tmp_path, model, env, expected):
    result = turn(scripted_openai, repo, demo_chip_ids[0], tmp_path, model, **env)
    assert result.answer is not None and result.answer.text == "Median T1 is in the summary."
    assert offered(scripted_openai.bodies()[0]) == expected
    routed = result.answer.work.trace["routed_tools"]
    assert routed == (None if expected == EVERY_TOOL else expected[:-1])
