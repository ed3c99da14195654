"""The second sealed held-out set: the same ten shapes as ``heldout.py``, in other wordings, metrics, chips and limits.

Sealed like the first: product code never imports or reads this file, no 4-word sequence of a question here may
appear in product code, prompts, skills or tool descriptions (``tests/agent/test_sealed_eval.py``), and it is run
once, at the end of a piece of work.  Every truth is a pymongo query written here on the raw demo documents.

Semantics shared by every truth below:
- *latest value* of a qubit (or coupling): its newest (``start_at``) ``task_result_history`` document with
  ``status == "completed"``, ``excluded != True`` and the output parameter present; a value of 0 or NaN there means
  the qubit has no value (no fall-back to an older result).
- display units: T1, T2 echo, T2 star in μs as stored; qubit frequency in GHz as stored (× 1000 for MHz); every
  fidelity stored as a fraction and shown in % (× 100).
- time windows end at ``now`` (the moment the demo's data ends, i.e. the eval's start) and start ``days`` before it;
  a task belongs to the window by its own ``start_at``.  The demo's daily runs start about 1.5 h before ``now``'s time
  of day and end before it, so a window boundary never cuts a run: counting the tasks of the runs started in the
  window gives the same number (``window_counts`` asserts it).  Taking "last N days" as today plus the N − 1 calendar
  days before it gives the same number too, except when ``now`` falls early in the day: then both are accepted.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from datetime import datetime, timedelta

from tests.eval_score import Expect, Truth
from tests.public_eval import CHIP, OTHER, Question

SPLIT = "held-out-2"
_US = ("t1", "t2_echo", "t2_star")
_PCT_TOL, _US_TOL, _GHZ_TOL = 0.0051, 0.051, 0.0011  # display rounding: 2 decimals in %, 1 in μs, 3 in GHz


def _q(shape: str, i: int, text: str, truth: Truth) -> Question:
    return Question(f"sealed2-{shape.replace(' ', '-')}-{i}", shape, text, truth, split=SPLIT)


def _display(name: str, raw: float) -> float:
    return raw if name in _US or name == "qubit_frequency" else raw * 100.0


def _tol(name: str) -> float:
    return _US_TOL if name in _US else _GHZ_TOL if name == "qubit_frequency" else _PCT_TOL


def latest(db, chip: str, name: str, kind: str = "qubit") -> dict[str, float]:
    """qid → latest value in display units (qubits, or couplings with ``kind="coupling"``); no value → left out."""
    newest: dict[str, dict] = {}
    for doc in db["task_result_history"].find({"chip_id": chip, "task_type": kind, "status": "completed",
                                               "excluded": {"$ne": True},
                                               f"output_parameters.{name}": {"$exists": True}}):
        if doc["qid"] not in newest or doc["start_at"] > newest[doc["qid"]]["start_at"]:
            newest[doc["qid"]] = doc
    out = {}
    for qid, doc in newest.items():
        raw = doc["output_parameters"][name]["value"]
        if isinstance(raw, (int, float)) and math.isfinite(raw) and raw != 0:
            out[qid] = _display(name, float(raw))
    return out


def qubit_count(db, chip: str) -> int:
    return db["qubit"].count_documents({"chip_id": chip})


def qlabel(qid: str) -> str:
    """A qubit as an answer may write it: Q7, Q07, q07, qubit 7."""
    return rf"(?:Q0*{int(qid)}|qubit\s*#?\s*0*{int(qid)})(?!\d)"


def clabel(qid: str) -> str:
    """A coupling "a-b" as an answer may write it: 5-6, Q5-Q6, Q05–Q06, 5→6 (stored direction only)."""
    a, b = (int(x) for x in qid.split("-"))
    return rf"(?<!\d)Q?0*{a}\s*[-–→]\s*Q?0*{b}(?!\d)"


def _apart(values: list[float], limit: float, tol: float) -> None:
    """No value sits within display rounding of a threshold (``>`` and ``>=`` read the same)."""
    near = [v for v in values if abs(v - limit) <= tol]
    assert not near, f"values {near} on the threshold {limit} make the truth ambiguous"


def compound(db) -> list[Question]:
    """How many qubits meet two conditions at once, on their latest values; a qubit without a value of either metric
    is not counted.  Conditions as written in each row (strict; ``_apart`` checks no value is on a threshold)."""
    rows = [
        # 144Qv2: t2_star > 40 μs and qubit_frequency < 5.0 GHz
        (OTHER, ("t2_star", ">", 40.0), ("qubit_frequency", "<", 5.0),
         "{chip}: count of qubits where T2* is above 40 us and the frequency is under 5 GHz?"),
        # 64Qv3: average_readout_fidelity >= 93 % and t1 >= 70 μs
        (CHIP, ("average_readout_fidelity", ">", 93.0), ("t1", ">", 70.0),
         "quick one - on {chip}, qubits at readout fidelity of at least 93% and T1 of at least 70 μs: how many?"),
        # 64Qv3: t2_echo < 50 μs and t1 > 50 μs
        (CHIP, ("t2_echo", "<", 50.0), ("t1", ">", 50.0),
         "Please tally {chip} qubits where T2 echo is under 50us but T1 is over 50us."),
        # 144Qv2: x90_gate_fidelity > 99.55 % and average_readout_fidelity < 92 %
        (OTHER, ("x90_gate_fidelity", ">", 99.55), ("average_readout_fidelity", "<", 92.0),
         "I'm after qubits on {chip} that have single-qubit gate fidelity (X90) above 99.55% yet readout fidelity "
         "below 92%. How many are there?"),
    ]
    out = []
    for i, (chip, (a, aop, alim), (b, bop, blim), text) in enumerate(rows):
        va, vb = latest(db, chip, a), latest(db, chip, b)
        _apart(list(va.values()), alim, _tol(a))
        _apart(list(vb.values()), blim, _tol(b))
        n = sum(1 for q in va if q in vb and (va[q] > alim if aop == ">" else va[q] < alim)
                and (vb[q] > blim if bop == ">" else vb[q] < blim))
        out.append(_q("compound filter", i, text.format(chip=chip), Truth((Expect(n, kind="count"),))))
    return out


def percentage(db) -> list[Question]:
    """100 × (qubits whose latest value passes the limit) / (qubits with a latest value); the share of every qubit
    document of the chip is accepted too.  Within 0.51 percentage points, written as a percentage."""
    rows = [
        # 64Qv3: t2_star < 25 μs
        (CHIP, "t2_star", "<", 25.0, "T2* below 25 us - what percent of the {chip} qubits is that?"),
        # 144Qv2: average_readout_fidelity >= 95 %
        (OTHER, "average_readout_fidelity", ">", 95.0,
         "Out of all {chip} qubits, what share reaches 95% readout fidelity or better? Percent please."),
        # 64Qv3: qubit_frequency > 5.1 GHz (5100 MHz)
        (CHIP, "qubit_frequency", ">", 5.1, "{chip} - percentage of qubits with frequency above 5100 MHz?"),
        # 144Qv2: t1 < 35 μs
        (OTHER, "t1", "<", 35.0, "Under 35 μs T1: how large a share of the {chip} qubits, counted out of the "
                                 "whole chip? give it as a %"),
    ]
    out = []
    for i, (chip, name, op, limit, text) in enumerate(rows):
        values = latest(db, chip, name)
        _apart(list(values.values()), limit, _tol(name))
        n = sum(1 for v in values.values() if (v > limit if op == ">" else v < limit))
        shares = (100.0 * n / len(values), 100.0 * n / qubit_count(db, chip))
        out.append(_q("percentage", i, text.format(chip=chip),
                      Truth((Expect(shares[0], 0.51, unit="%", alternatives=(shares[1],)),))))
    return out


def _ranked(values: dict[str, float], n: int, best: bool) -> list[str]:
    order = sorted(values, key=lambda q: values[q], reverse=best)
    assert values[order[n - 1]] != values[order[n]], "a tie at the cut makes the top N ambiguous"
    return order[:n]


def top_n(db) -> list[Question]:
    """The N qubits (or couplings) with the highest/lowest latest value, each named with its value in one sentence or
    table row."""
    rows = [
        # 144Qv2: 5 lowest t2_star
        (OTHER, "t2_star", "qubit", 5, False, "list the five worst T2* qubits on {chip} with their values"),
        # 64Qv3: 4 highest zx90_gate_fidelity over couplings (stored direction)
        (CHIP, "zx90_gate_fidelity", "coupling", 4, True, "Which 4 couplings on {chip} have the best ZX90 fidelity?"),
        # 144Qv2: 3 highest qubit_frequency, in GHz
        (OTHER, "qubit_frequency", "qubit", 3, True,
         "Top three highest-frequency qubits on {chip}, frequencies in GHz please."),
        # 64Qv3: 2 lowest average_readout_fidelity
        (CHIP, "average_readout_fidelity", "qubit", 2, False, "Poorest readout fidelity on {chip} - name the "
                                                                "bottom 2 qubits."),
    ]
    out = []
    for i, (chip, name, kind, n, best, text) in enumerate(rows):
        values = latest(db, chip, name, kind)
        if kind == "coupling":  # one direction per pair carries the value, so a reversed label names the same pair
            assert not any(f"{q.split('-')[1]}-{q.split('-')[0]}" in values for q in values)
        label = clabel if kind == "coupling" else qlabel
        expects = tuple(Expect(values[q], _tol(name), near=(label(q),)) for q in _ranked(values, n, best))
        out.append(_q("top N", i, text.format(chip=chip), Truth(expects)))
    return out


def cross_chip(db) -> list[Question]:
    """Which chip is higher on a statistic of the latest values (median or mean over every qubit/coupling with a
    value): the winner put first with a comparison word, and both chips' statistics stated."""
    rows = [
        # mean t2_star over qubits
        ("t2_star", "qubit", statistics.fmean, "Longer mean T2*: {a} or {b}?"),
        # median qubit_frequency over qubits, GHz
        ("qubit_frequency", "qubit", statistics.median,
         "Is the median qubit frequency higher on {b} or on {a}? Answer in GHz."),
        # median zx90_gate_fidelity over couplings
        ("zx90_gate_fidelity", "coupling", statistics.median,
         "Median two-qubit ZX90 fidelity, {a} vs {b}: which chip comes out ahead?"),
        # mean t1 over qubits
        ("t1", "qubit", statistics.fmean, "On average, do the qubits of {b} or of {a} have longer T1 (mean, in μs)?"),
    ]
    out = []
    for i, (name, kind, stat, text) in enumerate(rows):
        sa, sb = stat(list(latest(db, CHIP, name, kind).values())), stat(list(latest(db, OTHER, name, kind).values()))
        assert abs(sa - sb) > 2 * _tol(name), "the two chips must differ beyond display rounding"
        winner, loser = (CHIP, OTHER) if sa > sb else (OTHER, CHIP)
        out.append(_q("cross-chip", i, text.format(a=CHIP, b=OTHER),
                      Truth((Expect(sa, _tol(name)), Expect(sb, _tol(name))), winner=winner, loser=loser)))
    return out


