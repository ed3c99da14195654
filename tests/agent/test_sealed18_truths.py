"""The eighteenth sealed set's truths recounted another way: the state documents' merged data (QDash keeps it equal to
the latest result) for values, whole-chip ``find()`` rows filtered by the Python date of ``start_at`` (or a ``$group``
pipeline) for windows, the runs sorted in Python for "the last N runs", numpy for the statistics, instead of the
set's helpers (latest rows sorted by time, ranged queries, ``statistics``).  Windows are written out by hand from the
newest day ("the last ten days" is the newest day and the nine before it; "Nov 25 – Nov 28" on a Dec 1 newest day is
the sixth to the third day before it).  Only question ids appear in failure messages."""

from __future__ import annotations

import math
from datetime import date, timedelta

import numpy as np
import pytest

from tests.agent.recount import column, is_value, last_day, midnight_of, named, rows, state, within
from tests.public_eval import CHIP, OTHER
from tests.sealed.heldout18 import build_heldout18
from tests.sealed.calendar import sealed_fixtures


sealed_day, sealed_db, sealed_now = sealed_fixtures(build_heldout18)


@pytest.fixture(scope="module")
def truths(sealed_day):
    return {q.id: q.truth for q in sealed_day.questions}


def _label(key: str) -> str:
    return "-".join(f"Q{int(p):02d}" for p in key.split("-"))


def _last(db, chip: str, n: int) -> tuple[date, date]:
    last = last_day(db, chip)
    return last - timedelta(days=n - 1), last


def _back(db, chip: str, a: int, b: int) -> tuple[date, date]:
    last = last_day(db, chip)
    return last - timedelta(days=a), last - timedelta(days=b)


def _failed(db, chip: str, window: tuple[date, date], keep=lambda r: True) -> list[dict]:  # noqa: ANN001
    return [r for r in rows(db, chip) if r["status"] == "failed" and within(r, *window) and keep(r)]


def _span(values: dict[str, float], first: int, last: int) -> dict[str, float]:
    return {q: v for q, v in values.items() if first <= int(q) <= last}


def _newest_runs(db, chip: str, n: int) -> set[str]:
    runs = sorted((e["start_at"], e["execution_id"]) for e in db["execution_history"].find({}) if e["chip_id"] == chip)
    assert runs[-n][0] != runs[-n - 1][0]
    return {run for _, run in runs[-n:]}


def test_the_rankings_recount(truths, sealed_db):
    cases = {"sealed18-top-N-1": (_span(column(sealed_db, CHIP, "t1"), 8, 15), 2, True),
             "sealed18-top-N-2": (column(sealed_db, OTHER, "qubit_frequency"), 3, False),
             "sealed18-top-N-3": (column(sealed_db, CHIP, "average_readout_fidelity"), 5, False),
             "sealed18-top-N-4": (column(sealed_db, CHIP, "zx90_gate_fidelity", "coupling"), 3, False)}
    for qid, (values, n, high) in cases.items():
        ranked = sorted(values.items(), key=lambda kv: -kv[1] if high else kv[1])[:n]
        expects = truths[qid].expects
        assert len(expects) == n, qid
        assert [e.value for e in expects] == pytest.approx([v for _, v in ranked]), qid
        assert all(named(e.near[0], _label(k)) for e, (k, _) in zip(expects, ranked)), qid


def test_the_compound_filters_recount(truths, sealed_db):
    rules = {
        "sealed18-compound-filter-1": (CHIP, lambda q, d: d.get("x90_gate_fidelity", 0) >= 99.6
                                       and d.get("t2_echo", 0) >= 110),
        "sealed18-compound-filter-2": (OTHER, lambda q, d: d.get("t1", 0) > 95 and 0 < d.get("t2_star", 0) < 45),
        "sealed18-compound-filter-3": (OTHER, lambda q, d: 40 <= int(q) <= 79
                                       and 0 < d.get("readout_fidelity_1", 0) < 90
                                       and d.get("qubit_frequency", 0) > 5.0),
        "sealed18-compound-filter-4": (CHIP, lambda q, d: d.get("anharmonicity", 0) < -300 and d.get("t1", 0) > 70),
    }
    for qid, (chip, keep) in rules.items():
        kept = sorted(q for q, data in state(sealed_db, chip).items() if keep(q, data))
        truth = truths[qid]
        assert kept and truth.expects[0].value == len(kept) and len(truth.patterns) == len(kept), qid
        assert all(any(named(p, f"Q{int(q):02d}") for p in truth.patterns) for q in kept), qid


