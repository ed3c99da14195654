"""The eighth sealed set: 10 shapes × 4 questions in a lab user's own registers (bench shorthand, chatty asks, units
written other ways, qubits as Q7 / qubit 07 / q7, chips named in full or short), truths from hand-written pymongo on
the raw demo collections.

Written without reading the copilot's word tables, routing, claim check or prompts, nor any other sealed set's
questions.  Definitions each truth below uses:

- latest = per qubit/coupling id, the newest (``start_at``) ``task_result_history`` row that is ``completed``, not
  ``excluded`` and holds the metric; a stored 0 (QDash's NaN) or NaN there leaves the id without a value.
- display units: fidelities in %, anharmonicity in MHz, T1/T2/T2* in μs, frequencies in GHz, gate times in ns.
- "the last N days" = N whole UTC days ending on the day of the chip's newest ``execution_history`` run; a row's
  day is its ``start_at`` day (its execution id's day is the accepted second reading).
- a failure = a ``task_result_history`` row with status ``failed``; a run = an ``execution_history`` document.
- a coupling is one pair (QDash keeps both directions; the demo fills ``data`` on one of them).
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
SPLIT = "held-out-8"
TOL = {"us": 0.051, "%": 0.0051, "share": 0.051, "GHz": 0.00006, "MHz": 0.051, "ns": 0.51, "r": 0.011}
ABSENT = ("not", "no ", "n't", "never", "unknown", "missing", "nonexist", "invalid", "isn't", "doesn't", "unavailable")
CHIP_RE = {CHIP: r"(?i)(?:\b64Q|\b64[- ]qubit)", OTHER: r"(?i)(?:\b144Q|\b144[- ]qubit)"}
HISTORY = "task_result_history"


def scale(name: str) -> float:
    """Stored -> display factor: fidelities ×100, anharmonicity (and static ZZ) GHz -> MHz, the rest as stored."""
    if name.endswith("fidelity") or "fidelity_" in name:
        return 100.0
    return 1000.0 if name in ("anharmonicity", "static_zz_interaction") else 1.0


def qubit_re(q: int | str) -> str:
    """A qubit however typed: Q7, Q07, q7, qubit 07, qid 7 (never Q70)."""
    n = int(q)
    return rf"(?i)(?:\bQ0*{n}|\bqubit\s*#?\s*0*{n}|\bqid\s*0*{n})(?!\d)"


def pair_re(a: int | str, b: int | str) -> str:
    """A coupling in either order: Q12-Q13, 13-12, q12→q13 (never 12-130 nor 12-13.5)."""
    x, y = int(a), int(b)
    one = rf"(?<![\d.])Q?0*{x}\D{{1,6}}Q?0*{y}(?!\d|\.\d)"
    two = rf"(?<![\d.])Q?0*{y}\D{{1,6}}Q?0*{x}(?!\d|\.\d)"
    return rf"(?i)(?:{one}|{two})"


def _number(raw: object) -> float | None:
    """A usable stored number; None for QDash's NaN-as-0, NaN/inf, booleans and non-numbers."""
    if isinstance(raw, bool) or not isinstance(raw, (int, float)) or raw == 0 or not math.isfinite(raw):
        return None
    return float(raw)


def latest(db, chip: str, name: str, kind: str = "qubit") -> dict[str, float]:
    """Latest value per id in display units (module docstring); ids whose newest row holds 0/NaN are absent."""
    cursor = db[HISTORY].find(
        {"chip_id": chip, "task_type": kind, "status": "completed", "excluded": {"$ne": True},
         f"output_parameters.{name}": {"$exists": True}},
        {"qid": 1, "start_at": 1, f"output_parameters.{name}.value": 1}).sort("start_at", -1)
    first: dict[str, object] = {}
    for row in cursor:
        first.setdefault(row["qid"], row["output_parameters"][name].get("value"))
    return {qid: v * scale(name) for qid, raw in first.items() if (v := _number(raw)) is not None}