def spread(db) -> list[Question]:
    """The spread of one metric's latest values over a chip: standard deviation (sample; population accepted) or
    max − min, within display rounding or 1 %."""
    rows = [
        # 144Qv2: std of t2_star over qubits, μs
        (OTHER, "t2_star", "qubit", "std", "What's the std dev of T2* across {chip}?"),
        # 64Qv3: max - min of average_readout_fidelity, percentage points
        (CHIP, "average_readout_fidelity", "qubit", "range",
         "On {chip}, how far apart are the best and worst readout fidelities, in percentage points?"),
        # 64Qv3: std of zx90_gate_fidelity over couplings, in %
        (CHIP, "zx90_gate_fidelity", "coupling", "std",
         "How much does ZX90 fidelity scatter across the couplings of {chip}? Standard deviation in % please."),
        # 144Qv2: max - min of t1 over qubits, μs
        (OTHER, "t1", "qubit", "range", "Spread of T1 on {chip} from the shortest-lived qubit to the longest, in us?"),
    ]
    out = []
    for i, (chip, name, kind, how, text) in enumerate(rows):
        values = list(latest(db, chip, name, kind).values())
        if how == "std":
            sd = statistics.stdev(values)
            expect = Expect(sd, max(_tol(name), 0.01 * sd), alternatives=(statistics.pstdev(values),))
        else:
            width = max(values) - min(values)
            expect = Expect(width, max(_tol(name), 0.01 * width))
        out.append(_q("spread", i, text.format(chip=chip), Truth((expect,))))
    return out


