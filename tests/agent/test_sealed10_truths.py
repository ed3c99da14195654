"""The tenth sealed set's truths recounted another way: the state documents' merged data (QDash keeps it equal to the
latest result) for values, whole-chip ``find()`` rows filtered by the Python date of ``start_at`` (or a ``$group``
pipeline) for windows, numpy for the statistics, instead of the set's helpers (latest rows sorted by time, ranged
queries, ``statistics``).  Every shape is recounted; only question ids appear in failure messages."""

from __future__ import annotations

import math
from collections import Counter
from datetime import date, timedelta

import numpy as np
import pytest

from tests.agent.recount import column, is_value, last_day, midnight_of, named, rows, state, within
from tests.public_eval import CHIP, OTHER
from tests.sealed.heldout10 import build_heldout10
from tests.sealed.calendar import sealed_fixtures


sealed_day, sealed_db, sealed_now = sealed_fixtures(build_heldout10)


@pytest.fixture(scope="module")
def truths(sealed_day):
    return {q.id: q.truth for q in sealed_day.questions}


def since(last: date, weekday: int) -> date:
    return last - timedelta(days=(last.weekday() - weekday) % 7)


def _label(key: str) -> str:
    return "-".join(f"Q{int(p):02d}" for p in key.split("-"))


def test_the_rankings_recount(truths, sealed_db):
    cases = {"sealed10-top-N-1": (CHIP, "t2_echo", "qubit", 4, True),
             "sealed10-top-N-2": (OTHER, "zx90_gate_fidelity", "coupling", 3, False),
             "sealed10-top-N-3": (OTHER, "t2_star", "qubit", 4, False),
             "sealed10-top-N-4": (CHIP, "readout_fidelity_1", "qubit", 3, False)}
    for qid, (chip, name, kind, n, high) in cases.items():
        ranked = sorted(column(sealed_db, chip, name, kind).items(), key=lambda kv: -kv[1] if high else kv[1])[:n]
        expects = truths[qid].expects
        assert [e.value for e in expects] == pytest.approx([v for _, v in ranked]), qid
        assert all(named(e.near[0], _label(k)) for e, (k, _) in zip(expects, ranked)), qid


def test_the_compound_filters_recount(truths, sealed_db):
    rules = {
        "sealed10-compound-filter-1": (OTHER, lambda d: 0 < d.get("t1", 99) < 30 and 0 < d.get("t2_echo", 99) < 45),
        "sealed10-compound-filter-2": (CHIP, lambda d: 0 < d.get("readout_fidelity_1", 100) < 87
                                       and d.get("qubit_frequency", 0) > 5.0),
        "sealed10-compound-filter-3": (OTHER, lambda d: 0 < d.get("average_readout_fidelity", 100) < 90
                                       and 0 < d.get("t2_star", 99) < 18),
        "sealed10-compound-filter-4": (CHIP, lambda d: 0 > d.get("anharmonicity", -999) > -250 and d.get("t1", 0) > 60),
    }
    for qid, (chip, keep) in rules.items():
        kept = sorted(q for q, data in state(sealed_db, chip).items() if keep(data))
        truth = truths[qid]
        assert truth.expects[0].value == len(kept) and len(truth.patterns) == len(kept), qid
        assert all(any(named(p, f"Q{int(q):02d}") for p in truth.patterns) for q in kept), qid


def test_the_value_shares_recount(truths, sealed_db):
    t1 = np.array(list(column(sealed_db, CHIP, "t1").values()))
    assert is_value(100 * float(np.mean(t1 > 50)), truths["sealed10-percentage-1"].expects[0])
    bell = np.array(list(column(sealed_db, OTHER, "bell_state_fidelity", "coupling").values()))
    assert is_value(100 * float(np.mean(bell < 90)), truths["sealed10-percentage-2"].expects[0])


def test_the_task_shares_recount(truths, sealed_db):
    last = last_day(sealed_db, OTHER)
    week = [r for r in rows(sealed_db, OTHER) if within(r, last - timedelta(days=6), last)]
    assert is_value(100 * sum(r["status"] == "failed" for r in week) / len(week), truths["sealed10-percentage-3"].expects[0])
    last = last_day(sealed_db, CHIP)
    t1 = [r for r in rows(sealed_db, CHIP) if r["name"] == "CheckT1" and within(r, last.replace(day=1), last)]
    assert is_value(100 * sum(r["status"] == "failed" for r in t1) / len(t1), truths["sealed10-percentage-4"].expects[0])


