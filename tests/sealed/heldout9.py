"""The ninth sealed set: 10 shapes × 4 questions in wordings of its own (terse bench notes, long chatty asks, numbers
spelled out, units as µs / us / microseconds / megahertz / per cent, windows as "since <weekday>", a fortnight or two
calendar dates, chips as 64Qv3 / the 144-qubit device / the small chip), truths from hand-written pymongo on the raw
demo collections.

Written without reading the copilot's word tables, routing, claim check or prompts, nor any other sealed set's
questions.  The truth helpers are the eighth set's (``tests/sealed/heldout8.py``, lines 1-150: the same definitions
of latest, display units, windows, failures and runs), so every set counts the same way:

- latest = per qubit/coupling id, the newest completed, non-excluded ``task_result_history`` row holding the metric;
  a stored 0 (QDash's NaN) there leaves the id without a value.
- "the last N days" = N whole UTC days ending on the day of the chip's newest run (by ``start_at``; the execution
  id's day is the accepted second reading); "since <weekday>" starts on the latest such weekday on or before it.
- a failure = a ``task_result_history`` row with status ``failed``; a run = an ``execution_history`` document.
"""

from __future__ import annotations

import statistics
from collections import Counter
from datetime import date, datetime, timedelta

from tests.eval_score import Expect, Truth
from tests.public_eval import Question
from tests.sealed.heldout8 import (
    ABSENT,
    HISTORY,
    TOL,
    alt,
    dead,
    id_days,
    latest,
    newest_day,
    pair_re,
    qubit_re,
    ranks,
    scale,
    sole_leader,
    window,
    windowed,
)

__all__ = ["build_heldout9", "latest", "scale"]

CHIP = "64Qv3"
OTHER = "144Qv2"
SPLIT = "held-out-9"
UNIT_TOL = {**TOL, "au": 0.00051}
CHIP_RE = {CHIP: r"(?i)(?:\b64Q|\b64[- ]qubit)", OTHER: r"(?i)(?:\b144Q|\b144[- ]qubit)"}
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def _q(shape: str, i: int, text: str, truth: Truth) -> Question:
    return Question(f"sealed9-{shape.replace(' ', '-')}-{i}", shape, text, truth, split=SPLIT)


def _days_since(db, chip: str, weekday: int) -> int:
    """How many whole days "since <weekday>" spans: that weekday (the latest on or before the newest run's day)
    through the newest run's day."""
    return (newest_day(db, chip).weekday() - weekday) % 7 + 1


def _between(db, chip: str, first: date, last: date, query: dict) -> tuple[int, int]:
    """``task_result_history`` rows matching ``query`` from day ``first`` through day ``last`` (both whole UTC days):
    by ``start_at``, and by execution-id day."""
    lo = datetime(first.year, first.month, first.day)
    span = {"$gte": lo, "$lt": datetime(last.year, last.month, last.day) + timedelta(days=1)}
    by_time = db[HISTORY].count_documents({"chip_id": chip, "start_at": span, **query})
    wide = list(db[HISTORY].find({"chip_id": chip, **query}, {"execution_id": 1}))
    return by_time, len(id_days(wide, first, last))


def _spoken(first: date, final: date) -> str:
    """``Nov 18th through the 24th`` (the month named twice when the window crosses one)."""
    def nth(day: int) -> str:
        return f"{day}{'th' if 10 <= day % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(day % 10, 'th')}"

    if first.month == final.month:
        return f"{first:%b} {nth(first.day)} through the {nth(final.day)}"
    return f"{first:%b} {nth(first.day)} through {final:%b} {nth(final.day)}"


def _label(kind: str, key: str) -> str:
    return pair_re(*key.split("-")) if kind == "coupling" else qubit_re(key)


def _clear_of(values: dict[str, float], limit: float, tol: float) -> None:
    """A filter's limit must not sit within the answer's rounding of any value (else the count is a coin toss)."""
    if any(abs(v - limit) <= 2 * tol for v in values.values()):
        raise ValueError(f"a value sits on the limit {limit}")


