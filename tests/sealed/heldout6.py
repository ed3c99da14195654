"""The sixth sealed set: 10 shapes × 4 questions in a lab user's registers (terse, chatty, odd case, dates written
out, chips written as users write them), truths from hand-written pymongo queries on the raw demo documents.

Written without reading the copilot's word tables, routing, claim check or prompts, nor the questions of the other
sealed sets.  Definitions every truth here uses (each question repeats the one it needs):

- latest = per qubit/coupling id, the newest (``start_at``) ``task_result_history`` row with status ``completed``,
  ``excluded`` not true and the metric among its ``output_parameters``; a stored 0 (QDash's NaN) or NaN there means
  the id has no value.
- display units: fidelities ×100 (%), anharmonicity ×1000 (MHz), T1/T2/T2* in μs, frequencies in GHz, gate time ns.
- "the last N days" = the N whole UTC days ending on the day of the chip's newest ``execution_history`` run;
  "since <date>" = from 00:00 UTC of that date on.  A task belongs to a day by its ``start_at`` (the day in its
  execution id is accepted as the second reading).
- a failed task = a ``task_result_history`` row with status ``failed``; a run = an ``execution_history`` document.
- a coupling is one pair: QDash stores both directions, the demo fills ``data`` on one of them.
"""

from __future__ import annotations

import math
import re
import statistics
from collections import Counter
from datetime import date, datetime, timedelta

from tests.eval_score import Expect, Truth
from tests.public_eval import Question

CHIP = "64Qv3"
OTHER = "144Qv2"
SPLIT = "held-out-6"
TOL = {"us": 0.051, "%": 0.0051, "GHz": 0.00006, "MHz": 0.051, "ns": 0.51, "r": 0.011}
NOT_THERE = ("not", "no ", "n't", "never", "unknown", "missing", "only", "nonexist", "invalid")
CHIP_RE = {CHIP: r"(?i)(?:\b64Q|\b64[- ]qubit)", OTHER: r"(?i)(?:\b144Q|\b144[- ]qubit)"}
# the QDash task that writes each metric read here (the demo generator's task table)
TASK = {"t1": "CheckT1", "t2_echo": "CheckT2Echo", "t2_star": "CheckRamsey", "qubit_frequency": "CheckRamsey",
        "anharmonicity": "CheckQubitSpectroscopy", "average_readout_fidelity": "ReadoutClassification",
        "x90_gate_fidelity": "X90InterleavedRandomizedBenchmarking",
        "x90_depolarizing_rate": "X90InterleavedRandomizedBenchmarking",
        "zx90_gate_fidelity": "ZX90InterleavedRandomizedBenchmarking",
        "zx90_depolarizing_rate": "ZX90InterleavedRandomizedBenchmarking", "zx90_gate_time": "CreateZX90",
        "bell_state_fidelity": "CheckBellStateTomography"}


def scale(name: str) -> float:
    """Stored -> display: fidelities in %, anharmonicity in MHz, everything else as stored."""
    if "fidelity" in name:
        return 100.0
    return 1000.0 if name == "anharmonicity" else 1.0


def qubit_re(q: int | str) -> str:
    """A qubit as people write it: Q5, Q05, qubit 5, qid 5 (not Q50)."""
    n = int(q)
    return rf"(?i)(?:\bQ0*{n}|\bqubit\s*#?\s*0*{n}|\bqid\s*0*{n})(?!\d)"


def pair_re(a: int | str, b: int | str) -> str:
    """A coupling written either way round: Q04-Q05, 4-5, Q5 and Q4 (not 4-50, not 4-5.2)."""
    x, y = int(a), int(b)
    one = rf"(?<![\d.])Q?0*{x}\D{{1,6}}Q?0*{y}(?!\d|\.\d)"
    two = rf"(?<![\d.])Q?0*{y}\D{{1,6}}Q?0*{x}(?!\d|\.\d)"
    return rf"(?i)(?:{one}|{two})"


