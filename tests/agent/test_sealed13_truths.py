"""The thirteenth sealed set's truths recounted another way: the state documents' merged data (QDash keeps it equal to
the latest result) for values, whole-chip ``find()`` rows filtered by the Python date of ``start_at`` (or a ``$group``
pipeline) for windows, numpy for the statistics, instead of the set's helpers (latest rows sorted by time, ranged
queries, ``statistics``).  Windows are written out by hand from the newest day: a fortnight is the newest day and the
13 before it, "since <weekday>" starts three days back, the ranges are the set's fixed offsets.  Only question ids
appear in failure messages."""

from __future__ import annotations

import math
from collections import Counter
from datetime import date, timedelta

import numpy as np
import pytest

from tests.agent.recount import column, is_value, last_day, midnight_of, named, rows, state, within
from tests.public_eval import CHIP, OTHER
from tests.sealed.heldout13 import build_heldout13
from tests.sealed.calendar import sealed_fixtures


sealed_day, sealed_db, sealed_now = sealed_fixtures(build_heldout13)


@pytest.fixture(scope="module")
def truths(sealed_day):
    return {q.id: q.truth for q in sealed_day.questions}


def _label(key: str) -> str:
    return "-".join(f"Q{int(p):02d}" for p in key.split("-"))


def _days(db, chip: str, back_first: int, back_last: int = 0) -> tuple[date, date]:
    last = last_day(db, chip)
    return last - timedelta(days=back_first), last - timedelta(days=back_last)


def _failed(db, chip: str, window: tuple[date, date], keep=lambda r: True) -> list[dict]:  # noqa: ANN001
    return [r for r in rows(db, chip) if r["status"] == "failed" and within(r, *window) and keep(r)]


def test_the_rankings_recount(truths, sealed_db):
    cases = {"sealed13-top-N-1": (CHIP, "t2_echo", "qubit", 3, True),
             "sealed13-top-N-2": (OTHER, "bell_state_fidelity", "coupling", 4, True),
             "sealed13-top-N-3": (CHIP, "qubit_frequency", "qubit", 2, False),
             "sealed13-top-N-4": (OTHER, "readout_fidelity_1", "qubit", 5, False)}
    for qid, (chip, name, kind, n, high) in cases.items():
        ranked = sorted(column(sealed_db, chip, name, kind).items(), key=lambda kv: -kv[1] if high else kv[1])[:n]
        expects = truths[qid].expects
        assert len(expects) == n, qid
        assert [e.value for e in expects] == pytest.approx([v for _, v in ranked]), qid
        assert all(named(e.near[0], _label(k)) for e, (k, _) in zip(expects, ranked)), qid


def test_the_compound_filters_recount(truths, sealed_db):
    rules = {
        "sealed13-compound-filter-1": (CHIP, lambda d: 0 < d.get("readout_fidelity_1", 100) < 92
                                       and d.get("t1", 0) > 80),
        "sealed13-compound-filter-2": (OTHER, lambda d: d.get("average_readout_fidelity", 0) > 97
                                       and d.get("t2_echo", 0) > 150),
        "sealed13-compound-filter-3": (CHIP, lambda d: -260 < d.get("anharmonicity", -999) < 0
                                       and d.get("t2_star", 0) > 40),
        "sealed13-compound-filter-4": (OTHER, lambda d: d.get("qubit_frequency", 0) > 5.25
                                       and 0 < d.get("t1", 99) < 60),
    }
    for qid, (chip, keep) in rules.items():
        kept = sorted(q for q, data in state(sealed_db, chip).items() if keep(data))
        truth = truths[qid]
        assert kept and truth.expects[0].value == len(kept) and len(truth.patterns) == len(kept), qid
        assert all(any(named(p, f"Q{int(q):02d}") for p in truth.patterns) for q in kept), qid


