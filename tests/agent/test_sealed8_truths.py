"""The eighth sealed set's truths recounted another way: whole-chip ``find()`` rows filtered and grouped in plain Python
(state documents for latest values, execution-id days for windows) instead of the set's own helpers.  At least one
truth per shape that has a number; the truths every set shares are checked in ``test_sealed_truths.py``.  Only
question ids appear in failure messages."""

from __future__ import annotations

import math
import re
import statistics
from collections import Counter
from datetime import datetime, timedelta

import pytest

from tests.public_eval import CHIP, OTHER
from tests.sealed.heldout8 import build_heldout8
from tests.sealed.calendar import sealed_fixtures


sealed_day, sealed_db, sealed_now = sealed_fixtures(build_heldout8)


@pytest.fixture(scope="module")
def truths(sealed_day):
    return {q.id: q.truth for q in sealed_day.questions}


def state(db, chip: str, kind: str = "qubit") -> dict[str, dict[str, float]]:
    """Each state document's merged data (QDash keeps it equal to the latest result), only the filled direction of a
    coupling, a stored 0 dropped, display units applied."""
    def shown(name: str, raw: float) -> float:
        return raw * (100.0 if "fidelity" in name else 1000.0 if name == "anharmonicity" else 1.0)

    return {d["qid"]: {k: shown(k, p["value"]) for k, p in d["data"].items() if p.get("value")}
            for d in db[kind].find({"chip_id": chip}) if d.get("data")}


def column(db, chip: str, name: str, kind: str = "qubit") -> dict[str, float]:
    return {q: data[name] for q, data in state(db, chip, kind).items() if name in data}


def day_of(row) -> datetime:
    return datetime.strptime(row["execution_id"][:8], "%Y%m%d")


def last_run_day(db, chip: str) -> datetime:
    return max(day_of(e) for e in db["execution_history"].find({"chip_id": chip}))


def rows(db, chip: str) -> list[dict]:
    return list(db["task_result_history"].find({"chip_id": chip}))


def _is(value: float, expect) -> bool:
    return any(math.isclose(value, v, rel_tol=1e-9, abs_tol=1e-9) for v in (expect.value, *expect.alternatives))


def _named(pattern: str, label: str) -> bool:
    return re.search(pattern, label) is not None


def test_the_rankings_recount(truths, sealed_db):
    echo = sorted(column(sealed_db, CHIP, "t2_echo").items(), key=lambda kv: kv[1])[-4:][::-1]
    expects = truths["sealed8-top-N-1"].expects
    assert [e.value for e in expects] == pytest.approx([v for _, v in echo])
    assert all(_named(e.near[0], f"Q{int(q):02d}") for e, (q, _) in zip(expects, echo))
    zx = sorted(column(sealed_db, CHIP, "zx90_gate_fidelity", "coupling").items(), key=lambda kv: -kv[1])[:3]
    expects = truths["sealed8-top-N-3"].expects
    assert [e.value for e in expects] == pytest.approx([v for _, v in zx])
    assert all(_named(e.near[0], cid) for e, (cid, _) in zip(expects, zx))


def test_the_compound_filters_recount(truths, sealed_db):
    rules = {
        "sealed8-compound-filter-1": (CHIP, lambda d: d.get("t1", 0) > 80 and 0 < d.get("average_readout_fidelity",
                                                                                        100) < 93),
        "sealed8-compound-filter-2": (OTHER, lambda d: 0 < d.get("t2_star", 99) < 15
                                      and d.get("qubit_frequency", 0) * 1000 > 5100),
        "sealed8-compound-filter-3": (CHIP, lambda d: d.get("x90_gate_fidelity", 0) >= 99.8
                                      and 0 < d.get("t2_echo", 99) < 60),
        "sealed8-compound-filter-4": (OTHER, lambda d: d.get("anharmonicity", 0) < -300 and d.get("t1", 0) / 1000 > 0.09),
    }
    for qid, (chip, keep) in rules.items():
        kept = [q for q, data in state(sealed_db, chip).items() if keep(data)]
        truth = truths[qid]
        assert truth.expects[0].value == len(kept), qid
        assert all(any(_named(p, f"Q{int(q):02d}") for p in truth.patterns) for q in kept), qid


def test_the_windows_recount(truths, sealed_db):
    last = last_run_day(sealed_db, CHIP)
    failed = [r for r in rows(sealed_db, CHIP) if r["status"] == "failed" and day_of(r) > last - timedelta(days=3)]
    assert len(failed) >= 1 and _is(len(failed), truths["sealed8-window-count-1"].expects[0])
    other = last_run_day(sealed_db, OTHER)
    runs = [e for e in sealed_db["execution_history"].find({}) if e["chip_id"] == OTHER
            and day_of(e) > other - timedelta(days=14)]
    assert _is(len(runs), truths["sealed8-window-count-2"].expects[0])
    nan = [r for r in rows(sealed_db, OTHER) if r["name"] == "CheckT1" and r["status"] == "completed"
           and r["output_parameters"]["t1"]["value"] == 0 and day_of(r) > other - timedelta(days=21)]
    assert len(nan) >= 1 and _is(len(nan), truths["sealed8-window-count-4"].expects[0])