def newest_day(db, chip: str) -> date:
    run = db["execution_history"].find({"chip_id": chip}, {"start_at": 1}).sort("start_at", -1).limit(1)
    return next(iter(run))["start_at"].date()


def window(db, chip: str, days: int) -> tuple[dict, date, date]:
    """``start_at`` filter of the last ``days`` whole UTC days, and the first and last day."""
    last = newest_day(db, chip)
    first = last - timedelta(days=days - 1)
    lo = datetime(first.year, first.month, first.day)
    return {"$gte": lo, "$lt": lo + timedelta(days=days)}, first, last


def id_days(rows: list[dict], first: date, last: date) -> list[dict]:
    """The rows whose execution id names a day in ``first`` .. ``last`` (the second reading of a window)."""
    lo, hi = f"{first:%Y%m%d}", f"{last:%Y%m%d}"
    return [r for r in rows if lo <= r["execution_id"][:8] <= hi]


def windowed(db, chip: str, days: int, query: dict, collection: str = HISTORY) -> tuple[int, int]:
    """Documents matching ``query`` in the window: by ``start_at``, and by execution-id day."""
    span, first, last = window(db, chip, days)
    by_time = db[collection].count_documents({"chip_id": chip, "start_at": span, **query})
    wide = list(db[collection].find({"chip_id": chip, **query}, {"execution_id": 1}))
    return by_time, len(id_days(wide, first, last))


def dead(db, chip: str) -> set[str]:
    return {d["qid"] for d in db["qubit"].find({"chip_id": chip, "status": "inactive"}, {"qid": 1})}


def sole_leader(counts: Counter) -> tuple[str, int]:
    """The unique top entry (a tie has no single answer, so the set refuses to be built on it)."""
    (top, n), (_, second) = counts.most_common(2)
    if n == second:
        raise ValueError("tie at the top")
    return top, n


def ranks(values: list[float]) -> list[float]:
    order = sorted(range(len(values)), key=values.__getitem__)
    out = [0.0] * len(values)
    for rank, i in enumerate(order):
        out[i] = float(rank)
    return out


def alt(main: float, *others: float) -> tuple[float, ...]:
    """The other readings that differ from the main one."""
    return tuple(o for o in others if not math.isclose(o, main, abs_tol=1e-9))


def _q(shape: str, i: int, text: str, truth: Truth) -> Question:
    return Question(f"sealed8-{shape.replace(' ', '-')}-{i}", shape, text, truth, split=SPLIT)


# ---- top N: the N best (or worst) latest values, in order, each beside its qubit/coupling --------------------------
def _top(db) -> list[Question]:
    specs = (
        (CHIP, "t2_echo", "qubit", 4, True, "us",
         "64Qv3 - longest-lived T2 echo, top 4 qubits as of now? values in microseconds please"),
        (OTHER, "qubit_frequency", "qubit", 3, True, "GHz",
         "144-qubit device: the three qubits sitting highest in frequency right now? GHz for each"),
        (CHIP, "zx90_gate_fidelity", "coupling", 3, True, "%",
         "best three couplers of 64Qv3 ranked by ZX90 fid, current numbers"),
        (OTHER, "t2_star", "qubit", 4, False, "us",
         "For 144Qv2 I'd like the 4 shortest T2* values we have at present, each qubit with its value (us)"),
    )
    out = []
    for i, (chip, name, kind, n, high, unit, text) in enumerate(specs, 1):
        values = sorted(latest(db, chip, name, kind).items(), key=lambda kv: kv[1], reverse=high)
        tol = TOL[unit]
        if any(abs(a[1] - b[1]) <= 2 * tol for a, b in zip(values[:n], values[1:n + 1])):
            raise ValueError(f"top {n} of {name} cannot be told apart")
        expects = tuple(Expect(v, tol, near=(pair_re(*q.split("-")) if kind == "coupling" else qubit_re(q),))
                        for q, v in values[:n])
        out.append(_q("top N", i, text, Truth(numbers=expects)))
    return out


