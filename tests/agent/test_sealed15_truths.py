"""The fifteenth sealed set's truths recounted another way: the state documents' merged data (QDash keeps it equal to
the latest result) for values, whole-chip ``find()`` rows filtered by the Python date of ``start_at`` (or a ``$group``
pipeline) for windows, numpy for the statistics, instead of the set's helpers (latest rows sorted by time, ranged
queries, ``statistics``).  Windows are written out by hand from the newest day ("since <date>" and "on <date>" count
back from it; "the past N days" is the newest day and the N - 1 before it).  Limits written in seconds or hertz are
converted here by hand.  Only question ids appear in failure messages."""

from __future__ import annotations

import math
from datetime import date, timedelta

import numpy as np
import pytest

from tests.agent.recount import column, is_value, last_day, midnight_of, named, rows, state, within
from tests.public_eval import CHIP, OTHER
from tests.sealed.heldout15 import build_heldout15
from tests.sealed.calendar import sealed_fixtures


sealed_day, sealed_db, sealed_now = sealed_fixtures(build_heldout15)


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
    cases = {"sealed15-top-N-1": (CHIP, "t2_echo", 3, True),
             "sealed15-top-N-2": (OTHER, "t2_echo", 4, False),
             "sealed15-top-N-3": (CHIP, "t2_star", 5, True),
             "sealed15-top-N-4": (OTHER, "readout_frequency", 3, True)}
    for qid, (chip, name, n, high) in cases.items():
        ranked = sorted(column(sealed_db, chip, name).items(), key=lambda kv: -kv[1] if high else kv[1])[:n]
        expects = truths[qid].expects
        assert len(expects) == n, qid
        assert [e.value for e in expects] == pytest.approx([v for _, v in ranked]), qid
        assert all(named(e.near[0], _label(k)) for e, (k, _) in zip(expects, ranked)), qid


def test_the_compound_filters_recount(truths, sealed_db):
    rules = {
        "sealed15-compound-filter-1": (CHIP, lambda q, d: d.get("t1", 0) * 1e-6 > 8.0e-5
                                       and d.get("t2_echo", 0) * 1e-6 > 1.1e-4),
        "sealed15-compound-filter-2": (OTHER, lambda q, d: d.get("t2_echo", 0) >= 120
                                       and d.get("readout_fidelity_0", 0) >= 98),
        "sealed15-compound-filter-3": (CHIP, lambda q, d: int(q) < 32 and d.get("t2_star", 0) > 45
                                       and 0 < d.get("qubit_frequency", 0) * 1e9 < 5.0e9),
        "sealed15-compound-filter-4": (OTHER, lambda q, d: 0 < d.get("t1", 0) < 35
                                       and 0 < d.get("average_readout_fidelity", 0) < 92),
    }
    for qid, (chip, keep) in rules.items():
        kept = sorted(q for q, data in state(sealed_db, chip).items() if keep(q, data))
        truth = truths[qid]
        assert kept and truth.expects[0].value == len(kept) and len(truth.patterns) == len(kept), qid
        assert all(any(named(p, f"Q{int(q):02d}") for p in truth.patterns) for q in kept), qid


def test_the_correlations_recount(truths, sealed_db):
    cases = {"sealed15-correlation-1": (CHIP, "t1", "t2_echo", "qubit"),
             "sealed15-correlation-2": (OTHER, "average_readout_fidelity", "readout_fidelity_1", "qubit"),
             "sealed15-correlation-3": (CHIP, "t1", "t2_star", "qubit"),
             "sealed15-correlation-4": (OTHER, "bell_state_fidelity", "zx90_gate_fidelity", "coupling")}
    for qid, (chip, a, b, kind) in cases.items():
        both = [d for d in state(sealed_db, chip, kind).values() if a in d and b in d]
        r = float(np.corrcoef([d[a] for d in both], [d[b] for d in both])[0, 1])
        expect = truths[qid].expects[0]
        assert math.isclose(expect.value, r, abs_tol=1e-9) and expect.signed and abs(r) >= 0.3, qid


def test_the_chip_comparisons_recount(truths, sealed_db):
    sides = (CHIP, OTHER)
    echo = {c: float(np.mean(list(column(sealed_db, c, "t2_echo").values()))) for c in sides}
    fails = {c: float(len(_failed(sealed_db, c, _days(sealed_db, c, 6)))) for c in sides}
    x90 = {c: float(np.mean(list(column(sealed_db, c, "x90_gate_fidelity").values()))) for c in sides}
    bell = {c: float(np.mean(list(column(sealed_db, c, "bell_state_fidelity", "coupling").values()))) for c in sides}
    for number, figures in ((1, echo), (2, fails), (3, x90), (4, bell)):
        truth = truths[f"sealed15-cross-chip-{number}"]
        assert all(math.isclose(figures[c], e.value, abs_tol=1e-6) for c, e in zip(sides, truth.expects)), number
        assert named(truth.winner, max(figures, key=figures.__getitem__)), number
        assert named(truth.loser, min(figures, key=figures.__getitem__)), number