def test_the_correlations_recount(truths, sealed_db):
    cases = {"sealed18-correlation-1": (OTHER, "t1", "t2_star", "qubit"),
             "sealed18-correlation-2": (CHIP, "t2_echo", "t2_star", "qubit"),
             "sealed18-correlation-3": (CHIP, "zx90_gate_fidelity", "bell_state_fidelity", "coupling"),
             "sealed18-correlation-4": (OTHER, "readout_fidelity_0", "readout_fidelity_1", "qubit")}
    for qid, (chip, a, b, kind) in cases.items():
        both = [d for d in state(sealed_db, chip, kind).values() if a in d and b in d]
        r = float(np.corrcoef([d[a] for d in both], [d[b] for d in both])[0, 1])
        expect = truths[qid].expects[0]
        assert math.isclose(expect.value, r, abs_tol=1e-9) and expect.signed and abs(r) >= 0.3, qid


def test_the_chip_comparisons_recount(truths, sealed_db):
    sides = (CHIP, OTHER)
    median = {c: float(np.median(list(column(sealed_db, c, "t1").values()))) for c in sides}
    fails = {c: float(len(_failed(sealed_db, c, _back(sealed_db, c, 6, 3)))) for c in sides}
    x90 = {c: float(np.mean(list(column(sealed_db, c, "x90_gate_fidelity").values()))) for c in sides}
    runs = {c: float(sum(1 for e in sealed_db["execution_history"].find({})
                         if e["chip_id"] == c and within(e, *_last(sealed_db, c, 10)))) for c in sides}
    for number, figures in ((1, median), (2, fails), (3, x90), (4, runs)):
        truth = truths[f"sealed18-cross-chip-{number}"]
        assert all(math.isclose(figures[c], e.value, abs_tol=1e-6) for c, e in zip(sides, truth.expects)), number
        assert named(truth.winner, max(figures, key=figures.__getitem__)), number
        assert named(truth.loser, min(figures, key=figures.__getitem__)), number


def test_the_value_shares_recount(truths, sealed_db):
    t1 = np.array(list(column(sealed_db, OTHER, "t1").values()))
    assert is_value(100 * float(np.mean(t1 <= 50)), truths["sealed18-percentage-1"].expects[0])
    assert is_value(100 * float(np.sum(t1 <= 50)) / 144, truths["sealed18-percentage-1"].expects[0])
    echo = np.array(list(_span(column(sealed_db, CHIP, "t2_echo"), 0, 31).values()))
    assert is_value(100 * float(np.mean(echo > 80)), truths["sealed18-percentage-2"].expects[0])
    assert is_value(100 * float(np.sum(echo > 80)) / 32, truths["sealed18-percentage-2"].expects[0])
    zx = np.array(list(column(sealed_db, OTHER, "zx90_gate_fidelity", "coupling").values()))
    assert is_value(100 * float(np.mean(zx > 99)), truths["sealed18-percentage-4"].expects[0])


def test_the_run_share_recounts(truths, sealed_db):
    runs = _newest_runs(sealed_db, CHIP, 3)
    tasks = [r for r in rows(sealed_db, CHIP) if r["execution_id"] in runs]
    share = 100 * sum(r["status"] == "failed" for r in tasks) / len(tasks)
    assert is_value(share, truths["sealed18-percentage-3"].expects[0])


