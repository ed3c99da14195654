"""The router makes the call of the scope, statistic and denominator asked for the dev questions of
``tests/dev_scope8.py`` (across chips each or pooled, a share past a limit on each chip or pooled, a share on one
chip, a spread in many registers and units), in the page's order (``absent_plan`` → ``plan_prefetch``), and the call
restates its question (``restate.mismatches`` empty).  The expected calls are written in the dev file by hand."""

from __future__ import annotations

import pytest

from copilot_core.agent.plan import absent_plan
from copilot_core.checking.restate import mismatches
from copilot_core.language.question import parse
from copilot_core.routing.limits import settle_limits
from copilot_core.routing.prefetch import plan_prefetch
from tests import dev_scope8
from tests.public_eval import CHIP

CHIPS = dev_scope8.CHIPS


@pytest.fixture(scope="module")
def cases(demo_db):
    return dev_scope8.cases(demo_db)


def test_there_are_enough_dev_questions_of_every_kind(cases):
    kinds = [q.id.split("-")[1] for q, _ in cases]
    assert len(cases) >= 30 and kinds.count("chip") >= 6 and kinds.count("share") >= 10 and kinds.count("spread") >= 10


@pytest.mark.parametrize("prefix", ["s8-chip", "s8-share", "s8-spread"])
def test_the_router_makes_the_call_of_the_scope_and_statistic_asked(prefix, cases, repo):
    wrong = []
    mine = [(q, call) for q, call in cases if q.id.startswith(prefix + "-")]
    for q, (tool, want) in mine:
        plan = absent_plan(q.text, CHIP, repo, CHIPS) or plan_prefetch(q.text, chip_id=CHIP, chips=CHIPS)
        if plan is None:
            wrong.append(f"{q.id}: no call")
            continue
        args = dict(settle_limits(plan.name, dict(plan.args), parse(q.text, CHIPS)).args)
        keys = set(want) | ({"pooled", "statistic", "below", "above", "unit"} & set(args))
        if plan.name != tool or any(args.get(k) != want.get(k) for k in keys if k != "statistic" or k in want):
            wrong.append(f"{q.id}: {plan.name}({args}), wanted {tool}({want})")
            continue
        found = mismatches(parse(q.text, CHIPS), plan.name, args)
        if found:
            wrong.append(f"{q.id}: {[m.missed for m in found]}")
    assert not wrong, wrong