def test_the_value_shares_recount(truths, sealed_db):
    t1 = np.array(list(column(sealed_db, CHIP, "t1").values()))
    assert is_value(100 * float(np.mean(t1 >= 50)), truths["sealed15-percentage-1"].expects[0])
    assert is_value(100 * float(np.sum(t1 >= 50)) / 64, truths["sealed15-percentage-1"].expects[0])
    echo = np.array(list(column(sealed_db, OTHER, "t2_echo").values())) * 1e-6
    assert is_value(100 * float(np.mean(echo > 4e-5)), truths["sealed15-percentage-3"].expects[0])
    zx = np.array(list(column(sealed_db, CHIP, "zx90_gate_fidelity", "coupling").values()))
    assert is_value(100 * float(np.mean(zx > 98.8)), truths["sealed15-percentage-4"].expects[0])


def test_the_task_share_recounts(truths, sealed_db):
    day = _days(sealed_db, OTHER, 3, 3)
    ramsey = [r for r in rows(sealed_db, OTHER) if r["name"] == "CheckRamsey" and within(r, *day)]
    share = 100 * sum(r["status"] == "failed" for r in ramsey) / len(ramsey)
    assert is_value(share, truths["sealed15-percentage-2"].expects[0])


def test_the_windows_recount(truths, sealed_db):
    since = _failed(sealed_db, CHIP, _days(sealed_db, CHIP, 5))
    assert since and is_value(len(since), truths["sealed15-window-count-1"].expects[0])
    runs = [e for e in sealed_db["execution_history"].find({}) if e["chip_id"] == OTHER
            and within(e, *_days(sealed_db, OTHER, 4))]
    assert runs and is_value(len(runs), truths["sealed15-window-count-2"].expects[0])
    echo = _failed(sealed_db, OTHER, _days(sealed_db, OTHER, 3), lambda r: r["name"] == "CheckT2Echo")
    assert echo and is_value(len(echo), truths["sealed15-window-count-3"].expects[0])
    x90 = _failed(sealed_db, CHIP, _days(sealed_db, CHIP, 2, 2), lambda r: r["name"].startswith("X90Interleaved"))
    assert x90 and is_value(len(x90), truths["sealed15-window-count-4"].expects[0])


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

    cases = {"sealed15-fails-most-1": (OTHER, _days(sealed_db, OTHER, 9), {}),
             "sealed15-fails-most-2": (CHIP, _days(sealed_db, CHIP, 7), {}),
             "sealed15-fails-most-3": (CHIP, _days(sealed_db, CHIP, 13), {"task_type": "coupling"})}
    for qid, (chip, window, match) in cases.items():
        name, n = leader(chip, window, match)
        truth = truths[qid]
        assert truth.expects[0].value == n and named(truth.patterns[0], name), qid
    per_run: dict[str, int] = {}
    for r in _failed(sealed_db, OTHER, _days(sealed_db, OTHER, 4)):
        per_run[r["execution_id"]] = per_run.get(r["execution_id"], 0) + 1
    (run, n), (_, second) = sorted(per_run.items(), key=lambda kv: -kv[1])[:2]
    truth = truths["sealed15-fails-most-4"]
    assert n > second and truth.expects[0].value == n and named(truth.patterns[0], run)


def test_the_pairs_recount(truths, sealed_db):
    def value(chip: str, pair: str, name: str) -> float:
        return state(sealed_db, chip, "coupling")[pair][name]

    assert is_value(value(OTHER, "6-7", "zx90_gate_fidelity"), truths["sealed15-qubit-pair-1"].expects[0])
    bell = value(OTHER, "20-21", "bell_state_fidelity")
    truth = truths["sealed15-qubit-pair-2"]
    assert is_value(bell, truth.expects[0]) and named(truth.patterns[0], "yes" if bell >= 98 else "no")
    assert is_value(value(CHIP, "12-13", "zx90_gate_time"), truths["sealed15-qubit-pair-3"].expects[0])
    sides = {p: value(CHIP, p, "bell_state_fidelity") for p in ("33-35", "33-36")}
    better, worse = sorted(sides, key=sides.__getitem__, reverse=True)
    truth = truths["sealed15-qubit-pair-4"]
    assert named(truth.winner, _label(better)) and named(truth.loser, _label(worse))
    assert is_value(sides[better], truth.expects[0])


def test_the_spreads_recount(truths, sealed_db):
    readout = np.array(list(column(sealed_db, CHIP, "average_readout_fidelity").values()))
    assert is_value(float(np.std(readout, ddof=1)), truths["sealed15-spread-1"].expects[0])
    t1 = np.array(list(column(sealed_db, OTHER, "t1").values()))
    assert math.isclose(float(np.ptp(t1)), truths["sealed15-spread-2"].expects[0].value, abs_tol=1e-9)
    freq = 1000 * np.array(list(column(sealed_db, OTHER, "qubit_frequency").values()))
    assert is_value(float(np.std(freq)), truths["sealed15-spread-3"].expects[0])
    t2s = np.array(list(column(sealed_db, CHIP, "t2_star").values()))
    assert is_value(float(np.std(t2s, ddof=1)), truths["sealed15-spread-4"].expects[0])


def test_the_missing_things_are_missing(truths, sealed_db):
    assert sealed_db["qubit"].count_documents({"chip_id": CHIP}) == 64  # Q00-Q63: no Q70
    assert "256Qv1" not in sealed_db["chip"].distinct("chip_id")
    assert not [r for r in rows(sealed_db, OTHER) if any("leak" in k.lower() for k in r["output_parameters"])]
    assert not [d for d in sealed_db["coupling"].find({"chip_id": CHIP}) if set(d["qid"].split("-")) == {"0", "63"}]
    assert all(truths[f"sealed15-missing-thing-{i}"].no_values for i in range(1, 5))
