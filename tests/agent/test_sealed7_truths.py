"""The seventh sealed set's truths recounted another way: plain Python over ``find()`` rows (state documents, rows
sorted here, days read from execution ids) instead of the set's own helpers.  At least one truth per shape; the
truths every set shares are checked in ``test_sealed_truths.py``.  Only question ids appear in failure messages."""

from __future__ import annotations

import math
import re
import statistics
from collections import Counter
from datetime import datetime, timedelta

import pytest

from tests.public_eval import CHIP, OTHER
from tests.sealed.heldout7 import build_heldout7
from tests.sealed.calendar import sealed_fixtures


sealed_day, sealed_db, sealed_now = sealed_fixtures(build_heldout7)


@pytest.fixture(scope="module")
def truths(sealed_day):
    return {q.id: q.truth for q in sealed_day.questions}


def newest(db, chip: str, name: str, kind: str = "qubit") -> dict[str, float]:
    """Latest usable value per id: every row of the chip read once, filtered and sorted here; a stored 0 is none."""
    rows = [r for r in db["task_result_history"].find({"chip_id": chip, "task_type": kind})
            if r["status"] == "completed" and not r.get("excluded") and name in (r.get("output_parameters") or {})]
    rows.sort(key=lambda r: r["start_at"])
    last = {r["qid"]: r["output_parameters"][name]["value"] for r in rows}
    factor = 100.0 if "fidelity" in name else 1000.0 if name == "anharmonicity" else 1.0
    return {q: v * factor for q, v in last.items() if isinstance(v, (int, float)) and math.isfinite(v) and v != 0}


def merged(db, chip: str) -> dict[str, dict[str, float]]:
    """Each qubit document's merged data (QDash keeps it equal to the latest result; a stored 0 is no value)."""
    return {d["qid"]: {k: p["value"] for k, p in d.get("data", {}).items() if p.get("value")}
            for d in db["qubit"].find({"chip_id": chip})}


def run_day(db, chip: str) -> datetime:
    """The newest run's day, read from its execution id rather than its timestamp."""
    newest_run = max(db["execution_history"].find({"chip_id": chip}), key=lambda e: e["start_at"])
    return datetime.strptime(newest_run["execution_id"][:8], "%Y%m%d")


def exec_day(row) -> datetime:
    return datetime.strptime(row["execution_id"][:8], "%Y%m%d")


def _names(pattern: str, qid: str) -> bool:
    return re.search(pattern, f"Q{int(qid):02d}") is not None


def _in(value: float, expect) -> bool:
    return any(math.isclose(value, v, rel_tol=1e-9, abs_tol=1e-9) for v in (expect.value, *expect.alternatives))


def test_the_compound_filters_recount(truths, sealed_db):
    rules = {
        "sealed7-compound-filter-1": (CHIP, lambda d: d.get("t2_star", 0) > 50
                                      and 0 < d.get("average_readout_fidelity", 1) < 0.92),
        "sealed7-compound-filter-2": (OTHER, lambda d: d.get("x90_gate_fidelity", 0) >= 0.999 and d.get("t1", 0) >= 100),
        "sealed7-compound-filter-3": (CHIP, lambda d: 0 < d.get("qubit_frequency", 9) < 4.9 and d.get("t2_echo", 0) > 110),
        "sealed7-compound-filter-4": (OTHER, lambda d: d.get("readout_frequency", 0) > 7.1
                                      and d.get("average_readout_fidelity", 0) > 0.97),
    }
    for qid, (chip, keep) in rules.items():
        kept = [q for q, data in merged(sealed_db, chip).items() if keep(data)]
        truth = truths[qid]
        assert truth.expects[0].value == len(kept), qid
        assert all(any(_names(p, q) for p in truth.patterns) for q in kept), qid


def test_the_correlations_recount(truths, sealed_db):
    a, b = newest(sealed_db, CHIP, "t2_star"), newest(sealed_db, CHIP, "t2_echo")
    both = sorted(a.keys() & b.keys())
    xs, ys = [a[q] for q in both], [b[q] for q in both]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    r = (sum((x - mx) * (y - my) for x, y in zip(xs, ys))
         / math.sqrt(sum((x - mx) ** 2 for x in xs) * sum((y - my) ** 2 for y in ys)))
    assert math.isclose(truths["sealed7-correlation-1"].expects[0].value, r)
    assert truths["sealed7-correlation-3"].expects[0].value < -0.5 < 0.5 < r


def test_the_chip_comparisons_recount(truths, sealed_db):
    medians = [statistics.median(newest(sealed_db, chip, "t2_echo").values()) for chip in (CHIP, OTHER)]
    truth = truths["sealed7-cross-chip-1"]
    assert [e.value for e in truth.expects] == pytest.approx(medians)
    short = {chip: sum(1 for d in merged(sealed_db, chip).values() if 0 < d.get("t2_star", 99) < 20)
             for chip in (CHIP, OTHER)}
    truth = truths["sealed7-cross-chip-3"]
    assert [e.value for e in truth.expects] == [short[CHIP], short[OTHER]]
    assert re.search(truth.winner, max(short, key=short.__getitem__))


