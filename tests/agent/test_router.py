"""The tool router: a hand-written table of questions and the tools each needs, and what reaches the server."""

from __future__ import annotations

import json

import pytest

from copilot_core.agent import AgentRequest, run_copilot
from copilot_core.routing.router import DEFAULT, MORE_TOOLS, QUBIT, RULES, route

from copilot_core.readiness import Readiness, model_size, router_enabled
from copilot_core.settings import ConfigError, load_settings
from copilot_core.tools import ToolOutcome
from copilot_core.tools.registry import TOOLS, TOOLS_BY_NAME
from tests.fakes.scripted_openai import answer, call

QUBIT_TOOLS = {"get_qubit_params", "get_task_history", "get_latest_task_result"}
TABLE = [
    ("What is the median T1 on 144Qv2?", None, {"generate_chip_heatmap", "get_chip_summary"}),
    ("Which qubits have the worst readout fidelity?", None, {"generate_chip_heatmap", "get_chip_summary",
                                                              "rank_metric"}),
    ("Which qubits have T1 below 50 μs?", None, {"generate_chip_heatmap", "get_chip_summary", "filter_metric"}),
    ("How many qubits have no valid T1?", None, {"generate_chip_heatmap", "get_chip_summary", "missing_metric"}),
    ("Show the T1 heatmap", None, {"generate_chip_heatmap"}),
    ("How is Q5 doing?", None, QUBIT_TOOLS),
    ("How is this qubit doing?", "12", QUBIT_TOOLS),
    ("Tell me about qubit 7", None, QUBIT_TOOLS),
    ("How has T1 of Q3 drifted over time?", None,
     QUBIT_TOOLS | {"get_parameter_timeseries", "get_chip_parameter_timeseries"}),
    ("Show the T2 echo trend for the chip", None, {"get_parameter_timeseries", "get_chip_parameter_timeseries"}),
    ("Why does Q12 have this readout fidelity? Show its provenance", None,
     QUBIT_TOOLS | {"get_parameter_lineage", "get_provenance_lineage_graph"}),
    ("Where does this frequency come from, what is its lineage?", None,
     {"get_parameter_lineage", "get_provenance_lineage_graph"}),
    ("What changed in the last calibration?", None, {"compare_calibrations", "get_execution_history"}),
    ("Compare qubits 3 and 7", None, QUBIT_TOOLS | {"compare_qubits"}),
    ("Correlate T1 with the qubit frequency", None, {"execute_python_analysis", "correlate_metrics"}),
    ("Which couplings does Q4 have?", None, QUBIT_TOOLS | {"get_coupling_params"}),
    ("Which tasks failed?", None, {"search_task_results", "get_latest_task_result", "get_run_failures"}),
    ("Any notes from the operators?", None, {"get_calibration_notes"}),
    ("Who are the neighbours of Q9 in the topology?", None, QUBIT_TOOLS | {"get_chip_topology"}),
    ("Which parameters can I ask about?", None, {"list_available_parameters"}),
    ("Hello there", None, {"get_chip_summary", "list_available_parameters"}),
]


@pytest.mark.parametrize(("question", "qid", "expected"), TABLE, ids=[q for q, _, _ in TABLE])
def test_routes_questions_to_the_tools_they_need(question, qid, expected):
    assert set(route(question, qid=qid).names) == expected


def test_every_routed_name_is_a_registered_tool():
    named = {n for _, tools in RULES for n in tools} | set(QUBIT) | set(DEFAULT) | {"compare_qubits",
                                                                                  "get_parameter_lineage",
                                                                                  "execute_python_analysis"}
    assert named - set(TOOLS_BY_NAME) == set()
    assert MORE_TOOLS not in TOOLS_BY_NAME


def test_route_keeps_to_the_tools_the_model_may_use():
    reduced = ["get_qubit_params", "get_chip_summary"]
    assert route("median T1 on the chip, and Q5's history", available=reduced).names == (
        "get_qubit_params", "get_chip_summary")


def test_no_routed_tool_available_leaves_every_available_tool():
    assert route("Which tasks failed?", available=["get_qubit_params", "get_chip_summary"]).names == (
        "get_qubit_params", "get_chip_summary")


def test_a_route_that_leaves_nothing_out_sends_no_escape_tool(scripted_openai):
    scripted_openai.push(answer("ok"))
    toolkit = RegistryToolkit()
    toolkit.schemas = lambda: [s for s in (spec.schema() for spec in TOOLS) if s["name"] == "get_chip_summary"]
    result = run_copilot(AgentRequest("What is the median T1?", chip_id="64Qv3"), provider=scripted_openai.provider(),
                         toolkit=toolkit, repo=None, router=True)
    assert sent(scripted_openai.bodies()[0]) == ["get_chip_summary"] and result.routed_tools is None


def test_analysis_mode_gets_the_qubit_and_lineage_tools():
    names = set(route("Is this fit good?", qid="3", mode="analysis").names)
    assert QUBIT_TOOLS | {"get_parameter_lineage", "execute_python_analysis"} <= names


