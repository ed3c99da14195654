"""The fourth sealed set: 10 shapes × 4 questions, truths from hand-written pymongo queries on the raw demo documents.

Written without reading the copilot's word tables, routing, claim check or prompts, nor the other sealed sets.
Definitions used by every truth here (each question repeats the one it needs):

- latest = per qubit/coupling id, the newest (``start_at``) completed, non-excluded ``task_result_history`` row that
  carries the metric; a value of 0 or NaN there means the id has no value (QDash stores a failed fit as 0).
- display units: fidelities ×100 (%), anharmonicity ×1000 (MHz), T1/T2 in μs, frequencies in GHz.
- a window of N days = the N whole UTC days ending on the day of the chip's newest ``execution_history`` run.
- a failed task = a ``task_result_history`` row with status ``failed``.
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
SPLIT = "held-out-4"
SCALE = {"anharmonicity": 1000.0}  # fidelities: 100 (below); everything else shown as stored
TOL = {"us": 0.051, "%": 0.0051, "GHz": 0.00006, "MHz": 0.051, "ns": 0.51, "r": 0.011, "share": 0.06}
NOT_THERE = ("not", "no ", "n't", "never", "unknown", "missing", "only")


def scale(name: str) -> float:
    return 100.0 if "fidelity" in name else SCALE.get(name, 1.0)


def qubit_re(q: int | str) -> str:
    """A qubit as people write it: Q5, Q05, qubit 5, qid 5 (not Q50)."""
    n = int(q)
    return rf"(?i)(?:\bQ0*{n}|\bqubit\s*#?\s*0*{n}|\bqid\s*0*{n})(?!\d)"


def task_re(name: str) -> str:
    """A task by its QDash name, with or without the ``Check`` prefix (CheckRamsey, Ramsey)."""
    return "(?i)" + re.escape(name.removeprefix("Check"))


def pair_re(a: int | str, b: int | str) -> str:
    """A coupling or pair written either way round: Q04-Q05, 4-5, Q5 and Q4 (not 4-50, not 4-5.2)."""
    x, y = int(a), int(b)
    one = rf"(?<![\d.])Q?0*{x}\D{{1,6}}Q?0*{y}(?!\d|\.\d)"
    two = rf"(?<![\d.])Q?0*{y}\D{{1,6}}Q?0*{x}(?!\d|\.\d)"
    return rf"(?i)(?:{one}|{two})"


CHIP_RE = {CHIP: r"(?i)(?:\b64Q|\b64[- ]qubit)", OTHER: r"(?i)(?:\b144Q|\b144[- ]qubit)"}


def _usable(raw: object) -> float | None:
    if isinstance(raw, bool) or not isinstance(raw, (int, float)):
        return None
    return float(raw) if math.isfinite(raw) and raw != 0 else None


def latest(db, chip: str, name: str, kind: str = "qubit") -> dict[str, float]:
    """latest = newest completed non-excluded result carrying ``name`` per id; 0/NaN = no value; display units."""
    newest: dict[str, tuple[datetime, object]] = {}
    for row in tasks(db, chip, name=TASK[name], task_type=kind, status="completed"):
        if row.get("excluded") is True or name not in (row.get("output_parameters") or {}):
            continue
        seen = newest.get(row["qid"])
        if seen is None or row["start_at"] > seen[0]:
            newest[row["qid"]] = (row["start_at"], row["output_parameters"][name].get("value"))
    out = {}
    for qid, (_, raw) in newest.items():
        value = _usable(raw)
        if value is not None:
            out[qid] = value * scale(name)
    return out


def newest_day(db, chip: str) -> date:
    """The UTC day of the chip's newest run (any status)."""
    return max(e["start_at"] for e in db["execution_history"].find({"chip_id": chip}, {"start_at": 1})).date()


def in_window(at: datetime, last: date, days: int) -> bool:
    return last - timedelta(days=days - 1) <= at.date() <= last