# ---- top N: the N best (or worst) latest values, in order, each beside its qubit/coupling --------------------------
def _top(db) -> list[Question]:
    specs = (
        (OTHER, "t1", "qubit", 5, True, "us",
         "144Qv2 T1 leaderboard: who are the five longest-lived qubits at the moment? numbers in µs"),
        (CHIP, "bell_state_fidelity", "coupling", 3, False, "%",
         "Could you find the three couplers on the sixty-four qubit device whose Bell-state fidelity is poorest "
         "today, and give each pair with its fidelity in per cent?"),
        (CHIP, "anharmonicity", "qubit", 3, False, "MHz",
         "64Qv3 anharmonicity: the 3 most negative qubits please, in megahertz, deepest one first."),
        (OTHER, "readout_fidelity_0", "qubit", 4, False, "%",
         "bottom four of the big chip by |0> state assignment fidelity, current values as percentages"),
    )
    out = []
    for i, (chip, name, kind, n, high, unit, text) in enumerate(specs, 1):
        values = sorted(latest(db, chip, name, kind).items(), key=lambda kv: kv[1], reverse=high)
        tol = UNIT_TOL[unit]
        if any(abs(a[1] - b[1]) <= 2 * tol for a, b in zip(values[:n], values[1:n + 1])):
            raise ValueError(f"top {n} of {name} cannot be told apart")
        expects = tuple(Expect(v, tol, near=(_label(kind, q),), unit="%" if unit == "%" else "")
                        for q, v in values[:n])
        out.append(_q("top N", i, text, Truth(numbers=expects)))
    return out


# ---- compound filter: how many (and which) qubits meet two conditions on their latest values -----------------------
def _compound(db) -> list[Question]:
    specs = (
        (CHIP, ("qubit_frequency", "<", 4.8, "GHz"), ("t1", ">", 70.0, "us"),
         "64Qv3: qubits parked under 4.8 GHz that still hold T1 over seventy microseconds. How many, and which?"),
        (OTHER, ("t2_echo", "<", 40.0, "us"), ("average_readout_fidelity", ">", 95.0, "%"),
         "I'm hunting for 144-qubit-chip qubits whose Hahn-echo T2 is short (below 40 us) even though "
         "their averaged readout fidelity is above 95 per cent; name them all and say how many there are."),
        (CHIP, ("x90_gate_fidelity", "<", 99.54, "%"), ("t2_star", ">", 25.0, "us"),
         "count the 64Q qubits with X90 fidelity below 99.54% but Ramsey T2* over 25 us, list them too"),
        (OTHER, ("readout_frequency", ">", 7.1, "GHz"), ("anharmonicity", "<", -300.0, "MHz"),
         "Which qubits of 144Qv2 combine a readout resonator above 7100 MHz with an anharmonicity deeper than "
         "minus three hundred megahertz? Give me the number too."),
    )
    out = []
    for i, (chip, first, second, text) in enumerate(specs, 1):
        kept = None
        for name, side, limit, unit in (first, second):
            values = latest(db, chip, name)
            _clear_of(values, limit, UNIT_TOL[unit])
            ok = {q for q, v in values.items() if (v < limit if side == "<" else v > limit)}
            kept = ok if kept is None else kept & ok
        assert kept is not None
        if not 1 <= len(kept) <= 10:
            raise ValueError(f"compound filter {i} keeps {len(kept)}")
        names = tuple(qubit_re(q) for q in sorted(kept, key=int))
        out.append(_q("compound filter", i, text, Truth(numbers=((len(kept), 0),), patterns=names)))
    return out


