"""The fifteenth sealed set: 10 shapes × 4 questions in registers the earlier sets left out (a chat or e-mail thread
that quotes an earlier message with ``>`` lines and ends in a signature, misspelled metric names, telegram style with
"STOP", requests for a weekly review or a stand-up slide, fill-in-the-blank forms, a notebook cell's ``# TODO``
comment, qubits written zero-padded to three digits or as "qubit no. N", limits in scientific notation and SI base
units — seconds, hertz —, calendar dates as "Nov 24" written from the data, negated comparatives — "not below",
"no worse than" —, parenthetical asides and a chit-chat second question), truths from hand-written pymongo on the
raw demo collections.

Written without reading the copilot's word tables, routing, claim check or prompts, nor any other sealed set's
questions.  Values, units, labels and windows are the ninth to fourteenth sets' truth helpers:

- latest = per qubit/coupling id, the newest completed, non-excluded ``task_result_history`` row holding the metric;
  display units: fidelities in %, T1/T2 in µs, frequencies in GHz, anharmonicity in MHz, gate time in ns.  A limit
  written in seconds or hertz is the same limit in those units (8e-5 s = 80 µs, 5.1e9 Hz = 5.1 GHz).
- "not below X" / "no shorter than X" / "not under X" / "no worse than X" = at least X; every limit is clear of
  every value, so "at least" and "above" keep the same ids.
- a window of whole UTC days ends on the day of the chip's newest run (by ``start_at``; the execution id's day is the
  accepted second reading); "since <Mon d>" starts on that calendar day, "on <Mon d>" is that one day, "the past N
  days" / "the N days through today" / "these N days up to today" are N whole days.  Every date is written from the
  newest day, so the set means the same whatever day the demo is seeded on.
- a failure = a ``task_result_history`` row with status ``failed``; a run = an ``execution_history`` document; a
  coupling's failures are its coupling-task rows, both directions of the pair counted as one coupling.
- a share of qubits is over the qubits with a value (over all the chip's qubits the accepted other reading).

The builder raises instead of writing a question with no single answer (a tie, a limit on a value, a weak
correlation, equal sides, an empty window).
"""

from __future__ import annotations

import re
import statistics
from collections import Counter
from datetime import date, datetime, timedelta

from tests.eval_score import Expect, Truth
from tests.public_eval import CHIP, OTHER, Question
from tests.sealed.heldout9 import UNIT_TOL, latest, pair_re, qubit_re
from tests.sealed.heldout10 import span
from tests.sealed.heldout11 import _clear_of, _count, _label, _pair, _rows, _sole
from tests.sealed.heldout12 import _value
from tests.sealed.heldout13 import _failed_share, _share

__all__ = ["build_heldout15", "calendar"]

SPLIT = "held-out-15"
RUNS = "execution_history"
CHIP_RE = {CHIP: r"(?i)(?:\b64Q|\b64[- ]qubit)", OTHER: r"(?i)(?:\b144Q|\b144[- ]qubit)"}
NOT_THERE = ("not", "no ", "n't", "unknown", "only", "exist", "invalid")
FAILED = {"status": "failed"}
SHIFT = 0  # days every window is moved back by (0; the hand-break sets 1)


def _q(shape: str, i: int, text: str, truth: Truth) -> Question:
    return Question(f"sealed15-{shape.replace(' ', '-')}-{i}", shape, text, truth, split=SPLIT)


def _moved(first: date, last: date) -> tuple[date, date]:
    return first - timedelta(days=SHIFT), last - timedelta(days=SHIFT)


def _newest(db, chip: str) -> date:
    return span(db, chip, "days:1")[1]


def calendar(db, chip: str, back: int, single: bool = False) -> tuple[tuple[date, date], str]:
    """The day ``back`` days before the newest one written "Nov 24", and the window from it to the newest day (only
    that day when ``single``)."""
    newest = _newest(db, chip)
    day = newest - timedelta(days=back)
    return _moved(day, day if single else newest), f"{day:%b} {day.day}"


def _keyed(db, chip: str, name: str, kind: str) -> dict[str, float]:
    return {_pair(k) if kind == "coupling" else k: v for k, v in latest(db, chip, name, kind).items()}


def _names(keys: list[str]) -> tuple[str, ...]:
    return tuple(qubit_re(k) for k in keys)


