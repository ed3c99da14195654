"""The nineteenth sealed set's truths recounted another way: the state documents' merged data (QDash keeps it equal to
the latest result) for values, whole-chip ``find()`` rows filtered by the Python date of ``start_at`` (or a ``$group``
pipeline) for windows, the runs sorted in Python for "the last N runs", numpy for the statistics, instead of the
set's helpers (latest rows sorted by time, ranged queries, ``statistics``).  Windows are written out by hand from the
newest day ("the past fortnight" is the newest day and the thirteen before it; "since last <weekday>" starts on the
day four — or five — days before the newest day, and the question must name that day's weekday).  Only question ids
appear in failure messages."""

from __future__ import annotations

import math
from collections import Counter
from datetime import date, timedelta

import numpy as np
import pytest

from tests.agent.recount import column, is_value, last_day, midnight_of, named, rows, state, within
from tests.public_eval import CHIP, OTHER
from tests.sealed.calendar import sealed_fixtures
from tests.sealed.heldout19 import build_heldout19

sealed_day, sealed_db, sealed_now = sealed_fixtures(build_heldout19)


@pytest.fixture(scope="module")
def truths(sealed_day):
    return {q.id: q.truth for q in sealed_day.questions}


@pytest.fixture(scope="module")
def texts(sealed_day):
    return {q.id: q.text for q in sealed_day.questions}


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
    cases = {"sealed19-top-N-1": (column(sealed_db, OTHER, "t2_echo"), 3, True),
             "sealed19-top-N-2": (column(sealed_db, CHIP, "qubit_frequency"), 4, False),
             "sealed19-top-N-3": (column(sealed_db, OTHER, "bell_state_fidelity", "coupling"), 2, True),
             "sealed19-top-N-4": (column(sealed_db, CHIP, "t1"), 5, True)}
    for qid, (values, n, high) in cases.items():
        ranked = sorted(values.items(), key=lambda kv: -kv[1] if high else kv[1])[:n]
        expects = truths[qid].expects
        assert len(expects) == n, qid
        assert [e.value for e in expects] == pytest.approx([v for _, v in ranked]), qid
        assert all(named(e.near[0], _label(k)) for e, (k, _) in zip(expects, ranked)), qid


def test_the_compound_filters_recount(truths, sealed_db):
    rules = {
        "sealed19-compound-filter-1": (CHIP, lambda q, d: d.get("t1", 0) > 80
                                       and 0 < d.get("average_readout_fidelity", 0) < 92),
        "sealed19-compound-filter-2": (OTHER, lambda q, d: d.get("t2_echo", 0) > 120
                                       and d.get("average_readout_fidelity", 0) > 95),
        "sealed19-compound-filter-3": (OTHER, lambda q, d: 0 < d.get("t2_star", 0) < 18
                                       and d.get("qubit_frequency", 0) > 5.1),
        "sealed19-compound-filter-4": (CHIP, lambda q, d: 32 <= int(q) <= 63 and 0 < d.get("t1", 0) < 50
                                       and d.get("t2_echo", 0) > 40),
    }
    for qid, (chip, keep) in rules.items():
        kept = sorted(q for q, data in state(sealed_db, chip).items() if keep(q, data))
        truth = truths[qid]
        assert kept and truth.expects[0].value == len(kept) and len(truth.patterns) == len(kept), qid
        assert all(any(named(p, f"Q{int(q):02d}") for p in truth.patterns) for q in kept), qid


def test_the_correlations_recount(truths, sealed_db):
    cases = {"sealed19-correlation-1": (CHIP, "t1", "t2_echo", "qubit"),
             "sealed19-correlation-2": (OTHER, "zx90_gate_fidelity", "bell_state_fidelity", "coupling"),
             "sealed19-correlation-3": (OTHER, "t2_echo", "t2_star", "qubit"),
             "sealed19-correlation-4": (CHIP, "average_readout_fidelity", "readout_fidelity_0", "qubit")}
    for qid, (chip, a, b, kind) in cases.items():
        both = [d for d in state(sealed_db, chip, kind).values() if a in d and b in d]
        r = float(np.corrcoef([d[a] for d in both], [d[b] for d in both])[0, 1])
        expect = truths[qid].expects[0]
        assert math.isclose(expect.value, r, abs_tol=1e-9) and expect.signed and abs(r) >= 0.3, qid


