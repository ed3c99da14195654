"""The fifth sealed set: 10 shapes × 4 questions, truths from hand-written pymongo queries on the raw demo documents.

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

from tests.eval_score import Expect, Kind, Truth
from tests.public_eval import Question

CHIP = "64Qv3"
OTHER = "144Qv2"
SPLIT = "held-out-5"
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
    return Question(f"sealed5-{shape.replace(' ', '-')}-{i}", shape, text, truth, split=SPLIT)


def _label(qid: str) -> str:
    return f"Q{int(qid):02d}"



def _share(part: int, measured: int, whole: int) -> Expect:
    """A share over the measured ids, or (second reading) over every id of the chip."""
    return Expect(_pct(part, measured), TOL["share"], unit="%", alternatives=(_pct(part, whole),))


def _std(values: list[float], tol: float) -> Expect:
    """Sample standard deviation, or (second reading) the population one."""
    return Expect(statistics.stdev(values), tol, alternatives=(statistics.pstdev(values),))


def _r(xs: list[float], ys: list[float]) -> Expect:
    """Pearson r, or (second reading) Spearman's rank correlation."""
    return Expect(pearson(xs, ys), TOL["r"], signed=True, alternatives=(spearman(xs, ys),))


def _paired(db, chip: str, a: str, b: str) -> tuple[list[float], list[float]]:
    """The two latest values of every qubit that has both."""
    x, y = latest(db, chip, a), latest(db, chip, b)
    both = sorted(x.keys() & y.keys(), key=int)
    return [x[q] for q in both], [y[q] for q in both]


def _kept(values: dict[str, dict[str, float]], test) -> list[str]:
    """Qubits with a latest value of every metric in ``values`` for which ``test(row)`` holds."""
    ids = set.intersection(*(set(v) for v in values.values()))
    return sorted((q for q in ids if test({name: v[q] for name, v in values.items()})), key=int)


def _compound(qids: list[str]) -> Truth:
    return Truth(numbers=(Expect(len(qids), 0, "count"),), patterns=tuple(qubit_re(q) for q in qids))


def _window_failed(db, chip: str, days: int, kind: str | None = None) -> Counter:
    """Failed task rows per task name whose ``start_at`` falls in the chip's window of ``days``."""
    last = newest_day(db, chip)
    match = {"status": "failed"} if kind is None else {"status": "failed", "task_type": kind}
    return Counter(r["name"] for r in tasks(db, chip, **match) if in_window(r["start_at"], last, days))


def _compare(a_name: str, a: float, b_name: str, b: float, tol: float, kind: Kind = "value",
             unit: str = "") -> Truth:
    """Two sides, each value bound to its own subject; the larger one is the winner."""
    ea = Expect(a, tol, kind, near=(a_name,), unit=unit)
    eb = Expect(b, tol, kind, near=(b_name,), unit=unit)
    win, lose = (a_name, b_name) if a > b else (b_name, a_name)
    return Truth(numbers=(ea, eb), winner=win, loser=lose)


def _top(values: dict[str, float], n: int, lowest: bool, tol: float, near=qubit_re) -> Truth:
    """The ``n`` ids with the lowest (or highest) latest value, in that order, each value beside its id."""
    ranked = sorted(values, key=lambda q: values[q], reverse=not lowest)[:n]
    return Truth(numbers=tuple(Expect(values[q], tol, near=(near(*q.split("-")),)) for q in ranked))


def _missing() -> Truth:
    return Truth(no_values=True, any_words=NOT_THERE)


def compound_filter(db) -> list[Question]:
    """Counts of qubits passing every condition on their latest values (limits converted to display units)."""
    t1, ro = latest(db, CHIP, "t1"), latest(db, CHIP, "average_readout_fidelity")
    one = _kept({"t1": t1, "ro": ro}, lambda r: 30 <= r["t1"] <= 45 and r["ro"] < 92)
    t2e, x90, f = latest(db, CHIP, "t2_echo"), latest(db, CHIP, "x90_gate_fidelity"), latest(db, CHIP, "qubit_frequency")
    two = _kept({"t2e": t2e, "x90": x90, "f": f}, lambda r: r["t2e"] > 100 and r["x90"] >= 99.8 and r["f"] < 5.0)
    o_t1, o_t2s = latest(db, OTHER, "t1"), latest(db, OTHER, "t2_star")
    three = _kept({"t1": o_t1, "t2s": o_t2s}, lambda r: r["t1"] < 25 and r["t2s"] < 20)
    anh = latest(db, OTHER, "anharmonicity")
    four = _kept({"t1": o_t1, "a": anh}, lambda r: -300 <= r["a"] <= -280 and r["t1"] > 100)
    s = "compound filter"
    return [
        _q(s, 1, "Which qubits here sit between 30 and 45 us on T1 while also reading out worse than 92%? "
                  "Give me how many and their ids.", _compound(one)),
        _q(s, 2, "Find the 64Q qubits that tick all three boxes: T2E longer than 0.1 ms, X90 fidelity no lower "
                  "than 0.998; qubit frequency under 5 GHz. Count?", _compound(two)),
        _q(s, 3, "On 144Qv2 I'm hunting for weak spots: qubits with T1 shorter than 25000 ns where "
                  "Ramsey T2* also stays under 20 microseconds. Count them and name them.", _compound(three)),
        _q(s, 4, "144Qv2: list qubits with anharmonicity from -300 to -280 MHz (inclusive) that also have T1 "
                  "beyond 100 μs, plus the tally.", _compound(four)),
    ]


