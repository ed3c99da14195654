"""The nineteenth sealed set: 10 shapes × 4 questions in registers the earlier sets left out (a lab-notebook margin
note, a Slack thread whose reply narrows the ask, an ask tucked inside a bullet list of other chores, a shift-handover
note, a sentence of a grant report with blanks, a teaching assistant's question, a German or French lab word mixed in
with the metric named in English, units written oddly — "microsec", "nanosec" —, numbers in the ask written as words,
yes/no questions that still have a factual answer, "the past fortnight", "since last <weekday>", the chip's last N
runs), truths from hand-written pymongo on the raw demo collections.

Written without reading the copilot's word tables, routing, claim check or prompts, nor any other sealed set's
questions.  Values, units, labels and windows are the ninth to eighteenth sets' truth helpers:

- latest = per qubit/coupling id, the newest completed, non-excluded ``task_result_history`` row holding the metric;
  display units: fidelities in %, T1/T2 in µs, frequencies in GHz (MHz where asked), gate time in ns.
- "Q32 to Q63" / "Q32 through Q63" is every qubit id from 32 through 63, both ends included; a share over a range is
  over the range's qubits with a value (over all the range's qubits the accepted other reading).
- a window of whole UTC days ends on the day of the chip's newest run (by ``start_at``; the execution id's day is the
  accepted second reading): "the past fortnight" is fourteen whole days, "the latest five days" five, "these last
  seven days" seven; "since last <weekday>" starts on the day the question names — written from the data, four (or
  five) days before the newest day — and runs through the newest day.  "The last N runs" are the chip's N newest
  ``execution_history`` documents (by ``start_at``) and the task rows carrying their execution ids.
- a failure = a ``task_result_history`` row with status ``failed``; a run = an ``execution_history`` document; a
  coupling task is a row with ``task_type`` "coupling".
- a share of qubits is over the qubits with a value (over all the chip's qubits the accepted other reading); a share
  of couplings is over the couplings with a value; a share of tasks is failed rows over all rows.
- a yes/no question is answered by the fact it asks about (both values, the leader and its count, the winner).

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
from tests.sealed.heldout11 import _clear_of, _count, _label, _rows, _sole
from tests.sealed.heldout12 import _value
from tests.sealed.heldout13 import _share

__all__ = ["build_heldout19", "days", "last_runs", "since_last"]

SPLIT = "held-out-19"
RUNS = "execution_history"
HISTORY = "task_result_history"
CHIP_RE = {CHIP: r"(?i)(?:\b64Q|\b64[- ]qubit)", OTHER: r"(?i)(?:\b144Q|\b144[- ]qubit)"}
NOT_THERE = ("not", "no ", "n't", "unknown", "only", "exist", "invalid", "isn't", "doesn't", "unavailable")
FAILED = {"status": "failed"}
SHIFT = 0  # days every window is moved back by (0; a hand-break set 1)


def _q(shape: str, i: int, text: str, truth: Truth) -> Question:
    return Question(f"sealed19-{shape.replace(' ', '-')}-{i}", shape, text, truth, split=SPLIT)


def days(db, chip: str, how: str) -> tuple[date, date]:
    """``span``'s window (``days:N`` or ``back:A:B``), moved back by ``SHIFT``."""
    first, last = span(db, chip, how)
    return first - timedelta(days=SHIFT), last - timedelta(days=SHIFT)


