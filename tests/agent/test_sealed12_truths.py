"""The twelfth sealed set's truths recounted another way: the state documents' merged data (QDash keeps it equal to
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
from tests.sealed.heldout12 import build_heldout12
from tests.sealed.calendar import sealed_fixtures


sealed_day, sealed_db, sealed_now = sealed_fixtures(build_heldout12)


@pytest.fixture(scope="module")
def truths(sealed_day):
    return {q.id: q.truth for q in sealed_day.questions}


def _label(key: str) -> str:
    return "-".join(f"Q{int(p):02d}" for p in key.split("-"))


def _failed(db, chip: str, first: date, last: date, keep=lambda r: True) -> list[dict]:  # noqa: ANN001
    return [r for r in rows(db, chip) if r["status"] == "failed" and within(r, first, last) and keep(r)]


def test_the_rankings_recount(truths, sealed_db):
    cases = {"sealed12-top-N-1": (CHIP, "t1", "qubit", 5, True),
             "sealed12-top-N-2": (OTHER, "zx90_gate_fidelity", "coupling", 3, False),
             "sealed12-top-N-3": (CHIP, "average_readout_fidelity", "qubit", 4, False),
             "sealed12-top-N-4": (OTHER, "t2_star", "qubit", 2, False)}
    for qid, (chip, name, kind, n, high) in cases.items():
        ranked = sorted(column(sealed_db, chip, name, kind).items(), key=lambda kv: -kv[1] if high else kv[1])[:n]
        expects = truths[qid].expects
        assert len(expects) == n, qid
        assert [e.value for e in expects] == pytest.approx([v for _, v in ranked]), qid
        assert all(named(e.near[0], _label(k)) for e, (k, _) in zip(expects, ranked)), qid


def test_the_compound_filters_recount(truths, sealed_db):
    rules = {
        "sealed12-compound-filter-1": (CHIP, lambda d: 0 < d.get("x90_gate_fidelity", 100) < 99.6
                                       and 0 < d.get("t2_star", 99) < 25),
        "sealed12-compound-filter-2": (OTHER, lambda d: d.get("readout_fidelity_0", 0) > 98
                                       and 0 < d.get("qubit_frequency", 9) < 4.8),
        "sealed12-compound-filter-3": (OTHER, lambda d: d.get("t1", 0) > 60 and d.get("anharmonicity", 0) < -320),
        "sealed12-compound-filter-4": (CHIP, lambda d: d.get("t1", 0) > 110 and d.get("t2_echo", 0) > 100),
    }
    for qid, (chip, keep) in rules.items():
        kept = sorted(q for q, data in state(sealed_db, chip).items() if keep(data))
        truth = truths[qid]
        assert kept and truth.expects[0].value == len(kept) and len(truth.patterns) == len(kept), qid
        assert all(any(named(p, f"Q{int(q):02d}") for p in truth.patterns) for q in kept), qid


def test_the_value_shares_recount(truths, sealed_db):
    readout = np.array(list(column(sealed_db, CHIP, "average_readout_fidelity").values()))
    assert is_value(100 * float(np.mean(readout > 95)), truths["sealed12-percentage-1"].expects[0])
    assert is_value(100 * float(np.sum(readout > 95)) / 64, truths["sealed12-percentage-1"].expects[0])
    bell = np.array(list(column(sealed_db, OTHER, "bell_state_fidelity", "coupling").values()))
    assert is_value(100 * float(np.mean(bell < 90)), truths["sealed12-percentage-2"].expects[0])


def test_the_task_shares_recount(truths, sealed_db):
    last = last_day(sealed_db, CHIP)
    t1 = [r for r in rows(sealed_db, CHIP) if r["name"] == "CheckT1" and within(r, last - timedelta(days=9), last)]
    share = 100 * sum(r["status"] == "failed" for r in t1) / len(t1)
    assert is_value(share, truths["sealed12-percentage-3"].expects[0])
    other = last_day(sealed_db, OTHER)
    two = [r for r in rows(sealed_db, OTHER) if within(r, other - timedelta(days=1), other)]
    share = 100 * sum(r["status"] == "failed" for r in two) / len(two)
    assert is_value(share, truths["sealed12-percentage-4"].expects[0])


def test_the_spreads_recount(truths, sealed_db):
    t1 = np.array(list(column(sealed_db, CHIP, "t1").values()))
    assert is_value(float(np.std(t1, ddof=1)), truths["sealed12-spread-1"].expects[0])
    assert is_value(float(np.std(t1)), truths["sealed12-spread-1"].expects[0])
    ro = np.array(list(column(sealed_db, OTHER, "readout_frequency").values()))
    assert is_value(1000 * float(np.ptp(ro)), truths["sealed12-spread-2"].expects[0])
    x90 = np.array(list(column(sealed_db, OTHER, "x90_gate_fidelity").values()))
    assert math.isclose(float(np.std(x90, ddof=1)), truths["sealed12-spread-3"].expects[0].value, abs_tol=1e-9)
    anh = np.array(list(column(sealed_db, CHIP, "anharmonicity").values()))
    assert is_value(float(np.ptp(anh)), truths["sealed12-spread-4"].expects[0])


def test_the_correlations_recount(truths, sealed_db):
    cases = {"sealed12-correlation-1": (CHIP, "t2_star", "t2_echo", "qubit"),
             "sealed12-correlation-2": (OTHER, "t1", "t2_star", "qubit"),
             "sealed12-correlation-3": (CHIP, "bell_state_fidelity", "zx90_gate_fidelity", "coupling"),
             "sealed12-correlation-4": (OTHER, "readout_fidelity_0", "readout_fidelity_1", "qubit")}
    for qid, (chip, a, b, kind) in cases.items():
        both = [d for d in state(sealed_db, chip, kind).values() if a in d and b in d]
        r = float(np.corrcoef([d[a] for d in both], [d[b] for d in both])[0, 1])
        expect = truths[qid].expects[0]
        assert math.isclose(expect.value, r, abs_tol=1e-9) and expect.signed and abs(r) >= 0.15, qid


def test_the_chip_comparisons_recount(truths, sealed_db):
    means = {c: float(np.mean(list(column(sealed_db, c, "t1").values()))) for c in (CHIP, OTHER)}
    medians = {c: float(np.median(list(column(sealed_db, c, "zx90_gate_fidelity", "coupling").values())))
               for c in (CHIP, OTHER)}
    fails = {}
    for c in (CHIP, OTHER):
        last = last_day(sealed_db, c)
        fails[c] = float(len(_failed(sealed_db, c, last - timedelta(days=9), last)))
    worst = {c: min(column(sealed_db, c, "average_readout_fidelity").values()) for c in (CHIP, OTHER)}
    for number, figures in ((1, means), (2, medians), (3, fails), (4, worst)):
        truth = truths[f"sealed12-cross-chip-{number}"]
        assert all(is_value(figures[c], e) for c, e in zip((CHIP, OTHER), truth.expects)), number
        assert named(truth.winner, max(figures, key=figures.__getitem__)), number
        assert named(truth.loser, min(figures, key=figures.__getitem__)), number


def test_the_pairs_recount(truths, sealed_db):
    def value(chip: str, pair: str, name: str) -> float:
        return state(sealed_db, chip, "coupling")[pair][name]

    assert is_value(value(CHIP, "15-29", "zx90_gate_time"), truths["sealed12-qubit-pair-1"].expects[0])
    assert is_value(value(OTHER, "103-106", "bell_state_fidelity"), truths["sealed12-qubit-pair-2"].expects[0])
    bell = {p: value(CHIP, p, "bell_state_fidelity") for p in ("0-1", "0-2")}
    truth = truths["sealed12-qubit-pair-3"]
    better, worse = sorted(bell, key=bell.__getitem__, reverse=True)
    assert named(truth.winner, _label(better)) and named(truth.loser, _label(worse))
    assert is_value(bell[better], truth.expects[0])
    zx = value(OTHER, "111-133", "zx90_gate_fidelity")
    truth = truths["sealed12-qubit-pair-4"]
    assert is_value(zx, truth.expects[0]) and named(truth.patterns[0], "yes" if zx > 99 else "no")


def test_the_fail_leaders_recount(truths, sealed_db):
    """A ``$group`` pipeline counts the failures (the set's helpers count ``find()`` rows)."""
    def leader(chip: str, key: str, first: date, last: date, match: dict) -> tuple[str, int]:
        pipeline = [{"$match": {"chip_id": chip, "status": "failed", **match,
                                "start_at": {"$gte": midnight_of(first), "$lt": midnight_of(last + timedelta(days=1))}}},
                    {"$group": {"_id": f"${key}", "n": {"$sum": 1}}}]
        counts = sorted(((d["n"], d["_id"]) for d in sealed_db["task_result_history"].aggregate(pipeline)), reverse=True)
        assert counts[0][0] > counts[1][0]
        return counts[0][1], counts[0][0]

    last = last_day(sealed_db, CHIP)
    task, n = leader(CHIP, "name", last - timedelta(days=9), last, {})
    truth = truths["sealed12-fails-most-1"]
    assert truth.expects[0].value == n and named(truth.patterns[0], task)
    other = last_day(sealed_db, OTHER)
    qubit, n = leader(OTHER, "qid", other - timedelta(days=20), other - timedelta(days=6), {"task_type": "qubit"})
    truth = truths["sealed12-fails-most-2"]
    assert truth.expects[0].value == n and named(truth.patterns[0], f"Q{int(qubit):02d}")
    run, n = leader(CHIP, "execution_id", last - timedelta(days=9), last, {})
    truth = truths["sealed12-fails-most-3"]
    assert truth.expects[0].value == n and named(truth.patterns[0], run)
    per_pair = Counter("-".join(sorted(r["qid"].split("-"), key=int))
                       for r in rows(sealed_db, OTHER) if r["status"] == "failed" and r["task_type"] == "coupling")
    (pair, n), (_, second) = per_pair.most_common(2)
    truth = truths["sealed12-fails-most-4"]
    assert n > second and truth.expects[0].value == n and named(truth.patterns[0], _label(pair))


def test_the_windows_recount(truths, sealed_db, sealed_now):
    last = last_day(sealed_db, CHIP)
    echo = _failed(sealed_db, CHIP, last - timedelta(days=18), last - timedelta(days=11),
                   lambda r: r["name"] == "CheckT2Echo")
    assert len(echo) >= 1 and is_value(len(echo), truths["sealed12-window-count-1"].expects[0])
    other = last_day(sealed_db, OTHER)
    runs = [e for e in sealed_db["execution_history"].find({}) if e["chip_id"] == OTHER
            and within(e, other - timedelta(days=9), other)]
    assert len(runs) >= 1 and is_value(len(runs), truths["sealed12-window-count-2"].expects[0])
    two = _failed(sealed_db, CHIP, last - timedelta(days=1), last)
    assert len(two) >= 1 and is_value(len(two), truths["sealed12-window-count-3"].expects[0])
    hours = [r for r in rows(sealed_db, CHIP) if r["status"] == "failed"
             and sealed_now - timedelta(hours=48) <= r["start_at"] <= sealed_now]
    assert is_value(len(hours), truths["sealed12-window-count-3"].expects[0])
    today = _failed(sealed_db, OTHER, other, other)
    assert len(today) >= 1 and is_value(len(today), truths["sealed12-window-count-4"].expects[0])


def test_the_missing_things_are_missing(truths, sealed_db):
    assert sealed_db["qubit"].count_documents({"chip_id": CHIP}) == 64  # Q00-Q63: no Q70
    assert not [d for d in sealed_db["coupling"].find({"chip_id": OTHER}) if set(d["qid"].split("-")) == {"3", "90"}]
    assert not [c for c in sealed_db["chip"].distinct("chip_id") if c.lower() == "32qv1"]
    assert not [r for r in rows(sealed_db, CHIP) if any("leak" in k for k in r["output_parameters"])]
    assert all(truths[f"sealed12-missing-thing-{i}"].no_values for i in range(1, 5))
