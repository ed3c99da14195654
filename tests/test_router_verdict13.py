"""The parse of ``tests/dev_verdict13.py``'s questions: each is a :class:`Verdict` of the metric, subjects and
quantifier written by hand, its limit in the metric's display unit (a fraction of a fidelity read as %); the state
notations name the one-state readout fidelities; questions that ask for a list, a count or a value are no verdict;
and a fraction written for a filter or a share reaches the tool in % through the same reader."""

from __future__ import annotations

import pytest

from copilot_core.domain.vocabulary import metrics_named
from copilot_core.language.question import parse
from copilot_core.routing.limits import settle_limits
from copilot_core.routing.prefetch import plan_prefetch
from tests.dev_verdict13 import CASES
from tests.public_eval import CHIP, OTHER

CHIPS = (CHIP, OTHER)


def _limit(written: str) -> float:
    return float(written.split()[0].rstrip("%"))


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_each_question_is_a_verdict_of_its_metric_and_subjects(case):
    v = parse(case.text, CHIPS).verdict
    assert v is not None
    assert (v.metric, v.subjects, v.quantifier) == (case.metric, case.subjects, case.quantifier)
    assert v.limit == pytest.approx(_limit(case.limit))


@pytest.mark.parametrize(("written", "metric"), [
    ("|0> fidelity", "readout_fidelity_0"), ("|1⟩ readout", "readout_fidelity_1"), ("P(0|0)", "readout_fidelity_0"),
    ("p(1|1)", "readout_fidelity_1"), ("ground-state assignment", "readout_fidelity_0"),
    ("excited state assignment fidelity", "readout_fidelity_1"), ("0-state readout", "readout_fidelity_0"),
    ("1-state readout", "readout_fidelity_1"), ("zero state fid", "readout_fidelity_0"),
    ("|0⟩ state readout fidelity", "readout_fidelity_0"), ("readout fidelity", "average_readout_fidelity"),
])
def test_state_notations_name_the_one_state_readout(written, metric):
    assert metrics_named(f"what is Q5's {written}") == [metric]


@pytest.mark.parametrize("text", [
    "Which qubits have T1 over 50 µs?", "How many couplings have ZX90 gate time under 300 ns?",
    "What is Q05's P(0|0)?", "Show Q05's T1 trend over the last week", "list qubits with readout fidelity above 0.95",
    "Is Q05's T1 between 40 and 80 µs?", "the ground state of Q3 above 50",
])
def test_questions_asking_no_yes_or_no_hold_no_verdict(text):
    assert parse(text, CHIPS).verdict is None


@pytest.mark.parametrize(("text", "side", "value"), [
    ("qubits with readout fidelity above 0.95", "above", 95.0),
    ("couplings with ZX90 fidelity below .9", "below", 90.0),
    ("what share of qubits have X90 gate fidelity over 0.999", "above", 99.9),
])
def test_a_fraction_reaches_a_filter_in_percent(text, side, value):
    planned = plan_prefetch(text, chip_id=CHIP, chips=CHIPS)
    assert planned is not None and planned.name == "filter_metric"
    settled = settle_limits(planned.name, planned.args, parse(text, CHIPS))
    assert settled.args[side] == pytest.approx(value)


def test_a_chip_wide_verdict_is_routed_to_the_filter_at_its_limit():
    planned = plan_prefetch("are all qubits above 0.9 readout fidelity", chip_id=CHIP, chips=CHIPS)
    assert planned is not None and planned.name == "filter_metric" and planned.args["metric_name"] == \
        "average_readout_fidelity"


def test_several_named_qubits_are_read_side_by_side():
    planned = plan_prefetch("Are Q3, Q5 and Q8 all above 50 µs T1?", chip_id=CHIP, chips=CHIPS)
    assert planned is not None and planned.name == "compare_qubits"
    assert planned.args["qids"] == ["3", "5", "8"] and planned.args["param_names"] == ["t1"]
