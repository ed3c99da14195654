"""The sixteenth sealed set: 10 shapes × 4 questions in registers the earlier sets left out (a JSON or YAML request
body, a pseudo-SQL query with a ``--`` comment, a multiple-choice quiz line, a question that corrects itself mid-way
— "five, sorry, four" —, a rhetorical preamble, passive voice, hedged asks — "I might be wrong, but" —, the chip named
last after a long clause, ASCII ``>=``/``<=`` signs with "us" for µs, hashtags and @-mentions, a ticket template with
"Summary:"/"Component:" fields, "the last 7 days" and "today"), truths from hand-written pymongo on the raw demo
collections.

Written without reading the copilot's word tables, routing, claim check or prompts, nor any other sealed set's
questions.  Values, units, labels and windows are the ninth to fifteenth sets' truth helpers:

- latest = per qubit/coupling id, the newest completed, non-excluded ``task_result_history`` row holding the metric;
  display units: fidelities in %, T1/T2 in µs ("us"), frequencies in GHz (MHz where asked), gate time in ns.
- ``>=`` / ``<=`` are at least / at most; every limit is clear of every value, so they keep the same ids as ``>``/``<``.
- a window of whole UTC days ends on the day of the chip's newest run (by ``start_at``; the execution id's day is the
  accepted second reading): "the trailing N days" / "the last 7 days" are N (seven) whole days, "today"
  the newest day alone.  Each chip's window ends on its own newest day.
- a self-corrected question means what it says after the correction ("Q22 — sorry, Q21" asks about Q21).
- a failure = a ``task_result_history`` row with status ``failed``; a run = an ``execution_history`` document; a
  qubit's failures are its qubit-task rows; a coupling task is a row with ``task_type`` "coupling".
- a share of qubits is over the qubits with a value (over all the chip's qubits the accepted other reading).

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
from tests.sealed.heldout13 import _failed_share, _share

__all__ = ["build_heldout16", "days"]

SPLIT = "held-out-16"
RUNS = "execution_history"
CHIP_RE = {CHIP: r"(?i)(?:\b64Q|\b64[- ]qubit)", OTHER: r"(?i)(?:\b144Q|\b144[- ]qubit)"}
NOT_THERE = ("not", "no ", "n't", "unknown", "only", "exist", "invalid")
FAILED = {"status": "failed"}
SHIFT = 0  # days every window is moved back by (0; the hand-break sets 1)


def _q(shape: str, i: int, text: str, truth: Truth) -> Question:
    return Question(f"sealed16-{shape.replace(' ', '-')}-{i}", shape, text, truth, split=SPLIT)


def days(db, chip: str, n: int) -> tuple[date, date]:
    """The last ``n`` whole days through the chip's newest day (``n`` = 1: "today"), moved back by ``SHIFT``."""
    first, last = span(db, chip, f"days:{n}")
    return first - timedelta(days=SHIFT), last - timedelta(days=SHIFT)


def _counted(db, chip: str, window: tuple[date, date], query: dict, collection: str = "task_result_history") -> Expect:
    by_start, by_id = _rows(db, chip, *window, query, collection)
    if not by_start:
        raise ValueError("an empty window")
    return _count(len(by_start), len(by_id))


def _names(keys: list[str]) -> tuple[str, ...]:
    return tuple(qubit_re(k) for k in keys)