# the QDash task that writes each metric the truths read (copied from the demo generator's task table)
TASK = {"t1": "CheckT1", "t2_echo": "CheckT2Echo", "t2_star": "CheckRamsey", "qubit_frequency": "CheckRamsey",
        "anharmonicity": "CheckQubitSpectroscopy", "readout_frequency": "CheckResonatorSpectroscopy",
        "average_readout_fidelity": "ReadoutClassification", "x90_gate_fidelity": "X90InterleavedRandomizedBenchmarking",
        "zx90_gate_fidelity": "ZX90InterleavedRandomizedBenchmarking", "zx90_gate_time": "CreateZX90",
        "bell_state_fidelity": "CheckBellStateTomography"}
_ROWS: dict[tuple, list[dict]] = {}


def tasks(db, chip: str, **match: str) -> list[dict]:
    """The chip's ``task_result_history`` rows whose fields equal ``match`` (each query read once per database)."""
    key = (id(db), chip, *sorted(match.items()))
    if key not in _ROWS:
        _ROWS[key] = list(db["task_result_history"].find(
            {"chip_id": chip, **match}, {"name": 1, "qid": 1, "task_type": 1, "status": 1, "excluded": 1,
                                         "execution_id": 1, "start_at": 1, "output_parameters": 1}))
    return _ROWS[key]


def qubit_count(db, chip: str) -> int:
    return db["qubit"].count_documents({"chip_id": chip})


def coupling_pairs(db, chip: str) -> int:
    """Couplings counted once per pair (QDash stores both directions)."""
    return len({frozenset(d["qid"].split("-")) for d in db["coupling"].find({"chip_id": chip}, {"qid": 1})})


def single_winner(counts: Counter) -> tuple[str, int]:
    """The top entry; a tie would make the question unanswerable, so it is refused here."""
    (top, n), (_, second) = counts.most_common(2)
    if n == second:
        raise ValueError("tie at the top")
    return top, n


def pearson(xs: list[float], ys: list[float]) -> float:
    return statistics.correlation(xs, ys)


def spearman(xs: list[float], ys: list[float]) -> float:
    def ranks(v: list[float]) -> list[float]:
        order = sorted(range(len(v)), key=lambda i: v[i])
        out = [0.0] * len(v)
        for r, i in enumerate(order):
            out[i] = float(r)
        return out
    return statistics.correlation(ranks(xs), ranks(ys))


def _pct(part: int, whole: int) -> float:
    return 100.0 * part / whole


def _q(shape: str, i: int, text: str, truth: Truth) -> Question:
    return Question(f"sealed4-{shape.replace(' ', '-')}-{i}", shape, text, truth, split=SPLIT)


def _label(qid: str) -> str:
    return f"Q{int(qid):02d}"


# ---- shapes -------------------------------------------------------------------------------------------------------

def _compound(db) -> list[Question]:
    """Count of qubits passing every limit on their latest values (a qubit lacking one of the metrics fails), and the
    qubits named."""
    def case(i: int, text: str, limits: list[tuple[str, str, float]]) -> Question:
        values = {name: latest(db, CHIP, name) for name, _, _ in limits}
        keep = sorted((q for q in values[limits[0][0]]
                       if all(q in values[n] and (values[n][q] > lim if op == ">" else values[n][q] < lim)
                              for n, op, lim in limits)), key=int)
        return _q("compound filter", i, text, Truth(numbers=((len(keep), 0),),
                                                   patterns=tuple(qubit_re(q) for q in keep)))
    return [
        case(1, f"Count for me the {CHIP} qubits that currently have T1 longer than 90 us and also a T2 echo beyond "
                "0.12 ms, and name them.", [("t1", ">", 90.0), ("t2_echo", ">", 120.0)]),
        case(2, "Which qubits clear both bars at once: readout fidelity over 97.5% and an X90 fidelity better than "
                "0.9985?", [("average_readout_fidelity", ">", 97.5), ("x90_gate_fidelity", ">", 99.85)]),
        case(3, "Find me the qubits sitting below 4850 MHz whose anharmonicity is deeper than -0.29 GHz, provided "
                "T1 is still over 50 microseconds.",
             [("qubit_frequency", "<", 4.85), ("anharmonicity", "<", -290.0), ("t1", ">", 50.0)]),
        case(4, "Any qubit showing T2* under 25 μs even though T1 tops 0.05 ms? List them with a count.",
             [("t2_star", "<", 25.0), ("t1", ">", 50.0)]),
    ]