def test_the_spreads_recount(truths, sealed_db):
    t1 = np.array(list(column(sealed_db, OTHER, "t1").values()))
    assert is_value(float(np.std(t1, ddof=1)), truths["sealed10-spread-1"].expects[0])
    anh = np.array(list(column(sealed_db, CHIP, "anharmonicity").values()))
    assert is_value(float(np.ptp(anh)), truths["sealed10-spread-2"].expects[0])
    zx = np.array(list(column(sealed_db, CHIP, "zx90_gate_fidelity", "coupling").values()))
    assert is_value(float(np.std(zx)), truths["sealed10-spread-3"].expects[0])  # the population reading
    echo = np.array(list(column(sealed_db, OTHER, "t2_echo").values()))
    q1, q3 = np.percentile(echo, [25, 75], method="weibull")  # the exclusive rule
    assert is_value(float(q3 - q1), truths["sealed10-spread-4"].expects[0])
    q1, q3 = np.percentile(echo, [25, 75])  # numpy's linear rule: the inclusive reading
    assert is_value(float(q3 - q1), truths["sealed10-spread-4"].expects[0])


def test_the_correlations_recount(truths, sealed_db):
    cases = {"sealed10-correlation-1": (OTHER, "t1", "t2_echo", "qubit"),
             "sealed10-correlation-2": (CHIP, "qubit_frequency", "t1", "qubit"),
             "sealed10-correlation-3": (OTHER, "bell_state_fidelity", "zx90_depolarizing_rate", "coupling"),
             "sealed10-correlation-4": (CHIP, "readout_frequency", "average_readout_fidelity", "qubit")}
    for qid, (chip, a, b, kind) in cases.items():
        both = [d for d in state(sealed_db, chip, kind).values() if a in d and b in d]
        r = float(np.corrcoef([d[a] for d in both], [d[b] for d in both])[0, 1])
        expect = truths[qid].expects[0]
        assert math.isclose(expect.value, r, abs_tol=1e-9) and expect.signed and abs(r) >= 0.15, qid


def test_the_chip_comparisons_recount(truths, sealed_db):
    medians = {c: float(np.median(list(column(sealed_db, c, "t1").values()))) for c in (CHIP, OTHER)}
    means = {c: float(np.mean(list(column(sealed_db, c, "x90_gate_fidelity").values()))) for c in (CHIP, OTHER)}
    fails = {}
    for c in (CHIP, OTHER):
        last = last_day(sealed_db, c)
        fails[c] = sum(1 for r in rows(sealed_db, c) if r["status"] == "failed" and within(r, since(last, 1), last))
    worst = {c: min(column(sealed_db, c, "bell_state_fidelity", "coupling").values()) for c in (CHIP, OTHER)}
    for number, figures in ((1, medians), (2, means), (3, fails), (4, worst)):
        truth = truths[f"sealed10-cross-chip-{number}"]
        assert all(is_value(figures[c], e) for c, e in zip((CHIP, OTHER), truth.expects)), number
        assert named(truth.winner, max(figures, key=figures.__getitem__)), number
        assert named(truth.loser, min(figures, key=figures.__getitem__)), number


def test_the_pairs_recount(truths, sealed_db):
    def value(chip: str, pair: str, name: str) -> float:
        return state(sealed_db, chip, "coupling")[pair][name]

    assert is_value(value(OTHER, "104-105", "zx90_gate_fidelity"), truths["sealed10-qubit-pair-1"].expects[0])
    assert is_value(value(CHIP, "16-17", "bell_state_fidelity"), truths["sealed10-qubit-pair-2"].expects[0])
    zx = {p: value(CHIP, p, "zx90_gate_fidelity") for p in ("20-21", "22-23")}
    truth = truths["sealed10-qubit-pair-3"]
    better = max(zx, key=zx.__getitem__)
    assert named(truth.winner, _label(better)) and is_value(zx[better], truth.expects[0])
    truth = truths["sealed10-qubit-pair-4"]
    t1 = column(sealed_db, OTHER, "t1")
    longer, shorter = sorted(("107", "110"), key=t1.__getitem__, reverse=True)
    assert [e.value for e in truth.expects] == pytest.approx(
        [value(OTHER, "107-110", "zx90_gate_time"), t1[longer], t1[shorter]])
    assert named(truth.winner, f"Q{longer}") and named(truth.loser, f"Q{shorter}")