# ---- top N -----------------------------------------------------------------------------------------------------------
def _top(db) -> list[Question]:
    specs = (
        (CHIP, "t1", 3, True, "us",
         '{"chip": "64Qv3", "quantity": "T1", "rank": "longest first", "limit": 3, "with_values": true}\n'
         "^ that is the request body my script would send; can you answer it by hand?"),
        (OTHER, "readout_fidelity_1", 4, False, "%",
         "Which five — sorry, four — qubits of 144Qv2 are stuck with the poorest |1> readout fidelity as things "
         "stand, and at what figures?"),
        (CHIP, "t2_echo", 3, True, "us",
         "SELECT qid, t2_echo FROM qubits WHERE chip = '64Qv3' ORDER BY t2_echo DESC LIMIT 3;  "
         "-- Hahn-echo T2 in us, longest three"),
        (OTHER, "t2_star", 3, False, "us",
         "I might be misremembering, but a handful of Ramsey dephasing times looked tiny in the last plots I saw: "
         "which three qubits hold the briefest T2*, values included, on 144Qv2?"),
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
        (CHIP, ("t1", ">", 110.0, "us"), ("x90_gate_fidelity", ">", 99.6, "%"),
         "chip: 64Qv3\nwhere:\n  t1: \">= 110 us\"\n  x90_gate_fidelity: \">= 99.6 %\"\nreturn: [count, qubit_ids]\n"
         "(yaml because that's how our scheduler config reads; plain answer is fine)"),
        (OTHER, ("t2_echo", ">", 130.0, "us"), ("readout_frequency", "<", 7.0, "GHz"),
         "Which qubits of 144Qv2 are measured with a Hahn-echo T2 above 130 us while their resonator is placed "
         "below 7.0 GHz? A headcount is wanted as well."),
        (CHIP, ("t2_star", "<", 20.0, "us"), ("readout_fidelity_1", "<", 90.0, "%"),
         "Is good coherence enough for a qubit to be useful? Obviously not, readout matters too. So, on 64Qv3: "
         "which qubits pair a T2* below 20 us with a |1> assignment fidelity below 90 %? Count them, list them."),
        (OTHER, ("t1", "<", 30.0, "us"), ("average_readout_fidelity", "<", 91.0, "%"),
         "Summary: qubits to park\nComponent: 144Qv2\nDescription: every qubit having T1 <= 30 us AND averaged "
         "assignment fidelity <= 91 %.\nAcceptance: the number of such qubits and their ids."),
    )
    out = []
    for i, (chip, first, second, text) in enumerate(specs, 1):
        kept: set[str] | None = None
        for name, op, limit, unit in (first, second):
            values = latest(db, chip, name)
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
        (CHIP, "t2_echo", "t2_star", "qubit",
         "#coherence #64Qv3 does echo T2 move together with Ramsey T2* per qubit? drop the Pearson r here "
         "@analysis-team"),
        (OTHER, "readout_fidelity_0", "readout_fidelity_1", "qubit",
         "How strongly is the |0> assignment fidelity correlated with the |1> assignment fidelity, taken qubit "
         "for qubit on 144Qv2? The signed r, please."),
        (CHIP, "zx90_gate_fidelity", "bell_state_fidelity", "coupling",
         "Over the couplers of 144Qv2 — sorry, of 64Qv3 — how does ZX90 gate fidelity co-vary with the "
         "Bell-state figure? Pearson coefficient."),
        (OTHER, "t1", "t2_star", "qubit",
         "I might be wrong here, but isn't long T1 usually accompanied by long T2*? Quantify that with a "
         "correlation coefficient, using each qubit carrying both values, on 144Qv2."),
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
    sides = (CHIP, OTHER)
    t1 = {c: statistics.fmean(latest(db, c, "t1").values()) for c in sides}
    fails = {}
    for c in sides:
        by_start, by_id = _rows(db, c, *days(db, c, 7), FAILED)
        if len(by_start) != len(by_id) or not by_start:
            raise ValueError("the week's failures read two ways")
        fails[c] = float(len(by_start))
    readout = {c: statistics.fmean(latest(db, c, "average_readout_fidelity").values()) for c in sides}
    zx = {c: statistics.fmean(latest(db, c, "zx90_gate_fidelity", "coupling").values()) for c in sides}
    return [
        _sides(t1, UNIT_TOL["us"], "Group-meeting quiz, one point: the higher mean T1 belongs to option (a) 64Qv3, "
               "option (b) 144Qv2? Both means earn the point.", 1),
        _sides(fails, 0, "#oncall #weekly which device piled up a bigger heap of task failures across the "
               "trailing 7 days: "
               "64Qv3 vs 144Qv2? both tallies pls @ops", 2),
        _sides(readout, UNIT_TOL["%"], "Is a better average readout fidelity (chip mean over its qubits) reached "
               "on 64Qv3 or on 144Qv2? Both means are wanted.", 3, "%"),
        _sides(zx, UNIT_TOL["%"], "SELECT chip, AVG(zx90_gate_fidelity) FROM couplings WHERE chip IN "
               "('64Qv3', '144Qv2') GROUP BY chip;  -- plus: whose average comes out higher?", 4, "%"),
    ]


