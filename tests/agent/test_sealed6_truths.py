"""The sixth sealed set's truths recounted another way: plain Python over ``find()`` rows (or one aggregation) instead
of the set's own helpers (the truths every set shares are checked in ``test_sealed_truths.py``).  Only question ids
appear in failure messages, never the questions."""

from __future__ import annotations

import math
import re
import statistics
from collections import Counter, defaultdict
from datetime import datetime, timedelta

import pytest

from tests.public_eval import CHIP, OTHER
from tests.sealed.heldout6 import build_heldout6
from tests.sealed.calendar import sealed_fixtures


sealed_day, sealed_db, sealed_now = sealed_fixtures(build_heldout6)


@pytest.fixture(scope="module")
def truths(sealed_day):
    return {q.id: q.truth for q in sealed_day.questions}


def newest(db, chip: str, name: str, kind: str = "qubit") -> dict[str, float]:
    """Latest usable value per id, from every row of the chip read once and sorted here (not by the database)."""
    rows = [r for r in db["task_result_history"].find({"chip_id": chip, "task_type": kind})
            if r["status"] == "completed" and not r.get("excluded") and name in (r.get("output_parameters") or {})]
    rows.sort(key=lambda r: r["start_at"])
    last = {r["qid"]: r["output_parameters"][name]["value"] for r in rows}  # the newest row wins
    factor = 100.0 if "fidelity" in name else 1000.0 if name == "anharmonicity" else 1.0
    return {q: v * factor for q, v in last.items() if isinstance(v, (int, float)) and math.isfinite(v) and v != 0}


def newest_run_day(db, chip: str):
    """The newest run's day, read from its execution id (``YYYYMMDD-NNN``) rather than its timestamp."""
    ids = [e["execution_id"] for e in db["execution_history"].find({"chip_id": chip}, {"execution_id": 1,
                                                                                      "start_at": 1})]
    newest_id = max(db["execution_history"].find({"chip_id": chip}), key=lambda e: e["start_at"])["execution_id"]
    assert newest_id in ids
    return datetime.strptime(newest_id[:8], "%Y%m%d")


def _matches(pattern: str, qid: str) -> bool:
    return re.search(pattern, f"Q{int(qid):02d}") is not None


def test_the_compound_filters_recount(truths, sealed_db):
    """Each filter's qubits, found by checking every qubit document's merged data (QDash keeps it equal to the latest
    completed, non-excluded result; a stored 0 is no value)."""
    def merged(chip: str) -> dict[str, dict[str, float]]:
        out: dict[str, dict[str, float]] = {}
        for doc in sealed_db["qubit"].find({"chip_id": chip}):
            out[doc["qid"]] = {k: p["value"] for k, p in doc.get("data", {}).items() if p.get("value")}
        return out

    rules = {
        "sealed6-compound-filter-1": (CHIP, lambda d: d.get("t1", 0) > 90 and 0 < d.get("t2_echo", 1e9) < 100),
        "sealed6-compound-filter-2": (OTHER, lambda d: 0 < d.get("average_readout_fidelity", 1) < 0.90
                                      and d.get("x90_gate_fidelity", 0) > 0.999),
        "sealed6-compound-filter-3": (CHIP, lambda d: d.get("qubit_frequency", 0) > 5.2 and 0 < d.get("t1", 1e9) < 50),
        "sealed6-compound-filter-4": (OTHER, lambda d: 0 < d.get("t2_star", 1e9) < 25 and d.get("t1", 0) > 60),
    }
    for qid, (chip, keep) in rules.items():
        kept = sorted(q for q, data in merged(chip).items() if keep(data))
        truth = truths[qid]
        assert truth.expects[0].value == len(kept), qid
        assert all(any(_matches(p, q) for p in truth.patterns) for q in kept), qid


def test_the_shares_recount(truths, sealed_db):
    t1 = newest(sealed_db, CHIP, "t1")
    assert math.isclose(truths["sealed6-percentage-1"].expects[0].value,
                        100 * len([v for v in t1.values() if v >= 50]) / len(t1))
    zx = newest(sealed_db, OTHER, "zx90_gate_fidelity", "coupling")
    every = {tuple(sorted(d["qid"].split("-"))) for d in sealed_db["coupling"].find({"chip_id": OTHER})}
    expect = truths["sealed6-percentage-2"].expects[0]
    assert math.isclose(expect.value, 100 * len([v for v in zx.values() if v >= 98]) / len(zx))
    assert math.isclose(expect.alternatives[0], 100 * len([v for v in zx.values() if v >= 98]) / len(every))
    last = newest_run_day(sealed_db, CHIP)
    rows = [r for r in sealed_db["task_result_history"].find({"chip_id": CHIP})
            if r["name"] == "CheckT2Echo" and r["start_at"] >= last - timedelta(days=9)]
    assert math.isclose(truths["sealed6-percentage-3"].expects[0].value,
                        100 * sum(r["status"] == "failed" for r in rows) / len(rows))


def test_the_rankings_recount(truths, sealed_db):
    t2 = newest(sealed_db, OTHER, "t2_echo")
    top = sorted(t2.items(), key=lambda kv: -kv[1])[:5]
    expects = truths["sealed6-top-N-1"].expects
    assert [e.value for e in expects] == [v for _, v in top]
    assert all(_matches(e.near[0], q) for e, (q, _) in zip(expects, top))
    zx = newest(sealed_db, CHIP, "zx90_gate_fidelity", "coupling")
    low = sorted(zx.items(), key=lambda kv: kv[1])[:4]
    expects = truths["sealed6-top-N-3"].expects
    assert [e.value for e in expects] == [v for _, v in low]
    assert all(re.search(e.near[0], cid) for e, (cid, _) in zip(expects, low))