def test_the_windows_recount(truths, sealed_db):
    four = _failed(sealed_db, OTHER, _back(sealed_db, OTHER, 5, 2))
    assert four and is_value(len(four), truths["sealed18-window-count-1"].expects[0])
    runs = [e for e in sealed_db["execution_history"].find({}) if e["chip_id"] == CHIP
            and within(e, *_back(sealed_db, CHIP, 7, 3))]
    assert runs and is_value(len(runs), truths["sealed18-window-count-2"].expects[0])
    t1 = _failed(sealed_db, CHIP, _last(sealed_db, CHIP, 10), lambda r: r["name"] == "CheckT1")
    assert t1 and is_value(len(t1), truths["sealed18-window-count-3"].expects[0])
    newest = _newest_runs(sealed_db, OTHER, 3)
    bell = [r for r in rows(sealed_db, OTHER) if r["execution_id"] in newest and r["status"] == "failed"
            and r["name"] == "CheckBellStateTomography"]
    assert bell and is_value(len(bell), truths["sealed18-window-count-4"].expects[0])


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

    cases = {"sealed18-fails-most-1": (OTHER, _last(sealed_db, OTHER, 7), {}),
             "sealed18-fails-most-2": (OTHER, _back(sealed_db, OTHER, 7, 1), {"task_type": "coupling"}),
             "sealed18-fails-most-3": (CHIP, _last(sealed_db, CHIP, 10), {}),
             "sealed18-fails-most-4": (CHIP, _last(sealed_db, CHIP, 14), {"task_type": "coupling"})}
    for qid, (chip, window, match) in cases.items():
        name, n = leader(chip, window, match)
        truth = truths[qid]
        assert truth.expects[0].value == n and named(truth.patterns[0], name), qid
    assert not named(truths["sealed18-fails-most-4"].patterns[0], "CreateZX90")


def test_the_pairs_recount(truths, sealed_db):
    def value(chip: str, pair: str, name: str) -> float:
        return state(sealed_db, chip, "coupling")[pair][name]

    truth = truths["sealed18-qubit-pair-1"]
    assert is_value(value(CHIP, "19-22", "zx90_gate_time"), truth.expects[0])
    assert named(truth.expects[0].near[0], "Q19 and Q22") and named(truth.expects[0].near[0], "Q22-Q19")
    truth = truths["sealed18-qubit-pair-2"]
    assert is_value(value(OTHER, "112-113", "bell_state_fidelity"), truth.expects[0])
    assert named(truth.expects[0].near[0], "Q112-Q113") and not named(truth.expects[0].near[0], "Q112-Q114")
    sides = {p: value(OTHER, p, "zx90_gate_fidelity") for p in ("110-111", "111-114")}
    better, worse = sorted(sides, key=sides.__getitem__, reverse=True)
    truth = truths["sealed18-qubit-pair-3"]
    assert named(truth.winner, _label(better)) and named(truth.loser, _label(worse))
    assert is_value(sides[better], truth.expects[0])
    truth = truths["sealed18-qubit-pair-4"]
    assert is_value(value(CHIP, "24-25", "bell_state_fidelity"), truth.expects[0])
    assert named(truth.expects[0].near[0], "Q24/Q25")


def test_the_spreads_recount(truths, sealed_db):
    star = np.array(list(column(sealed_db, OTHER, "t2_star").values()))
    assert is_value(float(np.std(star, ddof=1)), truths["sealed18-spread-1"].expects[0])
    assert is_value(float(np.std(star)), truths["sealed18-spread-1"].expects[0])
    readout = 1000 * np.array(list(_span(column(sealed_db, OTHER, "readout_frequency"), 8, 15).values()))
    assert math.isclose(float(np.ptp(readout)), truths["sealed18-spread-2"].expects[0].value, abs_tol=1e-6)
    zx = np.array(list(column(sealed_db, CHIP, "zx90_gate_fidelity", "coupling").values()))
    assert is_value(float(np.std(zx, ddof=1)), truths["sealed18-spread-3"].expects[0])
    anharm = np.array(list(column(sealed_db, CHIP, "anharmonicity").values()))
    assert math.isclose(float(np.ptp(anharm)), truths["sealed18-spread-4"].expects[0].value, abs_tol=1e-6)


def test_the_missing_things_are_missing(truths, sealed_db):
    assert sealed_db["qubit"].count_documents({"chip_id": CHIP}) == 64  # Q00-Q63: no Q88
    assert "72Qv1" not in sealed_db["chip"].distinct("chip_id")
    assert not [r for r in rows(sealed_db, OTHER)
                if any("dispersive" in k.lower() or k.lower() == "chi" for k in r["output_parameters"])]
    assert not [d for d in sealed_db["coupling"].find({"chip_id": CHIP}) if set(d["qid"].split("-")) == {"0", "63"}]
    assert all(truths[f"sealed18-missing-thing-{i}"].no_values for i in range(1, 5))
