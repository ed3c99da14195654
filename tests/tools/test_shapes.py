"""filter_metrics, metric_spread, correlate_metrics and filter_metric's share against truths computed here with
pymongo on the raw demo documents (newest completed, non-excluded result per qubit; NaN and QDash's 0: no value)."""

from __future__ import annotations

import re
import statistics

import pytest

from tests.tools.test_ranking import latest_values

SCALE_PCT = {"average_readout_fidelity": 100.0}


def values(db, chip: str, name: str) -> dict[str, float]:
    if name in SCALE_PCT:
        found = {}
        for doc in db["task_result_history"].find({"chip_id": chip, "status": "completed", "task_type": "qubit",
                                                   "excluded": {"$ne": True}, f"output_parameters.{name}":
                                                   {"$exists": True}}):
            if doc["qid"] not in found or doc["start_at"] > found[doc["qid"]]["start_at"]:
                found[doc["qid"]] = doc
        raw = {q: d["output_parameters"][name]["value"] for q, d in found.items()}
        return {q: v * 100.0 for q, v in raw.items() if isinstance(v, float) and v == v and v != 0}
    return {q: v for q, v in latest_values(db, chip, name).items() if v is not None}


def test_filter_metrics_and_counts_qubits_meeting_both(call, db, chip64):
    t1, t2 = values(db, chip64, "t1"), values(db, chip64, "t2_echo")
    both = [q for q in t1 if q in t2]
    truth = sorted((q for q in both if t1[q] > 50 and t2[q] > 40), key=int)
    outcome, payload = call("filter_metrics", chip_id=chip64, join="and",
                            conditions=[{"metric_name": "t1", "above": 50}, {"metric_name": "t2_echo", "above": 40}])
    assert outcome.ok
    assert [r["qid"] for r in payload["matching"]] == truth
    share = f"{100 * len(truth) / len(both):.1f}%"
    assert payload["answer"].startswith(f"{len(truth)} of {len(both)} qubits with a value of every one of t1, "
                                        f"t2_echo on {chip64} have t1 above 50 μs and t2_echo above 40 μs ({share}")


def test_filter_metrics_or_counts_qubits_meeting_either(call, db, chip64):
    ro, x90 = values(db, chip64, "average_readout_fidelity"), values(db, chip64, "x90_gate_fidelity")
    judged = set(ro) | set(x90)
    truth = sorted((q for q in judged if ro.get(q, 100.0) < 96 or x90.get(q, 0.0) > 99.9), key=int)
    outcome, payload = call("filter_metrics", chip_id=chip64, join="or",
                            conditions=[{"metric_name": "average_readout_fidelity", "below": 96},
                                        {"metric_name": "x90_gate_fidelity", "above": 99.9}])
    assert [r["qid"] for r in payload["matching"]] == truth
    assert payload["answer"].startswith(f"{len(truth)} of {len(judged)} qubits with a value of at least one of ")


def test_filter_metrics_reads_a_condition_without_a_side_as_no_valid_value(call, db, chip64):
    """A condition with neither below nor above is the status "no valid value": the chip's qubits with no usable T1
    and T2 echo above 40 μs."""
    qubits = {d["qid"] for d in db["qubit"].find({"chip_id": chip64}, {"qid": 1})}
    t1, t2 = values(db, chip64, "t1"), values(db, chip64, "t2_echo")
    truth = sorted((q for q in qubits if q not in t1 and t2.get(q, 0.0) > 40), key=int)
    either = sorted((q for q in qubits if q not in t1 or t2.get(q, 0.0) > 40), key=int)
    assert set(either) - {q for q in qubits if t2.get(q, 0.0) > 40}  # a qubit matched for its missing T1 alone
    for join, expected in (("and", truth), ("or", either)):
        outcome, payload = call("filter_metrics", chip_id=chip64, join=join,
                                conditions=[{"metric_name": "t1"}, {"metric_name": "t2_echo", "above": 40}])
        assert outcome.ok and [r["qid"] for r in payload["matching"]] == expected
        assert "no valid t1" in payload["answer"]


