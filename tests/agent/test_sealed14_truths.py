"""The fourteenth sealed set's truths recounted another way: the state documents' merged data (QDash keeps it equal to
the latest result) for values, whole-chip ``find()`` rows filtered by the Python date of ``start_at`` (or a ``$group``
pipeline) for windows, numpy for the statistics, instead of the set's helpers (latest rows sorted by time, ranged
queries, ``statistics``).  Windows are written out by hand from the newest day: the weekend is found by walking back
to the last Sunday, "last <weekday>" is three days back, "the day before yesterday" two, the 36 hours the newest day
and the one before it.  Only question ids appear in failure messages."""

from __future__ import annotations

import math
from collections import Counter
from datetime import date, timedelta

import numpy as np
import pytest

from tests.agent.recount import column, is_value, last_day, midnight_of, named, rows, state, within
from tests.public_eval import CHIP, OTHER
from tests.sealed.heldout14 import build_heldout14
from tests.sealed.calendar import sealed_fixtures


sealed_day, sealed_db, sealed_now = sealed_fixtures(build_heldout14)


@pytest.fixture(scope="module")
def truths(sealed_day):
    return {q.id: q.truth for q in sealed_day.questions}


def _label(key: str) -> str:
    return "-".join(f"Q{int(p):02d}" for p in key.split("-"))


def _days(db, chip: str, back_first: int, back_last: int = 0) -> tuple[date, date]:
    last = last_day(db, chip)
    return last - timedelta(days=back_first), last - timedelta(days=back_last)


def _weekend(db, chip: str) -> tuple[date, date]:
    sunday = last_day(db, chip) - timedelta(days=1)
    while sunday.weekday() != 6:
        sunday -= timedelta(days=1)
    return sunday - timedelta(days=1), sunday


def _failed(db, chip: str, window: tuple[date, date], keep=lambda r: True) -> list[dict]:  # noqa: ANN001
    return [r for r in rows(db, chip) if r["status"] == "failed" and within(r, *window) and keep(r)]


def test_the_rankings_recount(truths, sealed_db):
    echo = column(sealed_db, OTHER, "t2_echo")
    best = max(echo, key=echo.__getitem__)
    cases = {"sealed14-top-N-1": (CHIP, "t1", "qubit", 4, True, 1.0, None),
             "sealed14-top-N-2": (OTHER, "readout_fidelity_0", "qubit", 3, False, 1.0, None),
             "sealed14-top-N-3": (CHIP, "readout_fidelity_1", "qubit", 5, True, 1.0, None),
             "sealed14-top-N-4": (OTHER, "t2_echo", "qubit", 3, True, 1000.0, best)}
    for qid, (chip, name, kind, n, high, scale, skip) in cases.items():
        values = {k: v * scale for k, v in column(sealed_db, chip, name, kind).items() if k != skip}
        ranked = sorted(values.items(), key=lambda kv: -kv[1] if high else kv[1])[:n]
        expects = truths[qid].expects
        assert len(expects) == n, qid
        assert [e.value for e in expects] == pytest.approx([v for _, v in ranked]), qid
        assert all(named(e.near[0], _label(k)) for e, (k, _) in zip(expects, ranked)), qid


def test_the_compound_filters_recount(truths, sealed_db):
    rules = {
        "sealed14-compound-filter-1": (CHIP, lambda q, d: 100 - d.get("average_readout_fidelity", 0) < 5
                                       and d.get("t1", 0) > 70),
        "sealed14-compound-filter-2": (OTHER, lambda q, d: d.get("anharmonicity", 0) / 1000 < -0.31
                                       and 1000 * d.get("qubit_frequency", 0) > 5200),
        "sealed14-compound-filter-3": (CHIP, lambda q, d: 10 <= int(q) <= 30 and d.get("t2_star", 0) > 40
                                       and 100 - d.get("x90_gate_fidelity", 0) < 0.2),
        "sealed14-compound-filter-4": (OTHER, lambda q, d: d.get("t1", 0) > 90 and d.get("readout_fidelity_1", 0) > 95),
    }
    for qid, (chip, keep) in rules.items():
        kept = sorted(q for q, data in state(sealed_db, chip).items() if keep(q, data))
        truth = truths[qid]
        assert kept and truth.expects[0].value == len(kept) and len(truth.patterns) == len(kept), qid
        assert all(any(named(p, f"Q{int(q):02d}") for p in truth.patterns) for q in kept), qid


