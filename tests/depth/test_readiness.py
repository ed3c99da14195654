"""Model readiness: a short probe decides full / reduced / no tools, says why, is cached per provider,
and the gated tool set is what the model is then offered."""

from __future__ import annotations

import pytest

from copilot_core.agent import AgentRequest, run_copilot
from copilot_core.readiness import REDUCED_TOOLS, forget, probe_model, readiness_for
from copilot_core.tools import DataStore, Toolkit
from copilot_core.tools.registry import TOOLS_BY_NAME
from tests.depth.conftest import provider_for
from tests.fakes.scripted_openai import answer, call, error, text

GOOD_TOOL = call("report_number", {"value": 42})


@pytest.fixture(autouse=True)
def _fresh_cache():
    forget()
    yield
    forget()


def test_capable_model_gets_every_tool(scripted_openai, style):
    scripted_openai.push(GOOD_TOOL, answer("The probe worked."))
    result = probe_model(provider_for(scripted_openai, style))
    assert (result.level, result.tool_call, result.json_answer) == ("full", "ok", "ok")
    assert result.allowed_tools() is None and result.uses_tools
    sent = scripted_openai.bodies()
    assert any("report_number" in str(b.get("tools")) for b in sent)  # the probe offered the trivial tool


def test_model_that_cannot_call_tools_gets_the_no_tools_path(scripted_openai, style):
    scripted_openai.push(text('I would call report_number with {"value": 42}.'), answer("The probe worked."))
    result = probe_model(provider_for(scripted_openai, style))
    assert result.level == "none" and result.tool_call == "no_call"
    assert result.allowed_tools() == set() and not result.uses_tools
    assert "plain text instead of calling a tool" in result.reason and "without tools" in result.reason


def test_server_failing_on_tool_calls_gets_the_no_tools_path(scripted_openai):
    scripted_openai.push(error(500, "does not match the expected peg-native format"),
                         error(500, "does not match the expected peg-native format"), answer("ok"))
    result = probe_model(provider_for(scripted_openai))
    assert result.level == "none" and result.tool_call == "server_error"
    assert "HTTP 5xx" in result.reason


@pytest.mark.parametrize("tool_step,json_step,expected", [
    (call("report_number", {"value": 7}), answer("ok"), "wrong_call"),
    (call("report_numbers", {"value": 42}), answer("ok"), "wrong_call"),
    (GOOD_TOOL, text("Sure! The probe worked."), "json-invalid"),
])
def test_sloppy_model_gets_the_reduced_tool_set(scripted_openai, tool_step, json_step, expected):
    scripted_openai.push(tool_step, json_step)
    result = probe_model(provider_for(scripted_openai))
    assert result.level == "reduced"
    assert result.allowed_tools() == set(REDUCED_TOOLS)
    if expected == "wrong_call":
        assert result.tool_call == "wrong_call" and "wrong name or arguments" in result.reason
    else:
        assert result.json_answer == "invalid" and "JSON format" in result.reason


def test_reduced_tools_are_real_tools():
    assert REDUCED_TOOLS <= set(TOOLS_BY_NAME) and len(REDUCED_TOOLS) == 5


def test_fenced_json_is_still_full(scripted_openai):
    scripted_openai.push(GOOD_TOOL, text('Here:\n```json\n{"blocks": [{"type": "text", "content": "ok", '
                                         '"chart": null}], "assessment": null}\n```'))
    result = probe_model(provider_for(scripted_openai))
    assert result.level == "full" and result.json_answer == "fenced"


def test_result_is_cached_per_provider_configuration(scripted_openai):
    provider = provider_for(scripted_openai)
    scripted_openai.push(GOOD_TOOL, answer("ok"))
    first = readiness_for(provider)
    assert readiness_for(provider) is first
    assert scripted_openai.calls_made == 2  # probed once
    scripted_openai.push(text("no tools for me"), answer("ok"))
    other = readiness_for(provider_for(scripted_openai, model="tiny-model"))
    assert other.level == "none" and scripted_openai.calls_made == 4


def test_unreachable_provider_is_not_cached_and_keeps_tools(scripted_openai):
    provider = provider_for(scripted_openai)
    scripted_openai.push(error(401, "Incorrect API key provided"))
    result = readiness_for(provider)
    assert not result.probed and result.level == "full" and "could not reach" in result.reason
    assert "sk-depth-test-key" not in result.reason
    scripted_openai.push(GOOD_TOOL, answer("ok"))
    assert readiness_for(provider).probed  # probed again next time


@pytest.mark.parametrize("level_steps,offered", [
    ((text("I cannot use tools."), answer("ok")), set()),
    ((GOOD_TOOL, text("not json")), set(REDUCED_TOOLS)),
])
def test_gated_tool_set_is_what_the_model_is_offered(scripted_openai, repo, demo_chip_ids, level_steps, offered):
    provider = provider_for(scripted_openai)
    scripted_openai.push(*level_steps)
    readiness = readiness_for(provider)
    toolkit = Toolkit(repo, store=DataStore(), allowed=readiness.allowed_tools())
    scripted_openai.push(answer("Answer without tools."))
    result = run_copilot(AgentRequest("How is Q1?", chip_id=demo_chip_ids[0]), provider=provider, toolkit=toolkit,
                         repo=repo)
    assert result.error is None
    last = scripted_openai.bodies()[-1]
    sent = {t["function"]["name"] for t in last.get("tools") or []}
    assert sent == offered
