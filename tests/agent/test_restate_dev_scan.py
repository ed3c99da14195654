"""The router's own call restates every dev question: over the dev questions of ``tests.public_eval.build`` (every
``tests/dev_*.py`` builder wired into it), the call the router plans, held to the question's limits as the loop
holds it (``settle_limits``), leaves nothing of the question out (``checking.restate.mismatches``)."""

from __future__ import annotations

from copilot_core.checking.restate import mismatches
from copilot_core.language.question import parse
from copilot_core.routing.limits import settle_limits
from copilot_core.routing.prefetch import plan_prefetch
from tests.public_eval import CHIP, build


def test_no_router_call_on_a_dev_question_has_a_mismatch(demo_db):
    wrong, planned = [], 0
    for q in build(demo_db):
        plan = plan_prefetch(q.text, chip_id=CHIP)
        if plan is None:
            continue
        planned += 1
        asked = parse(q.text)
        settled = settle_limits(plan.name, dict(plan.args), asked)
        found = mismatches(asked, plan.name, dict(settled.args)) if settled.refusal is None else []
        if found:
            wrong.append(f"{q.id}: {q.text} -> {plan.name}({settled.args}): {[m.missed for m in found]}")
    assert planned >= 150, planned
    assert not wrong, "\n".join(wrong)
