"""The twenty-first sealed set's truths recounted another way: the state documents' merged data (QDash keeps it equal
to the latest result) for values, whole-chip ``find()`` rows filtered by the Python date of ``start_at`` (or a
``$group`` pipeline) for windows, the runs sorted in Python for "the N most recent runs", numpy for the statistics,
instead of the set's helpers (latest rows sorted by time, ranged queries, ``statistics``).  Windows are written out by
hand from the newest day (five days are the newest day and the four before it, fourteen the newest day and the
thirteen before it).  Only question ids appear in failure messages: no test takes the questions' texts as an argument
(pytest prints a failing test's arguments); a phrase is looked up by ``_says``."""

from __future__ import annotations

import math
from collections import Counter
from datetime import date, timedelta

import numpy as np
import pytest

from tests.agent.recount import column, is_value, last_day, midnight_of, named, rows, state, within
from tests.public_eval import CHIP, OTHER
from tests.sealed.calendar import sealed_fixtures
from tests.sealed.heldout21 import build_heldout21

sealed_day, sealed_db, sealed_now = sealed_fixtures(build_heldout21)


@pytest.fixture(scope="module")
def truths(sealed_day):
    return {q.id: q.truth for q in sealed_day.questions}


def _says(sealed_day, qid: str, phrase: str) -> bool:
    """Whether question ``qid`` writes ``phrase`` (a helper, so a failure shows the id and never the question)."""
    return any(q.id == qid and phrase in q.text for q in sealed_day.questions)


def _label(key: str) -> str:
    return "-".join(f"Q{int(p):02d}" for p in key.split("-"))


def _last(db, chip: str, n: int) -> tuple[date, date]:
    last = last_day(db, chip)
    return last - timedelta(days=n - 1), last


def _failed(db, chip: str, window: tuple[date, date], keep=lambda r: True) -> list[dict]:  # noqa: ANN001
    return [r for r in rows(db, chip) if r["status"] == "failed" and within(r, *window) and keep(r)]


def _span(values: dict[str, float], first: int, last: int) -> dict[str, float]:
    return {q: v for q, v in values.items() if first <= int(q) <= last}


def _newest_runs(db, chip: str, n: int) -> set[str]:
    runs = sorted((e["start_at"], e["execution_id"]) for e in db["execution_history"].find({}) if e["chip_id"] == chip)
    assert runs[-n][0] != runs[-n - 1][0]
    return {run for _, run in runs[-n:]}


def _failed_in_runs(db, chip: str, n: int) -> list[dict]:
    newest = _newest_runs(db, chip, n)
    return [r for r in rows(db, chip) if r["execution_id"] in newest and r["status"] == "failed"]


def test_the_rankings_recount(truths, sealed_db):
    cases = {"sealed21-top-N-1": (column(sealed_db, OTHER, "t2_echo"), 3, False),
             "sealed21-top-N-2": (column(sealed_db, CHIP, "readout_fidelity_1"), 3, True),
             "sealed21-top-N-3": (column(sealed_db, CHIP, "bell_state_fidelity", "coupling"), 3, False),
             "sealed21-top-N-4": (_span(column(sealed_db, OTHER, "t1"), 72, 95), 3, True)}
    for qid, (values, n, high) in cases.items():
        ranked = sorted(values.items(), key=lambda kv: -kv[1] if high else kv[1])[:n]
        expects = truths[qid].expects
        assert len(expects) == n, qid
        assert [e.value for e in expects] == pytest.approx([v for _, v in ranked]), qid
        assert all(named(e.near[0], _label(k)) for e, (k, _) in zip(expects, ranked)), qid
    assert all(72 <= int(k) <= 95 for k in _span(column(sealed_db, OTHER, "t1"), 72, 95))


def test_the_compound_filters_recount(truths, sealed_db):
    rules = {
        "sealed21-compound-filter-1": (CHIP, lambda q, d: d.get("t1", 0) > 60 and 0 < d.get("t2_star", 0) < 30),
        "sealed21-compound-filter-2": (OTHER, lambda q, d: d.get("t2_echo", 0) > 100
                                       and 0 < d.get("readout_fidelity_1", 0) < 88),
        "sealed21-compound-filter-3": (CHIP, lambda q, d: 32 <= int(q) <= 63 and d.get("t2_echo", 0) > 90
                                       and d.get("qubit_frequency", 0) > 5.1),
        "sealed21-compound-filter-4": (OTHER, lambda q, d: d.get("t1", 0) >= 110
                                       and d.get("average_readout_fidelity", 0) >= 95),
    }
    for qid, (chip, keep) in rules.items():
        kept = sorted(q for q, data in state(sealed_db, chip).items() if keep(q, data))
        truth = truths[qid]
        assert kept and truth.expects[0].value == len(kept) and len(truth.patterns) == len(kept), qid
        assert all(any(named(p, f"Q{int(q):02d}") for p in truth.patterns) for q in kept), qid