# ---- top N -----------------------------------------------------------------------------------------------------------
def _top(db) -> list[Question]:
    specs = (
        (CHIP, "t2_echo", 3, True, "us",
         "Re: echo numbers after the warm-up\n\n> Could somebody pull the strongest Hahn-echo qubits on 64Qv3?\n\n"
         "+1 to Mika's request quoted above: the three best by echo T2, with the figures.\n\nCheers,\nJonas"),
        (OTHER, "t2_echo", 4, False, "us",
         "wich four 144Qv2 qubits show the shortest T2 ehco at present, and thier numbers?"),
        (CHIP, "t2_star", 5, True, "us",
         "Fill in for 64Qv3, Ramsey T2* longest first:\n1) Q__ : ___ us\n2) Q__ : ___ us\n3) Q__ : ___ us\n"
         "4) Q__ : ___ us\n5) Q__ : ___ us"),
        (OTHER, "readout_frequency", 3, True, "GHz",
         "Which 3 resonators on 144Qv2 sit highest in readout frequency (GHz, per qubit)? Also, did the coffee "
         "machine ever get repaired?"),
    )
    out = []
    for i, (chip, name, n, high, unit, text) in enumerate(specs, 1):
        values = sorted(latest(db, chip, name).items(), key=lambda kv: kv[1], reverse=high)
        tol = UNIT_TOL[unit]
        if any(abs(a[1] - b[1]) <= 2 * tol for a, b in zip(values[:n], values[1:n + 1])):
            raise ValueError(f"top {n} of {name} cannot be told apart")
        expects = tuple(Expect(v, tol, near=(_label(q),), unit="%" if unit == "%" else "") for q, v in values[:n])
        out.append(_q("top N", i, text, Truth(numbers=expects)))
    return out


# ---- compound filter -------------------------------------------------------------------------------------------------
def _compound(db) -> list[Question]:
    specs = (
        (CHIP, None, ("t1", ">", 80.0, "us"), ("t2_echo", ">", 110.0, "us"),
         "64Qv3 qubits with T1 > 8.0e-5 s and T2 echo > 1.1e-4 s: tally them and list the ids."),
        (OTHER, None, ("t2_echo", ">", 120.0, "us"), ("readout_fidelity_0", ">", 98.0, "%"),
         "On 144Qv2, which qubits have an echo T2 no shorter than 120 µs plus a |0> readout fidelity "
         "not under 98 %? Number and ids."),
        (CHIP, (0, 31), ("t2_star", ">", 45.0, "us"), ("qubit_frequency", "<", 5.0, "GHz"),
         "Among Q000 to Q031 of 64Qv3 (the lower half of the chip, by id), count those whose T2* tops 45 µs while "
         "the qubit frequency stays under 5.0e9 Hz, and name each."),
        (OTHER, None, ("t1", "<", 35.0, "us"), ("average_readout_fidelity", "<", 92.0, "%"),
         "For the weekly review I need those 144Qv2 qubits weak twice over: T1 under 3.5e-5 s and "
         "averaged readout fidelity short of 92 %. A headcount plus the list."),
    )
    out = []
    for i, (chip, rng, first, second, text) in enumerate(specs, 1):
        kept: set[str] | None = None
        for name, op, limit, unit in (first, second):
            values = latest(db, chip, name)
            if rng:
                values = {k: v for k, v in values.items() if rng[0] <= int(k) <= rng[1]}
            _clear_of(values, limit, UNIT_TOL[unit])
            ok = {q for q, v in values.items() if (v > limit if op == ">" else v < limit)}
            kept = ok if kept is None else kept & ok
        assert kept is not None
        if not 0 < len(kept) <= 12:
            raise ValueError(f"compound filter {i} keeps {len(kept)}")
        out.append(_q("compound filter", i, text,
                      Truth(numbers=(_count(len(kept)),), patterns=_names(sorted(kept, key=int)))))
    return out


# ---- correlation -----------------------------------------------------------------------------------------------------
def _correlation(db) -> list[Question]:
    specs = (
        (CHIP, "t1", "t2_echo", "qubit",
         "corelation betwen T1 and T2 ecco for 64Qv3 qubits? pearson coeficient only pls"),
        (OTHER, "average_readout_fidelity", "readout_fidelity_1", "qubit",
         "> is the averaged readout number just tracking the |1> state one?\n\nGood question from Lea. For 144Qv2, "
         "Pearson's r linking averaged readout fidelity to the |1> one, qubit by qubit?\n\n-- Tomás"),
        (CHIP, "t1", "t2_star", "qubit",
         "NEED CORRELATION COEFF T1 AGAINST T2 STAR ACROSS 64QV3 QUBITS STOP SIGNED VALUE STOP"),
        (OTHER, "bell_state_fidelity", "zx90_gate_fidelity", "coupling",
         "Per coupling on 144Qv2, how tightly are the Bell-state and ZX90 fidelities tied (I suspect "
         "they are basically the same story)? Correlation coefficient, please."),
    )
    out = []
    for i, (chip, a, b, kind, text) in enumerate(specs, 1):
        xs, ys = latest(db, chip, a, kind), latest(db, chip, b, kind)
        keys = sorted(set(xs) & set(ys))
        r = statistics.correlation([xs[k] for k in keys], [ys[k] for k in keys])
        if abs(r) < 0.3:
            raise ValueError(f"correlation {i} is weak ({r:.2f})")
        out.append(_q("correlation", i, text, Truth(numbers=(Expect(r, UNIT_TOL["r"], signed=True),))))
    return out


