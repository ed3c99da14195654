"""The seventeenth sealed set: 10 shapes × 4 questions in registers the earlier sets left out (a CSV header row or a
markdown table to fill in, a commit message, a code-review comment with "nit:", an agenda item, a footnoted ask with
``[1]``, an instruction to a junior — "could you pull …" —, "the former"/"the latter", a stated purpose — "so I can
decide whether to …" —, emoji in a chat line, a day range written as weekday names — "from Friday through Monday" —, a
unit asked for — "in MHz"), truths from hand-written pymongo on the raw demo collections.

Written without reading the copilot's word tables, routing, claim check or prompts, nor any other sealed set's
questions.  Values, units, labels and windows are the ninth to sixteenth sets' truth helpers:

- latest = per qubit/coupling id, the newest completed, non-excluded ``task_result_history`` row holding the metric;
  display units: fidelities in %, T1/T2 in µs, frequencies in GHz (MHz where asked), gate time in ns.
- a window of whole UTC days ends on the day of the chip's newest run (by ``start_at``; the execution id's day is the
  accepted second reading): "the N calendar days up to its latest run" are N whole days; "from <weekday A> through
  <weekday B>" names B as the newest day (the question says so) and A as the day three days before it (four days, both
  ends included).  Each chip's window ends on its own newest day.
- "the former"/"the latter" point at the first/second thing named in the same question.
- a failure = a ``task_result_history`` row with status ``failed``; a run = an ``execution_history`` document; a
  coupling task is a row with ``task_type`` "coupling", a single-qubit one a row with ``task_type`` "qubit".
- a share of qubits is over the qubits with a value (over all the chip's qubits the accepted other reading); a share
  of couplings is over the couplings with a value.

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

__all__ = ["build_heldout17", "days"]

SPLIT = "held-out-17"
RUNS = "execution_history"
CHIP_RE = {CHIP: r"(?i)(?:\b64Q|\b64[- ]qubit)", OTHER: r"(?i)(?:\b144Q|\b144[- ]qubit)"}
NOT_THERE = ("not", "no ", "n't", "unknown", "only", "exist", "invalid")
FAILED = {"status": "failed"}
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
SHIFT = 0  # days every window is moved back by (0; the hand-break sets 1)


def _q(shape: str, i: int, text: str, truth: Truth) -> Question:
    return Question(f"sealed17-{shape.replace(' ', '-')}-{i}", shape, text, truth, split=SPLIT)


def days(db, chip: str, n: int) -> tuple[date, date]:
    """The last ``n`` whole days through the chip's newest day, moved back by ``SHIFT``."""
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
        (CHIP, "t2_star", 3, True, "us",
         "qid,t2_star_us\n,\n,\n,\n"
         "fill those three rows in for 64Qv3 please: the qubits whose Ramsey dephasing time is currently longest"),
        (OTHER, "x90_gate_fidelity", 2, False, "%",
         "Could you pull the two weakest single-qubit X90 fidelities on 144Qv2 for me, each with its number? "
         "They go on the recal list for tomorrow."),
        (CHIP, "readout_fidelity_1", 3, True, "%",
         "nit (calib_report.py, line 42): the hard-coded 'best readout' list looks stale to me. Which three 64Qv3 "
         "qubits actually lead on |1> assignment fidelity now, and with what values?"),
        (OTHER, "t2_echo", 3, False, "us",
         "🧊 144Qv2 check-in 🧊 which 3 qubits lose phase fastest right now (shortest Hahn-echo T2)? numbers "
         "too 🙏"),
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
        (CHIP, ("t2_echo", ">", 100.0, "us"), ("t1", ">", 80.0, "us"),
         "| criterion | threshold |\n|---|---|\n| T2, Hahn echo | beyond 100 µs |\n| T1 | beyond 80 µs |\n\n"
         "On 64Qv3, which qubits satisfy both rows of that table, and how many of them are there?"),
        (OTHER, ("qubit_frequency", ">", 5.2, "GHz"), ("readout_fidelity_0", "<", 92.0, "%"),
         "So I can decide which 144Qv2 qubits to retune first: list those whose qubit frequency sits above 5.2 GHz "
         "and that also read |0> with under 92 % fidelity, plus a headcount."),
        (CHIP, ("x90_gate_fidelity", "<", 99.6, "%"), ("t2_star", "<", 30.0, "us"),
         "fix(calib): flag fragile qubits on 64Qv3\n\nA qubit is fragile when its X90 fidelity is under 99.6 % "
         "and its T2* is under 30 µs. Which qubits does this commit flag, and how many?"),
        (OTHER, ("t2_star", ">", 65.0, "us"), ("average_readout_fidelity", ">", 97.0, "%"),
         "Two bars on 144Qv2: Ramsey T2* over 65 µs, plus averaged readout fidelity exceeding 97 %. The former "
         "guards coherence, the latter measurement. Which qubits pass both bars, and what is their number?"),
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
        (CHIP, "t1", "t2_echo", "qubit",
         "Agenda item 2 (coherence review): how T1 correlates with echo T2 over 64Qv3's qubits, as Pearson's r. "
         "Please bring the number, sign included."),
        (OTHER, "readout_fidelity_0", "average_readout_fidelity", "qubit",
         "Could you work out for me how tightly the |0> readout fidelity tracks averaged readout fidelity, one "
         "point per qubit, on 144Qv2? A signed correlation coefficient is all I need."),
        (OTHER, "zx90_gate_fidelity", "bell_state_fidelity", "coupling",
         "Do couplers with a good ZX90 fidelity also score well for Bell-state fidelity? Chip: 144Qv2. [1]\n\n"
         "[1] Pearson r over the couplers, signed."),
        (CHIP, "readout_fidelity_1", "average_readout_fidelity", "qubit",
         "Take two readout figures of 64Qv3, the |1> readout fidelity, then averaged readout fidelity: does the "
         "latter rise with the former? "
         "Quantify it as a correlation coefficient across qubits."),
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
    echo = {c: statistics.fmean(latest(db, c, "t2_echo").values()) for c in sides}
    fails = {}
    for c in sides:
        by_start, by_id = _rows(db, c, *days(db, c, 5), FAILED)
        if len(by_start) != len(by_id) or not by_start:
            raise ValueError("the failures read two ways")
        fails[c] = float(len(by_start))
    star = {c: statistics.fmean(latest(db, c, "t2_star").values()) for c in sides}
    bell = {c: statistics.fmean(latest(db, c, "bell_state_fidelity", "coupling").values()) for c in sides}
    return [
        _sides(echo, UNIT_TOL["us"], "chip,mean_t2_echo_us\n64Qv3,\n144Qv2,\n"
               "fill in both cells (the mean over each chip's qubits) and mark the chip with the higher mean", 1),
        _sides(fails, 0, "For the ops agenda: in the 5 calendar days up to each chip's latest run, which of "
               "64Qv3 and 144Qv2 logged more task failures? Give both counts.", 2),
        _sides(star, UNIT_TOL["us"], "⏳ quick one: Ramsey T2* averaged over the qubits, 64Qv3 vs 144Qv2 — "
               "whose is longer? pls both numbers 🙂", 3),
        _sides(bell, UNIT_TOL["%"], "So I can decide which chip gets next month's two-qubit experiment: "
               "set 64Qv3's coupler-averaged Bell-state fidelity beside the same figure for 144Qv2, and name "
               "the higher one.", 4, "%"),
    ]


