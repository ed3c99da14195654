"""The sixteenth sealed set's truths recounted another way: the state documents' merged data (QDash keeps it equal to
the latest result) for values, whole-chip ``find()`` rows filtered by the Python date of ``start_at`` (or a ``$group``
pipeline) for windows, numpy for the statistics, instead of the set's helpers (latest rows sorted by time, ranged
queries, ``statistics``).  Windows are written out by hand from the newest day ("the last N days" is the newest day and
the N - 1 before it, "today" the newest day).  ``>=``/``<=`` limits are applied as written.  Only question ids appear
in failure messages."""

from __future__ import annotations

import math
from datetime import date, timedelta

import numpy as np
import pytest

from tests.agent.recount import column, is_value, last_day, midnight_of, named, rows, state, within
from tests.public_eval import CHIP, OTHER
from tests.sealed.heldout16 import build_heldout16
from tests.sealed.calendar import sealed_fixtures


sealed_day, sealed_db, sealed_now = sealed_fixtures(build_heldout16)


@pytest.fixture(scope="module")
def truths(sealed_day):
    return {q.id: q.truth for q in sealed_day.questions}


def _label(key: str) -> str:
    return "-".join(f"Q{int(p):02d}" for p in key.split("-"))


def _last(db, chip: str, n: int) -> tuple[date, date]:
    last = last_day(db, chip)
    return last - timedelta(days=n - 1), last


def _failed(db, chip: str, window: tuple[date, date], keep=lambda r: True) -> list[dict]:  # noqa: ANN001
    return [r for r in rows(db, chip) if r["status"] == "failed" and within(r, *window) and keep(r)]


def test_the_rankings_recount(truths, sealed_db):
    cases = {"sealed16-top-N-1": (CHIP, "t1", 3, True),
             "sealed16-top-N-2": (OTHER, "readout_fidelity_1", 4, False),
             "sealed16-top-N-3": (CHIP, "t2_echo", 3, True),
             "sealed16-top-N-4": (OTHER, "t2_star", 3, False)}
    for qid, (chip, name, n, high) in cases.items():
        ranked = sorted(column(sealed_db, chip, name).items(), key=lambda kv: -kv[1] if high else kv[1])[:n]
        expects = truths[qid].expects
        assert len(expects) == n, qid
        assert [e.value for e in expects] == pytest.approx([v for _, v in ranked]), qid
        assert all(named(e.near[0], _label(k)) for e, (k, _) in zip(expects, ranked)), qid


def test_the_compound_filters_recount(truths, sealed_db):
    rules = {
        "sealed16-compound-filter-1": (CHIP, lambda d: d.get("t1", 0) >= 110 and d.get("x90_gate_fidelity", 0) >= 99.6),
        "sealed16-compound-filter-2": (OTHER, lambda d: d.get("t2_echo", 0) > 130
                                       and 0 < d.get("readout_frequency", 0) < 7.0),
        "sealed16-compound-filter-3": (CHIP, lambda d: 0 < d.get("t2_star", 0) < 20
                                       and 0 < d.get("readout_fidelity_1", 0) < 90),
        "sealed16-compound-filter-4": (OTHER, lambda d: 0 < d.get("t1", 0) <= 30
                                       and 0 < d.get("average_readout_fidelity", 0) <= 91),
    }
    for qid, (chip, keep) in rules.items():
        kept = sorted(q for q, data in state(sealed_db, chip).items() if keep(data))
        truth = truths[qid]
        assert kept and truth.expects[0].value == len(kept) and len(truth.patterns) == len(kept), qid
        assert all(any(named(p, f"Q{int(q):02d}") for p in truth.patterns) for q in kept), qid


def test_the_correlations_recount(truths, sealed_db):
    cases = {"sealed16-correlation-1": (CHIP, "t2_echo", "t2_star", "qubit"),
             "sealed16-correlation-2": (OTHER, "readout_fidelity_0", "readout_fidelity_1", "qubit"),
             "sealed16-correlation-3": (CHIP, "zx90_gate_fidelity", "bell_state_fidelity", "coupling"),
             "sealed16-correlation-4": (OTHER, "t1", "t2_star", "qubit")}
    for qid, (chip, a, b, kind) in cases.items():
        both = [d for d in state(sealed_db, chip, kind).values() if a in d and b in d]
        r = float(np.corrcoef([d[a] for d in both], [d[b] for d in both])[0, 1])
        expect = truths[qid].expects[0]
        assert math.isclose(expect.value, r, abs_tol=1e-9) and expect.signed and abs(r) >= 0.3, qid


