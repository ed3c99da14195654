"""The router makes each shape's call on the dev questions of ``tests/dev_cover_b.py`` (wordings lab users type:
chips written short, dates written several ways, ranking words): the tool its shape needs, with the arguments the
question settles, held to the question's limits as the loop holds it, and nothing of the question left out
(``checking.restate.mismatches``).  A question about a thing the data does not hold gets no guessed call."""

from __future__ import annotations

import pytest

from copilot_core.agent.lookups import lookup_plan
from copilot_core.agent.plan import absent_plan
from copilot_core.checking.restate import mismatches
from copilot_core.language.question import parse
from copilot_core.routing.limits import settle_limits
from copilot_core.routing.prefetch import plan_prefetch
from copilot_core.tools import DataStore, Toolkit
from tests import dev_cover_b
from tests.public_eval import CHIP, OTHER

CHIPS = (CHIP, OTHER)


def _same(got: object, want: object) -> bool:
    """A date the tool reads against the data's year ("11-03") is the date written with it ("2026-11-03")."""
    if isinstance(got, str) and isinstance(want, str) and len(want) == 10 and len(got) == 5:
        return want.endswith(got)
    return got == want


def _plan(text: str, repo):
    """The call the page's turn plans first: a name the data does not hold, a lookup, else the router's call."""
    return absent_plan(text, CHIP, repo, CHIPS) or lookup_plan(text, CHIP) or \
        plan_prefetch(text, chip_id=CHIP, chips=CHIPS)


@pytest.fixture(scope="module")
def cases(demo_db):
    return dev_cover_b.cases(demo_db)


def test_each_shape_has_its_call(cases, repo):
    wrong = []
    for q, call in cases:
        plan = _plan(q.text, repo)
        if call is None:
            continue
        tool, want = call
        if plan is None or plan.name != tool or not all(_same(plan.args.get(k), v) for k, v in want.items()):
            wrong.append(f"{q.id} [{q.shape}] {q.text!r}: {plan and (plan.name, plan.args)} != {call}")
            continue
        asked = parse(q.text, CHIPS)
        settled = settle_limits(plan.name, dict(plan.args), asked)
        found = mismatches(asked, plan.name, dict(settled.args)) if settled.refusal is None else ["refused"]
        if found:
            wrong.append(f"{q.id}: {q.text!r} -> {plan.name}({settled.args}): {found}")
    assert not wrong, "\n".join(wrong)


def test_a_thing_not_there_gets_no_guessed_call(cases, repo, demo_db):
    """A task no run had: no count of it as if it were there; a call that names it is told so by the data."""
    for q, call in cases:
        if call is not None:
            continue
        plan = _plan(q.text, repo)
        if plan is None or plan.args.get("task_name") is None:
            continue
        task = plan.args["task_name"]
        assert task not in demo_db["task_result_history"].distinct("name", {"chip_id": CHIP}), (q.id, plan)
        outcome = Toolkit(repo, store=DataStore()).execute(plan.name, plan.args)
        assert not outcome.ok and f"no task named {task} ran on {CHIP}" in str(outcome.error), (q.id, outcome)


def test_every_shape_has_six_questions(cases):
    shapes: dict[str, int] = {}
    for q, _ in cases:
        shapes[q.shape] = shapes.get(q.shape, 0) + 1
    assert all(n >= 6 for n in shapes.values()) and len(shapes) == 6, shapes