def correlation(db) -> list[Question]:
    """Pearson r over the qubits with both latest values (Spearman accepted)."""
    s = "correlation"
    return [
        _q(s, 1, "Across the 144-qubit device, does T1 track T2 echo? Give me the correlation "
                  "coefficient.", Truth(numbers=(_r(*_paired(db, OTHER, "t1", "t2_echo")),))),
        _q(s, 2, "Give r for T2* versus T2E here.",
           Truth(numbers=(_r(*_paired(db, CHIP, "t2_star", "t2_echo")),))),
        _q(s, 3, "Does where the resonator sits (readout frequency) have anything to do with how good "
                  "the readout fidelity is on 64Qv3? Quantify it with a correlation.",
           Truth(numbers=(_r(*_paired(db, CHIP, "readout_frequency", "average_readout_fidelity")),))),
        _q(s, 4, "For 144Qv2, compute r between echo coherence time and single-qubit X90 gate fidelity.",
           Truth(numbers=(_r(*_paired(db, OTHER, "t2_echo", "x90_gate_fidelity")),))),
    ]


def cross_chip(db) -> list[Question]:
    """Medians/means of the latest values per chip, or failed-task counts in each chip's own window."""
    def med(chip: str, name: str, kind: str = "qubit") -> float:
        return statistics.median(latest(db, chip, name, kind).values())

    def mean(chip: str, name: str, kind: str = "qubit") -> float:
        return statistics.mean(latest(db, chip, name, kind).values())

    def failed(chip: str) -> int:
        return sum(_window_failed(db, chip, 7).values())

    a, b = CHIP_RE[CHIP], CHIP_RE[OTHER]
    s = "cross-chip"
    return [
        _q(s, 1, "Median T1: is the 64Qv3 better or worse than the 144Qv2? I'd like both figures.",
           _compare(a, med(CHIP, "t1"), b, med(OTHER, "t1"), TOL["us"])),
        _q(s, 2, "Line the two chips up against each other on mean Bell state fidelity: who leads?",
           _compare(a, mean(CHIP, "bell_state_fidelity", "coupling"), b,
                    mean(OTHER, "bell_state_fidelity", "coupling"), TOL["%"])),
        _q(s, 3, "Over the past seven days, did 64Qv3 or 144Qv2 collect more task failures? How many each?",
           _compare(a, failed(CHIP), b, failed(OTHER), 0, "count")),
        _q(s, 4, "Compare the typical (median) ZX90 fidelity of 144Qv2's couplings with that of 64Qv3's.",
           _compare(a, med(CHIP, "zx90_gate_fidelity", "coupling"), b,
                    med(OTHER, "zx90_gate_fidelity", "coupling"), TOL["%"])),
    ]


def fails_most(db) -> list[Question]:
    """Failed ``task_result_history`` rows per task (or per run); a rate = failed rows / all rows of that task."""
    week_task, week_n = single_winner(_window_failed(db, CHIP, 7))
    run, run_n = single_winner(Counter(r["execution_id"] for r in tasks(db, CHIP, status="failed")))
    rows = tasks(db, OTHER)
    every, bad = Counter(r["name"] for r in rows), Counter(r["name"] for r in rows if r["status"] == "failed")
    kept = Counter(r["name"] for r in rows if r.get("excluded") is not True)
    rates = {name: _pct(bad[name], every[name]) for name in every}
    worst = max(rates, key=lambda k: rates[k])
    if sorted(rates.values())[-2] == rates[worst]:
        raise ValueError("tie at the top")
    pair_task, pair_n = single_winner(_window_failed(db, OTHER, 10, "coupling"))
    s = "fails most"
    return [
        _q(s, 1, "Looking at just the previous 7 days on 64Qv3, which calibration step broke most often, and "
                  "what was its failure count?", Truth(numbers=(Expect(week_n, 0, "count", near=(task_re(week_task),)),),
                                  patterns=(task_re(week_task),))),
        _q(s, 2, "Which execution on this chip saw the most tasks go wrong? Give the run id "
                  "and the failure count.", Truth(numbers=(Expect(run_n, 0, "count", near=(run,)),),
                                                  patterns=(run,))),
        _q(s, 3, "On 144Qv2, what is our least reliable task in terms of failure rate (failed out of attempted)?",
           Truth(numbers=(Expect(rates[worst], 0.051, unit="%", near=(task_re(worst),),
                                 alternatives=(_pct(bad[worst], kept[worst]),)),), patterns=(task_re(worst),))),
        _q(s, 4, "Among coupling experiments on 144Qv2 within the latest 10 days, which one errored out the "
                  "most, and how often?", Truth(numbers=(Expect(pair_n, 0, "count", near=(task_re(pair_task),)),),
                                          patterns=(task_re(pair_task),))),
    ]


