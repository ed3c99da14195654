"""The router's plan for every question of ``tests/dev_compound11.py`` (compound filters in many registers, spelled-out
units, "from A to B" ranges, a count asked, a lone limit beside a metric named without one): the page's order
(``absent_plan`` -> ``lookup_plan`` -> ``plan_prefetch``), held to the question's limits, must be the hand-written
call.  Then the restate check: a model's call that drops a condition, gives a lone limit to the other metric too, or
reads a spelled-out unit's limit as another metric's, is re-made as the hand-written call."""

from __future__ import annotations

import pytest

from copilot_core.agent.lookups import lookup_plan
from copilot_core.agent.plan import absent_plan
from copilot_core.checking.restate import corrected, mismatches
from copilot_core.language.question import parse
from copilot_core.routing.limits import settle_limits
from copilot_core.routing.prefetch import plan_prefetch
from tests import dev_compound8
from tests.dev_compound11 import AFTER, CASES, Case
from tests.public_eval import CHIP, OTHER

CHIPS = (CHIP, OTHER)


def _wanted(case: Case) -> tuple[str, dict]:
    return case.call[0], {"chip_id": case.chip, **case.call[1]}


def _planned(case: Case, repo) -> tuple[str, dict] | None:
    plan = absent_plan(case.text, CHIP, repo, CHIPS) or lookup_plan(case.text, CHIP) or \
        plan_prefetch(case.text, chip_id=CHIP, chips=CHIPS)
    if plan is None:
        return None
    return plan.name, dict(settle_limits(plan.name, dict(plan.args), parse(case.text, CHIPS)).args)


def test_there_are_enough_varied_dev_questions(demo_db):
    assert len(CASES) >= 30 and len(AFTER) >= 10
    assert {c.chip for c in CASES} == {CHIP, OTHER} and sum(c.count for c in CASES) >= 8
    assert sum(c.kind == "coupling" for c in CASES) >= 2 and sum(c.call[0] == "filter_metric" for c in CASES) >= 4
    empty = [c.id for c in CASES if not dev_compound8.truth(demo_db, c)]
    assert not empty, f"every question has qubits to list: {empty}"


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_the_router_makes_the_whole_filter(case, repo):
    assert _planned(case, repo) == _wanted(case)
    name, args = _wanted(case)
    assert not mismatches(parse(case.text, CHIPS), name, args)


def _drop_last(args: dict) -> tuple[str, dict] | None:
    """The first condition alone (the second one never reached)."""
    if "conditions" not in args:
        return None
    first = dict(args["conditions"][0])
    metric = first.pop("metric_name")
    return "filter_metric", {"chip_id": args["chip_id"], "metric_name": metric, **first}


def _shared_lone(args: dict) -> tuple[str, dict] | None:
    """A lone limit given to a second metric named without one (readout fidelity above 30)."""
    if "conditions" in args:
        return None
    side = "above" if "above" in args else "below"
    return "filter_metrics", {"chip_id": args["chip_id"], "join": "and", "conditions": [
        {"metric_name": args["metric_name"], side: args[side]}, {"metric_name": "average_readout_fidelity"
                                                                   if args["metric_name"] != "average_readout_fidelity"
                                                                   else "t1", side: args[side]}]}


WRONG = [(c, w) for c in CASES for w in (_drop_last, _shared_lone) if w(_wanted(c)[1]) is not None]


@pytest.mark.parametrize(("case", "wrong"), WRONG, ids=[f"{c.id}-{w.__name__.strip('_')}" for c, w in WRONG])
def test_a_call_short_of_the_question_is_re_made(case, wrong):
    name, args = wrong(_wanted(case)[1])
    asked = parse(case.text, CHIPS)
    assert mismatches(asked, name, args), (name, args)
    made, made_args, why = corrected(name, args, asked)
    assert (made, made_args) == _wanted(case)
    assert why is not None and why.startswith("the call was re-made as the question reads it")


@pytest.mark.parametrize(("text", "unit", "value"), [
    ("T1 above 40 microseconds", "μs", 40.0), ("T1 above 40 microsec", "μs", 40.0), ("T1 below 12 usecs", "μs", 12.0),
    ("frequency above 7900 megahertz", "MHz", 7900.0), ("frequency above 7.9 gigahertz", "GHz", 7.9),
    ("readout fidelity under 93 percent", "%", 93.0), ("readout fidelity under 93 per cent", "%", 93.0),
    ("gate time below 280 nanoseconds", "ns", 280.0),
])
def test_a_spelled_out_unit_is_read_as_its_unit(text, unit, value):
    from copilot_core.domain.units import canonical
    (limit,) = parse(text).limits
    assert (canonical(limit.unit), limit.value) == (unit, value)


@pytest.mark.parametrize("text", [
    "Which qubits had T1 that went from 40 to 60 us?",  # a change, no range
    "T1 of Q5 dropped from 60 us to 40 us",
    "qubits from 3 to 7 with T1 above 40 us",  # qubits, no range
])
def test_from_a_to_b_is_no_range_after_a_change_or_of_no_metric(text):
    assert [(t.metric, t.side, t.value) for t in parse(text).limits] in ([], [("t1", "above", 40.0)])