# ---- compound filter: the qubits whose latest a AND latest b both exist and both pass ------------------------------
def _compound(db) -> list[Question]:
    specs = (
        (CHIP, "t1", lambda v: v > 80, "average_readout_fidelity", lambda v: v < 93,
         "q's on 64Qv3 with T1 over 80 us but readout fidelity below 93 percent?"),
        (OTHER, "t2_star", lambda v: v < 15, "qubit_frequency", lambda v: v > 5.1,
         "Can you find me every qubit on 144Qv2 whose T2* is under 15 microseconds while it sits above 5100 MHz?"),
        (CHIP, "x90_gate_fidelity", lambda v: v >= 99.8, "t2_echo", lambda v: v < 60,
         "64-qubit chip: X90 fid >= 99.8% AND T2 echo shorter than 60 us -- which ones"),
        (OTHER, "anharmonicity", lambda v: v < -300, "t1", lambda v: v > 90,
         "144Qv2 qubits where anharmonicity is more negative than -300 MHz and T1 exceeds 0.09 ms: who qualifies?"),
    )
    out = []
    for i, (chip, a, keep_a, b, keep_b, text) in enumerate(specs, 1):
        va, vb = latest(db, chip, a), latest(db, chip, b)
        kept = sorted((q for q in va.keys() & vb.keys() if keep_a(va[q]) and keep_b(vb[q])), key=int)
        out.append(_q("compound filter", i, text,
                      Truth(numbers=(Expect(len(kept), kind="count"),), patterns=tuple(qubit_re(q) for q in kept))))
    return out


# ---- window count: documents of a kind in the last N days ---------------------------------------------------------
def _window(db) -> list[Question]:
    specs = (
        (CHIP, 3, {"status": "failed"}, HISTORY,
         "64Qv3 failed tasks logged in the three most recent days: total?"),
        (OTHER, 14, {}, "execution_history",
         "144Qv2 calibration runs across the latest fortnight (14 days), counting the failed ones too - how many?"),
        (CHIP, 10, {"excluded": True}, HISTORY,
         "count of results someone flagged as excluded on 64Qv3 within the final 10 days of data"),
        (OTHER, 21, {"name": "CheckT1", "status": "completed", "output_parameters.t1.value": 0}, HISTORY,
         "144Qv2: in the 21 days leading up to the latest run, count CheckT1 outputs whose T1 got stored as 0 "
         "(NaN fits)"),
    )
    out = []
    for i, (chip, days, query, collection, text) in enumerate(specs, 1):
        by_time, by_id = windowed(db, chip, days, query, collection)
        out.append(_q("window count", i, text,
                      Truth(numbers=(Expect(by_time, kind="count", alternatives=alt(by_time, by_id)),))))
    return out


# ---- fails most: the one qubit / task / coupling / run with the most failures -------------------------------------
def _fails(db) -> list[Question]:
    out = []
    gone = dead(db, CHIP)
    rows = list(db[HISTORY].find({"chip_id": CHIP, "task_type": "qubit", "status": "failed"}, {"qid": 1}))
    qubit, n = sole_leader(Counter(r["qid"] for r in rows if r["qid"] not in gone))
    out.append(_q("fails most", 1, "Ignoring inactive qubits, which 64Qv3 qubit piled up failures most often "
                  "across its entire history, and what's the count?",
                  Truth(numbers=(Expect(n, kind="count", near=(qubit_re(qubit),)),), patterns=(qubit_re(qubit),))))

    span, _, _ = window(db, CHIP, 10)
    rows = list(db[HISTORY].find({"chip_id": CHIP, "status": "failed", "start_at": span}, {"name": 1}))
    task, n = sole_leader(Counter(r["name"] for r in rows))
    out.append(_q("fails most", 2, "64Qv3, last 10 days: what task type is the most frequent failer? number of "
                  "failures too",
                  Truth(numbers=(Expect(n, kind="count", near=(f"(?i){task}",)),), patterns=(f"(?i){task}",))))

    rows = list(db[HISTORY].find({"chip_id": OTHER, "task_type": "coupling", "status": "failed"}, {"qid": 1}))
    pair, n = sole_leader(Counter("-".join(sorted(r["qid"].split("-"), key=int)) for r in rows))
    out.append(_q("fails most", 3, "Which coupler on 144Qv2 failed its tasks most often overall? "
                  "Tell me the pair and the count.",
                  Truth(numbers=(Expect(n, kind="count", near=(pair_re(*pair.split("-")),)),),
                        patterns=(pair_re(*pair.split("-")),))))

    rows = list(db[HISTORY].find({"chip_id": OTHER, "status": "failed"}, {"execution_id": 1}))
    run, n = sole_leader(Counter(r["execution_id"] for r in rows))
    out.append(_q("fails most", 4, "worst execution on 144Qv2 in terms of failed tasks? id + how many failed",
                  Truth(numbers=(Expect(n, kind="count", near=(run,)),), patterns=(run,))))
    return out