def pearson(xs: list[float], ys: list[float]) -> float:
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    return sxy / math.sqrt(sum((x - mx) ** 2 for x in xs) * sum((y - my) ** 2 for y in ys))


def correlation(db) -> list[Question]:
    """Pearson r of two metrics' latest values over the qubits that have both, within 0.02, sign included."""
    rows = [
        (CHIP, "t2_star", "t2_echo", "Does T2* go along with T2 echo on {chip}? I need Pearson's r."),
        (OTHER, "qubit_frequency", "t1", "correlation between qubit frequency and T1 on {chip} (pearson)"),
        (OTHER, "average_readout_fidelity", "x90_gate_fidelity",
         "On {chip}, what's the Pearson coefficient linking readout fidelity and X90 gate fidelity?"),
        (CHIP, "t1", "average_readout_fidelity", "{chip}: Pearson correlation of T1 against readout fidelity, "
                                                  "qubit by qubit?"),
    ]
    out = []
    for i, (chip, a, b, text) in enumerate(rows):
        va, vb = latest(db, chip, a), latest(db, chip, b)
        both = sorted(set(va) & set(vb), key=int)
        r = pearson([va[q] for q in both], [vb[q] for q in both])
        out.append(_q("correlation", i, text.format(chip=chip), Truth((Expect(r, 0.02, signed=True),))))
    return out


