"""The twelfth sealed set: 10 shapes × 4 questions in wordings of its own (a lab-notebook entry, a Slack thread reply,
a grant-report request, a student's homework ask, units in parentheses after a number, yes/no questions that need a
number, fractions such as 0.95 for 95 %, ``≥``/``≤`` signs, chip ids in mixed case, "as of this morning", "the last
10 days", "in the past 48 hours" and two ISO dates), truths from hand-written pymongo on the raw demo collections.

Written without reading the copilot's word tables, routing, claim check or prompts, nor any other sealed set's
questions.  Values, units, labels and the newest day are the ninth set's truth helpers, windows the tenth's ``span``
and the eleventh's row helpers:

- a window of whole UTC days ends on the day of the chip's newest run (by ``start_at``; the execution id's day is the
  accepted second reading); "the last 10 days" is ten whole days, "the past 48 hours" the last two whole days (the
  48 hours before ``now`` is the accepted other reading), "this morning" the newest day, two ISO dates an inclusive
  range of days written from the newest day.
- a failure = a ``task_result_history`` row with status ``failed``; a run = an ``execution_history`` document.

Every date in a question is written from the data's newest day, so the set means the same thing whatever day the demo
is seeded on; run ids come from the database.  The builder raises instead of writing a question with no single answer
(a tie, a limit on a value, a weak correlation, equal sides, an empty window).
"""

from __future__ import annotations

import statistics
from collections import Counter
from datetime import date, datetime

from tests.eval_score import Expect, Truth
from tests.public_eval import CHIP, OTHER, Question
from tests.sealed.heldout9 import UNIT_TOL, latest, pair_re, qubit_re
from tests.sealed.heldout10 import span
from tests.sealed.heldout11 import _clear_of, _count, _hours, _label, _pair, _rows, _sole

__all__ = ["build_heldout12"]

SPLIT = "held-out-12"
HISTORY = "task_result_history"
RUNS = "execution_history"
CHIP_RE = {CHIP: r"(?i)(?:\b64Q|\b64[- ]qubit)", OTHER: r"(?i)(?:\b144Q|\b144[- ]qubit)"}
NOT_THERE = ("not", "no ", "n't", "unknown", "only", "exist")
FAILED = {"status": "failed"}


def _q(shape: str, i: int, text: str, truth: Truth) -> Question:
    return Question(f"sealed12-{shape.replace(' ', '-')}-{i}", shape, text, truth, split=SPLIT)


def _value(db, chip: str, name: str, key: str, kind: str = "qubit") -> float:
    values = {_pair(k) if kind == "coupling" else k: v for k, v in latest(db, chip, name, kind).items()}
    if key not in values:
        raise ValueError(f"{chip} has no {name} for {key}")
    return values[key]


# ---- top N -----------------------------------------------------------------------------------------------------------
def _top(db) -> list[Question]:
    specs = (
        (CHIP, "t1", "qubit", 5, True, "us",
         "Lab notebook, calibration log entry: jot down the five 64qv3 qubits whose T1 (µs) runs longest as of "
         "this morning, one line apiece, value included."),
        (OTHER, "zx90_gate_fidelity", "coupling", 3, False, "%",
         "↳ replying in thread — which 3 couplers on 144QV2 sit at the bottom of the ZX90 fidelity table right now? "
         "values (%) please"),
        (CHIP, "average_readout_fidelity", "qubit", 4, False, "%",
         "For the annual grant report we must disclose the four 64Qv3 qubits whose average readout fidelity (%) ranks "
         "poorest this morning; please supply each figure."),
        (OTHER, "t2_star", "qubit", 2, False, "us",
         "Homework help: my exercise asks for the 2 qubits of 144qV2 having the smallest Ramsey T2* (µs). Which "
         "are they and what are the numbers?"),
    )
    out = []
    for i, (chip, name, kind, n, high, unit, text) in enumerate(specs, 1):
        values = sorted(latest(db, chip, name, kind).items(), key=lambda kv: kv[1], reverse=high)
        tol = UNIT_TOL[unit]
        if any(abs(a[1] - b[1]) <= 2 * tol for a, b in zip(values[:n], values[1:n + 1])):
            raise ValueError(f"top {n} of {name} cannot be told apart")
        expects = tuple(Expect(v, tol, near=(_label(_pair(q) if kind == "coupling" else q),),
                               unit="%" if unit == "%" else "") for q, v in values[:n])
        out.append(_q("top N", i, text, Truth(numbers=expects)))
    return out