def test_the_fail_leaders_recount(truths, sealed_db):
    dead = {d["qid"] for d in sealed_db["qubit"].find({"chip_id": CHIP}) if d["status"] == "inactive"}
    per_qubit = Counter(r["qid"] for r in rows(sealed_db, CHIP)
                        if r["status"] == "failed" and r["task_type"] == "qubit" and r["qid"] not in dead)
    (qubit, n), (_, second) = per_qubit.most_common(2)
    truth = truths["sealed8-fails-most-1"]
    assert n > second and truth.expects[0].value == n and _named(truth.patterns[0], f"Q{int(qubit):02d}")
    per_run = Counter(r["execution_id"] for r in rows(sealed_db, OTHER) if r["status"] == "failed")
    (run, n), (_, second) = per_run.most_common(2)
    truth = truths["sealed8-fails-most-4"]
    assert n > second and truth.expects[0].value == n and _named(truth.patterns[0], run)


def test_the_chip_comparisons_recount(truths, sealed_db):
    medians = {c: statistics.median(column(sealed_db, c, "t1").values()) for c in (CHIP, OTHER)}
    truth = truths["sealed8-cross-chip-1"]
    assert [e.value for e in truth.expects] == pytest.approx([medians[CHIP], medians[OTHER]])
    assert _named(truth.winner, max(medians, key=medians.__getitem__))
    week = {c: sum(1 for r in rows(sealed_db, c) if r["status"] == "failed"
                   and day_of(r) > last_run_day(sealed_db, c) - timedelta(days=7)) for c in (CHIP, OTHER)}
    assert [e.value for e in truths["sealed8-cross-chip-3"].expects] == [week[CHIP], week[OTHER]]


def test_the_shares_recount(truths, sealed_db):
    t1 = column(sealed_db, CHIP, "t1")
    assert _is(100 * sum(v >= 50 for v in t1.values()) / len(t1), truths["sealed8-percentage-1"].expects[0])
    last = last_run_day(sealed_db, OTHER)
    recent = [r for r in rows(sealed_db, OTHER) if day_of(r) > last - timedelta(days=5)]
    assert _is(100 * sum(r["status"] == "failed" for r in recent) / len(recent),
               truths["sealed8-percentage-2"].expects[0])


def test_the_spreads_recount(truths, sealed_db):
    t1 = list(column(sealed_db, OTHER, "t1").values())
    mean = sum(t1) / len(t1)
    assert math.isclose(truths["sealed8-spread-1"].expects[0].value,
                        math.sqrt(sum((v - mean) ** 2 for v in t1) / (len(t1) - 1)))
    ro = list(column(sealed_db, CHIP, "readout_frequency").values())
    assert math.isclose(truths["sealed8-spread-3"].expects[0].value, 1000 * (max(ro) - min(ro)))


def test_the_correlations_recount(truths, sealed_db):
    data = state(sealed_db, OTHER)
    both = [d for d in data.values() if "t1" in d and "t2_star" in d]
    xs, ys = [d["t1"] for d in both], [d["t2_star"] for d in both]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    r = (sum((x - mx) * (y - my) for x, y in zip(xs, ys))
         / math.sqrt(sum((x - mx) ** 2 for x in xs) * sum((y - my) ** 2 for y in ys)))
    assert math.isclose(truths["sealed8-correlation-1"].expects[0].value, r)
    assert truths["sealed8-correlation-4"].expects[0].value < -0.5 < 0.5 < r


def test_the_missing_things_are_missing(truths, sealed_db):
    assert sealed_db["qubit"].count_documents({"chip_id": CHIP}) == 64  # no qubit 71 on it
    assert not [d for d in sealed_db["coupling"].find({"chip_id": OTHER}) if set(d["qid"].split("-")) == {"0", "100"}]
    assert all(truths[f"sealed8-missing-thing-{i}"].no_values for i in range(1, 5))


def test_the_pairs_recount(truths, sealed_db):
    """Pair values read from the coupling state documents (the merged latest value), not from task results."""
    def value(chip: str, a: int, b: int, name: str) -> float:
        found = [d["data"][name]["value"] for d in sealed_db["coupling"].find({"chip_id": chip})
                 if d["qid"] in (f"{a}-{b}", f"{b}-{a}") and name in d.get("data", {})]
        assert len(found) == 1
        return found[0]

    assert math.isclose(truths["sealed8-qubit-pair-1"].expects[0].value, 100 * value(CHIP, 12, 13, "zx90_gate_fidelity"))
    assert math.isclose(truths["sealed8-qubit-pair-3"].expects[0].value, value(CHIP, 20, 21, "zx90_gate_time"))
    truth = truths["sealed8-qubit-pair-4"]
    first, second = value(OTHER, 16, 17, "zx90_gate_fidelity"), value(OTHER, 16, 18, "zx90_gate_fidelity")
    assert _named(truth.winner, "16-17" if first > second else "16-18")
