"""The eighteenth sealed set: 10 shapes × 4 questions in registers the earlier sets left out (dictation with filler
words, an e-mail reply under a ``Re:`` subject quoting one earlier line, a markdown checklist with open ``- [ ]``
items, a user story with acceptance criteria, a meeting transcript with timestamps and speakers, a formal
"kindly furnish" request, an incident page with a severity and "ack", an exam exercise with marks, a "TL;DR" ask, a
FAQ entry with an empty answer, a sticky note with arrows, text-speak, typos, British spellings, "pct", numbers as
words, qubit ranges written "Q8 to Q15", negated limits in capitals — "NOT lower than" —, a hypothesis to confirm or
refute, a reason given before the ask, windows as a date range with an en dash — "Nov 25 – Nov 28" —, as day and
month — "from 24 to 28 November" — or as the chip's last N runs), truths from hand-written pymongo on the raw demo
collections.

Written without reading the copilot's word tables, routing, claim check or prompts, nor any other sealed set's
questions.  Values, units, labels and windows are the ninth to seventeenth sets' truth helpers:

- latest = per qubit/coupling id, the newest completed, non-excluded ``task_result_history`` row holding the metric;
  display units: fidelities in %, T1/T2 in µs, frequencies in GHz (MHz where asked), anharmonicity in MHz, gate
  time in ns.
- "Q8 to Q15" is every qubit id from 8 through 15, both ends included; a share over a range is over the range's
  qubits with a value (over all the range's qubits the accepted other reading).
- "NOT lower than X" / "NOT shorter than X" / "NOT above X" are at least X / at least X / at most X; every limit is
  clear of every value, so they keep the same ids as the strict comparisons.
- a window of whole UTC days ends on the day of the chip's newest run (by ``start_at``; the execution id's day is the
  accepted second reading): "the seven days just gone" are seven whole days; "the most recent ten days", "the ten
  latest days" and "the ten days that close with its most recent run" are ten; "these last fourteen days" fourteen.
  A date range ("Nov 25 – Nov 28", "from 24 to 28 November") is an inclusive range of whole days written from the
  newest day, so the set means the same whatever day the demo is seeded on.  "The last N runs" are the chip's N
  newest ``execution_history`` documents (by ``start_at``) and the task rows carrying their execution ids.
- a failure = a ``task_result_history`` row with status ``failed``; a run = an ``execution_history`` document; a
  coupling task is a row with ``task_type`` "coupling".
- a share of qubits is over the qubits with a value (over all the chip's qubits the accepted other reading); a share
  of couplings is over the couplings with a value; a share of tasks is failed rows over all rows.

The builder raises instead of writing a question with no single answer (a tie, a limit on a value, a weak
correlation, equal sides, an empty window).
"""

from __future__ import annotations

import re
import statistics
from collections import Counter
from collections.abc import Callable
from datetime import date, datetime, timedelta

from tests.eval_score import Expect, Truth
from tests.public_eval import CHIP, OTHER, Question
from tests.sealed.heldout9 import UNIT_TOL, latest, pair_re, qubit_re
from tests.sealed.heldout10 import span
from tests.sealed.heldout11 import _clear_of, _count, _label, _rows, _sole
from tests.sealed.heldout12 import _value
from tests.sealed.heldout13 import _share

__all__ = ["build_heldout18", "dashed", "days", "last_runs", "spelled"]

SPLIT = "held-out-18"
RUNS = "execution_history"
HISTORY = "task_result_history"
CHIP_RE = {CHIP: r"(?i)(?:\b64Q|\b64[- ]qubit)", OTHER: r"(?i)(?:\b144Q|\b144[- ]qubit)"}
NOT_THERE = ("not", "no ", "n't", "unknown", "only", "exist", "invalid", "isn't", "doesn't", "unavailable")
FAILED = {"status": "failed"}
SHIFT = 0  # days every window is moved back by (0; the hand-break sets 1)


def _q(shape: str, i: int, text: str, truth: Truth) -> Question:
    return Question(f"sealed18-{shape.replace(' ', '-')}-{i}", shape, text, truth, split=SPLIT)


def days(db, chip: str, how: str) -> tuple[date, date]:
    """``span``'s window (``days:N`` or ``back:A:B``), moved back by ``SHIFT``."""
    first, last = span(db, chip, how)
    return first - timedelta(days=SHIFT), last - timedelta(days=SHIFT)