# ---- compound filter -------------------------------------------------------------------------------------------------
def _compound(db) -> list[Question]:
    specs = (
        (CHIP, ("x90_gate_fidelity", "<", 99.6, "%"), ("t2_star", "<", 25.0, "us"),
         "Notebook entry, cooldown check: which 64Qv3 qubits have X90 fidelity ≤ 0.996 together with T2* ≤ 25 (µs)? "
         "Report the tally plus their ids."),
        (OTHER, ("readout_fidelity_0", ">", 98.0, "%"), ("qubit_frequency", "<", 4.8, "GHz"),
         "Is there any qubit on 144qv2 with |0> readout fidelity ≥ 0.98 and a frequency ≤ 4.8 (GHz)? If so, report "
         "the number and list their labels."),
        (OTHER, ("t1", ">", 60.0, "us"), ("anharmonicity", "<", -320.0, "MHz"),
         "replying to the thread above: tally up 144Qv2 qubits having T1 ≥ 60 (µs) whose anharmonicity is ≤ -320 "
         "(MHz), and list them"),
        (CHIP, ("t1", ">", 110.0, "us"), ("t2_echo", ">", 100.0, "us"),
         "Student question: for 64QV3, what number of qubits satisfy T1 ≥ 110 (µs) AND T2 echo ≥ 100 (µs)? Name them so "
         "I can check my working."),
    )
    out = []
    for i, (chip, first, second, text) in enumerate(specs, 1):
        kept: set[str] | None = None
        for name, side, limit, unit in (first, second):
            values = latest(db, chip, name)
            _clear_of(values, limit, UNIT_TOL[unit])
            ok = {q for q, v in values.items() if (v < limit if side == "<" else v > limit)}
            kept = ok if kept is None else kept & ok
        assert kept is not None
        if not 1 <= len(kept) <= 10:
            raise ValueError(f"compound filter {i} keeps {len(kept)}")
        names = tuple(qubit_re(q) for q in sorted(kept, key=int))
        out.append(_q("compound filter", i, text, Truth(numbers=(_count(len(kept)),), patterns=names)))
    return out


# ---- percentage ------------------------------------------------------------------------------------------------------
def _share(n: int, total: int, *other: tuple[int, int]) -> Expect:
    if not total or not n:
        raise ValueError("an empty share")
    alts = tuple({100.0 * a / b for a, b in other if b} - {100.0 * n / total})
    return Expect(100.0 * n / total, UNIT_TOL["share"], unit="%", alternatives=alts)


def _value_share(db, chip: str, name: str, kind: str, size: int, limit: float, above: bool, unit: str) -> Expect:
    """The share of the measured ones; of every qubit of the chip (``size``, 0: none) the accepted other reading."""
    values = latest(db, chip, name, kind)
    _clear_of(values, limit, UNIT_TOL[unit])
    n = sum(1 for v in values.values() if (v > limit if above else v < limit))
    return _share(n, len(values), *(((n, size),) if size else ()))


def _task_share(db, chip: str, first: date, last: date, query: dict, now: datetime | None = None) -> Expect:
    by_time, by_id = _rows(db, chip, first, last, query)
    counts = [(sum(r["status"] == "failed" for r in rows), len(rows)) for rows in (by_time, by_id)]
    if now is not None:
        rows = _hours(db, chip, now, 48, query)
        counts.append((sum(r["status"] == "failed" for r in rows), len(rows)))
    return _share(*counts[0], *counts[1:])


def _percentage(db, now: datetime) -> list[Question]:
    a_size = db["qubit"].count_documents({"chip_id": CHIP})
    ten = span(db, CHIP, "days:10")
    two = span(db, OTHER, "days:2")
    return [
        _q("percentage", 1, "Yes or no, and give the percentage: do more than half of the 64Qv3 qubits reach an "
           "average readout fidelity ≥ 0.95 in today's data?",
           Truth(numbers=(_value_share(db, CHIP, "average_readout_fidelity", "qubit", a_size, 95.0, True, "%"),))),
        _q("percentage", 2, "Grant reviewers want to know: among 144QV2's couplers, which share shows a "
           "Bell-state fidelity ≤ 0.90 at present? Express it as a percent.",
           Truth(numbers=(_value_share(db, OTHER, "bell_state_fidelity", "coupling", 0, 90.0, False, "%"),))),
        _q("percentage", 3, "lab notebook: rolling 10-day window, the % of CheckT1 tasks executed on 64qv3 were "
           "marked failed?",
           Truth(numbers=(_task_share(db, CHIP, *ten, {"name": "CheckT1"}),))),
        _q("percentage", 4, "Quick Slack follow-up: during the last 48 hours, which percentage of all calibration tasks "
           "on 144Qv2 came back failed?",
           Truth(numbers=(_task_share(db, OTHER, *two, {}, now),))),
    ]