def test_the_chip_comparisons_recount(truths, sealed_db):
    sides = (CHIP, OTHER)
    t1 = {c: float(np.mean(list(column(sealed_db, c, "t1").values()))) for c in sides}
    fails = {c: float(len(_failed(sealed_db, c, _last(sealed_db, c, 7)))) for c in sides}
    readout = {c: float(np.mean(list(column(sealed_db, c, "average_readout_fidelity").values()))) for c in sides}
    zx = {c: float(np.mean(list(column(sealed_db, c, "zx90_gate_fidelity", "coupling").values()))) for c in sides}
    for number, figures in ((1, t1), (2, fails), (3, readout), (4, zx)):
        truth = truths[f"sealed16-cross-chip-{number}"]
        assert all(math.isclose(figures[c], e.value, abs_tol=1e-6) for c, e in zip(sides, truth.expects)), number
        assert named(truth.winner, max(figures, key=figures.__getitem__)), number
        assert named(truth.loser, min(figures, key=figures.__getitem__)), number


def test_the_value_shares_recount(truths, sealed_db):
    echo = np.array(list(column(sealed_db, CHIP, "t2_echo").values()))
    assert is_value(100 * float(np.mean(echo >= 90)), truths["sealed16-percentage-1"].expects[0])
    assert is_value(100 * float(np.sum(echo >= 90)) / 64, truths["sealed16-percentage-1"].expects[0])
    bell = np.array(list(column(sealed_db, CHIP, "bell_state_fidelity", "coupling").values()))
    assert is_value(100 * float(np.mean(bell >= 95)), truths["sealed16-percentage-3"].expects[0])
    freq = np.array(list(column(sealed_db, OTHER, "qubit_frequency").values())) * 1e9
    assert is_value(100 * float(np.mean(freq < 4.9e9)), truths["sealed16-percentage-4"].expects[0])


def test_the_task_share_recounts(truths, sealed_db):
    echo = [r for r in rows(sealed_db, OTHER) if r["name"] == "CheckT2Echo" and within(r, *_last(sealed_db, OTHER, 7))]
    share = 100 * sum(r["status"] == "failed" for r in echo) / len(echo)
    assert is_value(share, truths["sealed16-percentage-2"].expects[0])


def test_the_windows_recount(truths, sealed_db):
    week = _failed(sealed_db, CHIP, _last(sealed_db, CHIP, 7))
    assert week and is_value(len(week), truths["sealed16-window-count-1"].expects[0])
    runs = [e for e in sealed_db["execution_history"].find({}) if e["chip_id"] == OTHER
            and within(e, *_last(sealed_db, OTHER, 3))]
    assert runs and is_value(len(runs), truths["sealed16-window-count-2"].expects[0])
    ramsey = _failed(sealed_db, CHIP, _last(sealed_db, CHIP, 4), lambda r: r["name"] == "CheckRamsey")
    assert ramsey and is_value(len(ramsey), truths["sealed16-window-count-3"].expects[0])
    today = _failed(sealed_db, OTHER, _last(sealed_db, OTHER, 1), lambda r: r["name"].startswith("ZX90Interleaved"))
    assert today and is_value(len(today), truths["sealed16-window-count-4"].expects[0])


