"""The thirteenth sealed set: 10 shapes × 4 questions in registers the earlier sets left out (a shift hand-over note,
a bug-ticket body, an email with greeting and sign-off, terse commands, a question after a long preamble about an
experiment plan, British spellings, "a fortnight", "since <weekday>", "between the 3rd and the 9th", qubits written
"qubit #5"/"Q-05"/"q5", couplings "5↔6"/"(5,6)", chips named by their qubit count only, "e-3" values, "per cent",
two sentences of which only the second asks, typos), truths from hand-written pymongo on the raw demo collections.

Written without reading the copilot's word tables, routing, claim check or prompts, nor any other sealed set's
questions.  Values, units, labels and windows are the ninth to twelfth sets' truth helpers:

- a window of whole UTC days ends on the day of the chip's newest run (by ``start_at``; the execution id's day is the
  accepted second reading); "a fortnight" is fourteen whole days, "since <weekday>" starts on the latest such day
  (``span``'s ``since:``), "between the Nth and the Mth" is an inclusive range of days written from the newest day.
- a failure = a ``task_result_history`` row with status ``failed``; a run = an ``execution_history`` document.

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

__all__ = ["build_heldout13", "between", "fortnight", "since"]

SPLIT = "held-out-13"
HISTORY = "task_result_history"
RUNS = "execution_history"
CHIP_RE = {CHIP: r"(?i)(?:\b64Q|\b64[- ]qubit)", OTHER: r"(?i)(?:\b144Q|\b144[- ]qubit)"}
NOT_THERE = ("not", "no ", "n't", "unknown", "only", "exist")
FAILED = {"status": "failed"}
SHIFT = 0  # days every window is moved back by (0; the hand-break sets 1)


def _q(shape: str, i: int, text: str, truth: Truth) -> Question:
    return Question(f"sealed13-{shape.replace(' ', '-')}-{i}", shape, text, truth, split=SPLIT)


def _moved(first: date, last: date) -> tuple[date, date]:
    return first - timedelta(days=SHIFT), last - timedelta(days=SHIFT)


def fortnight(db, chip: str) -> tuple[date, date]:
    return _moved(*span(db, chip, "days:14"))


def since(db, chip: str) -> tuple[tuple[date, date], str]:
    """The window from the weekday three days before the newest day, and that weekday's name."""
    newest = span(db, chip, "days:1")[1]
    start = newest - timedelta(days=3)
    return _moved(*span(db, chip, f"since:{start.weekday()}")), f"{start:%A}"


def between(db, chip: str, back_first: int, back_last: int) -> tuple[tuple[date, date], str]:
    """An inclusive range of days written British-style, "3 and 9 November" (both months named across a boundary)."""
    newest = span(db, chip, "days:1")[1]
    first, last = newest - timedelta(days=back_first), newest - timedelta(days=back_last)
    text = (f"{first.day} and {last.day} {last:%B}" if first.month == last.month
            else f"{first.day} {first:%B} and {last.day} {last:%B}")
    return _moved(first, last), text


def _share(kept: int, *totals: int) -> Expect:
    if not kept or kept in totals:
        raise ValueError("a share of nothing or of everything")
    values = [100 * kept / t for t in totals]
    return Expect(values[0], UNIT_TOL["share"], unit="%", alternatives=tuple(v for v in values[1:] if v != values[0]))


def _failed_share(db, chip: str, window: tuple[date, date], query: dict) -> Expect:
    """Failed rows over all rows in the window, by ``start_at`` (the execution-id day the accepted other reading)."""
    (bad_t, bad_i), (all_t, all_i) = (_rows(db, chip, *window, {**query, **q}) for q in (FAILED, {}))
    share = _share(len(bad_t), len(all_t))
    other = 100 * len(bad_i) / len(all_i)
    return Expect(share.value, share.tol, unit="%", alternatives=(other,) if other != share.value else ())