# ---- percentage: a share of qubits/couplings/tasks, the other denominator as the second reading --------------------
def _percentage(db) -> list[Question]:
    tol = UNIT_TOL["share"]
    out = []
    zx = latest(db, CHIP, "zx90_gate_fidelity", "coupling")
    _clear_of(zx, 97.0, UNIT_TOL["%"])
    pairs = sum(1 for d in db["coupling"].find({"chip_id": CHIP}, {"qid": 1})) // 2
    good = sum(v >= 97.0 for v in zx.values())
    share = 100 * good / len(zx)
    out.append(_q("percentage", 1,
                  "Of the couplers on 64Qv3, what slice currently reaches ZX90 fidelity of 97 % or better? As a percent.",
                  Truth(numbers=(Expect(share, tol, unit="%", alternatives=alt(share, 100 * good / pairs)),))))
    star = latest(db, OTHER, "t2_star")
    _clear_of(star, 35.0, UNIT_TOL["us"])
    long = sum(v > 35.0 for v in star.values())
    total = db["qubit"].count_documents({"chip_id": OTHER})
    share = 100 * long / len(star)
    out.append(_q("percentage", 2,
                  "Big chip (144Qv2): qubits whose T2 star beats 35 microseconds, as a share of all its qubits?",
                  Truth(numbers=(Expect(share, tol, unit="%", alternatives=alt(share, 100 * long / total)),))))
    failed, failed_id = windowed(db, CHIP, 10, {"status": "failed"})
    every, every_id = windowed(db, CHIP, 10, {})
    share = 100 * failed / every
    out.append(_q("percentage", 3,
                  "Over the past ten days, what percentage of every task execution on 64Qv3 ended in failure?",
                  Truth(numbers=(Expect(share, tol, unit="%", alternatives=alt(share, 100 * failed_id / every_id)),))))
    bell = {"name": "CheckBellStateTomography"}
    failed, failed_id = windowed(db, OTHER, 14, {**bell, "status": "failed"})
    every, every_id = windowed(db, OTHER, 14, bell)
    share = 100 * failed / every
    out.append(_q("percentage", 4,
                  "Bell tomography failure rate for 144Qv2, trailing fourteen days, in % of attempts?",
                  Truth(numbers=(Expect(share, tol, unit="%", alternatives=alt(share, 100 * failed_id / every_id)),))))
    return out


# ---- spread: standard deviation, range, interquartile range of latest values ---------------------------------------
def _spread(db) -> list[Question]:
    out = []
    echo = list(latest(db, CHIP, "t2_echo").values())
    sd = statistics.stdev(echo)
    out.append(_q("spread", 1, "64Qv3: give the sd of the echo-T2 numbers chip-wide (us)",
                  Truth(numbers=(Expect(sd, UNIT_TOL["us"], alternatives=alt(sd, statistics.pstdev(echo))),))))
    freq = list(latest(db, OTHER, "qubit_frequency").values())
    span = 1000 * (max(freq) - min(freq))
    out.append(_q("spread", 2,
                  "Top-to-bottom span of qubit frequency across 144Qv2: express it in MHz, not GHz.",
                  Truth(numbers=(Expect(span, UNIT_TOL["MHz"]),))))
    ro = list(latest(db, CHIP, "average_readout_fidelity").values())
    q1, _, q3 = statistics.quantiles(ro, n=4)
    i1, _, i3 = statistics.quantiles(ro, n=4, method="inclusive")
    iqr = q3 - q1
    out.append(_q("spread", 3,
                  "IQR of averaged readout fidelity, small chip, percentage points",
                  Truth(numbers=(Expect(iqr, UNIT_TOL["%"], alternatives=alt(iqr, i3 - i1)),))))
    gate = list(latest(db, OTHER, "zx90_gate_time", "coupling").values())
    sd = statistics.stdev(gate)
    out.append(_q("spread", 4,
                  "144Qv2 CR gate durations: how much do they vary from coupler to coupler? sd in nanoseconds",
                  Truth(numbers=(Expect(sd, UNIT_TOL["ns"], alternatives=alt(sd, statistics.pstdev(gate))),))))
    return out


# ---- correlation: Pearson r over ids holding both latest values (Spearman accepted) --------------------------------
def _pearson(xs: list[float], ys: list[float]) -> float:
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    num = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    return num / (sum((x - mx) ** 2 for x in xs) * sum((y - my) ** 2 for y in ys)) ** 0.5


