"""The comparison and absence words mean the same to the router, the prefetch and the claim check (one vocabulary)."""

from __future__ import annotations

import pytest

from copilot_core.checking.claims import check_claims
from copilot_core.routing.prefetch import plan_prefetch
from copilot_core.routing.router import route
from copilot_core.domain.vocabulary import is_below

CHIP = "64Qv3"


@pytest.mark.parametrize("phrase, below", [("below", True), ("under", True), ("less than", True), ("lower than", True),
                                           ("above", False), ("over", False), ("exceeding", False),
                                           ("greater than", False)])
def test_each_limit_word_routes_and_plans_the_same_side(phrase, below):
    question = f"How many qubits have T1 {phrase} 50 μs?"
    assert is_below(phrase) is below
    assert "filter_metric" in route(question).names
    planned = plan_prefetch(question, chip_id=CHIP)
    assert planned is not None and planned.name == "filter_metric"
    assert planned.args == {"chip_id": CHIP, "metric_name": "t1", ("below" if below else "above"): 50.0}


@pytest.mark.parametrize("question", ["How many qubits have no valid T1?", "Which qubits are without a valid T1?",
                                      "How many qubits have no usable data for T1?", "Which qubits have T1 missing?"])
def test_missing_words_route_and_plan_missing_metric(question):
    assert "missing_metric" in route(question).names
    planned = plan_prefetch(question, chip_id=CHIP)
    assert planned is not None and planned.name == "missing_metric"


def test_the_claim_check_reads_exceeding_as_above():
    """A value said to exceed a limit it is under is wrong, with the shared word list as with "above"."""
    result = [{"qid": "5", "metric": "t1", "value": 42.0}]
    for word in ("above", "exceeding"):
        report = check_claims(f"Q5 has T1 42.0 μs ({word} 50 μs).", result, question="What is the T1 of Q5?")
        assert [c.written for c in report.wrong] == ["42.0"], (word, report)
    assert not check_claims("Q5 has T1 42.0 μs (below 50 μs).", result, question="What is the T1 of Q5?").wrong
