"""The router's call for every question of ``tests/dev_windows8.py`` (a window in hours, with no number, a month,
a fortnight, this week or month, and a window ending on the newest run's day), the count its tool gives over data
whose newest runs cross midnight UTC (held to a hand-written pymongo read), and a model's call with another window
re-made as the question reads it (``checking.restate``)."""

from __future__ import annotations

import pytest

from copilot_core.agent.lookups import lookup_plan
from copilot_core.checking.restate import corrected, mismatches
from copilot_core.data.repository import CalibrationRepository
from copilot_core.language.question import parse
from copilot_core.language.window_words import window_reading
from copilot_core.routing.prefetch import plan_prefetch
from copilot_core.tools import DataStore, Toolkit
from copilot_core.tools.toolkit import answer_line
from tests import dev_windows8
from tests.eval_score import problems
from tests.public_eval import CHIP, OTHER

CHIPS = (CHIP, OTHER)


@pytest.fixture(scope="module")
def cases(midnight):
    return dev_windows8.cases(midnight)


def _plan(text: str):
    return lookup_plan(text, CHIP) or plan_prefetch(text, chip_id=CHIP, chips=CHIPS)


def test_there_are_enough_dev_questions_on_both_chips(cases):
    kinds = [q.shape for q, _ in cases]
    assert {k: kinds.count(k) for k in set(kinds)} == {"windows8 hours": 7, "windows8 vague": 5,
                                                        "windows8 month": 9, "windows8 edge": 11, "windows8 rank": 3}
    assert {call[1]["chip_id"] for _, call in cases} == {CHIP, OTHER}


def test_the_newest_runs_cross_midnight(midnight):
    for chip in CHIPS:
        newest = dev_windows8._newest(midnight, chip)
        after = midnight["task_result_history"].count_documents({"chip_id": chip, "start_at": {"$gt": newest.replace(
            hour=0, minute=0, second=0, microsecond=0).replace(day=newest.day + 1)}})
        assert newest.hour == 23 or newest.hour == 22, newest
        assert after > 0, chip


@pytest.mark.parametrize("kind", ["hours", "vague", "month", "edge", "rank"])
def test_the_router_makes_each_questions_call(cases, kind):
    wrong = []
    for q, (tool, want) in cases:
        if q.shape != f"windows8 {kind}":
            continue
        plan = _plan(q.text)
        if plan is None or plan.name != tool or any(plan.args.get(k) != v for k, v in want.items()):
            wrong.append(f"{q.id}: {q.text!r} -> {plan and (plan.name, plan.args)} != {tool}({want})")
        elif found := mismatches(parse(q.text, CHIPS), plan.name, dict(plan.args)):
            wrong.append(f"{q.id}: mismatches {[m.missed for m in found]}")
    assert not wrong, "\n".join(wrong)


def test_the_tools_count_the_newest_run_whole_and_say_the_window(cases, midnight):
    """The router's call run on the toolkit: its answer sentence states the pymongo count and the dates."""
    kit = Toolkit(CalibrationRepository(midnight), store=DataStore())
    wrong = []
    for q, _ in cases:
        plan = _plan(q.text)
        assert plan is not None, q.text
        said = answer_line(kit.execute(plan.name, plan.args)) or ""
        reading = window_reading(parse(q.text, CHIPS).window)
        if bad := problems(q.truth, f"{said} {reading or ''}"):
            wrong.append(f"{q.id}: {bad} in {said!r}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize(("text", "said"), [
    ("How many tasks failed in the last 48 hours?", "Window: 48 hours are read as the last 2 whole UTC days, "
     "ending on the day of the newest run (hours rounded up to whole days)."),
    ("failed tasks over the last day and a half", "Window: 36 hours are read as the last 2 whole UTC days, ending "
     "on the day of the newest run (hours rounded up to whole days)."),
    ("how many runs recently", "Window: \"recently\" is read as the last 3 whole UTC days, ending on the day of the "
     "newest run (a window written with no number; the default is 3 days)."),
    ("failed tasks the past couple of days", "Window: \"a couple of days\" is read as the last 2 whole UTC days, "
     "ending on the day of the newest run (two days; the default is 3 days)."),
    ("how many runs in the last 3 days", None),
    ("How has the T2 echo of Q5 trended recently?", None),  # a history's "recently": its recent values
])
def test_the_answer_says_how_a_window_was_read(text, said):
    assert window_reading(parse(text, CHIPS).window) == said


@pytest.mark.parametrize(("text", "given", "want"), [
    ("How many tasks failed in the last 48 hours?", {"days": 1}, {"days": 2}),
    ("how many runs in the past 36h", {"days": 36}, {"days": 2}),
    ("how many failed tasks in the last few days?", {}, {"days": 3}),
    ("failed tasks over the past month", {"days": 31}, {"days": 30}),
    ("how many failed tasks this month", {"days": 30}, {"from_date": "month"}),
    ("failed tasks this week?", {"days": 7}, {"since_weekday": "monday"}),
    ("runs in the past two weeks", {"since_weekday": "monday"}, {"days": 14}),
])
def test_a_call_with_another_window_is_re_made(text, given, want):
    what = "runs" if "runs" in text else "failed tasks"
    name, args, why = corrected("count_in_window", {"chip_id": CHIP, "what": what, **given}, parse(text, CHIPS))
    assert why is not None, text
    windowed = {k: v for k, v in args.items() if k in ("days", "day", "since_weekday", "from_date", "to_date")}
    assert (name, windowed) == ("count_in_window", want)
