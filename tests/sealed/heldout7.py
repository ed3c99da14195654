"""The seventh sealed set: 10 shapes × 4 questions as lab users type them (terse notes, chatty requests, British and
American spelling, dates written out, units asked for, negations and "only"/"leaving out" restrictions, two named
things compared), truths from hand-written pymongo queries on the raw demo documents.

Written without reading the copilot's word tables, routing, claim check or prompts, nor the questions of the other
sealed sets.  Definitions (each question's truth repeats the one it uses):

- latest = per qubit/coupling id, the newest (``start_at``) ``task_result_history`` row with status ``completed``,
  ``excluded`` not true and the metric among its ``output_parameters``; a stored 0 (QDash's NaN) or a NaN there
  means the id has no value (it is not replaced by an older one).
- display units: fidelities ×100 (%), anharmonicity ×1000 (MHz), T1/T2/T2* in μs, frequencies in GHz, gate time ns.
- "the last N days" = the N whole UTC days ending on the day of the chip's newest ``execution_history`` run; a
  written date is that whole UTC day.  A task belongs to a day by its ``start_at``; the day written in its execution
  id is accepted as the second reading.
- a failed task = a ``task_result_history`` row with status ``failed``; a run = an ``execution_history`` document;
  an inactive qubit = a ``qubit`` document with status ``inactive``.
- a coupling is one pair: QDash stores both directions, the demo fills ``data`` on one of them.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from datetime import date, datetime, timedelta

from tests.eval_score import Expect, Truth
from tests.public_eval import Question

CHIP = "64Qv3"
OTHER = "144Qv2"
SPLIT = "held-out-7"
TOL = {"us": 0.051, "%": 0.0051, "GHz": 0.00006, "MHz": 0.051, "ns": 0.51, "r": 0.011}
NOT_THERE = ("not", "no ", "n't", "never", "unknown", "missing", "only", "nonexist", "invalid", "isn't")
CHIP_RE = {CHIP: r"(?i)(?:\b64Q|\b64[- ]qubit)", OTHER: r"(?i)(?:\b144Q|\b144[- ]qubit)"}


def scale(name: str) -> float:
    """Stored -> display: fidelities in %, anharmonicity in MHz, everything else as stored."""
    if "fidelity" in name:
        return 100.0
    if name == "anharmonicity":
        return 1000.0
    return 1.0


def qubit_re(q: int | str) -> str:
    """A qubit as people write it: Q5, Q05, qubit 5, qid 5 (not Q50)."""
    n = int(q)
    return rf"(?i)(?:\bQ0*{n}|\bqubit\s*#?\s*0*{n}|\bqid\s*0*{n})(?!\d)"


def pair_re(a: int | str, b: int | str) -> str:
    """A coupling written either way round: Q04-Q05, 4-5, 5→4 (not 4-50, not 4-5.2)."""
    x, y = int(a), int(b)
    one = rf"(?<![\d.])Q?0*{x}\D{{1,6}}Q?0*{y}(?!\d|\.\d)"
    two = rf"(?<![\d.])Q?0*{y}\D{{1,6}}Q?0*{x}(?!\d|\.\d)"
    return rf"(?i)(?:{one}|{two})"


def usable(raw: object) -> float | None:
    """A stored number, or None for QDash's NaN-as-0, NaN, inf and anything not a number."""
    if isinstance(raw, bool) or not isinstance(raw, (int, float)):
        return None
    if not math.isfinite(raw) or raw == 0:
        return None
    return float(raw)


def latest(db, chip: str, name: str, kind: str = "qubit") -> dict[str, float]:
    """latest per id (module docstring), in display units; ids whose newest value is 0/NaN are left out."""
    rows = db["task_result_history"].find(
        {"chip_id": chip, "task_type": kind, "status": "completed", "excluded": {"$ne": True},
         f"output_parameters.{name}": {"$exists": True}},
        {"qid": 1, "start_at": 1, f"output_parameters.{name}.value": 1}).sort("start_at", -1)
    newest: dict[str, object] = {}
    for row in rows:
        if row["qid"] not in newest:
            newest[row["qid"]] = row["output_parameters"][name].get("value")
    out: dict[str, float] = {}
    for qid, raw in newest.items():
        value = usable(raw)
        if value is not None:
            out[qid] = value * scale(name)
    return out