# ---- cross-chip: one statistic on both chips, the larger put first ------------------------------------------------
def _both(values: dict[str, float], tol: float, kind: str = "value", unit: str = "") -> Truth:
    win, lose = sorted(values, key=values.__getitem__, reverse=True)
    return Truth(numbers=tuple(Expect(values[c], tol, kind, near=(CHIP_RE[c],), unit=unit) for c in (CHIP, OTHER)),
                 winner=CHIP_RE[win], loser=CHIP_RE[lose])


def _cross(db) -> list[Question]:
    chips = (CHIP, OTHER)
    t1 = {c: statistics.median(latest(db, c, "t1").values()) for c in chips}
    ro = {c: statistics.fmean(latest(db, c, "average_readout_fidelity").values()) for c in chips}
    fails = {c: windowed(db, c, 7, {"status": "failed"})[0] for c in chips}
    good = {}
    for c in chips:
        zx = latest(db, c, "zx90_gate_fidelity", "coupling")
        good[c] = 100 * sum(v >= 95 for v in zx.values()) / len(zx)
    return [
        _q("cross-chip", 1, "median T1, 64Qv3 vs 144Qv2 - who wins?", _both(t1, TOL["us"])),
        _q("cross-chip", 2, "Mean readout fid - is 144Qv2 or 64Qv3 ahead? Both averages as "
           "percentages please.", _both(ro, TOL["%"], unit="%")),
        _q("cross-chip", 3, "past-week failed-task counts, 64Q against 144Q: who failed more?",
           _both(fails, 0.0, "count")),
        _q("cross-chip", 4, "What fraction of couplers reach 95% ZX90 fidelity on each of our two chips "
           "(64Qv3, 144Qv2), and which chip does better?", _both(good, TOL["share"], unit="%")),
    ]


# ---- percentage: a share, over the measured ids (the share over every id is the second reading) ------------------
def _share(hit: int, measured: int, everyone: int) -> Expect:
    return Expect(100 * hit / measured, TOL["share"], unit="%", alternatives=alt(100 * hit / measured,
                                                                                100 * hit / everyone))


def _percent(db) -> list[Question]:
    out = []
    t1 = latest(db, CHIP, "t1")
    size = db["qubit"].count_documents({"chip_id": CHIP})
    out.append(_q("percentage", 1, "what % of 64Qv3's qubits clear 50 μs on T1 currently?",
                  Truth(numbers=(_share(sum(v >= 50 for v in t1.values()), len(t1), size),))))

    span, first, last = window(db, OTHER, 5)
    rows = list(db[HISTORY].find({"chip_id": OTHER, "start_at": span}, {"status": 1, "execution_id": 1}))
    rate = 100 * sum(r["status"] == "failed" for r in rows) / len(rows)
    wide = id_days(list(db[HISTORY].find({"chip_id": OTHER}, {"status": 1, "execution_id": 1})), first, last)
    other = 100 * sum(r["status"] == "failed" for r in wide) / len(wide)
    out.append(_q("percentage", 2, "Over the five most recent days on 144Qv2, what fraction of every task "
                  "result ended in failure? as a percent",
                  Truth(numbers=(Expect(rate, TOL["share"], unit="%", alternatives=alt(rate, other)),))))

    bell = latest(db, CHIP, "bell_state_fidelity", "coupling")
    pairs = db["coupling"].count_documents({"chip_id": CHIP}) // 2
    out.append(_q("percentage", 3, "roughly what % of 64Qv3 couplings sit at 90% Bell-state fidelity "
                  "or above?", Truth(numbers=(_share(sum(v >= 90 for v in bell.values()), len(bell), pairs),))))

    t2 = latest(db, OTHER, "t2_echo")
    size = db["qubit"].count_documents({"chip_id": OTHER})
    out.append(_q("percentage", 4, "144Qv2: T2 echo falling short of 60 us - share in %?",
               Truth(numbers=(_share(sum(v < 60 for v in t2.values()), len(t2), size),))))
    return out