def dashed(window: tuple[date, date]) -> str:
    """``Nov 25 – Nov 28``."""
    first, last = window
    return f"{first:%b} {first.day} – {last:%b} {last.day}"


def spelled(window: tuple[date, date]) -> str:
    """``24 to 28 November`` (``30 November to 2 December`` across a month)."""
    first, last = window
    if first.month == last.month:
        return f"{first.day} to {last.day} {last:%B}"
    return f"{first.day} {first:%B} to {last.day} {last:%B}"


def last_runs(db, chip: str, n: int) -> list[str]:
    """The execution ids of the chip's ``n`` newest runs (by ``start_at``; a tie at the cut has no single answer)."""
    runs = list(db[RUNS].find({"chip_id": chip}, {"execution_id": 1, "start_at": 1}).sort("start_at", -1))
    if len(runs) <= n or runs[n - 1]["start_at"] == runs[n]["start_at"]:
        raise ValueError(f"the last {n} runs of {chip} are not one set")
    return [r["execution_id"] for r in runs[:n]]


def _in_runs(db, chip: str, n: int, query: dict) -> list[dict]:
    ids = last_runs(db, chip, n)
    return list(db[HISTORY].find({"chip_id": chip, "execution_id": {"$in": ids}, **query}))


def _counted(db, chip: str, window: tuple[date, date], query: dict, collection: str = HISTORY) -> Expect:
    by_start, by_id = _rows(db, chip, *window, query, collection)
    if not by_start:
        raise ValueError("an empty window")
    return _count(len(by_start), len(by_id))


def _ranged(values: dict[str, float], first: int, last: int) -> dict[str, float]:
    return {q: v for q, v in values.items() if first <= int(q) <= last}


def _names(keys: list[str]) -> tuple[str, ...]:
    return tuple(qubit_re(k) for k in keys)


def _ranked(values: dict[str, float], n: int, high: bool, unit: str) -> Truth:
    ranked = sorted(values.items(), key=lambda kv: kv[1], reverse=high)
    tol = UNIT_TOL[unit]
    if any(abs(a[1] - b[1]) <= 2 * tol for a, b in zip(ranked[:n], ranked[1:n + 1])):
        raise ValueError(f"the top {n} cannot be told apart")
    return Truth(numbers=tuple(Expect(v, tol, near=(_label(k),), unit="%" if unit == "%" else "")
                               for k, v in ranked[:n]))


# ---- top N -----------------------------------------------------------------------------------------------------------
def _top(db) -> list[Question]:
    t1 = _ranged(latest(db, CHIP, "t1"), 8, 15)
    if len(t1) != 8:
        raise ValueError("Q8 to Q15 of 64Qv3 do not all have a T1")
    freq = latest(db, OTHER, "qubit_frequency")
    readout = latest(db, CHIP, "average_readout_fidelity")
    zx = latest(db, CHIP, "zx90_gate_fidelity", "coupling")
    return [
        _q("top N", 1, "Looking only at Q8 to Q15 on 64Qv3, which two qubits lead on T1 at the moment? "
           "Each with its value in µs.", _ranked(t1, 2, True, "us")),
        _q("top N", 2, "[09:14] Ana: next item, 144Qv2 frequencies\n[09:15] Ben: which three of its qubits "
           "are parked lowest in frequency today?\n[09:15] Ana: with the GHz figures, please",
           _ranked(freq, 3, False, "GHz")),
        _q("top N", 3, "hey which five qubits on 64Qv3 hav the worst avg readout fidelity rn?? need the numbers "
           "as well, thx", _ranked(readout, 5, False, "%")),
        _q("top N", 4, "Because we are re-characterising the weakest links on 64Qv3 this afternoon, I'd be grateful "
           "for the three couplings currently worst on ZX90 fidelity, each with its percentage.",
           _ranked(zx, 3, False, "%")),
    ]