# ---- cross-chip ------------------------------------------------------------------------------------------------------
def _sides(figures: dict[str, float], tol: float, text: str, i: int, unit: str = "") -> Question:
    if abs(figures[CHIP] - figures[OTHER]) <= 2 * tol:
        raise ValueError(f"cross-chip {i}: equal sides")
    win = max(figures, key=figures.__getitem__)
    lose = CHIP if win == OTHER else OTHER
    expects = tuple(Expect(figures[c], tol, unit=unit) for c in (CHIP, OTHER))
    return _q("cross-chip", i, text, Truth(numbers=expects, winner=CHIP_RE[win], loser=CHIP_RE[lose]))


def _cross(db) -> list[Question]:
    echo = {c: statistics.fmean(latest(db, c, "t2_echo").values()) for c in (CHIP, OTHER)}
    _, written = calendar(db, CHIP, 6)
    fails = {}
    for c in (CHIP, OTHER):
        window, text = calendar(db, c, 6)
        by_start, by_id = _rows(db, c, *window, FAILED)
        if text != written or len(by_start) != len(by_id) or not by_start:
            raise ValueError("the failures since a date read two ways")
        fails[c] = float(len(by_start))
    x90 = {c: statistics.fmean(latest(db, c, "x90_gate_fidelity").values()) for c in (CHIP, OTHER)}
    bell = {c: statistics.fmean(latest(db, c, "bell_state_fidelity", "coupling").values()) for c in (CHIP, OTHER)}
    return [
        _sides(echo, UNIT_TOL["us"], "MEAN T2 ECHO 64QV3 VERSUS 144QV2 STOP WHICH ONE LONGER STOP BOTH FIGURES STOP",
               1),
        _sides(fails, 0, f"Since {written}, did 64Qv3 or 144Qv2 tally more task failures? I need both tallies.", 2),
        _sides(x90, UNIT_TOL["%"], "Mean X90 gate fidelity, per chip:\n64Qv3 = ____ %\n144Qv2 = ____ %\n"
               "winner = ____", 3, "%"),
        _sides(bell, UNIT_TOL["%"], "Which device's couplings average the better Bell-state fidelity "
               "(current values only), 64Qv3 or 144Qv2? And unrelated: is the lab open on the holiday?", 4, "%"),
    ]


# ---- percentage ------------------------------------------------------------------------------------------------------
def _percentage(db) -> list[Question]:
    t1 = latest(db, CHIP, "t1")
    _clear_of(t1, 50.0, UNIT_TOL["us"])
    echo = latest(db, OTHER, "t2_echo")
    _clear_of(echo, 40.0, UNIT_TOL["us"])
    zx = latest(db, CHIP, "zx90_gate_fidelity", "coupling")
    _clear_of(zx, 98.8, UNIT_TOL["%"])
    day, written = calendar(db, OTHER, 3, single=True)
    qubits = {c: db["qubit"].count_documents({"chip_id": c}) for c in (CHIP, OTHER)}
    return [
        _q("percentage", 1, "On 64Qv3, what percentage of its qubits hold a T1 not below 50 µs?",
           Truth(numbers=(_share(sum(v > 50.0 for v in t1.values()), len(t1), qubits[CHIP]),))),
        _q("percentage", 2, f"Of the CheckRamsey tasks run on 144Qv2 on {written}, which percentage failed?",
           Truth(numbers=(_failed_share(db, OTHER, day, {"name": "CheckRamsey"}),))),
        _q("percentage", 3, "144Qv2, echo T2 beyond 4e-5 s: true for which share of qubits there, in per-cent terms?",
           Truth(numbers=(_share(sum(v > 40.0 for v in echo.values()), len(echo), qubits[OTHER]),))),
        _q("percentage", 4, "For Monday's stand-up slide: what % of the 64Qv3 couplings are past 98.8 % ZX90 "
           "fidelity?", Truth(numbers=(_share(sum(v > 98.8 for v in zx.values()), len(zx)),))),
    ]