def task_re(name: str) -> str:
    """A task by its QDash name, with or without the ``Check`` prefix."""
    return "(?i)" + re.escape(name.removeprefix("Check"))


def _value(raw: object) -> float | None:
    """A stored number, or None for QDash's NaN-as-0, NaN, inf and non-numbers."""
    if isinstance(raw, bool) or not isinstance(raw, (int, float)):
        return None
    return float(raw) if math.isfinite(raw) and raw != 0 else None


def latest(db, chip: str, name: str, kind: str = "qubit") -> dict[str, float]:
    """latest per id (see the module docstring), in display units; ids whose newest value is 0/NaN left out."""
    cursor = db["task_result_history"].find(
        {"chip_id": chip, "task_type": kind, "status": "completed", "excluded": {"$ne": True},
         f"output_parameters.{name}": {"$exists": True}},
        {"qid": 1, "start_at": 1, f"output_parameters.{name}.value": 1}).sort("start_at", -1)
    first: dict[str, object] = {}
    for row in cursor:
        first.setdefault(row["qid"], row["output_parameters"][name].get("value"))
    out = {}
    for qid, raw in first.items():
        value = _value(raw)
        if value is not None:
            out[qid] = value * scale(name)
    return out


def last_day(db, chip: str) -> date:
    """The UTC day of the chip's newest run."""
    row = db["execution_history"].find({"chip_id": chip}, {"start_at": 1}).sort("start_at", -1).limit(1)
    return next(iter(row))["start_at"].date()


def midnight(day: date) -> datetime:
    return datetime(day.year, day.month, day.day)


def by_exec_day(rows: list[dict], first: date, last: date | None = None) -> int:
    """Rows counted by the day written in their execution id (the second reading of a day window)."""
    lo, hi = first.strftime("%Y%m%d"), (last or date.max).strftime("%Y%m%d")
    return sum(lo <= r["execution_id"][:8] <= hi for r in rows)


def pairs(db, chip: str) -> int:
    """Couplings counted once per pair."""
    return len({frozenset(d["qid"].split("-")) for d in db["coupling"].find({"chip_id": chip}, {"qid": 1})})


def only_top(counts: Counter) -> tuple[str, int]:
    """The single top entry (a tie would leave the question without one answer: refused)."""
    (top, n), (_, second) = counts.most_common(2)
    if n == second:
        raise ValueError("tie at the top")
    return top, n


def rank_corr(xs: list[float], ys: list[float]) -> float:
    def ranks(v: list[float]) -> list[float]:
        order = sorted(range(len(v)), key=v.__getitem__)
        out = [0.0] * len(v)
        for r, i in enumerate(order):
            out[i] = float(r)
        return out
    return statistics.correlation(ranks(xs), ranks(ys))


def written(day: date, style: int) -> str:
    """A date as people type it: 'November 20', '20 Nov', 'Nov 20, 2026', 'the 20th of November'."""
    month, short = day.strftime("%B"), day.strftime("%b")
    suffix = "th" if 11 <= day.day <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(day.day % 10, "th")
    return (f"{month} {day.day}", f"{day.day} {short}", f"{short} {day.day}, {day.year}",
            f"the {day.day}{suffix} of {month}")[style]


def _q(shape: str, i: int, text: str, truth: Truth) -> Question:
    return Question(f"sealed6-{shape.replace(' ', '-')}-{i}", shape, text, truth, split=SPLIT)


# ---- compound filter -------------------------------------------------------------------------------------------
def _both(db, chip: str, a: str, keep_a, b: str, keep_b) -> list[str]:
    """Qubits whose latest ``a`` and latest ``b`` both exist and pass both conditions (display units)."""
    va, vb = latest(db, chip, a), latest(db, chip, b)
    return sorted((q for q in va.keys() & vb.keys() if keep_a(va[q]) and keep_b(vb[q])), key=int)