def test_the_fail_leaders_recount(truths, sealed_db):
    """A ``$group`` pipeline counts the failures (the set's helpers count ``find()`` rows)."""
    def leader(chip: str, key: str, first: date, match: dict) -> tuple[str, int]:
        last = last_day(sealed_db, chip)
        pipeline = [{"$match": {"chip_id": chip, "status": "failed", **match,
                                "start_at": {"$gte": midnight_of(first), "$lt": midnight_of(last + timedelta(days=1))}}},
                    {"$group": {"_id": f"${key}", "n": {"$sum": 1}}}]
        counts = sorted(((d["n"], d["_id"]) for d in sealed_db["task_result_history"].aggregate(pipeline)), reverse=True)
        assert counts[0][0] > counts[1][0]
        return counts[0][1], counts[0][0]

    last = last_day(sealed_db, CHIP)
    task, n = leader(CHIP, "name", last - timedelta(days=4), {})
    truth = truths["sealed10-fails-most-1"]
    assert truth.expects[0].value == n and named(truth.patterns[0], task)
    other = last_day(sealed_db, OTHER)
    inactive = [d["qid"] for d in sealed_db["qubit"].find({"chip_id": OTHER, "status": "inactive"})]
    qubit, n = leader(OTHER, "qid", since(other, 3), {"task_type": "qubit", "qid": {"$nin": inactive}})
    truth = truths["sealed10-fails-most-2"]
    assert truth.expects[0].value == n and named(truth.patterns[0], f"Q{int(qubit):02d}")
    failed = [r for r in rows(sealed_db, OTHER) if r["status"] == "failed"
              and within(r, other - timedelta(days=19), other - timedelta(days=11))]
    (run, n), (_, second) = Counter(r["execution_id"] for r in failed).most_common(2)
    truth = truths["sealed10-fails-most-3"]
    assert n > second and truth.expects[0].value == n and named(truth.patterns[0], run)
    per_pair = Counter("-".join(sorted(r["qid"].split("-"), key=int)) for r in rows(sealed_db, OTHER)
                       if r["status"] == "failed" and r["task_type"] == "coupling"
                       and within(r, other.replace(day=1), other))
    (pair, n), (_, second) = per_pair.most_common(2)
    truth = truths["sealed10-fails-most-4"]
    assert n > second and truth.expects[0].value == n and named(truth.patterns[0], _label(pair))


def test_the_windows_recount(truths, sealed_db):
    other = last_day(sealed_db, OTHER)
    failed = [r for r in rows(sealed_db, OTHER) if r["status"] == "failed" and within(r, since(other, 3), other)]
    assert len(failed) >= 1 and is_value(len(failed), truths["sealed10-window-count-1"].expects[0])
    last = last_day(sealed_db, CHIP)
    runs = [e for e in sealed_db["execution_history"].find({}) if e["chip_id"] == CHIP
            and within(e, last - timedelta(days=26), last - timedelta(days=17))]
    assert len(runs) >= 1 and is_value(len(runs), truths["sealed10-window-count-2"].expects[0])
    ramsey = [r for r in rows(sealed_db, OTHER) if r["name"] == "CheckRamsey" and r["status"] == "failed"
              and within(r, other - timedelta(days=7), other)]
    assert len(ramsey) >= 1 and is_value(len(ramsey), truths["sealed10-window-count-3"].expects[0])
    readout = [r for r in rows(sealed_db, CHIP) if r["name"] == "ReadoutClassification" and r["status"] == "failed"
               and within(r, last.replace(day=1), last)]
    assert len(readout) >= 1 and is_value(len(readout), truths["sealed10-window-count-4"].expects[0])


def test_the_missing_things_are_missing(truths, sealed_db):
    assert sealed_db["qubit"].count_documents({"chip_id": CHIP}) == 64  # Q00-Q63: no Q77
    assert not [d for d in sealed_db["coupling"].find({"chip_id": OTHER}) if set(d["qid"].split("-")) == {"5", "90"}]
    assert "256Qv1" not in sealed_db["chip"].distinct("chip_id")
    assert not [r for r in rows(sealed_db, OTHER) if any("leakage" in k for k in r["output_parameters"])]
    assert all(truths[f"sealed10-missing-thing-{i}"].no_values for i in range(1, 5))