@pytest.mark.parametrize("split", [False, True])
def test_filter_metrics_reads_a_below_and_an_above_of_one_metric_as_a_range(call, db, chip64, split):
    """Inside: above 50 and below 90 (one condition or two); outside: below 50 and above 90."""
    t1, t2 = values(db, chip64, "t1"), values(db, chip64, "t2_echo")
    judged = set(t1) & set(t2)
    inside = sorted((q for q in judged if 50 < t1[q] < 90 and t2[q] > 40), key=int)
    outside = sorted((q for q in judged if (t1[q] < 50 or t1[q] > 90) and t2[q] > 40), key=int)
    assert inside and outside
    for below, above, truth, words in ((90, 50, inside, "t1 between 50 and 90 μs"), (50, 90, outside,
                                                                                     "t1 outside 50–90 μs")):
        t1_conditions = [{"metric_name": "t1", "below": below}, {"metric_name": "t1", "above": above}] if split \
            else [{"metric_name": "t1", "below": below, "above": above}]
        outcome, payload = call("filter_metrics", chip_id=chip64,
                                conditions=[*t1_conditions, {"metric_name": "t2_echo", "above": 40}])
        assert [r["qid"] for r in payload["matching"]] == truth
        assert f"have {words} and t2_echo above 40 μs" in payload["answer"]


def test_filter_metric_states_the_share_of_qubits_with_a_value_and_of_all_on_the_chip(call, db, chip64):
    t1 = values(db, chip64, "t1")
    n = sum(1 for v in t1.values() if v < 40)
    outcome, payload = call("filter_metric", chip_id=chip64, metric_name="t1", below=40)
    assert len(t1) < 64  # by hand: some qubits have no T1, so the two shares differ
    assert f"({100 * n / len(t1):.1f}% of those with a value; {100 * n / 64:.1f}% of all 64 on the chip)" in \
        payload["answer"]


@pytest.mark.parametrize("lead", ["std", "range", "iqr", "cv"])
def test_metric_spread_names_each_statistic_and_leads_with_the_one_asked(call, db, chip64, lead):
    t1 = list(values(db, chip64, "t1").values())
    q1, _, q3 = statistics.quantiles(t1, n=4, method="inclusive")
    std = statistics.stdev(t1)
    outcome, payload = call("metric_spread", chip_id=chip64, metric_name="t1", lead=lead)
    answer = payload["answer"]
    assert f"standard deviation {std:.1f} μs" in answer
    assert f"range {max(t1) - min(t1):.1f} μs (min {min(t1):.1f} μs, max {max(t1):.1f} μs)" in answer
    assert f"interquartile range (IQR) {q3 - q1:.1f} μs" in answer
    assert f"coefficient of variation {100 * std / statistics.mean(t1):.1f}%" in answer
    first = {"std": "sample standard deviation", "range": "range", "iqr": "interquartile", "cv": "coefficient"}[lead]
    assert answer.startswith(f"t1 on {chip64}: {first}") and f"over {len(t1)} qubits with a value" in answer


def ranks(xs: list[float]) -> list[float]:
    """1-based ranks, ties given their average rank (Spearman's rule)."""
    order = sorted(xs)
    return [order.index(x) + 1 + (order.count(x) - 1) / 2 for x in xs]


@pytest.mark.parametrize("method", ["pearson", "spearman", "both"])
def test_correlate_metrics_over_qubits_with_both_values(call, db, chip64, method):
    t1, t2 = values(db, chip64, "t1"), values(db, chip64, "t2_echo")
    both = sorted(q for q in t1 if q in t2)
    pearson = statistics.correlation([t1[q] for q in both], [t2[q] for q in both])
    spearman = statistics.correlation(ranks([t1[q] for q in both]), ranks([t2[q] for q in both]))
    outcome, payload = call("correlate_metrics", chip_id=chip64, metric_a="t1", metric_b="t2_echo", method=method)
    answer = payload["answer"]
    assert answer.startswith(f"Across {len(both)} qubits of {chip64} with both values, t1 and t2_echo correlate with ")
    assert (f"Pearson r = {pearson:.2f}" in answer) == (method != "spearman")
    assert (f"Spearman rho = {spearman:.2f}" in answer) == (method != "pearson")
    assert payload["pairs"] == len(both)


def test_correlate_metrics_refuses_one_metric_twice(call, chip64):
    outcome, payload = call("correlate_metrics", chip_id=chip64, metric_a="t1", metric_b="t1")
    assert not outcome.ok and re.search("two different metrics", payload["error"])