# ---- compound filter -------------------------------------------------------------------------------------------------
def _filtered(db, chip: str, rules: tuple[tuple[str, str, float, str], ...], qubits: tuple[int, int] | None = None,
              ) -> Truth:
    kept: set[str] | None = None
    for name, op, limit, unit in rules:
        values = latest(db, chip, name)
        if qubits is not None:
            values = _ranged(values, *qubits)
        _clear_of(values, limit, UNIT_TOL[unit])
        ok = {q for q, v in values.items() if (v > limit if op == ">" else v < limit)}
        kept = ok if kept is None else kept & ok
    assert kept is not None
    if not 0 < len(kept) <= 12:
        raise ValueError(f"a compound filter keeps {len(kept)}")
    return Truth(numbers=(_count(len(kept)),), patterns=_names(sorted(kept, key=int)))


def _compound(db) -> list[Question]:
    return [
        _q("compound filter", 1, "64Qv3, pls list every qubit with X90 fid NOT lower than 99.6 pct AND echo T2 NOT "
           "shorter than 110 us, + the count",
           _filtered(db, CHIP, (("x90_gate_fidelity", ">", 99.6, "%"), ("t2_echo", ">", 110.0, "us")))),
        _q("compound filter", 2, "User story: as a calibration engineer on 144Qv2, I want every qubit whose T1 "
           "exceeds 95 µs while its Ramsey T2* stays below 45 µs, so that I can look for a dephasing source.\n"
           "Acceptance criteria: qubit ids listed, total given.",
           _filtered(db, OTHER, (("t1", ">", 95.0, "us"), ("t2_star", "<", 45.0, "us")))),
        _q("compound filter", 3, "For Q40 to Q79 of 144Qv2 only: which of them read the |1> state with a fidelity "
           "under 90 % while their qubit frequency sits over 5 GHz? Count included.",
           _filtered(db, OTHER, (("readout_fidelity_1", "<", 90.0, "%"), ("qubit_frequency", ">", 5.0, "GHz")),
                     (40, 79))),
        _q("compound filter", 4, "whcih qubits on 64Qv3 have an anharmonicty deeper then -300 MHz and a T1 "
           "abvoe 70 us? also how many r there",
           _filtered(db, CHIP, (("anharmonicity", "<", -300.0, "MHz"), ("t1", ">", 70.0, "us")))),
    ]


# ---- correlation -----------------------------------------------------------------------------------------------------
def _r(db, chip: str, a: str, b: str, kind: str = "qubit") -> Truth:
    xs, ys = latest(db, chip, a, kind), latest(db, chip, b, kind)
    keys = sorted(set(xs) & set(ys))
    r = statistics.correlation([xs[k] for k in keys], [ys[k] for k in keys])
    if abs(r) < 0.3:
        raise ValueError(f"{a} and {b} correlate weakly ({r:.2f})")
    return Truth(numbers=(Expect(r, UNIT_TOL["r"], signed=True),))


def _correlation(db) -> list[Question]:
    return [
        _q("correlation", 1, "My hypothesis: on 144Qv2 long-T1 qubits tend to be the long-T2* (Ramsey) ones as "
           "well. Confirm or refute it with Pearson's r, sign and all.",
           _r(db, OTHER, "t1", "t2_star")),
        _q("correlation", 2, "Exercise 3 (4 marks). From the most recent calibration of 64Qv3, compute the Pearson "
           "coefficient between echo T2 and Ramsey T2*, qubit-wise. State the sign of your result.",
           _r(db, CHIP, "t2_echo", "t2_star")),
        _q("correlation", 3, "Re: coupler quality on 64Qv3\n\n> do the ZX90 numbers and the Bell numbers move "
           "together at all?\n\nGood point. Can someone put one figure on it: Pearson r pairing each "
           "coupling's ZX90 gate fidelity to that same coupling's Bell-state number, signed?",
           _r(db, CHIP, "zx90_gate_fidelity", "bell_state_fidelity", "coupling")),
        _q("correlation", 4, "okay um so for the one hundred forty four qubit chip, uh, how closely does the zero-state "
           "readout fidelity follow the one-state readout fidelity, like, what's r for that, "
           "qubit by qubit", _r(db, OTHER, "readout_fidelity_0", "readout_fidelity_1")),
    ]


# ---- cross-chip ------------------------------------------------------------------------------------------------------
def _sides(figures: dict[str, float], tol: float, text: str, i: int, unit: str = "") -> Question:
    if abs(figures[CHIP] - figures[OTHER]) <= 2 * tol:
        raise ValueError(f"cross-chip {i}: equal sides")
    win = max(figures, key=figures.__getitem__)
    lose = CHIP if win == OTHER else OTHER
    expects = tuple(Expect(figures[c], tol, unit=unit) for c in (CHIP, OTHER))
    return _q("cross-chip", i, text, Truth(numbers=expects, winner=CHIP_RE[win], loser=CHIP_RE[lose]))