def last_day(db, chip: str) -> date:
    """The UTC day of the chip's newest run (windows count back from it)."""
    newest = db["execution_history"].find({"chip_id": chip}, {"start_at": 1}).sort("start_at", -1).limit(1)
    return next(iter(newest))["start_at"].date()


def day_range(first: date, last: date) -> dict:
    """A ``start_at`` filter for whole UTC days ``first`` .. ``last``."""
    lo = datetime(first.year, first.month, first.day)
    hi = datetime(last.year, last.month, last.day) + timedelta(days=1)
    return {"$gte": lo, "$lt": hi}


def by_exec_day(rows: list[dict], first: date, last: date) -> int:
    """Rows whose execution id (``YYYYMMDD-NNN``) names a day in ``first`` .. ``last`` (the second reading)."""
    lo, hi = first.strftime("%Y%m%d"), last.strftime("%Y%m%d")
    return sum(1 for r in rows if lo <= r["execution_id"][:8] <= hi)


def inactive(db, chip: str) -> set[str]:
    return {d["qid"] for d in db["qubit"].find({"chip_id": chip, "status": "inactive"}, {"qid": 1})}


def single_top(counts: Counter) -> tuple[str, int]:
    """The one top entry; a tie leaves the question without a single answer, so it is refused."""
    (top, n), (_, runner_up) = counts.most_common(2)
    if n == runner_up:
        raise ValueError("tie at the top")
    return top, n


def spearman(xs: list[float], ys: list[float]) -> float:
    """Pearson's r of the ranks (no ties among measured floats): the rank-correlation reading."""
    def ranks(values: list[float]) -> list[float]:
        order = sorted(range(len(values)), key=values.__getitem__)
        out = [0.0] * len(values)
        for rank, i in enumerate(order):
            out[i] = float(rank)
        return out
    return statistics.correlation(ranks(xs), ranks(ys))


def spelled(day: date, style: int) -> str:
    """A date as people type it: '17 November', 'Nov. 17th', 'Tuesday the 17th', '17/11'."""
    nth = "th" if 11 <= day.day <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(day.day % 10, "th")
    return (f"{day.day} {day:%B}", f"{day:%b}. {day.day}{nth}", f"{day:%A} the {day.day}{nth}",
            f"{day.day}/{day.month}")[style]


def _q(shape: str, i: int, text: str, truth: Truth) -> Question:
    return Question(f"sealed7-{shape.replace(' ', '-')}-{i}", shape, text, truth, split=SPLIT)


# ---- compound filter: qubits whose latest a AND latest b both exist and both pass -------------------------------
def _filtered(db, chip: str, a: str, keep_a, b: str, keep_b) -> list[str]:
    va, vb = latest(db, chip, a), latest(db, chip, b)
    return sorted((q for q in va.keys() & vb.keys() if keep_a(va[q]) and keep_b(vb[q])), key=int)


