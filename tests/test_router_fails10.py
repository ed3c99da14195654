"""The dev questions of ``tests/dev_fails10.py`` (the router's calls are checked in ``tests/test_router_planned.py``):
enough of them over both chips and every kind; a listing or chip summary standing in for a failure ranking, and a
count over every subject or window standing in for a count of one kind's failures, are re-made as the question
reads them; counts that name no kind, or one subject, stay counts."""

from __future__ import annotations

import pytest

from copilot_core.checking.restate import corrected
from copilot_core.language.question import parse
from copilot_core.routing.prefetch import plan_prefetch
from tests import dev_fails10
from tests.public_eval import CHIP, OTHER

CHIPS = (CHIP, OTHER)


def test_there_are_at_least_30_dev_questions_over_both_chips_and_every_kind(demo_db):
    asked = dev_fails10.planned(demo_db)
    assert len(asked) >= 30 and len([q for q, _ in asked if "-att-" in q.id]) >= 8
    assert {args["chip_id"] for _, (_, args) in asked} == {CHIP, OTHER}
    assert {args.get("by") for _, (_, args) in asked} >= {"task", "qubit", "coupling", "run"}
    assert {args.get("what") for _, (_, args) in asked} >= {"excluded tasks"}


@pytest.mark.parametrize("text, name, given, wanted", [
    ("Which task has failed the most times?", "search_task_results", {"chip_id": CHIP, "status": "failed"},
     ("failure_ranking", {"chip_id": CHIP, "by": "task"})),
    ("Which qubit failed most often on 144Qv2?", "get_execution_history", {"chip_id": OTHER},
     ("failure_ranking", {"chip_id": OTHER, "by": "qubit"})),
    ("Which run had the most failed tasks?", "get_chip_summary", {"chip_id": CHIP},
     ("failure_ranking", {"chip_id": CHIP, "by": "run"})),
    ("How many coupling calibrations failed in the last 5 days?", "count_in_window",
     {"chip_id": CHIP, "what": "failed tasks"}, ("failure_ranking", {"chip_id": CHIP, "by": "coupling", "days": 5})),
    ("How many coupling calibrations failed in the last 5 days?", "count_in_window",
     {"chip_id": CHIP, "what": "failed tasks", "days": 5},
     ("failure_ranking", {"chip_id": CHIP, "by": "coupling", "days": 5})),
    ("How many coupler tasks failed since Monday?", "failure_ranking", {"chip_id": CHIP, "by": "task",
                                                                       "since_weekday": "monday"},
     ("failure_ranking", {"chip_id": CHIP, "by": "coupling", "since_weekday": "monday"})),
    ("How many qubit calibrations failed in the last 3 days?", "failure_ranking", {"chip_id": CHIP, "by": "qubit"},
     ("failure_ranking", {"chip_id": CHIP, "by": "qubit", "days": 3})),
    ("How many results were left out in the last 5 days?", "count_in_window",
     {"chip_id": CHIP, "what": "task results", "days": 5},
     ("count_in_window", {"chip_id": CHIP, "what": "excluded tasks", "days": 5})),
])
def test_a_call_of_another_kind_or_window_is_re_made(text, name, given, wanted):
    got_name, args, why = corrected(name, given, parse(text, CHIPS))
    assert (got_name, args) == wanted and why, (text, got_name, args, why)


@pytest.mark.parametrize("text, what", [
    ("How many tasks failed in the last 5 days?", "failed tasks"),
    ("How many tasks failed across qubits and couplings in the last 5 days?", "failed tasks"),
    ("How many failures did Q05 have in the last 5 days?", "failed tasks"),
    ("How many runs failed in the last 5 days?", "failed runs"),
    ("How many results were kept in the last 7 days?", "usable tasks"),
])
def test_counts_of_no_one_kind_stay_counts(text, what):
    plan = plan_prefetch(text, chip_id=CHIP, chips=CHIPS)
    assert plan is not None and (plan.name, plan.args["what"]) == ("count_in_window", what), (text, plan)


def test_a_metric_that_dropped_below_a_limit_is_no_excluded_count():
    plan = plan_prefetch("How many qubits dropped below 50 us T1?", chip_id=CHIP, chips=CHIPS)
    assert plan is not None and plan.name == "filter_metric", plan