# ---- top N -----------------------------------------------------------------------------------------------------------
def _top(db) -> list[Question]:
    specs = (
        (CHIP, "t2_echo", "qubit", 3, True, "us",
         "Shift hand-over note for the night crew. 64-qubit device: which three qubits presently show the longest "
         "Hahn-echo T2? Write each value into the handover."),
        (OTHER, "bell_state_fidelity", "coupling", 4, True, "%",
         "gimme 144 qubit machine couplers, top 4 in Bell-state terms, with numbers"),
        (CHIP, "qubit_frequency", "qubit", 2, False, "GHz",
         "Dear colleagues,\nCould someone tell me which two qubits on 64Qv3 are tuned lowest in frequency, and what "
         "those frequencies are?\nKind regards,\nMarta"),
        (OTHER, "readout_fidelity_1", "qubit", 5, False, "%",
         "Bug ticket #4411 — body: the readout of |1> looks degraded on 144Qv2. Steps: list the five poorest qubits for "
         "excited-state assignment fidelity and paste each figure below."),
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
        (CHIP, ("readout_fidelity_1", "<", 92.0, "%"), ("t1", ">", 80.0, "us"),
         "list 64Qv3 qubits where |1> readout error is above 8e-2 while T1 exceeds 80 us. count too"),
        (OTHER, ("average_readout_fidelity", ">", 97.0, "%"), ("t2_echo", ">", 150.0, "us"),
         "We're planning a two-week randomised benchmarking campaign on 144Qv2 and want to start from the "
         "cleanest qubits. Count those with an averaged readout fidelity over 97 per cent plus an echo T2 past 150 "
         "us, and name them."),
        (CHIP, ("anharmonicity", ">", -260.0, "MHz"), ("t2_star", ">", 40.0, "us"),
         "Handover from the day shift: we flagged weakly anharmonic qubits. For 64Qv3, count qubits having "
         "anharmonicty above -260 MHz and also a Ramsey T2* beyond 40 us. Name them."),
        (OTHER, ("qubit_frequency", ">", 5.25, "GHz"), ("t1", "<", 60.0, "us"),
         "Hi all,\nquick one: which qubits of 144Qv2 sit above 5.25 GHz yet relax faster than T1 = 60 us, and how "
         "many is that?\nCheers,\nTom"),
    )
    out = []
    for i, (chip, first, second, text) in enumerate(specs, 1):
        kept: set[str] | None = None
        for name, op, limit, unit in (first, second):
            values = latest(db, chip, name)
            _clear_of(values, limit, UNIT_TOL[unit])
            mine = {q for q, v in values.items() if (v > limit if op == ">" else v < limit)}
            kept = mine if kept is None else kept & mine
        if not kept or len(kept) > 12:
            raise ValueError(f"compound filter {i} keeps {len(kept or ())} qubits")
        out.append(_q("compound filter", i, text, Truth(numbers=(_count(len(kept)),),
                                                          patterns=tuple(qubit_re(q) for q in sorted(kept)))))
    return out


# ---- correlation -----------------------------------------------------------------------------------------------------
def _correlation(db) -> list[Question]:
    specs = (
        (CHIP, "t1", "t2_echo", "qubit",
         "Correlation coefficient between T1 and echo T2 across all 64Qv3 qubits — Pearson r, signed."),
        (OTHER, "readout_fidelity_1", "average_readout_fidelity", "qubit",
         "For the readout upgrade we'll compare before/after on 144Qv2 next month. Right now, how strongly does "
         "|1> assignment fidelity track the averaged readout fidelity, as a Pearson r?"),
        (OTHER, "bell_state_fidelity", "zx90_gate_fidelity", "coupling",
         "Ticket body: suspect ZX90 calibration drifts independently of Bell tomography on the 144 qubit machine. "
         "Please attach the Pearson corelation over couplers, ZX90 fidelity on x, Bell-tomography fidelity on y."),
        (CHIP, "readout_fidelity_0", "average_readout_fidelity", "qubit",
         "Good morning,\nhow well does |0> readout fidelity predict the averaged readout fidelity on "
         "64Qv3? A Pearson r would do.\nThanks,\nPriya"),
    )
    out = []
    for i, (chip, a, b, kind, text) in enumerate(specs, 1):
        xs, ys = latest(db, chip, a, kind), latest(db, chip, b, kind)
        common = sorted(set(xs) & set(ys))
        r = statistics.correlation([xs[k] for k in common], [ys[k] for k in common])
        if abs(r) < 0.15:
            raise ValueError(f"a weak correlation {a}/{b}")
        out.append(_q("correlation", i, text, Truth(numbers=(Expect(r, UNIT_TOL["r"], signed=True),))))
    return out