def _filter_truth(qids: list[str]) -> Truth:
    return Truth(numbers=((len(qids), 0),), patterns=tuple(qubit_re(q) for q in qids))


def compound_filter(db) -> list[Question]:
    out = []
    # latest T1 > 90 μs and latest T2 echo < 100 μs, 64Qv3
    got = _both(db, CHIP, "t1", lambda v: v > 90, "t2_echo", lambda v: v < 100)
    out.append(_q("compound filter", 1, "64Q: t1 over 90us AND t2 echo under 100us - which qubits?",
                  _filter_truth(got)))
    # latest readout fidelity < 90 % and latest X90 fidelity > 99.9 %, 144Qv2
    got = _both(db, OTHER, "average_readout_fidelity", lambda v: v < 90, "x90_gate_fidelity", lambda v: v > 99.9)
    out.append(_q("compound filter", 2,
                  "Could you dig out which 144-qubit device qubits read out poorly (under 90 percent readout "
                  "fidelity) even though X90 gate fidelity beats 99.9%? Just the list is fine.",
                  _filter_truth(got)))
    # latest qubit frequency > 5.2 GHz and latest T1 < 50 μs, 64Qv3
    got = _both(db, CHIP, "qubit_frequency", lambda v: v > 5.2, "t1", lambda v: v < 50)
    out.append(_q("compound filter", 3, "on 64qv3 list QUBITS whose frequency is above 5.2 ghz while T1 sits below "
                  "50 microseconds", _filter_truth(got)))
    # latest T2* < 25 μs and latest T1 > 60 μs, 144Qv2
    got = _both(db, OTHER, "t2_star", lambda v: v < 25, "t1", lambda v: v > 60)
    out.append(_q("compound filter", 4, "144Qv2 - anything with a short T2 star (<25 μs) despite a decent T1 "
                  "(>60 μs)? name them pls", _filter_truth(got)))
    return out


# ---- percentage ------------------------------------------------------------------------------------------------
def _share(part: int, measured: int, every: int) -> Expect:
    """A share of the measured ids, the share of every id on the chip accepted as the second reading."""
    return Expect(100.0 * part / measured, 0.06, unit="%", alternatives=(100.0 * part / every,))


def percentage(db, now: datetime) -> list[Question]:
    out = []
    # qubits of 64Qv3 whose latest T1 >= 50 μs, over qubits with a latest T1 (or over every qubit document)
    t1 = latest(db, CHIP, "t1")
    part = sum(v >= 50 for v in t1.values())
    out.append(_q("percentage", 1, "what % of 64Q qubits currently clear 50 µs in T1 (inclusive)",
                  Truth(numbers=(_share(part, len(t1), db["qubit"].count_documents({"chip_id": CHIP})),))))
    # couplings of 144Qv2 whose latest ZX90 fidelity >= 98 %, over couplings with a value (or over every pair)
    zx = latest(db, OTHER, "zx90_gate_fidelity", "coupling")
    part = sum(v >= 98 for v in zx.values())
    out.append(_q("percentage", 2, "Roughly what portion of 144Qv2's couplings sit at or above 98% "
                  "ZX90 fidelity? Percentage please.",
                  Truth(numbers=(_share(part, len(zx), pairs(db, OTHER)),))))
    # CheckT2Echo rows of 64Qv3 in the last 10 days (start_at day): failed / all rows
    last = last_day(db, CHIP)
    rows = list(db["task_result_history"].find({"chip_id": CHIP, "name": "CheckT2Echo",
                                                "start_at": {"$gte": midnight(last - timedelta(days=9))}},
                                               {"status": 1, "execution_id": 1}))
    failed = [r for r in rows if r["status"] == "failed"]
    alt_rows = list(db["task_result_history"].find({"chip_id": CHIP, "name": "CheckT2Echo"},
                                                   {"status": 1, "execution_id": 1}))
    alt_failed = by_exec_day([r for r in alt_rows if r["status"] == "failed"], last - timedelta(days=9))
    alt_all = by_exec_day(alt_rows, last - timedelta(days=9))
    out.append(_q("percentage", 3, "failure rate of the T2 echo check on 64Qv3, ten most recent days, in percent?",
                  Truth(numbers=(Expect(100.0 * len(failed) / len(rows), 0.06, unit="%",
                                        alternatives=(100.0 * alt_failed / alt_all,)),))))
    # qubits of 144Qv2 whose latest readout fidelity < 92 %, over qubits with a value (or every qubit)
    ro = latest(db, OTHER, "average_readout_fidelity")
    part = sum(v < 92 for v in ro.values())
    out.append(_q("percentage", 4, "144qv2: what slice of its qubits has readout fidelity under 92%? as a percent",
                  Truth(numbers=(_share(part, len(ro), db["qubit"].count_documents({"chip_id": OTHER})),))))
    return out