def missing_thing(db) -> list[Question]:
    """Things the store does not hold: a qubit past the chip's size, a chip id, a metric no task writes."""
    assert qubit_count(db, CHIP) == 64 and qubit_count(db, OTHER) == 144
    assert db["chip"].count_documents({"chip_id": "128Qv1"}) == 0
    assert db["task_result_history"].count_documents({"output_parameters.x180_gate_fidelity": {"$exists": True}}) == 0
    s = "missing thing"
    return [
        _q(s, 1, "Qubit 64: what T1 came out of its newest calibration?", _missing()),
        _q(s, 2, "Pull up readout fidelity for Q150 on 144Qv2.", _missing()),
        _q(s, 3, "How does chip 128Qv1 do on T2 echo these days, median-wise?", _missing()),
        _q(s, 4, "I need Q07's X180 fidelity on 64Qv3 — what is it?", _missing()),
    ]


def percentage(db) -> list[Question]:
    """Share of qubits/couplings whose latest value passes a limit: over the measured ids (over all ids accepted)."""
    t1 = latest(db, CHIP, "t1")
    zx = latest(db, CHIP, "zx90_gate_fidelity", "coupling")
    ro = latest(db, OTHER, "average_readout_fidelity")
    t2s = latest(db, OTHER, "t2_star")
    s = "percentage"
    return [
        _q(s, 1, "What share of the 64Q device's qubits clear 50 μs of T1? Answer as a percent.",
           Truth(numbers=(_share(sum(v > 50 for v in t1.values()), len(t1), qubit_count(db, CHIP)),))),
        _q(s, 2, "Roughly how many percent of couplings here have a ZX90 fidelity below 0.97?",
           Truth(numbers=(_share(sum(v < 97 for v in zx.values()), len(zx), coupling_pairs(db, CHIP)),))),
        _q(s, 3, "Tell me the proportion of 144Qv2 qubits reading out below 90 percent fidelity.",
           Truth(numbers=(_share(sum(v < 90 for v in ro.values()), len(ro), qubit_count(db, OTHER)),))),
        _q(s, 4, "On 144Qv2, how many percent of its qubits show T2* shorter than 20000 ns?",
           Truth(numbers=(_share(sum(v < 20 for v in t2s.values()), len(t2s), qubit_count(db, OTHER)),))),
    ]


def qubit_pair(db) -> list[Question]:
    """A coupling's latest value (either direction of the pair), or two qubits' latest values compared."""
    gate = latest(db, CHIP, "zx90_gate_time", "coupling")["12-13"]
    bell = latest(db, OTHER, "bell_state_fidelity", "coupling")["28-25"]
    t1 = latest(db, CHIP, "t1")
    t2s = latest(db, OTHER, "t2_star")
    one = _compare(qubit_re(9), t1["9"], qubit_re(10), t1["10"], TOL["us"])
    two = _compare(qubit_re(40), t2s["40"], qubit_re(41), t2s["41"], TOL["us"])
    s = "qubit pair"
    return [
        _q(s, 1, "How long does the ZX90 gate between Q12 and Q13 take, in nanoseconds?",
           Truth(numbers=(Expect(gate, TOL["ns"], near=(pair_re(12, 13),)),), patterns=(pair_re(12, 13),))),
        _q(s, 2, "Bell fidelity on the 25-28 link of 144Qv2?",
           Truth(numbers=(Expect(bell, TOL["%"], near=(pair_re(25, 28),)),), patterns=(pair_re(25, 28),))),
        _q(s, 3, "Between neighbours Q9 and Q10, which one currently keeps its T1 longer?",
           Truth(numbers=one.numbers, winner=one.winner, loser=one.loser, patterns=(qubit_re(9), qubit_re(10)))),
        _q(s, 4, "On 144Qv2, stack qubit 40 against qubit 41 on T2 star: who wins, and by what margin?",
           Truth(numbers=two.numbers, winner=two.winner, loser=two.loser, patterns=(qubit_re(40), qubit_re(41)))),
    ]