_NOT_THERE = ("no such", "does not exist", "doesn't exist", "not exist", "no qubit", "no chip", "no coupling",
              "not found", "only has", "has only", "out of range", "unknown", "isn't a", "is not a", "there is no",
              "no data", "not a valid", "invalid", "not coupled", "no record")


def missing_thing(db) -> list[Question]:
    """A qubit, coupling or chip that is not in the database: a plain "no such ..." and no measured value."""
    n64, n144 = qubit_count(db, CHIP), qubit_count(db, OTHER)
    chips = set(db["chip"].distinct("chip_id"))
    missing_chip = "36Qv5"
    assert missing_chip not in chips
    q_small, q_big = n64 + 6, n144 + 7  # past the last qubit id (ids run 0 .. size − 1)
    assert db["qubit"].count_documents({"chip_id": CHIP, "qid": str(q_small)}) == 0
    assert db["qubit"].count_documents({"chip_id": OTHER, "qid": str(q_big)}) == 0
    a, b = 3, 40  # two qubits of the 64-qubit chip that share no coupling, in either direction
    assert db["coupling"].count_documents({"chip_id": CHIP, "qid": {"$in": [f"{a}-{b}", f"{b}-{a}"]}}) == 0
    assert db["task_result_history"].count_documents({"chip_id": CHIP, "qid": {"$in": [f"{a}-{b}", f"{b}-{a}"]}}) == 0
    texts = [f"What's the T2* of Q{q_small} on {CHIP}?",
             f"can you pull the latest frequency for qubit {q_big} on {OTHER}",
             f"ZX90 fidelity for the coupling {a}-{b} on {CHIP}?",
             f"Show me the readout fidelity summary for chip {missing_chip}."]
    return [_q("missing thing", i, text, Truth(any_words=_NOT_THERE, no_values=True)) for i, text in enumerate(texts)]


def window_counts(db, now: datetime) -> list[Question]:
    """Counts of task results in the window [now − days, now] (see the module docstring): failed ones (of one task name,
    or of any name), or completed ones."""
    rows = [
        # 64Qv3: task results named CheckRamsey with status failed, started in the last 10 days
        (CHIP, 10, "CheckRamsey", "How many Ramsey checks have failed on {chip} in the 10 days up to now?"),
        # 144Qv2: task results with status completed (excluded or not: an excluded result still completed; the
        # count without the excluded ones is accepted too) started in the last 3 days
        (OTHER, 3, "completed",
         "Of the tasks run on {chip} during the past 3 days, what number completed successfully?"),
        # 144Qv2: failed task results of any name started in the last 48 hours (2 days)
        (OTHER, 2, "", "failed tasks on {chip} in the past 48 hours?"),
        # 144Qv2: task results named CheckT1 with status failed, started in the last 14 days
        (OTHER, 14, "CheckT1", "T1 measurements that failed on {chip} within the past two weeks - how many?"),
    ]
    out = []
    for i, (chip, days, task, text) in enumerate(rows):
        since = now - timedelta(days=days)
        runs = list(db["execution_history"].find({"chip_id": chip, "start_at": {"$gte": since}}))
        query: dict = ({"chip_id": chip, "status": "completed"} if task == "completed"
                       else {"chip_id": chip, "status": "failed", **({"name": task} if task else {})})
        n = db["task_result_history"].count_documents({**query, "start_at": {"$gte": since, "$lte": now}})
        by_run = db["task_result_history"].count_documents(
            {**query, "execution_id": {"$in": [r["execution_id"] for r in runs]}})
        assert n == by_run, "the window boundary cuts a run"
        kept = db["task_result_history"].count_documents(
            {**query, "excluded": {"$ne": True}, "start_at": {"$gte": since, "$lte": now}})
        # "last N days" read as today and the N − 1 calendar days before it: the same number unless ``now`` is early
        # in the day (then both readings are accepted)
        midnight = datetime(now.year, now.month, now.day) - timedelta(days=days - 1)
        calendar = db["task_result_history"].count_documents({**query, "start_at": {"$gte": midnight, "$lte": now}})
        alternatives = tuple({kept if task == "completed" else n, calendar} - {n})
        out.append(_q("window count", i, text.format(chip=chip),
                      Truth((Expect(n, kind="count", alternatives=alternatives),))))
    return out