def _compound(db) -> list[Question]:
    specs = (
        (CHIP, "t2_star", lambda v: v > 50, "average_readout_fidelity", lambda v: v < 92,
         "64Qv3 -- any qubit pairing T2* beyond 50us with readout fid under 92%? list them"),
        (OTHER, "x90_gate_fidelity", lambda v: v >= 99.9, "t1", lambda v: v >= 100,
         "144Qv2 device: list the qubits whose X90 fidelity is at least 99.9% -- only the ones whose "
         "T1 is also 100 microseconds or more"),
        # 4900 MHz = 4.9 GHz (the metric is stored in GHz)
        (CHIP, "qubit_frequency", lambda v: v < 4.9, "t2_echo", lambda v: v > 110,
         "Qubits on 64Qv3 sitting below 4900 MHz that still manage an echo T2 north of 110 µs? names please"),
        (OTHER, "readout_frequency", lambda v: v > 7.1, "average_readout_fidelity", lambda v: v > 97,
         "for 144Qv2 I need qubits with the readout resonator above 7.1 GHz and readout fidelity better than "
         "97 percent"),
    )
    out = []
    for i, (chip, a, keep_a, b, keep_b, text) in enumerate(specs, 1):
        kept = _filtered(db, chip, a, keep_a, b, keep_b)
        truth = Truth(numbers=((len(kept), 0),), patterns=tuple(qubit_re(q) for q in kept))
        out.append(_q("compound filter", i, text, truth))
    return out


# ---- correlation: Pearson's r of the latest values of ids that have both (rank r accepted) ----------------------
def _r(db, chip: str, a: str, b: str, kind: str) -> Expect:
    va, vb = latest(db, chip, a, kind), latest(db, chip, b, kind)
    ids = sorted(va.keys() & vb.keys())
    xs, ys = [va[i] for i in ids], [vb[i] for i in ids]
    return Expect(statistics.correlation(xs, ys), TOL["r"], signed=True, alternatives=(spearman(xs, ys),))


def _correlation(db) -> list[Question]:
    specs = (
        (CHIP, "t2_star", "t2_echo", "qubit",
         "Is T2* tracking the Hahn-echo T2 on 64Qv3? Pearson's r, newest value per qubit."),
        (OTHER, "bell_state_fidelity", "zx90_gate_fidelity", "coupling",
         "144Q - how tightly does Bell state fidelity go with ZX90 fidelity across the couplings? a correlation "
         "coefficient please"),
        (CHIP, "zx90_depolarizing_rate", "bell_state_fidelity", "coupling",
         "On 64Qv3, do couplings with a higher ZX90 depolarizing rate show lower Bell-state fidelity? quantify it "
         "as r"),
        (OTHER, "x90_depolarizing_rate", "t1", "qubit",
         "Across the 144 qubit chip, correlate the X90 depolarising rate against T1 (latest per qubit). What's r?"),
    )
    return [_q("correlation", i, text, Truth(numbers=(_r(db, chip, a, b, kind),)))
            for i, (chip, a, b, kind, text) in enumerate(specs, 1)]


# ---- cross-chip: one figure per chip, the larger one named first ------------------------------------------------
def _two_chips(figures: dict[str, float], tol: float, kind: str = "value", unit: str = "") -> Truth:
    expects = tuple(Expect(figures[c], tol, kind, near=(CHIP_RE[c],), unit=unit) for c in (CHIP, OTHER))
    top = max(figures, key=figures.__getitem__)
    low = OTHER if top == CHIP else CHIP
    return Truth(numbers=expects, winner=CHIP_RE[top], loser=CHIP_RE[low])


def _cross_chip(db) -> list[Question]:
    both = (CHIP, OTHER)
    # median of the latest T2 echo per qubit
    t2 = {c: statistics.median(latest(db, c, "t2_echo").values()) for c in both}
    # mean of the latest readout fidelity per qubit, in %
    ro = {c: statistics.fmean(latest(db, c, "average_readout_fidelity").values()) for c in both}
    # number of qubits whose latest T2* is under 20 μs
    short = {c: float(sum(1 for v in latest(db, c, "t2_star").values() if v < 20)) for c in both}
    # mean of the latest Bell-state fidelity per coupling, in %
    bell = {c: statistics.fmean(latest(db, c, "bell_state_fidelity", "coupling").values()) for c in both}
    return [
        _q("cross-chip", 1, "Median Hahn echo T2 -- 64Qv3 vs 144Qv2, which comes out longer? both numbers pls",
           _two_chips(t2, TOL["us"])),
        _q("cross-chip", 2, "Comparing our two chips, whose mean readout fidelity is better? Give both as percentages.",
           _two_chips(ro, TOL["%"], unit="%")),
        _q("cross-chip", 3, "T2* short of 20 µs: tally of such qubits, 64Qv3 compared with 144Qv2?",
           _two_chips(short, 0, "count")),
        _q("cross-chip", 4, "mean Bell fidelity across every coupling, 64Qv3 against 144Qv2?",
           _two_chips(bell, TOL["%"], unit="%")),
    ]


