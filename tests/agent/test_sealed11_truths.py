"""The eleventh sealed set's truths recounted another way: the state documents' merged data (QDash keeps it equal to
the latest result) for values, whole-chip ``find()`` rows filtered by the Python date of ``start_at`` (or a ``$group``
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
from tests.sealed.heldout11 import build_heldout11
from tests.sealed.calendar import sealed_fixtures


sealed_day, sealed_db, sealed_now = sealed_fixtures(build_heldout11)


@pytest.fixture(scope="module")
def truths(sealed_day):
    return {q.id: q.truth for q in sealed_day.questions}


def _label(key: str) -> str:
    return "-".join(f"Q{int(p):02d}" for p in key.split("-"))


def _failed(db, chip: str, first: date, last: date, keep=lambda r: True) -> list[dict]:  # noqa: ANN001
    return [r for r in rows(db, chip) if r["status"] == "failed" and within(r, first, last) and keep(r)]


def test_the_rankings_recount(truths, sealed_db):
    cases = {"sealed11-top-N-1": (OTHER, "t1", "qubit", 2, False),
             "sealed11-top-N-2": (CHIP, "zx90_gate_fidelity", "coupling", 3, True),
             "sealed11-top-N-3": (CHIP, "t2_echo", "qubit", 5, False),
             "sealed11-top-N-4": (OTHER, "average_readout_fidelity", "qubit", 3, True)}
    for qid, (chip, name, kind, n, high) in cases.items():
        ranked = sorted(column(sealed_db, chip, name, kind).items(), key=lambda kv: -kv[1] if high else kv[1])[:n]
        expects = truths[qid].expects
        assert len(expects) == n, qid
        assert [e.value for e in expects] == pytest.approx([v for _, v in ranked]), qid
        assert all(named(e.near[0], _label(k)) for e, (k, _) in zip(expects, ranked)), qid


def test_the_compound_filters_recount(truths, sealed_db):
    rules = {
        "sealed11-compound-filter-1": (CHIP, lambda d: 40 < d.get("t1", 0) < 60 and d.get("t2_star", 0) > 40),
        "sealed11-compound-filter-2": (OTHER, lambda d: d.get("qubit_frequency", 0) > 5.2
                                       and d.get("anharmonicity", 0) < -310),
        "sealed11-compound-filter-3": (CHIP, lambda d: d.get("average_readout_fidelity", 0) > 96
                                       and 0 < d.get("t2_echo", 99) < 60),
        "sealed11-compound-filter-4": (OTHER, lambda d: 0 < d.get("readout_fidelity_0", 100) < 90
                                       and d.get("t1", 0) > 50),
    }
    for qid, (chip, keep) in rules.items():
        kept = sorted(q for q, data in state(sealed_db, chip).items() if keep(data))
        truth = truths[qid]
        assert kept and truth.expects[0].value == len(kept) and len(truth.patterns) == len(kept), qid
        assert all(any(named(p, f"Q{int(q):02d}") for p in truth.patterns) for q in kept), qid


def test_the_value_shares_recount(truths, sealed_db):
    t1 = np.array(list(column(sealed_db, CHIP, "t1").values()))
    assert is_value(100 * float(np.mean(t1 > 45)), truths["sealed11-percentage-1"].expects[0])
    assert is_value(100 * float(np.sum(t1 > 45)) / 64, truths["sealed11-percentage-1"].expects[0])  # every qubit
    bell = np.array(list(column(sealed_db, OTHER, "bell_state_fidelity", "coupling").values()))
    assert is_value(100 * float(np.mean(bell > 95)), truths["sealed11-percentage-2"].expects[0])


def test_the_task_shares_recount(truths, sealed_db):
    last = last_day(sealed_db, CHIP)
    echo = [r for r in rows(sealed_db, CHIP) if r["name"] == "CheckT2Echo" and within(r, last.replace(day=1), last)]
    share = 100 * sum(r["status"] == "failed" for r in echo) / len(echo)
    assert is_value(share, truths["sealed11-percentage-3"].expects[0])
    other = last_day(sealed_db, OTHER) - timedelta(days=1)
    day = [r for r in rows(sealed_db, OTHER) if within(r, other, other)]
    share = 100 * sum(r["status"] == "failed" for r in day) / len(day)
    assert is_value(share, truths["sealed11-percentage-4"].expects[0])


def test_the_spreads_recount(truths, sealed_db):
    star = np.array(list(column(sealed_db, CHIP, "t2_star").values()))
    assert is_value(float(np.std(star, ddof=1)), truths["sealed11-spread-1"].expects[0])
    assert is_value(float(np.std(star)), truths["sealed11-spread-1"].expects[0])
    freq = np.array(list(column(sealed_db, OTHER, "qubit_frequency").values()))
    assert is_value(1000 * float(np.ptp(freq)), truths["sealed11-spread-2"].expects[0])
    zx = np.array(list(column(sealed_db, OTHER, "zx90_gate_fidelity", "coupling").values()))
    for method in ("weibull", "linear"):  # the exclusive and the inclusive rule
        q1, q3 = np.percentile(zx, [25, 75], method=method)
        assert is_value(float(q3 - q1), truths["sealed11-spread-3"].expects[0])
    anh = np.array(list(column(sealed_db, CHIP, "anharmonicity").values()))
    assert is_value(float(np.std(anh, ddof=1)), truths["sealed11-spread-4"].expects[0])


def test_the_correlations_recount(truths, sealed_db):
    cases = {"sealed11-correlation-1": (CHIP, "t1", "t2_echo", "qubit"),
             "sealed11-correlation-2": (OTHER, "t2_star", "t2_echo", "qubit"),
             "sealed11-correlation-3": (OTHER, "bell_state_fidelity", "zx90_gate_fidelity", "coupling"),
             "sealed11-correlation-4": (CHIP, "readout_frequency", "readout_fidelity_0", "qubit")}
    for qid, (chip, a, b, kind) in cases.items():
        both = [d for d in state(sealed_db, chip, kind).values() if a in d and b in d]
        r = float(np.corrcoef([d[a] for d in both], [d[b] for d in both])[0, 1])
        expect = truths[qid].expects[0]
        assert math.isclose(expect.value, r, abs_tol=1e-9) and expect.signed and abs(r) >= 0.15, qid


def test_the_chip_comparisons_recount(truths, sealed_db):
    medians = {c: float(np.median(list(column(sealed_db, c, "t2_echo").values()))) for c in (CHIP, OTHER)}
    means = {c: float(np.mean(list(column(sealed_db, c, "average_readout_fidelity").values()))) for c in (CHIP, OTHER)}
    fails = {}
    for c in (CHIP, OTHER):
        last = last_day(sealed_db, c)
        fails[c] = float(len(_failed(sealed_db, c, last - timedelta(days=13), last)))
    best = {c: max(column(sealed_db, c, "t1").values()) for c in (CHIP, OTHER)}
    for number, figures in ((1, medians), (2, means), (3, fails), (4, best)):
        truth = truths[f"sealed11-cross-chip-{number}"]
        assert all(is_value(figures[c], e) for c, e in zip((CHIP, OTHER), truth.expects)), number
        assert named(truth.winner, max(figures, key=figures.__getitem__)), number
        assert named(truth.loser, min(figures, key=figures.__getitem__)), number


def test_the_pairs_recount(truths, sealed_db):
    def value(chip: str, pair: str, name: str) -> float:
        return state(sealed_db, chip, "coupling")[pair][name]

    assert is_value(value(CHIP, "12-13", "zx90_gate_time"), truths["sealed11-qubit-pair-1"].expects[0])
    assert is_value(value(OTHER, "40-41", "bell_state_fidelity"), truths["sealed11-qubit-pair-2"].expects[0])
    zx = {p: value(CHIP, p, "zx90_gate_fidelity") for p in ("30-31", "31-45")}
    truth = truths["sealed11-qubit-pair-3"]
    better, worse = sorted(zx, key=zx.__getitem__, reverse=True)
    assert named(truth.winner, _label(better)) and named(truth.loser, _label(worse))
    assert is_value(zx[better], truth.expects[0])
    truth = truths["sealed11-qubit-pair-4"]
    echo = column(sealed_db, OTHER, "t2_echo")
    longer, shorter = sorted(("70", "71"), key=echo.__getitem__, reverse=True)
    assert [e.value for e in truth.expects] == pytest.approx(
        [value(OTHER, "70-71", "zx90_gate_fidelity"), echo[longer], echo[shorter]])
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
    task, n = leader(CHIP, "name", last - timedelta(days=13), {})
    truth = truths["sealed11-fails-most-1"]
    assert truth.expects[0].value == n and named(truth.patterns[0], task)
    other = last_day(sealed_db, OTHER)
    run, n = leader(OTHER, "execution_id", other - timedelta(days=9), {})
    truth = truths["sealed11-fails-most-2"]
    assert truth.expects[0].value == n and named(truth.patterns[0], run)
    per_pair = Counter("-".join(sorted(r["qid"].split("-"), key=int))
                       for r in _failed(sealed_db, OTHER, other.replace(day=1), other)
                       if r["task_type"] == "coupling")
    (pair, n), (_, second) = per_pair.most_common(2)
    truth = truths["sealed11-fails-most-3"]
    assert n > second and truth.expects[0].value == n and named(truth.patterns[0], _label(pair))
    inactive = [d["qid"] for d in sealed_db["qubit"].find({"chip_id": CHIP, "status": "inactive"})]
    qubit, n = leader(CHIP, "qid", last - timedelta(days=6), {"task_type": "qubit", "qid": {"$nin": inactive}})
    truth = truths["sealed11-fails-most-4"]
    assert truth.expects[0].value == n and named(truth.patterns[0], f"Q{int(qubit):02d}")


def test_the_windows_recount(truths, sealed_db, sealed_now):
    last = last_day(sealed_db, CHIP)
    t1 = _failed(sealed_db, CHIP, last - timedelta(days=19), last - timedelta(days=9), lambda r: r["name"] == "CheckT1")
    assert len(t1) >= 1 and is_value(len(t1), truths["sealed11-window-count-1"].expects[0])
    other = last_day(sealed_db, OTHER)
    runs = [e for e in sealed_db["execution_history"].find({}) if e["chip_id"] == OTHER
            and within(e, other - timedelta(days=2), other)]
    assert len(runs) >= 1 and is_value(len(runs), truths["sealed11-window-count-2"].expects[0])
    hours = [e for e in sealed_db["execution_history"].find({}) if e["chip_id"] == OTHER
             and sealed_now - timedelta(hours=72) <= e["start_at"] <= sealed_now]
    assert is_value(len(hours), truths["sealed11-window-count-2"].expects[0])
    yesterday = _failed(sealed_db, CHIP, last - timedelta(days=1), last - timedelta(days=1))
    assert len(yesterday) >= 1 and is_value(len(yesterday), truths["sealed11-window-count-3"].expects[0])
    zx = _failed(sealed_db, OTHER, other - timedelta(days=13), other,
                 lambda r: r["name"] == "ZX90InterleavedRandomizedBenchmarking")
    assert len(zx) >= 1 and is_value(len(zx), truths["sealed11-window-count-4"].expects[0])


def test_the_missing_things_are_missing(truths, sealed_db):
    assert sealed_db["qubit"].count_documents({"chip_id": OTHER}) == 144  # Q00-Q143: no Q151
    assert not [d for d in sealed_db["coupling"].find({"chip_id": CHIP}) if set(d["qid"].split("-")) == {"9", "44"}]
    assert "72Qv1" not in sealed_db["chip"].distinct("chip_id")
    assert not [r for r in rows(sealed_db, OTHER) if any("purity" in k or "qnd" in k for k in r["output_parameters"])]
    assert all(truths[f"sealed11-missing-thing-{i}"].no_values for i in range(1, 5))