# ---- spread ----------------------------------------------------------------------------------------------------------
def _std(values: list[float], tol: float) -> Expect:
    sample, population = statistics.stdev(values), statistics.pstdev(values)
    return Expect(sample, tol, alternatives=(population,) if abs(sample - population) > tol else ())


def _spread(db) -> list[Question]:
    t1 = list(latest(db, CHIP, "t1").values())
    ro = list(latest(db, OTHER, "readout_frequency").values())
    x90 = list(latest(db, OTHER, "x90_gate_fidelity").values())
    anh = list(latest(db, CHIP, "anharmonicity").values())
    return [
        _q("spread", 1, "Homework-style check: compute σ (sample SD) of T1 (µs) over every 64Qv3 qubit "
           "today. Show the number.", Truth(numbers=(_std(t1, UNIT_TOL["us"]),))),
        _q("spread", 2, "For the notebook: the band of resonator (readout) frequencies on 144qv2 — max less "
           "min — as (MHz)?",
           Truth(numbers=(Expect(1000 * (max(ro) - min(ro)), UNIT_TOL["MHz"]),))),
        _q("spread", 3, "The grant report needs one dispersion figure: the SD of single-qubit X90 "
           "fidelity (%) over all 144QV2 qubits as of this morning.",
           Truth(numbers=(_std(x90, UNIT_TOL["%"]),))),
        _q("spread", 4, "thread reply: what's the full span (max − min) of anharmonicity in (MHz) over 64QV3's "
           "qubits?", Truth(numbers=(Expect(max(anh) - min(anh), UNIT_TOL["MHz"]),))),
    ]


# ---- correlation -----------------------------------------------------------------------------------------------------
def _r(db, chip: str, a: str, b: str, kind: str = "qubit") -> Expect:
    xs, ys = latest(db, chip, a, kind), latest(db, chip, b, kind)
    xs, ys = ({_pair(k): v for k, v in d.items()} for d in (xs, ys))
    both = sorted(set(xs) & set(ys))
    r = statistics.correlation([xs[k] for k in both], [ys[k] for k in both])
    if abs(r) < 0.15:
        raise ValueError(f"{a} and {b} barely correlate")
    return Expect(r, UNIT_TOL["r"], signed=True)


def _correlation(db) -> list[Question]:
    return [
        _q("correlation", 1, "Notebook hypothesis: on 64Qv3, Ramsey T2* tracks the echo T2 qubit by qubit. "
           "Pearson r to confirm?", Truth(numbers=(_r(db, CHIP, "t2_star", "t2_echo"),))),
        _q("correlation", 2, "Replying here: is T1 on 144qv2 linked to Ramsey T2* at all? A single r value "
           "(Pearson, per qubit) is enough.", Truth(numbers=(_r(db, OTHER, "t1", "t2_star"),))),
        _q("correlation", 3, "Student exercise: find Pearson's r for ZX90 fidelity (%) versus Bell-state "
           "fidelity (%), coupler by coupler, on 64QV3.",
           Truth(numbers=(_r(db, CHIP, "bell_state_fidelity", "zx90_gate_fidelity", "coupling"),))),
        _q("correlation", 4, "For the grant narrative: across 144Qv2 qubits, quote r (with sign) for |0> "
           "readout fidelity against |1> readout fidelity.",
           Truth(numbers=(_r(db, OTHER, "readout_fidelity_0", "readout_fidelity_1"),))),
    ]


# ---- cross-chip ------------------------------------------------------------------------------------------------------
def _sides(figures: dict[str, float], tol: float, unit: str = "", kind: str = "value") -> Truth:
    (hi, a), (lo, b) = sorted(figures.items(), key=lambda kv: kv[1], reverse=True)
    if abs(a - b) <= 2 * tol:
        raise ValueError("the chips are level")
    expects = tuple(Expect(figures[c], tol, kind, near=(CHIP_RE[c],), unit=unit) for c in (CHIP, OTHER))
    return Truth(numbers=expects, winner=CHIP_RE[hi], loser=CHIP_RE[lo])