# ---- window count ----------------------------------------------------------------------------------------------------
def _window(db) -> list[Question]:
    def counted(chip: str, window: tuple[date, date], query: dict, collection: str = "task_result_history") -> Expect:
        by_start, by_id = _rows(db, chip, *window, query, collection)
        return _count(len(by_start), len(by_id))

    since, written = calendar(db, CHIP, 5)
    day, on = calendar(db, CHIP, 2, single=True)
    return [
        _q("window count", 1, f"How many tasks on 64Qv3 have ended up failed since {written}?",
           Truth(numbers=(counted(CHIP, since, FAILED),))),
        _q("window count", 2, "> did the overnight batches all kick off?\n\nNot sure either. Count of runs "
           "kicked off on 144Qv2 over these past 5 days (executions, not tasks)?\n\nthanks, P.",
           Truth(numbers=(counted(OTHER, _moved(*span(db, OTHER, "days:5")), {}, RUNS),))),
        _q("window count", 3, "COUNT FAILED CHECKT2ECHO ON 144QV2 LAST FOUR DAYS STOP",
           Truth(numbers=(counted(OTHER, _moved(*span(db, OTHER, "days:4")), {"name": "CheckT2Echo", **FAILED}),))),
        _q("window count", 4, f"# TODO: number of X90InterleavedRandomizedBenchmarking failures on 64Qv3 on {on}?\n"
           "fails = None  # fill me", Truth(numbers=(counted(CHIP, day, {"name": "X90InterleavedRandomizedBenchmarking",
                                                                          **FAILED}),))),
    ]


# ---- fails most ------------------------------------------------------------------------------------------------------
def _leader(db, chip: str, window: tuple[date, date], query: dict, key) -> tuple[str, int]:  # noqa: ANN001
    by_start, by_id = _rows(db, chip, *window, {**FAILED, **query})
    first, second = _sole(Counter(key(r) for r in by_start)), _sole(Counter(key(r) for r in by_id))
    if first != second:
        raise ValueError("the two day readings disagree")
    return first


def _fails(db) -> list[Question]:
    check, n1 = _leader(db, OTHER, _moved(*span(db, OTHER, "days:10")), {}, lambda r: r["name"])
    since, written = calendar(db, CHIP, 7)
    task, n2 = _leader(db, CHIP, since, {}, lambda r: r["name"])
    pair, n3 = _leader(db, CHIP, _moved(*span(db, CHIP, "days:14")), {"task_type": "coupling"}, lambda r: r["name"])
    run, n4 = _leader(db, OTHER, _moved(*span(db, OTHER, "days:5")), {}, lambda r: r["execution_id"])
    return [
        _q("fails most", 1, "> someone should look at what keeps breaking on 144Qv2\n\nAgreed. Which calibration task "
           "shows the biggest failure count there in the 10 days through today, and how big?\n\nBest,\nRenata (cryo team)",
           Truth(numbers=(_count(n1),), patterns=(re.escape(check),))),
        _q("fails most", 2, f"wich calibraton task faild the most times on 64Qv3 since {written}, and how many tims?",
           Truth(numbers=(_count(n2),), patterns=(re.escape(task),))),
        _q("fails most", 3, "Of 64Qv3's coupler-level calibrations, which one failed most frequently in these 14 days "
           "up to today, and its count? Thanks again for yesterday's help!",
           Truth(numbers=(_count(n3),), patterns=(re.escape(pair),))),
        _q("fails most", 4, "144Qv2, past 5 days. Most-failing execution: ________ (id), with ___ failures.",
           Truth(numbers=(_count(n4),), patterns=(re.escape(run),))),
    ]


