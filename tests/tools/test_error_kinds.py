"""Every ``ToolError`` says whether it is a fact of the data or a call that did not fit, and a call that did not fit
never reaches the person as the data's answer."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from copilot_core.tools import DataStore, Toolkit
from tests.public_eval import CHIP

ROOT = Path(__file__).resolve().parents[2] / "copilot_core"
# the opening words of each raise's message, as written in the source -> the kind it must carry (hand-sorted: a
# fact the data states, or a call the arguments got wrong)
DATA_FACTS = ("not found", "does not exist", "has no known topology", "has no runs", "no completed", "no executions",
              "no task results", "no data for coupling", "No figure can be shown", "fewer than two chips", "too few",
              "There is no coupling", "only {arr.size} value", "only {n} {a.kind}s", "no qubit parameters",
              "nothing to compare")
BAD_CALLS = ("unknown tool", "no chip in view", "is limited to", "give ", "unknown metric", "unknown statistic",
             "unknown weekday", "counting measurements needs", "not available", "memory is", "are not both",
             "each condition needs", "conditions mix", "cannot read the window", "arguments are not valid JSON",
             "arguments must be", "invalid {where}", "are counted per chip", "value (it takes")


def _raises() -> list[tuple[str, int, str, ast.Call]]:
    out = []
    for path in sorted(ROOT.rglob("*.py")):
        src = path.read_text()
        for node in ast.walk(ast.parse(src)):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "ToolError":
                out.append((str(path.relative_to(ROOT)), node.lineno, ast.get_source_segment(src, node) or "", node))
    return out


def test_every_tool_error_names_its_kind_and_the_kind_fits_its_message():
    raises = _raises()
    assert len(raises) >= 40  # every raise in the tools is found (not a walk that found nothing)
    for where, line, _source, node in raises:
        kinds = [k.value for k in node.keywords if k.arg == "kind"]
        assert kinds, f"{where}:{line} raises ToolError without a kind"
        value = kinds[0]
        if isinstance(value, ast.IfExp):  # chosen by the failure (a compare point that is not one): both kinds
            assert {ast.literal_eval(value.body), ast.literal_eval(value.orelse)} == {"data", "call"}
            continue
        kind = ast.literal_eval(value)
        message = ast.get_source_segment(Path(ROOT / where).read_text(), node.args[0]) or ""
        if any(w in message for w in BAD_CALLS):
            assert kind == "call", f"{where}:{line} {message} is a call that did not fit, not {kind}"
        elif any(w in message for w in DATA_FACTS) or message.startswith("f\"no ") or message == "str(exc)":
            assert kind == "data", f"{where}:{line} {message} states a fact of the data, not {kind}"
        else:
            pytest.fail(f"{where}:{line} {message}: sort it into DATA_FACTS or BAD_CALLS")


@pytest.mark.parametrize(("tool", "args"), [
    ("filter_metrics", {"chip_id": CHIP, "conditions": []}),
    ("filter_metric", {"chip_id": CHIP, "metric_name": "t1", "below": "fifty"}),
    ("count_in_window", {"chip_id": CHIP, "what": "runs", "since_weekday": "funday"}),
    ("failure_ranking", {"chip_id": CHIP, "by": "colour"}),
    ("no_such_tool", {}),
    ("get_chip_topology", "{not json"),
    ("compare_calibrations", {"chip_id": CHIP, "from": "the other day"}),
])
def test_a_call_that_does_not_fit_is_kind_call_and_its_summary_holds_no_error_text(tool, args, repo):
    outcome = Toolkit(repo, store=DataStore()).execute(tool, args)
    assert not outcome.ok and outcome.error_kind == "call", outcome
    assert json.loads(outcome.model_text)["error"]  # the model still reads what to fix
    assert outcome.error is not None and outcome.error not in outcome.summary


@pytest.mark.parametrize(("tool", "args", "said"), [
    ("get_qubit_params", {"chip_id": CHIP, "qid": "200"}, "does not exist"),
    ("get_chip_topology", {"chip_id": "99Qzz"}, "not found"),
])
def test_a_fact_of_the_data_is_kind_data_and_the_person_reads_it(tool, args, said, repo):
    outcome = Toolkit(repo, store=DataStore()).execute(tool, args)
    assert not outcome.ok and outcome.error_kind == "data", outcome
    assert said in outcome.summary


@pytest.mark.parametrize(("question", "args", "from_data"), [
    ("What is the T1 of qubit 200?", {"chip_id": CHIP, "qid": "200"}, True),
    ("How many tasks failed in October 2026?", {"chip_id": CHIP, "qid": "2026", "what": "runs"}, False),
    ("How many runs since 3 Nov 2026?", {"chip_id": CHIP, "qid": "64", "what": "runs"}, False),
])
def test_a_missing_subject_is_the_datas_answer_only_when_the_question_names_it(question, args, from_data, repo):
    from copilot_core.answer.blocks import TextBlock
    from copilot_core.checking.verify import tool_errors

    tool = "get_qubit_params" if "what" not in args else "count_in_window"
    outcome = Toolkit(repo, store=DataStore()).execute(tool, args)
    assert not outcome.ok and outcome.error_kind == "data", outcome
    said = " ".join(b.text for b in tool_errors([outcome], question) if isinstance(b, TextBlock))
    assert ("From the data" in said) is from_data, said
    assert ("could not be computed" in said) is not from_data, said