def test_the_chip_comparisons_recount(truths, sealed_db):
    """Medians and failure counts of both chips, with one aggregation for the counts."""
    for qid, name, kind in (("sealed6-cross-chip-1", "t1", "qubit"),
                            ("sealed6-cross-chip-4", "zx90_gate_fidelity", "coupling")):
        ours = [statistics.median(newest(sealed_db, chip, name, kind).values()) for chip in (CHIP, OTHER)]
        assert [e.value for e in truths[qid].expects] == pytest.approx(ours), qid
    since = {chip: newest_run_day(sealed_db, chip) - timedelta(days=6) for chip in (CHIP, OTHER)}
    counts = {r["_id"]: r["n"] for r in sealed_db["task_result_history"].aggregate([
        {"$match": {"status": "failed", "$or": [{"chip_id": c, "start_at": {"$gte": s}} for c, s in since.items()]}},
        {"$group": {"_id": "$chip_id", "n": {"$sum": 1}}}])}
    truth = truths["sealed6-cross-chip-3"]
    assert [e.value for e in truth.expects] == [counts[CHIP], counts[OTHER]]
    assert re.search(truth.winner, max(counts, key=counts.__getitem__))


def test_the_spreads_and_correlations_recount(truths, sealed_db):
    t1 = list(newest(sealed_db, OTHER, "t1").values())
    mean = sum(t1) / len(t1)
    assert math.isclose(truths["sealed6-spread-1"].expects[0].value,
                        math.sqrt(sum((v - mean) ** 2 for v in t1) / (len(t1) - 1)))
    anh = newest(sealed_db, CHIP, "anharmonicity").values()
    assert math.isclose(truths["sealed6-spread-2"].expects[0].value, max(anh) - min(anh))
    a, b = newest(sealed_db, CHIP, "t1"), newest(sealed_db, CHIP, "t2_echo")
    both = sorted(a.keys() & b.keys())
    xs, ys = [a[q] for q in both], [b[q] for q in both]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    r = (sum((x - mx) * (y - my) for x, y in zip(xs, ys))
         / math.sqrt(sum((x - mx) ** 2 for x in xs) * sum((y - my) ** 2 for y in ys)))
    assert math.isclose(truths["sealed6-correlation-1"].expects[0].value, r)
    assert truths["sealed6-correlation-4"].expects[0].value < -0.5 < 0.5 < r


def test_the_windows_recount(truths, sealed_db):
    """Counted from the day written in each execution id, where the set's own truth counts by timestamp; the two
    readings agree or the execution-id one is the accepted alternative."""
    def ids_day(row) -> datetime:
        return datetime.strptime(row["execution_id"][:8], "%Y%m%d")

    last = newest_run_day(sealed_db, CHIP)
    failed = [r for r in sealed_db["task_result_history"].find({"chip_id": CHIP, "status": "failed"})]
    n = sum(ids_day(r) >= last - timedelta(days=9) for r in failed)
    expect = truths["sealed6-window-count-1"].expects[0]
    assert n in (expect.value, *expect.alternatives) and n >= 20
    excluded = [r for r in sealed_db["task_result_history"].find({"chip_id": CHIP, "excluded": True})
                if r["name"] == "CheckT1" and ids_day(r) >= last - timedelta(days=13)]
    expect = truths["sealed6-window-count-3"].expects[0]
    assert len(excluded) in (expect.value, *expect.alternatives) and len(excluded) >= 1
    runs = [e for e in sealed_db["execution_history"].find({}) if e["status"] == "failed"
            and e["start_at"] >= last - timedelta(days=12)]
    assert truths["sealed6-window-count-4"].expects[0].value == len(runs)
    assert 1 <= len(runs) < sealed_db["execution_history"].count_documents({"status": "failed"})


def test_the_fail_leaders_recount(truths, sealed_db):
    per: dict[str, Counter] = defaultdict(Counter)
    for row in sealed_db["task_result_history"].find({"status": "failed"}):
        if row["chip_id"] == OTHER and row["task_type"] == "coupling":
            per["pair"][frozenset(row["qid"].split("-"))] += 1
        if row["chip_id"] == CHIP and row["task_type"] == "coupling":
            per["task"][row["name"]] += 1
    (pair, n), (_, second) = per["pair"].most_common(2)
    truth = truths["sealed6-fails-most-2"]
    assert n > second and truth.expects[0].value == n
    assert re.search(truth.patterns[0], "-".join(sorted(pair, key=int)))
    (name, n), (_, second) = per["task"].most_common(2)
    truth = truths["sealed6-fails-most-4"]
    assert n > second and truth.expects[0].value == n and re.search(truth.patterns[0], name)


def test_the_pairs_recount(truths, sealed_db):
    """The pair values read from the coupling documents (the latest merged value), not from task results."""
    def data(chip: str, a: int, b: int, name: str) -> float:
        docs = [d for d in sealed_db["coupling"].find({"chip_id": chip}) if d["qid"] in (f"{a}-{b}", f"{b}-{a}")
                and name in d.get("data", {})]
        assert len(docs) == 1
        return docs[0]["data"][name]["value"]

    assert math.isclose(truths["sealed6-qubit-pair-1"].expects[0].value,
                        100 * data(CHIP, 12, 13, "zx90_gate_fidelity"))
    assert math.isclose(truths["sealed6-qubit-pair-3"].expects[0].value, data(OTHER, 4, 6, "zx90_gate_time"))
    truth = truths["sealed6-qubit-pair-4"]
    first, second = data(CHIP, 0, 1, "zx90_gate_fidelity"), data(CHIP, 1, 4, "zx90_gate_fidelity")
    assert re.search(truth.winner, "0-1" if first > second else "1-4")