# ---- percentage ------------------------------------------------------------------------------------------------------
def _percentage(db) -> list[Question]:
    echo = latest(db, CHIP, "t2_echo")
    _clear_of(echo, 90.0, UNIT_TOL["us"])
    bell = latest(db, CHIP, "bell_state_fidelity", "coupling")
    _clear_of(bell, 95.0, UNIT_TOL["%"])
    freq = latest(db, OTHER, "qubit_frequency")
    _clear_of(freq, 4.9, UNIT_TOL["GHz"])
    qubits = {c: db["qubit"].count_documents({"chip_id": c}) for c in (CHIP, OTHER)}
    return [
        _q("percentage", 1, '{"chip": "64Qv3", "ask": "percent of qubits", "condition": "t2_echo >= 90 us"}',
           Truth(numbers=(_share(sum(v > 90.0 for v in echo.values()), len(echo), qubits[CHIP]),))),
        _q("percentage", 2, "Out of the CheckT1 — no wait, CheckT2Echo — tasks run on 144Qv2 across the "
           "trailing 7 days, "
           "which percentage ended as failed?",
           Truth(numbers=(_failed_share(db, OTHER, days(db, OTHER, 7), {"name": "CheckT2Echo"}),))),
        _q("percentage", 3, "Maybe I'm overthinking this, but which fraction of couplers clear 95 % in "
           "Bell-state fidelity (as a percentage), on 64Qv3?",
           Truth(numbers=(_share(sum(v > 95.0 for v in bell.values()), len(bell)),))),
        _q("percentage", 4, "On 144Qv2, the qubits found to sit lower than 4.9 GHz in qubit frequency make up "
           "which share of its qubits, in percent?",
           Truth(numbers=(_share(sum(v < 4.9 for v in freq.values()), len(freq), qubits[OTHER]),))),
    ]


# ---- window count ----------------------------------------------------------------------------------------------------
def _window(db) -> list[Question]:
    return [
        _q("window count", 1, "Summary: failure tally\nComponent: 64Qv3\nDescription: count every task that "
           "ended failed across the trailing 7 days.\nAcceptance: one number.",
           Truth(numbers=(_counted(db, CHIP, days(db, CHIP, 7), FAILED),))),
        _q("window count", 2, "How busy has the big fridge been? Put differently: how many runs (executions, "
           "not tasks) were started on 144Qv2 across the trailing 3 days?",
           Truth(numbers=(_counted(db, OTHER, days(db, OTHER, 3), {}, RUNS),))),
        _q("window count", 3, "How many CheckRamsey tasks were recorded as failed on 64Qv3 across the "
           "trailing 4 days?",
           Truth(numbers=(_counted(db, CHIP, days(db, CHIP, 4), {"name": "CheckRamsey", **FAILED}),))),
        _q("window count", 4, "Not sure this is even tracked, but: count of failed "
           "ZX90InterleavedRandomizedBenchmarking tasks today, on 144Qv2?",
           Truth(numbers=(_counted(db, OTHER, days(db, OTHER, 1),
                                   {"name": "ZX90InterleavedRandomizedBenchmarking", **FAILED}),))),
    ]


