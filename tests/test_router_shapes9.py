"""The router makes the call each dev question of ``tests/dev_shapes9.py`` needs, every argument as written there by
hand (the N of a ranking read from any wording of a number, a spread's statistic and unit, every condition of a
loosely joined filter, a coupling metric's share and correlation), and that call restates its question.  A model's
call that lists fewer, computes another statistic or drops a condition is re-made as the question reads it."""

from __future__ import annotations

import pytest

from copilot_core.checking.restate import corrected, mismatches
from copilot_core.language.question import parse
from copilot_core.routing.limits import settle_limits
from copilot_core.routing.prefetch import plan_prefetch
from tests import dev_shapes9
from tests.dev_shapes9 import ALL, FILTERED, RANKED, SPREADS
from tests.public_eval import CHIP, OTHER

CHIPS = (CHIP, OTHER)


def _planned(text: str) -> tuple[str, dict] | None:
    plan = plan_prefetch(text, chip_id=CHIP, chips=CHIPS)
    if plan is None:
        return None
    return plan.name, dict(settle_limits(plan.name, dict(plan.args), parse(text, CHIPS)).args)


def test_there_are_enough_varied_dev_questions(demo_db):
    assert len(ALL) >= 30 and {c.chip for c in ALL} == {CHIP, OTHER}
    assert len(RANKED) >= 10 and len(SPREADS) >= 10 and len(FILTERED) >= 12
    assert all(len(c.truth(demo_db)) == c.n for c in RANKED), "every ranking has N subjects to list"
    assert all(c.truth(demo_db) for c in FILTERED), "every filter has subjects to list"


@pytest.mark.parametrize("case", ALL, ids=[c.id for c in ALL])
def test_the_router_makes_the_questions_call(case):
    assert _planned(case.text) == case.call


@pytest.mark.parametrize("case", ALL, ids=[c.id for c in ALL])
def test_the_call_restates_its_question(case):
    name, args = case.call
    assert not [m.missed for m in mismatches(parse(case.text, CHIPS), name, args)]


def _one(args: dict) -> tuple[str, dict]:
    return "rank_metric", {**args, "n": 1}


@pytest.mark.parametrize("case", RANKED, ids=[c.id for c in RANKED])
def test_a_ranking_of_one_is_re_made_with_the_n_asked(case):
    name, args = _one(case.call[1])
    asked = parse(case.text, CHIPS)
    assert mismatches(asked, name, args)
    assert corrected(name, args, asked)[:2] == case.call


@pytest.mark.parametrize("case", [c for c in FILTERED if len(c.conditions) == 2],
                         ids=[c.id for c in FILTERED if len(c.conditions) == 2])
def test_a_filter_with_one_condition_dropped_is_re_made_with_both(case):
    first = dict(case.conditions[0])
    asked = parse(case.text, CHIPS)
    args = {"chip_id": case.chip, **first}
    assert mismatches(asked, "filter_metric", args)
    assert corrected("filter_metric", args, asked)[:2] == case.call


@pytest.mark.parametrize("case", SPREADS, ids=[c.id for c in SPREADS])
def test_a_threshold_filter_for_a_spread_question_is_re_made_as_the_spread(case):
    asked = parse(case.text, CHIPS)
    args = {"chip_id": case.chip, "metric_name": case.metric, "above": 50.0}
    assert mismatches(asked, "filter_metric", args)
    assert corrected("filter_metric", args, asked)[:2] == case.call


def test_a_few_and_dozen_words_size_a_ranking_not_a_window():
    assert parse("lowest T1 over the last few days").extreme_n is None
    assert parse("which qubit has the lowest T1 a few days ago").extreme_n is None
    assert parse("the T1 of a dozen qubits").extreme_n is None  # no ranking word: no ranking's size
    assert dev_shapes9.label(OTHER, "4-1") == "Q004→Q001"
