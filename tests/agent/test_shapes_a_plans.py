"""The question parse, router and prefetch for compound filters, shares, spreads and correlations: the call the
router makes before the model speaks, with every argument from the question."""

from __future__ import annotations

import pytest

from copilot_core.language.question import parse
from copilot_core.routing.prefetch import plan_prefetch
from copilot_core.routing.router import route

CHIP = "64Qv3"


@pytest.mark.parametrize(("question", "name", "args"), [
    ("Which qubits have T1 above 80 μs and T2 echo above 70 μs?", "filter_metrics",
     {"conditions": [{"metric_name": "t1", "above": 80.0}, {"metric_name": "t2_echo", "above": 70.0}], "join": "and"}),
    ("qubits with readout fidelity under 93% but X90 gate fidelity over 99.9%", "filter_metrics",
     {"conditions": [{"metric_name": "average_readout_fidelity", "below": 93.0},
                     {"metric_name": "x90_gate_fidelity", "above": 99.9}], "join": "and"}),
    ("How many qubits have T1 less than 25 μs or T2 echo less than 25 μs?", "filter_metrics",
     {"conditions": [{"metric_name": "t1", "below": 25.0}, {"metric_name": "t2_echo", "below": 25.0}], "join": "or"}),
    ("Which qubits have both T1 and T2 echo above 90 μs?", "filter_metrics",
     {"conditions": [{"metric_name": "t1", "above": 90.0}, {"metric_name": "t2_echo", "above": 90.0}], "join": "and"}),
    ("What percentage of qubits have T2 echo below 50 μs?", "filter_metric", {"metric_name": "t2_echo", "below": 50.0}),
    ("What is the standard deviation of T2 echo?", "metric_spread", {"metric_name": "t2_echo", "lead": "std"}),
    ("IQR of T1 please", "metric_spread", {"metric_name": "t1", "lead": "iqr"}),
    ("How uniform is X90 gate fidelity across the chip?", "metric_spread",
     {"metric_name": "x90_gate_fidelity", "lead": "std"}),
    ("What is the spread (max minus min) of T1?", "metric_spread", {"metric_name": "t1", "lead": "range"}),
    ("What is the CV of T2 echo?", "metric_spread", {"metric_name": "t2_echo", "lead": "cv"}),
    ("Correlation between T1 and X90 gate fidelity?", "correlate_metrics",
     {"metric_a": "t1", "metric_b": "x90_gate_fidelity", "method": "pearson"}),
    ("Spearman and Pearson correlation of T2 echo with T1", "correlate_metrics",
     {"metric_a": "t2_echo", "metric_b": "t1", "method": "both"}),
])
def test_the_router_prefetches_the_shape_tool_with_the_questions_arguments(question, name, args):
    planned = plan_prefetch(question, chip_id=CHIP)
    assert planned is not None and planned.name == name
    assert planned.args == {"chip_id": CHIP, **args}
    assert name in route(question).names


@pytest.mark.parametrize("question", [
    "How has the spread of T1 changed over time?",  # a trend, not today's spread
    "Do T1 and T2 correlate?",  # "T2": echo or star, ask
    "Correlate T1 on 64Qv3 and 144Qv2",  # one metric on two chips
])
def test_no_shape_call_when_the_question_does_not_fix_it(question):
    planned = plan_prefetch(question, chip_id=CHIP)
    assert planned is None or planned.name not in ("metric_spread", "correlate_metrics", "filter_metrics")


def test_the_parse_reads_the_rows():
    asked = parse("T1 under 30 μs or T2 echo under 20 μs")
    assert asked.has("two limits") and asked.has("or join")
    assert parse("interquartile range of T1").has("iqr words")
    assert not parse("What is the T1 of Q5?").has("two limits")
