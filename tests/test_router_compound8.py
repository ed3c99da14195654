"""The router's plan for every question of ``tests/dev_compound8.py`` (two or more conditions): the page's order
(``absent_plan`` -> ``lookup_plan`` -> ``plan_prefetch``), held to the question's limits (``settle_limits``), must be
the hand-written call, carry every condition with its join, and leave no mismatch for the restate check.  Then the
restate check itself: a call that drops, turns or re-joins a condition is re-made as the hand-written call."""

from __future__ import annotations

import pytest

from copilot_core.agent.lookups import lookup_plan
from copilot_core.agent.plan import absent_plan
from copilot_core.checking.restate import corrected, mismatches
from copilot_core.language.question import parse
from copilot_core.routing.limits import settle_limits
from copilot_core.routing.prefetch import plan_prefetch
from copilot_core.routing.router import route
from tests import dev_compound8
from tests.dev_compound8 import CASES, Case
from tests.public_eval import CHIP, OTHER

CHIPS = (CHIP, OTHER)
BY_ID = {c.id: c for c in CASES}


def _wanted(case: Case) -> tuple[str, dict]:
    return case.call[0], {"chip_id": case.chip, **case.call[1]}


def _planned(case: Case, repo) -> tuple[str, dict] | None:
    plan = absent_plan(case.text, CHIP, repo, CHIPS) or lookup_plan(case.text, CHIP) or \
        plan_prefetch(case.text, chip_id=CHIP, chips=CHIPS)
    if plan is None:
        return None
    return plan.name, dict(settle_limits(plan.name, dict(plan.args), parse(case.text, CHIPS)).args)


def test_there_are_enough_varied_dev_questions(demo_db):
    assert len(CASES) >= 30
    assert {c.chip for c in CASES} == {CHIP, OTHER} and {c.join for c in CASES} == {"and", "or"}
    assert sum(len(c.tests) >= 3 for c in CASES) >= 4 and sum(c.kind == "coupling" for c in CASES) >= 3
    assert sum(any(t == dev_compound8.MISSING for _, t in c.tests) for c in CASES) >= 3
    sizes = [len(dev_compound8.truth(demo_db, c)) for c in CASES]
    assert sum(s > 0 for s in sizes) == len(CASES), "every question has subjects to list"


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_the_router_carries_every_condition_with_its_join(case, repo):
    assert _planned(case, repo) == _wanted(case)
    asked = parse(case.text, CHIPS)
    name, args = _wanted(case)
    assert not mismatches(asked, name, args)
    assert "filter_metrics" in route(case.text).names


def _drop_one(args: dict) -> tuple[str, dict]:
    """The first condition alone, as a one-metric filter (what a small model often calls)."""
    first = dict(args["conditions"][0])
    metric = first.pop("metric_name")
    return "filter_metric", {"chip_id": args["chip_id"], "metric_name": metric, **first}


def _turned(args: dict) -> tuple[str, dict]:
    """The last condition on its other side (an exclusion read as an inclusion), or its status left out."""
    conditions = [dict(c) for c in args["conditions"]]
    last = conditions[-1]
    last.pop("including", None)
    if "below" in last or "above" in last:
        side = "below" if "below" in last else "above"
        last[{"below": "above", "above": "below"}[side]] = last.pop(side)
    else:
        conditions.pop()
    return "filter_metrics", {**args, "conditions": conditions}


def _rejoined(args: dict) -> tuple[str, dict]:
    """"and" for "or", "or" for "and"."""
    return "filter_metrics", {**args, "join": "or" if args["join"] == "and" else "and"}


WRONG = [(case, wrong) for case in CASES for wrong in (_drop_one, _turned, _rejoined)
         if wrong(_wanted(case)[1]) != _wanted(case)]  # a range's two ends turned are the same range


@pytest.mark.parametrize(("case", "wrong"), WRONG, ids=[f"{c.id}-{w.__name__.strip('_')}" for c, w in WRONG])
def test_a_call_that_drops_turns_or_rejoins_a_condition_is_re_made(case, wrong):
    name, args = wrong(_wanted(case)[1])
    asked = parse(case.text, CHIPS)
    assert mismatches(asked, name, args), (name, args)
    made, made_args, why = corrected(name, args, asked)
    assert (made, made_args) == _wanted(case)
    assert why is not None and why.startswith("the call was re-made as the question reads it")


@pytest.mark.parametrize(("text", "side", "inclusive"), [
    ("qubits with T1 above 45 us but not T2 echo above 40 us", "below", True),
    ("qubits with T1 above 45 us excluding those with T2 echo below 40 us", "above", True),
    ("qubits with T1 above 45 us, not counting those whose T2 echo is under 40 us", "above", True),
    ("qubits with T1 above 45 us that don't have T2 echo over 40 us", "below", True),
    ("qubits with T1 above 45 us apart from those with a T2 echo at most 40 us", "above", False),
    ("qubits with T1 above 45 us and T2 echo above 40 us", "above", False),
    ("qubits other than Q5 with T2 echo above 40 us", "above", False),  # "other than" a qubit: no condition turned
])
def test_an_excluded_condition_is_read_as_its_opposite(text, side, inclusive):
    t2 = [t for t in parse(text).limits if t.metric == "t2_echo"]
    assert [(t.side, t.value, t.inclusive) for t in t2] == [(side, 40.0, inclusive)]


@pytest.mark.parametrize(("text", "join"), [
    ("qubits with a T1 of 50 us or more and a T2 echo of 40 us or more", "and"),
    ("qubits with T1 of 60 us or longer while readout fidelity is 95% or higher", "and"),
    ("qubits with a T2 echo above 30 us and a T1 either below 30 us or above 80 us", "and"),
    ("qubits with either T1 below 25 us or readout fidelity below 88%", "or"),
    ("qubits with T1 below 30 us or T2 echo below 20 us", "or"),
])
def test_the_join_is_the_conditions_not_a_limits_own_or(text, join):
    assert parse(text).join == join


def test_a_limit_of_an_unclear_metric_is_no_other_metrics_limit():
    asked = parse("Which qubits have single-qubit gate fidelity above 99.5% and readout fidelity above 95%?")
    assert [(t.metric, t.value) for t in asked.limits] == [(None, 99.5), ("average_readout_fidelity", 95.0)]
    assert plan_prefetch(asked.text, chip_id=CHIP, chips=CHIPS) is None
    found = [m.missed for m in mismatches(asked, "filter_metric", {"chip_id": CHIP, "metric_name":
                                                                    "average_readout_fidelity", "above": 95.0})]
    assert "also sets a limit above 99.5% of a metric it does not name clearly" in found
