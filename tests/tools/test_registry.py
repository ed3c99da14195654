"""Every tool in the registry: its policy, a schema the APIs accept, a description, a contract test, and
arguments checked before any database read."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from copilot_core.tools import REDUCED_TOOLS, STORED_TOOLS, TOOLS, DataStore, Toolkit
from copilot_core.tools.args import validate_args
from copilot_core.tools.registry import TOOLS_BY_NAME
from copilot_core.tools.spec import ToolError

SEED_000_TOOLS = {  # the table in seed 000, verbatim
    "get_qubit_params", "get_latest_task_result", "get_task_history", "get_parameter_timeseries",
    "execute_python_analysis", "get_chip_summary", "get_coupling_params", "get_execution_history", "compare_qubits",
    "get_chip_topology", "search_task_results", "get_calibration_notes", "get_parameter_lineage",
    "get_provenance_lineage_graph", "generate_chip_heatmap", "get_chip_parameter_timeseries",
    "list_available_parameters",
}


TOOL_TESTS = Path(__file__).parents[1]
ROOT = Path(__file__).parents[2]
DESCRIPTIONS = ROOT / "copilot_core" / "tools" / "descriptions"
TOOL_GUIDE = (ROOT / "copilot_core" / "agent" / "prompts" / "tools.md").read_text(encoding="utf-8")
# Arguments every tool words the same way -> how the tool guide describes them once (written out by hand).
GUIDE_WORDS = {"chip_id": "`chip_id` as in the context", "qid": "qubit ids", "qids": "qubit ids",
               "param_names": "parameter names",
               "metrics": "parameter names", "parameter_name": "parameter names", "task_name": "tasks like",
               "execution_id": "\"20260720-003\""}


def test_the_seed_tools_and_the_memory_tool():
    assert {t.name for t in TOOLS} == SEED_000_TOOLS | {"recall_memory", "compare_calibrations"} and len(TOOLS) == 19


def test_policy_declared_on_the_tools():
    """The policy table, written out by hand."""
    assert set(STORED_TOOLS) == {"get_chip_parameter_timeseries", "get_chip_summary", "compare_calibrations"}
    assert REDUCED_TOOLS == {"get_qubit_params", "get_chip_summary", "get_parameter_timeseries",
                             "generate_chip_heatmap", "get_execution_history"}
    assert {t.name for t in TOOLS if not t.cacheable} == {"execute_python_analysis"}
    assert {t.name for t in TOOLS if t.runs_code} == {"execute_python_analysis"}
    assert {t.name: t.limit.calls for t in TOOLS if t.limit} == {"get_parameter_timeseries": 3}
    assert {t.name: t.requires for t in TOOLS if t.requires} == {"recall_memory": "memory"}


@pytest.mark.parametrize("spec", TOOLS, ids=lambda s: s.name)
def test_every_tool_is_documented_and_has_a_contract_test(spec):
    described = DESCRIPTIONS / f"{spec.name}.md"
    assert described.is_file(), f"{spec.name} has no description file (add copilot_core/tools/descriptions/{spec.name}.md)"
    text = described.read_text(encoding="utf-8").strip()
    assert len(text) > 30 and spec.description == text
    called = re.compile(r"""(?:call|execute)\(\s*["']""" + re.escape(spec.name) + """["']""")
    files = [p.name for p in TOOL_TESTS.rglob("test_*.py") if p.name != Path(__file__).name
             and called.search(p.read_text())]
    assert files, f"no test under tests/ runs {spec.name} (add one next to the others of its family)"


def test_every_description_file_belongs_to_a_tool():
    assert {p.stem for p in DESCRIPTIONS.glob("*.md")} == {t.name for t in TOOLS}


@pytest.mark.parametrize("spec", TOOLS, ids=lambda s: s.name)
def test_schema_is_strict_and_valid(spec):
    """The full schema (what arguments are validated against) is strict and bounded; every property is described."""
    params = spec.parameters
    Draft202012Validator.check_schema(params)
    assert params["type"] == "object" and params["additionalProperties"] is False
    assert set(params["required"]) <= set(params["properties"])
    for name, prop in params["properties"].items():
        assert prop.get("description"), f"{spec.name}.{name} has no description"
        if "default" in prop:
            Draft202012Validator(prop).validate(prop["default"])
        if prop.get("type") == "integer":
            assert "maximum" in prop, f"{spec.name}.{name} is unbounded"


@pytest.mark.parametrize("spec", TOOLS, ids=lambda s: s.name)
def test_the_model_is_sent_types_and_words_not_validation_rules(spec):
    """What the model reads: the same properties and required keys, each described unless it is one of the
    shared arguments (chip_id, qid...) the tool guide describes once; no patterns or bounds."""
    sent = spec.schema()
    assert set(sent) == {"name", "description", "parameters"} and sent["description"] == spec.description
    params = sent["parameters"]
    Draft202012Validator.check_schema(params)
    assert set(params["properties"]) == set(spec.parameters["properties"])
    assert params["required"] == spec.parameters["required"]
    text = json.dumps(params)
    for keyword in ("pattern", "maxItems", "maximum", "minLength", "additionalProperties", "x-shared"):
        assert f'"{keyword}"' not in text
    for name, prop in params["properties"].items():
        assert prop["type"] == spec.parameters["properties"][name]["type"]
        if "description" not in prop:
            words = GUIDE_WORDS.get(name)
            assert words and words in TOOL_GUIDE, f"{spec.name}.{name} is sent without a description"


def test_allowed_subset_and_unknown_names():
    kit = Toolkit(None, store=DataStore(), allowed={"get_qubit_params", "get_chip_topology"})
    assert [s["name"] for s in kit.schemas()] == ["get_qubit_params", "get_chip_topology"]
    denied = kit.execute("get_chip_summary", {"chip_id": "64Qv3"})
    assert not denied.ok and "unknown tool" in denied.error
    with pytest.raises(ValueError, match="not_a_tool"):
        Toolkit(None, store=DataStore(), allowed={"not_a_tool"})


class TestNormalisation:
    def test_qubit_spellings(self):
        spec = TOOLS_BY_NAME["compare_qubits"]
        args = validate_args(spec, {"chip_id": "64Qv3", "qids": ["Q05", 7, "q011", " 3 "]})
        assert args["qids"] == ["5", "7", "11", "3"]
        assert validate_args(TOOLS_BY_NAME["get_qubit_params"], '{"chip_id": "64Qv3", "qid": "Q005"}')["qid"] == "5"

    def test_defaults_nulls_and_quoted_numbers(self):
        spec = TOOLS_BY_NAME["search_task_results"]
        assert validate_args(spec, {"chip_id": "64Qv3", "qid": None})["last_n"] == 10
        assert validate_args(spec, {"chip_id": "64Qv3", "last_n": "7"})["last_n"] == 7

    @pytest.mark.parametrize("args, fragment", [
        ({"chip_id": "64Qv3", "qid": {"$ne": ""}}, "invalid qid"),
        ({"chip_id": {"$gt": ""}, "qid": "5"}, "invalid chip_id"),
        ({"chip_id": "64Qv3", "qid": "5", "project_id": "other"}, "'project_id' was unexpected"),
        ({"chip_id": "64Qv3"}, "'qid' is a required property"),
        ({"chip_id": "64Qv3", "qid": "5; drop"}, "invalid qid"),
        ({"chip_id": "64Q v3", "qid": "5"}, "invalid chip_id"),
    ])
    def test_rejected(self, args, fragment):
        with pytest.raises(ToolError) as caught:
            validate_args(TOOLS_BY_NAME["get_qubit_params"], args)
        assert fragment in caught.value.message
        assert caught.value.hint.startswith("get_qubit_params takes: chip_id")

    @pytest.mark.parametrize("name, args", [
        ("get_task_history", {"chip_id": "64Qv3", "qid": "5", "task_name": "CheckT1", "last_n": 10_000}),
        ("get_chip_parameter_timeseries", {"chip_id": "64Qv3", "parameter_name": "t1", "last_n": 0}),
        ("get_provenance_lineage_graph", {"chip_id": "64Qv3", "entity_id": "t1:5:20260720-003:ab", "max_depth": 50}),
        ("generate_chip_heatmap", {"chip_id": "64Qv3", "metric_name": "t1", "selection_mode": "worst"}),
        ("compare_qubits", {"chip_id": "64Qv3", "qids": ["5"]}),
    ])
    def test_bounds(self, name, args):
        outcome = Toolkit(None, store=DataStore()).execute(name, args)
        assert not outcome.ok and outcome.error.startswith("invalid")
        assert json.loads(outcome.model_text)["hint"].startswith(f"{name} takes:")


@pytest.mark.parametrize("raw", ["{not json", "[1, 2]", "\"chip\"", 42])
def test_malformed_arguments_never_raise(raw):
    outcome = Toolkit(None, store=DataStore()).execute("get_chip_topology", raw)
    assert not outcome.ok and json.loads(outcome.model_text)["error"]
    assert outcome.summary.startswith("get_chip_topology failed")