# ---- spread: standard deviation (sample; population accepted), IQR (other quartile methods accepted), range -------
def _spread(db) -> list[Question]:
    t1 = list(latest(db, OTHER, "t1").values())
    t2s = sorted(latest(db, CHIP, "t2_star").values())
    quartiles = [statistics.quantiles(t2s, n=4, method=m) for m in ("exclusive", "inclusive")]
    iqr = [q[2] - q[0] for q in quartiles]
    ro = list(latest(db, CHIP, "readout_frequency").values())
    anh = list(latest(db, OTHER, "anharmonicity").values())
    return [
        _q("spread", 1, "sigma of T1 over 144Qv2 right now?",
           Truth(numbers=(Expect(statistics.stdev(t1), TOL["us"], alternatives=alt(statistics.stdev(t1),
                                                                                   statistics.pstdev(t1))),))),
        _q("spread", 2, "IQR for T2* on 64Qv3 at present, in microseconds?",
           Truth(numbers=(Expect(iqr[1], TOL["us"], alternatives=alt(iqr[1], iqr[0])),))),
        _q("spread", 3, "64Q: max minus min readout resonator frequency, expressed in MHz",
           Truth(numbers=(Expect(1000 * (max(ro) - min(ro)), TOL["MHz"]),))),
        _q("spread", 4, "I'm curious how much anharmonicity scatters across 144Qv2 - what's its std, "
           "in MHz?",
           Truth(numbers=(Expect(statistics.stdev(anh), TOL["MHz"], alternatives=alt(statistics.stdev(anh),
                                                                                     statistics.pstdev(anh))),))),
    ]


# ---- correlation: Pearson r over the ids holding both latest values (Spearman's rank r accepted) -----------------
def _correlation(db) -> list[Question]:
    specs = (
        (OTHER, "t1", "t2_star", "qubit",
         "144Qv2: qubits with long T1, do they also tend to have long T2*? Pearson r please"),
        (CHIP, "readout_frequency", "average_readout_fidelity", "qubit",
         "On 64Qv3, does a resonator's readout frequency relate at all to that qubit's readout "
         "fidelity? a correlation coefficient would be great"),
        (OTHER, "zx90_gate_fidelity", "bell_state_fidelity", "coupling",
         "ZX90 fid versus Bell-state fid over the 144Qv2 couplers: correlation?"),
        (CHIP, "zx90_depolarizing_rate", "bell_state_fidelity", "coupling",
         "64Qv3 couplers: when ZX90 depolarizing rates climb, do "
         "Bell-state fidelities drop? give r"),
    )
    out = []
    for i, (chip, a, b, kind, text) in enumerate(specs, 1):
        va, vb = latest(db, chip, a, kind), latest(db, chip, b, kind)
        ids = sorted(va.keys() & vb.keys())
        xs, ys = [va[k] for k in ids], [vb[k] for k in ids]
        r = statistics.correlation(xs, ys)
        rank_r = statistics.correlation(ranks(xs), ranks(ys))
        out.append(_q("correlation", i, text,
                      Truth(numbers=(Expect(r, TOL["r"], signed=True, alternatives=alt(r, rank_r)),))))
    return out


