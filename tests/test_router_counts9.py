"""The router's call for every question of ``tests/dev_counts9.py`` (a count of the kind asked over the window asked,
a day of the month written alone, the distinct qubits, couplings or tasks that failed, calibration notes, counts per
chip, a chip statistic per chip), the tool's answer held to a hand-written pymongo read, and a model's call of
another kind, window or tool re-made as the question reads it (``checking.restate``)."""

from __future__ import annotations

from datetime import date, datetime

import pytest

from copilot_core.agent.lookups import lookup_plan
from copilot_core.checking.restate import corrected, mismatches
from copilot_core.data.repository import CalibrationRepository
from copilot_core.domain.windows import written_day
from copilot_core.language.dates import written_window
from copilot_core.language.question import parse
from copilot_core.routing.prefetch import plan_prefetch
from copilot_core.tools import DataStore, Toolkit
from copilot_core.tools.toolkit import answer_line
from tests import dev_counts9
from tests.eval_score import problems
from tests.public_eval import CHIP, OTHER

CHIPS = (CHIP, OTHER)


@pytest.fixture(scope="module")
def cases(midnight):
    return dev_counts9.cases(midnight)


def _plan(text: str):
    return lookup_plan(text, CHIP) or plan_prefetch(text, chip_id=CHIP, chips=CHIPS)


def test_there_are_enough_dev_questions_on_both_chips(cases):
    kinds = [q.shape for q, _ in cases]
    assert {k: kinds.count(k) for k in set(kinds)} == {"counts9 count": 17, "counts9 distinct": 5,
                                                        "counts9 per chip": 8, "counts9 statistic": 6}
    assert {call[1].get("chip_id") for _, call in cases} >= {CHIP, OTHER}
    assert all(q.truth.expects and all(e.value > 0 for e in q.truth.expects) for q, _ in cases), "a zero truth"


@pytest.mark.parametrize("kind", ["count", "distinct", "per chip", "statistic"])
def test_the_router_makes_each_questions_call(cases, kind):
    wrong = []
    for q, (tool, want) in cases:
        if q.shape != f"counts9 {kind}":
            continue
        plan = _plan(q.text)
        if plan is None or plan.name != tool or any(plan.args.get(k) != v for k, v in want.items()):
            wrong.append(f"{q.id}: {q.text!r} -> {plan and (plan.name, plan.args)} != {tool}({want})")
        elif found := mismatches(parse(q.text, CHIPS), plan.name, dict(plan.args)):
            wrong.append(f"{q.id}: mismatches {[m.missed for m in found]}")
    assert not wrong, "\n".join(wrong)


def test_the_tools_answer_each_question_with_the_pymongo_truth(cases, midnight):
    kit = Toolkit(CalibrationRepository(midnight), store=DataStore())
    wrong = []
    for q, _ in cases:
        plan = _plan(q.text)
        assert plan is not None, q.text
        said = answer_line(kit.execute(plan.name, dict(plan.args))) or ""
        if bad := problems(q.truth, said):
            wrong.append(f"{q.id}: {bad} in {said!r}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize(("last", "written", "want"), [
    (datetime(2026, 11, 25, 23, 0), "---20", date(2026, 11, 20)),
    (datetime(2026, 11, 25, 23, 0), "---25", date(2026, 11, 25)),
    (datetime(2026, 11, 5, 1, 0), "---20", date(2026, 10, 20)),  # not yet the 20th this month: last month's
    (datetime(2026, 12, 5, 1, 0), "---31", date(2026, 10, 31)),  # November has no 31st
    (datetime(2026, 1, 3, 1, 0), "---15", date(2025, 12, 15)),  # across the year
])
def test_a_day_of_the_month_alone_is_the_latest_such_day(last, written, want):
    assert written_day(last, written) == want


@pytest.mark.parametrize(("text", "want"), [
    ("How many runs failed since the 20th?", ("---20", None)),
    ("failed tasks from the 3rd on 144Qv2", ("---03", None)),
    ("excluded results between the 20th and the 23rd", ("---20", "---23")),
    ("how many runs on the 24th", ("---24", "---24")),
    ("runs until the 21st", (None, "---21")),
    ("from the 2nd till the 9th of Dec", ("12-02", "12-09")),  # the month written once, for both
    ("What is the T1 of the 2nd qubit since 2026-11-20?", ("2026-11-20", None)),
    ("What is the median T1 on the 16-qubit chip?", None),
    ("the 3rd lowest T1", None),
])
def test_a_day_written_without_its_month_is_read_as_one(text, want):
    assert written_window(text) == want


_C = {"chip_id": CHIP}


