"""The ninth sealed set's truths recounted another way: the state documents' merged data (QDash keeps it equal to the
latest result) for values, whole-chip ``find()`` rows filtered by the Python date of ``start_at`` (or an aggregate
pipeline) for windows, numpy for the statistics, instead of the set's helpers (latest rows sorted by time, counted
ranges, ``statistics``).  Every shape is recounted; only question ids appear in failure messages."""

from __future__ import annotations

import math
from collections import Counter
from datetime import timedelta

import numpy as np
import pytest

from tests.agent.recount import column, is_value, last_day, midnight_of, named, rows, state, within
from tests.public_eval import CHIP, OTHER
from tests.sealed.heldout9 import build_heldout9
from tests.sealed.calendar import sealed_fixtures

sealed_day, sealed_db, sealed_now = sealed_fixtures(build_heldout9)


@pytest.fixture(scope="module")
def truths(sealed_day):
    return {q.id: q.truth for q in sealed_day.questions}


def test_the_rankings_recount(truths, sealed_db):
    cases = {"sealed9-top-N-1": (OTHER, "t1", "qubit", 5, True), "sealed9-top-N-2": (CHIP, "bell_state_fidelity",
                                                                                     "coupling", 3, False),
             "sealed9-top-N-3": (CHIP, "anharmonicity", "qubit", 3, False),
             "sealed9-top-N-4": (OTHER, "readout_fidelity_0", "qubit", 4, False)}
    for qid, (chip, name, kind, n, high) in cases.items():
        ranked = sorted(column(sealed_db, chip, name, kind).items(), key=lambda kv: -kv[1] if high else kv[1])[:n]
        expects = truths[qid].expects
        assert [e.value for e in expects] == pytest.approx([v for _, v in ranked]), qid
        labels = [f"Q{int(k.split('-')[0]):02d}-Q{int(k.split('-')[1]):02d}" if "-" in k else f"Q{int(k):02d}"
                  for k, _ in ranked]
        assert all(named(e.near[0], label) for e, label in zip(expects, labels)), qid


def test_the_compound_filters_recount(truths, sealed_db):
    rules = {
        "sealed9-compound-filter-1": (CHIP, lambda d: 0 < d.get("qubit_frequency", 0) * 1000 < 4800
                                      and d.get("t1", 0) > 70),
        "sealed9-compound-filter-2": (OTHER, lambda d: 0 < d.get("t2_echo", 99) < 40
                                      and d.get("average_readout_fidelity", 0) > 95),
        "sealed9-compound-filter-3": (CHIP, lambda d: 0 < d.get("x90_gate_fidelity", 100) < 99.54
                                      and d.get("t2_star", 0) > 25),
        "sealed9-compound-filter-4": (OTHER, lambda d: d.get("readout_frequency", 0) > 7.1
                                      and d.get("anharmonicity", 0) < -300),
    }
    for qid, (chip, keep) in rules.items():
        kept = sorted(q for q, data in state(sealed_db, chip).items() if keep(data))
        truth = truths[qid]
        assert truth.expects[0].value == len(kept) and len(truth.patterns) == len(kept), qid
        assert all(any(named(p, f"Q{int(q):02d}") for p in truth.patterns) for q in kept), qid


def test_the_value_shares_recount(truths, sealed_db):
    zx = np.array(list(column(sealed_db, CHIP, "zx90_gate_fidelity", "coupling").values()))
    assert is_value(100 * float(np.mean(zx >= 97)), truths["sealed9-percentage-1"].expects[0])
    star = np.array(list(column(sealed_db, OTHER, "t2_star").values()))
    assert is_value(100 * float(np.mean(star > 35)), truths["sealed9-percentage-2"].expects[0])


def test_the_task_shares_recount(truths, sealed_db):
    last = last_day(sealed_db, CHIP)
    recent = [r for r in rows(sealed_db, CHIP) if within(r, last - timedelta(days=9), last)]
    assert is_value(100 * sum(r["status"] == "failed" for r in recent) / len(recent),
               truths["sealed9-percentage-3"].expects[0])
    last = last_day(sealed_db, OTHER)
    bell = [r for r in rows(sealed_db, OTHER) if r["name"] == "CheckBellStateTomography"
            and within(r, last - timedelta(days=13), last)]
    assert is_value(100 * sum(r["status"] == "failed" for r in bell) / len(bell), truths["sealed9-percentage-4"].expects[0])


