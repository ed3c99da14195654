"""The eleventh sealed set: 10 shapes × 4 questions in wordings of its own (an on-call engineer's shorthand, a PI's
email, a non-native speaker's phrasing, metrics named by their physics, numbers in words, units written out, ranges as
"between X and Y", windows as a fortnight, "since the <day>th", the past 72 hours, a calendar month or yesterday),
truths from hand-written pymongo on the raw demo collections.

Written without reading the copilot's word tables, routing, claim check or prompts, nor any other sealed set's
questions.  Values, units, labels and the newest day are the ninth set's truth helpers, windows the tenth's ``span``:

- a window of whole UTC days ends on the day of the chip's newest run (by ``start_at``; the execution id's day is the
  accepted second reading); "since the Nth" starts on that calendar day, "during <month>" on the 1st of the newest
  day's month, "yesterday" is the day before the newest day, "the past 72 hours" is the last three whole days (the
  72 hours before ``now`` is the accepted other reading).
- a failure = a ``task_result_history`` row with status ``failed``; a run = an ``execution_history`` document.

Calendar words in a question (a month's name, a day's ordinal) are written from the data's newest day, so the set
means the same thing whatever day the demo is seeded on.  The builder raises instead of writing a question with no
single answer (a tie, a limit on a value, a weak correlation, equal sides, an empty window).
"""

from __future__ import annotations

import re
import statistics
from collections import Counter
from datetime import date, datetime, timedelta

from tests.eval_score import Expect, Truth
from tests.public_eval import CHIP, OTHER, Question
from tests.sealed.heldout9 import UNIT_TOL, dead, id_days, latest, pair_re, qubit_re
from tests.sealed.heldout10 import span

__all__ = ["build_heldout11", "ordinal"]

SPLIT = "held-out-11"
HISTORY = "task_result_history"
RUNS = "execution_history"
CHIP_RE = {CHIP: r"(?i)(?:\b64Q|\b64[- ]qubit|sixty-four)", OTHER: r"(?i)(?:\b144Q|\b144[- ]qubit)"}
NOT_THERE = ("not", "no ", "n't", "unknown", "only", "exist")


def _q(shape: str, i: int, text: str, truth: Truth) -> Question:
    return Question(f"sealed11-{shape.replace(' ', '-')}-{i}", shape, text, truth, split=SPLIT)


def ordinal(day: int) -> str:
    return f"{day}{'th' if 10 <= day % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(day % 10, 'th')}"


def _midnight(day: date) -> datetime:
    return datetime(day.year, day.month, day.day)


def _rows(db, chip: str, first: date, last: date, query: dict, collection: str = HISTORY) -> tuple[list, list]:
    """Documents matching ``query`` in the window: by ``start_at``, and by execution-id day."""
    by_time = list(db[collection].find({"chip_id": chip, **query, "start_at": {
        "$gte": _midnight(first), "$lt": _midnight(last) + timedelta(days=1)}}))
    by_id = id_days(list(db[collection].find({"chip_id": chip, **query})), first, last)
    return by_time, by_id


def _hours(db, chip: str, now: datetime, hours: int, query: dict, collection: str = HISTORY) -> list:
    """The other reading of "the past N hours": documents started in the N hours before ``now``."""
    return list(db[collection].find({"chip_id": chip, **query,
                                     "start_at": {"$gte": now - timedelta(hours=hours), "$lte": now}}))


def _count(n: int, *others: int) -> Expect:
    if not n:
        raise ValueError("an empty window")
    return Expect(float(n), 0, "count", alternatives=tuple(float(o) for o in set(others) - {n}))


def _label(key: str) -> str:
    return pair_re(*key.split("-")) if "-" in key else qubit_re(key)


def _pair(key: str) -> str:
    return "-".join(sorted(key.split("-"), key=int))


def _clear_of(values: dict[str, float], limit: float, tol: float) -> None:
    if any(abs(v - limit) <= 2 * tol for v in values.values()):
        raise ValueError(f"a value sits on the limit {limit}")


