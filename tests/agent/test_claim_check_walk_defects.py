"""Defects the conversation walk found in the claim check, each closed as a class; results and values by hand.

- A window of time ("over the last 7 days", "over the past week", "over time") is not a limit: its "over" does not
  make the number next to it a count of items above something.
- The check's notes name a qubit as the tables do on the turn's chip (``Q074`` on 144 qubits).
- A number more precise than the model JSON's four significant figures, consistent with the rounded value, is
  right; a wrong one is corrected to the figures the data holds, never padded with made-up zeros.
"""

from __future__ import annotations

import json
import re

import pytest

from copilot_core.checking.claim_facts import written_like
from copilot_core.checking.claims import check_claims, repair_answer
from copilot_core.tools import DataStore, Toolkit
from copilot_core.tools.toolkit import ToolOutcome

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


def _outcome(size: int | None) -> ToolOutcome:
    full = {"chip_id": "144Qv2", "metric": "t1", "lowest": [{"qid": "74", "value": 16.6}, {"qid": "5", "value": 28.1}],
            "highest": [{"qid": "120", "value": 95.8}]}
    return ToolOutcome(name="rank_metric", args={"chip_id": "144Qv2", "metric_name": "t1"}, ok=True,
                       model_text=json.dumps(full), summary="", full=full, size=size)


@pytest.mark.parametrize(("answer", "label", "bare"), [
    ("The highest t1 on 144Qv2 is 16.6 μs.", "Q074", "Q74"),
    ("Q005 has t1 16.6 μs.", "Q005", "Q5"),
    ("Q120 has t1 28.1 μs.", "Q120", None),
])
def test_the_check_names_qubits_as_the_tables_do_on_a_144_qubit_chip(answer, label, bare):
    report = check_claims(answer, [_outcome(144)])
    reasons = " ".join(c.reason for c in report.wrong)
    assert label in reasons, reasons
    if bare:
        assert not re.search(rf"\b{bare}\b", reasons), reasons


def test_the_toolkit_tells_the_check_the_chip_size(repo):
    kit = Toolkit(repo, store=DataStore())
    kit.begin_request()
    assert kit.execute("get_chip_summary", {"chip_id": "144Qv2"}).size == 144
    assert kit.execute("get_chip_summary", {"chip_id": "64Qv3"}).size == 64
    assert kit.execute("get_chip_summary", {"chip_id": "nope"}).size is None