# ---- missing thing: a qubit, coupling, task or quantity the data does not hold ------------------------------------
def _missing(db) -> list[Question]:
    if db["qubit"].count_documents({"chip_id": CHIP, "qid": "71"}):
        raise ValueError("Q71 exists on the 64-qubit chip")
    if db["coupling"].count_documents({"chip_id": OTHER, "qid": {"$in": ["0-100", "100-0"]}}):
        raise ValueError("0-100 is a coupling of the 144-qubit chip")
    names = set(db[HISTORY].distinct("name", {"chip_id": CHIP}))
    params = {k for r in db["qubit"].find({"chip_id": OTHER}, {"data": 1}) for k in r.get("data", {})}
    if any("drag" in n.lower() for n in names) or any("temp" in p or "kappa" in p for p in params):
        raise ValueError("the demo holds what a missing-thing question asks for")
    absent = Truth(any_words=ABSENT, no_values=True)
    return [
        _q("missing thing", 1, "64Qv3, qubit 071: what's its latest T1?", absent),
        _q("missing thing", 2, "144Qv2 — effective qubit temperature (mK) for q12, what do we have?", absent),
        _q("missing thing", 3, "When was DRAG calibration last done on 64Qv3, and which coefficient came out for "
           "Q05?", absent),
        _q("missing thing", 4, "what ZX90 fid does the Q0-Q100 coupler on 144Qv2 have?", absent),
    ]


# ---- qubit pair: one coupling's latest value, or two couplings compared ---------------------------------------------
def _pair_value(db, chip: str, a: int, b: int, name: str) -> float:
    values = latest(db, chip, name, "coupling")
    found = [values[k] for k in (f"{a}-{b}", f"{b}-{a}") if k in values]
    if len(found) != 1:
        raise ValueError(f"coupling {a}-{b} has no single latest {name}")
    return found[0]


def _pairs(db) -> list[Question]:
    def one(chip: str, a: int, b: int, name: str, unit: str) -> Truth:
        return Truth(numbers=(Expect(_pair_value(db, chip, a, b, name), TOL[unit], near=(pair_re(a, b),)),),
                     patterns=(pair_re(a, b),))

    def duel(chip: str, q: int, x: int, y: int, name: str) -> Truth:
        """Couplings q-x and q-y compared: both values, both pairs named, the higher one first."""
        first, second = (_pair_value(db, chip, q, k, name) for k in (x, y))
        win, lose = ((q, x), (q, y)) if first > second else ((q, y), (q, x))
        return Truth(numbers=(Expect(first, TOL["%"], near=(pair_re(q, x),)),
                              Expect(second, TOL["%"], near=(pair_re(q, y),))),
                     patterns=(pair_re(q, x), pair_re(q, y)), winner=pair_re(*win), loser=pair_re(*lose))

    return [
        _q("qubit pair", 1, "ZX90 fidelity between q13 and q12 on 64Qv3?", one(CHIP, 12, 13, "zx90_gate_fidelity", "%")),
        _q("qubit pair", 2, "what Bell fidelity do the Q19/Q22 and Q19/Q18 pairs on 144Qv2 currently show, "
           "and which one is better", duel(OTHER, 19, 22, 18, "bell_state_fidelity")),
        _q("qubit pair", 3, "Gate length of the cross-resonance ZX90 on qubits 20 & 21 (64Qv3), in nanoseconds?",
           one(CHIP, 20, 21, "zx90_gate_time", "ns")),
        _q("qubit pair", 4, "144Qv2: qubit 16 couples to 17 and to 18 -- which of those two links wins on ZX90 "
           "fidelity, and what's the margin?", duel(OTHER, 16, 17, 18, "zx90_gate_fidelity")),
    ]


def build_heldout8(db, now: datetime) -> list[Question]:
    """The 40 questions with truths computed from ``db`` (``now`` is unused: windows end on the newest run)."""
    del now
    return (_top(db) + _compound(db) + _window(db) + _fails(db) + _cross(db) + _percent(db) + _spread(db)
            + _correlation(db) + _missing(db) + _pairs(db))