def _sole(counts: Counter) -> tuple[str, int]:
    (top, n), *rest = counts.most_common() + [("", 0)]
    if not n or n == rest[0][1]:
        raise ValueError("no single leader")
    return top, n


def _coupling(db, chip: str, name: str, a: int, b: int) -> float:
    values = {_pair(k): v for k, v in latest(db, chip, name, "coupling").items()}
    return values[f"{a}-{b}"]


# ---- top N -----------------------------------------------------------------------------------------------------------
def _top(db) -> list[Question]:
    specs = (
        (OTHER, "t1", "qubit", 2, False, "us",
         "Dear team, ahead of Thursday's group meeting, could somebody flag which two 144Qv2 qubits relax "
         "fastest, i.e. lowest energy relaxation time as of today, each with its figure in microseconds? "
         "Many thanks, Prof. K"),
        (CHIP, "zx90_gate_fidelity", "coupling", 3, True, "%",
         "pager ack. 64Qv3 -> best 3 couplers by zx90 fid atm, percent each, go"),
        (CHIP, "t2_echo", "qubit", 5, False, "us",
         "Please, I want to know in 64Qv3 which five qubits are owning the most small dephasing time (echo) now, and "
         "for each one the value in microseconds."),
        (OTHER, "average_readout_fidelity", "qubit", 3, True, "%",
         "On 144Qv2, name the three qubits leading on readout assignment fidelity at this moment, percentages "
         "beside the names."),
    )
    out = []
    for i, (chip, name, kind, n, high, unit, text) in enumerate(specs, 1):
        values = sorted(latest(db, chip, name, kind).items(), key=lambda kv: kv[1], reverse=high)
        tol = UNIT_TOL[unit]
        if any(abs(a[1] - b[1]) <= 2 * tol for a, b in zip(values[:n], values[1:n + 1])):
            raise ValueError(f"top {n} of {name} cannot be told apart")
        expects = tuple(Expect(v, tol, near=(_label(q),), unit="%" if unit == "%" else "") for q, v in values[:n])
        out.append(_q("top N", i, text, Truth(numbers=expects)))
    return out


# ---- compound filter -------------------------------------------------------------------------------------------------
COMPOUND = (
    (CHIP, (("t1", ">", 40.0, "us"), ("t1", "<", 60.0, "us"), ("t2_star", ">", 40.0, "us")),
     "64Qv3 — energy relaxation time between forty and sixty microseconds, and Ramsey dephasing time above forty "
     "microseconds. Tally of qubits meeting both conditions, ids listed?"),
    (OTHER, (("qubit_frequency", ">", 5.2, "GHz"), ("anharmonicity", "<", -310.0, "MHz")),
     "Dear all, a quick one about 144Qv2: which qubits sit above 5200 megahertz in frequency while their "
     "anharmonicity lies below -310 megahertz? A count and the list, please."),
    (CHIP, (("average_readout_fidelity", ">", 96.0, "%"), ("t2_echo", "<", 60.0, "us")),
     "oncall: 64Qv3 qbs w/ assignment fid > 96 percent but echo dephasing < 60 microseconds. n + ids"),
    (OTHER, (("readout_fidelity_0", "<", 90.0, "%"), ("t1", ">", 50.0, "us")),
     "In 144Qv2 chip, which qubits are having ground-state readout fidelity lower than ninety percent although "
     "the energy relaxation time is longer than fifty microseconds? Also tell how many."),
)


def _compound(db) -> list[Question]:
    out = []
    for i, (chip, rules, text) in enumerate(COMPOUND, 1):
        kept: set[str] | None = None
        for name, side, limit, unit in rules:
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
def _share(n: int, total: int, *others: int) -> Expect:
    if not total or n in (0, total):
        raise ValueError("a share with no single answer")
    alts = tuple(100.0 * n / o for o in set(others) - {total} if o)
    return Expect(100.0 * n / total, UNIT_TOL["share"], unit="%", alternatives=alts)


