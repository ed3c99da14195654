"""The seventeenth sealed set's truths recounted another way: the state documents' merged data (QDash keeps it equal to
the latest result) for values, whole-chip ``find()`` rows filtered by the Python date of ``start_at`` (or a ``$group``
pipeline) for windows, numpy for the statistics, instead of the set's helpers (latest rows sorted by time, ranged
queries, ``statistics``).  Windows are written out by hand from the newest day ("the N calendar days up to its latest
run" is the newest day and the N - 1 before it; "from <weekday> through <weekday>" the newest day and the three
before it).  Only question ids appear in failure messages."""

from __future__ import annotations

import math
from datetime import date, timedelta

import numpy as np
import pytest

from tests.agent.recount import column, is_value, last_day, midnight_of, named, rows, state, within
from tests.public_eval import CHIP, OTHER
from tests.sealed.heldout17 import build_heldout17
from tests.sealed.calendar import sealed_fixtures


sealed_day, sealed_db, sealed_now = sealed_fixtures(build_heldout17)


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
    cases = {"sealed17-top-N-1": (CHIP, "t2_star", 3, True),
             "sealed17-top-N-2": (OTHER, "x90_gate_fidelity", 2, False),
             "sealed17-top-N-3": (CHIP, "readout_fidelity_1", 3, True),
             "sealed17-top-N-4": (OTHER, "t2_echo", 3, False)}
    for qid, (chip, name, n, high) in cases.items():
        ranked = sorted(column(sealed_db, chip, name).items(), key=lambda kv: -kv[1] if high else kv[1])[:n]
        expects = truths[qid].expects
        assert len(expects) == n, qid
        assert [e.value for e in expects] == pytest.approx([v for _, v in ranked]), qid
        assert all(named(e.near[0], _label(k)) for e, (k, _) in zip(expects, ranked)), qid


def test_the_compound_filters_recount(truths, sealed_db):
    rules = {
        "sealed17-compound-filter-1": (CHIP, lambda d: d.get("t2_echo", 0) > 100 and d.get("t1", 0) > 80),
        "sealed17-compound-filter-2": (OTHER, lambda d: d.get("qubit_frequency", 0) > 5.2
                                       and 0 < d.get("readout_fidelity_0", 0) < 92),
        "sealed17-compound-filter-3": (CHIP, lambda d: 0 < d.get("x90_gate_fidelity", 0) < 99.6
                                       and 0 < d.get("t2_star", 0) < 30),
        "sealed17-compound-filter-4": (OTHER, lambda d: d.get("t2_star", 0) > 65
                                       and d.get("average_readout_fidelity", 0) > 97),
    }
    for qid, (chip, keep) in rules.items():
        kept = sorted(q for q, data in state(sealed_db, chip).items() if keep(data))
        truth = truths[qid]
        assert kept and truth.expects[0].value == len(kept) and len(truth.patterns) == len(kept), qid
        assert all(any(named(p, f"Q{int(q):02d}") for p in truth.patterns) for q in kept), qid


def test_the_correlations_recount(truths, sealed_db):
    cases = {"sealed17-correlation-1": (CHIP, "t1", "t2_echo", "qubit"),
             "sealed17-correlation-2": (OTHER, "readout_fidelity_0", "average_readout_fidelity", "qubit"),
             "sealed17-correlation-3": (OTHER, "zx90_gate_fidelity", "bell_state_fidelity", "coupling"),
             "sealed17-correlation-4": (CHIP, "readout_fidelity_1", "average_readout_fidelity", "qubit")}
    for qid, (chip, a, b, kind) in cases.items():
        both = [d for d in state(sealed_db, chip, kind).values() if a in d and b in d]
        r = float(np.corrcoef([d[a] for d in both], [d[b] for d in both])[0, 1])
        expect = truths[qid].expects[0]
        assert math.isclose(expect.value, r, abs_tol=1e-9) and expect.signed and abs(r) >= 0.3, qid


def test_the_chip_comparisons_recount(truths, sealed_db):
    sides = (CHIP, OTHER)
    echo = {c: float(np.mean(list(column(sealed_db, c, "t2_echo").values()))) for c in sides}
    fails = {c: float(len(_failed(sealed_db, c, _last(sealed_db, c, 5)))) for c in sides}
    star = {c: float(np.mean(list(column(sealed_db, c, "t2_star").values()))) for c in sides}
    bell = {c: float(np.mean(list(column(sealed_db, c, "bell_state_fidelity", "coupling").values()))) for c in sides}
    for number, figures in ((1, echo), (2, fails), (3, star), (4, bell)):
        truth = truths[f"sealed17-cross-chip-{number}"]
        assert all(math.isclose(figures[c], e.value, abs_tol=1e-6) for c, e in zip(sides, truth.expects)), number
        assert named(truth.winner, max(figures, key=figures.__getitem__)), number
        assert named(truth.loser, min(figures, key=figures.__getitem__)), number


def test_the_value_shares_recount(truths, sealed_db):
    t1 = np.array(list(column(sealed_db, CHIP, "t1").values()))
    assert is_value(100 * float(np.mean(t1 > 50)), truths["sealed17-percentage-1"].expects[0])
    assert is_value(100 * float(np.sum(t1 > 50)) / 64, truths["sealed17-percentage-1"].expects[0])
    zx = np.array(list(column(sealed_db, OTHER, "zx90_gate_fidelity", "coupling").values()))
    assert is_value(100 * float(np.mean(zx > 99)), truths["sealed17-percentage-3"].expects[0])
    ro = np.array(list(column(sealed_db, CHIP, "readout_fidelity_0").values()))
    assert is_value(100 * float(np.mean(ro > 95)), truths["sealed17-percentage-4"].expects[0])