# ---- percentage ------------------------------------------------------------------------------------------------------
def _percentage(db) -> list[Question]:
    t1 = latest(db, CHIP, "t1")
    _clear_of(t1, 50.0, UNIT_TOL["us"])
    zx = latest(db, OTHER, "zx90_gate_fidelity", "coupling")
    _clear_of(zx, 99.0, UNIT_TOL["%"])
    ro = latest(db, CHIP, "readout_fidelity_0")
    _clear_of(ro, 95.0, UNIT_TOL["%"])
    qubits = {c: db["qubit"].count_documents({"chip_id": c}) for c in (CHIP, OTHER)}
    return [
        _q("percentage", 1, "Could you pull for me, as a percentage, how much of 64Qv3's qubit population has T1 "
           "running longer than 50 µs? Just that one figure is fine.",
           Truth(numbers=(_share(sum(v > 50.0 for v in t1.values()), len(t1), qubits[CHIP]),))),
        _q("percentage", 2, "review comment: before we merge the retry patch, what fraction (in %) of 144Qv2's "
           "CheckRamsey tasks ended up failed during the 5 calendar days up to its latest run?",
           Truth(numbers=(_failed_share(db, OTHER, days(db, OTHER, 5), {"name": "CheckRamsey"}),))),
        _q("percentage", 3, "| chip | couplers with ZX90 fidelity above 99 % (share) |\n|---|---|\n"
           "| 144Qv2 | ? |\n\nplease fill the cell in percent of all its couplers",
           Truth(numbers=(_share(sum(v > 99.0 for v in zx.values()), len(zx)),))),
        _q("percentage", 4, "📊 64Qv3: what share of its qubit population reads |0> at better than 95 % fidelity? "
           "percent please 🙏",
           Truth(numbers=(_share(sum(v > 95.0 for v in ro.values()), len(ro), qubits[CHIP]),))),
    ]