# ---- cross-chip ------------------------------------------------------------------------------------------------------
def _two(figures: dict[str, float], tol: float, unit: str = "") -> Truth:
    (hi, a), (lo, b) = sorted(figures.items(), key=lambda kv: -kv[1])
    if abs(a - b) <= 2 * tol:
        raise ValueError("equal sides")
    return Truth(numbers=tuple(Expect(figures[c], tol, "count" if tol == 0 else "value", unit=unit)
                               for c in (CHIP, OTHER)), winner=CHIP_RE[hi], loser=CHIP_RE[lo])


def _cross(db) -> list[Question]:
    out = []
    echo = {c: statistics.mean(latest(db, c, "t2_echo").values()) for c in (CHIP, OTHER)}
    out.append(_q("cross-chip", 1, (
        "64-qubit vs 144-qubit device: mean echo T2, which one's longer? Give both averages."),
        _two(echo, UNIT_TOL["us"])))
    bell = {c: statistics.median(latest(db, c, "bell_state_fidelity", "coupling").values()) for c in (CHIP, OTHER)}
    out.append(_q("cross-chip", 2, (
        "Hello team,\nfor the quarterly review I'd like the median Bell-state figure, 64 qubit chip set against "
        "144 qubit chip: which one leads, plus the margin?\nBest wishes,\nKen"),
        _two(bell, UNIT_TOL["%"], "%")))
    fails = {}
    for c in (CHIP, OTHER):
        by_time, by_id = _rows(db, c, *fortnight(db, c), FAILED)
        if len(by_time) != len(by_id):
            raise ValueError("the two readings of the fortnight differ")
        fails[c] = float(len(by_time))
    out.append(_q("cross-chip", 3, (
        "Hand-over: across this last fortnight, did the 64-qubit or the 144-qubit chip rack up more failed calibration "
        "tasks? Note both tallies."), _two(fails, 0)))
    worst = {c: min(latest(db, c, "t2_star").values()) for c in (CHIP, OTHER)}
    out.append(_q("cross-chip", 4, (
        "Each chip has its weakest dephasing qubit. Compare the lowest Ramsey T2* on 64Qv3 with the lowest on 144Qv2 "
        "— which device's worst qubit is better off?"), _two(worst, UNIT_TOL["us"])))
    return out


# ---- percentage ------------------------------------------------------------------------------------------------------
def _percentage(db) -> list[Question]:
    out = []
    t1 = latest(db, CHIP, "t1")
    _clear_of(t1, 50.0, UNIT_TOL["us"])
    out.append(_q("percentage", 1, (
        "What per cent of 64-qubit chip qubits keep T1 above 50 us?"),
        Truth(numbers=(_share(sum(v > 50 for v in t1.values()), len(t1), 64),))))
    zx = latest(db, OTHER, "zx90_gate_fidelity", "coupling")
    _clear_of(zx, 99.0, UNIT_TOL["%"])
    out.append(_q("percentage", 2, (
        "Email to the fab group — Hi both, before we order new samples: what share of couplers on 144Qv2 clear "
        "99 per cent ZX90 fidelity? Thanks, Ana"),
        Truth(numbers=(_share(sum(v > 99 for v in zx.values()), len(zx)),))))
    share = _failed_share(db, OTHER, fortnight(db, OTHER), {"name": "CheckRamsey"})
    out.append(_q("percentage", 3, (
        "gimme the Ramsey failure rate, 144 qubit chip, last fortnight, as a percentage of its Ramsey runs"),
        Truth(numbers=(share,))))
    window, day = since(db, CHIP)
    out.append(_q("percentage", 4, (
        f"Shift log, 64Qv3: the fridge was warmed slightly on {day}. Since {day}, what percentage of task results "
        "on it ended in failure?"), Truth(numbers=(_failed_share(db, CHIP, window, {}),))))
    return out


