"""The router's plan for every question of ``tests/dev_compound14.py`` (a metric named loosely beside others,
"neither ... nor", "not unless", "unless", three conditions of mixed unit families): the page's order
(``absent_plan`` -> ``lookup_plan`` -> ``plan_prefetch``), held to the question's limits, must be the hand-written call.
Then the restate check: a model's call that drops a condition, or puts a limit on a metric of another unit family
(a frequency limit on T2 echo), or on the other side of a turned condition, is re-made as that call.  Then the parse:
a limit whose unit fits no metric read is bound to none and said, never given to a metric of another family."""

from __future__ import annotations

import pytest

from copilot_core.agent.lookups import lookup_plan
from copilot_core.agent.plan import absent_plan
from copilot_core.checking.restate import corrected, mismatches
from copilot_core.language.question import parse
from copilot_core.routing.limits import settle_limits, unbound_note
from copilot_core.routing.prefetch import plan_prefetch
from tests.dev_compound12 import truth
from tests.dev_compound14 import AFTER, CASES, LOOSE, UNCLEAR, Case
from tests.public_eval import CHIP, OTHER

CHIPS = (CHIP, OTHER)
ALL = CASES + tuple(loose.as_case() for loose in LOOSE)


def _wanted(case: Case) -> tuple[str, dict]:
    return case.call[0], {"chip_id": case.chip, **case.call[1]}


def _planned(case: Case, repo) -> tuple[str, dict] | None:
    plan = absent_plan(case.text, CHIP, repo, CHIPS) or lookup_plan(case.text, CHIP) or \
        plan_prefetch(case.text, chip_id=CHIP, chips=CHIPS)
    if plan is None:
        return None
    return plan.name, dict(settle_limits(plan.name, dict(plan.args), parse(case.text, CHIPS)).args)


def test_there_are_enough_varied_dev_questions(demo_db):
    assert len(CASES) + len(LOOSE) + len(UNCLEAR) >= 30 and len(AFTER) + sum(loose.after for loose in LOOSE) >= 12
    assert {c.chip for c in CASES} == {CHIP, OTHER} and sum(c.count for c in ALL) >= 4
    assert sum(c.kind == "coupling" for c in CASES) >= 2 and sum(len(c.tests) == 3 for c in CASES) >= 6
    empty = [c.id for c in ALL if not truth(demo_db, c)]
    assert not empty, f"every question has subjects to list: {empty}"


@pytest.mark.parametrize("case", ALL, ids=[c.id for c in ALL])
def test_the_router_makes_the_filter_of_every_bound_condition(case, repo):
    assert _planned(case, repo) == _wanted(case)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_the_routers_call_is_no_mismatch(case):
    assert not mismatches(parse(case.text, CHIPS), *_wanted(case))


def _dropped(args: dict) -> tuple[str, dict]:
    """The last condition left out."""
    kept = args["conditions"][:-1]
    if len(kept) == 1:
        return "filter_metric", {"chip_id": args["chip_id"], **{k: v for k, v in kept[0].items() if k != "including"}}
    return "filter_metrics", {**args, "conditions": kept}


def _family_swapped(args: dict) -> tuple[str, dict] | None:
    """The frequency condition's limit put on a metric of another unit family (the first condition's), and that
    metric's limit on the frequency: the pairing a loose metric name once caused."""
    held = args["conditions"]
    freq = next((i for i, c in enumerate(held) if c["metric_name"] == "qubit_frequency"), None)
    if freq is None:
        return None
    other = 0 if freq else 1
    swapped = [dict(c) for c in held]
    swapped[freq]["metric_name"], swapped[other]["metric_name"] = held[other]["metric_name"], "qubit_frequency"
    return "filter_metrics", {**args, "conditions": swapped}


def _unturned(args: dict) -> tuple[str, dict] | None:
    """A turned condition ("neither T1 below 30") passed as written, not turned."""
    held = args["conditions"]
    if not any("including" in c for c in held):
        return None
    flip = {"above": "below", "below": "above"}
    out = [{"metric_name": c["metric_name"], **{flip[s]: c[s] for s in ("above", "below") if s in c}}
           if "including" in c else c for c in held]
    return "filter_metrics", {**args, "conditions": out}