def _correlation(db) -> list[Question]:
    specs = (
        (CHIP, "t2_echo", "t2_star", "qubit",
         "Does a longer echo T2 go with a longer Ramsey T2* on 64Qv3? Correlation coefficient please."),
        (OTHER, "zx90_gate_fidelity", "bell_state_fidelity", "coupling",
         "144Q couplers, Pearson r: ZX90 RB fidelity against Bell-state tomography result"),
        (CHIP, "bell_state_fidelity", "zx90_depolarizing_rate", "coupling",
         "64Qv3 question: how strongly is a coupling's Bell fidelity tied to its ZX90 depolarizing rate? "
         "I want the Pearson number, sign included."),
        (OTHER, "readout_fidelity_0", "readout_fidelity_1", "qubit",
         "For the 144-qubit device, correlate the ground-state and excited-state readout fidelities across qubits."),
    )
    out = []
    for i, (chip, a, b, kind, text) in enumerate(specs, 1):
        xa, xb = latest(db, chip, a, kind), latest(db, chip, b, kind)
        both = sorted(xa.keys() & xb.keys())
        xs, ys = [xa[k] for k in both], [xb[k] for k in both]
        r = _pearson(xs, ys)
        rho = _pearson(ranks(xs), ranks(ys))
        if abs(r) <= 0.1 or (r > 0) != (rho > 0):
            raise ValueError(f"correlation {i} is too weak to state")
        out.append(_q("correlation", i, text,
                      Truth(numbers=(Expect(r, UNIT_TOL["r"], signed=True, alternatives=alt(r, rho)),))))
    return out


# ---- cross-chip: one figure on each chip, the larger side named first ----------------------------------------------
def _sides(values: dict[str, float], tol: float, unit: str = "", count: bool = False,
           others: dict[str, float] | None = None) -> Truth:
    kind = "count" if count else "value"
    expects = tuple(Expect(values[c], tol, kind, near=(CHIP_RE[c],), unit=unit,
                           alternatives=alt(values[c], others[c]) if others else ()) for c in (CHIP, OTHER))
    winner = max(values, key=values.__getitem__)
    loser = min(values, key=values.__getitem__)
    if winner == loser or abs(values[CHIP] - values[OTHER]) <= 2 * tol:
        raise ValueError("the two chips do not differ")
    return Truth(numbers=expects, winner=CHIP_RE[winner], loser=CHIP_RE[loser])


def _cross(db) -> list[Question]:
    out = []
    star = {c: statistics.fmean(latest(db, c, "t2_star").values()) for c in (CHIP, OTHER)}
    out.append(_q("cross-chip", 1, "mean T2* — 64Qv3 vs 144Qv2, which one's ahead? µs for both",
                  _sides(star, UNIT_TOL["us"])))
    ro = {c: statistics.median(latest(db, c, "average_readout_fidelity").values()) for c in (CHIP, OTHER)}
    out.append(_q("cross-chip", 2,
                  "Median readout fidelity, chip against chip: which comes out on top, and by what amount does it lead? "
                  "State both medians in %.",
                  _sides(ro, UNIT_TOL["%"], unit="%")))
    fails = {c: windowed(db, c, 4, {"status": "failed"}) for c in (CHIP, OTHER)}
    out.append(_q("cross-chip", 3,
                  "Past four days, task failures: small chip versus large one, a count for each.",
                  _sides({c: float(v[0]) for c, v in fails.items()}, 0.0, count=True,
                         others={c: float(v[1]) for c, v in fails.items()})))
    best = {c: max(latest(db, c, "zx90_gate_fidelity", "coupling").values()) for c in (CHIP, OTHER)}
    out.append(_q("cross-chip", 4,
                  "Which device owns the single finest ZX90 fidelity among its couplers, 64Q or 144Q? Quote each chip's "
                  "top value.",
                  _sides(best, UNIT_TOL["%"], unit="%")))
    return out


# ---- qubit pair: values of one coupling (or two), bound to the pair --------------------------------------------------
def _coupling(db, chip: str, a: int, b: int, name: str) -> float:
    values = latest(db, chip, name, "coupling")
    found = [v for k, v in values.items() if set(k.split("-")) == {str(a), str(b)}]
    if len(found) != 1:
        raise ValueError(f"no single value for {a}-{b}")
    return found[0]