# ---- fails most ------------------------------------------------------------------------------------------------------
def _leader(db, chip: str, window: tuple[date, date], query: dict, key: Callable[[dict], str]) -> tuple[str, int]:
    by_start, by_id = _rows(db, chip, *window, {**FAILED, **query})
    first, second = _sole(Counter(key(r) for r in by_start)), _sole(Counter(key(r) for r in by_id))
    if first != second:
        raise ValueError("the two day readings disagree")
    return first


def _fails(db) -> list[Question]:
    task, n1 = _leader(db, OTHER, days(db, OTHER, 7), {}, lambda r: r["name"])
    single, n2 = _leader(db, CHIP, days(db, CHIP, 14), {"task_type": "qubit"}, lambda r: r["name"])
    run, n3 = _leader(db, CHIP, days(db, CHIP, 3), {}, lambda r: r["execution_id"])
    pair, n4 = _leader(db, OTHER, days(db, OTHER, 10), {"task_type": "coupling"}, lambda r: r["name"])
    return [
        _q("fails most", 1, '{"chip": "144Qv2", "window": "last 7 days", "want": ["most-failing task", '
           '"its failure count"]}', Truth(numbers=(_count(n1),), patterns=(re.escape(task),))),
        _q("fails most", 2, "Across the trailing 14 days, which single-qubit calibration of 64Qv3 was recorded as failing "
           "most often, and how many failed rows were logged against it?",
           Truth(numbers=(_count(n2),), patterns=(re.escape(single),))),
        _q("fails most", 3, "#64Qv3 #postmortem which execution (run id) collected the fattest stack of "
           "failures across the trailing 3 days, and how many? @sched",
           Truth(numbers=(_count(n3),), patterns=(re.escape(run),))),
        _q("fails most", 4, "Looking only at the two-qubit (coupling) calibrations, and only at the last 10 days — "
           "among those, which failed most often and how often, on 144Qv2?",
           Truth(numbers=(_count(n4),), patterns=(re.escape(pair),))),
    ]


# ---- qubit pair ------------------------------------------------------------------------------------------------------
def _pairs(db) -> list[Question]:
    zx = _value(db, CHIP, "zx90_gate_fidelity", "20-21", "coupling")
    bell = _value(db, OTHER, "bell_state_fidelity", "104-105", "coupling")
    gate = _value(db, CHIP, "zx90_gate_time", "21-23", "coupling")
    limit = 250.0
    _clear_of({"21-23": gate}, limit, UNIT_TOL["ns"])
    sides = {p: _value(db, OTHER, "zx90_gate_fidelity", p, "coupling") for p in ("100-101", "100-102")}
    better, worse = sorted(sides, key=sides.__getitem__, reverse=True)
    if sides[better] - sides[worse] <= 2 * UNIT_TOL["%"]:
        raise ValueError("equal pairs")
    answer = r"(?i)\byes\b" if gate >= limit else r"(?i)\bno\b|\bnot\b|n't"
    return [
        _q("qubit pair", 1, "ZX90 fidelity, Q20 with Q22 — sorry, Q20 with Q21 — on 64Qv3?",
           Truth(numbers=(Expect(zx, UNIT_TOL["%"], near=(pair_re(20, 21),), unit="%"),))),
        _q("qubit pair", 2, '{"chip": "144Qv2", "coupling": ["Q104", "Q105"], "metric": "bell_state_fidelity"}',
           Truth(numbers=(Expect(bell, UNIT_TOL["%"], near=(pair_re(104, 105),), unit="%"),))),
        _q("qubit pair", 3, "Q21 to Q23 on 64Qv3: does its ZX90 pulse last >= 250 ns? Answer yes/no, then give the "
           "duration.", Truth(numbers=(Expect(gate, UNIT_TOL["ns"], near=(pair_re(21, 23),)),), patterns=(answer,))),
        _q("qubit pair", 4, "Of the couplers Q100-Q101 and Q100-Q102, whichever is measured with the better ZX90 "
           "gate fidelity (value too), on 144Qv2 — which is it?",
           Truth(numbers=(Expect(sides[better], UNIT_TOL["%"], near=(pair_re(*better.split("-")),), unit="%"),),
                 winner=pair_re(*better.split("-")), loser=pair_re(*worse.split("-")))),
    ]