WRONGS = (_dropped, _family_swapped, _unturned)
WRONG = [(c, w) for c in CASES for w in WRONGS if c.call[0] == "filter_metrics" and w(_wanted(c)[1]) is not None]


@pytest.mark.parametrize(("case", "wrong"), WRONG, ids=[f"{c.id}-{w.__name__.strip('_')}" for c, w in WRONG])
def test_a_call_short_of_the_question_or_on_the_wrong_metric_is_re_made(case, wrong):
    made_wrong = wrong(_wanted(case)[1])
    assert made_wrong is not None
    name, args = made_wrong
    asked = parse(case.text, CHIPS)
    assert mismatches(asked, name, args), (name, args)
    made, made_args, why = corrected(name, args, asked)
    assert (made, made_args) == _wanted(case)
    assert why is not None and why.startswith("the call was re-made as the question reads it")


def test_the_wrong_calls_cover_each_kind():
    kinds = {w.__name__ for _, w in WRONG}
    assert kinds == {"_dropped", "_family_swapped", "_unturned"} and len(WRONG) >= 30


@pytest.mark.parametrize("loose", LOOSE, ids=[loose.id for loose in LOOSE])
def test_a_limit_no_metric_read_can_hold_is_bound_to_none_and_said(loose):
    asked = parse(loose.text, CHIPS)
    bound = {t.metric for t in asked.limits if t.metric is not None}
    assert bound == {m for m, _ in loose.tests}, asked.limits
    assert not asked.unfit, "never paired with a metric of another unit family"
    note = unbound_note(asked)
    assert note is not None and f"'{loose.said}" in note.replace(" μs", " us") and "could not tell" in note


@pytest.mark.parametrize(("text", "metric", "side", "value"), [
    ("qubits with T1 above 40 us and f01 below 5.1 GHz", "qubit_frequency", "below", 5.1),
    ("qubits with T1 above 40 us and f_q below 5100 MHz", "qubit_frequency", "below", 5100.0),
    ("qubits with T1 above 40 us and a resonance over 5.1 GHz", "qubit_frequency", "above", 5.1),
    ("qubits with T1 above 40 us and readout frequency over 7 GHz", "readout_frequency", "above", 7.0),
    ("qubits with T1 above 40 us and cross resonance gate time under 300 ns", "zx90_gate_time", "below", 300.0),
])
def test_a_loose_metric_name_is_read(text, metric, side, value):
    limits = parse(text, CHIPS).limits
    assert [(t.metric, t.side, t.value) for t in limits][1:] == [(metric, side, value)]


@pytest.mark.parametrize(("text", "sides"), [
    ("which qubits have neither T1 below 30 us nor T2 echo below 20 us", ["above", "above"]),
    ("qubits with T1 above 40 us but not unless T2 echo is above 30 us", ["above", "above"]),
    ("qubits with T1 above 40 us unless T2 echo is below 20 us", ["above", "above"]),
    ("qubits with T1 above 40 us only if T2 echo is above 30 us", ["above", "above"]),
    ("qubits with T1 above 40 us but not T2 echo above 30 us", ["above", "below"]),
])
def test_negations_turn_only_what_they_negate(text, sides):
    assert [t.side for t in parse(text, CHIPS).limits] == sides


def test_a_limit_in_a_wrong_unit_next_to_its_metric_stays_that_metrics_refusal():
    """"T1 above 5 GHz": the metric is written right before it, so the unit is wrong (no metric unread)."""
    asked = parse("which qubits have T1 above 5 GHz", CHIPS)
    assert [t.metric for t in asked.unfit] == ["t1"] and not asked.unbound


@pytest.mark.parametrize(("text", "said"), UNCLEAR)
def test_a_limit_of_a_phrase_of_several_metrics_is_said_when_no_filter_carries_it(text, said):
    """No filter of the clear conditions alone is planned (compound8's decision: the model chooses, and may ask);
    with no filter run the note says which limit was not applied (a filter that leaves it out gets the restate
    check's note instead)."""
    asked = parse(text, CHIPS)
    assert plan_prefetch(text, chip_id=CHIP, chips=CHIPS) is None and not asked.unbound
    note = unbound_note(asked)
    assert note is not None and f"which metric '{said}' limits" in note