def _cross(db) -> list[Question]:
    chips = (CHIP, OTHER)
    means = {c: statistics.mean(latest(db, c, "t1").values()) for c in chips}
    medians = {c: statistics.median(latest(db, c, "zx90_gate_fidelity", "coupling").values()) for c in chips}
    fails = {}
    for c in chips:
        by_time, _ = _rows(db, c, *span(db, c, "days:10"), FAILED)
        fails[c] = float(len(by_time))
    worst = {c: min(latest(db, c, "average_readout_fidelity").values()) for c in chips}
    return [
        _q("cross-chip", 1, "slack: 64qv3 vs 144qv2 — who's ahead on mean T1 right now? both numbers (µs) "
           "pls", _sides(means, UNIT_TOL["us"])),
        _q("cross-chip", 2, "For the grant report, set 64Qv3's median ZX90 fidelity (%) beside 144Qv2's and "
           "say which is ahead.", _sides(medians, UNIT_TOL["%"], "%")),
        _q("cross-chip", 3, "Lab notebook: failure tallies for 64QV3 versus 144QV2, rolling 10-day window each "
           "— whose count is bigger?", _sides(fails, 0, kind="count")),
        _q("cross-chip", 4, "Homework: each chip's single worst qubit by average readout fidelity (%) — does "
           "64Qv3's worst beat 144Qv2's worst? Numbers for both.", _sides(worst, UNIT_TOL["%"], "%")),
    ]


# ---- qubit pair ------------------------------------------------------------------------------------------------------
def _pairs(db) -> list[Question]:
    time = _value(db, CHIP, "zx90_gate_time", "15-29", "coupling")
    bell = _value(db, OTHER, "bell_state_fidelity", "103-106", "coupling")
    sides = {p: _value(db, CHIP, "bell_state_fidelity", p, "coupling") for p in ("0-1", "0-2")}
    (win, a), (lose, b) = sorted(sides.items(), key=lambda kv: kv[1], reverse=True)
    if a - b <= 2 * UNIT_TOL["%"]:
        raise ValueError("the two couplings are level")
    zx = _value(db, OTHER, "zx90_gate_fidelity", "111-133", "coupling")
    _clear_of({"111-133": zx}, 99.0, UNIT_TOL["%"])
    verdict = r"(?i)\byes\b|\babove\b|\bexceeds?\b|\bhigher\b" if zx > 99.0 else r"(?i)\bno\b|\bbelow\b|\bnot\b"
    return [
        _q("qubit pair", 1, "Notebook: CR/ZX90 pulse duration (ns) on coupler Q15–Q29 of 64Qv3 as of this morning?",
           Truth(numbers=(Expect(time, UNIT_TOL["ns"], near=(pair_re("15", "29"),)),))),
        _q("qubit pair", 2, "replying in the thread: Bell-state fidelity (%) currently shown by the 144qv2 pair "
           "Q103/Q106?", Truth(numbers=(Expect(bell, UNIT_TOL["%"], near=(pair_re("103", "106"),), unit="%"),))),
        _q("qubit pair", 3, "Student asking: on 64QV3, which coupler prepares Bell states better, Q00–Q01 or Q00–Q02, "
           "and by what fidelity (%)?",
           Truth(numbers=(Expect(a, UNIT_TOL["%"], unit="%"),), winner=_label(win), loser=_label(lose))),
        _q("qubit pair", 4, "Yes/no with the figure: does coupler 111–133 on 144Qv2 clear 0.99 in ZX90 "
           "fidelity?",
           Truth(numbers=(Expect(zx, UNIT_TOL["%"], unit="%"),), patterns=(verdict,))),
    ]


# ---- fails most ------------------------------------------------------------------------------------------------------
def _leader(db, chip: str, first: date, last: date, key, query: dict) -> tuple[str, Expect]:  # noqa: ANN001
    by_time, by_id = _rows(db, chip, first, last, {**FAILED, **query})
    top, n = _sole(Counter(key(r) for r in by_time))
    other = Counter(key(r) for r in by_id)[top]
    return top, _count(n, other)