# ----------------------------------------------------------------------------------- the switch


def _readiness(level: str) -> Readiness:
    return Readiness(level, "why", "ok", "ok")  # type: ignore[arg-type]


class _Provider:
    def __init__(self, model: str) -> None:
        self.model = model


@pytest.mark.parametrize(("model", "level", "explicit", "size"), [
    ("gpt-5.4", "full", None, "large"),
    ("gpt-5.4", "reduced", None, "small"),  # the probe gave it the reduced set
    ("qwen2.5-coder-1.5b-instruct", "full", None, "small"),  # the project's local model
    ("llama3.2:3b", "full", None, "small"),  # an Ollama tag
    ("Mistral-7B-Instruct-v0.3-Q4_K_M.gguf", "full", None, "small"),
    ("llama3.1:70b", "full", None, "large"),
    ("qwen2.5-72b-instruct", "full", None, "large"),
    ("qwen2.5-coder-1.5b-instruct", "full", "large", "large"),  # the setting wins
    ("gpt-5.4", "full", "small", "small"),
])
def test_model_size(model, level, explicit, size):
    assert model_size(_Provider(model), _readiness(level), explicit)[0] == size


def test_router_switch():
    hosted, local = _Provider("gpt-5.4"), _Provider("qwen2.5-coder-1.5b-instruct")
    assert router_enabled("auto", local, None) and not router_enabled("auto", hosted, _readiness("full"))
    assert router_enabled(None, local, None) and not router_enabled(None, hosted, None)  # auto by default
    assert router_enabled("on", hosted, None) and not router_enabled("off", local, None)
    with pytest.raises(ValueError, match="COPILOT_TOOL_ROUTER must be one of auto, on, off"):
        router_enabled("sometimes", local, None)


def test_bad_switch_values_are_refused_when_settings_load(tmp_path):
    with pytest.raises(ConfigError, match="COPILOT_TOOL_ROUTER must be one of auto, on, off, not 'sometimes'"):
        load_settings({"COPILOT_TOOL_ROUTER": "sometimes", "DATA_DIR": str(tmp_path)})
    with pytest.raises(ConfigError, match="COPILOT_MODEL_SIZE must be one of small, large"):
        load_settings({"COPILOT_MODEL_SIZE": "tiny", "DATA_DIR": str(tmp_path)})


# ------------------------------------------------------------------------------ through the server


class RegistryToolkit:
    """Every registered tool's real schema; calls answer a fixed line (the loop is under test, not the tools)."""

    def __init__(self) -> None:
        self.executed: list[str] = []

    def schemas(self) -> list[dict]:
        return [spec.schema() for spec in TOOLS]

    def names(self) -> list[str]:
        return [spec.name for spec in TOOLS]

    def begin_request(self, chip_id: str | None = None) -> None:
        return None

    def execute(self, name: str, raw_args: str | dict | None) -> ToolOutcome:
        self.executed.append(name)
        return ToolOutcome(name, {}, True, json.dumps({"ok": name}), name)


def sent(body: dict) -> list[str]:
    return [t.get("name") or t["function"]["name"] for t in body.get("tools") or []]


@pytest.mark.parametrize("style", ["responses", "chat_completions"])
def test_server_gets_the_routed_tools_and_more_tools_opens_the_full_set(scripted_openai, style):
    scripted_openai.push(call(MORE_TOOLS, {}), call("get_chip_topology", {"chip_id": "64Qv3"}),
                         answer("Median T1 is 50 us."))
    toolkit = RegistryToolkit()
    result = run_copilot(AgentRequest("How is the T1 distribution across 64Qv3?", chip_id="64Qv3"),
                         provider=scripted_openai.provider(style), toolkit=toolkit, repo=None, router=True)
    assert result.error is None and result.answer.startswith("Median T1 is 50 us.")
    first, second, third = scripted_openai.bodies()
    # registry order of the two routed tools, then the escape tool
    assert sent(first) == ["get_chip_summary", "generate_chip_heatmap", MORE_TOOLS]
    assert result.routed_tools == ["get_chip_summary", "generate_chip_heatmap"]
    everything = [spec.name for spec in TOOLS]
    assert sent(second)[:3] == sent(first) and sorted(sent(second)) == sorted(everything + [MORE_TOOLS])
    assert sent(third) == sent(second)  # stays open for the rest of the question
    assert toolkit.executed == ["get_chip_topology"]  # more_tools is the loop's, not the toolkit's
    reply = [i.get("output") or i.get("content") for i in second.get("input") or second.get("messages")
             if i.get("type") == "function_call_output" or i.get("role") == "tool"]
    assert len(reply) == 1 and "get_chip_topology" in json.loads(reply[0])["added_tools"]


def test_router_off_sends_every_tool(scripted_openai):
    scripted_openai.push(answer("ok"))
    run_copilot(AgentRequest("What is the median T1?", chip_id="64Qv3"), provider=scripted_openai.provider(),
                toolkit=RegistryToolkit(), repo=None)
    assert sent(scripted_openai.bodies()[0]) == [spec.name for spec in TOOLS]