def _pair(db) -> list[Question]:
    out = []
    bell = _coupling(db, OTHER, 20, 21, "bell_state_fidelity")
    out.append(_q("qubit pair", 1,
                  "What Bell-state fidelity did the Q20/Q21 link on 144Qv2 get in its latest tomography? percent",
                  Truth(numbers=(Expect(bell, UNIT_TOL["%"], near=(pair_re(20, 21),), unit="%"),),
                        patterns=(pair_re(20, 21),))))
    amp = _coupling(db, CHIP, 11, 10, "cr_amplitude")
    out.append(_q("qubit pair", 2, "cross-resonance drive amplitude currently set for qubits 10 and 11, 64Qv3?",
                  Truth(numbers=(Expect(amp, UNIT_TOL["au"], near=(pair_re(10, 11),)),),
                        patterns=(pair_re(10, 11),))))
    first, second = _coupling(db, CHIP, 19, 17, "zx90_gate_time"), _coupling(db, CHIP, 19, 18, "zx90_gate_time")
    if abs(first - second) <= 2 * UNIT_TOL["ns"]:
        raise ValueError("the two gate times are equal")
    long, short = ((pair_re(17, 19), first), (pair_re(18, 19), second))[:: 1 if first > second else -1]
    out.append(_q("qubit pair", 3,
                  "Q19 couples to both Q17 and Q18 on 64Qv3. Whose ZX90 gate is slower, and how many ns does each one "
                  "last?",
                  Truth(numbers=(Expect(long[1], UNIT_TOL["ns"], near=(long[0],)),
                                 Expect(short[1], UNIT_TOL["ns"], near=(short[0],))),
                        patterns=(pair_re(17, 19), pair_re(18, 19)), winner=long[0], loser=short[0])))
    zx = _coupling(db, OTHER, 12, 13, "zx90_gate_fidelity")
    x90 = latest(db, OTHER, "x90_gate_fidelity")
    stronger, weaker = sorted(("12", "13"), key=x90.__getitem__, reverse=True)
    if abs(x90["12"] - x90["13"]) <= 2 * UNIT_TOL["%"]:
        raise ValueError("the two qubits' X90 fidelities are equal")
    out.append(_q("qubit pair", 4,
                  "144Qv2, coupler 12-13: I need its ZX90 fidelity plus the X90 fidelity of each end qubit. Which end "
                  "qubit is stronger?",
                  Truth(numbers=(Expect(zx, UNIT_TOL["%"], near=(pair_re(12, 13),), unit="%"),
                                 Expect(x90["12"], UNIT_TOL["%"], near=(qubit_re(12),), unit="%"),
                                 Expect(x90["13"], UNIT_TOL["%"], near=(qubit_re(13),), unit="%")),
                        patterns=(pair_re(12, 13),), winner=qubit_re(stronger), loser=qubit_re(weaker))))
    return out


# ---- fails most: the unique leader of failed results (task, qubit, run, coupling) and its count ---------------------
def _fails(db) -> list[Question]:
    out = []
    span, _, _ = window(db, CHIP, 7)
    rows = db[HISTORY].find({"chip_id": CHIP, "status": "failed", "start_at": span}, {"name": 1})
    task, n = sole_leader(Counter(r["name"] for r in rows))
    out.append(_q("fails most", 1,
                  "64Qv3, trailing week: name the calibration routine with the most breakages and its tally.",
                  Truth(numbers=((n, 0),), patterns=(f"(?i){task}",))))
    gone = dead(db, CHIP)
    rows = db[HISTORY].find({"chip_id": CHIP, "status": "failed", "task_type": "qubit"}, {"qid": 1})
    qubit, n = sole_leader(Counter(r["qid"] for r in rows if r["qid"] not in gone))
    out.append(_q("fails most", 2,
                  "Ignoring dead qubits, who on 64Qv3 holds the record for failed results, all stored history "
                  "counted?",
                  Truth(numbers=((n, 0),), patterns=(qubit_re(qubit),))))
    span, _, _ = window(db, CHIP, 14)
    rows = db[HISTORY].find({"chip_id": CHIP, "status": "failed", "start_at": span}, {"execution_id": 1})
    run, n = sole_leader(Counter(r["execution_id"] for r in rows))
    out.append(_q("fails most", 3,
                  "Looking at 64Qv3 executions from the past fortnight, which single run had failures stacked "
                  "highest? run id plus its count",
                  Truth(numbers=((n, 0),), patterns=(f"(?i){run}",))))
    rows = db[HISTORY].find({"chip_id": OTHER, "status": "failed", "task_type": "coupling"}, {"qid": 1})
    pair, n = sole_leader(Counter("-".join(sorted(r["qid"].split("-"), key=int)) for r in rows))
    out.append(_q("fails most", 4, "144Qv2 coupler with the worst failure record (all history)? how many fails",
                  Truth(numbers=((n, 0),), patterns=(pair_re(*pair.split("-")),))))
    return out