def fails_most(db, now: datetime) -> list[Question]:
    """The task name with the most ``status == "failed"`` results in the stated scope, named with its count."""
    def newest_runs(chip: str, n: int) -> list[str]:
        runs = db["execution_history"].find({"chip_id": chip}).sort([("start_at", -1)]).limit(n)
        return [r["execution_id"] for r in runs]

    rows = [
        # 64Qv3: failed results started in [now − 7 days, now]
        (CHIP, {"start_at": {"$gte": now - timedelta(days=7)}},
         "Over the last week on {chip}, what's the most frequently failing task, and how many times did it fail?"),
        # 144Qv2: failed results with task_type "coupling" (two-qubit tasks), all stored history
        (OTHER, {"task_type": "coupling"}, "Among the two-qubit tasks on {chip}, which one has failed most often?"),
        # 144Qv2: failed results of its 3 newest executions (by start_at)
        (OTHER, {"execution_id": {"$in": newest_runs(OTHER, 3)}},
         "Looking at the 3 newest executions of {chip}, which task racked up the most failures?"),
        # 64Qv3: failed results with task_type "qubit" (single-qubit tasks), all stored history
        (CHIP, {"task_type": "qubit"}, "For single-qubit tasks only: which one has the worst failure tally on {chip}?"),
    ]
    # the week read as today and the 6 calendar days before it: accepted too when it names the same task
    week = datetime(now.year, now.month, now.day) - timedelta(days=6)
    calendar = Counter(d["name"] for d in db["task_result_history"].find(
        {"chip_id": CHIP, "status": "failed", "start_at": {"$gte": week}})).most_common()
    out = []
    for i, (chip, scope, text) in enumerate(rows):
        docs = db["task_result_history"].find({"chip_id": chip, "status": "failed", **scope})
        counts = Counter(d["name"] for d in docs).most_common()
        top, n = counts[0]
        assert len(counts) == 1 or counts[1][1] < n, "a tie would make the truth ambiguous"
        other = calendar[0][1] if i == 0 and calendar[0][0] == top and calendar[0][1] != n else None
        out.append(_q("fails most", i, text.format(chip=chip),
                      Truth((Expect(n, kind="count", near=(rf"\b{top}\b",),
                                    alternatives=(other,) if other is not None else ()),))))
    return out


def _with_value(values: dict[str, float], wanted: int) -> str:
    """``wanted`` if that qubit has a value, else the next id that has one (the question names the one used)."""
    qid = min((q for q in values if int(q) >= wanted), key=int)
    return qid


def qubit_pairs(db) -> list[Question]:
    """Two named qubits compared on one metric's latest values: both values stated, the higher one put first with a
    comparison word (for frequency: higher; for T2*: longer; for fidelities: better)."""
    rows = [
        (CHIP, "t2_star", 5, 33, "T2* of q{a:02d} vs q{b:02d} on {chip} - which is longer?"),
        (OTHER, "average_readout_fidelity", 12, 97, "Readout fidelity: is qubit {a} better than qubit {b} on {chip}, or "
                                                    "the other way round?"),
        (OTHER, "qubit_frequency", 40, 41, "Which sits at the higher frequency on {chip}: Q{a} or Q{b}?"),
        (CHIP, "x90_gate_fidelity", 7, 21, "For single-qubit gate fidelity (X90), does Q{a} beat Q{b} on {chip}?"),
    ]
    out = []
    for i, (chip, name, wa, wb, text) in enumerate(rows):
        values = latest(db, chip, name)
        a, b = _with_value(values, wa), _with_value(values, wb)
        assert a != b and abs(values[a] - values[b]) > 2 * _tol(name), "the two qubits must differ beyond rounding"
        winner, loser = (a, b) if values[a] > values[b] else (b, a)
        out.append(_q("qubit pair", i, text.format(a=int(a), b=int(b), chip=chip),
                      Truth((Expect(values[a], _tol(name), near=(qlabel(a),)),
                             Expect(values[b], _tol(name), near=(qlabel(b),))),
                            winner=qlabel(winner), loser=qlabel(loser))))
    return out


def build_heldout2(db, now: datetime) -> list[Question]:
    """Every question of the second sealed set with its truth (``now``: the end of the demo's time windows)."""
    return (compound(db) + percentage(db) + top_n(db) + cross_chip(db) + spread(db) + correlation(db)
            + missing_thing(db) + window_counts(db, now) + fails_most(db, now) + qubit_pairs(db))
