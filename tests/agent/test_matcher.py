"""The one number matcher, and the claim check that uses it, on hand-written right and wrong claims per role.

The tool result below is written by hand: T1 on a chip with its lowest (Q05, 12.3 μs), highest (Q40, 146.2 μs),
median 61.2, mean 63.0, 7 qubits below the 50 μs limit, Q12's latest value 44.5 μs and its change −5.2 μs.
"""

from __future__ import annotations

import json

import pytest

from copilot_core.checking.claims import check_claims
from copilot_core.checking.grounding import unverified_numbers
from copilot_core.checking.matcher import stated_by_any, states, states_written
from copilot_core.review.review_check import _backed as review_backed


@pytest.mark.parametrize("written, value, expected", [
    ("61.2", 61.234, True), ("61.23", 61.234, True), ("61", 61.4, True), ("61", 61.5, True),
    ("61.6", 61.2, False), ("62", 61.2, False), ("61.3", 61.234, False), ("61.24", 61.234, False),
    ("5.2", -5.2, True), ("−5.2", 5.2, True), ("1,200", 1200.4, True), ("1,200", 1210, False),
    ("1e999", 1e308, False), ("0.05", 0.0549, True), ("0.05", 0.056, False),
])
def test_a_written_number_states_a_value_to_the_digits_it_shows(written, value, expected):
    assert states_written(written, value) is expected
    assert stated_by_any(abs(float(written.replace(",", "").replace("−", "-"))) if "e999" not in written
                         else float("inf"), len(written.partition(".")[2]) if "e" not in written else 0,
                         [abs(value)]) is expected


def test_nan_and_infinity_state_nothing():
    assert not states(float("nan"), 1, 1.0) and not states(1.0, 1, float("inf"))


def test_the_three_checks_share_the_rule():
    """Grounding, the claim check and the qubit review agree on the same written numbers."""
    for written, value, expected in [("61.2", 61.234, True), ("61.6", 61.234, False), ("61", 61.234, True)]:
        assert (not unverified_numbers(f"T1 is {written} μs.", [{"t1": value}])) is expected
        assert review_backed(written, [str(value)]) is expected


RESULT = {"metric": "t1", "unit": "μs", "median": 61.2, "mean": 63.0, "min": 12.3, "max": 146.2,
          "lowest": [{"qid": "5", "value": 12.3}], "highest": [{"qid": "40", "value": 146.2}],
          "count_below": 7, "below_limit": 50.0, "qubits_with_data": 64,
          "qubits": [{"qid": "12", "latest": 44.5, "change": -5.2}]}
CLAIMS = [
    # (role, a right sentence, a wrong one: a number the result holds in another role, or one it does not hold)
    ("min", "The lowest T1 is 12.3 μs, on Q05.", "The lowest T1 is 61.2 μs."),
    ("max", "The highest T1 is 146.2 μs (Q40).", "The highest T1 is 63.0 μs."),
    ("median", "The median T1 is 61.2 μs.", "The median T1 is 63.0 μs."),
    ("mean", "The mean T1 is 63.0 μs.", "The mean T1 is 61.2 μs."),
    ("count", "7 qubits have T1 below 50 μs.", "64 qubits have T1 below 50 μs."),
    ("latest", "Q12's latest T1 is 44.5 μs.", "Q12's latest T1 is 146.2 μs."),
    ("change", "Q12's T1 fell by 5.2 μs.", "Q12's T1 fell by 7.0 μs."),
    ("threshold", "7 qubits have a T1 below 50 μs.", "7 qubits have a T1 below 37 μs."),
]


@pytest.mark.parametrize("role, right, wrong", CLAIMS, ids=[c[0] for c in CLAIMS])
def test_a_claim_is_right_only_in_its_role(role, right, wrong):
    results = [json.dumps(RESULT)]
    good = check_claims(right, results, question="How is T1 on the chip?")
    assert good.ok, good.claims
    bad = check_claims(wrong, results, question="How is T1 on the chip?")
    assert not bad.ok, (role, bad.claims)


@pytest.mark.parametrize("role, right, wrong", CLAIMS, ids=[c[0] for c in CLAIMS])
def test_a_value_off_by_more_than_its_rounding_is_wrong_in_every_role(role, right, wrong):
    """The right sentence with its first value moved by one unit of its last digit is not backed."""
    import re

    m = re.search(r"(?<![\w.])\d+\.\d", right) or re.search(r"(?<![\w.])\d+(?= qubits)", right)
    assert m is not None
    number = m.group(0)
    step = 0.1 if "." in number else 1
    shifted = right[:m.start()] + (f"{float(number) + 2 * step:.1f}" if "." in number else str(int(number) + 2)) \
        + right[m.end():]
    assert not check_claims(shifted, [json.dumps(RESULT)], question="How is T1 on the chip?").ok, shifted


def test_the_ledger_types_each_fact_with_its_subject_metric_role_unit_and_time():
    """Every value a tool returns becomes one typed fact: who it belongs to, which metric, in which role, its unit
    and when it was measured (counts carry no unit)."""
    from copilot_core.checking.claim_facts import tool_facts

    result = {"metric": "t1", "unit": "μs", "median": 61.2, "count_below": 7,
              "qubits": [{"qid": "12", "latest": 44.5, "calibrated_at": "2026-11-27T18:43:00"}]}
    facts = [f for f in tool_facts([json.dumps(result)]) if f.qualifier != "catalogue"]
    latest = next(f for f in facts if f.role == "latest")
    assert (latest.subject, latest.metric, latest.value, latest.unit, latest.at) == \
        ("12", "t1", 44.5, "μs", "2026-11-27T18:43:00")
    median = next(f for f in facts if f.role == "median")
    assert (median.subject, median.metric, median.value, median.unit) == (None, "t1", 61.2, "μs")
    below = next(f for f in facts if f.role == "count" and f.qualifier == "below")
    assert (below.value, below.unit) == (7, None)