def _percentage(db) -> list[Question]:
    last = newest_day(db, CHIP)
    n_qubits, n_pairs = qubit_count(db, CHIP), coupling_pairs(db, CHIP)
    out = []
    # share of qubits with a latest T1 >= 50 us among the qubits that have one; alternative: over every qubit
    t1 = latest(db, CHIP, "t1")
    hit = sum(v >= 50.0 for v in t1.values())
    out.append(_q("percentage", 1, f"Right now, how big a fraction of the {CHIP} qubit population holds T1 at "
                                   "50 µs or above?",
                  Truth(numbers=(Expect(_pct(hit, len(t1)), TOL["share"], unit="%",
                                        alternatives=(_pct(hit, n_qubits),)),))))
    # failed task rows / all task rows of the chip's newest run (any status)
    run = max(db["execution_history"].find({"chip_id": CHIP}), key=lambda e: e["start_at"])
    rows = tasks(db, CHIP, execution_id=run["execution_id"])
    failed = sum(r["status"] == "failed" for r in rows)
    out.append(_q("percentage", 2, "For the newest calibration run, which percentage of its tasks ended up failing?",
                  Truth(numbers=(Expect(_pct(failed, len(rows)), TOL["share"], unit="%"),))))
    # couplings with a latest ZX90 fidelity >= 97% among the measured ones; alternative: over every coupling pair
    zx = latest(db, CHIP, "zx90_gate_fidelity", "coupling")
    good = sum(v >= 97.0 for v in zx.values())
    out.append(_q("percentage", 3, "Out of all couplings, what percentage hit 97% or better for ZX90 fidelity?",
                  Truth(numbers=(Expect(_pct(good, len(zx)), TOL["share"], unit="%",
                                        alternatives=(_pct(good, n_pairs),)),))))
    # failed CheckT2Echo rows / all CheckT2Echo rows started in the 7-day window
    echo = [r for r in tasks(db, CHIP, name="CheckT2Echo") if in_window(r["start_at"], last, 7)]
    bad = sum(r["status"] == "failed" for r in echo)
    out.append(_q("percentage", 4, "Looking at this past week, how big a slice of T2 echo measurements failed?",
                  Truth(numbers=(Expect(_pct(bad, len(echo)), TOL["share"], unit="%"),))))
    return out


def _top(db) -> list[Question]:
    """The N ids with the highest/lowest latest value, each value bound to its id, in rank order."""
    def case(i: int, text: str, name: str, n: int, highest: bool, kind: str = "qubit", tol: float = TOL["%"]):
        values = latest(db, CHIP, name, kind)
        ranked = sorted(values.items(), key=lambda kv: kv[1], reverse=highest)[:n]
        near = (lambda q: pair_re(*q.split("-"))) if kind == "coupling" else qubit_re
        return _q("top N", i, text, Truth(numbers=tuple(Expect(v, tol, near=(near(q),)) for q, v in ranked)))
    return [
        case(1, f"Give me the three qubits whose T1 is longest on {CHIP} at the moment, with their values.",
             "t1", 3, True, tol=TOL["us"]),
        case(2, "Which 5 qubits are doing worst on T2 echo right now?", "t2_echo", 5, False, tol=TOL["us"]),
        case(3, "Top four couplings by Bell state fidelity, please, best first.", "bell_state_fidelity", 4, True,
             kind="coupling"),
        case(4, "Rank the seven poorest readout fidelities by qubit, from the bottom up.",
             "average_readout_fidelity", 7, False),
    ]


