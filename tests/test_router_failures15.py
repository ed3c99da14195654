"""The dev questions of ``tests/dev_failures15.py`` against the router and the parse: a window counted back in days
("the day before yesterday", "3 days ago") is that one date, not yesterday; a run named by its place ("the previous
run", "the run before the latest", "today's run") narrows a "which task fails most" to that run; a date counted
back is read against the chip's newest run's day; a count's noun says what it counts."""

from __future__ import annotations

from datetime import datetime

import pytest

from copilot_core.domain.windows import dates_window
from copilot_core.language.count_units import noun_counted
from copilot_core.language.question import parse
from copilot_core.routing.prefetch import plan_prefetch
from tests import dev_failures15
from tests.public_eval import CHIP, OTHER

CHIPS = (CHIP, OTHER)


def test_there_are_enough_dev_questions_over_both_chips_and_classes(demo_db):
    asked = dev_failures15.planned(demo_db)
    assert len([q for q, _ in asked if "-att-" not in q.id]) >= 24
    assert len([q for q, _ in asked if "-att-" in q.id]) >= 8
    assert {args["chip_id"] for _, (_, args) in asked} == set(CHIPS)
    assert {name for _, (name, _) in asked} == {"count_in_window", "failure_ranking"}


def test_the_router_makes_the_call_each_dev_question_needs(demo_db):
    wrong = [(q.id, q.text, plan and (plan.name, plan.args), call) for q, call in dev_failures15.planned(demo_db)
             if (plan := plan_prefetch(q.text, chip_id=CHIP, chips=CHIPS)) is None or (plan.name, plan.args) != call]
    assert not wrong, wrong


@pytest.mark.parametrize("text, dates", [
    ("How many tasks failed the day before yesterday?", ("-2", "-2")),
    ("How many runs had errors 5 days ago?", ("-5", "-5")),
    ("Failed tasks three days ago on 144Qv2?", ("-3", "-3")),
])
def test_a_day_counted_back_is_that_one_date_and_no_window_of_days(text, dates):
    asked = parse(text, CHIPS)
    assert asked.dates == dates and asked.window is None, (asked.dates, asked.window)


def test_yesterday_alone_is_still_yesterday():
    asked = parse("How many tasks failed yesterday?", CHIPS)
    assert asked.dates is None and asked.window is not None and asked.window.yesterday


def test_a_day_counted_back_is_read_from_the_newest_runs_day():
    start, stop = dates_window(datetime(2026, 11, 30, 10, 25), "-2", "-2")
    assert (start, stop) == (datetime(2026, 11, 28), datetime(2026, 11, 29))


@pytest.mark.parametrize("text, run", [
    ("Which task failed most in the run before that?", "previous"),
    ("In the prior execution, which task fails most?", "previous"),
    ("Which task failed most in the 2nd newest run?", "previous"),
    ("Which task failed most in the newest batch?", "latest"),
    ("Which task failed the most in this afternoon's run?", "latest"),
])
def test_a_run_named_by_its_place_narrows_the_ranking(text, run):
    plan = plan_prefetch(text, chip_id=CHIP, chips=CHIPS)
    assert plan is not None and plan.name == "failure_ranking" and plan.args.get("execution_id") == run, plan
    assert plan.args.get("by") == "task", plan


def test_comparing_the_previous_run_is_still_a_comparison_of_runs():
    assert parse("How did T1 change since the previous run?", CHIPS).shape != "fails most"


@pytest.mark.parametrize("after, unit", [
    (" runs had a failed task", "runs"), (" of the executions failed", "runs"), (" failed calibration runs", "runs"),
    (" failed task results", "task results"), (" tasks failed", "task results"), (" failures", None),
    (" qubits", None), (" of 55 runs", None),
])
def test_the_noun_after_a_count_says_what_it_counts(after, unit):
    assert noun_counted(after) == unit


@pytest.mark.parametrize("text, unit, share", [
    ("How often did a run fail outright, out of all runs, over the last 10 days?", "failed runs", True),
    ("Of the runs since the 25th, what fraction had a failed task?", "runs with failures", True),
    ("Out of all task results on 144Qv2 last Wednesday, how many failed?", "task results", True),
])
def test_the_unit_and_share_are_read_with_out_of_all(text, unit, share):
    counted = parse(text, CHIPS).counted
    assert counted is not None and (counted.unit, counted.share) == (unit, share), counted