def test_the_chip_comparisons_recount(truths, texts, sealed_db):
    sides = (CHIP, OTHER)
    echo = {c: float(np.mean(list(column(sealed_db, c, "t2_echo").values()))) for c in sides}
    fails = {c: float(len(_failed(sealed_db, c, _back(sealed_db, c, 4, 0)))) for c in sides}
    readout = {c: float(np.median(list(column(sealed_db, c, "average_readout_fidelity").values()))) for c in sides}
    t1 = {c: float(len(_failed(sealed_db, c, _last(sealed_db, c, 14), lambda r: r["name"] == "CheckT1")))
          for c in sides}
    for number, figures in ((1, echo), (2, fails), (3, readout), (4, t1)):
        truth = truths[f"sealed19-cross-chip-{number}"]
        assert all(math.isclose(figures[c], e.value, abs_tol=1e-6) for c, e in zip(sides, truth.expects)), number
        assert named(truth.winner, max(figures, key=figures.__getitem__)), number
        assert named(truth.loser, min(figures, key=figures.__getitem__)), number
    weekday = f"{_back(sealed_db, CHIP, 4, 0)[0]:%A}"
    assert texts["sealed19-cross-chip-2"].startswith(f"Since last {weekday},")


def test_the_value_shares_recount(truths, sealed_db):
    t1 = np.array(list(column(sealed_db, CHIP, "t1").values()))
    assert is_value(100 * float(np.mean(t1 > 60)), truths["sealed19-percentage-1"].expects[0])
    assert is_value(100 * float(np.sum(t1 > 60)) / 64, truths["sealed19-percentage-1"].expects[0])
    bell = np.array(list(column(sealed_db, OTHER, "bell_state_fidelity", "coupling").values()))
    assert is_value(100 * float(np.mean(bell > 95)), truths["sealed19-percentage-2"].expects[0])
    x90 = np.array(list(_span(column(sealed_db, CHIP, "x90_gate_fidelity"), 32, 63).values()))
    assert is_value(100 * float(np.mean(x90 > 99.75)), truths["sealed19-percentage-4"].expects[0])
    assert is_value(100 * float(np.sum(x90 > 99.75)) / 32, truths["sealed19-percentage-4"].expects[0])


def test_the_task_share_recounts(truths, sealed_db):
    window = _last(sealed_db, OTHER, 14)
    tasks = [r for r in rows(sealed_db, OTHER) if within(r, *window)]
    share = 100 * sum(r["status"] == "failed" for r in tasks) / len(tasks)
    assert is_value(share, truths["sealed19-percentage-3"].expects[0])


def test_the_windows_recount(truths, texts, sealed_db):
    since = _back(sealed_db, CHIP, 5, 0)
    fails = _failed(sealed_db, CHIP, since)
    assert fails and is_value(len(fails), truths["sealed19-window-count-1"].expects[0])
    assert f"since last {since[0]:%A} (that day included)" in texts["sealed19-window-count-1"]
    runs = [e for e in sealed_db["execution_history"].find({}) if e["chip_id"] == OTHER
            and within(e, *_last(sealed_db, OTHER, 14))]
    assert runs and is_value(len(runs), truths["sealed19-window-count-2"].expects[0])
    ramsey = _failed(sealed_db, CHIP, _last(sealed_db, CHIP, 5), lambda r: r["name"] == "CheckRamsey")
    assert ramsey and is_value(len(ramsey), truths["sealed19-window-count-3"].expects[0])
    newest = _newest_runs(sealed_db, OTHER, 4)
    pairs = [r for r in rows(sealed_db, OTHER) if r["execution_id"] in newest and r["status"] == "failed"
             and r["task_type"] == "coupling"]
    assert pairs and is_value(len(pairs), truths["sealed19-window-count-4"].expects[0])