# ---- spread ----------------------------------------------------------------------------------------------------------
def _spread(db) -> list[Question]:
    t1 = list(latest(db, CHIP, "t1").values())
    x90 = list(latest(db, OTHER, "x90_gate_fidelity").values())
    readout = [1000 * v for v in latest(db, CHIP, "readout_frequency").values()]
    echo = list(latest(db, OTHER, "t2_echo").values())

    def std(values: list[float], tol: float) -> Expect:
        return Expect(statistics.stdev(values), tol, alternatives=(statistics.pstdev(values),))

    return [
        _q("spread", 1, "#64Qv3 #stats T1 scatter? one sigma (std dev) taken across qubits, in us "
           "@data-team", Truth(numbers=(std(t1, UNIT_TOL["us"]),))),
        _q("spread", 2, "SELECT MAX(x90_gate_fidelity) - MIN(x90_gate_fidelity) FROM qubits WHERE chip = "
           "'144Qv2';  -- in percentage points",
           Truth(numbers=(Expect(max(x90) - min(x90), UNIT_TOL["%"]),))),
        _q("spread", 3, "By how much are the readout resonator frequencies of 64Qv3 spread out? Their standard "
           "deviation, expressed in MHz, is being asked for.", Truth(numbers=(std(readout, UNIT_TOL["MHz"]),))),
        _q("spread", 4, "Sigma of T1 — sorry, I meant echo T2 — across the qubits, in us, on 144Qv2?",
           Truth(numbers=(std(echo, UNIT_TOL["us"]),))),
    ]


# ---- missing thing ---------------------------------------------------------------------------------------------------
def _missing(db) -> list[Question]:
    if db["qubit"].count_documents({"chip_id": CHIP, "qid": "80"}):
        raise ValueError("Q80 exists")
    if "36Qv1" in db["chip"].distinct("chip_id"):
        raise ValueError("36Qv1 exists")
    if any(w in k.lower() for r in db["task_result_history"].find({"chip_id": OTHER}, {"output_parameters": 1})
           for k in r["output_parameters"] for w in ("thermal", "population")):
        raise ValueError("thermal population is measured")
    if [d for d in db["coupling"].find({"chip_id": OTHER}) if set(d["qid"].split("-")) == {"5", "40"}]:
        raise ValueError("5-40 exists")
    truth = Truth(any_words=NOT_THERE, no_values=True)
    return [
        _q("missing thing", 1, '{"chip": "64Qv3", "qubit": "Q80", "metric": "t2_star", "which": "latest"}', truth),
        _q("missing thing", 2, "SELECT AVG(t1) FROM qubits WHERE chip = '36Qv1';  -- mean T1 of that chip", truth),
        _q("missing thing", 3, "I might be asking for something nobody logs, but what is the thermal excited-state "
           "population of Q5 on 144Qv2?", truth),
        _q("missing thing", 4, "Bell-state figure for the Q5 to Q40 link — the one I saw on a slide once — "
           "on 144Qv2?", truth),
    ]


def build_heldout16(db, now: datetime) -> list[Question]:  # noqa: ARG001 - windows are written from the data
    """The forty questions, shape by shape (raises when the data leaves a question without a single answer)."""
    return (_missing(db) + _top(db) + _compound(db) + _correlation(db) + _cross(db) + _percentage(db)
            + _window(db) + _fails(db) + _pairs(db) + _spread(db))
