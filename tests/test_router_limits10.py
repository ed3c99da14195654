"""The router's plan for every question of ``tests/dev_limits10.py``: the page's order (``absent_plan`` ->
``lookup_plan`` -> ``plan_prefetch``), held to the question's limits (``settle_limits``), must be the hand-written
call: each limit on the metric its unit and size fit, every condition (a shared one given to each metric) with its
join, and no mismatch left for the restate check.  A call that drops a condition, or puts a limit on a metric that
cannot hold it, is re-made or refused; a limit no named metric can hold is said in a note."""

from __future__ import annotations

import pytest

from copilot_core.agent.lookups import lookup_plan
from copilot_core.agent.plan import absent_plan
from copilot_core.checking.restate import corrected, mismatches
from copilot_core.language.question import parse
from copilot_core.routing.limits import settle_limits, unfit_note
from copilot_core.routing.prefetch import plan_prefetch
from tests import dev_limits10
from tests.dev_limits10 import CASES, UNFIT, Case
from tests.public_eval import CHIP, OTHER

CHIPS = (CHIP, OTHER)


def _wanted(case: Case) -> tuple[str, dict] | None:
    if case.call is None:
        return None
    return case.call[0], {"chip_id": case.chip, **case.call[1]}


def _planned(case: Case, repo) -> tuple[str, dict] | None:
    plan = absent_plan(case.text, CHIP, repo, CHIPS) or lookup_plan(case.text, CHIP) or \
        plan_prefetch(case.text, chip_id=CHIP, chips=CHIPS)
    if plan is None:
        return None
    settled = settle_limits(plan.name, dict(plan.args), parse(case.text, CHIPS))
    assert settled.refusal is None, settled.refusal
    return plan.name, dict(settled.args)


def test_there_are_enough_varied_dev_questions(demo_db):
    every = CASES + UNFIT
    assert len(every) >= 30 and sum(c.id.startswith("lx-") for c in every) >= 8
    assert {c.chip for c in every} == {CHIP, OTHER} and sum(c.kind == "coupling" for c in every) >= 4
    units = " ".join(c.text for c in every)
    assert all(u in units for u in ("MHz", "GHz", "kHz", " ns", " ms", " us", "μs", "%", "0.95", ",000"))
    empty = [c.id for c in every if c.tests and not dev_limits10.truth(demo_db, c)]
    assert not empty, f"every filter has subjects to list: {empty}"


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_each_limit_is_on_the_metric_its_unit_fits_and_every_condition_is_carried(case, repo):
    assert _planned(case, repo) == _wanted(case)
    asked = parse(case.text, CHIPS)
    assert not asked.unfit and unfit_note(asked) is None
    name, args = _wanted(case)  # type: ignore[misc]
    assert not mismatches(asked, name, args)


def _drop_last(args: dict) -> tuple[str, dict]:
    """Every condition but the last (a one-metric filter when one is left): what a small model often calls."""
    kept = [dict(c) for c in args["conditions"][:-1]]
    if len(kept) == 1:
        first = kept[0]
        return "filter_metric", {"chip_id": args["chip_id"], **first}
    return "filter_metrics", {**args, "conditions": kept}


def _drop_first(args: dict) -> tuple[str, dict]:
    kept = [dict(c) for c in args["conditions"][1:]]
    if len(kept) == 1:
        return "filter_metric", {"chip_id": args["chip_id"], **kept[0]}
    return "filter_metrics", {**args, "conditions": kept}


DROPPED = [(c, drop) for c in CASES for drop in (_drop_first, _drop_last)]


@pytest.mark.parametrize(("case", "drop"), DROPPED, ids=[f"{c.id}-{d.__name__.strip('_')}" for c, d in DROPPED])
def test_a_call_that_drops_a_condition_is_re_made_with_every_one(case, drop):
    wanted = _wanted(case)
    assert wanted is not None
    name, args = drop(wanted[1])
    asked = parse(case.text, CHIPS)
    assert mismatches(asked, name, args), (name, args)
    made, made_args, why = corrected(name, args, asked)
    assert (made, made_args) == wanted and why is not None


@pytest.mark.parametrize("case", UNFIT, ids=[c.id for c in UNFIT])
def test_a_limit_no_named_metric_can_hold_is_said_and_never_filtered_on(case, repo):
    assert _planned(case, repo) == _wanted(case)
    asked = parse(case.text, CHIPS)
    assert [(t.metric, t.value) for t in asked.unfit] == [(case.metric, float(case.said.split()[0].rstrip("%")))]
    note = unfit_note(asked)
    assert note is not None and case.said in note and case.metric in note and "cannot" in note


@pytest.mark.parametrize("case", [c for c in UNFIT if c.metric != "qubit_frequency"],
                         ids=[c.id for c in UNFIT if c.metric != "qubit_frequency"])
def test_a_models_call_putting_that_limit_on_that_metric_is_refused(case):
    asked = parse(case.text, CHIPS)
    wrong = {"chip_id": case.chip, "metric_name": case.metric, "above": asked.unfit[0].value}
    settled = settle_limits("filter_metric", wrong, asked)
    assert settled.refusal is not None and case.said in settled.refusal and case.metric in settled.refusal


@pytest.mark.parametrize(("text", "metric", "value"), [
    ("Which qubits have T1 above 40,000 ns?", "t1", 40_000.0),
    ("Which qubits have anharmonicity below −300 MHz?", "anharmonicity", -300.0),
    ("Which qubits have readout frequency above 7,000 MHz?", "readout_frequency", 7000.0),
    ("Which qubits have qubit frequency of 5,100 MHz or more?", "qubit_frequency", 5100.0),
])
def test_a_number_with_separators_or_a_typographic_minus_is_read_whole(text, metric, value):
    assert [(t.metric, t.value) for t in parse(text).limits] == [(metric, value)]


@pytest.mark.parametrize(("text", "shared"), [
    ("qubits with both T1 and T2 echo above 30 us", {"t1", "t2_echo"}),
    ("qubits whose T1, T2 echo and T2* are all above 20 us", {"t1", "t2_echo", "t2_star"}),
    ("qubits with short T1 and T2 echo above 40 us", {"t2_echo"}),  # a condition in words is its own
    ("qubits with T1 above 50 us and T2 echo above 40 us", {"t1", "t2_echo"}),
    ("qubits with readout fidelity and T1 above 95%", {"average_readout_fidelity"}),  # T1 cannot hold 95%
])
def test_a_limit_written_once_after_several_metrics_is_each_ones(text, shared):
    assert {t.metric for t in parse(text).limits} == shared