def spread(db) -> list[Question]:
    """Spreads of the latest values over the chip: std (sample; population accepted), range, IQR."""
    t1 = list(latest(db, CHIP, "t1").values())
    f = list(latest(db, OTHER, "qubit_frequency").values())
    ro = list(latest(db, OTHER, "average_readout_fidelity").values())
    q1, _, q3 = statistics.quantiles(ro, n=4)
    i1, _, i3 = statistics.quantiles(ro, n=4, method="inclusive")
    gate = list(latest(db, CHIP, "zx90_gate_time", "coupling").values())
    s = "spread"
    return [
        _q(s, 1, "How much does T1 scatter across 64Qv3? I want the standard deviation.",
           Truth(numbers=(_std(t1, TOL["us"]),))),
        _q(s, 2, "Max minus min of qubit frequency on 144Qv2, expressed in MHz?",
           Truth(numbers=(Expect((max(f) - min(f)) * 1000.0, 0.51),))),
        _q(s, 3, "For 144Q readout fidelities, what is the IQR?",
           Truth(numbers=(Expect(q3 - q1, TOL["%"], unit="%", alternatives=(i3 - i1,)),))),
        _q(s, 4, "What's the sigma of the ZX90 gate durations here, in ns?",
           Truth(numbers=(_std(gate, TOL["ns"]),))),
    ]


def top_n(db) -> list[Question]:
    """The N ids with the lowest/highest latest value, in order, each value beside its id."""
    s = "top N"
    return [
        _q(s, 1, "Rank the five shortest-lived qubits on 64Qv3 by T1, worst first.",
           _top(latest(db, CHIP, "t1"), 5, True, TOL["us"])),
        _q(s, 2, "Which three couplings on this chip have the poorest ZX90 fidelity? Include values.",
           _top(latest(db, CHIP, "zx90_gate_fidelity", "coupling"), 3, True, TOL["%"], near=pair_re)),
        _q(s, 3, "On 144Qv2, show me the four longest T2 echo times and which qubits hold them.",
           _top(latest(db, OTHER, "t2_echo"), 4, False, TOL["us"])),
        _q(s, 4, "Bottom 3 qubits for X90 fidelity on 144Qv2?",
           _top(latest(db, OTHER, "x90_gate_fidelity"), 3, True, TOL["%"])),
    ]


def window_count(db) -> list[Question]:
    """Counts of runs or task rows whose ``start_at`` falls in the chip's window (``since`` a day: that day on)."""
    last = newest_day(db, CHIP)
    runs = sum(in_window(e["start_at"], last, 14) for e in db["execution_history"].find({"chip_id": CHIP}))
    other_last = newest_day(db, OTHER)
    failed5 = sum(in_window(r["start_at"], other_last, 5) for r in tasks(db, OTHER, status="failed"))
    t1_rows = [r for r in tasks(db, CHIP, name="CheckT1", status="completed") if in_window(r["start_at"], last, 3)]
    t1_kept = sum(r.get("excluded") is not True for r in t1_rows)
    since = last - timedelta(days=19)
    bad_runs = sum(e["start_at"].date() >= since
                   for e in db["execution_history"].find({"status": "failed", "chip_id": {"$in": [CHIP, OTHER]}}))
    s = "window count"
    return [
        _q(s, 1, "Count the runs 64Qv3 has been put through this past fortnight.",
           Truth(numbers=(Expect(runs, 0, "count"),))),
        _q(s, 2, "Tally up 144Qv2's failed tasks across the most recent 5 days.",
           Truth(numbers=(Expect(failed5, 0, "count"),))),
        _q(s, 3, "In the past three days, how many successful T1 measurements were recorded on this chip?",
           Truth(numbers=(Expect(len(t1_rows), 0, "count", alternatives=(t1_kept,)),))),
        _q(s, 4, f"Counting both chips, how many runs have failed outright since {since.day} {since:%B}?",
           Truth(numbers=(Expect(bad_runs, 0, "count"),))),
    ]


def build_heldout5(db, now: datetime) -> list[Question]:
    """The fifth sealed set (``now`` is the demo's end; the windows are read from the runs themselves)."""
    del now
    return (compound_filter(db) + correlation(db) + cross_chip(db) + fails_most(db) + missing_thing(db)
            + percentage(db) + qubit_pair(db) + spread(db) + top_n(db) + window_count(db))