def _value_share(db, chip: str, name: str, kind: str, side: str, limit: float, unit: str) -> Expect:
    values = latest(db, chip, name, kind)
    _clear_of(values, limit, UNIT_TOL[unit])
    n = sum(1 for v in values.values() if (v > limit if side == ">" else v < limit))
    every = {_pair(d["qid"]) for d in db[kind].find({"chip_id": chip}, {"qid": 1})}  # a coupling is stored both ways
    return _share(n, len(values), len(every))


def _task_share(db, chip: str, first: date, last: date, query: dict) -> Expect:
    by_time, by_id = _rows(db, chip, first, last, query)
    n = sum(r["status"] == "failed" for r in by_time)
    share = _share(n, len(by_time))
    m = sum(r["status"] == "failed" for r in by_id)
    alt = 100.0 * m / len(by_id) if by_id else share.value
    return Expect(share.value, share.tol, unit="%", alternatives=tuple({alt} - {share.value}))


def _percentage(db) -> list[Question]:
    month = span(db, CHIP, "month")
    yesterday = span(db, OTHER, "back:1:1")
    return [
        _q("percentage", 1, "Right now, on 64Qv3, what fraction in percent of qubits shows an energy relaxation "
           "time beyond forty-five microseconds?",
           Truth(numbers=(_value_share(db, CHIP, "t1", "qubit", ">", 45.0, "us"),))),
        _q("percentage", 2, "144Qv2 couplers: share (percent) whose Bell-state fid currently exceeds ninety-five "
           "percent?", Truth(numbers=(_value_share(db, OTHER, "bell_state_fidelity", "coupling", ">", 95.0, "%"),))),
        _q("percentage", 3, f"Hello, for {month[1]:%B}, the CheckT2Echo tasks on 64Qv3 — which percent from them was "
           "ending in failed status?", Truth(numbers=(_task_share(db, CHIP, *month, {"name": "CheckT2Echo"}),))),
        _q("percentage", 4, "oncall recap 144Qv2: yesterday's tasks, what fraction failed? as a percent",
           Truth(numbers=(_task_share(db, OTHER, *yesterday, {}),))),
    ]


# ---- spread ----------------------------------------------------------------------------------------------------------
def _spread(db) -> list[Question]:
    star = list(latest(db, CHIP, "t2_star").values())
    freq = list(latest(db, OTHER, "qubit_frequency").values())
    zx = list(latest(db, OTHER, "zx90_gate_fidelity", "coupling").values())
    anh = list(latest(db, CHIP, "anharmonicity").values())
    q1, _, q3 = statistics.quantiles(zx, n=4)
    i1, _, i3 = statistics.quantiles(zx, n=4, method="inclusive")
    us, pct, mhz = UNIT_TOL["us"], UNIT_TOL["%"], UNIT_TOL["MHz"]
    return [
        _q("spread", 1, "Ramsey dephasing time on 64Qv3: how much does it scatter qubit to qubit (std dev), "
           "in microseconds?",
           Truth(numbers=(Expect(statistics.stdev(star), us, alternatives=(statistics.pstdev(star),)),))),
        _q("spread", 2, "Dear colleagues, what separates the lowest and the highest qubit frequency on 144Qv2? "
           "Please state that difference in megahertz.",
           Truth(numbers=(Expect(1000.0 * (max(freq) - min(freq)), mhz),))),
        _q("spread", 3, "144Qv2 ZX90 gate fidelity over all couplers: interquartile range, in percent points pls",
           Truth(numbers=(Expect(q3 - q1, pct, alternatives=(i3 - i1,)),))),
        _q("spread", 4, "For 64Qv3, please tell me how much the anharmonicity is varying between qubits, I mean the "
           "standard deviation, in megahertz.",
           Truth(numbers=(Expect(statistics.stdev(anh), mhz, alternatives=(statistics.pstdev(anh),)),))),
    ]


