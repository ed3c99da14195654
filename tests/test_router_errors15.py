"""The router's plan for every question of ``tests/dev_errors15.py`` (an error held to a number): the page's order
(``absent_plan`` -> ``lookup_plan`` -> ``plan_prefetch``), held to the question's limits, is the hand-written call on
the fidelity with side and value turned; a yes/no, a cross-chip share and a window count read the same fidelity
limit; the question keeps the limit in the person's words for the answer to say."""

from __future__ import annotations

import pytest

from copilot_core.agent.lookups import lookup_plan
from copilot_core.agent.plan import absent_plan
from copilot_core.checking.restate import mismatches
from copilot_core.language.question import parse
from copilot_core.routing.limits import error_note, settle_limits
from copilot_core.routing.prefetch import plan_prefetch
from tests.dev_compound12 import Case, truth
from tests.dev_errors15 import AFTER, AFTER_ASKED, BEFORE, CASES, CROSS, VERDICTS, WINDOWS, Asked
from tests.public_eval import CHIP, OTHER

CHIPS = (CHIP, OTHER)
ASKED = VERDICTS + CROSS + WINDOWS + AFTER_ASKED


def _wanted(case: Case) -> tuple[str, dict]:
    return case.call[0], {"chip_id": case.chip, **case.call[1]}


def _planned(case: Case, repo) -> tuple[str, dict] | None:
    plan = absent_plan(case.text, CHIP, repo, CHIPS) or lookup_plan(case.text, CHIP) or \
        plan_prefetch(case.text, chip_id=CHIP, chips=CHIPS)
    if plan is None:
        return None
    return plan.name, dict(settle_limits(plan.name, dict(plan.args), parse(case.text, CHIPS)).args)


def test_there_are_enough_varied_dev_questions(demo_db):
    assert len(BEFORE) + len(VERDICTS) + len(CROSS) + len(WINDOWS) >= 20 and len(AFTER) + len(AFTER_ASKED) >= 6
    assert {c.chip for c in CASES} == {CHIP, OTHER} and any(c.share for c in CASES) and any(c.count for c in CASES)
    empty = [c.id for c in CASES if not truth(demo_db, c)]
    assert not empty, f"every question has subjects to list: {empty}"


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_the_router_filters_on_the_fidelity_with_side_and_value_turned(case, repo):
    assert _planned(case, repo) == _wanted(case)
    assert not mismatches(parse(case.text, CHIPS), *_wanted(case))


@pytest.mark.parametrize("asked", ASKED, ids=[a.id for a in ASKED])
def test_every_shape_reads_the_fidelitys_limit(asked: Asked):
    read = parse(asked.text, CHIPS)
    assert [(t.metric, t.side, t.value) for t in read.limits] == [(asked.metric, asked.side, asked.value)]
    if asked in VERDICTS + AFTER_ASKED:
        assert read.verdict is not None and (read.verdict.side, read.verdict.limit) == (asked.side, asked.value)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_the_answer_note_says_the_error_and_its_fidelity(case):
    note = error_note(parse(case.text, CHIPS))
    assert note is not None
    for condition in case.call[1].get("conditions") or [case.call[1]]:
        if condition["metric_name"] in ("average_readout_fidelity", "x90_gate_fidelity", "zx90_gate_fidelity"):
            side = condition.get("above", condition.get("below"))
            assert f"{side:g}%" in note, note


@pytest.mark.parametrize("text", ["Which three couplings have the lowest CZ error?", "Which tasks had errors today?",
                                  "qubits with T1 above 50 us", "How many qubits failed with an error above 3 times?"])
def test_no_error_held_to_a_number_turns_nothing(text):
    assert parse(text, CHIPS).held_errors == ()


def test_a_spoken_error_limit_is_said_in_both_wordings():
    """The note's limits come from the same text the limit is read from: a spoken gate name's error too."""
    asked = parse("how many couplings have a zed x ninety error below 2 percent on 64Qv3", CHIPS)
    assert asked.threshold is not None and asked.threshold.side == "above" and asked.threshold.value == 98.0
    assert [h.fidelity for h in asked.held_errors] == ["fidelity above 98%"]
