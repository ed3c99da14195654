"""Tool calls constrained by each tool's schema on a server that compiles schemas into a grammar (llama.cpp).

With ``COPILOT_CONSTRAIN_TOOL_CALLS=on`` the chat-completions request, as the scripted server receives it over HTTP,
carries every tool's full closed schema (types, patterns, enums, bounds, ``additionalProperties: false``) with
``strict`` and one call per turn; a call that validation would refuse does not fit that schema.  Off (the default),
and on OpenAI whatever the switch says, the request is what it was.
"""

from __future__ import annotations

import jsonschema
import pytest

from copilot_core.agent import AgentRequest, provider_from_settings, run_copilot
from copilot_core.settings import ConfigError, load_settings
from copilot_core.tools import DataStore, Toolkit
from copilot_core.tools.registry import TOOLS
from copilot_core.tools.spec import model_schema
from tests.fakes.scripted_openai import call, text

FULL = {spec.name: spec.parameters for spec in TOOLS}


def _provider(server, **env):
    settings = load_settings(env={"OPENAI_BASE_URL": server.base_url, "COPILOT_API_STYLE": "chat_completions", **env})
    return provider_from_settings(settings)


def _ask(server, provider, repo):
    server.push(call("get_qubit_params", {"qid": "5"}), text("Q5 is listed above."))
    run_copilot(AgentRequest("Show the parameters of qubit 5", chip_id="64Qv3"), provider=provider,
                toolkit=Toolkit(repo, store=DataStore()), repo=repo, router=False)
    bodies = server.bodies("chat")
    assert bodies, "no chat request reached the server"
    return bodies[0]


def test_the_request_carries_each_tools_closed_schema(scripted_openai, repo):
    provider = _provider(scripted_openai, COPILOT_CONSTRAIN_TOOL_CALLS="on")
    assert provider.constrain_tool_calls
    body = _ask(scripted_openai, provider, repo)
    assert body["parallel_tool_calls"] is False
    sent = {t["function"]["name"]: t["function"] for t in body["tools"]}
    assert "get_qubit_params" in sent and len(sent) > 5
    for name, function in sent.items():
        schema = function["parameters"]
        assert function["strict"] is True and schema["additionalProperties"] is False, name
        for prop, spec in schema["properties"].items():
            assert "type" in spec, (name, prop)  # strings are typed too: a number is not an id
        jsonschema.Draft202012Validator.check_schema(schema)
    qubit = sent["get_qubit_params"]["parameters"]
    check = jsonschema.Draft202012Validator(qubit)
    assert check.is_valid({"qid": "5"}) and check.is_valid({"qid": "5", "chip_id": "64Qv3"})
    for off_schema in ({"qid": 5}, {"qid": "Q5"}, {"qid": "5", "status": "failed"}, {}, {"chip_id": "64Qv3"}):
        assert not check.is_valid(off_schema), off_schema
    compare = jsonschema.Draft202012Validator(sent["compare_calibrations"]["parameters"])
    assert compare.is_valid({"metrics": ["t1"], "qids": ["12"]})
    assert not compare.is_valid({"metrics": ["t1"], "qids": ["12"] * 11})  # bounds reach the grammar
    assert not compare.is_valid({"from": "latest; drop"})  # patterns too


def test_off_by_default_the_request_is_unchanged(scripted_openai, repo):
    provider = _provider(scripted_openai)
    assert not provider.constrain_tool_calls
    body = _ask(scripted_openai, provider, repo)
    assert "parallel_tool_calls" not in body
    for tool in body["tools"]:
        function = tool["function"]
        assert "strict" not in function
        if function["name"] in FULL:
            assert function["parameters"] == model_schema(FULL[function["name"]])


def test_openai_ignores_the_switch_and_bad_values_are_refused():
    openai = provider_from_settings(load_settings(env={"OPENAI_API_KEY": "sk-abcdefghijkl",
                                                      "COPILOT_CONSTRAIN_TOOL_CALLS": "on"}))
    assert openai is not None and not openai.constrain_tool_calls
    with pytest.raises(ConfigError, match="COPILOT_CONSTRAIN_TOOL_CALLS"):
        provider_from_settings(load_settings(env={"OPENAI_BASE_URL": "http://127.0.0.1:1/v1",
                                                  "COPILOT_CONSTRAIN_TOOL_CALLS": "maybe"}))