# ---- correlation -----------------------------------------------------------------------------------------------------
def _r(db, chip: str, a: str, b: str, kind: str = "qubit") -> Expect:
    x, y = latest(db, chip, a, kind), latest(db, chip, b, kind)
    both = sorted(set(x) & set(y))
    r = statistics.correlation([x[k] for k in both], [y[k] for k in both])
    if abs(r) < 0.15:
        raise ValueError(f"{a} and {b} barely correlate (r={r:.3f})")
    return Expect(r, UNIT_TOL["r"], signed=True)


def _correlation(db) -> list[Question]:
    specs = (
        (CHIP, "t1", "t2_echo", "qubit",
         "64Qv3: does a longer energy relaxation time go together with a longer dephasing time (echo)? Give the "
         "Pearson coefficient over the qubits."),
        (OTHER, "t2_star", "t2_echo", "qubit",
         "Dear all, I would like the correlation coefficient between the Ramsey and the Hahn-echo dephasing times "
         "over all 144Qv2 qubits, with its sign. Thank you."),
        (OTHER, "bell_state_fidelity", "zx90_gate_fidelity", "coupling",
         "corr check 144Qv2 couplers: bell fid vs zx90 fid, pearson r"),
        (CHIP, "readout_frequency", "readout_fidelity_0", "qubit",
         "On 64Qv3 is resonator frequency related with ground state assignment fidelity? Please compute the "
         "correlation (r) between them for all qubits."),
    )
    return [_q("correlation", i, text, Truth(numbers=(_r(db, chip, a, b, kind),)))
            for i, (chip, a, b, kind, text) in enumerate(specs, 1)]


# ---- cross-chip ------------------------------------------------------------------------------------------------------
def _sides(figures: dict[str, float], tol: float, unit: str = "") -> Truth:
    if abs(figures[CHIP] - figures[OTHER]) <= 2 * tol:
        raise ValueError("the two chips cannot be told apart")
    high, low = sorted(figures, key=figures.__getitem__, reverse=True)
    expects = tuple(Expect(figures[c], tol, near=(CHIP_RE[c],), unit=unit) for c in (CHIP, OTHER))
    return Truth(numbers=expects, winner=CHIP_RE[high], loser=CHIP_RE[low])


def _cross(db, now: datetime) -> list[Question]:
    def failed(chip: str) -> int:
        by_time, _ = _rows(db, chip, *span(db, chip, "days:14"), {"status": "failed"})
        return len(by_time)

    def each(fn) -> dict[str, float]:  # noqa: ANN001 - one figure per chip
        return {c: fn(c) for c in (CHIP, OTHER)}

    return [
        _q("cross-chip", 1, "Median dephasing time (echo), 64Qv3 against 144Qv2 — which chip is ahead, and by the "
           "numbers in microseconds?",
           _sides(each(lambda c: statistics.median(latest(db, c, "t2_echo").values())), UNIT_TOL["us"])),
        _q("cross-chip", 2, "Dear both, could you set the mean readout assignment fidelity of 64Qv3 beside that of "
           "144Qv2 and tell me which comes out higher, with the percentages?",
           _sides(each(lambda c: statistics.mean(latest(db, c, "average_readout_fidelity").values())),
                  UNIT_TOL["%"], "%")),
        _q("cross-chip", 3, "fortnight tally of failed tasks: 64Qv3 vs 144Qv2, counts each and which had more",
           _sides(each(lambda c: float(failed(c))), 0.0)),
        _q("cross-chip", 4, "Between 64Qv3 and 144Qv2, whose best qubit holds the longer energy relaxation time? Give "
           "both chips' best value in microseconds.",
           _sides(each(lambda c: max(latest(db, c, "t1").values())), UNIT_TOL["us"])),
    ]


