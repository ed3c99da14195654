"""The router makes the call each spread-statistic and run-ranking dev question needs (``tests/dev_spread13.py``),
every argument as written there by hand, and that call restates its question; a call that computes another
statistic, another unit, or one run's breakdown for a ranking of runs is re-made as the question reads it."""

from __future__ import annotations

import pytest

from copilot_core.checking.restate import corrected, mismatches
from copilot_core.language.question import parse
from copilot_core.routing.prefetch import plan_prefetch
from tests import dev_spread13
from tests.public_eval import CHIP, OTHER

CHIPS = (CHIP, OTHER)


def test_there_are_at_least_30_dev_questions_over_both_chips(demo_db):
    asked = dev_spread13.planned(demo_db)
    assert len(asked) >= 30
    assert {args["chip_id"] for _, (_, args) in asked} == {CHIP, OTHER}
    assert {args.get("lead") for _, (name, args) in asked if name == "metric_spread"} == \
        {"std", "pstd", "range", "iqr", "cv", "mad"}


def test_the_router_makes_each_questions_call(demo_db):
    wrong = []
    for question, (tool, args) in dev_spread13.planned(demo_db):
        plan = plan_prefetch(question.text, chip_id=CHIP, chips=CHIPS)
        got = (plan.name, dict(plan.args)) if plan is not None else None
        if got != (tool, args):
            wrong.append(f"{question.id}: {question.text} -> {got}, wanted {(tool, args)}")
    assert not wrong, "\n".join(wrong)


def test_each_call_restates_its_question(demo_db):
    wrong = [f"{q.id}: {found}" for q, (tool, args) in dev_spread13.planned(demo_db)
             if (found := [m.missed for m in mismatches(parse(q.text, CHIPS), tool, args)])]
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("text, given, lead", [
    ("population standard deviation of T1", "std", "pstd"),
    ("What's the sample SD of T1?", "pstd", "std"),
    ("σ of T2 echo", "range", "std"),
    ("T1 max less min", "std", "range"),
    ("the MAD of T1", "std", "mad"),
    ("relative spread of T1", "std", "cv"),
])
def test_a_spread_call_of_another_statistic_is_re_made(text, given, lead):
    name, args, why = corrected("metric_spread", {"chip_id": CHIP, "metric_name": "t1" if "T1" in text else
                                                  "t2_echo", "lead": given}, parse(text, CHIPS))
    assert name == "metric_spread" and args["lead"] == lead and why, (text, args, why)


@pytest.mark.parametrize("text, name, given", [
    ("Which execution had the highest failure count?", "get_run_failures", {"chip_id": CHIP}),
    ("which batch failed worst", "failure_ranking", {"chip_id": CHIP, "by": "task"}),
    ("the worst execution", "get_run_failures", {"chip_id": CHIP}),
    ("Which job had the most failed tasks?", "failure_ranking", {"chip_id": CHIP, "by": "qubit"}),
])
def test_a_ranking_of_runs_answered_with_one_run_or_another_subject_is_re_made(text, name, given):
    got_name, args, why = corrected(name, given, parse(text, CHIPS))
    assert (got_name, args) == ("failure_ranking", {"chip_id": CHIP, "by": "run"}) and why, (text, got_name, args)


@pytest.mark.parametrize("text", ["What failed in the newest batch?", "failures in the latest job",
                                  "which qubit failed most in the last run"])
def test_one_named_run_is_no_ranking_of_runs(text):
    plan = plan_prefetch(text, chip_id=CHIP, chips=CHIPS)
    assert plan is not None and not (plan.name == "failure_ranking" and plan.args.get("by") == "run"), plan