# ---- window count ----------------------------------------------------------------------------------------------------
def _window(db) -> list[Question]:
    first, last = days(db, OTHER, 4)
    return [
        _q("window count", 1, "Agenda item 1 (throughput): number of executions started on 64Qv3 in the 5 "
           "calendar days up to its latest run. Runs, not tasks.",
           Truth(numbers=(_counted(db, CHIP, days(db, CHIP, 5), {}, RUNS),))),
        _q("window count", 2, f"On 144Qv2, count the tasks that failed from {WEEKDAYS[first.weekday()]} through "
           f"{WEEKDAYS[last.weekday()]}. [1]\n\n[1] both days included; its latest run fell on "
           f"{WEEKDAYS[last.weekday()]}.",
           Truth(numbers=(_counted(db, OTHER, (first, last), FAILED),))),
        _q("window count", 3, "nit: the dashboard tile says 'qubit spectroscopy failures (7d)' for 64Qv3 — what "
           "should it read? i.e. failed CheckQubitSpectroscopy tasks in the 7 calendar days through its latest run.",
           Truth(numbers=(_counted(db, CHIP, days(db, CHIP, 7), {"name": "CheckQubitSpectroscopy", **FAILED}),))),
        _q("window count", 4, "Could you pull how many CreateZX90 tasks failed on 144Qv2 during the 6 "
           "calendar days up to its latest run? I only need the one number.",
           Truth(numbers=(_counted(db, OTHER, days(db, OTHER, 6), {"name": "CreateZX90", **FAILED}),))),
    ]


# ---- fails most ------------------------------------------------------------------------------------------------------
def _leader(db, chip: str, window: tuple[date, date], query: dict, key: Callable[[dict], str]) -> tuple[str, int]:
    by_start, by_id = _rows(db, chip, *window, {**FAILED, **query})
    first, second = _sole(Counter(key(r) for r in by_start)), _sole(Counter(key(r) for r in by_id))
    if first != second:
        raise ValueError("the two day readings disagree")
    return first


def _fails(db) -> list[Question]:
    task, n1 = _leader(db, CHIP, days(db, CHIP, 7), {}, lambda r: r["name"])
    single, n2 = _leader(db, OTHER, days(db, OTHER, 5), {"task_type": "qubit"}, lambda r: r["name"])
    run, n3 = _leader(db, OTHER, days(db, OTHER, 3), {}, lambda r: r["execution_id"])
    pair, n4 = _leader(db, CHIP, days(db, CHIP, 14), {"task_type": "coupling"}, lambda r: r["name"])
    return [
        _q("fails most", 1, "task_name,failed_count\n?,?\n"
           "one row for 64Qv3: the task that failed most in the 7 calendar days up to its latest run",
           Truth(numbers=(_count(n1),), patterns=(re.escape(task),))),
        _q("fails most", 2, "So I can decide which single-qubit routine to debug first on 144Qv2: which routine "
           "failed most often in the 5 calendar days up to its latest run, and with how many failures?",
           Truth(numbers=(_count(n2),), patterns=(re.escape(single),))),
        _q("fails most", 3, "🔥 144Qv2, 3 calendar days up to its latest run: which execution id holds the "
           "highest failed-task tally, and the tally itself? 🔥",
           Truth(numbers=(_count(n3),), patterns=(re.escape(run),))),
        _q("fails most", 4, "On 64Qv3 there are single-qubit and two-qubit calibrations; look at the latter "
           "only. Over the 14 calendar days up to its latest run, which of them failed on the most occasions, and what "
           "is that number?",
           Truth(numbers=(_count(n4),), patterns=(re.escape(pair),))),
    ]