# ---- fails most: the one id/run/task with the most failed task rows ---------------------------------------------
def _fails_most(db) -> list[Question]:
    out = []
    # 1: qubit-level failed rows on 64Qv3, every day, inactive qubits left out
    dead = inactive(db, CHIP)
    rows = db["task_result_history"].find({"chip_id": CHIP, "task_type": "qubit", "status": "failed"}, {"qid": 1})
    qid, n = single_top(Counter(r["qid"] for r in rows if r["qid"] not in dead))
    truth = Truth(numbers=(Expect(n, 0, "count", near=(qubit_re(qid),)),), patterns=(qubit_re(qid),))
    out.append(_q("fails most", 1, "Ignoring dead (inactive) qubits, who is the worst offender on 64Qv3 for "
                  "failed tasks overall -- name it with its count", truth))
    # 2: the 64Qv3 run (execution id) with the most failed task rows
    rows = db["task_result_history"].find({"chip_id": CHIP, "status": "failed"}, {"execution_id": 1})
    run, n = single_top(Counter(r["execution_id"] for r in rows))
    out.append(_q("fails most", 2, "which 64Qv3 execution piled up the biggest heap of failed tasks (give the "
                  "count)?", Truth(numbers=(Expect(n, 0, "count", near=(f"(?i){run}",)),),
                                                   patterns=(f"(?i){run}",))))
    # 3: qubit tasks (task_type qubit) on 144Qv2, inactive qubits left out: the task name failing most
    dead = inactive(db, OTHER)
    rows = db["task_result_history"].find({"chip_id": OTHER, "task_type": "qubit", "status": "failed"},
                                          {"qid": 1, "name": 1})
    task, n = single_top(Counter(r["name"] for r in rows if r["qid"] not in dead))
    pattern = "(?i)" + task.removeprefix("Check")
    out.append(_q("fails most", 3, "144Qv2, 1Q tasks only and inactive qubits ignored: what's the most "
                  "failure-prone task?", Truth(numbers=(Expect(n, 0, "count", near=(pattern,)),), patterns=(pattern,))))
    # 4: ZX90 interleaved RB failures on 144Qv2 per coupling pair (either direction is one pair)
    rows = db["task_result_history"].find({"chip_id": OTHER, "status": "failed",
                                           "name": "ZX90InterleavedRandomizedBenchmarking"}, {"qid": 1})
    pair, n = single_top(Counter("-".join(sorted(r["qid"].split("-"), key=int)) for r in rows))
    a, b = pair.split("-")
    out.append(_q("fails most", 4, "On 144Q, which coupling has had the most failed ZX90 interleaved RB attempts?",
                  Truth(numbers=(Expect(n, 0, "count", near=(pair_re(a, b),)),), patterns=(pair_re(a, b),))))
    return out


# ---- missing thing: the thing asked about does not exist, so no measured value may be stated --------------------
def _missing(db) -> list[Question]:
    assert db["qubit"].count_documents({"chip_id": CHIP, "qid": "70"}) == 0  # 64 qubits: 0..63
    assert db["task_result_history"].count_documents({"output_parameter_names": "static_zz_interaction"}) == 0
    assert db["chip"].count_documents({"chip_id": "256Qv1"}) == 0
    assert db["coupling"].count_documents({"chip_id": CHIP, "qid": {"$in": ["0-9", "9-0"]}}) == 0
    truth = Truth(no_values=True, any_words=NOT_THERE)
    texts = ("gimme T1 for Q70 (64Qv3)",
             "What does static ZZ look like across 144Qv2?",
             "T1 median on chip 256Qv1, please",
             "Q0-Q9 on 64Qv3: what's its ZX90 fidelity?")
    return [_q("missing thing", i, text, truth) for i, text in enumerate(texts, 1)]