def test_the_correlations_recount(truths, sealed_db):
    cases = {"sealed14-correlation-1": (OTHER, "t1", "t2_star", "qubit"),
             "sealed14-correlation-2": (CHIP, "readout_fidelity_0", "readout_fidelity_1", "qubit"),
             "sealed14-correlation-3": (CHIP, "bell_state_fidelity", "zx90_gate_fidelity", "coupling"),
             "sealed14-correlation-4": (OTHER, "t2_echo", "t2_star", "qubit")}
    for qid, (chip, a, b, kind) in cases.items():
        both = [d for d in state(sealed_db, chip, kind).values() if a in d and b in d]
        r = float(np.corrcoef([d[a] for d in both], [d[b] for d in both])[0, 1])
        expect = truths[qid].expects[0]
        assert math.isclose(expect.value, r, abs_tol=1e-9) and expect.signed and abs(r) >= 0.3, qid


def test_the_chip_comparisons_recount(truths, sealed_db):
    sides = (CHIP, OTHER)
    medians = {c: float(np.median(list(column(sealed_db, c, "t1").values()))) for c in sides}
    fails = {c: float(len(_failed(sealed_db, c, _weekend(sealed_db, c)))) for c in sides}
    freq = {c: 1000 * float(np.mean(list(column(sealed_db, c, "qubit_frequency").values()))) for c in sides}
    gate = {c: float(np.mean(list(column(sealed_db, c, "zx90_gate_time", "coupling").values()))) for c in sides}
    for number, figures in ((1, medians), (2, fails), (3, freq), (4, gate)):
        truth = truths[f"sealed14-cross-chip-{number}"]
        assert all(math.isclose(figures[c], e.value, abs_tol=1e-6) for c, e in zip(sides, truth.expects)), number
        assert named(truth.winner, max(figures, key=figures.__getitem__)), number
        assert named(truth.loser, min(figures, key=figures.__getitem__)), number


def test_the_value_shares_recount(truths, sealed_db):
    bell = np.array(list(column(sealed_db, CHIP, "bell_state_fidelity", "coupling").values()))
    assert is_value(100 * float(np.mean(bell > 95)), truths["sealed14-percentage-2"].expects[0])
    error = 100 - np.array(list(column(sealed_db, OTHER, "average_readout_fidelity").values()))
    assert is_value(100 * float(np.mean(error < 3)), truths["sealed14-percentage-3"].expects[0])
    assert is_value(100 * float(np.sum(error < 3)) / 144, truths["sealed14-percentage-3"].expects[0])


def test_the_task_shares_recount(truths, sealed_db):
    t1 = [r for r in rows(sealed_db, OTHER) if r["name"] == "CheckT1" and within(r, *_days(sealed_db, OTHER, 6))]
    share = 100 * sum(r["status"] == "failed" for r in t1) / len(t1)
    assert is_value(share, truths["sealed14-percentage-1"].expects[0])
    day = _days(sealed_db, CHIP, 2, 2)
    those = [r for r in rows(sealed_db, CHIP) if within(r, *day)]
    share = 100 * sum(r["status"] == "failed" for r in those) / len(those)
    assert is_value(share, truths["sealed14-percentage-4"].expects[0])


