"""The dev questions of ``tests/dev_fails11.py`` against the router and the restate check: every window form and
subject kind is carried from the question into the router's call, and a model's call over another window, another
kind (a ranking for a count, failed tasks for runs) or the chip in view instead of the chip named is re-made as the
router's call."""

from __future__ import annotations

import pytest

from copilot_core.checking.restate import corrected
from copilot_core.language.question import parse
from copilot_core.routing.prefetch import plan_prefetch
from tests import dev_fails11
from tests.public_eval import CHIP, OTHER

CHIPS = (CHIP, OTHER)
_WINDOW = ("days", "day", "since_weekday", "from_date", "to_date")


def test_there_are_at_least_30_dev_questions_over_both_chips_kinds_and_window_forms(demo_db):
    asked = dev_fails11.planned(demo_db)
    assert len(asked) >= 30 and len([q for q, _ in asked if "-att-" in q.id]) >= 10
    assert {args["chip_id"] for _, (_, args) in asked} == set(CHIPS)
    assert {args.get("by") for _, (_, args) in asked} >= {"task", "qubit", "coupling", "run"}
    assert {args.get("what") for _, (_, args) in asked} >= {"runs", "failed runs", "failed tasks", "excluded tasks",
                                                            "notes"}
    assert {k for _, (_, args) in asked for k in args} >= set(_WINDOW)


def test_the_router_makes_the_call_each_dev_question_needs(demo_db):
    wrong = [(q.id, q.text, plan and (plan.name, plan.args), call) for q, call in dev_fails11.planned(demo_db)
             if (plan := plan_prefetch(q.text, chip_id=CHIP, chips=CHIPS)) is None or (plan.name, plan.args) != call]
    assert not wrong, wrong


def _wrong_calls(call: tuple[str, dict]) -> list[tuple[str, dict]]:
    """A call with its window dropped, one of another kind, and one on the chip in view instead."""
    name, args = call
    bare = {k: v for k, v in args.items() if k not in _WINDOW}
    out = [(name, bare)]
    if name == "failure_ranking":
        out.append((name, {**args, "by": "qubit" if args["by"] != "qubit" else "task"}))
    if name == "count_in_window":
        out.append(("failure_ranking", {"chip_id": args["chip_id"], "by": "task"}))
        out.append((name, {**args, "what": "failed tasks" if args["what"] != "failed tasks" else "runs"}))
    if args["chip_id"] != CHIP:
        out.append((name, {**bare, "chip_id": CHIP}))
    return out


def test_a_models_call_over_another_window_kind_or_chip_is_re_made(demo_db):
    wrong = []
    for q, call in dev_fails11.planned(demo_db):
        for name, args in _wrong_calls(call):
            got, made, why = corrected(name, args, parse(q.text, CHIPS))
            if (got, made) != call or not why:
                wrong.append((q.id, name, args, got, made))
    assert not wrong, wrong


@pytest.mark.parametrize("text, window", [
    ("Which task failed the most since last Friday?", {"since_weekday": "friday"}),
    ("How many runs since last Tuesday on 144Qv2?", {"since_weekday": "tuesday"}),
    ("How many failed tasks since the beginning of the month?", {"from_date": "month"}),
    ("Which qubit failed most month to date?", {"from_date": "month"}),
    ("Which task failed most on Friday?", {"from_date": "friday", "to_date": "friday"}),
])
def test_a_window_from_a_weekday_or_the_months_start_is_read(text, window):
    plan = plan_prefetch(text, chip_id=CHIP, chips=CHIPS)
    assert plan is not None and {k: v for k, v in plan.args.items() if k in _WINDOW} == window, plan