def _both_ways(db, chip: str, window: tuple[date, date], query: dict, collection: str = HISTORY) -> float:
    by_start, by_id = _rows(db, chip, *window, query, collection)
    if len(by_start) != len(by_id) or not by_start:
        raise ValueError("a window count reads two ways")
    return float(len(by_start))


def _cross(db) -> list[Question]:
    sides = (CHIP, OTHER)
    median = {c: statistics.median(latest(db, c, "t1").values()) for c in sides}
    window = days(db, CHIP, "back:6:3")
    if window != days(db, OTHER, "back:6:3"):
        raise ValueError("the two chips' newest days differ")
    fails = {c: _both_ways(db, c, window, FAILED) for c in sides}
    x90 = {c: statistics.fmean(latest(db, c, "x90_gate_fidelity").values()) for c in sides}
    runs = {c: _both_ways(db, c, days(db, c, "days:10"), {}, RUNS) for c in sides}
    return [
        _sides(median, UNIT_TOL["us"], "Kindly furnish, for the quarterly report, the median T1 figure for 64Qv3 and "
               "likewise for 144Qv2, indicating the greater one.", 1),
        _sides(fails, 0, f"Failed tasks, {dashed(window)} (inclusive): 64Qv3 or 144Qv2, which had more? Both "
               "totals please.", 2),
        _sides(x90, UNIT_TOL["%"], "mean X90 fid in pct, 64Qv3 vs 144Qv2 — who's ahead? give both means", 3, "%"),
        _sides(runs, 0, "Q: Over the ten latest days, which chip was calibrated more often, 64Qv3 or 144Qv2, "
               "counting runs?\nA: ____ (write both run counts)", 4),
    ]


# ---- percentage ------------------------------------------------------------------------------------------------------
def _percentage(db) -> list[Question]:
    t1 = latest(db, OTHER, "t1")
    _clear_of(t1, 50.0, UNIT_TOL["us"])
    qubits = db["qubit"].count_documents({"chip_id": OTHER})
    echo = _ranged(latest(db, CHIP, "t2_echo"), 0, 31)
    _clear_of(echo, 80.0, UNIT_TOL["us"])
    rows = _in_runs(db, CHIP, 3, {})
    zx = latest(db, OTHER, "zx90_gate_fidelity", "coupling")
    _clear_of(zx, 99.0, UNIT_TOL["%"])
    return [
        _q("percentage", 1, "144Qv2: T1 NOT above 50 µs — what pct of its qubits fall in that bucket?",
           Truth(numbers=(_share(sum(v < 50.0 for v in t1.values()), len(t1), qubits),))),
        _q("percentage", 2, "Of the qubits Q0 to Q31 on 64Qv3, what percentage show an echo T2 longer than "
           "80 µs?", Truth(numbers=(_share(sum(v > 80.0 for v in echo.values()), len(echo), 32),))),
        _q("percentage", 3, "SEV3 incident, 64Qv3: failure spike suspected. Of all the tasks in the chip's last "
           "three runs, what % ended in failure? ack when you have it",
           Truth(numbers=(_share(sum(r["status"] == "failed" for r in rows), len(rows)),))),
        _q("percentage", 4, "Of the characterised couplings on 144Qv2, what proportion achieve a ZX90 gate "
           "fidelity in excess of 99 %? Kindly state the answer in percent.",
           Truth(numbers=(_share(sum(v > 99.0 for v in zx.values()), len(zx)),))),
    ]