# ---- window count ----------------------------------------------------------------------------------------------------
def _window(db) -> list[Question]:
    out = []
    by_time, by_id = _rows(db, CHIP, *fortnight(db, CHIP), {"name": "CheckT1", **FAILED})
    out.append(_q("window count", 1, (
        "Number of failed T1 measurements, 64Qv3, latest fortnight?"),
        Truth(numbers=(_count(len(by_time), len(by_id)),))))
    window, text = between(db, OTHER, 27, 21)
    by_time, by_id = _rows(db, OTHER, *window, {}, RUNS)
    out.append(_q("window count", 2, (
        f"Bug report draft. Expected behaviour: daily runs. Count of calibration runs logged on 144Qv2 between "
        f"{text}, both days included?"), Truth(numbers=(_count(len(by_time), len(by_id)),))))
    (first, last), day = since(db, CHIP)
    by_time, by_id = _rows(db, CHIP, first, last, FAILED)
    out.append(_q("window count", 3, (
        f"count 64Qv3 task failures since {day}"), Truth(numbers=(_count(len(by_time), len(by_id)),))))
    (first, last), day = since(db, OTHER)
    by_time, by_id = _rows(db, OTHER, first, last, {}, RUNS)
    out.append(_q("window count", 4, (
        f"Dear Dr Okafor,\nas promised, a question about our 144-qubit device: what number of calibration executions "
        f"got launched since {day}?\nYours sincerely,\nLin"), Truth(numbers=(_count(len(by_time), len(by_id)),))))
    return out


# ---- fails most ------------------------------------------------------------------------------------------------------
def _leader(db, chip: str, first: date, last: date, key: str, query: dict) -> tuple[str, Expect]:
    by_time, by_id = _rows(db, chip, first, last, {**FAILED, **query})
    keyed = (lambda r: _pair(r[key])) if query.get("task_type") == "coupling" else (lambda r: r[key])
    top, n = _sole(Counter(map(keyed, by_time)))
    other_top, other_n = _sole(Counter(map(keyed, by_id)))
    if other_top != top:
        raise ValueError("the two readings name different leaders")
    return top, _count(n, other_n)


def _fails(db) -> list[Question]:
    out = []
    task, n = _leader(db, CHIP, *fortnight(db, CHIP), "name", {})
    out.append(_q("fails most", 1, (
        "Across this past fortnight, which calibration task on 64Qv3 failed oftenest, with its tally?"),
        Truth(numbers=(n,), patterns=(re.escape(task),))))
    window, text = between(db, OTHER, 20, 6)
    qubit, n = _leader(db, OTHER, *window, "qid", {"task_type": "qubit"})
    out.append(_q("fails most", 2, (
        f"Morning handover: 144Qv2 was flaky between {text}. Which single qubit was the flakiest "
        "of all in that stretch? Give its failed-task count."), Truth(numbers=(n,), patterns=(qubit_re(qubit),))))
    window, text = between(db, CHIP, 20, 14)
    run, n = _leader(db, CHIP, *window, "execution_id", {})
    out.append(_q("fails most", 3, (
        f"Ticket: find the 64Qv3 execution between {text} whose failed tasks outnumber every other run's. Report its run id "
        "plus how many failed."), Truth(numbers=(n,), patterns=(re.escape(run),))))
    pair, n = _leader(db, OTHER, *fortnight(db, OTHER), "qid", {"task_type": "coupling"})
    out.append(_q("fails most", 4, (
        "which coupler of 144Qv2 failed the most over a fortnight? how many fails?"),
        Truth(numbers=(n,), patterns=(_label(pair),))))
    return out


# ---- qubit pair ------------------------------------------------------------------------------------------------------
def _pairs(db) -> list[Question]:
    out = []
    bell = _value(db, CHIP, "bell_state_fidelity", "12-13", "coupling")
    out.append(_q("qubit pair", 1, (
        "Coupling (12,13), 64-qubit chip: Bell-state fidelity?"),
        Truth(numbers=(Expect(bell, UNIT_TOL["%"], near=(pair_re(12, 13),), unit="%"),))))
    gate = _value(db, OTHER, "zx90_gate_time", "104-105", "coupling")
    out.append(_q("qubit pair", 2, (
        "Hello,\nwhat ZX90 gate duration is currently calibrated for 104↔105 on 144Qv2?\nMany thanks,\nOwen"),
        Truth(numbers=(Expect(gate, UNIT_TOL["ns"], near=(pair_re(104, 105),)),))))
    zx = {p: _value(db, CHIP, "zx90_gate_fidelity", p, "coupling") for p in ("19-22", "19-33")}
    (better, hi), (worse, lo) = sorted(zx.items(), key=lambda kv: -kv[1])
    if hi - lo <= 2 * UNIT_TOL["%"]:
        raise ValueError("equal couplings")
    out.append(_q("qubit pair", 3, (
        "We plan a CZ-free compilation test on 64Qv3 and must route through qubit #19. Between 19↔22 and 19↔33, "
        "which link has the better ZX90 fidelity, and what is it?"),
        Truth(numbers=(Expect(hi, UNIT_TOL["%"], unit="%"),), winner=_label(better), loser=_label(worse))))
    bell = _value(db, OTHER, "bell_state_fidelity", "108-110", "coupling")
    _clear_of({"108-110": bell}, 95.0, UNIT_TOL["%"])
    out.append(_q("qubit pair", 4, (
        "Q-108 together with Q-110 share a coupler on 144Qv2. Does its Bell-state fidelity reach 95 per cent "
        "— yes or no, with the value?"),
        Truth(numbers=(Expect(bell, UNIT_TOL["%"], unit="%"),),
              patterns=(r"(?i)\byes\b" if bell > 95 else r"(?i)\bno\b",))))
    return out