# ---- qubit pair ------------------------------------------------------------------------------------------------------
def _pairs(db) -> list[Question]:
    zx = _value(db, OTHER, "zx90_gate_fidelity", "6-7", "coupling")
    bell = _value(db, OTHER, "bell_state_fidelity", "20-21", "coupling")
    _clear_of({"20-21": bell}, 98.0, UNIT_TOL["%"])
    gate = _value(db, CHIP, "zx90_gate_time", "12-13", "coupling")
    sides = {p: _value(db, CHIP, "bell_state_fidelity", p, "coupling") for p in ("33-35", "33-36")}
    better, worse = sorted(sides, key=sides.__getitem__, reverse=True)
    if sides[better] - sides[worse] <= 2 * UNIT_TOL["%"]:
        raise ValueError("equal pairs")
    answer = r"(?i)\byes\b" if bell >= 98.0 else r"(?i)\bno\b|\bnot\b|n't"
    return [
        _q("qubit pair", 1, "ZX90 gate fidelity, Q006/Q007 coupler, 144Qv2?",
           Truth(numbers=(Expect(zx, UNIT_TOL["%"], near=(pair_re(6, 7),), unit="%"),))),
        _q("qubit pair", 2, "On 144Qv2, is Bell fidelity on Q20-Q21 no worse than 98 %? A yes/no plus the actual "
           "figure.",
           Truth(numbers=(Expect(bell, UNIT_TOL["%"], near=(pair_re(20, 21),), unit="%"),), patterns=(answer,))),
        _q("qubit pair", 3, "ZX90 duration (ns) between qubit no. 12 and qubit no. 13 on 64Qv3?",
           Truth(numbers=(Expect(gate, UNIT_TOL["ns"], near=(pair_re(12, 13),)),))),
        _q("qubit pair", 4, "For the weekly review: Q33-Q35 versus Q33-Q36, which coupler shows the higher "
           "Bell-state figure on 64Qv3 (and its value)?",
           Truth(numbers=(Expect(sides[better], UNIT_TOL["%"], near=(pair_re(*better.split("-")),), unit="%"),),
                 winner=pair_re(*better.split("-")), loser=pair_re(*worse.split("-")))),
    ]


# ---- spread ----------------------------------------------------------------------------------------------------------
def _spread(db) -> list[Question]:
    readout = list(latest(db, CHIP, "average_readout_fidelity").values())
    t1 = list(latest(db, OTHER, "t1").values())
    freq = [1000 * v for v in latest(db, OTHER, "qubit_frequency").values()]
    t2s = list(latest(db, CHIP, "t2_star").values())

    def std(values: list[float], tol: float) -> Expect:
        return Expect(statistics.stdev(values), tol, alternatives=(statistics.pstdev(values),))

    return [
        _q("spread", 1, "standart deviation of the averaged readout fidelty over 64Qv3's qubits?",
           Truth(numbers=(std(readout, UNIT_TOL["%"]),))),
        _q("spread", 2, "T1 RANGE 144QV2 LONGEST MINUS SHORTEST STOP MICROSECONDS STOP",
           Truth(numbers=(Expect(max(t1) - min(t1), UNIT_TOL["us"]),))),
        _q("spread", 3, "> how much do the qubit frequencies scatter on the big one?\n\nRelaying that: 144Qv2's qubit "
           "frequencies, their standard deviation (MHz).\n\n/ Ines",
           Truth(numbers=(std(freq, UNIT_TOL["MHz"]),))),
        _q("spread", 4, "T2* scatter on 64Qv3, one sigma (standard deviation, µs is fine)? Btw, how was your "
           "weekend?", Truth(numbers=(std(t2s, UNIT_TOL["us"]),))),
    ]


# ---- missing thing ---------------------------------------------------------------------------------------------------
def _missing(db) -> list[Question]:
    if db["qubit"].count_documents({"chip_id": CHIP, "qid": "70"}):
        raise ValueError("Q70 exists")
    if "256Qv1" in db["chip"].distinct("chip_id"):
        raise ValueError("256Qv1 exists")
    if any("leak" in k.lower() for r in db["task_result_history"].find({"chip_id": OTHER}, {"output_parameters": 1})
           for k in r["output_parameters"]):
        raise ValueError("leakage is measured")
    if [d for d in db["coupling"].find({"chip_id": CHIP}) if set(d["qid"].split("-")) == {"0", "63"}]:
        raise ValueError("0-63 exists")
    truth = Truth(any_words=NOT_THERE, no_values=True)
    return [
        _q("missing thing", 1, "T1 of Q070 on 64Qv3, please (latest value).", truth),
        _q("missing thing", 2, "> can you check the new chip?\n\nSure. Median echo T2 for 256Qv1, please?\n\n"
           "-- Oskar", truth),
        _q("missing thing", 3, "Whats the leakage rate per X90 on qubit no. 3 of 144Qv2 (as a fraction)?", truth),
        _q("missing thing", 4, "Q000–Q063 coupler on 64Qv3 — Bell-state number, please?", truth),
    ]


def build_heldout15(db, now: datetime) -> list[Question]:  # noqa: ARG001 - windows are written from the data
    """The forty questions, shape by shape (raises when the data leaves a question without a single answer)."""
    return (_missing(db) + _top(db) + _compound(db) + _correlation(db) + _cross(db) + _percentage(db)
            + _window(db) + _fails(db) + _pairs(db) + _spread(db))