def _cross(db) -> list[Question]:
    """A statistic of each chip's latest values (or window counts); the larger side is the winner."""
    def case(i: int, text: str, stat: dict[str, float], tol: float) -> Question:
        win, lose = sorted(stat, key=stat.get, reverse=True)  # type: ignore[arg-type]
        whole = all(float(v).is_integer() and tol == 0 for v in stat.values())
        numbers = tuple(Expect(stat[c], tol, "count" if whole else "value", near=(CHIP_RE[c],)) for c in (win, lose))
        return _q("cross-chip", i, text, Truth(numbers=numbers, winner=CHIP_RE[win], loser=CHIP_RE[lose]))

    def failed_week(chip: str) -> float:
        last = newest_day(db, chip)
        return float(sum(in_window(r["start_at"], last, 7) for r in tasks(db, chip, status="failed")))
    chips = (CHIP, OTHER)
    return [
        case(1, f"Median T1: does {CHIP} or {OTHER} come out ahead?",
             {c: statistics.median(latest(db, c, "t1").values()) for c in chips}, TOL["us"]),
        case(2, "Stack the 64-qubit chip's mean readout fidelity against the 144-qubit one's.",
             {c: statistics.fmean(latest(db, c, "average_readout_fidelity").values()) for c in chips}, TOL["%"]),
        case(3, f"Which chip racked up more failed tasks in the latest 7-day stretch, {CHIP} or {OTHER}?",
             {c: failed_week(c) for c in chips}, 0.0),
        case(4, f"Between {OTHER} and {CHIP}, which chip's couplings have the higher mean ZX90 fidelity?",
             {c: statistics.fmean(latest(db, c, "zx90_gate_fidelity", "coupling").values()) for c in chips},
             TOL["%"]),
    ]


def _quartile_spreads(values: list[float]) -> tuple[float, ...]:
    """IQR by the usual methods: linear interpolation (numpy's default, ``inclusive``) and ``exclusive``."""
    out = []
    for method in ("inclusive", "exclusive"):
        q = statistics.quantiles(values, n=4, method=method)
        out.append(q[2] - q[0])
    return tuple(out)


def _spread(db) -> list[Question]:
    last = newest_day(db, CHIP)
    t1 = list(latest(db, CHIP, "t1").values())
    anh = list(latest(db, CHIP, "anharmonicity").values())
    echo = list(latest(db, CHIP, "t2_echo").values())
    iqr, *other_iqr = _quartile_spreads(echo)
    # Q12's usable T1 values (completed, non-excluded, non-zero) started in the 7-day window
    mine = [v for r in tasks(db, CHIP, name="CheckT1", qid="12", status="completed")
            if r.get("excluded") is not True and in_window(r["start_at"], last, 7)
            and (v := _usable(r["output_parameters"]["t1"]["value"])) is not None]
    return [
        _q("spread", 1, f"What's the T1 standard deviation qubit-to-qubit on {CHIP}?",
           Truth(numbers=(Expect(statistics.stdev(t1), TOL["us"], alternatives=(statistics.pstdev(t1),)),))),
        _q("spread", 2, "Give me the anharmonicity spread on this chip as highest minus lowest, in MHz.",
           Truth(numbers=(Expect(max(anh) - min(anh), TOL["MHz"]),))),
        _q("spread", 3, "What IQR do the T2 echo values have across qubits?",
           Truth(numbers=(Expect(iqr, 0.51, alternatives=tuple(other_iqr)),))),
        _q("spread", 4, "How steady has qubit 12's T1 been this past week? A standard deviation will do.",
           Truth(numbers=(Expect(statistics.stdev(mine), TOL["us"], alternatives=(statistics.pstdev(mine),)),))),
    ]