# ---- spread ----------------------------------------------------------------------------------------------------------
def _spread(db) -> list[Question]:
    out = []
    t2 = list(latest(db, CHIP, "t2_star").values())
    out.append(_q("spread", 1, (
        "Standard deviation of Ramsey T2* over the 64-qubit chip's qubits, in microseconds please."),
        Truth(numbers=(Expect(statistics.stdev(t2), UNIT_TOL["us"], alternatives=(statistics.pstdev(t2),)),))))
    freq = list(latest(db, OTHER, "qubit_frequency").values())
    out.append(_q("spread", 2, (
        "Frequency-crowding check, 144Qv2. From the lowest-tuned qubit to the highest, what's the spread in "
        "MHz?"), Truth(numbers=(Expect(1000 * (max(freq) - min(freq)), UNIT_TOL["MHz"]),))))
    gate = list(latest(db, OTHER, "zx90_gate_time", "coupling").values())
    out.append(_q("spread", 3, (
        "gimme ZX90 gate-time standard deviation over 144Qv2 couplers, ns"),
        Truth(numbers=(Expect(statistics.stdev(gate), UNIT_TOL["ns"], alternatives=(statistics.pstdev(gate),)),))))
    ro = list(latest(db, CHIP, "readout_fidelity_0").values())
    out.append(_q("spread", 4, (
        "Colour me curious: the |0> readout on 64Qv3 looks uneven. What's the gap between its best and worst "
        "|0>-state readout fidelity, in percentage points?"),
        Truth(numbers=(Expect(max(ro) - min(ro), UNIT_TOL["%"]),))))
    return out


# ---- missing thing ---------------------------------------------------------------------------------------------------
def _missing(db) -> list[Question]:
    if db["qubit"].count_documents({"chip_id": CHIP, "qid": "70"}):
        raise ValueError("qubit 70 exists")
    if [d for d in db["coupling"].find({"chip_id": OTHER}) if set(d["qid"].split("-")) == {"5", "77"}]:
        raise ValueError("coupling 5-77 exists")
    if any(c.startswith("27Q") for c in db["chip"].distinct("chip_id")):
        raise ValueError("a 27-qubit chip exists")
    if db[HISTORY].count_documents({"output_parameter_names": {"$regex": "temp", "$options": "i"}}):
        raise ValueError("a temperature is stored")
    texts = (
        "q70 T1 on our 64-qubit fridge sample?",
        "Hi,\nI need (5,77)'s Bell-state number on 144Qv2 for a paper figure.\nBest,\nJo",
        "Handover note: someone asked about the 27-qubit chip. What is its median T1?",
        "Ticket: effective qubit temperature looks off on 64Qv3. Which qubit is the hottest, in mK?",
    )
    return [_q("missing thing", i, text, Truth(any_words=NOT_THERE, no_values=True))
            for i, text in enumerate(texts, 1)]


def build_heldout13(db, now: datetime) -> list[Question]:  # noqa: ARG001 - windows are written from the data
    """40 questions, 4 per shape; raises when any of them has no single answer."""
    return (_missing(db) + _top(db) + _compound(db) + _correlation(db) + _cross(db) + _percentage(db) + _window(db)
            + _fails(db) + _pairs(db) + _spread(db))
