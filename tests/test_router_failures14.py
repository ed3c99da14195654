"""The dev questions of ``tests/dev_failures14.py`` against the router and the parse: the unit a count of failures
is asked in (failed results, runs holding a failure, runs whose status is failed) and a share are read into the
question's ``counted`` field and carried into the call; a count across chips keeps its window; a model's call that
counts another unit is re-made as the question reads it."""

from __future__ import annotations

import pytest

from copilot_core.checking.restate import corrected
from copilot_core.language.question import parse
from copilot_core.routing.prefetch import plan_prefetch
from tests import dev_failures14
from tests.public_eval import CHIP, OTHER

CHIPS = (CHIP, OTHER)


def test_there_are_at_least_30_dev_questions_over_both_chips_and_classes(demo_db):
    asked = dev_failures14.planned(demo_db)
    assert len(asked) >= 30 and len([q for q, _ in asked if "-att-" in q.id]) >= 6
    assert {args["chip_id"] for _, (_, args) in asked} == set(CHIPS)
    assert {args["what"] for _, (_, args) in asked} >= {"runs with failures", "failed runs", "failed tasks"}


def test_the_router_makes_the_call_each_dev_question_needs(demo_db):
    wrong = [(q.id, q.text, plan and (plan.name, plan.args), call) for q, call in dev_failures14.planned(demo_db)
             if (plan := plan_prefetch(q.text, chip_id=CHIP, chips=CHIPS)) is None or (plan.name, plan.args) != call]
    assert not wrong, wrong


@pytest.mark.parametrize("text, unit, share", [
    ("How many runs had a failed task this week?", "runs with failures", False),
    ("What share of executions saw an error?", "runs with failures", True),
    ("How many runs failed since Monday?", "failed runs", False),
    ("What percentage of task results failed?", "task results", True),
    ("How many tasks failed yesterday?", "task results", False),
    ("How many different qubits failed this week?", "qubits", False),
    ("How many couplers had failures?", "couplings", False),
])
def test_the_counted_unit_and_share_are_read_into_the_question(text, unit, share):
    counted = parse(text, CHIPS).counted
    assert counted is not None and (counted.unit, counted.share) == (unit, share), counted


def test_a_question_about_no_failure_has_no_counted_unit():
    assert parse("How many runs since Monday?", CHIPS).counted is None


@pytest.mark.parametrize("text, given, wanted", [
    ("How many runs had at least one failed task this fortnight?", {"chip_id": CHIP, "what": "failed tasks",
                                                                    "days": 14},
     {"chip_id": CHIP, "what": "runs with failures", "days": 14}),
    ("How many executions contained an error since Monday?", {"chip_id": CHIP, "what": "failed runs",
                                                              "since_weekday": "monday"},
     {"chip_id": CHIP, "what": "runs with failures", "since_weekday": "monday"}),
])
def test_a_model_call_counting_another_unit_is_re_made(text, given, wanted):
    name, args, why = corrected("count_in_window", given, parse(text, CHIPS))
    assert (name, args) == ("count_in_window", wanted) and why, (name, args, why)


def test_a_count_across_chips_keeps_its_window():
    plan = plan_prefetch("Across all chips, how many failures in the last 9 days?", chip_id=CHIP, chips=CHIPS)
    assert plan is not None and plan.args.get("days") == 9 and plan.args.get("chip_ids") == list(CHIPS), plan