def _correlation(db) -> list[Question]:
    """Pearson r over the ids having both latest values (Spearman accepted too)."""
    def case(i: int, text: str, a: str, b: str, kind: str = "qubit") -> Question:
        x, y = latest(db, CHIP, a, kind), latest(db, CHIP, b, kind)
        both = sorted(set(x) & set(y))
        xs, ys = [x[k] for k in both], [y[k] for k in both]
        r = pearson(xs, ys)
        return _q("correlation", i, text, Truth(numbers=(Expect(r, TOL["r"], signed=True,
                                                                alternatives=(spearman(xs, ys),)),)))
    return [
        case(1, "Does a long T1 tend to come with a long T2 echo here? What's r?", "t1", "t2_echo"),
        case(2, "Any link between where a qubit's readout resonator sits in frequency and how well "
                "it reads out? Pearson coefficient please.", "readout_frequency", "average_readout_fidelity"),
        case(3, "Across couplings, is Bell state fidelity correlated with ZX90 fidelity, and how much?",
             "zx90_gate_fidelity", "bell_state_fidelity", "coupling"),
        case(4, "Correlate each qubit's frequency with its readout fidelity over the whole chip.",
             "qubit_frequency", "average_readout_fidelity"),
    ]


def _missing(db) -> list[Question]:
    """Things with no data at all: checked here, so a seed change that creates them fails the truth test."""
    assert db["qubit"].count_documents({"chip_id": CHIP, "qid": "70"}) == 0
    assert db["chip"].count_documents({"chip_id": "16Qv1"}) == 0
    assert db["coupling"].count_documents({"chip_id": CHIP, "qid": {"$in": ["0-9", "9-0"]}}) == 0
    assert not [r for r in tasks(db, CHIP, qid="12") if "x180_gate_fidelity" in (r.get("output_parameters") or {})]
    truth = Truth(any_words=NOT_THERE, no_values=True)
    return [
        _q("missing thing", 1, f"Qubit 70 on {CHIP} — what does its T1 look like?", truth),
        _q("missing thing", 2, "Pull up the mean readout fidelity for chip 16Qv1.", truth),
        _q("missing thing", 3, "What ZX90 fidelity does the Q0–Q9 coupling have these days?", truth),
        _q("missing thing", 4, "What X180 gate fidelity did Q12 get?", truth),
    ]


def _window(db) -> list[Question]:
    last = newest_day(db, CHIP)
    runs = sum(in_window(e["start_at"], last, 7) for e in db["execution_history"].find({"chip_id": CHIP}))
    monday = last - timedelta(days=last.weekday())  # since Monday: the Monday on or before the newest day
    since = sum(monday <= r["start_at"].date() <= last for r in tasks(db, CHIP, status="failed"))
    day = last - timedelta(days=2)
    t1_rows = [r for r in tasks(db, CHIP, name="CheckT1", status="completed") if r["start_at"].date() == day]
    t1_kept = sum(r.get("excluded") is not True for r in t1_rows)
    other_last = newest_day(db, OTHER)
    other_failed = sum(in_window(r["start_at"], other_last, 3) for r in tasks(db, OTHER, status="failed"))
    return [
        # runs of any status started in the 7-day window
        _q("window count", 1, "How many runs has the chip had this past week (7 days)?",
           Truth(numbers=((runs, 0),))),
        # failed task rows started from the Monday on or before the newest run's day up to that day
        _q("window count", 2, "Since Monday, how many tasks have failed?", Truth(numbers=((since, 0),))),
        # completed CheckT1 rows started on that day (the non-excluded ones accepted too)
        _q("window count", 3, f"How many T1 measurements completed on {day.isoformat()}?",
           Truth(numbers=(Expect(len(t1_rows), 0.0, "count", alternatives=(t1_kept,)),))),
        # failed task rows of 144Qv2 in its 3-day window
        _q("window count", 4, "Count the task failures on the 144-qubit chip across the past 3 days.",
           Truth(numbers=((other_failed, 0),))),
    ]