# ---- qubit pair ------------------------------------------------------------------------------------------------------
def _pairs(db) -> list[Question]:
    sides = {p: _value(db, CHIP, "bell_state_fidelity", p, "coupling") for p in ("4-5", "4-6")}
    better, worse = sorted(sides, key=sides.__getitem__, reverse=True)
    if sides[better] - sides[worse] <= 2 * UNIT_TOL["%"]:
        raise ValueError("equal pairs")
    gate = _value(db, OTHER, "zx90_gate_time", "104-106", "coupling")
    zx = _value(db, CHIP, "zx90_gate_fidelity", "12-13", "coupling")
    bell = _value(db, OTHER, "bell_state_fidelity", "100-101", "coupling")
    return [
        _q("qubit pair", 1, "Between the couplers Q4-Q5 and Q4-Q6 on 64Qv3, does the former or the latter have "
           "a higher Bell-state fidelity? Name it and give its value.",
           Truth(numbers=(Expect(sides[better], UNIT_TOL["%"], near=(pair_re(*better.split("-")),), unit="%"),),
                 winner=pair_re(*better.split("-")), loser=pair_re(*worse.split("-")))),
        _q("qubit pair", 2, "perf(pulses): shorten the cross-resonance drive on 144Qv2\n\nBefore this lands I "
           "need the current ZX90 gate time of the Q104 and Q106 coupling, in ns.",
           Truth(numbers=(Expect(gate, UNIT_TOL["ns"], near=(pair_re(104, 106),)),))),
        _q("qubit pair", 3, "coupler,zx90_fidelity_pct\nQ12-Q13,\nfill the empty cell from the newest 64Qv3 "
           "calibration",
           Truth(numbers=(Expect(zx, UNIT_TOL["%"], near=(pair_re(12, 13),), unit="%"),))),
        _q("qubit pair", 4, "🔗 Q100 and Q101 on 144Qv2: what's their current Bell-state fidelity? 🙏",
           Truth(numbers=(Expect(bell, UNIT_TOL["%"], near=(pair_re(100, 101),), unit="%"),))),
    ]


# ---- spread ----------------------------------------------------------------------------------------------------------
def _spread(db) -> list[Question]:
    echo = list(latest(db, CHIP, "t2_echo").values())
    t1 = list(latest(db, OTHER, "t1").values())
    freq = [1000 * v for v in latest(db, CHIP, "qubit_frequency").values()]
    ro = list(latest(db, OTHER, "readout_fidelity_1").values())

    def std(values: list[float], tol: float) -> Expect:
        return Expect(statistics.stdev(values), tol, alternatives=(statistics.pstdev(values),))

    return [
        _q("spread", 1, "Agenda item 3 (uniformity): one standard deviation of echo T2 among all 64Qv3 qubits, "
           "in µs.", Truth(numbers=(std(echo, UNIT_TOL["us"]),))),
        _q("spread", 2, "chip,t1_max_minus_min_us\n144Qv2,\nfill it in: longest T1 minus shortest T1, "
           "over its qubits", Truth(numbers=(Expect(max(t1) - min(t1), UNIT_TOL["us"]),))),
        _q("spread", 3, "Could you pull, for me, how far 64Qv3's qubit frequencies deviate (one standard "
           "deviation)? MHz please, not GHz.", Truth(numbers=(std(freq, UNIT_TOL["MHz"]),))),
        _q("spread", 4, "📈 144Qv2: how widely does |1> readout fidelity scatter between qubits? one std dev, "
           "in % 🙂", Truth(numbers=(std(ro, UNIT_TOL["%"]),))),
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
    if [d for d in db["coupling"].find({"chip_id": CHIP}) if set(d["qid"].split("-")) == {"3", "50"}]:
        raise ValueError("3-50 exists")
    truth = Truth(any_words=NOT_THERE, no_values=True)
    return [
        _q("missing thing", 1, "nit (qubit_card.py): the example in this docstring quotes Q70's T1 on "
           "64Qv3. What is that value today?", truth),
        _q("missing thing", 2, "So I can decide whether to move my experiment over: on 256Qv1, what's T2* on "
           "average?", truth),
        _q("missing thing", 3, "Could you pull Q9's gate leakage rate on 144Qv2 for me? [1]\n\n"
           "[1] the latest figure is enough.", truth),
        _q("missing thing", 4, "| coupler | ZX90 fidelity |\n|---|---|\n| Q3-Q50 | ? |\n\nfill in from 64Qv3", truth),
    ]


def build_heldout17(db, now: datetime) -> list[Question]:  # noqa: ARG001 - windows are written from the data
    """The forty questions, shape by shape (raises when the data leaves a question without a single answer)."""
    return (_missing(db) + _top(db) + _compound(db) + _correlation(db) + _cross(db) + _percentage(db)
            + _window(db) + _fails(db) + _pairs(db) + _spread(db))