def test_the_spreads_recount(truths, sealed_db):
    echo = np.array(list(column(sealed_db, CHIP, "t2_echo").values()))
    assert is_value(float(np.std(echo, ddof=1)), truths["sealed9-spread-1"].expects[0])
    freq = np.array(list(column(sealed_db, OTHER, "qubit_frequency").values()))
    assert is_value(1000 * float(np.ptp(freq)), truths["sealed9-spread-2"].expects[0])
    ro = np.array(list(column(sealed_db, CHIP, "average_readout_fidelity").values()))
    q1, q3 = np.percentile(ro, [25, 75])
    assert is_value(float(q3 - q1), truths["sealed9-spread-3"].expects[0])  # numpy's linear rule: the inclusive reading
    gate = np.array(list(column(sealed_db, OTHER, "zx90_gate_time", "coupling").values()))
    assert is_value(float(np.std(gate)), truths["sealed9-spread-4"].expects[0])  # the population reading


def test_the_correlations_recount(truths, sealed_db):
    cases = {"sealed9-correlation-1": (CHIP, "t2_echo", "t2_star", "qubit"),
             "sealed9-correlation-2": (OTHER, "zx90_gate_fidelity", "bell_state_fidelity", "coupling"),
             "sealed9-correlation-3": (CHIP, "bell_state_fidelity", "zx90_depolarizing_rate", "coupling"),
             "sealed9-correlation-4": (OTHER, "readout_fidelity_0", "readout_fidelity_1", "qubit")}
    for qid, (chip, a, b, kind) in cases.items():
        both = [d for d in state(sealed_db, chip, kind).values() if a in d and b in d]
        r = float(np.corrcoef([d[a] for d in both], [d[b] for d in both])[0, 1])
        expect = truths[qid].expects[0]
        assert math.isclose(expect.value, r, abs_tol=1e-9) and expect.signed, qid


def test_the_chip_comparisons_recount(truths, sealed_db):
    means = {c: float(np.mean(list(column(sealed_db, c, "t2_star").values()))) for c in (CHIP, OTHER)}
    medians = {c: float(np.median(list(column(sealed_db, c, "average_readout_fidelity").values()))) for c in (CHIP, OTHER)}
    best = {c: max(column(sealed_db, c, "zx90_gate_fidelity", "coupling").values()) for c in (CHIP, OTHER)}
    fails = {}
    for c in (CHIP, OTHER):
        last = last_day(sealed_db, c)
        fails[c] = sum(1 for r in rows(sealed_db, c)
                       if r["status"] == "failed" and within(r, last - timedelta(days=3), last))
    for number, figures in ((1, means), (2, medians), (3, fails), (4, best)):
        truth = truths[f"sealed9-cross-chip-{number}"]
        assert all(is_value(figures[c], e) for c, e in zip((CHIP, OTHER), truth.expects)), number
        assert named(truth.winner, max(figures, key=figures.__getitem__)), number


def test_the_pairs_recount(truths, sealed_db):
    def value(chip: str, pair: str, name: str) -> float:
        return state(sealed_db, chip, "coupling")[pair][name]

    assert is_value(value(OTHER, "20-21", "bell_state_fidelity"), truths["sealed9-qubit-pair-1"].expects[0])
    assert is_value(value(CHIP, "10-11", "cr_amplitude"), truths["sealed9-qubit-pair-2"].expects[0])
    times = {p: value(CHIP, p, "zx90_gate_time") for p in ("17-19", "18-19")}
    truth = truths["sealed9-qubit-pair-3"]
    longer = max(times, key=times.__getitem__)
    assert named(truth.winner, longer) and is_value(times[longer], truth.expects[0])
    truth = truths["sealed9-qubit-pair-4"]
    x90 = column(sealed_db, OTHER, "x90_gate_fidelity")
    assert [e.value for e in truth.expects] == pytest.approx(
        [value(OTHER, "12-13", "zx90_gate_fidelity"), x90["12"], x90["13"]])
    assert named(truth.winner, "Q12" if x90["12"] > x90["13"] else "Q13")


