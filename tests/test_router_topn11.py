"""The router makes the call each dev question of ``tests/dev_topn11.py`` needs, every argument as written there by
hand: a ranking's N in every written form (never the single lowest), its end, metric and chip; a spread's statistic
(the two ends "min and max" are a range) and unit.  A model's call that lists one subject, or a filter for a spread,
is re-made as the question reads it."""

from __future__ import annotations

import pytest

from copilot_core.checking.restate import corrected, mismatches
from copilot_core.language.question import parse
from copilot_core.routing.limits import settle_limits
from copilot_core.routing.prefetch import plan_prefetch
from tests.dev_topn11 import ALL, RANKED, RANKED_AFTER, SPREADS, SPREADS_AFTER
from tests.public_eval import CHIP, OTHER

CHIPS = (CHIP, OTHER)


def _planned(text: str) -> tuple[str, dict] | None:
    plan = plan_prefetch(text, chip_id=CHIP, chips=CHIPS)
    if plan is None:
        return None
    return plan.name, dict(settle_limits(plan.name, dict(plan.args), parse(text, CHIPS)).args)


def test_there_are_enough_varied_dev_questions(demo_db):
    assert len(ALL) >= 30 and len(RANKED_AFTER) + len(SPREADS_AFTER) >= 10
    assert {c.chip for c in RANKED} == {CHIP, OTHER} == {c.chip for c in SPREADS}
    assert len({c.metric for c in ALL}) >= 6
    assert all(len(c.truth(demo_db)) == c.n for c in RANKED), "every ranking has N subjects to list"


@pytest.mark.parametrize("case", ALL, ids=[c.id for c in ALL])
def test_the_router_makes_the_questions_call(case):
    assert _planned(case.text) == case.call


@pytest.mark.parametrize("case", RANKED, ids=[c.id for c in RANKED])
def test_the_parse_reads_the_n_asked(case):
    assert parse(case.text, CHIPS).extreme_n == case.n


@pytest.mark.parametrize("case", ALL, ids=[c.id for c in ALL])
def test_the_call_restates_its_question(case):
    name, args = case.call
    assert not [m.missed for m in mismatches(parse(case.text, CHIPS), name, args)]


@pytest.mark.parametrize("case", RANKED, ids=[c.id for c in RANKED])
def test_a_ranking_of_one_is_re_made_with_the_n_asked(case):
    args = {**case.call[1], "n": 1}
    asked = parse(case.text, CHIPS)
    assert mismatches(asked, "rank_metric", args)
    assert corrected("rank_metric", args, asked)[:2] == case.call


@pytest.mark.parametrize("case", SPREADS, ids=[c.id for c in SPREADS])
def test_a_ranking_of_one_for_a_spread_is_re_made_as_the_spread(case):
    asked = parse(case.text, CHIPS)
    args = {"chip_id": case.chip, "metric_name": case.metric, "order": "lowest", "n": 1}
    assert mismatches(asked, "rank_metric", args)
    assert corrected("rank_metric", args, asked)[:2] == case.call


@pytest.mark.parametrize("text", ["Which qubit of the 64 has the lowest T1?", "lowest T1 over the last 3 days",
                                  "the lowest T1 below 15 us", "Which of the 62 qubits has the lowest T1?",
                                  "the highest T1 on the 64-qubit chip", "lowest T1 of Q5 and Q9"])
def test_a_count_that_sizes_something_else_is_no_n(text):
    assert parse(text, CHIPS).extreme_n is None