# ---- top N -----------------------------------------------------------------------------------------------------
def _ranked(values: dict[str, float], n: int, highest: bool, tol: float, coupling: bool = False) -> Truth:
    order = sorted(values, key=values.__getitem__, reverse=highest)[:n]
    near = (lambda k: pair_re(*k.split("-"))) if coupling else qubit_re
    return Truth(numbers=tuple(Expect(values[k], tol, near=(near(k),)) for k in order))


def top_n(db) -> list[Question]:
    return [
        # the 5 largest latest T2 echo values of 144Qv2
        _q("top N", 1, "gimme the 5 best qubits for T2 echo on 144qv2 w/ numbers",
           _ranked(latest(db, OTHER, "t2_echo"), 5, True, TOL["us"])),
        # the 3 smallest latest readout fidelities of 64Qv3
        _q("top N", 2, "Which three qubits of the 64-qubit device have the weakest readout fidelity at the moment?",
           _ranked(latest(db, CHIP, "average_readout_fidelity"), 3, False, TOL["%"])),
        # the 4 couplings of 64Qv3 with the lowest latest ZX90 fidelity
        _q("top N", 3, "the four worst couplings on 64Qv3 by ZX90 fidelity, lowest first",
           _ranked(latest(db, CHIP, "zx90_gate_fidelity", "coupling"), 4, False, TOL["%"], coupling=True)),
        # the 4 lowest latest qubit frequencies of 64Qv3
        _q("top N", 4, "I'm looking for the 4 lowest-frequency qubits on 64Q, what are they and at what GHz?",
           _ranked(latest(db, CHIP, "qubit_frequency"), 4, False, TOL["GHz"])),
    ]


# ---- cross-chip ------------------------------------------------------------------------------------------------
def _versus(a: float, b: float, tol: float, kind: str = "value") -> Truth:
    """``a`` for 64Qv3, ``b`` for 144Qv2; the higher one is the winner."""
    ea = Expect(a, tol, kind, near=(CHIP_RE[CHIP],))  # type: ignore[arg-type]
    eb = Expect(b, tol, kind, near=(CHIP_RE[OTHER],))  # type: ignore[arg-type]
    win, lose = (CHIP, OTHER) if a > b else (OTHER, CHIP)
    return Truth(numbers=(ea, eb), winner=CHIP_RE[win], loser=CHIP_RE[lose])