def test_the_windows_recount(truths, sealed_db):
    weekend = _failed(sealed_db, CHIP, _weekend(sealed_db, CHIP))
    assert weekend and is_value(len(weekend), truths["sealed14-window-count-1"].expects[0])
    recent = _failed(sealed_db, OTHER, _days(sealed_db, OTHER, 1))
    assert recent and is_value(len(recent), truths["sealed14-window-count-2"].expects[0])
    ramsey = _failed(sealed_db, OTHER, _days(sealed_db, OTHER, 3, 3), lambda r: r["name"] == "CheckRamsey")
    assert ramsey and is_value(len(ramsey), truths["sealed14-window-count-3"].expects[0])
    runs = [e for e in sealed_db["execution_history"].find({}) if e["chip_id"] == CHIP
            and within(e, *_days(sealed_db, CHIP, 2))]
    assert runs and is_value(len(runs), truths["sealed14-window-count-4"].expects[0])


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

    task, n = leader(OTHER, "name", _days(sealed_db, OTHER, 6), {})
    truth = truths["sealed14-fails-most-1"]
    assert truth.expects[0].value == n and named(truth.patterns[0], task)
    newest = last_day(sealed_db, CHIP)
    month = (newest.replace(day=1), newest)
    qubit, n = leader(CHIP, "qid", month, {"task_type": "qubit", "qid": {"$in": [str(q) for q in range(6, 17)]}})
    truth = truths["sealed14-fails-most-2"]
    assert truth.expects[0].value == n and named(truth.patterns[0], f"Q{int(qubit):02d}")
    run, n = leader(CHIP, "execution_id", _days(sealed_db, CHIP, 6), {})
    truth = truths["sealed14-fails-most-3"]
    assert truth.expects[0].value == n and named(truth.patterns[0], run)
    per_task = Counter(r["name"] for r in _failed(sealed_db, OTHER, _days(sealed_db, OTHER, 8))
                       if r["name"] != "CheckRamsey")
    (name, n), (_, second) = per_task.most_common(2)
    truth = truths["sealed14-fails-most-4"]
    assert n > second and truth.expects[0].value == n and named(truth.patterns[0], name)


def test_the_pairs_recount(truths, sealed_db):
    def value(chip: str, pair: str, name: str) -> float:
        return state(sealed_db, chip, "coupling")[pair][name]

    assert math.isclose(value(CHIP, "4-5", "zx90_gate_time") / 1000, truths["sealed14-qubit-pair-1"].expects[0].value)
    bell = column(sealed_db, OTHER, "bell_state_fidelity", "coupling")
    worst = min(bell, key=bell.__getitem__)
    truth = truths["sealed14-qubit-pair-2"]
    assert worst != "12-13" and is_value(bell["12-13"], truth.expects[0]) and is_value(bell[worst], truth.expects[1])
    assert named(truth.expects[1].near[0], _label(worst)) and named(truth.patterns[0], "no")
    assert is_value(value(CHIP, "30-31", "bell_state_fidelity"), truths["sealed14-qubit-pair-3"].expects[0])
    zx = {p: value(OTHER, p, "zx90_gate_fidelity") for p in ("100-101", "100-102")}
    truth = truths["sealed14-qubit-pair-4"]
    better, worse = sorted(zx, key=zx.__getitem__, reverse=True)
    assert named(truth.winner, _label(better)) and named(truth.loser, _label(worse))
    assert is_value(zx[better], truth.expects[0])


def test_the_spreads_recount(truths, sealed_db):
    t1 = 1000 * np.array(list(column(sealed_db, OTHER, "t1").values()))
    assert is_value(float(np.std(t1, ddof=1)), truths["sealed14-spread-1"].expects[0])
    assert is_value(float(np.std(t1)), truths["sealed14-spread-1"].expects[0])
    anh = np.array(list(column(sealed_db, CHIP, "anharmonicity").values()))
    assert math.isclose(float(np.ptp(anh)) / 1000, truths["sealed14-spread-2"].expects[0].value, abs_tol=1e-9)
    freq = np.array([v for q, v in column(sealed_db, CHIP, "qubit_frequency").items() if 20 <= int(q) <= 29])
    assert math.isclose(1000 * float(np.ptp(freq)), truths["sealed14-spread-3"].expects[0].value, abs_tol=1e-6)
    bell = np.array(list(column(sealed_db, OTHER, "bell_state_fidelity", "coupling").values()))
    assert is_value(float(np.std(bell, ddof=1)), truths["sealed14-spread-4"].expects[0])


def test_the_missing_things_are_missing(truths, sealed_db):
    assert sealed_db["qubit"].count_documents({"chip_id": OTHER}) == 144  # Q00-Q143: no Q150
    assert not [d for d in sealed_db["coupling"].find({"chip_id": CHIP}) if set(d["qid"].split("-")) == {"3", "40"}]
    assert not [r for r in rows(sealed_db, CHIP) if any("zz" in k.lower() for k in r["output_parameters"])]
    assert "64Qv4" not in sealed_db["chip"].distinct("chip_id")
    assert all(truths[f"sealed14-missing-thing-{i}"].no_values for i in range(1, 5))