def test_the_correlations_recount(truths, sealed_db):
    cases = {"sealed21-correlation-1": (CHIP, "t1", "t2_star", "qubit"),
             "sealed21-correlation-2": (OTHER, "readout_fidelity_0", "average_readout_fidelity", "qubit"),
             "sealed21-correlation-3": (OTHER, "bell_state_fidelity", "zx90_depolarizing_rate", "coupling"),
             "sealed21-correlation-4": (CHIP, "readout_fidelity_0", "readout_fidelity_1", "qubit")}
    for qid, (chip, a, b, kind) in cases.items():
        both = [d for d in state(sealed_db, chip, kind).values() if a in d and b in d]
        r = float(np.corrcoef([d[a] for d in both], [d[b] for d in both])[0, 1])
        expect = truths[qid].expects[0]
        assert math.isclose(expect.value, r, abs_tol=1e-9) and expect.signed and abs(r) >= 0.3, qid
    assert truths["sealed21-correlation-3"].expects[0].value < 0


def test_the_chip_comparisons_recount(truths, sealed_day, sealed_db):
    sides = (CHIP, OTHER)
    echo = {c: float(np.median(list(column(sealed_db, c, "t2_echo").values()))) for c in sides}
    fails = {c: float(len(_failed(sealed_db, c, _last(sealed_db, c, 5)))) for c in sides}
    zx = {c: float(np.mean(list(column(sealed_db, c, "zx90_gate_fidelity", "coupling").values()))) for c in sides}
    coupled = {c: float(len(_failed(sealed_db, c, _last(sealed_db, c, 14), lambda r: r["task_type"] == "coupling")))
               for c in sides}
    for number, figures in ((1, echo), (2, fails), (3, zx), (4, coupled)):
        truth = truths[f"sealed21-cross-chip-{number}"]
        assert all(math.isclose(figures[c], e.value, abs_tol=1e-6) for c, e in zip(sides, truth.expects)), number
        assert named(truth.winner, max(figures, key=figures.__getitem__)), number
        assert named(truth.loser, min(figures, key=figures.__getitem__)), number
    assert _says(sealed_day, "sealed21-cross-chip-2", "last five days")
    assert _says(sealed_day, "sealed21-cross-chip-4", "fourteen-day stretch ending today")


def test_the_value_shares_recount(truths, sealed_db):
    t1 = np.array(list(column(sealed_db, CHIP, "t1").values()))
    assert is_value(100 * float(np.mean(t1 > 50)), truths["sealed21-percentage-1"].expects[0])
    assert is_value(100 * float(np.sum(t1 > 50)) / 64, truths["sealed21-percentage-1"].expects[0])
    zx = np.array(list(column(sealed_db, CHIP, "zx90_gate_fidelity", "coupling").values()))
    assert is_value(100 * float(np.mean(zx > 98.5)), truths["sealed21-percentage-2"].expects[0])
    echo = np.array(list(_span(column(sealed_db, OTHER, "t2_echo"), 72, 143).values()))
    assert is_value(100 * float(np.mean(echo > 60)), truths["sealed21-percentage-4"].expects[0])
    assert is_value(100 * float(np.sum(echo > 60)) / 72, truths["sealed21-percentage-4"].expects[0])


def test_the_task_share_recounts(truths, sealed_db):
    window = _last(sealed_db, OTHER, 12)
    tasks = [r for r in rows(sealed_db, OTHER) if within(r, *window)]
    share = 100 * sum(r["status"] == "failed" for r in tasks) / len(tasks)
    assert is_value(share, truths["sealed21-percentage-3"].expects[0])