def cross_chip(db) -> list[Question]:
    out = []
    # median of the latest T1 values per chip
    out.append(_q("cross-chip", 1, "64Qv3 vs 144Qv2 - whose median T1 comes out ahead?",
                  _versus(statistics.median(latest(db, CHIP, "t1").values()),
                          statistics.median(latest(db, OTHER, "t1").values()), TOL["us"])))
    # mean of the latest readout fidelities per chip
    out.append(_q("cross-chip", 2, "on average, is readout fidelity higher on the 64 or on the 144 qubit device? "
                  "show me both means",
                  _versus(statistics.fmean(latest(db, CHIP, "average_readout_fidelity").values()),
                          statistics.fmean(latest(db, OTHER, "average_readout_fidelity").values()), TOL["%"])))

    # failed task rows per chip whose start_at falls in the chip's last 7 days
    def failed_week(chip: str) -> int:
        since = midnight(last_day(db, chip) - timedelta(days=6))
        return db["task_result_history"].count_documents({"chip_id": chip, "status": "failed",
                                                          "start_at": {"$gte": since}})
    out.append(_q("cross-chip", 3, "Did 64qv3 or 144qv2 pile up more failing tasks within the previous 7 days? "
                  "How many each?", _versus(failed_week(CHIP), failed_week(OTHER), 0, "count")))
    # median of the latest ZX90 fidelities per chip (couplings with a value)
    out.append(_q("cross-chip", 4, "median zx90 fidelity, 64Q compared with 144Q - who's ahead?",
                  _versus(statistics.median(latest(db, CHIP, "zx90_gate_fidelity", "coupling").values()),
                          statistics.median(latest(db, OTHER, "zx90_gate_fidelity", "coupling").values()),
                          TOL["%"])))
    return out


# ---- spread ----------------------------------------------------------------------------------------------------
def spread(db) -> list[Question]:
    out = []
    # standard deviation of the latest T1 values of 144Qv2: sample (n-1); population accepted
    t1 = list(latest(db, OTHER, "t1").values())
    out.append(_q("spread", 1, "144Qv2: T1 stdev between its qubits?",
                  Truth(numbers=(Expect(statistics.stdev(t1), TOL["us"], alternatives=(statistics.pstdev(t1),)),))))
    # max - min of the latest anharmonicity values of 64Qv3, in MHz
    anh = list(latest(db, CHIP, "anharmonicity").values())
    out.append(_q("spread", 2, "Gap between the highest and lowest anharmonicity on 64Qv3, in MHz?",
                  Truth(numbers=(Expect(max(anh) - min(anh), TOL["MHz"]),))))
    # interquartile range of the latest T2 echo values of 64Qv3: Q3 - Q1, exclusive quartiles; inclusive accepted
    t2 = list(latest(db, CHIP, "t2_echo").values())
    q1, _, q3 = statistics.quantiles(t2, n=4)
    i1, _, i3 = statistics.quantiles(t2, n=4, method="inclusive")
    out.append(_q("spread", 3, "IQR for T2 echo, 64 qubit device pls",
                  Truth(numbers=(Expect(q3 - q1, TOL["us"], alternatives=(i3 - i1,)),))))
    # sample std of the latest qubit frequencies per chip, in MHz; population std accepted
    mine = [v * 1000 for v in latest(db, CHIP, "qubit_frequency").values()]
    theirs = [v * 1000 for v in latest(db, OTHER, "qubit_frequency").values()]
    a, b = statistics.stdev(mine), statistics.stdev(theirs)
    ea = Expect(a, TOL["MHz"], near=(CHIP_RE[CHIP],), alternatives=(statistics.pstdev(mine),))
    eb = Expect(b, TOL["MHz"], near=(CHIP_RE[OTHER],), alternatives=(statistics.pstdev(theirs),))
    win, lose = (CHIP, OTHER) if a > b else (OTHER, CHIP)
    out.append(_q("spread", 4, "Whose qubit frequencies are more scattered, 64Qv3's or 144Qv2's? Standard deviation "
                  "in MHz for each, please.", Truth(numbers=(ea, eb), winner=CHIP_RE[win], loser=CHIP_RE[lose])))
    return out


