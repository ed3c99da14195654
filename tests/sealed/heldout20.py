"""The twentieth sealed set: 10 shapes × 4 questions in registers the earlier sets left out (a referee's report, a
spoken ask with fillers, a markdown table header to fill in, a terse command, a typo or three, Spanish or Japanese
lab words around a metric named in English, a question that restates its own ask, an issue-tracker ticket, an email
with a subject line, an exam exercise, a text message in abbreviations; "these past ten days", "the last three
weeks", "the chip's N most recent runs"; qubit ranges as "Q0–Q15", "Q16 up through Q31", "Q0 thru Q35",
"Q100〜Q143"), truths from hand-written pymongo on the raw demo collections.

Written without reading the copilot's word tables, routing, claim check or prompts; the other sealed sets were read
for their helpers only, and no 4-word sequence of their questions is reused.  Values, units, labels and windows are
the ninth to nineteenth sets' truth helpers:

- latest = per qubit/coupling id, the newest completed, non-excluded ``task_result_history`` row holding the metric;
  display units: fidelities in %, T1/T2 in µs, frequencies in GHz (MHz where asked), gate time in ns.
- "Q0–Q15" / "Q16 up through Q31" / "Q0 thru Q35" / "Q100〜Q143" is every qubit id between the two, both ends
  included; a share over a range is over the range's qubits with a value (over all the range's qubits the accepted
  other reading).
- a window of whole UTC days ends on the day of the chip's newest run (by ``start_at``; the execution id's day is the
  accepted second reading): "these past ten days" / "its ten newest days" are ten whole days, "the past eight days"
  eight, "the past six days" six, "the last three weeks" twenty-one, "los últimos 3 días" three, "直近 9 日間" nine.
  "The N most recent runs" / "the latest N runs" are the chip's N newest ``execution_history`` documents (by
  ``start_at``) and the task rows carrying their execution ids.
- a failure = a ``task_result_history`` row with status ``failed``; a run = an ``execution_history`` document; a
  coupling task is a row with ``task_type`` "coupling".
- a share of qubits is over the qubits with a value (over all the chip's qubits the accepted other reading); a share
  of couplings is over the couplings with a value; a share of tasks is failed rows over all rows.
- a spread in percentage points of a fidelity is the difference of the % values.

The builder raises instead of writing a question with no single answer (a tie, a limit on a value, a weak
correlation, equal sides, an empty window).
"""

from __future__ import annotations

import re
import statistics
from collections import Counter
from datetime import date, datetime

from tests.eval_score import Expect, Truth
from tests.public_eval import CHIP, OTHER, Question
from tests.sealed.heldout9 import UNIT_TOL, latest, pair_re, qubit_re
from tests.sealed.heldout11 import _clear_of, _count, _label, _rows, _sole
from tests.sealed.heldout12 import _value
from tests.sealed.heldout13 import _share
from tests.sealed.heldout19 import days, last_runs

__all__ = ["build_heldout20"]

SPLIT = "held-out-20"
RUNS = "execution_history"
HISTORY = "task_result_history"
CHIP_RE = {CHIP: r"(?i)(?:\b64Q|\b64[- ]qubit)", OTHER: r"(?i)(?:\b144Q|\b144[- ]qubit)"}
NOT_THERE = ("not", "no ", "n't", "unknown", "only", "exist", "invalid", "isn't", "doesn't", "unavailable")
FAILED = {"status": "failed"}


def _q(shape: str, i: int, text: str, truth: Truth) -> Question:
    return Question(f"sealed20-{shape.replace(' ', '-')}-{i}", shape, text, truth, split=SPLIT)


