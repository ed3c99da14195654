"""rank_metric, filter_metric, missing_metric and get_run_failures against truths computed here with pymongo
queries on the raw demo documents (newest completed, non-excluded result per qubit; NaN and QDash's 0 are no value)."""

from __future__ import annotations

import math
import re
from collections import Counter

import pytest

SCALE = {"t1": 1.0, "t2_echo": 1.0, "x90_gate_fidelity": 100.0, "zx90_gate_fidelity": 100.0}


def latest_values(db, chip: str, name: str, kind: str = "qubit") -> dict[str, float | None]:
    """{stored qid: display value or None} from the newest completed, non-excluded result carrying ``name``."""
    docs = db["task_result_history"].find({"chip_id": chip, "status": "completed", "task_type": kind,
                                           "excluded": {"$ne": True}, f"output_parameters.{name}": {"$exists": True}})
    newest: dict[str, dict] = {}
    for doc in docs:
        if doc["qid"] not in newest or doc["start_at"] > newest[doc["qid"]]["start_at"]:
            newest[doc["qid"]] = doc
    out: dict[str, float | None] = {}
    for qid, doc in newest.items():
        raw = doc["output_parameters"][name]["value"]
        out[qid] = raw * SCALE[name] if isinstance(raw, (int, float)) and math.isfinite(raw) and raw != 0 else None
    return out


def chip_size(db, chip: str) -> int:
    return int(db["chip"].find_one({"chip_id": chip})["size"])


@pytest.mark.parametrize("order", ["lowest", "highest"])
@pytest.mark.parametrize("name", ["t1", "x90_gate_fidelity"])
def test_rank_metric_names_the_qubits_holding_the_extremes(call, db, chip64, order, name):
    truth = {q: v for q, v in latest_values(db, chip64, name).items() if v is not None}
    ranked = sorted(truth, key=lambda q: truth[q], reverse=order == "highest")[:3]
    outcome, payload = call("rank_metric", chip_id=chip64, metric_name=name, order=order, n=3)
    assert outcome.ok
    assert [r["qid"] for r in payload[order]] == ranked
    assert [r["value"] for r in payload[order]] == pytest.approx([truth[q] for q in ranked], rel=1e-3)
    head = int(ranked[0])
    assert re.search(rf"The {order} {name} on {chip64} is Q0*{head} with ", payload["answer"])
    assert f"of {len(truth)} of {chip_size(db, chip64)} qubits" in payload["answer"]


def test_rank_metric_on_a_coupling_metric_names_the_pair(call, db, chip64):
    truth = {q: v for q, v in latest_values(db, chip64, "zx90_gate_fidelity", "coupling").items()
             if v is not None}
    worst = min(truth, key=lambda q: truth[q])
    outcome, payload = call("rank_metric", chip_id=chip64, metric_name="zx90_gate_fidelity", n=1)
    [row] = payload["lowest"]
    assert set(row["coupling_id"].split("-")) == set(worst.split("-"))
    assert row["value"] == pytest.approx(truth[worst], rel=1e-4)
    assert f"{truth[worst]:.2f}%" in payload["answer"] and "couplings" in payload["answer"]


@pytest.mark.parametrize("bounds", [{"below": 50.0}, {"above": 100.0}, {"below": 80.0, "above": 40.0}])
def test_filter_metric_lists_and_counts_the_qubits_past_a_threshold(call, db, chip144, bounds):
    truth = latest_values(db, chip144, "t1")
    expected = sorted((q for q, v in truth.items() if v is not None and v < bounds.get("below", math.inf)
                       and v > bounds.get("above", -math.inf)), key=int)
    outcome, payload = call("filter_metric", chip_id=chip144, metric_name="t1", **bounds)
    key = "below" if "above" not in bounds else "above" if "below" not in bounds else "matching"
    assert outcome.ok and payload[f"count_{key}"] == len(expected) > 0
    assert [r["qid"] for r in payload[key]] == expected
    with_data = sum(1 for v in truth.values() if v is not None)
    assert payload["answer"].startswith(f"{len(expected)} of {with_data} qubits with t1 data on {chip144} have t1 ")


def test_filter_metric_needs_a_bound(call, chip64):
    outcome, payload = call("filter_metric", chip_id=chip64, metric_name="t1")
    assert not outcome.ok and payload["error"] == "give below or above"


def test_missing_metric_counts_dead_and_failed_qubits(call, db, chip64):
    truth = latest_values(db, chip64, "t1")
    expected = sorted((str(q) for q in range(chip_size(db, chip64)) if truth.get(str(q)) is None), key=int)
    assert expected  # the demo has dead qubits
    outcome, payload = call("missing_metric", chip_id=chip64, metric_name="t1")
    assert payload["count_missing"] == len(expected)
    assert [r["qid"] for r in payload["missing"]] == expected
    assert payload["answer"].startswith(f"{len(expected)} of {chip_size(db, chip64)} qubits on {chip64} have "
                                        "no valid t1")


def test_run_failures_of_the_latest_execution(call, db, chip64):
    latest = list(db["execution_history"].find({"chip_id": chip64}).sort([("start_at", -1)]).limit(1))[0]
    docs = list(db["task_result_history"].find({"chip_id": chip64, "execution_id": latest["execution_id"]}))
    failed = [d for d in docs if d["status"] == "failed"]
    assert failed  # the demo's last run has failures
    outcome, payload = call("get_run_failures", chip_id=chip64)
    assert payload["execution_id"] == latest["execution_id"] and payload["count_failed"] == len(failed)
    assert payload["by_task"] == dict(Counter(d["name"] for d in failed))
    assert sorted((f["task"], f["qid"]) for f in payload["failed"]) == sorted((d["name"], d["qid"]) for d in failed)
    assert payload["answer"].startswith(f"{len(failed)} of {len(docs)} tasks failed in execution "
                                        f"{latest['execution_id']} on {chip64}")