def since_last(db, chip: str, back: int) -> tuple[tuple[date, date], str]:
    """The window from the day ``back`` days before the newest day through the newest day, and that first day's
    weekday name (the question writes "since last <weekday>"; ``back`` < 7, so the name is one day)."""
    window = days(db, chip, f"back:{back}:0")
    return window, f"{window[0]:%A}"


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
    echo = latest(db, OTHER, "t2_echo")
    freq = latest(db, CHIP, "qubit_frequency")
    bell = latest(db, OTHER, "bell_state_fidelity", "coupling")
    t1 = latest(db, CHIP, "t1")
    return [
        _q("top N", 1, "(margin, p. 42) 144Qv2 → which 3 qubits currently top the echo-T2 table? jot each µs figure "
           "beside its qubit", _ranked(echo, 3, True, "us")),
        _q("top N", 2, "#calib-ops\nkenji: could somebody pull up the frequency plan of 64Qv3?\n  ↳ lucia: narrowing "
           "that down: only the four qubits sitting lowest in qubit frequency, each with its GHz value, is all we "
           "need", _ranked(freq, 4, False, "GHz")),
        _q("top N", 3, "Before the group meeting:\n• reorder the liquid helium\n• 144Qv2: which two couplings lead the "
           "pack for Bell state fidelities? percentages included\n• book the wire bonder",
           _ranked(bell, 2, True, "%")),
        _q("top N", 4, "Handover, night shift → day shift: 64Qv3 ran clean overnight. Outstanding ask from the PI: "
           "the five best-T1 qubits as things stand, top down, values attached.",
           _ranked(t1, 5, True, "us")),
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
        _q("compound filter", 1, "Kurze Frage vor der nächsten Messung: on 64Qv3, welche qubits combine T1 > 80 µs "
           "mit average readout fidelity < 92 %? Namen plus Anzahl, bitte.",
           _filtered(db, CHIP, (("t1", ">", 80.0, "us"), ("average_readout_fidelity", "<", 92.0, "%")))),
        _q("compound filter", 2, "TA office hours; a student's homework wants the 144Qv2 qubits whose echo T2 runs past "
           "120 µs whilst their average readout fidelity tops 95 %. I need to grade it: list and count them?",
           _filtered(db, OTHER, (("t2_echo", ">", 120.0, "us"), ("average_readout_fidelity", ">", 95.0, "%")))),
        _q("compound filter", 3, "144Qv2 qubits w/ T2* < 18 microsec AND qubit freq > 5.1 Ghz → ids, count",
           _filtered(db, OTHER, (("t2_star", "<", 18.0, "us"), ("qubit_frequency", ">", 5.1, "GHz")))),
        _q("compound filter", 4, "Restricting ourselves to Q32 through Q63 of 64Qv3: which have T1 under fifty "
           "µs together with T2 echo over forty µs? Tell me the tally too.",
           _filtered(db, CHIP, (("t1", "<", 50.0, "us"), ("t2_echo", ">", 40.0, "us")), (32, 63))),
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
        _q("correlation", 1, "Draft for the grant's progress report: \"On 64Qv3, qubit by qubit, T1 tracks echo T2 "
           "with Pearson r = ___.\" What goes in the blank, sign included?",
           _r(db, CHIP, "t1", "t2_echo")),
        _q("correlation", 2, "Pour le cahier de manip: 144Qv2, couplage par couplage — Pearson r between ZX90 gate "
           "fidelity et Bell state fidelity? Avec le signe, merci.",
           _r(db, OTHER, "zx90_gate_fidelity", "bell_state_fidelity", "coupling")),
        _q("correlation", 3, "Yes/no: on 144Qv2, does a qubit's echo T2 climb along with its T2*? Settle it with "
           "Pearson's coefficient, qubit-wise.", _r(db, OTHER, "t2_echo", "t2_star")),
        _q("correlation", 4, "#readout\nomar: on 64Qv3, does readout fidelity for |0> move in step with average "
           "readout fidelity?\n  ↳ priya: make it concrete — just the correlation coefficient r, per qubit, newest values",
           _r(db, CHIP, "average_readout_fidelity", "readout_fidelity_0")),
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
    echo = {c: statistics.fmean(latest(db, c, "t2_echo").values()) for c in sides}
    window, weekday = since_last(db, CHIP, 4)
    if since_last(db, OTHER, 4) != (window, weekday):
        raise ValueError("the two chips' newest days differ")
    fails = {c: _both_ways(db, c, window, FAILED) for c in sides}
    readout = {c: statistics.median(latest(db, c, "average_readout_fidelity").values()) for c in sides}
    fortnight = days(db, CHIP, "days:14")
    if fortnight != days(db, OTHER, "days:14"):
        raise ValueError("the two chips' newest days differ")
    t1 = {c: _both_ways(db, c, fortnight, {"name": "CheckT1", **FAILED}) for c in sides}
    return [
        _sides(echo, UNIT_TOL["us"], "Grant report, section 3.2, fill in: \"The mean T2 echo time stands at ___ µs "
               "on 64Qv3 and ___ µs on 144Qv2, the longer of the two being ___.\"", 1),
        _sides(fails, 0, f"Since last {weekday}, which chip has racked up the larger heap of failures among its "
               "tasks, 64Qv3 or 144Qv2? Both totals, please.", 2),
        _sides(readout, UNIT_TOL["%"], "Median average readout fidelity: is 144Qv2 ahead of 64Qv3? Reply yes/no first, "
               "both medians (%) after.", 3, "%"),
        _sides(t1, 0, "Agenda, Thursday lab meeting\n(a) attenuator swap on line 4\n(b) CheckT1 failures, 64Qv3 "
               "against 144Qv2, tallied for the past fortnight — who had more? bring both counts\n(c) coax order", 4),
    ]


# ---- percentage ------------------------------------------------------------------------------------------------------
def _failed_share(db, chip: str, window: tuple[date, date]) -> Expect:
    """Failed rows over all rows in the window, by ``start_at`` (the execution-id day the accepted other reading)."""
    (bad_t, bad_i), (all_t, all_i) = (_rows(db, chip, *window, q) for q in (FAILED, {}))
    share = _share(len(bad_t), len(all_t))
    other = 100 * len(bad_i) / len(all_i)
    return Expect(share.value, share.tol, unit="%", alternatives=(other,) if other != share.value else ())


def _percentage(db) -> list[Question]:
    t1 = latest(db, CHIP, "t1")
    _clear_of(t1, 60.0, UNIT_TOL["us"])
    qubits = db["qubit"].count_documents({"chip_id": CHIP})
    bell = latest(db, OTHER, "bell_state_fidelity", "coupling")
    _clear_of(bell, 95.0, UNIT_TOL["%"])
    x90 = _ranged(latest(db, CHIP, "x90_gate_fidelity"), 32, 63)
    _clear_of(x90, 99.75, UNIT_TOL["%"])
    return [
        _q("percentage", 1, "Sixty microseconds as the bar for T1 on 64Qv3: qubits clearing it, expressed in "
           "percent?",
           Truth(numbers=(_share(sum(v > 60.0 for v in t1.values()), len(t1), qubits),))),
        _q("percentage", 2, "A student in my lab section wants to know, in percent, how many couplings on 144Qv2 "
           "sit above 95 % in Bell state fidelities. I'd rather give them the right figure.",
           Truth(numbers=(_share(sum(v > 95.0 for v in bell.values()), len(bell)),))),
        _q("percentage", 3, "144Qv2, the past fortnight: failed tasks, in percent of every task it ran?",
           Truth(numbers=(_failed_share(db, OTHER, days(db, OTHER, "days:14")),))),
        _q("percentage", 4, "notebook margin — 64Qv3, Q32 to Q63 only: X90 gate fidelity > 99.75 for what %?",
           Truth(numbers=(_share(sum(v > 99.75 for v in x90.values()), len(x90), 32),))),
    ]


# ---- window count ----------------------------------------------------------------------------------------------------
def _window(db) -> list[Question]:
    window, weekday = since_last(db, CHIP, 5)
    pairs = _in_runs(db, OTHER, 4, {"task_type": "coupling", **FAILED})
    if not pairs:
        raise ValueError("an empty window")
    return [
        _q("window count", 1, f"Quick tally for the lab log: since last {weekday} (that day included), how many "
           "64Qv3 tasks wound up failed?", Truth(numbers=(_counted(db, CHIP, window, FAILED),))),
        _q("window count", 2, "144Qv2 calibration runs, past fortnight — what's the count?",
           Truth(numbers=(_counted(db, OTHER, days(db, OTHER, "days:14"), {}, RUNS),))),
        _q("window count", 3, "CheckRamsey failures on 64Qv3, summed over the latest five days?",
           Truth(numbers=(_counted(db, CHIP, days(db, CHIP, "days:5"), {"name": "CheckRamsey", **FAILED}),))),
        _q("window count", 4, "Shift handover (144Qv2): fridge stable, pulse tubes nominal. Open item for the "
           "incoming operator: count the failed coupling tasks over the chip's four most recent runs.",
           Truth(numbers=(_count(len(pairs)),))),
    ]


# ---- fails most ------------------------------------------------------------------------------------------------------
def _leader(db, chip: str, window: tuple[date, date], query: dict) -> tuple[str, int]:
    by_start, by_id = _rows(db, chip, *window, {**FAILED, **query})
    first, second = _sole(Counter(r["name"] for r in by_start)), _sole(Counter(r["name"] for r in by_id))
    if first != second:
        raise ValueError("the two day readings disagree")
    return first


def _fails(db) -> list[Question]:
    two, n1 = _leader(db, CHIP, days(db, CHIP, "days:14"), {})
    window, weekday = since_last(db, OTHER, 4)
    pair, n2 = _leader(db, OTHER, window, {"task_type": "coupling"})
    week, n3 = _leader(db, OTHER, days(db, OTHER, "days:7"), {})
    if week == "CheckT1":
        raise ValueError("the yes/no question names the leader")
    ten, n4 = _sole(Counter(r["name"] for r in _in_runs(db, CHIP, 10, FAILED)))
    return [
        _q("fails most", 1, "#64qv3-ops\nsam: anything failing a lot lately?\n  ↳ ines: narrow it: 64Qv3, past "
           "fortnight only — the single worst-failing task, tally attached",
           Truth(numbers=(_count(n1),), patterns=(re.escape(two),))),
        _q("fails most", 2, f"Frage aus dem Reinraum: since last {weekday}, welcher two-qubit task "
           "of 144Qv2 kept failing hardest, und wie viele Fehler?",
           Truth(numbers=(_count(n2),), patterns=(re.escape(pair),))),
        _q("fails most", 3, "Was CheckT1 the top failer on 144Qv2 these last seven days? If not, which task was, "
           "and its failure total?",
           Truth(numbers=(_count(n3),), patterns=(re.escape(week),))),
        _q("fails most", 4, "To do today:\n1. re-run the flux sweep\n2. 64Qv3's ten newest runs: name the chief "
           "offender among failing tasks, with its tally\n3. update the wiki",
           Truth(numbers=(_count(n4),), patterns=(re.escape(ten),))),
    ]


# ---- qubit pair ------------------------------------------------------------------------------------------------------
def _pairs(db) -> list[Question]:
    gate = _value(db, CHIP, "zx90_gate_time", "12-13", "coupling")
    sides = {p: _value(db, CHIP, "bell_state_fidelity", p, "coupling") for p in ("25-27", "26-27")}
    better, worse = sorted(sides, key=sides.__getitem__, reverse=True)
    if sides[better] - sides[worse] <= 2 * UNIT_TOL["%"]:
        raise ValueError("equal pairs")
    zx = _value(db, OTHER, "zx90_gate_fidelity", "115-118", "coupling")
    bell = _value(db, OTHER, "bell_state_fidelity", "104-105", "coupling")
    return [
        _q("qubit pair", 1, "64Qv3, coupler Q12–Q13: ZX90 gate time = ? nanosec",
           Truth(numbers=(Expect(gate, UNIT_TOL["ns"], near=(pair_re(12, 13),)),))),
        _q("qubit pair", 2, "64Qv3: on Bell-state fidelities, does Q25-Q27 win against Q26-Q27? Yes/no, then the "
           "winning coupling's %.",
           Truth(numbers=(Expect(sides[better], UNIT_TOL["%"], near=(pair_re(*better.split("-")),), unit="%"),),
                 winner=pair_re(*better.split("-")), loser=pair_re(*worse.split("-")))),
        _q("qubit pair", 3, "As the TA for the quantum lab course I keep getting asked this one: Q115/Q118 on "
           "144Qv2 — where does its ZX90 gate fidelity sit today?",
           Truth(numbers=(Expect(zx, UNIT_TOL["%"], near=(pair_re(115, 118),), unit="%"),))),
        _q("qubit pair", 4, "margin scribble: 144Qv2, Q104 ↔ Q105, Bell state fidelity now = ?",
           Truth(numbers=(Expect(bell, UNIT_TOL["%"], near=(pair_re(104, 105),), unit="%"),))),
    ]


# ---- spread ----------------------------------------------------------------------------------------------------------
def _spread(db) -> list[Question]:
    t1 = list(latest(db, CHIP, "t1").values())
    bell = list(latest(db, OTHER, "bell_state_fidelity", "coupling").values())
    freq = [1000 * v for v in latest(db, OTHER, "qubit_frequency").values()]
    star = list(_ranged(latest(db, CHIP, "t2_star"), 32, 47).values())
    if len(star) < 3:
        raise ValueError("too few T2* values in Q32 to Q47")

    def std(values: list[float], tol: float) -> Expect:
        return Expect(statistics.stdev(values), tol, alternatives=(statistics.pstdev(values),))

    return [
        _q("spread", 1, "64Qv3 T1, spread across qubits as a single std dev — in microsec please",
           Truth(numbers=(std(t1, UNIT_TOL["us"]),))),
        _q("spread", 2, "Pour le rapport: 144Qv2, l'écart-type (standard deviation) des couplages — Bell "
           "state fidelity, en %?", Truth(numbers=(std(bell, UNIT_TOL["%"]),))),
        _q("spread", 3, "For the instrumentation paragraph of the grant renewal we state how widely the qubit "
           "frequencies of 144Qv2 are spread: the highest minus the lowest, in MHz. Please supply the figure.",
           Truth(numbers=(Expect(max(freq) - min(freq), UNIT_TOL["MHz"]),))),
        _q("spread", 4, "Handing over to the evening shift. One thing left: for Q32 through Q47 of 64Qv3, what "
           "separates the longest T2* from the shortest, in µs?",
           Truth(numbers=(Expect(max(star) - min(star), UNIT_TOL["us"]),))),
    ]


# ---- missing thing ---------------------------------------------------------------------------------------------------
def _missing(db) -> list[Question]:
    if db["qubit"].count_documents({"chip_id": CHIP, "qid": "70"}):
        raise ValueError("Q70 exists")
    if "32Qv2" in db["chip"].distinct("chip_id"):
        raise ValueError("32Qv2 exists")
    if any("zz" in k.lower() for r in db[HISTORY].find({"chip_id": OTHER}, {"output_parameters": 1})
           for k in r["output_parameters"]):
        raise ValueError("a ZZ interaction is measured")
    if [d for d in db["coupling"].find({"chip_id": CHIP}) if set(d["qid"].split("-")) == {"5", "40"}]:
        raise ValueError("5-40 exists")
    truth = Truth(any_words=NOT_THERE, no_values=True)
    return [
        _q("missing thing", 1, "(margin note) 64Qv3, Q70: T1 from today's cooldown = ? µs", truth),
        _q("missing thing", 2, "#fab-chat\nyuki: how's the newer device doing?\n  ↳ tomas: specifically 32Qv2 — "
           "its median T1, if you have it", truth),
        _q("missing thing", 3, "Kurze Notiz fürs Laborbuch: what static ZZ interaction strength does the Q12–Q13 "
           "coupling of 144Qv2 show right now?", truth),
        _q("missing thing", 4, "Q5–Q40 coupler on 64Qv3: do we have any Bell-state tomography fidelity logged for it? "
           "If yes, what's the figure?", truth),
    ]


def build_heldout19(db, now: datetime) -> list[Question]:  # noqa: ARG001 - windows are written from the data
    """The forty questions, shape by shape (raises when the data leaves a question without a single answer)."""
    return (_missing(db) + _top(db) + _compound(db) + _correlation(db) + _cross(db) + _percentage(db)
            + _window(db) + _fails(db) + _pairs(db) + _spread(db))