@pytest.mark.parametrize(("text", "given", "want"), [
    ("How many excluded results in the last 10 days?", ("search_task_results", _C | {"status": "excluded"}),
     ("count_in_window", _C | {"what": "excluded tasks", "days": 10})),
    ("How many failed tasks in the last 3 days?", ("get_run_failures", _C),
     ("count_in_window", _C | {"what": "failed tasks", "days": 3})),
    ("How many calibration notes this week?", ("get_calibration_notes", _C),
     ("count_in_window", _C | {"what": "notes", "since_weekday": "monday"})),
    ("How many runs since the 20th?", ("get_execution_history", _C),
     ("count_in_window", _C | {"what": "runs", "from_date": "---20"})),
    ("How many tasks were skipped in the last week?", ("count_in_window", _C | {"what": "task results", "days": 7}),
     ("count_in_window", _C | {"what": "excluded tasks", "days": 7})),
    ("How many calibration notes since Monday?", ("count_in_window", _C | {"what": "runs", "since_weekday": "monday"}),
     ("count_in_window", _C | {"what": "notes", "since_weekday": "monday"})),
    ("How many runs failed in the last 10 days?", ("count_in_window", _C | {"what": "failed tasks", "days": 10}),
     ("count_in_window", _C | {"what": "failed runs", "days": 10})),
    ("How many different qubits failed in the last 3 days?", ("count_in_window", _C | {"what": "failed tasks",
                                                                                         "days": 3}),
     ("failure_ranking", _C | {"by": "qubit", "days": 3})),
    ("How many distinct qubits failed this week?", ("failure_ranking", _C | {"by": "task", "since_weekday": "monday"}),
     ("failure_ranking", _C | {"by": "qubit", "since_weekday": "monday"})),
    ("Which chip had more failures since the 20th?", ("count_in_window", _C | {"what": "failed tasks",
                                                                                "chip_ids": list(CHIPS)}),
     ("count_in_window", _C | {"what": "failed tasks", "chip_ids": list(CHIPS), "from_date": "---20"})),
    ("Which chip had more failures last week?", ("count_in_window", _C | {"what": "failed tasks",
                                                                           "chip_ids": list(CHIPS), "days": 30}),
     ("count_in_window", _C | {"what": "failed tasks", "chip_ids": list(CHIPS), "days": 7})),
    ("What's the mean T2 echo per chip?", ("get_chip_summary", _C | {"param_names": ["t2_echo"]}),
     ("compare_chips", {"metric_name": "t2_echo", "statistic": "mean"})),
    ("Which chip has the better median CZ fidelity?", ("compare_chips", {"metric_name": "zx90_gate_fidelity",
                                                                         "statistic": "mean"}),
     ("compare_chips", {"metric_name": "zx90_gate_fidelity", "statistic": "median"})),
])
def test_a_models_call_of_another_kind_window_or_tool_is_re_made(text, given, want):
    name, args, why = corrected(*given, parse(text, CHIPS))
    assert why is not None, text
    assert (name, args) == want


@pytest.mark.parametrize(("text", "given"), [
    ("Show the failed tasks of the latest run", ("get_run_failures", _C)),  # a listing asked: kept
    ("List the calibration notes", ("get_calibration_notes", _C)),
    ("How many calibration notes since the 22nd?", ("count_in_window", _C | {"what": "notes",
                                                                              "from_date": "2026-11-22"})),
])
def test_a_call_that_restates_the_question_is_kept(text, given):
    assert corrected(*given, parse(text, CHIPS))[2] is None


_O, _BOTH = {"chip_id": OTHER}, {"chip_ids": list(CHIPS)}


@pytest.mark.parametrize(("text", "want"), [  # wordings written after the fix, to attack it
    ("How many results were skipped on 144Qv2 from the 21st?",
     ("count_in_window", _O | {"what": "excluded tasks", "from_date": "---21"})),
    ("How many qubits failed on the 24th?",
     ("failure_ranking", _C | {"by": "qubit", "from_date": "---24", "to_date": "---24"})),
    ("how many notes since the 1st", ("count_in_window", _C | {"what": "notes", "from_date": "---01"})),
    ("number of different couplings with failures in the past 2 days on 144Qv2",
     ("failure_ranking", _O | {"by": "coupling", "days": 2})),
    ("Which chip skipped more tasks this week?",
     ("count_in_window", _C | _BOTH | {"what": "excluded tasks", "since_weekday": "monday"})),
    ("Average T1 per chip?", ("compare_chips", {"metric_name": "t1", "statistic": "mean"})),
    ("How many executions failed since the 19th on 144Qv2?",
     ("count_in_window", _O | {"what": "failed runs", "from_date": "---19"})),
    ("How many separate tasks failed yesterday?", ("failure_ranking", _C | {"by": "task", "day": "yesterday"})),
    ("Which chip had more calibration notes since the 22nd?",
     ("count_in_window", _C | _BOTH | {"what": "notes", "from_date": "---22"})),
    ("median T2 echo for each chip", ("compare_chips", {"metric_name": "t2_echo", "statistic": "median"})),
])
def test_attacking_wordings_get_the_call_of_their_kind_and_window(text, want):
    plan = _plan(text)
    assert plan is not None and (plan.name, dict(plan.args)) == want, plan
