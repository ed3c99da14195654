"""The claim check knows each statistic of a spread, a correlation coefficient and a share: a number written for
one role is held against that role, corrected from the data or replaced, never let through."""

from __future__ import annotations

import pytest

from copilot_core.checking.claims import check_claims, repair_answer

SPREAD = {"answer": "t1 on 64Qv3: standard deviation 26.7 μs; range 124.5 μs (min 21.7 μs, max 146.2 μs); "
                    "interquartile range (IQR) 28.3 μs; coefficient of variation 41.3%; over 62 qubits with a value "
                    "(mean 64.6 μs).", "chip_id": "64Qv3", "metric": "t1", "unit": "μs", "with_data": 62,
          "num_qubits": 64, "std": 26.69, "range": 124.5, "min": 21.67, "max": 146.2, "q1": 46.62, "q3": 74.97,
          "iqr": 28.34, "mean": 64.61, "cv": 41.31, "lead": "std"}
CORR = {"answer": "Across 62 qubits of 64Qv3 with both values, t1 and t2_echo correlate with Pearson r = 0.82 "
                  "(strong positive relation).", "chip_id": "64Qv3", "metric_a": "t1", "metric_b": "t2_echo",
        "pairs": 62, "pearson_r": 0.8204, "spearman_rho": 0.7012, "method": "pearson"}
SHARE = {"answer": "15 of 62 qubits with t1 data on 64Qv3 have t1 below 45 μs (24.2% of those with a value; 64 on "
                   "the chip).", "chip_id": "64Qv3", "metric": "t1", "unit": "μs", "with_data": 62, "num_qubits": 64,
         "below_limit": 45, "count_below": 15, "percent": 24.19, "below": []}


@pytest.mark.parametrize(("answer", "result", "fix"), [
    ("The standard deviation of T1 is 28.3 μs.", SPREAD, "26.7"),  # the IQR written as the std
    ("The IQR of T1 is 26.7 μs.", SPREAD, "28.3"),  # the std written as the IQR
    ("T1's interquartile range is 41.3 μs.", SPREAD, "28.3"),  # the CV written as the IQR
    ("The coefficient of variation of T1 is 28.3%.", SPREAD, "41.3"),
    ("T1 spans a range of 26.7 μs.", SPREAD, "124.5"),
    ("T1 and T2 echo correlate with Spearman rho = 0.82.", CORR, None),  # Pearson's r called Spearman's
    ("That is 26.7% of those with a value.", {**SHARE, "std": 26.7}, "24.2"),  # another number as the share
])
def test_a_number_in_the_wrong_role_is_wrong_and_fixed(answer, result, fix):
    report = check_claims(answer, [result])
    assert [c.verdict for c in report.claims if c.verdict == "wrong"] == ["wrong"], report.claims
    repaired = repair_answer(answer, report, result["answer"])
    assert repaired.action in ("corrected", "replaced") and answer not in repaired.text
    assert fix is None or fix in repaired.text


@pytest.mark.parametrize(("answer", "result"), [
    ("T1's standard deviation is 26.7 μs, its IQR 28.3 μs and its range 124.5 μs (21.7 μs to 146.2 μs).", SPREAD),
    ("Across 62 qubits, T1 and T2 echo correlate with Pearson r = 0.82.", CORR),
    ("24.2% of the 62 qubits with a value have T1 below 45 μs (15 qubits).", SHARE),
])
def test_the_right_numbers_in_their_roles_are_kept(answer, result):
    report = check_claims(answer, [result], question="below 45")
    assert not report.wrong, report.claims


def test_a_negative_sign_the_data_does_not_give_is_wrong():
    report = check_claims("T1 and T2 echo correlate with Pearson r = -0.82.", [CORR])
    assert report.wrong


def test_range_said_loosely_without_a_spread_claims_nothing():
    """"in the good range" with no spread statistic in the turn: the number keeps its usual reading."""
    report = check_claims("Q05's T1 of 61.2 μs is in the good range.", [{"qid": "5", "t1": 61.2, "metric": "t1"}])
    assert not report.wrong, report.claims


@pytest.mark.parametrize("answer", [
    "The interquartile range of T1 across the chip is **28.3 μs** (good: above 30 μs).",
    "T1's standard deviation is 26.7 μs, which is bad.",
    "The range of T1 is 124.5 μs (excellent).",
    "T1's coefficient of variation is 41.3% (poor).",
    "T1 and T2 echo correlate with Pearson r = 0.82 (good).",
])
def test_a_band_on_a_spread_or_a_correlation_is_wrong(answer):
    """Bands grade a qubit's value; the right number with a band word after it still claims something false."""
    report = check_claims(answer, [SPREAD, CORR])
    assert [c.verdict for c in report.claims if c.band is not None] == ["wrong"], report.claims
    repaired = repair_answer(answer, report, SPREAD["answer"])
    assert repaired.action in ("corrected", "replaced") and answer not in repaired.text


def test_a_band_on_a_share_describes_the_qubits_and_stays():
    """"24.2% of qubits are good": the band is the qubits', not the share's."""
    report = check_claims("24.2% of the 62 qubits with a value have T1 below 45 μs, which is bad.", [SHARE],
                          question="below 45")
    assert not report.wrong, report.claims