def test_the_correlations_recount(truths, sealed_db):
    cases = {"sealed13-correlation-1": (CHIP, "t1", "t2_echo", "qubit"),
             "sealed13-correlation-2": (OTHER, "readout_fidelity_1", "average_readout_fidelity", "qubit"),
             "sealed13-correlation-3": (OTHER, "bell_state_fidelity", "zx90_gate_fidelity", "coupling"),
             "sealed13-correlation-4": (CHIP, "readout_fidelity_0", "average_readout_fidelity", "qubit")}
    for qid, (chip, a, b, kind) in cases.items():
        both = [d for d in state(sealed_db, chip, kind).values() if a in d and b in d]
        r = float(np.corrcoef([d[a] for d in both], [d[b] for d in both])[0, 1])
        expect = truths[qid].expects[0]
        assert math.isclose(expect.value, r, abs_tol=1e-9) and expect.signed and abs(r) >= 0.15, qid


def test_the_chip_comparisons_recount(truths, sealed_db):
    means = {c: float(np.mean(list(column(sealed_db, c, "t2_echo").values()))) for c in (CHIP, OTHER)}
    medians = {c: float(np.median(list(column(sealed_db, c, "bell_state_fidelity", "coupling").values())))
               for c in (CHIP, OTHER)}
    fails = {c: float(len(_failed(sealed_db, c, _days(sealed_db, c, 13)))) for c in (CHIP, OTHER)}
    worst = {c: min(column(sealed_db, c, "t2_star").values()) for c in (CHIP, OTHER)}
    for number, figures in ((1, means), (2, medians), (3, fails), (4, worst)):
        truth = truths[f"sealed13-cross-chip-{number}"]
        assert all(is_value(figures[c], e) for c, e in zip((CHIP, OTHER), truth.expects)), number
        assert named(truth.winner, max(figures, key=figures.__getitem__)), number
        assert named(truth.loser, min(figures, key=figures.__getitem__)), number


def test_the_value_shares_recount(truths, sealed_db):
    t1 = np.array(list(column(sealed_db, CHIP, "t1").values()))
    assert is_value(100 * float(np.mean(t1 > 50)), truths["sealed13-percentage-1"].expects[0])
    assert is_value(100 * float(np.sum(t1 > 50)) / 64, truths["sealed13-percentage-1"].expects[0])
    zx = np.array(list(column(sealed_db, OTHER, "zx90_gate_fidelity", "coupling").values()))
    assert is_value(100 * float(np.mean(zx > 99)), truths["sealed13-percentage-2"].expects[0])


def test_the_task_shares_recount(truths, sealed_db):
    ramsey = [r for r in rows(sealed_db, OTHER) if r["name"] == "CheckRamsey" and within(r, *_days(sealed_db, OTHER, 13))]
    share = 100 * sum(r["status"] == "failed" for r in ramsey) / len(ramsey)
    assert is_value(share, truths["sealed13-percentage-3"].expects[0])
    recent = [r for r in rows(sealed_db, CHIP) if within(r, *_days(sealed_db, CHIP, 3))]
    share = 100 * sum(r["status"] == "failed" for r in recent) / len(recent)
    assert is_value(share, truths["sealed13-percentage-4"].expects[0])


def test_the_windows_recount(truths, sealed_db):
    t1 = _failed(sealed_db, CHIP, _days(sealed_db, CHIP, 13), lambda r: r["name"] == "CheckT1")
    assert t1 and is_value(len(t1), truths["sealed13-window-count-1"].expects[0])
    runs = [e for e in sealed_db["execution_history"].find({}) if e["chip_id"] == OTHER
            and within(e, *_days(sealed_db, OTHER, 27, 21))]
    assert runs and is_value(len(runs), truths["sealed13-window-count-2"].expects[0])
    recent = _failed(sealed_db, CHIP, _days(sealed_db, CHIP, 3))
    assert recent and is_value(len(recent), truths["sealed13-window-count-3"].expects[0])
    runs = [e for e in sealed_db["execution_history"].find({}) if e["chip_id"] == OTHER
            and within(e, *_days(sealed_db, OTHER, 3))]
    assert runs and is_value(len(runs), truths["sealed13-window-count-4"].expects[0])