# ---- percentage: share of measured ids (every id of the chip accepted), or of task attempts ---------------------
def _percentage(db) -> list[Question]:
    out = []
    # 1: latest T2 echo ≥ 80 μs, over qubits with a latest value (alternative: over all 64 qubit documents)
    t2 = latest(db, CHIP, "t2_echo")
    good = sum(1 for v in t2.values() if v >= 80)
    every = db["qubit"].count_documents({"chip_id": CHIP})
    out.append(_q("percentage", 1, "What percentage of 64Qv3's qubits currently clear 80 μs of echo T2?",
                  Truth(numbers=(Expect(100 * good / len(t2), TOL["%"], unit="%",
                                        alternatives=(100 * good / every,)),))))
    # 2: latest Bell fidelity ≥ 90 %, over couplings with a value (alternative: over every pair of the chip)
    bell = latest(db, OTHER, "bell_state_fidelity", "coupling")
    good = sum(1 for v in bell.values() if v >= 90)
    pairs = len({frozenset(d["qid"].split("-")) for d in db["coupling"].find({"chip_id": OTHER}, {"qid": 1})})
    out.append(_q("percentage", 2, "Of 144Qv2's couplings, what share sits at or above 90% on Bell fidelity?",
                  Truth(numbers=(Expect(100 * good / len(bell), TOL["%"], unit="%",
                                        alternatives=(100 * good / pairs,)),))))
    # 3: CheckRamsey rows of the last 5 days (by start_at; by execution-id day accepted): failed / all rows
    end = last_day(db, CHIP)
    first = end - timedelta(days=4)
    rows = list(db["task_result_history"].find({"chip_id": CHIP, "name": "CheckRamsey"},
                                               {"status": 1, "start_at": 1, "execution_id": 1}))
    window = day_range(first, end)
    timed = [r for r in rows if window["$gte"] <= r["start_at"] < window["$lt"]]
    by_id = [r for r in rows if first.strftime("%Y%m%d") <= r["execution_id"][:8] <= end.strftime("%Y%m%d")]
    share = 100 * sum(r["status"] == "failed" for r in timed) / len(timed)
    share_by_id = 100 * sum(r["status"] == "failed" for r in by_id) / len(by_id)
    out.append(_q("percentage", 3, "Looking at 64Qv3's final five days, what proportion of CheckRamsey "
                  "attempts failed? as a %", Truth(numbers=(Expect(share, TOL["%"], unit="%",
                                                          alternatives=(share_by_id,)),))))
    # 4: latest X90 fidelity < 99.5 %, over measured qubits (alternative: over all 144 qubit documents)
    x90 = latest(db, OTHER, "x90_gate_fidelity")
    below = sum(1 for v in x90.values() if v < 99.5)
    every = db["qubit"].count_documents({"chip_id": OTHER})
    out.append(_q("percentage", 4, "144-qubit chip: percent of qubits NOT reaching 99.5% X90 gate fidelity",
                  Truth(numbers=(Expect(100 * below / len(x90), TOL["%"], unit="%",
                                        alternatives=(100 * below / every,)),))))
    return out


# ---- qubit pair: one coupling's latest value, or two couplings compared -----------------------------------------
def _pair_value(db, chip: str, a: int, b: int, name: str) -> float:
    values = latest(db, chip, name, "coupling")
    found = [values[k] for k in (f"{a}-{b}", f"{b}-{a}") if k in values]
    assert len(found) == 1, (chip, a, b, name)
    return found[0]