# ---- window count: documents in a window of days (the execution-id day as the second reading) ----------------------
def _window(db) -> list[Question]:
    out = []
    weekday = 2
    by_time, by_id = windowed(db, CHIP, _days_since(db, CHIP, weekday), {"status": "failed"})
    out.append(_q("window count", 1, f"Failure tally on 64Qv3 since {WEEKDAYS[weekday]}, counting every task?",
                  Truth(numbers=(Expect(by_time, 0.0, "count", alternatives=alt(by_time, by_id)),))))
    by_time, by_id = windowed(db, OTHER, 14, {}, collection="execution_history")
    out.append(_q("window count", 2,
                  "count the executions 144Qv2 logged in the past fourteen days (failed ones too)",
                  Truth(numbers=(Expect(by_time, 0.0, "count", alternatives=alt(by_time, by_id)),))))
    by_time, by_id = windowed(db, CHIP, 10, {"excluded": True})
    out.append(_q("window count", 3,
                  "Going ten days back, how many results on the sixty-four qubit chip got flagged as excluded?",
                  Truth(numbers=(Expect(by_time, 0.0, "count", alternatives=alt(by_time, by_id)),))))
    last = newest_day(db, OTHER)
    first, final = last - timedelta(days=11), last - timedelta(days=5)
    query = {"name": "ZX90InterleavedRandomizedBenchmarking", "status": "failed"}
    by_time, by_id = _between(db, OTHER, first, final, query)
    out.append(_q("window count", 4,
                  f"Interleaved ZX90 benchmarking failures on 144Qv2 from {_spoken(first, final)}, inclusive: how "
                  "many?",
                  Truth(numbers=(Expect(by_time, 0.0, "count", alternatives=alt(by_time, by_id)),))))
    return out


# ---- missing thing: the subject does not exist (or was never measured); no value may be stated ---------------------
def _missing(db) -> list[Question]:
    if db["qubit"].count_documents({"chip_id": CHIP, "qid": "80"}):
        raise ValueError("qubit 80 exists")
    if [d for d in db["coupling"].find({"chip_id": OTHER}, {"qid": 1}) if set(d["qid"].split("-")) == {"3", "40"}]:
        raise ValueError("coupling 3-40 exists")
    silent = sorted(dead(db, CHIP), key=int)[-1]
    if db[HISTORY].count_documents({"chip_id": CHIP, "qid": silent, "status": "completed"}):
        raise ValueError("the inactive qubit has results")
    if db[HISTORY].count_documents({"chip_id": OTHER, "output_parameters.x180_gate_fidelity": {"$exists": True}}):
        raise ValueError("x180 fidelity is stored")
    truth = Truth(any_words=ABSENT, no_values=True)
    return [
        _q("missing thing", 1, "q80 on 64Qv3 — T2 echo value?", truth),
        _q("missing thing", 2, "144Qv2 Q3–Q40 coupler: ZX90 fidelity reading?",
           truth),
        _q("missing thing", 3, f"What's the most recent T1 figure for Q{int(silent):02d} on the small chip?", truth),
        _q("missing thing", 4,
           "Pull up the X180 fidelity number for qubit 12 (144Qv2) from the latest calibration.", truth),
    ]


def build_heldout9(db, now: datetime) -> list[Question]:  # noqa: ARG001 - windows count back from the data
    """The 40 questions with their truths (each raises rather than build a question with no single answer)."""
    return (_top(db) + _compound(db) + _percentage(db) + _spread(db) + _correlation(db) + _cross(db) + _pair(db)
            + _fails(db) + _window(db) + _missing(db))