# ---- correlation -----------------------------------------------------------------------------------------------
def _corr(db, chip: str, a: str, b: str, kind: str = "qubit") -> Truth:
    """Pearson r over ids with a latest value of both metrics; Spearman's rank r accepted."""
    va, vb = latest(db, chip, a, kind), latest(db, chip, b, kind)
    ids = sorted(va.keys() & vb.keys())
    xs, ys = [va[i] for i in ids], [vb[i] for i in ids]
    return Truth(numbers=(Expect(statistics.correlation(xs, ys), TOL["r"], signed=True,
                                 alternatives=(rank_corr(xs, ys),)),))


def correlation(db) -> list[Question]:
    return [
        _q("correlation", 1, "64Qv3: does T2 echo rise along with T1 across qubits? give me r",
           _corr(db, CHIP, "t1", "t2_echo")),
        _q("correlation", 2, "On the 144Q chip, do qubits with a longer T1 tend to show a lower X90 depolarizing "
           "rate? What's the correlation coefficient?", _corr(db, OTHER, "t1", "x90_depolarizing_rate")),
        _q("correlation", 3, "correlation coefficient between zx90 fidelity and bell state fidelity over the "
           "couplings of 144qv2", _corr(db, OTHER, "zx90_gate_fidelity", "bell_state_fidelity", "coupling")),
        _q("correlation", 4, "How strongly does the ZX90 depolarizing rate track Bell state fidelity across 64Qv3's "
           "couplings (Pearson)?", _corr(db, CHIP, "zx90_depolarizing_rate", "bell_state_fidelity", "coupling")),
    ]


# ---- missing thing ---------------------------------------------------------------------------------------------
def missing_thing(db) -> list[Question]:
    absent = Truth(no_values=True, any_words=NOT_THERE)
    # 64Qv3 has qids "0".."63": there is no qubit 64
    assert db["qubit"].count_documents({"chip_id": CHIP, "qid": "64"}) == 0
    # no chip document named 32Qv2
    assert db["chip"].count_documents({"chip_id": "32Qv2"}) == 0
    # qubits 0 and 63 of 64Qv3 are not coupled (no coupling document either way)
    assert db["coupling"].count_documents({"chip_id": CHIP, "qid": {"$in": ["0-63", "63-0"]}}) == 0
    # an inactive qubit of 144Qv2 with no T1 result ever completed (the demo's dead qubits)
    dead = sorted((d["qid"] for d in db["qubit"].find({"chip_id": OTHER, "status": "inactive"}, {"qid": 1})
                   if not db["task_result_history"].count_documents(
                       {"chip_id": OTHER, "qid": d["qid"], "status": "completed", "output_parameters.t1":
                        {"$exists": True}})), key=int)
    return [
        _q("missing thing", 1, "T1 of Q64 on 64Qv3?", absent),
        _q("missing thing", 2, "hey, quick one - median T2 echo over on chip 32Qv2?", absent),
        _q("missing thing", 3, "Can you pull up the Q00-Q63 pair's ZX90 fidelity (64-qubit device)?",
           absent),
        _q("missing thing", 4, f"latest t1 for q{dead[-1]} on 144qv2, please", absent),
    ]