def test_run_failures_count_every_task_of_a_large_run(call, db):
    """A 144-qubit day holds more task results than one scan reads: the counts are counted, never "at least"."""
    chip = "144Qv2"
    latest = list(db["execution_history"].find({"chip_id": chip}).sort([("start_at", -1)]).limit(1))[0]
    total = db["task_result_history"].count_documents({"chip_id": chip, "execution_id": latest["execution_id"]})
    failed = db["task_result_history"].count_documents({"chip_id": chip, "execution_id": latest["execution_id"],
                                                         "status": "failed"})
    assert total > 1000 and failed
    _, payload = call("get_run_failures", chip_id=chip)
    assert (payload["tasks_in_run"], payload["count_failed"]) == (total, failed)
    assert payload["answer"].startswith(f"{failed} of {total} tasks failed in execution {latest['execution_id']}")
    assert "at least" not in payload["answer"]


def test_run_failures_of_a_named_execution_and_an_unknown_one(call, db, chip64):
    older = list(db["execution_history"].find({"chip_id": chip64}).sort([("start_at", -1)]).limit(3))[2]
    failed = db["task_result_history"].count_documents({"chip_id": chip64, "status": "failed",
                                                             "execution_id": older["execution_id"]})
    outcome, payload = call("get_run_failures", chip_id=chip64, execution_id=older["execution_id"])
    assert payload["count_failed"] == failed
    outcome, payload = call("get_run_failures", chip_id=chip64, execution_id="19990101-001")
    assert not outcome.ok and "no task results" in payload["error"]


def test_last_n_values_are_spelled_out_newest_first_with_dates(call, db, chip64, live64):
    qid = live64[3]
    docs = [d for d in db["task_result_history"].find({"chip_id": chip64, "qid": qid, "status": "completed",
                                                             "excluded": {"$ne": True}, "output_parameters.t1":
                                                             {"$exists": True}})
            if d["output_parameters"]["t1"]["value"] not in (0, None)
            and math.isfinite(d["output_parameters"]["t1"]["value"])]
    docs.sort(key=lambda d: d["start_at"], reverse=True)
    outcome, payload = call("get_parameter_timeseries", chip_id=chip64, qid=qid, parameter_name="t1", last_n=2)
    expected = ", ".join(f"{d['output_parameters']['t1']['value']:.1f} μs "
                         f"({d['output_parameters']['t1']['calibrated_at']:%Y-%m-%d %H:%M})" for d in docs[:2])
    assert payload["answer"].endswith(f"; values, newest first: {expected}.")


@pytest.mark.parametrize("tool, args", [
    ("filter_metric", {"metric_name": "qubit_frequency", "below": 5000}),
    ("filter_metric", {"metric_name": "t1", "above": -2}),
    ("filter_metrics", {"conditions": [{"metric_name": "qubit_frequency", "below": 5000},
                                       {"metric_name": "t1", "below": 87}]}),
    ("filter_metrics", {"conditions": [{"metric_name": "t1", "above": 30},
                                       {"metric_name": "x90_gate_fidelity", "above": 250}]}),
    ("compare_chips", {"metric_name": "qubit_frequency", "statistic": "median", "above": 5000}),
])
def test_a_limit_the_metric_never_takes_is_refused_not_counted(call, db, chip64, chip144, tool, args):
    # "5000" sent for a frequency in GHz would count every qubit as "below 5000 GHz": the person would read a share
    # of a filter they never asked, in a unit they never wrote.
    extra = {"chip_ids": [chip64, chip144]} if tool == "compare_chips" else {"chip_id": chip64}
    outcome, payload = call(tool, **extra, **args)
    assert not outcome.ok, payload
    assert "is no" in payload["error"] and "it takes" in payload["error"], payload
    with_data = sum(v is not None for v in latest_values(db, chip64, "t1").values())
    assert with_data > 0  # the chip holds values: the refusal is the limit's, not an empty chip's


def test_a_limit_inside_the_span_still_filters(call, db, chip64):
    truth = sorted(q for q, v in latest_values(db, chip64, "t1").items() if v is not None and v > 50)
    outcome, payload = call("filter_metric", chip_id=chip64, metric_name="t1", above=50)
    assert outcome.ok and payload["count_above"] == len(truth), payload


def test_rank_metric_says_when_fewer_than_n_subjects_have_a_value(call, db, chip64, monkeypatch):
    """Three qubits keep their T1 (the rest lose it): a top 5 lists the three and says only three have a value."""
    from dataclasses import replace

    from copilot_core.tools import ranking

    truth = {q: v for q, v in latest_values(db, chip64, "t1").items() if v is not None}
    kept = sorted(truth, key=lambda q: truth[q])[:3]
    real = ranking.measure_metric

    def three(ctx, chip_id, metric_name, *in_set):
        cm = real(ctx, chip_id, metric_name, *in_set)
        return replace(cm, values={q: (v if q in kept else None) for q, v in cm.values.items()})

    monkeypatch.setattr(ranking, "measure_metric", three)
    outcome, payload = call("rank_metric", chip_id=chip64, metric_name="t1", order="lowest", n=5)
    assert [r["qid"] for r in payload["lowest"]] == kept
    assert "the lowest 3: " in payload["answer"] and "Only 3 qubits have a value, fewer than the 5 asked." in \
        payload["answer"]
    _, five = call("rank_metric", chip_id=chip64, metric_name="t1", order="lowest", n=3)
    assert "fewer than" not in five["answer"]
