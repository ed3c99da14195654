"""Defects the conversation walk found in the claim check, each closed as a class; results and values by hand.

- A window of time ("over the last 7 days", "over the past week", "over time") is not a limit: its "over" does not
  make the number next to it a count of items above something.
- A number more precise than the model JSON's four significant figures, consistent with the rounded value, is
  right; a wrong one is corrected to the figures the data holds, never padded with made-up zeros.
"""

from __future__ import annotations

import pytest

from copilot_core.checking.claim_facts import written_like
from copilot_core.checking.claims import check_claims, repair_answer

SERIES = {"qid": "70", "metric": "t1", "unit": "μs", "num_points": 8, "count_above": 3,
          "values": [28.9, 30.1, 31.0, 29.5, 33.2, 35.0, 34.1, 30.7]}


@pytest.mark.parametrize("window", ["over the last 7 days", "over the past 7 days", "in the last 7 days",
                                    "during the past 7 days", "over the past week", "over time"])
def test_a_window_phrase_is_not_a_limit(window):
    answer = f"Q070 had 8 points of t1 {window}."
    report = check_claims(answer, [SERIES], question="How did T1 of Q070 change?")
    assert report.wrong == [], [c.reason for c in report.wrong]


def test_over_before_a_value_is_still_a_limit():
    """Attack after the fix: "over 30 μs" is a limit, and a wrong count of qubits above it is still caught."""
    report = check_claims("8 values of t1 were over 50 μs.", [SERIES], question="How did T1 of Q070 change?")
    assert [c.written for c in report.wrong] == ["8"], report
    report = check_claims("Over the last 7 days 8 values of t1 were over 50 μs.", [SERIES],
                          question="How did T1 of Q070 change?")
    assert [c.written for c in report.wrong] == ["8"], report


SUMMARY = {"chip_id": "144Qv2", "statistics": {"qubit_frequency": {"unit": "GHz", "count": 141, "median": 5.047,
                                                                   "mean": 5.005}}}


@pytest.mark.parametrize("written", ["5.047", "5.0474", "5.04741", "5.0466"])
def test_a_more_precise_number_consistent_with_the_rounded_value_is_kept(written):
    answer = f"The median qubit_frequency on 144Qv2 is {written} GHz."
    report = check_claims(answer, [SUMMARY])
    assert [c.verdict for c in report.claims] == ["ok"], [c.reason for c in report.claims]
    assert repair_answer(answer, report, None).text == answer


@pytest.mark.parametrize("written", ["5.0490", "5.0476", "5.1", "5.0464"])
def test_a_number_the_rounded_value_does_not_allow_is_not_passed(written):
    answer = f"The median qubit_frequency on 144Qv2 is {written} GHz."
    assert [c.verdict for c in check_claims(answer, [SUMMARY]).claims] != ["ok"]


@pytest.mark.parametrize(("value", "written", "shown"), [(5.047, "5.0490", "5.047"), (5.047, "5.1", "5.0"),
                                                          (62.0, "62.37", "62.00"), (62.31, "62.3", "62.3"),
                                                          (0.0, "0.12", "0.00")])
def test_a_correction_holds_no_more_figures_than_the_data(value, written, shown):
    assert written_like(value, written) == shown
