"""The router makes the call each statistic-and-quantity dev question needs (``tests/dev_statistic17.py``), every
argument as written there by hand: a duration asked in words of time reads the gate time (never the fidelity), a
spread in any of its words the spread (never the median), one statistic of two chips that statistic, a superlative
of time or life its metric, end and count, and "in seconds" the unit asked."""

from __future__ import annotations

import pytest

from copilot_core.checking.claim_facts import tool_facts
from copilot_core.checking.restate import mismatches
from copilot_core.domain.display import shown_in
from copilot_core.language.question import parse
from copilot_core.routing.prefetch import plan_prefetch
from tests import dev_statistic17 as dev
from tests.public_eval import CHIP, OTHER

CHIPS = (CHIP, OTHER)


def test_there_are_enough_dev_questions_over_both_chips():
    assert len([q for q in dev.QUESTIONS if not q.fresh]) >= 20 and len([q for q in dev.QUESTIONS if q.fresh]) >= 6
    assert {q.chip for q in dev.QUESTIONS} == {CHIP, OTHER}


@pytest.mark.parametrize("asked", dev.QUESTIONS, ids=lambda a: a.id)
def test_the_router_makes_each_questions_call(asked):
    plan = plan_prefetch(asked.text, chip_id=CHIP, chips=CHIPS)
    assert plan is not None and (plan.name, dict(plan.args)) == (asked.tool, asked.args), plan


@pytest.mark.parametrize("asked", dev.QUESTIONS, ids=lambda a: a.id)
def test_each_call_restates_its_question(asked):
    assert not [m.missed for m in mismatches(parse(asked.text, CHIPS), asked.tool, asked.args)]


@pytest.mark.parametrize("text, metric", [
    ("how long does the CR pulse last on Q2-Q3", "zx90_gate_time"),
    ("how many ns does the cross-resonance gate take on 4-5", "zx90_gate_time"),
    ("the length of the two-qubit gate on Q4-Q5", "zx90_gate_time"),
    ("what is the duration of each entangling gate", "zx90_gate_time"),
    ("how long is the X90 pulse on Q3", "hpi_length"),
    ("the HPI pulse duration of Q8", "hpi_length"),
    ("how many ns does the single-qubit gate take on Q1", "hpi_length"),
])
def test_a_duration_in_words_of_time_is_the_time_row(text, metric):
    assert parse(text, CHIPS).metrics[:1] == (metric,)


@pytest.mark.parametrize("text, metric, end", [
    ("the shortest-lived qubit", "t1", "lowest"),
    ("the longest lived qubits", "t1", "highest"),
    ("the fastest two-qubit gates", "zx90_gate_time", "lowest"),
    ("the slowest CR gates", "zx90_gate_time", "highest"),
    ("the briefest T2 echo", "t2_echo", "lowest"),
    ("the quickest HPI pulses", "hpi_length", "lowest"),
])
def test_a_superlative_of_time_is_its_metric_and_end(text, metric, end):
    asked = parse(text, CHIPS)
    assert metric in asked.metrics and asked.extreme == end


@pytest.mark.parametrize("text, unit", [("Q5's T1 in seconds", "s"), ("T1 of Q5 in second", "s"),
                                        ("T2 echo of Q3 in ms", "ms"), ("T1 in milliseconds", "ms")])
def test_seconds_and_milliseconds_are_the_unit_asked(text, unit):
    assert parse(text, CHIPS).unit_asked == unit


@pytest.mark.parametrize("unit, factor", [("ms", 1e-3), ("s", 1e-6), ("ns", 1e3)])
def test_a_tool_value_is_also_a_fact_in_the_unit_asked(unit, factor):
    """A value the tool holds in μs is a fact in the unit the question asks, so an answer written in that unit is
    backed (and one off by a unit's factor is not)."""
    result = {"chip_id": CHIP, "qid": "5", "parameters": {"t1": {"value": 67.8362, "unit": "μs"}}}
    with shown_in(unit):
        facts = [f for f in tool_facts([result]) if f.metric == "t1"]
    assert any(f.unit == unit and f.value == pytest.approx(67.8362 * factor) for f in facts), facts
    assert not any(f.unit == unit and f.value == pytest.approx(67.8362) for f in facts), facts