def _fails(db) -> list[Question]:
    ten_a = span(db, CHIP, "days:10")
    iso = span(db, OTHER, "back:20:6")
    task, n_task = _leader(db, CHIP, *ten_a, lambda r: r["name"], {})
    qubit, n_qubit = _leader(db, OTHER, *iso, lambda r: r["qid"], {"task_type": "qubit"})
    run, n_run = _leader(db, CHIP, *ten_a, lambda r: r["execution_id"], {})
    whole = (date(1970, 1, 1), span(db, OTHER, "days:1")[1])
    pair, n_pair = _leader(db, OTHER, *whole, lambda r: _pair(r["qid"]), {"task_type": "coupling"})
    return [
        _q("fails most", 1, "Lab notebook: 64Qv3, rolling 10-day window — the calibration task that accumulated "
           "the most failures, plus its tally?", Truth(numbers=(n_task,), patterns=(f"(?i){task}",))),
        _q("fails most", 2, f"Grant report table: from {iso[0].isoformat()} to {iso[1].isoformat()} (inclusive), "
           "the 144Qv2 qubit topping the failed-task column? Include the count.",
           Truth(numbers=(n_qubit,), patterns=(qubit_re(qubit),))),
        _q("fails most", 3, "slack reply: 64qv3, rolling 10-day window: the execution carrying the heaviest "
           "load of failed tasks? run id + failure count", Truth(numbers=(n_run,), patterns=(run,))),
        _q("fails most", 4, "Homework question: looking at all the history you have for 144QV2, which coupler "
           "(qubit pair) failed the most tasks? Give it with its number of failures.",
           Truth(numbers=(n_pair,), patterns=(_label(pair),))),
    ]


# ---- window count ----------------------------------------------------------------------------------------------------
def _windows(db, now: datetime) -> list[Question]:
    iso = span(db, CHIP, "back:18:11")
    echo = _rows(db, CHIP, *iso, {**FAILED, "name": "CheckT2Echo"})
    runs = _rows(db, OTHER, *span(db, OTHER, "days:10"), {}, RUNS)
    two = _rows(db, CHIP, *span(db, CHIP, "days:2"), FAILED)
    hours = _hours(db, CHIP, now, 48, FAILED)
    today = _rows(db, OTHER, *span(db, OTHER, "days:1"), FAILED)
    return [
        _q("window count", 1, f"Notebook query: number of failed CheckT2Echo runs for 64Qv3 dated "
           f"{iso[0].isoformat()} through {iso[1].isoformat()}, both days included.",
           Truth(numbers=(_count(len(echo[0]), len(echo[1])),))),
        _q("window count", 2, "For the grant report: executions (calibration runs) completed or attempted by "
           "144qv2 across a rolling 10-day window — what's the total?",
           Truth(numbers=(_count(len(runs[0]), len(runs[1])),))),
        _q("window count", 3, "slack: 64QV3 failed-task count, trailing 48 hours?",
           Truth(numbers=(_count(len(two[0]), len(two[1]), len(hours)),))),
        _q("window count", 4, "Student here: as of this morning, what's today's failed-task total on 144Qv2?",
           Truth(numbers=(_count(len(today[0]), len(today[1])),))),
    ]


# ---- missing thing ---------------------------------------------------------------------------------------------------
def _missing(db) -> list[Question]:
    if db["qubit"].count_documents({"chip_id": CHIP, "qid": "70"}):
        raise ValueError("64Qv3 has a Q70")
    if db["coupling"].count_documents({"chip_id": OTHER, "qid": {"$in": ["3-90", "90-3"]}}):
        raise ValueError("144Qv2 couples Q3 and Q90")
    if db["chip"].count_documents({"chip_id": {"$regex": "^32q", "$options": "i"}}):
        raise ValueError("a 32-qubit chip exists")
    if db[HISTORY].count_documents({"output_parameter_names": {"$regex": "leak"}}):
        raise ValueError("a leakage figure exists")
    gone = Truth(any_words=NOT_THERE, no_values=True)
    return [
        _q("missing thing", 1, "Lab notebook: T1 (µs) of qubit Q70 on 64Qv3 as of this morning?", gone),
        _q("missing thing", 2, "Thread reply — the 144qv2 coupler joining Q3 with Q90: its ZX90 fidelity (%)?", gone),
        _q("missing thing", 3, "For the grant report, give the median T1 (µs) of the 32qV1 chip across a rolling "
           "10-day window.", gone),
        _q("missing thing", 4, "Homework: what is the measured leakage rate (%) per qubit on 64QV3?", gone),
    ]


def build_heldout12(db, now: datetime) -> list[Question]:
    """The forty questions with truths from the raw collections (raises when one has no single answer)."""
    return (_top(db) + _compound(db) + _percentage(db, now) + _spread(db) + _correlation(db) + _cross(db)
            + _pairs(db) + _fails(db) + _windows(db, now) + _missing(db))