def test_the_task_share_recounts(truths, sealed_db):
    ramsey = [r for r in rows(sealed_db, OTHER) if r["name"] == "CheckRamsey" and within(r, *_last(sealed_db, OTHER, 5))]
    share = 100 * sum(r["status"] == "failed" for r in ramsey) / len(ramsey)
    assert is_value(share, truths["sealed17-percentage-2"].expects[0])


def test_the_windows_recount(truths, sealed_db):
    runs = [e for e in sealed_db["execution_history"].find({}) if e["chip_id"] == CHIP
            and within(e, *_last(sealed_db, CHIP, 5))]
    assert runs and is_value(len(runs), truths["sealed17-window-count-1"].expects[0])
    last = last_day(sealed_db, OTHER)
    four = _failed(sealed_db, OTHER, (last - timedelta(days=3), last))
    assert four and is_value(len(four), truths["sealed17-window-count-2"].expects[0])
    spectroscopy = _failed(sealed_db, CHIP, _last(sealed_db, CHIP, 7), lambda r: r["name"] == "CheckQubitSpectroscopy")
    assert spectroscopy and is_value(len(spectroscopy), truths["sealed17-window-count-3"].expects[0])
    create = _failed(sealed_db, OTHER, _last(sealed_db, OTHER, 6), lambda r: r["name"] == "CreateZX90")
    assert create and is_value(len(create), truths["sealed17-window-count-4"].expects[0])


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

    cases = {"sealed17-fails-most-1": (CHIP, _last(sealed_db, CHIP, 7), {}),
             "sealed17-fails-most-2": (OTHER, _last(sealed_db, OTHER, 5), {"task_type": "qubit"}),
             "sealed17-fails-most-4": (CHIP, _last(sealed_db, CHIP, 14), {"task_type": "coupling"})}
    for qid, (chip, window, match) in cases.items():
        name, n = leader(chip, window, match)
        truth = truths[qid]
        assert truth.expects[0].value == n and named(truth.patterns[0], name), qid
    per_run: dict[str, int] = {}
    for r in _failed(sealed_db, OTHER, _last(sealed_db, OTHER, 3)):
        per_run[r["execution_id"]] = per_run.get(r["execution_id"], 0) + 1
    (run, n), (_, second) = sorted(per_run.items(), key=lambda kv: -kv[1])[:2]
    truth = truths["sealed17-fails-most-3"]
    assert n > second and truth.expects[0].value == n and named(truth.patterns[0], run)


def test_the_pairs_recount(truths, sealed_db):
    def value(chip: str, pair: str, name: str) -> float:
        return state(sealed_db, chip, "coupling")[pair][name]

    sides = {p: value(CHIP, p, "bell_state_fidelity") for p in ("4-5", "4-6")}
    better, worse = sorted(sides, key=sides.__getitem__, reverse=True)
    truth = truths["sealed17-qubit-pair-1"]
    assert named(truth.winner, _label(better)) and named(truth.loser, _label(worse))
    assert is_value(sides[better], truth.expects[0])
    truth = truths["sealed17-qubit-pair-2"]
    assert is_value(value(OTHER, "104-106", "zx90_gate_time"), truth.expects[0])
    assert named(truth.expects[0].near[0], "Q104 and Q106") and named(truth.expects[0].near[0], "Q104-Q106")
    assert is_value(value(CHIP, "12-13", "zx90_gate_fidelity"), truths["sealed17-qubit-pair-3"].expects[0])
    truth = truths["sealed17-qubit-pair-4"]
    assert is_value(value(OTHER, "100-101", "bell_state_fidelity"), truth.expects[0])
    assert named(truth.expects[0].near[0], "Q100 and Q101") and not named(truth.expects[0].near[0], "Q100-Q102")


def test_the_spreads_recount(truths, sealed_db):
    echo = np.array(list(column(sealed_db, CHIP, "t2_echo").values()))
    assert is_value(float(np.std(echo, ddof=1)), truths["sealed17-spread-1"].expects[0])
    t1 = np.array(list(column(sealed_db, OTHER, "t1").values()))
    assert math.isclose(float(np.ptp(t1)), truths["sealed17-spread-2"].expects[0].value, abs_tol=1e-9)
    freq = 1000 * np.array(list(column(sealed_db, CHIP, "qubit_frequency").values()))
    assert is_value(float(np.std(freq)), truths["sealed17-spread-3"].expects[0])
    ro = np.array(list(column(sealed_db, OTHER, "readout_fidelity_1").values()))
    assert is_value(float(np.std(ro, ddof=1)), truths["sealed17-spread-4"].expects[0])


def test_the_missing_things_are_missing(truths, sealed_db):
    assert sealed_db["qubit"].count_documents({"chip_id": CHIP}) == 64  # Q00-Q63: no Q70
    assert "256Qv1" not in sealed_db["chip"].distinct("chip_id")
    assert not [r for r in rows(sealed_db, OTHER) if any("leak" in k.lower() for k in r["output_parameters"])]
    assert not [d for d in sealed_db["coupling"].find({"chip_id": CHIP}) if set(d["qid"].split("-")) == {"3", "50"}]
    assert all(truths[f"sealed17-missing-thing-{i}"].no_values for i in range(1, 5))