def test_the_fail_leaders_recount(truths, sealed_db):
    """A ``$group`` pipeline counts the failures (the set's helpers count ``find()`` rows)."""
    def leader(chip: str, key: str, window: tuple[date, date], match: dict) -> tuple[str, int]:
        first, last = window
        pipeline = [{"$match": {"chip_id": chip, "status": "failed", **match,
                                "start_at": {"$gte": midnight_of(first), "$lt": midnight_of(last + timedelta(days=1))}}},
                    {"$group": {"_id": f"${key}", "n": {"$sum": 1}}}]
        counts = sorted(((d["n"], d["_id"]) for d in sealed_db["task_result_history"].aggregate(pipeline)), reverse=True)
        assert counts[0][0] > counts[1][0]
        return counts[0][1], counts[0][0]

    task, n = leader(CHIP, "name", _days(sealed_db, CHIP, 13), {})
    truth = truths["sealed13-fails-most-1"]
    assert truth.expects[0].value == n and named(truth.patterns[0], task)
    qubit, n = leader(OTHER, "qid", _days(sealed_db, OTHER, 20, 6), {"task_type": "qubit"})
    truth = truths["sealed13-fails-most-2"]
    assert truth.expects[0].value == n and named(truth.patterns[0], f"Q{int(qubit):02d}")
    run, n = leader(CHIP, "execution_id", _days(sealed_db, CHIP, 20, 14), {})
    truth = truths["sealed13-fails-most-3"]
    assert truth.expects[0].value == n and named(truth.patterns[0], run)
    window = _days(sealed_db, OTHER, 13)
    per_pair = Counter("-".join(sorted(r["qid"].split("-"), key=int))
                       for r in _failed(sealed_db, OTHER, window, lambda r: r["task_type"] == "coupling"))
    (pair, n), (_, second) = per_pair.most_common(2)
    truth = truths["sealed13-fails-most-4"]
    assert n > second and truth.expects[0].value == n and named(truth.patterns[0], _label(pair))


def test_the_pairs_recount(truths, sealed_db):
    def value(chip: str, pair: str, name: str) -> float:
        return state(sealed_db, chip, "coupling")[pair][name]

    assert is_value(value(CHIP, "12-13", "bell_state_fidelity"), truths["sealed13-qubit-pair-1"].expects[0])
    assert is_value(value(OTHER, "104-105", "zx90_gate_time"), truths["sealed13-qubit-pair-2"].expects[0])
    zx = {p: value(CHIP, p, "zx90_gate_fidelity") for p in ("19-22", "19-33")}
    truth = truths["sealed13-qubit-pair-3"]
    better, worse = sorted(zx, key=zx.__getitem__, reverse=True)
    assert named(truth.winner, _label(better)) and named(truth.loser, _label(worse))
    assert is_value(zx[better], truth.expects[0])
    bell = value(OTHER, "108-110", "bell_state_fidelity")
    truth = truths["sealed13-qubit-pair-4"]
    assert is_value(bell, truth.expects[0]) and named(truth.patterns[0], "yes" if bell > 95 else "no")


def test_the_spreads_recount(truths, sealed_db):
    t2 = np.array(list(column(sealed_db, CHIP, "t2_star").values()))
    assert is_value(float(np.std(t2, ddof=1)), truths["sealed13-spread-1"].expects[0])
    assert is_value(float(np.std(t2)), truths["sealed13-spread-1"].expects[0])
    freq = np.array(list(column(sealed_db, OTHER, "qubit_frequency").values()))
    assert math.isclose(1000 * float(np.ptp(freq)), truths["sealed13-spread-2"].expects[0].value, abs_tol=1e-6)
    gate = np.array(list(column(sealed_db, OTHER, "zx90_gate_time", "coupling").values()))
    assert is_value(float(np.std(gate, ddof=1)), truths["sealed13-spread-3"].expects[0])
    ro = np.array(list(column(sealed_db, CHIP, "readout_fidelity_0").values()))
    assert math.isclose(float(np.ptp(ro)), truths["sealed13-spread-4"].expects[0].value, abs_tol=1e-9)


def test_the_missing_things_are_missing(truths, sealed_db):
    assert sealed_db["qubit"].count_documents({"chip_id": CHIP}) == 64  # Q00-Q63: no Q70
    assert not [d for d in sealed_db["coupling"].find({"chip_id": OTHER}) if set(d["qid"].split("-")) == {"5", "77"}]
    assert not [c for c in sealed_db["chip"].distinct("chip_id") if c.lower().startswith("27q")]
    assert not [r for r in rows(sealed_db, CHIP) if any("temp" in k.lower() for k in r["output_parameters"])]
    assert all(truths[f"sealed13-missing-thing-{i}"].no_values for i in range(1, 5))