# ---- window count ----------------------------------------------------------------------------------------------------
def _window(db) -> list[Question]:
    four = days(db, OTHER, "back:5:2")
    five = days(db, CHIP, "back:7:3")
    bell = _in_runs(db, OTHER, 3, {"name": "CheckBellStateTomography", **FAILED})
    if not bell:
        raise ValueError("an empty window")
    return [
        _q("window count", 1, f"144Qv2 failed-task total over {dashed(four)}, both end days "
           "counted?", Truth(numbers=(_counted(db, OTHER, four, FAILED),))),
        _q("window count", 2, f"Runs executed on 64Qv3 from {spelled(five)} inclusive — how many, "
           "please?", Truth(numbers=(_counted(db, CHIP, five, {}, RUNS),))),
        _q("window count", 3, "so uh the CheckT1 failures on 64Qv3 in, um, the most recent ten days, how many was "
           "that, just the number",
           Truth(numbers=(_counted(db, CHIP, days(db, CHIP, "days:10"), {"name": "CheckT1", **FAILED}),))),
        _q("window count", 4, "Friday checklist for 144Qv2:\n- [x] restart the fridge logger\n- [ ] count the "
           "failed CheckBellStateTomography tasks across the chip's last three runs\n- [ ] file the weekly "
           "summary", Truth(numbers=(_count(len(bell)),))),
    ]


# ---- fails most ------------------------------------------------------------------------------------------------------
def _leader(db, chip: str, window: tuple[date, date], query: dict, key: Callable[[dict], str]) -> tuple[str, int]:
    by_start, by_id = _rows(db, chip, *window, {**FAILED, **query})
    first, second = _sole(Counter(key(r) for r in by_start)), _sole(Counter(key(r) for r in by_id))
    if first != second:
        raise ValueError("the two day readings disagree")
    return first


def _fails(db) -> list[Question]:
    week, n1 = _leader(db, OTHER, days(db, OTHER, "days:7"), {}, lambda r: r["name"])
    seven = days(db, OTHER, "back:7:1")
    pair, n2 = _leader(db, OTHER, seven, {"task_type": "coupling"}, lambda r: r["name"])
    ten, n3 = _leader(db, CHIP, days(db, CHIP, "days:10"), {}, lambda r: r["name"])
    two, n4 = _leader(db, CHIP, days(db, CHIP, "days:14"), {"task_type": "coupling"}, lambda r: r["name"])
    if two == "CreateZX90":
        raise ValueError("the hypothesis names the leader")
    return [
        _q("fails most", 1, "[14:02] Mei: 144Qv2, the seven days just gone: which task kept failing the most?\n"
           "[14:03] Raj: plus its failure tally?",
           Truth(numbers=(_count(n1),), patterns=(re.escape(week),))),
        _q("fails most", 2, "As I'm rewriting the retry logic for two-qubit tasks, I need to know which coupling "
           f"task on 144Qv2 failed most often from {spelled(seven)}, and its count.",
           Truth(numbers=(_count(n2),), patterns=(re.escape(pair),))),
        _q("fails most", 3, "Exercise 5 (2 marks). Considering the ten days that close with 64Qv3's most recent "
           "run, identify which task accumulated the greatest count of failures, stating that count.",
           Truth(numbers=(_count(n3),), patterns=(re.escape(ten),))),
        _q("fails most", 4, "I reckon CreateZX90 is the two-qubit task that broke most often on 64Qv3 these last "
           "fourteen days. Am I right? If not, which one was it, and its failure count?",
           Truth(numbers=(_count(n4),), patterns=(re.escape(two),))),
    ]


# ---- qubit pair ------------------------------------------------------------------------------------------------------
def _pairs(db) -> list[Question]:
    gate = _value(db, CHIP, "zx90_gate_time", "19-22", "coupling")
    bell = _value(db, OTHER, "bell_state_fidelity", "112-113", "coupling")
    sides = {p: _value(db, OTHER, "zx90_gate_fidelity", p, "coupling") for p in ("110-111", "111-114")}
    better, worse = sorted(sides, key=sides.__getitem__, reverse=True)
    if sides[better] - sides[worse] <= 2 * UNIT_TOL["%"]:
        raise ValueError("equal pairs")
    pct = _value(db, CHIP, "bell_state_fidelity", "24-25", "coupling")
    return [
        _q("qubit pair", 1, "so, um, the link between Q19 and Q22 on 64Qv3, what's its, uh, ZX90 gate time at "
           "the moment, in nanoseconds", Truth(numbers=(Expect(gate, UNIT_TOL["ns"], near=(pair_re(19, 22),)),))),
        _q("qubit pair", 2, "Re: odd coupler on 144Qv2\n\n> Q112-Q113 looked strange in last night's plots\n\n"
           "Could you check that pair's present Bell-state fidelity?",
           Truth(numbers=(Expect(bell, UNIT_TOL["%"], near=(pair_re(112, 113),), unit="%"),))),
        _q("qubit pair", 3, "I think Q110-Q111 on 144Qv2 has a better ZX90 fidelity than Q111-Q114. Is that so? "
           "Quote the winner's value.",
           Truth(numbers=(Expect(sides[better], UNIT_TOL["%"], near=(pair_re(*better.split("-")),), unit="%"),),
                 winner=pair_re(*better.split("-")), loser=pair_re(*worse.split("-")))),
        _q("qubit pair", 4, "bell fid for Q24/Q25 on 64Qv3 in pct? ty",
           Truth(numbers=(Expect(pct, UNIT_TOL["%"], near=(pair_re(24, 25),), unit="%"),))),
    ]