def _pair_duel(db, chip: str, one: tuple[int, int], two: tuple[int, int], name: str, tol: float) -> Truth:
    values = {p: _pair_value(db, chip, *p, name) for p in (one, two)}
    win = max(values, key=values.__getitem__)
    lose = two if win == one else one
    expects = tuple(Expect(values[p], tol, near=(pair_re(*p),)) for p in (one, two))
    return Truth(numbers=expects, patterns=(pair_re(*win),), winner=pair_re(*win), loser=pair_re(*lose))


def _qubit_pair(db) -> list[Question]:
    bell = _pair_value(db, CHIP, 8, 9, "bell_state_fidelity")
    gate = _pair_value(db, CHIP, 4, 6, "zx90_gate_time")
    return [
        _q("qubit pair", 1, "Q8–Q9 on 64Qv3 -- Bell number, in percent?",
           Truth(numbers=(Expect(bell, TOL["%"], near=(pair_re(8, 9),)),), patterns=(pair_re(8, 9),))),
        _q("qubit pair", 2, "Q16-Q18 vs Q15-Q18 on 144Qv2: whose Bell fidelity wins?",
           _pair_duel(db, OTHER, (16, 18), (15, 18), "bell_state_fidelity", TOL["%"])),
        _q("qubit pair", 3, "ZX90 gate duration for the 6↔4 pair on 64Qv3, in nanoseconds?",
           Truth(numbers=(Expect(gate, TOL["ns"], near=(pair_re(4, 6),)),), patterns=(pair_re(4, 6),))),
        _q("qubit pair", 4, "On the 144Q, compare ZX90 fidelity for 20–21 against 20–22; which pair is ahead?",
           _pair_duel(db, OTHER, (20, 21), (20, 22), "zx90_gate_fidelity", TOL["%"])),
    ]


# ---- spread: over the latest value of every measured id ---------------------------------------------------------
def _spread(db) -> list[Question]:
    ro = list(latest(db, OTHER, "average_readout_fidelity").values())
    t1 = list(latest(db, CHIP, "t1").values())
    freq = list(latest(db, CHIP, "qubit_frequency").values())
    gate = list(latest(db, OTHER, "zx90_gate_time", "coupling").values())
    q1, _, q3 = statistics.quantiles(t1, n=4)  # exclusive method; the inclusive one (numpy's default) accepted
    i1, _, i3 = statistics.quantiles(t1, n=4, method="inclusive")
    return [
        # sample standard deviation in % (population accepted)
        _q("spread", 1, "σ readout-fidelity spread, 144Qv2, percent points",
           Truth(numbers=(Expect(statistics.stdev(ro), TOL["%"], alternatives=(statistics.pstdev(ro),)),))),
        _q("spread", 2, "T1 IQR for 64Qv3?",
           Truth(numbers=(Expect(q3 - q1, TOL["us"], alternatives=(i3 - i1,)),))),
        # highest minus lowest latest qubit frequency, GHz -> MHz
        _q("spread", 3, "By how many MHz do the top and bottom qubit frequencies of 64Qv3 sit apart?",
           Truth(numbers=(Expect(1000 * (max(freq) - min(freq)), TOL["MHz"]),))),
        _q("spread", 4, "spread (std dev, ns) of ZX90 gate durations over 144Qv2's couplings",
           Truth(numbers=(Expect(statistics.stdev(gate), TOL["ns"], alternatives=(statistics.pstdev(gate),)),))),
    ]


# ---- top N: the N ids with the highest (or lowest) latest value, each value beside its id -----------------------
def _ranked(db, chip: str, name: str, kind: str, n: int, highest: bool, tol: float) -> Truth:
    values = latest(db, chip, name, kind)
    order = sorted(values.items(), key=lambda kv: kv[1], reverse=highest)[:n]
    label = qubit_re if kind == "qubit" else (lambda cid: pair_re(*cid.split("-")))
    return Truth(numbers=tuple(Expect(v, tol, near=(label(i),)) for i, v in order))