# ---- window count ----------------------------------------------------------------------------------------------
def window_count(db) -> list[Question]:
    out = []
    tasks = db["task_result_history"]
    runs = db["execution_history"]
    # failed task rows of 64Qv3 with start_at on or after a date 9 days before its newest day
    since = last_day(db, CHIP) - timedelta(days=9)
    n = tasks.count_documents({"chip_id": CHIP, "status": "failed", "start_at": {"$gte": midnight(since)}})
    alt = by_exec_day(list(tasks.find({"chip_id": CHIP, "status": "failed"}, {"execution_id": 1})), since)
    out.append(_q("window count", 1, f"tally up failed tasks for 64Qv3 since {written(since, 0)}",
                  Truth(numbers=(Expect(n, 0, "count", alternatives=(alt,)),))))
    # runs of 144Qv2 (any status) started between two dates, both days included
    last = last_day(db, OTHER)
    first, end = last - timedelta(days=16), last - timedelta(days=9)
    rows = list(runs.find({"chip_id": OTHER, "start_at": {"$gte": midnight(first),
                                                           "$lt": midnight(end + timedelta(days=1))}},
                          {"status": 1}))
    done = sum(r["status"] == "completed" for r in rows)  # completed runs only: the second reading
    out.append(_q("window count", 2, f"Between {written(first, 2)} and {written(end, 2)}, how often did the 144-qubit "
                  "device get calibrated (runs)?", Truth(numbers=(Expect(len(rows), 0, "count", alternatives=(done,)),))))
    # CheckT1 rows of 64Qv3 marked excluded in its last 14 days
    since = last_day(db, CHIP) - timedelta(days=13)
    rows = list(tasks.find({"chip_id": CHIP, "name": "CheckT1", "excluded": True}, {"start_at": 1,
                                                                                   "execution_id": 1}))
    n = sum(r["start_at"] >= midnight(since) for r in rows)
    out.append(_q("window count", 3, "Past fortnight: number of excluded T1 results on 64Q?",
                  Truth(numbers=(Expect(n, 0, "count", alternatives=(by_exec_day(rows, since),)),))))
    # failed runs of both chips started on or after a date 12 days before 64Qv3's newest day
    since = last_day(db, CHIP) - timedelta(days=12)
    n = runs.count_documents({"status": "failed", "chip_id": {"$in": [CHIP, OTHER]},
                              "start_at": {"$gte": midnight(since)}})
    out.append(_q("window count", 4, f"since {written(since, 3)}, what's the total of failed calibration runs "
                  "across both chips?", Truth(numbers=((n, 0),))))
    return out


# ---- fails most ------------------------------------------------------------------------------------------------
def fails_most(db) -> list[Question]:
    out = []
    tasks = db["task_result_history"]
    # failed task rows of 144Qv2 in its last 7 days, counted per task name
    since = midnight(last_day(db, OTHER) - timedelta(days=6))
    name, n = only_top(Counter(r["name"] for r in tasks.find({"chip_id": OTHER, "status": "failed",
                                                              "start_at": {"$gte": since}}, {"name": 1})))
    out.append(_q("fails most", 1, "144Qv2, past week: which task keeps failing, and how often?",
                  Truth(numbers=(Expect(n, 0, "count", near=(task_re(name),)),), patterns=(task_re(name),))))
    # failed coupling task rows of 144Qv2 (all time), counted per pair
    per_pair = Counter("-".join(sorted(r["qid"].split("-"), key=int))
                       for r in tasks.find({"chip_id": OTHER, "status": "failed", "task_type": "coupling"}, {"qid": 1}))
    pair, n = only_top(per_pair)
    out.append(_q("fails most", 2, "Across all time, which 144Qv2 coupling racked up the biggest number of failures?",
                  Truth(numbers=(Expect(n, 0, "count", near=(pair_re(*pair.split("-")),)),),
                        patterns=(pair_re(*pair.split("-")),))))
    # failed qubit task rows of 64Qv3 (all time) per qubit, over qubits whose status is active (the dead ones,
    # which fail every day, left out as the question asks)
    active = {d["qid"] for d in db["qubit"].find({"chip_id": CHIP, "status": "active"}, {"qid": 1})}
    per_qubit = Counter(r["qid"] for r in tasks.find({"chip_id": CHIP, "status": "failed", "task_type": "qubit"},
                                                     {"qid": 1}) if r["qid"] in active)
    qid, n = only_top(per_qubit)
    out.append(_q("fails most", 3, "leaving the dead/inactive qubits aside, which qubit of the 64-qubit device "
                  "fails its calibrations most often?",
                  Truth(numbers=(Expect(n, 0, "count", near=(qubit_re(qid),)),), patterns=(qubit_re(qid),))))
    # failed rows of 64Qv3's coupling tasks (all time), counted per task name
    name, n = only_top(Counter(r["name"] for r in tasks.find({"chip_id": CHIP, "status": "failed",
                                                              "task_type": "coupling"}, {"name": 1})))
    out.append(_q("fails most", 4, "64Q: among coupling tasks, which one breaks most??",
                  Truth(numbers=(Expect(n, 0, "count", near=(task_re(name),)),), patterns=(task_re(name),))))
    return out