def test_the_windows_recount(truths, sealed_day, sealed_db):
    fails = _failed(sealed_db, OTHER, _last(sealed_db, OTHER, 5))
    assert fails and is_value(len(fails), truths["sealed21-window-count-1"].expects[0])
    assert _says(sealed_day, "sealed21-window-count-1", "--last-days 5")
    runs = [e for e in sealed_db["execution_history"].find({}) if e["chip_id"] == OTHER
            and within(e, *_last(sealed_db, OTHER, 12))]
    assert runs and is_value(len(runs), truths["sealed21-window-count-2"].expects[0])
    ramsey = _failed(sealed_db, CHIP, _last(sealed_db, CHIP, 14), lambda r: r["name"] == "CheckRamsey")
    assert ramsey and is_value(len(ramsey), truths["sealed21-window-count-3"].expects[0])
    six = _failed_in_runs(sealed_db, CHIP, 6)
    assert six and is_value(len(six), truths["sealed21-window-count-4"].expects[0])


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

    cases = {"sealed21-fails-most-1": (OTHER, _last(sealed_db, OTHER, 7), {}),
             "sealed21-fails-most-2": (CHIP, _last(sealed_db, CHIP, 12), {"task_type": "coupling"}),
             "sealed21-fails-most-3": (OTHER, _last(sealed_db, OTHER, 5), {"task_type": "coupling"})}
    for qid, (chip, window, match) in cases.items():
        name, n = leader(chip, window, match)
        truth = truths[qid]
        assert truth.expects[0].value == n and named(truth.patterns[0], name), qid
    counts = Counter(r["name"] for r in _failed_in_runs(sealed_db, CHIP, 7))
    (name, n), (_, second) = counts.most_common(2)
    truth = truths["sealed21-fails-most-4"]
    assert n > second and truth.expects[0].value == n and named(truth.patterns[0], name)


def test_the_pairs_recount(truths, sealed_db):
    def value(chip: str, pair: str, name: str) -> float:
        return state(sealed_db, chip, "coupling")[pair][name]

    truth = truths["sealed21-qubit-pair-1"]
    assert is_value(value(CHIP, "12-13", "bell_state_fidelity"), truth.expects[0])
    assert named(truth.expects[0].near[0], "Q12–Q13") and not named(truth.expects[0].near[0], "Q12-Q130")
    sides = {p: value(OTHER, p, "zx90_gate_fidelity") for p in ("4-5", "4-6")}
    better, worse = sorted(sides, key=sides.__getitem__, reverse=True)
    truth = truths["sealed21-qubit-pair-2"]
    assert named(truth.winner, _label(better)) and named(truth.loser, _label(worse))
    assert is_value(sides[better], truth.expects[0])
    truth = truths["sealed21-qubit-pair-3"]
    assert is_value(value(CHIP, "8-9", "zx90_gate_time"), truth.expects[0])
    assert named(truth.expects[0].near[0], "Q09-Q08") and not named(truth.expects[0].near[0], "Q8-Q90")
    truth = truths["sealed21-qubit-pair-4"]
    assert is_value(value(OTHER, "100-101", "zx90_gate_fidelity"), truth.expects[0])
    assert named(truth.expects[0].near[0], "Q100–Q101") and not named(truth.expects[0].near[0], "Q100-Q1010")


def test_the_spreads_recount(truths, sealed_db):
    echo = np.array(list(column(sealed_db, CHIP, "t2_echo").values()))
    assert is_value(float(np.std(echo, ddof=1)), truths["sealed21-spread-1"].expects[0])
    assert is_value(float(np.std(echo)), truths["sealed21-spread-1"].expects[0])
    freq = 1000 * np.array(list(column(sealed_db, OTHER, "qubit_frequency").values()))
    assert math.isclose(float(np.ptp(freq)), truths["sealed21-spread-2"].expects[0].value, abs_tol=1e-6)
    readout = np.array(list(column(sealed_db, CHIP, "average_readout_fidelity").values()))
    assert math.isclose(float(np.ptp(readout)), truths["sealed21-spread-3"].expects[0].value, abs_tol=1e-6)
    t1 = np.array(list(_span(column(sealed_db, OTHER, "t1"), 8, 23).values()))
    assert is_value(float(np.std(t1, ddof=1)), truths["sealed21-spread-4"].expects[0])


def test_the_missing_things_are_missing(truths, sealed_db):
    assert sealed_db["qubit"].count_documents({"chip_id": CHIP}) == 64  # Q00-Q63: no Q70
    assert "16Qv1" not in sealed_db["chip"].distinct("chip_id")
    assert not [r for r in rows(sealed_db, CHIP)
                if any(w in k.lower() for k in r["output_parameters"] for w in ("therm", "population", "temperature"))]
    assert not [d for d in sealed_db["coupling"].find({"chip_id": OTHER}) if set(d["qid"].split("-")) == {"3", "90"}]
    assert all(truths[f"sealed21-missing-thing-{i}"].no_values for i in range(1, 5))
