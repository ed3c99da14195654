"""The router makes each class's call for the dev questions of ``tests/dev_crosschip7.py`` (a statistic across
chips, pooled or per chip; a spread per chip in the unit asked; two couplings side by side), in the page's order
(``absent_plan`` → ``plan_prefetch``), and the call restates its question (``restate.mismatches`` empty after
``settle_limits``).  The expected calls are written in the dev file by hand from each question."""

from __future__ import annotations

import pytest

from copilot_core.agent.plan import absent_plan
from copilot_core.checking.restate import mismatches
from copilot_core.language.question import parse
from copilot_core.routing.limits import settle_limits
from copilot_core.routing.prefetch import plan_prefetch
from tests import dev_crosschip7
from tests.public_eval import CHIP

CHIPS = ("64Qv3", "144Qv2")


@pytest.fixture(scope="module")
def cases(demo_db):
    return dev_crosschip7.cases(demo_db)


def _planned(repo, text: str):
    return absent_plan(text, CHIP, repo, CHIPS) or plan_prefetch(text, chip_id=CHIP, chips=CHIPS)


@pytest.mark.parametrize("prefix", ["cc7-pool", "cc7-each", "cc7-pair", "cc7-nopair"])
def test_the_router_makes_each_class_call(prefix, cases, repo):
    wrong = []
    mine = [(q, call) for q, call in cases if q.id.startswith(prefix + "-")]
    assert len(mine) >= 2
    for q, (tool, want) in mine:
        plan = _planned(repo, q.text)
        if plan is None:
            wrong.append(f"{q.id}: no call")
            continue
        args = dict(settle_limits(plan.name, dict(plan.args), parse(q.text, CHIPS)).args)
        if plan.name != tool or any(args.get(k) != v for k, v in want.items()) or \
                tool == "compare_chips" and bool(args.get("pooled")) != bool(want.get("pooled")):
            wrong.append(f"{q.id}: {plan.name}({args}), wanted {tool}({want})")
            continue
        found = mismatches(parse(q.text, CHIPS), plan.name, args)
        if found:
            wrong.append(f"{q.id}: {[m.missed for m in found]}")
    assert not wrong, wrong
