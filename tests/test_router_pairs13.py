"""The router makes the call each loosely named coupling question needs (``tests/dev_pairs13.py``), every argument
as written there by hand: a duration word of the two-qubit gate reads the gate time, a pair in either order or
written "10_11" is one coupling, a limit on its one metric is passed on, its two qubits compared are compared as
qubits, a CZ word is a gate the data does not hold; and each call restates its question.  The one coupling identity
(``stored_coupling``) and the word table are held to cases written by hand."""

from __future__ import annotations

import pytest

from copilot_core.checking.restate import mismatches
from copilot_core.domain.vocabulary import metrics_named
from copilot_core.language.pairs import stored_coupling
from copilot_core.language.question import parse
from copilot_core.routing.prefetch import plan_prefetch
from tests import dev_pairs13
from tests.public_eval import CHIP, OTHER

CHIPS = (CHIP, OTHER)


def test_there_are_at_least_30_dev_questions_over_both_chips(demo_db):
    asked = dev_pairs13.planned(demo_db)
    assert len(asked) >= 30
    assert {args["chip_id"] for _, (_, args) in asked} == {CHIP, OTHER}
    assert {q.id.split("-")[1] for q, _ in asked} == {"time", "metric", "limit", "ends", "cz"}


def test_the_router_makes_each_questions_call(demo_db):
    wrong = []
    for question, (tool, args) in dev_pairs13.planned(demo_db):
        plan = plan_prefetch(question.text, chip_id=CHIP, chips=CHIPS)
        got = (plan.name, dict(plan.args)) if plan is not None else None
        if got != (tool, args):
            wrong.append(f"{question.id}: {question.text} -> {got}, wanted {(tool, args)}")
    assert not wrong, "\n".join(wrong)


def test_each_call_restates_its_question(demo_db):
    wrong = [f"{q.id}: {found}" for q, (tool, args) in dev_pairs13.planned(demo_db)
             if (found := [m.missed for m in mismatches(parse(q.text, CHIPS), tool, args)])]
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("text, wanted", [
    ("CR pulse length", ["zx90_gate_time"]),
    ("cross-resonance duration", ["zx90_gate_time"]),
    ("how long is the two-qubit gate", ["zx90_gate_time"]),
    ("ZX90 time", ["zx90_gate_time"]),
    ("entangling gate length", ["zx90_gate_time"]),
    ("cross resonance fidelity", ["zx90_gate_fidelity"]),
    ("two-qubit gate fidelity", ["zx90_gate_fidelity"]),
    ("ZX90 fidelity", ["zx90_gate_fidelity"]),
    ("2q coherence limit", ["two_qubit_gate_coherence_limit"]),
    ("single-qubit gate coherence limit", ["one_qubit_gate_coherence_limit"]),
    ("CR pulse", [None]),
])
def test_a_duration_word_names_the_time_row_and_a_fidelity_word_the_fidelity(text, wanted):
    assert metrics_named(text) == wanted


@pytest.mark.parametrize("text, couplings", [
    ("ZX90 gate time of 10_11", ("10-11",)),
    ("Bell fidelity of Q11-Q10", ("11-10",)),
    ("CR duration of pair 12/13", ("12-13",)),
])
def test_a_pair_written_any_way_is_one_coupling_in_the_order_written(text, couplings):
    assert parse(text, CHIPS).couplings == couplings


@pytest.mark.parametrize("written, held, stored", [
    ("10-11", {"11-10"}, "11-10"),  # only the other direction held: the same coupling
    ("11-10", {"11-10"}, "11-10"),
    ("10-11", {"10-11", "11-10"}, "10-11"),  # both directions held: a directional value keeps its direction
    ("10-11", {"4-5"}, "10-11"),  # not held at all: as written
    ("5", {"5"}, "5"),  # a qubit is no coupling
])
def test_one_coupling_identity(written, held, stored):
    assert stored_coupling(written, held) == stored