# ---- qubit pair ------------------------------------------------------------------------------------------------
def _coupled(db, chip: str, a: int, b: int) -> str:
    """The stored id of the pair a-b that carries data."""
    for cid in (f"{a}-{b}", f"{b}-{a}"):
        doc = db["coupling"].find_one({"chip_id": chip, "qid": cid}, {"data": 1})
        if doc and doc.get("data"):
            return cid
    raise LookupError(f"{a}-{b} is not a measured coupling of {chip}")


def qubit_pair(db) -> list[Question]:
    out = []
    # latest ZX90 fidelity of the 64Qv3 coupling between qubits 12 and 13
    zx = latest(db, CHIP, "zx90_gate_fidelity", "coupling")
    cid = _coupled(db, CHIP, 12, 13)
    out.append(_q("qubit pair", 1, "zx90 fidelity between Q12 and Q13 on 64Qv3?",
                  Truth(numbers=(Expect(zx[cid], TOL["%"], near=(pair_re(12, 13),)),), patterns=(pair_re(12, 13),))))
    # of 144Qv2's couplings that include qubit 20, the one with the highest latest Bell state fidelity
    bell = latest(db, OTHER, "bell_state_fidelity", "coupling")
    mine = {k: v for k, v in bell.items() if "20" in k.split("-")}
    best = max(mine, key=mine.__getitem__)
    assert sorted(mine.values())[-1] - sorted(mine.values())[-2] > 2 * TOL["%"]
    out.append(_q("qubit pair", 2, "Out of the couplings that qubit 20 on 144Qv2 is part of, which has the best Bell "
                  "state fidelity right now?",
                  Truth(numbers=(Expect(bell[best], TOL["%"], near=(pair_re(*best.split("-")),)),),
                        patterns=(pair_re(*best.split("-")),))))
    # latest ZX90 gate time of the 144Qv2 coupling between qubits 4 and 6, in ns
    gate = latest(db, OTHER, "zx90_gate_time", "coupling")
    cid = _coupled(db, OTHER, 4, 6)
    out.append(_q("qubit pair", 3, "144qv2 pair 4-6: what's the zx90 gate time in ns",
                  Truth(numbers=(Expect(gate[cid], TOL["ns"], near=(pair_re(4, 6),)),), patterns=(pair_re(4, 6),))))
    # latest ZX90 fidelity of two 64Qv3 couplings, 0-1 and 1-4 (stored as 4-1): the higher one wins
    a, b = zx[_coupled(db, CHIP, 0, 1)], zx[_coupled(db, CHIP, 1, 4)]
    ea = Expect(a, TOL["%"], near=(pair_re(0, 1),))
    eb = Expect(b, TOL["%"], near=(pair_re(1, 4),))
    win, lose = (pair_re(0, 1), pair_re(1, 4)) if a > b else (pair_re(1, 4), pair_re(0, 1))
    out.append(_q("qubit pair", 4, "On 64Q is the 0-1 coupling or the 1-4 coupling better in terms of ZX90 "
                  "fidelity?", Truth(numbers=(ea, eb), patterns=(win, lose), winner=win, loser=lose)))
    return out


def build_heldout6(db, now: datetime) -> list[Question]:
    """The 40 questions with their truths computed on ``db`` (the demo store ending at ``now``)."""
    return (compound_filter(db) + percentage(db, now) + top_n(db) + cross_chip(db) + spread(db) + correlation(db)
            + missing_thing(db) + window_count(db) + fails_most(db) + qubit_pair(db))