def _fails(db) -> list[Question]:
    last = newest_day(db, CHIP)
    failed = tasks(db, CHIP, status="failed")
    inactive = {d["qid"] for d in db["qubit"].find({"chip_id": CHIP, "status": "inactive"}, {"qid": 1})}
    assert inactive
    task, n_task = single_winner(Counter(r["name"] for r in failed))
    qubit, n_qubit = single_winner(Counter(r["qid"] for r in failed
                                           if r["task_type"] == "qubit" and r["qid"] not in inactive))
    run, n_run = single_winner(Counter(r["execution_id"] for r in failed))
    pair, n_pair = single_winner(Counter(r["qid"] for r in failed
                                         if r["task_type"] == "coupling" and in_window(r["start_at"], last, 10)))
    return [
        # failed rows per task name, all history of the chip
        _q("fails most", 1, f"On {CHIP}, which task name turns up most among the failures?",
           Truth(numbers=(Expect(n_task, 0.0, "count"),), patterns=(task_re(task),))),
        # failed qubit-task rows per qubit, inactive qubits left out
        _q("fails most", 2, "Leaving the inactive qubits aside, what qubit collects the most failed tasks?",
           Truth(numbers=(Expect(n_qubit, 0.0, "count", near=(qubit_re(qubit),)),), patterns=(qubit_re(qubit),))),
        # failed rows per execution id
        _q("fails most", 3, "Which execution saw the biggest pile of failed tasks?",
           Truth(numbers=(Expect(n_run, 0.0, "count"),), patterns=(run,))),
        # failed coupling-task rows per coupling id in the 10-day window
        _q("fails most", 4, "Looking back 10 days, what coupling keeps failing the most?",
           Truth(numbers=(Expect(n_pair, 0.0, "count"),), patterns=(pair_re(*pair.split("-")),))),
    ]


def _pair(db) -> list[Question]:
    t1 = latest(db, CHIP, "t1")
    ro = latest(db, CHIP, "average_readout_fidelity")
    f = latest(db, CHIP, "qubit_frequency")

    def compare(i: int, text: str, values: dict[str, float], a: str, b: str, tol: float) -> Question:
        win, lose = (a, b) if values[a] > values[b] else (b, a)
        return _q("qubit pair", i, text, Truth(numbers=(Expect(values[win], tol, near=(qubit_re(win),)),
                                                        Expect(values[lose], tol, near=(qubit_re(lose),))),
                                               winner=qubit_re(win), loser=qubit_re(lose)))
    # the coupling 4-5 as stored (either direction): its latest ZX90 fidelity and gate time
    zx = latest(db, CHIP, "zx90_gate_fidelity", "coupling")
    gate = latest(db, CHIP, "zx90_gate_time", "coupling")
    cid = next(c for c in ("4-5", "5-4") if c in zx)
    return [
        compare(1, "T1 for Q12 versus Q21: which is better?", t1, "12", "21", TOL["us"]),
        _q("qubit pair", 2, "For the coupling between qubits 4 and 5, what are its ZX90 gate time and ZX90 "
                            "fidelity?",
           Truth(numbers=(Expect(gate[cid], TOL["ns"]), Expect(zx[cid], TOL["%"])), patterns=(pair_re(4, 5),))),
        compare(3, "Does Q05 or Q06 read out better?", ro, "5", "6", TOL["%"]),
        # detuning = |f(20) - f(21)| of the latest qubit frequencies, in MHz
        _q("qubit pair", 4, "How far apart in frequency are Q20 and Q21? Give it in MHz.",
           Truth(numbers=(Expect(abs(f["20"] - f["21"]) * 1000.0, TOL["MHz"], near=(pair_re(20, 21),)),),
                 patterns=(pair_re(20, 21),))),
    ]


def build_heldout4(db, now: datetime) -> list[Question]:  # noqa: ARG001 - windows count back from the data
    """The 40 questions with their truths; ``now`` is unused (every window ends on the newest run's day)."""
    return (_compound(db) + _percentage(db) + _top(db) + _cross(db) + _spread(db) + _correlation(db)
            + _missing(db) + _window(db) + _fails(db) + _pair(db))