# ---- spread ----------------------------------------------------------------------------------------------------------
def _spread(db) -> list[Question]:
    star = list(latest(db, OTHER, "t2_star").values())
    readout = [1000 * v for v in _ranged(latest(db, OTHER, "readout_frequency"), 8, 15).values()]
    if len(readout) < 3:
        raise ValueError("too few readout frequencies in Q8 to Q15")
    zx = list(latest(db, CHIP, "zx90_gate_fidelity", "coupling").values())
    anharm = list(latest(db, CHIP, "anharmonicity").values())

    def std(values: list[float], tol: float) -> Expect:
        return Expect(statistics.stdev(values), tol, alternatives=(statistics.pstdev(values),))

    return [
        _q("spread", 1, "TL;DR wanted: how much does Ramsey T2* differ between 144Qv2's qubits? One standard "
           "deviation in µs is enough.", Truth(numbers=(std(star, UNIT_TOL["us"]),))),
        _q("spread", 2, "Across Q8 to Q15 on 144Qv2, what gap separates the highest readout resonator "
           "frequency from the lowest? Answer in MHz.", Truth(numbers=(Expect(max(readout) - min(readout),
                                                                           UNIT_TOL["MHz"]),))),
        _q("spread", 3, "For the uniformity section of our programme review, could you quantify how scattered "
           "ZX90 gate fidelity is among 64Qv3's couplings — one standard deviation, in per cent?",
           Truth(numbers=(std(zx, UNIT_TOL["%"]),))),
        _q("spread", 4, "sticky note → 64Qv3 anharmonicity: max minus min over all qubits = ? MHz",
           Truth(numbers=(Expect(max(anharm) - min(anharm), UNIT_TOL["MHz"]),))),
    ]


# ---- missing thing ---------------------------------------------------------------------------------------------------
def _missing(db) -> list[Question]:
    if db["qubit"].count_documents({"chip_id": CHIP, "qid": "88"}):
        raise ValueError("Q88 exists")
    if "72Qv1" in db["chip"].distinct("chip_id"):
        raise ValueError("72Qv1 exists")
    if any("dispersive" in k.lower() or k.lower() in ("chi", "dispersive_shift")
           for r in db[HISTORY].find({"chip_id": OTHER}, {"output_parameters": 1}) for k in r["output_parameters"]):
        raise ValueError("the dispersive shift is measured")
    if [d for d in db["coupling"].find({"chip_id": CHIP}) if set(d["qid"].split("-")) == {"0", "63"}]:
        raise ValueError("0-63 exists")
    truth = Truth(any_words=NOT_THERE, no_values=True)
    return [
        _q("missing thing", 1, "um okay so what's the, uh, T1 on Q88 of 64Qv3 right now, like roughly", truth),
        _q("missing thing", 2, "Kindly furnish chip 72Qv1's mean readout fidelity at your earliest "
           "convenience.", truth),
        _q("missing thing", 3, "SEV2 page: the dispersive shift of Q17 on 144Qv2 looks off. What is its current "
           "value? ack pls", truth),
        _q("missing thing", 4, "- [ ] grab ZX90 fid for coupler Q0–Q63 (64Qv3)\n- [ ] paste it "
           "into the tracker", truth),
    ]


def build_heldout18(db, now: datetime) -> list[Question]:  # noqa: ARG001 - windows are written from the data
    """The forty questions, shape by shape (raises when the data leaves a question without a single answer)."""
    return (_missing(db) + _top(db) + _compound(db) + _correlation(db) + _cross(db) + _percentage(db)
            + _window(db) + _fails(db) + _pairs(db) + _spread(db))