def test_the_fail_leaders_recount(truths, sealed_db):
    dead = {d["qid"] for d in sealed_db["qubit"].find({"chip_id": CHIP}) if d["status"] == "inactive"}
    failed = [r for r in sealed_db["task_result_history"].find({"chip_id": CHIP}) if r["status"] == "failed"]
    per_qubit = Counter(r["qid"] for r in failed if r["task_type"] == "qubit" and r["qid"] not in dead)
    (qubit, n), (_, second) = per_qubit.most_common(2)
    truth = truths["sealed7-fails-most-1"]
    assert n > second and truth.expects[0].value == n and _names(truth.patterns[0], qubit)
    (run, n), (_, second) = Counter(r["execution_id"] for r in failed).most_common(2)
    truth = truths["sealed7-fails-most-2"]
    assert n > second and truth.expects[0].value == n and re.search(truth.patterns[0], run)


def test_the_missing_things_are_missing(truths, sealed_db):
    assert sealed_db["qubit"].count_documents({"chip_id": CHIP}) == 64  # Q70 is not on it
    assert not [d for d in sealed_db["coupling"].find({"chip_id": CHIP}) if set(d["qid"].split("-")) == {"0", "9"}]
    assert all(truths[f"sealed7-missing-thing-{i}"].no_values for i in range(1, 5))


def test_the_shares_recount(truths, sealed_db):
    t2 = newest(sealed_db, CHIP, "t2_echo")
    expect = truths["sealed7-percentage-1"].expects[0]
    assert math.isclose(expect.value, 100 * len([v for v in t2.values() if v >= 80]) / len(t2))
    last = run_day(sealed_db, CHIP)
    rows = [r for r in sealed_db["task_result_history"].find({"chip_id": CHIP}) if r["name"] == "CheckRamsey"
            and exec_day(r) >= last - timedelta(days=4)]
    assert _in(100 * sum(r["status"] == "failed" for r in rows) / len(rows), truths["sealed7-percentage-3"].expects[0])


def test_the_pairs_recount(truths, sealed_db):
    """Pair values read from the coupling documents (the merged latest value), not from task results."""
    def data(chip: str, a: int, b: int, name: str) -> float:
        docs = [d for d in sealed_db["coupling"].find({"chip_id": chip}) if d["qid"] in (f"{a}-{b}", f"{b}-{a}")
                and name in d.get("data", {})]
        assert len(docs) == 1
        return docs[0]["data"][name]["value"]

    assert math.isclose(truths["sealed7-qubit-pair-1"].expects[0].value, 100 * data(CHIP, 8, 9, "bell_state_fidelity"))
    assert math.isclose(truths["sealed7-qubit-pair-3"].expects[0].value, data(CHIP, 4, 6, "zx90_gate_time"))
    truth = truths["sealed7-qubit-pair-4"]
    first, second = data(OTHER, 20, 21, "zx90_gate_fidelity"), data(OTHER, 20, 22, "zx90_gate_fidelity")
    assert re.search(truth.winner, "20-21" if first > second else "20-22")


def test_the_spreads_recount(truths, sealed_db):
    ro = [d["average_readout_fidelity"] * 100 for d in merged(sealed_db, OTHER).values() if "average_readout_fidelity" in d]
    mean = sum(ro) / len(ro)
    assert math.isclose(truths["sealed7-spread-1"].expects[0].value,
                        math.sqrt(sum((v - mean) ** 2 for v in ro) / (len(ro) - 1)))
    freq = [d["qubit_frequency"] for d in merged(sealed_db, CHIP).values() if "qubit_frequency" in d]
    assert math.isclose(truths["sealed7-spread-3"].expects[0].value, 1000 * (max(freq) - min(freq)))


def test_the_rankings_recount(truths, sealed_db):
    t2s = newest(sealed_db, CHIP, "t2_star")
    top = sorted(t2s.items(), key=lambda kv: -kv[1])[:3]
    expects = truths["sealed7-top-N-1"].expects
    assert [e.value for e in expects] == [v for _, v in top]
    assert all(_names(e.near[0], q) for e, (q, _) in zip(expects, top))
    bell = newest(sealed_db, CHIP, "bell_state_fidelity", "coupling")
    best = sorted(bell.items(), key=lambda kv: -kv[1])[:4]
    expects = truths["sealed7-top-N-3"].expects
    assert [e.value for e in expects] == [v for _, v in best]
    assert all(re.search(e.near[0], cid) for e, (cid, _) in zip(expects, best))


def test_the_windows_recount(truths, sealed_db):
    """Counted from the day written in each execution id, where the set's own truth counts by timestamp: the two
    readings agree or the execution-id one is the accepted alternative."""
    last = run_day(sealed_db, CHIP)
    excluded = [r for r in sealed_db["task_result_history"].find({"chip_id": CHIP}) if r.get("excluded")
                and last - timedelta(days=12) <= exec_day(r) <= last - timedelta(days=6)]
    assert len(excluded) >= 1 and _in(len(excluded), truths["sealed7-window-count-1"].expects[0])
    failed = [r for r in sealed_db["task_result_history"].find({"chip_id": CHIP}) if r["status"] == "failed"
              and exec_day(r) == last - timedelta(days=5)]
    assert len(failed) >= 1 and _in(len(failed), truths["sealed7-window-count-3"].expects[0])
    other = run_day(sealed_db, OTHER)
    runs = [e for e in sealed_db["execution_history"].find({}) if e["chip_id"] == OTHER
            and exec_day(e) >= other - timedelta(days=9)]
    assert truths["sealed7-window-count-2"].expects[0].value == len(runs)
    empty = [r for r in sealed_db["task_result_history"].find({"chip_id": OTHER}) if r["name"] == "CheckT2Echo"
             and r["status"] == "completed" and r["output_parameters"]["t2_echo"]["value"] == 0
             and exec_day(r) >= other - timedelta(days=13)]
    assert len(empty) >= 1 and _in(len(empty), truths["sealed7-window-count-4"].expects[0])
