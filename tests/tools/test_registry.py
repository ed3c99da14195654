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
from copilot_core.tools.spec import FROM_QUESTION, ToolError

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
TOOL_GUIDE = " ".join((ROOT / "copilot_core" / "agent" / "prompts" / "tools.md").read_text(encoding="utf-8").split())
# Arguments every tool words the same way -> how the tool guide describes them once (written out by hand).
GUIDE_WORDS = {"qid": "qubit ids", "qids": "qubit ids", "param_names": "parameter names", "metrics": "parameter names",
               "parameter_name": "parameter names", "metric_name": "parameter names", "task_name": "tasks like",
               "execution_id": "executions like"}
# Arguments sent with neither words nor an enum, reviewed one by one: filters and limits whose name says what they
# do (a wrong value gets an error naming the bound or the valid values), and ids the model copies from results.
SAY_WHAT_THEY_DO = {"last_n", "days", "status", "tags", "within_hours", "code", "task_id", "below", "above", "n"}


def test_the_seed_tools_and_the_memory_tool():
    answers = {"rank_metric", "filter_metric", "missing_metric", "get_run_failures", "filter_metrics", "metric_spread",
               "correlate_metrics", "compare_chips", "count_in_window", "failure_ranking",
               "check_target"}  # one per question shape
    assert {t.name for t in TOOLS} == SEED_000_TOOLS | {"recall_memory", "compare_calibrations",
                                                         "get_task_figure"} | answers
    assert len(TOOLS) == 31


def test_policy_declared_on_the_tools():
    """The policy table, written out by hand."""
    assert set(STORED_TOOLS) == {"get_chip_parameter_timeseries", "get_chip_summary", "compare_calibrations"}
    assert REDUCED_TOOLS == {"get_qubit_params", "get_chip_summary", "get_parameter_timeseries",
                             "generate_chip_heatmap", "get_execution_history"}
    assert {t.name for t in TOOLS if not t.cacheable} == {"execute_python_analysis"}
    assert {t.name for t in TOOLS if t.runs_code} == {"execute_python_analysis"}
    assert {t.name: t.limit.calls for t in TOOLS if t.limit} == {"get_parameter_timeseries": 3}
    assert {t.name: t.requires for t in TOOLS if t.requires} == {"recall_memory": "memory",
                                                                          "get_task_figure": "figures"}


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
    """The full schema (what arguments are validated against) is strict and bounded; every property is described;
    the chip is required (the toolkit fills in the session's chip before validation)."""
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
        if prop.get("type") == "string" and "enum" not in prop:
            assert "pattern" in prop or "maxLength" in prop, f"{spec.name}.{name} is unbounded"
    if "chip_id" in params["properties"]:
        assert "chip_id" in params["required"]


@pytest.mark.parametrize("spec", TOOLS, ids=lambda s: s.name)
def test_the_model_is_sent_names_and_types_not_rules_or_repeated_words(spec):
    """What the model reads: the tool's one-line description and its arguments, without the chip (filled from
    the session), without words (the description and the tool guide say what is needed, once), without "string"
    (the default type) and without validation rules; every argument it is sent is explained somewhere."""
    sent = spec.schema()
    assert set(sent) == {"name", "description", "parameters"} and sent["description"] == spec.description
    assert "\n" not in sent["description"]
    params = sent["parameters"]
    Draft202012Validator.check_schema(params)
    full = spec.parameters["properties"]
    from_question = {name for name, prop in full.items() if FROM_QUESTION in prop}  # the router fills them
    assert set(params["properties"]) == set(full) - {"chip_id"} - from_question
    assert params.get("required", []) == [n for n in spec.parameters["required"] if n != "chip_id"]
    assert "required" not in params or params["required"]
    text = json.dumps(params)
    for keyword in ("pattern", "maxItems", "maximum", "minLength", "additionalProperties", "description", "x-"):
        assert f'"{keyword}' not in text
    for name, prop in params["properties"].items():
        assert prop.get("type", "string") == full[name]["type"]
        assert prop.get("enum") == full[name].get("enum") or "status" == name
        explained = (prop.get("enum") or name in SAY_WHAT_THEY_DO or re.search(rf"\b{name}\b", spec.description)
                     or (name in GUIDE_WORDS and GUIDE_WORDS[name] in TOOL_GUIDE))
        assert explained, f"{spec.name}.{name} is sent without an explanation"
    if "chip_id" in full:
        assert "`chip_id` defaults to the context's chip" in TOOL_GUIDE


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


@pytest.mark.parametrize(("tool", "key", "written", "meant"), [
    ("failure_ranking", "since_weekday", "Thursday", "thursday"),
    ("count_in_window", "since_weekday", " MONDAY ", "monday"),
    ("count_in_window", "what", "Failed Tasks", "failed tasks"),
    ("count_in_window", "day", "Yesterday", "yesterday"),
    ("failure_ranking", "by", "Qubit", "qubit"),
])
def test_an_allowed_value_in_another_case_is_that_value(tool, key, written, meant):
    """A small model writes "Thursday" where the schema allows "thursday": the call runs with the allowed value."""
    args = validate_args(TOOLS_BY_NAME[tool], {"chip_id": "64Qv3", "what": "runs", key: written}
                         if tool == "count_in_window" else {"chip_id": "64Qv3", key: written})
    assert args[key] == meant


@pytest.mark.parametrize(("tool", "key", "written"), [
    ("failure_ranking", "since_weekday", "Thursdays"),
    ("count_in_window", "what", "failed task"),
    ("count_in_window", "day", "the day before"),
])
def test_a_value_that_is_not_allowed_in_any_case_is_still_refused(tool, key, written):
    with pytest.raises(ToolError, match=f"invalid {key}"):
        validate_args(TOOLS_BY_NAME[tool], {"chip_id": "64Qv3", "what": "runs", key: written}
                      if tool == "count_in_window" else {"chip_id": "64Qv3", key: written})