def _in_runs(db, chip: str, n: int, query: dict) -> list[dict]:
    """The task rows of the chip's ``n`` most recent runs matching ``query``."""
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
    star = latest(db, CHIP, "t2_star")
    freq = latest(db, OTHER, "qubit_frequency")
    zx = latest(db, CHIP, "zx90_gate_fidelity", "coupling")
    t1 = _ranged(latest(db, CHIP, "t1"), 16, 31)
    return [
        _q("top N", 1, "top3 T2* 64Qv3. qubit + µs each, descending.", _ranked(star, 3, True, "us")),
        _q("top N", 2, "Fill in for 144Qv2, three rows, highest qubit frequency first:\n"
           "| rank | qubit | qubit frequency (GHz) |\n|---|---|---|", _ranked(freq, 3, True, "GHz")),
        _q("top N", 3, "Referee 2, comment 3: \"The manuscript singles out the weakest two-qubit gates of 64Qv3 "
           "without naming them. The authors should identify the three couplings with the poorest ZX90 gate "
           "fidelity and quote each in percent.\"", _ranked(zx, 3, False, "%")),
        _q("top N", 4, "um, okay so, on 64Qv3, uh, only Q16 up through Q31 — which three of those have, like, the "
           "longest T1 right this minute? with the microseconds, y'know", _ranked(t1, 3, True, "us")),
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
        _q("compound filter", 1, "Oye, una pregunta rápida sobre 64Qv3: ¿qué qubits tienen T2* por encima de 40 µs "
           "y, a la vez, average readout fidelity mayor que 95 %? Dame la lista y cuántos son.",
           _filtered(db, CHIP, (("t2_star", ">", 40.0, "us"), ("average_readout_fidelity", ">", 95.0, "%")))),
        _q("compound filter", 2, "144Qv2: wich qubtis have T1 les than 35 µs while there qubit frequency sits "
           "below 4.9 GHz? how many are ther?",
           _filtered(db, OTHER, (("t1", "<", 35.0, "us"), ("qubit_frequency", "<", 4.9, "GHz")))),
        _q("compound filter", 3, "CAL-2207 [64Qv3] readout + echo audit, block Q0–Q15\nAcceptance criteria: the ticket "
           "lists each block qubit with T2 echo above 60 µs and average readout fidelity above 93 %, plus a "
           "headcount.",
           _filtered(db, CHIP, (("t2_echo", ">", 60.0, "us"), ("average_readout_fidelity", ">", 93.0, "%")),
                     (0, 15))),
        _q("compound filter", 4, "144Qv2 question — average readout fidelity sitting under 90 % yet T1 beyond 80 µs: "
           "which qubits? Put differently: long-T1 qubits with readout still lagging; give names and a tally.",
           _filtered(db, OTHER, (("average_readout_fidelity", "<", 90.0, "%"), ("t1", ">", 80.0, "us")))),
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
        _q("correlation", 1, "Referee report, minor point: the authors claim that T2 echo tracks T2* on 64Qv3. "
           "Please quote the Pearson coefficient, computed over qubits on latest values, so that the claim can "
           "be checked.", _r(db, CHIP, "t2_star", "t2_echo")),
        _q("correlation", 2, "so, uh, on 144Qv2... if you line up, um, average readout fidelity versus, um, the "
           "|1> readout fidelity, one qubit at a time, what's the, like, correlation coefficient? just r is fine",
           _r(db, OTHER, "average_readout_fidelity", "readout_fidelity_1")),
        _q("correlation", 3, "すみません、64Qv3 のカップリングごとに ZX90 gate fidelity と Bell state fidelity の"
           "ピアソン相関係数 (r) を教えてください。符号も。",
           _r(db, CHIP, "zx90_gate_fidelity", "bell_state_fidelity", "coupling")),
        _q("correlation", 4, "Subject: T1 vs T2* on 144Qv2 — Pearson r?\n\nHi all, before Friday could someone "
           "work out how strongly T1 and T2* co-vary on 144Qv2, as a qubit-wise Pearson r (newest values)? "
           "Thanks.",
           _r(db, OTHER, "t1", "t2_star")),
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
    t1 = {c: statistics.fmean(latest(db, c, "t1").values()) for c in sides}
    window = days(db, CHIP, "days:8")
    if window != days(db, OTHER, "days:8"):
        raise ValueError("the two chips' newest days differ")
    fails = {c: _both_ways(db, c, window, FAILED) for c in sides}
    x90 = {c: statistics.fmean(latest(db, c, "x90_gate_fidelity").values()) for c in sides}
    runs = {c: float(len(_in_runs(db, c, 3, FAILED))) for c in sides}
    if not all(runs.values()):
        raise ValueError("no failure in a chip's three most recent runs")
    return [
        _sides(t1, UNIT_TOL["us"], "| chip | mean T1 (µs) |\n|---|---|\n| 64Qv3 | ? |\n| 144Qv2 | ? |\nFill this in "
               "and star the larger one.", 1),
        _sides(fails, 0, "Subject: failure tally, past eight days\n\nBetween 64Qv3 and 144Qv2, whose failed-task "
               "pile grew bigger across the past eight days? Send both numbers.", 2),
        _sides(x90, UNIT_TOL["%"], "Para la reunión del grupo: comparando 64Qv3 con 144Qv2, ¿cuál tiene la X90 gate "
               "fidelity media más alta? Pon las dos medias en %.", 3, "%"),
        _sides(runs, 0, "count failed tasks across each chip's three most recent runs — 64Qv3, 144Qv2 — and say "
               "which chip had more.", 4),
    ]


# ---- percentage ------------------------------------------------------------------------------------------------------
def _failed_share(db, chip: str, window: tuple[date, date]) -> Expect:
    """Failed rows over all rows in the window, by ``start_at`` (the execution-id day the accepted other reading)."""
    (bad_t, bad_i), (all_t, all_i) = (_rows(db, chip, *window, q) for q in (FAILED, {}))
    share = _share(len(bad_t), len(all_t))
    other = 100 * len(bad_i) / len(all_i)
    return Expect(share.value, share.tol, unit="%", alternatives=(other,) if other != share.value else ())


def _percentage(db) -> list[Question]:
    echo = latest(db, CHIP, "t2_echo")
    _clear_of(echo, 80.0, UNIT_TOL["us"])
    qubits = db["qubit"].count_documents({"chip_id": CHIP})
    zx = latest(db, OTHER, "zx90_gate_fidelity", "coupling")
    _clear_of(zx, 99.0, UNIT_TOL["%"])
    readout = _ranged(latest(db, OTHER, "average_readout_fidelity"), 100, 143)
    _clear_of(readout, 93.0, UNIT_TOL["%"])
    return [
        _q("percentage", 1, "what percantage of 64Qv3's qubtis show T2 echo longer then 80 µs?",
           Truth(numbers=(_share(sum(v > 80.0 for v in echo.values()), len(echo), qubits),))),
        _q("percentage", 2, "Referee 1 writes: \"The claim that most two-qubit gates on 144Qv2 are good needs a "
           "number.\" For the rebuttal: the share of couplings whose ZX90 gate fidelity exceeds 99 %, in percent.",
           Truth(numbers=(_share(sum(v > 99.0 for v in zx.values()), len(zx)),))),
        _q("percentage", 3, "OPS-318 (144Qv2): failure rate for the past six days — failed tasks divided by all "
           "tasks run in that span, expressed in percent. Attach the figure to this ticket.",
           Truth(numbers=(_failed_share(db, OTHER, days(db, OTHER, "days:6")),))),
        _q("percentage", 4, "144Qv2 の Q100〜Q143 (両端含む) のうち、average readout fidelity が 93 % を超える "
           "qubit は何パーセントですか?",
           Truth(numbers=(_share(sum(v > 93.0 for v in readout.values()), len(readout), 44),))),
    ]


# ---- window count ----------------------------------------------------------------------------------------------------
def _window(db) -> list[Question]:
    four = _in_runs(db, CHIP, 4, FAILED)
    if not four:
        raise ValueError("an empty window")
    return [
        _q("window count", 1, "hey so, um, 64Qv3... failed tasks, uh, these past ten days — what's the total? just "
           "the number, thanks", Truth(numbers=(_counted(db, CHIP, days(db, CHIP, "days:10"), FAILED),))),
        _q("window count", 2, "runs on 144Qv2, last three weeks: count.",
           Truth(numbers=(_counted(db, OTHER, days(db, OTHER, "days:21"), {}, RUNS),))),
        _q("window count", 3, "Exercise 2(a). Take the latest four runs of 64Qv3. Tally the task results inside "
           "them carrying status failed.", Truth(numbers=(_count(len(four)),))),
        _q("window count", 4, "144Qv2 で、直近 9 日間に CheckT2Echo が failed になった回数は?",
           Truth(numbers=(_counted(db, OTHER, days(db, OTHER, "days:9"), {"name": "CheckT2Echo", **FAILED}),))),
    ]


# ---- fails most ------------------------------------------------------------------------------------------------------
def _leader(db, chip: str, window: tuple[date, date], query: dict) -> tuple[str, int]:
    by_start, by_id = _rows(db, chip, *window, {**FAILED, **query})
    first, second = _sole(Counter(r["name"] for r in by_start)), _sole(Counter(r["name"] for r in by_id))
    if first != second:
        raise ValueError("the two day readings disagree")
    return first


def _fails(db) -> list[Question]:
    ten, n1 = _leader(db, CHIP, days(db, CHIP, "days:10"), {})
    six, n2 = _sole(Counter(r["name"] for r in _in_runs(db, OTHER, 6, FAILED)))
    weeks, n3 = _leader(db, CHIP, days(db, CHIP, "days:21"), {"task_type": "coupling"})
    three, n4 = _leader(db, OTHER, days(db, OTHER, "days:3"), {"task_type": "coupling"})
    return [
        _q("fails most", 1, "Exercise 5. Restricting yourself to 64Qv3 data from its ten newest days, find the task "
           "whose failures outnumber every other task's, and state how often it failed.",
           Truth(numbers=(_count(n1),), patterns=(re.escape(ten),))),
        _q("fails most", 2, "hey r u at the fridge? pls check 144Qv2's 6 most recent runs — whats failing most there "
           "& how often? thx", Truth(numbers=(_count(n2),), patterns=(re.escape(six),))),
        _q("fails most", 3, "For 64Qv3's two-qubit (coupling) tasks, last three weeks: the worst failer? In other "
           "words: among coupling tasks only, give the name of the most-failed one plus that tally.",
           Truth(numbers=(_count(n3),), patterns=(re.escape(weeks),))),
        _q("fails most", 4, "Oye, en 144Qv2, mirando solo las tareas de coupling de los últimos 3 días, ¿cuál falló "
           "más veces? Nombre de la task y número de fallos.",
           Truth(numbers=(_count(n4),), patterns=(re.escape(three),))),
    ]


# ---- qubit pair ------------------------------------------------------------------------------------------------------
def _pairs(db) -> list[Question]:
    zx = _value(db, CHIP, "zx90_gate_fidelity", "27-41", "coupling")
    bell = _value(db, OTHER, "bell_state_fidelity", "40-41", "coupling")
    sides = {p: _value(db, CHIP, "zx90_gate_fidelity", p, "coupling") for p in ("36-37", "36-38")}
    better, worse = sorted(sides, key=sides.__getitem__, reverse=True)
    if sides[better] - sides[worse] <= 2 * UNIT_TOL["%"]:
        raise ValueError("equal pairs")
    gate = _value(db, OTHER, "zx90_gate_time", "31-53", "coupling")
    return [
        _q("qubit pair", 1, "quick q: 64Qv3 coupler Q27–Q41 — ZX90 gate fidelity rn? thx",
           Truth(numbers=(Expect(zx, UNIT_TOL["%"], near=(pair_re(27, 41),), unit="%"),))),
        _q("qubit pair", 2, "| chip | coupling | Bell state fidelity (%) |\n|---|---|---|\n| 144Qv2 | Q40-Q41 | ? |",
           Truth(numbers=(Expect(bell, UNIT_TOL["%"], near=(pair_re(40, 41),), unit="%"),))),
        _q("qubit pair", 3, "uh, on 64Qv3, Q36–Q37 versus Q36–Q38 — um, ZX90 gate fidelity-wise, who wins out, "
           "and what's the winner's value?",
           Truth(numbers=(Expect(sides[better], UNIT_TOL["%"], near=(pair_re(*better.split("-")),), unit="%"),),
                 winner=pair_re(*better.split("-")), loser=pair_re(*worse.split("-")))),
        _q("qubit pair", 4, "144Qv2 の Q31–Q53 カップリングの ZX90 gate time は何 ns ですか?",
           Truth(numbers=(Expect(gate, UNIT_TOL["ns"], near=(pair_re(31, 53),)),))),
    ]


# ---- spread ----------------------------------------------------------------------------------------------------------
def _spread(db) -> list[Question]:
    t1 = list(latest(db, OTHER, "t1").values())
    x90 = list(latest(db, CHIP, "x90_gate_fidelity").values())
    freq = [1000 * v for v in latest(db, CHIP, "qubit_frequency").values()]
    echo = list(_ranged(latest(db, OTHER, "t2_echo"), 0, 35).values())
    if len(echo) < 3:
        raise ValueError("too few T2 echo values in Q0 to Q35")

    def std(values: list[float], tol: float) -> Expect:
        return Expect(statistics.stdev(values), tol, alternatives=(statistics.pstdev(values),))

    return [
        _q("spread", 1, "T1 sample std dev, all 144Qv2 qubits, µs. latest values.",
           Truth(numbers=(std(t1, UNIT_TOL["us"]),))),
        _q("spread", 2, "Subject: X90 spread on 64Qv3\n\nTop X90 gate fidelity minus bottom X90 gate fidelity "
           "— 64Qv3, today, in percentage points?",
           Truth(numbers=(Expect(max(x90) - min(x90), UNIT_TOL["%"]),))),
        _q("spread", 3, "お疲れ様です。64Qv3 の qubit frequency の標準偏差を MHz で教えてください。",
           Truth(numbers=(std(freq, UNIT_TOL["MHz"]),))),
        _q("spread", 4, "for 144Qv2 qubtis Q0 thru Q35, whats the diffrence between the longest and shortest T2 "
           "echo (µs)?", Truth(numbers=(Expect(max(echo) - min(echo), UNIT_TOL["us"]),))),
    ]


# ---- missing thing ---------------------------------------------------------------------------------------------------
def _missing(db) -> list[Question]:
    if db["qubit"].count_documents({"chip_id": CHIP, "qid": "64"}):
        raise ValueError("Q64 exists")
    if "256Qv1" in db["chip"].distinct("chip_id"):
        raise ValueError("256Qv1 exists")
    if any(("chi" in k.lower() or "dispersive" in k.lower())
           for r in db[HISTORY].find({"chip_id": OTHER}, {"output_parameters": 1}) for k in r["output_parameters"]):
        raise ValueError("a dispersive shift is measured")
    if [d for d in db["coupling"].find({"chip_id": OTHER}) if set(d["qid"].split("-")) == {"10", "50"}]:
        raise ValueError("10-50 exists")
    truth = Truth(any_words=NOT_THERE, no_values=True)
    return [
        _q("missing thing", 1, "T1 of Q64 on 64Qv3, µs.", truth),
        _q("missing thing", 2, "Subject: 256Qv1 readout numbers\n\nCould you send along 256Qv1's median figure for "
           "average readout fidelity, if it's handy?", truth),
        _q("missing thing", 3, "¿Cuál es el dispersive shift (chi) del Q12 en 144Qv2? Lo necesito para el modelo "
           "del resonador.", truth),
        _q("missing thing", 4, "Referee 3 wants 144Qv2's Q10–Q50 number — Bell state fidelity, to be precise. "
           "What do we put in the reply?", truth),
    ]


def build_heldout20(db, now: datetime) -> list[Question]:  # noqa: ARG001 - windows are written from the data
    """The forty questions, shape by shape (raises when the data leaves a question without a single answer)."""
    return (_missing(db) + _top(db) + _compound(db) + _correlation(db) + _cross(db) + _percentage(db)
            + _window(db) + _fails(db) + _pairs(db) + _spread(db))