def test_the_fail_leaders_recount(truths, texts, sealed_db):
    """A ``$group`` pipeline counts the failures (the set's helpers count ``find()`` rows)."""
    def leader(chip: str, window: tuple[date, date], match: dict) -> tuple[str, int]:
        first, last = window
        pipeline = [{"$match": {"chip_id": chip, "status": "failed", **match,
                                "start_at": {"$gte": midnight_of(first), "$lt": midnight_of(last + timedelta(days=1))}}},
                    {"$group": {"_id": "$name", "n": {"$sum": 1}}}]
        counts = sorted(((d["n"], d["_id"]) for d in sealed_db["task_result_history"].aggregate(pipeline)), reverse=True)
        assert counts[0][0] > counts[1][0]
        return counts[0][1], counts[0][0]

    cases = {"sealed19-fails-most-1": (CHIP, _last(sealed_db, CHIP, 14), {}),
             "sealed19-fails-most-2": (OTHER, _back(sealed_db, OTHER, 4, 0), {"task_type": "coupling"}),
             "sealed19-fails-most-3": (OTHER, _last(sealed_db, OTHER, 7), {})}
    for qid, (chip, window, match) in cases.items():
        name, n = leader(chip, window, match)
        truth = truths[qid]
        assert truth.expects[0].value == n and named(truth.patterns[0], name), qid
    assert f"since last {_back(sealed_db, OTHER, 4, 0)[0]:%A}," in texts["sealed19-fails-most-2"]
    assert not named(truths["sealed19-fails-most-3"].patterns[0], "CheckT1")
    newest = _newest_runs(sealed_db, CHIP, 10)
    counts = Counter(r["name"] for r in rows(sealed_db, CHIP) if r["execution_id"] in newest and r["status"] == "failed")
    (name, n), (_, second) = counts.most_common(2)
    truth = truths["sealed19-fails-most-4"]
    assert n > second and truth.expects[0].value == n and named(truth.patterns[0], name)


def test_the_pairs_recount(truths, sealed_db):
    def value(chip: str, pair: str, name: str) -> float:
        return state(sealed_db, chip, "coupling")[pair][name]

    truth = truths["sealed19-qubit-pair-1"]
    assert is_value(value(CHIP, "12-13", "zx90_gate_time"), truth.expects[0])
    assert named(truth.expects[0].near[0], "Q12–Q13") and named(truth.expects[0].near[0], "Q13-Q12")
    sides = {p: value(CHIP, p, "bell_state_fidelity") for p in ("25-27", "26-27")}
    better, worse = sorted(sides, key=sides.__getitem__, reverse=True)
    truth = truths["sealed19-qubit-pair-2"]
    assert named(truth.winner, _label(better)) and named(truth.loser, _label(worse))
    assert is_value(sides[better], truth.expects[0])
    truth = truths["sealed19-qubit-pair-3"]
    assert is_value(value(OTHER, "115-118", "zx90_gate_fidelity"), truth.expects[0])
    assert named(truth.expects[0].near[0], "Q115/Q118") and not named(truth.expects[0].near[0], "Q115-Q116")
    truth = truths["sealed19-qubit-pair-4"]
    assert is_value(value(OTHER, "104-105", "bell_state_fidelity"), truth.expects[0])
    assert named(truth.expects[0].near[0], "Q104 ↔ Q105")


def test_the_spreads_recount(truths, sealed_db):
    t1 = np.array(list(column(sealed_db, CHIP, "t1").values()))
    assert is_value(float(np.std(t1, ddof=1)), truths["sealed19-spread-1"].expects[0])
    assert is_value(float(np.std(t1)), truths["sealed19-spread-1"].expects[0])
    bell = np.array(list(column(sealed_db, OTHER, "bell_state_fidelity", "coupling").values()))
    assert is_value(float(np.std(bell, ddof=1)), truths["sealed19-spread-2"].expects[0])
    freq = 1000 * np.array(list(column(sealed_db, OTHER, "qubit_frequency").values()))
    assert math.isclose(float(np.ptp(freq)), truths["sealed19-spread-3"].expects[0].value, abs_tol=1e-6)
    star = np.array(list(_span(column(sealed_db, CHIP, "t2_star"), 32, 47).values()))
    assert math.isclose(float(np.ptp(star)), truths["sealed19-spread-4"].expects[0].value, abs_tol=1e-6)


def test_the_missing_things_are_missing(truths, sealed_db):
    assert sealed_db["qubit"].count_documents({"chip_id": CHIP}) == 64  # Q00-Q63: no Q70
    assert "32Qv2" not in sealed_db["chip"].distinct("chip_id")
    assert not [r for r in rows(sealed_db, OTHER) if any("zz" in k.lower() for k in r["output_parameters"])]
    assert not [d for d in sealed_db["coupling"].find({"chip_id": CHIP}) if set(d["qid"].split("-")) == {"5", "40"}]
    assert all(truths[f"sealed19-missing-thing-{i}"].no_values for i in range(1, 5))