# ---- qubit pair ------------------------------------------------------------------------------------------------------
def _pairs(db) -> list[Question]:
    gate = _coupling(db, CHIP, "zx90_gate_time", 12, 13)
    bell = _coupling(db, OTHER, "bell_state_fidelity", 40, 41)
    amp = {p: _coupling(db, CHIP, "zx90_gate_fidelity", *p) for p in ((30, 31), (31, 45))}
    if abs(amp[(30, 31)] - amp[(31, 45)]) <= 2 * UNIT_TOL["%"]:
        raise ValueError("the two couplers cannot be told apart")
    good, bad = sorted(amp, key=amp.__getitem__, reverse=True)
    t2 = latest(db, OTHER, "t2_echo")
    zx = _coupling(db, OTHER, "zx90_gate_fidelity", 70, 71)
    longer, shorter = sorted(("70", "71"), key=t2.__getitem__, reverse=True)
    if abs(t2[longer] - t2[shorter]) <= 2 * UNIT_TOL["us"]:
        raise ValueError("the two qubits cannot be told apart")
    return [
        _q("qubit pair", 1, "64Qv3, Q12–Q13 link: ZX90 gate duration in nanoseconds?",
           Truth(numbers=(Expect(gate, UNIT_TOL["ns"], near=(pair_re(12, 13),)),))),
        _q("qubit pair", 2, "144Qv2 pair 40/41 bell fid now? percent",
           Truth(numbers=(Expect(bell, UNIT_TOL["%"], unit="%"),))),
        _q("qubit pair", 3, "Dear all, on 64Qv3, comparing couplings Q30-Q31 and Q31-Q45, who comes out "
           "ahead for ZX90 fidelity "
           "today? Please include the winner's value in percent.",
           Truth(numbers=(Expect(amp[good], UNIT_TOL["%"], unit="%"),), winner=pair_re(*good),
                 loser=pair_re(*bad))),
        _q("qubit pair", 4, "For 144Qv2 coupler between Q70 and Q71, please give ZX90 fidelity, and also "
           "say which of these two qubits has longer dephasing time (echo), both values in microseconds.",
           Truth(numbers=(Expect(zx, UNIT_TOL["%"], unit="%"), Expect(t2[longer], UNIT_TOL["us"]),
                          Expect(t2[shorter], UNIT_TOL["us"])), winner=qubit_re(longer), loser=qubit_re(shorter))),
    ]


# ---- fails most ------------------------------------------------------------------------------------------------------
def _leader(db, chip: str, how: str, key, query: dict) -> tuple[str, int, int]:  # noqa: ANN001 - a row's group
    """The group with the most failures in the window (by ``start_at``) and its count by execution-id day."""
    by_time, by_id = _rows(db, chip, *span(db, chip, how), {"status": "failed", **query})
    top, n = _sole(Counter(key(r) for r in by_time))
    return top, n, sum(1 for r in by_id if key(r) == top)


def _fails(db) -> list[Question]:
    task, n1, m1 = _leader(db, CHIP, "days:14", lambda r: r["name"], {})
    first = span(db, OTHER, "back:9:0")[0]
    run, n2, m2 = _leader(db, OTHER, "back:9:0", lambda r: r["execution_id"], {})
    month = span(db, OTHER, "month")[1]
    pair, n3, m3 = _leader(db, OTHER, "month", lambda r: _pair(r["qid"]), {"task_type": "coupling"})
    qubit, n4, m4 = _leader(db, CHIP, "days:7", lambda r: r["qid"], {"task_type": "qubit",
                                                                    "qid": {"$nin": sorted(dead(db, CHIP))}})
    return [
        _q("fails most", 1, "Across the past fortnight on 64Qv3, what task type piled on the biggest failure tally, "
           "and how many?",
           Truth(numbers=(_count(n1, m1),), patterns=(rf"(?i)\b{re.escape(task)}\b",))),
        _q("fails most", 2, f"Dear team, since the {ordinal(first.day)}, which single 144Qv2 execution saw "
           "failures piled highest? Its execution id and the tally, please.",
           Truth(numbers=(_count(n2, m2),), patterns=(re.escape(run),))),
        _q("fails most", 3, f"During {month:%B}, what coupler of 144Qv2 is failing most often? Tell also how many "
           "times it failed.", Truth(numbers=(_count(n3, m3),), patterns=(_label(pair),))),
        _q("fails most", 4, "oncall 64Qv3: worst active qubit by # failed tasks, past seven days? qid + count "
           "(skip the inactive ones)", Truth(numbers=(_count(n4, m4),), patterns=(qubit_re(qubit),))),
    ]