def test_the_fail_leaders_recount(truths, sealed_db):
    """A ``$group`` pipeline counts the failures (the set's helpers count ``find()`` rows)."""
    def leader(chip: str, window: tuple[date, date], match: dict) -> tuple[str, int]:
        first, last = window
        pipeline = [{"$match": {"chip_id": chip, "status": "failed", **match,
                                "start_at": {"$gte": midnight_of(first), "$lt": midnight_of(last + timedelta(days=1))}}},
                    {"$group": {"_id": "$name", "n": {"$sum": 1}}}]
        counts = sorted(((d["n"], d["_id"]) for d in sealed_db["task_result_history"].aggregate(pipeline)), reverse=True)
        assert counts[0][0] > counts[1][0]
        return counts[0][1], counts[0][0]

    cases = {"sealed16-fails-most-1": (OTHER, _last(sealed_db, OTHER, 7), {}),
             "sealed16-fails-most-2": (CHIP, _last(sealed_db, CHIP, 14), {"task_type": "qubit"}),
             "sealed16-fails-most-4": (OTHER, _last(sealed_db, OTHER, 10), {"task_type": "coupling"})}
    for qid, (chip, window, match) in cases.items():
        name, n = leader(chip, window, match)
        truth = truths[qid]
        assert truth.expects[0].value == n and named(truth.patterns[0], name), qid
    per_run: dict[str, int] = {}
    for r in _failed(sealed_db, CHIP, _last(sealed_db, CHIP, 3)):
        per_run[r["execution_id"]] = per_run.get(r["execution_id"], 0) + 1
    (run, n), (_, second) = sorted(per_run.items(), key=lambda kv: -kv[1])[:2]
    truth = truths["sealed16-fails-most-3"]
    assert n > second and truth.expects[0].value == n and named(truth.patterns[0], run)


def test_the_pairs_recount(truths, sealed_db):
    def value(chip: str, pair: str, name: str) -> float:
        return state(sealed_db, chip, "coupling")[pair][name]

    truth = truths["sealed16-qubit-pair-1"]
    assert is_value(value(CHIP, "20-21", "zx90_gate_fidelity"), truth.expects[0])
    assert named(truth.expects[0].near[0], "Q20 with Q21") and not named(truth.expects[0].near[0], "Q20-Q22")
    assert is_value(value(OTHER, "104-105", "bell_state_fidelity"), truths["sealed16-qubit-pair-2"].expects[0])
    gate = value(CHIP, "21-23", "zx90_gate_time")
    truth = truths["sealed16-qubit-pair-3"]
    assert is_value(gate, truth.expects[0]) and named(truth.patterns[0], "yes" if gate >= 250 else "no")
    sides = {p: value(OTHER, p, "zx90_gate_fidelity") for p in ("100-101", "100-102")}
    better, worse = sorted(sides, key=sides.__getitem__, reverse=True)
    truth = truths["sealed16-qubit-pair-4"]
    assert named(truth.winner, _label(better)) and named(truth.loser, _label(worse))
    assert is_value(sides[better], truth.expects[0])


def test_the_spreads_recount(truths, sealed_db):
    t1 = np.array(list(column(sealed_db, CHIP, "t1").values()))
    assert is_value(float(np.std(t1, ddof=1)), truths["sealed16-spread-1"].expects[0])
    x90 = np.array(list(column(sealed_db, OTHER, "x90_gate_fidelity").values()))
    assert math.isclose(float(np.ptp(x90)), truths["sealed16-spread-2"].expects[0].value, abs_tol=1e-9)
    readout = 1000 * np.array(list(column(sealed_db, CHIP, "readout_frequency").values()))
    assert is_value(float(np.std(readout)), truths["sealed16-spread-3"].expects[0])
    echo = np.array(list(column(sealed_db, OTHER, "t2_echo").values()))
    assert is_value(float(np.std(echo, ddof=1)), truths["sealed16-spread-4"].expects[0])


def test_the_missing_things_are_missing(truths, sealed_db):
    assert sealed_db["qubit"].count_documents({"chip_id": CHIP}) == 64  # Q00-Q63: no Q80
    assert "36Qv1" not in sealed_db["chip"].distinct("chip_id")
    assert not [r for r in rows(sealed_db, OTHER) if any("thermal" in k.lower() or "population" in k.lower()
                                                       for k in r["output_parameters"])]
    assert not [d for d in sealed_db["coupling"].find({"chip_id": OTHER}) if set(d["qid"].split("-")) == {"5", "40"}]
    assert all(truths[f"sealed16-missing-thing-{i}"].no_values for i in range(1, 5))