def _top_n(db) -> list[Question]:
    return [
        _q("top N", 1, "Longest-lived T2* on 64Qv3 -- three best, values included",
           _ranked(db, CHIP, "t2_star", "qubit", 3, True, TOL["us"])),
        _q("top N", 2, "144Qv2's five highest-fidelity readouts?",
           _ranked(db, OTHER, "average_readout_fidelity", "qubit", 5, True, TOL["%"])),
        _q("top N", 3, "64Qv3: which 4 pairs show the strongest Bell fidelity? with values",
           _ranked(db, CHIP, "bell_state_fidelity", "coupling", 4, True, TOL["%"])),
        _q("top N", 4, "Which three qubits on 144Qv2 have the most negative anharmonicity? MHz, please.",
           _ranked(db, OTHER, "anharmonicity", "qubit", 3, False, TOL["MHz"])),
    ]


# ---- window count -----------------------------------------------------------------------------------------------
def _window_count(db) -> list[Question]:
    out = []
    # 1: excluded task rows on 64Qv3 whose start_at falls on the written days, both ends included
    end = last_day(db, CHIP)
    first, last = end - timedelta(days=12), end - timedelta(days=6)
    rows = list(db["task_result_history"].find({"chip_id": CHIP, "excluded": True, "start_at": day_range(first, last)},
                                               {"execution_id": 1}))
    wide = list(db["task_result_history"].find({"chip_id": CHIP, "excluded": True}, {"execution_id": 1}))
    out.append(_q("window count", 1, f"Excluded result tally on 64Qv3 from {spelled(first, 3)} through "
                  f"{spelled(last, 3)}?", Truth(numbers=(Expect(len(rows), 0, "count",
                                                                alternatives=(by_exec_day(wide, first, last),)),))))
    # 2: runs (execution_history documents, any status) of 144Qv2 started in the last 10 days
    end = last_day(db, OTHER)
    runs = db["execution_history"].count_documents({"chip_id": OTHER,
                                                    "start_at": day_range(end - timedelta(days=9), end)})
    out.append(_q("window count", 2, "144Qv2: runs launched during the last ten days -- failed runs count "
                  "too", Truth(numbers=((runs, 0),))))
    # 3: failed task rows on 64Qv3 started on one written day
    day = last_day(db, CHIP) - timedelta(days=5)
    rows = list(db["task_result_history"].find({"chip_id": CHIP, "status": "failed", "start_at": day_range(day, day)},
                                               {"execution_id": 1}))
    wide = list(db["task_result_history"].find({"chip_id": CHIP, "status": "failed"}, {"execution_id": 1}))
    out.append(_q("window count", 3, f"64Qv3 failures on {spelled(day, 2)}: how many tasks?",
                  Truth(numbers=(Expect(len(rows), 0, "count", alternatives=(by_exec_day(wide, day, day),)),))))
    # 4: completed CheckT2Echo rows on 144Qv2 in the last 14 days whose t2_echo is stored as 0 (QDash's NaN)
    end = last_day(db, OTHER)
    first = end - timedelta(days=13)
    rows = list(db["task_result_history"].find({"chip_id": OTHER, "name": "CheckT2Echo", "status": "completed",
                                                "output_parameters.t2_echo.value": 0},
                                               {"execution_id": 1, "start_at": 1}))
    window = day_range(first, end)
    timed = sum(1 for r in rows if window["$gte"] <= r["start_at"] < window["$lt"])
    out.append(_q("window count", 4, "Past fortnight: how many echo-T2 fits on 144Qv2 came back empty "
                  "(stored as zero)?", Truth(numbers=(Expect(timed, 0, "count",
                                                             alternatives=(by_exec_day(rows, first, end),)),))))
    return out


def build_heldout7(db, now: datetime) -> list[Question]:
    """The seventh sealed set's 40 questions with truths computed from ``db`` (the demo ending at ``now``)."""
    del now  # every window counts back from the chip's newest run, read from the data
    return (_compound(db) + _correlation(db) + _cross_chip(db) + _fails_most(db) + _missing(db) + _percentage(db)
            + _qubit_pair(db) + _spread(db) + _top_n(db) + _window_count(db))