def test_the_fail_leaders_recount(truths, sealed_db):
    """An aggregate pipeline groups the failures (the set's helpers count ``find()`` rows)."""
    def leader(chip: str, key: str, match: dict) -> tuple[str, int]:
        pipeline = [{"$match": {"chip_id": chip, "status": "failed", **match}},
                    {"$group": {"_id": f"${key}", "n": {"$sum": 1}}}]
        counts = sorted(((d["n"], d["_id"]) for d in sealed_db["task_result_history"].aggregate(pipeline)), reverse=True)
        assert counts[0][0] > counts[1][0]
        return counts[0][1], counts[0][0]

    last = last_day(sealed_db, CHIP)
    week = {"$gte": midnight_of(last - timedelta(days=6)), "$lt": midnight_of(last + timedelta(days=1))}
    task, n = leader(CHIP, "name", {"start_at": week})
    truth = truths["sealed9-fails-most-1"]
    assert truth.expects[0].value == n and named(truth.patterns[0], task)
    inactive = [d["qid"] for d in sealed_db["qubit"].find({"chip_id": CHIP, "status": "inactive"})]
    qubit, n = leader(CHIP, "qid", {"task_type": "qubit", "qid": {"$nin": inactive}})
    truth = truths["sealed9-fails-most-2"]
    assert truth.expects[0].value == n and named(truth.patterns[0], f"Q{int(qubit):02d}")
    fortnight = {"$gte": midnight_of(last - timedelta(days=13)), "$lt": midnight_of(last + timedelta(days=1))}
    run, n = leader(CHIP, "execution_id", {"start_at": fortnight})
    truth = truths["sealed9-fails-most-3"]
    assert truth.expects[0].value == n and named(truth.patterns[0], run)
    per_pair = Counter("-".join(sorted(r["qid"].split("-"), key=int)) for r in rows(sealed_db, OTHER)
                       if r["status"] == "failed" and r["task_type"] == "coupling")
    (pair, n), (_, second) = per_pair.most_common(2)
    truth = truths["sealed9-fails-most-4"]
    a, b = pair.split("-")
    assert n > second and truth.expects[0].value == n and named(truth.patterns[0], f"Q{int(a):02d}-Q{int(b):02d}")


def test_the_windows_recount(truths, sealed_db):
    last = last_day(sealed_db, CHIP)
    wednesday = last - timedelta(days=(last.weekday() - 2) % 7)
    failed = [r for r in rows(sealed_db, CHIP) if r["status"] == "failed" and within(r, wednesday, last)]
    assert len(failed) >= 1 and is_value(len(failed), truths["sealed9-window-count-1"].expects[0])
    other = last_day(sealed_db, OTHER)
    runs = [e for e in sealed_db["execution_history"].find({}) if e["chip_id"] == OTHER
            and within(e, other - timedelta(days=13), other)]
    assert is_value(len(runs), truths["sealed9-window-count-2"].expects[0])
    excluded = [r for r in rows(sealed_db, CHIP) if r["excluded"] and within(r, last - timedelta(days=9), last)]
    assert len(excluded) >= 1 and is_value(len(excluded), truths["sealed9-window-count-3"].expects[0])
    zx = [r for r in rows(sealed_db, OTHER) if r["name"] == "ZX90InterleavedRandomizedBenchmarking"
          and r["status"] == "failed" and within(r, other - timedelta(days=11), other - timedelta(days=5))]
    assert len(zx) >= 1 and is_value(len(zx), truths["sealed9-window-count-4"].expects[0])


def test_the_missing_things_are_missing(truths, sealed_db):
    assert sealed_db["qubit"].count_documents({"chip_id": CHIP}) == 64  # Q00-Q63: no q80
    assert not [d for d in sealed_db["coupling"].find({"chip_id": OTHER}) if set(d["qid"].split("-")) == {"3", "40"}]
    inactive = max((d["qid"] for d in sealed_db["qubit"].find({"chip_id": CHIP}) if d["status"] == "inactive"), key=int)
    assert not [r for r in rows(sealed_db, CHIP) if r["qid"] == inactive and r["status"] == "completed"]
    assert not [r for r in rows(sealed_db, OTHER) if "x180_gate_fidelity" in r["output_parameters"]]
    assert all(truths[f"sealed9-missing-thing-{i}"].no_values for i in range(1, 5))
