"""The router makes the call each planned dev question needs (every argument written by hand in its dev module),
and that call restates its question: one test over every dev module that plans its questions' calls."""

from __future__ import annotations

from types import ModuleType

import pytest

from copilot_core.checking.restate import mismatches
from copilot_core.language.question import parse
from copilot_core.routing.prefetch import plan_prefetch
from tests import dev_fails7, dev_fails8, dev_fails9, dev_fails10, dev_pairs9, dev_pairs10
from tests.public_eval import CHIP, OTHER

CHIPS = (CHIP, OTHER)
PLANNED = [dev_fails7, dev_fails8, dev_fails9, dev_fails10, dev_pairs9, dev_pairs10]
# dev_fails7 holds questions no call answers: its own test
RESTATED = [dev_fails8, dev_fails9, dev_fails10, dev_pairs9, dev_pairs10]


@pytest.mark.parametrize("dev", PLANNED, ids=lambda m: m.__name__.rsplit("_", 1)[-1])
def test_the_router_makes_each_questions_call(demo_db, dev: ModuleType):
    wrong = []
    for question, (tool, args) in dev.planned(demo_db):
        plan = plan_prefetch(question.text, chip_id=CHIP, chips=CHIPS)
        got = (plan.name, dict(plan.args)) if plan is not None else None
        if got != (tool, args):
            wrong.append(f"{question.id}: {question.text} -> {got}, wanted {(tool, args)}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("dev", RESTATED, ids=lambda m: m.__name__.rsplit("_", 1)[-1])
def test_each_call_restates_its_question(demo_db, dev: ModuleType):
    wrong = [f"{q.id}: {found}" for q, (tool, args) in dev.planned(demo_db)
             if (found := [m.missed for m in mismatches(parse(q.text, CHIPS), tool, args)])]
    assert not wrong, "\n".join(wrong)