# ---- window count ----------------------------------------------------------------------------------------------------
def _windows(db, now: datetime) -> list[Question]:
    a, b = span(db, CHIP, "back:19:9")
    t1, t1_id = _rows(db, CHIP, a, b, {"name": "CheckT1", "status": "failed"})
    runs, runs_id = _rows(db, OTHER, *span(db, OTHER, "days:3"), {}, RUNS)
    hour_runs = _hours(db, OTHER, now, 72, {}, RUNS)
    y, y_id = _rows(db, CHIP, *span(db, CHIP, "back:1:1"), {"status": "failed"})
    zx, zx_id = _rows(db, OTHER, *span(db, OTHER, "days:14"),
                      {"name": "ZX90InterleavedRandomizedBenchmarking", "status": "failed"})
    when = f"{a:%B} {ordinal(a.day)} and {b:%B} {ordinal(b.day)}"
    return [
        _q("window count", 1, f"How many CheckT1 tasks failed on 64Qv3 between {when}, both days included?",
           Truth(numbers=(_count(len(t1), len(t1_id)),))),
        _q("window count", 2, "144Qv2 — calibration executions over the previous seventy-two hours, how many happened?",
           Truth(numbers=(_count(len(runs), len(runs_id), len(hour_runs)),))),
        _q("window count", 3, "Dear all, yesterday on 64Qv3: what was the tally of tasks that ended as failed?",
           Truth(numbers=(_count(len(y), len(y_id)),))),
        _q("window count", 4, "Kindly tally failed ZX90 interleaved-benchmarking tasks on 144Qv2 across the fourteen "
           "most recent days.", Truth(numbers=(_count(len(zx), len(zx_id)),))),
    ]


# ---- missing thing ---------------------------------------------------------------------------------------------------
def _missing(db) -> list[Question]:
    if db["qubit"].count_documents({"chip_id": OTHER, "qid": "151"}):
        raise ValueError("Q151 exists")
    pairs = {frozenset(d["qid"].split("-")) for d in db["coupling"].find({"chip_id": CHIP})}
    if frozenset({"9", "44"}) in pairs:
        raise ValueError("Q9-Q44 exists")
    if "72Qv1" in db["chip"].distinct("chip_id"):
        raise ValueError("72Qv1 exists")
    names = {k for d in db[HISTORY].find({}, {"output_parameters": 1}) for k in d["output_parameters"]}
    if any("purity" in k or "qnd" in k for k in names):
        raise ValueError("purity is measured")
    none = Truth(no_values=True, any_words=NOT_THERE)
    return [
        _q("missing thing", 1, "Dear team, what is the present energy relaxation time of qubit Q151 on 144Qv2, "
           "in microseconds?", none),
        _q("missing thing", 2, "64Qv3 coupler Q9-Q44: bell fid + zx90 fid? pls", none),
        _q("missing thing", 3, "Please give me median dephasing time (echo) for chip 72Qv1, in microseconds.",
           none),
        _q("missing thing", 4, "On 144Qv2, where is readout QND-ness worst and state purity lowest at the moment? "
           "Qubit ids please.", none),
    ]


def build_heldout11(db, now: datetime) -> list[Question]:
    out = (_top(db) + _compound(db) + _percentage(db) + _spread(db) + _correlation(db) + _cross(db, now)
           + _pairs(db) + _fails(db) + _windows(db, now) + _missing(db))
    assert len(out) == 40 and len({q.id for q in out}) == 40
    return out
