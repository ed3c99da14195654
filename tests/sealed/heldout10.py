"""The tenth sealed set: 10 shapes × 4 questions in wordings of its own (a manager's one-liners, a student's long asks
with a typo or two, the key word held to the end, units as µs / microsec / percent / MHz, windows as "since a weekday",
"past N days", two calendar dates or "this month"), truths from hand-written pymongo on the raw demo collections.

Written without reading the copilot's word tables, routing, claim check or prompts, nor any other sealed set's
questions.  The value definitions are the ninth set's truth helpers (latest value per id, display units, qubit and
coupling label patterns, the chip's newest day), so every set counts the same way; the windows and failure counts are
written here again:

- a window of whole UTC days ends on the day of the chip's newest run (by ``start_at``; the execution id's day is the
  accepted second reading); "since <weekday>" starts on the latest such weekday on or before it, "this month" on the
  1st of its month.
- a failure = a ``task_result_history`` row with status ``failed``; a run = an ``execution_history`` document.

The builder raises instead of writing a question with no single answer (a tie, a limit on a value, a weak
correlation, equal sides, an empty window).
"""

from __future__ import annotations

import re
import statistics
from collections import Counter
from datetime import date, datetime, timedelta

from tests.eval_score import Expect, Truth
from tests.public_eval import CHIP, OTHER, Question
from tests.sealed.heldout9 import UNIT_TOL, dead, id_days, latest, newest_day, pair_re, qubit_re, ranks

__all__ = ["build_heldout10", "span"]

SPLIT = "held-out-10"
HISTORY = "task_result_history"
RUNS = "execution_history"
CHIP_RE = {CHIP: r"(?i)(?:\b64Q|\b64[- ]qubit)", OTHER: r"(?i)(?:\b144Q|\b144[- ]qubit)"}
NOT_THERE = ("not", "no ", "n't", "unknown", "only", "exist")


def _q(shape: str, i: int, text: str, truth: Truth) -> Question:
    return Question(f"sealed10-{shape.replace(' ', '-')}-{i}", shape, text, truth, split=SPLIT)


def span(db, chip: str, how: str) -> tuple[date, date]:
    """A window's first and last day: ``days:N``, ``since:<weekday 0-6>``, ``month``, or ``back:A:B`` (the two
    calendar dates A and B days before the newest day)."""
    last = newest_day(db, chip)
    kind, _, arg = how.partition(":")
    if kind == "days":
        return last - timedelta(days=int(arg) - 1), last
    if kind == "since":
        return last - timedelta(days=(last.weekday() - int(arg)) % 7), last
    if kind == "month":
        return last.replace(day=1), last
    a, b = (int(x) for x in arg.split(":"))
    return last - timedelta(days=a), last - timedelta(days=b)


def _range(first: date, last: date) -> dict:
    return {"$gte": datetime(first.year, first.month, first.day),
            "$lt": datetime(last.year, last.month, last.day) + timedelta(days=1)}


def _rows(db, chip: str, first: date, last: date, query: dict, collection: str = HISTORY) -> tuple[list, list]:
    """Documents matching ``query`` in the window: by ``start_at``, and by execution-id day."""
    by_time = list(db[collection].find({"chip_id": chip, "start_at": _range(first, last), **query}))
    by_id = id_days(list(db[collection].find({"chip_id": chip, **query})), first, last)
    return by_time, by_id


def _count(n: int, *others: int) -> Expect:
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


# ---- top N -----------------------------------------------------------------------------------------------------------
def _top(db) -> list[Question]:
    specs = (
        (CHIP, "t2_echo", "qubit", 4, True, "us",
         "on 64Qv3 which four qubits currently hold the longest T2 echo? give values in microsec"),
        (OTHER, "zx90_gate_fidelity", "coupling", 3, False, "%",
         "For my slide deck: the 3 weakest ZX90 couplers of 144Qv2 as they stand now, fidelity in percent each."),
        (OTHER, "t2_star", "qubit", 4, False, "us",
         "hey, im a student poking at the 144-qubit chip -- shortest-lived four by Ramsey T2* at present, "
         "plus thier values (us)?"),
        (CHIP, "readout_fidelity_1", "qubit", 3, False, "%",
         "Rank 64Qv3's qubits worst-first by excited-state readout fidelity and stop after three, numbers included"),
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
def _compound(db) -> list[Question]:
    specs = (
        (OTHER, ("t1", "<", 30.0, "us"), ("t2_echo", "<", 45.0, "us"),
         "144Qv2 qubits with both T1 under 30 us and echo T2 under 45 us: tally them and name each."),
        (CHIP, ("readout_fidelity_1", "<", 87.0, "%"), ("qubit_frequency", ">", 5.0, "GHz"),
         "Pull every 64Qv3 qubit sitting above 5 GHz yet reading its |1> state at under 87 percent; count plus list."),
        (OTHER, ("average_readout_fidelity", "<", 90.0, "%"), ("t2_star", "<", 18.0, "us"),
         "big chip: mean readout fidelty below 90% while T2* stays below 18 microseconds -- number of qubits and ids"),
        (CHIP, ("anharmonicity", ">", -250.0, "MHz"), ("t1", ">", 60.0, "us"),
         "I need a count, plus which qubits they are, for 64Qv3: anharmonicity shallower than -250 MHz combined "
         "with T1 topping 60 us."),
    )
    out = []
    for i, (chip, first, second, text) in enumerate(specs, 1):
        kept: set[str] | None = None
        for name, side, limit, unit in (first, second):
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
def _share_of(db, chip: str, name: str, kind: str, keep) -> Expect:  # noqa: ANN001 - a predicate on a value
    values = latest(db, chip, name, kind)
    n = sum(1 for v in values.values() if keep(v))
    share = 100 * n / len(values)
    if kind == "coupling":  # a coupling has two state documents (both directions): no second denominator
        return Expect(share, UNIT_TOL["share"], unit="%")
    wide = 100 * n / db[kind].count_documents({"chip_id": chip})  # every qubit, the inactive ones too
    return Expect(share, UNIT_TOL["share"], unit="%", alternatives=(wide,) if abs(wide - share) > 1e-9 else ())


def _fail_share(db, chip: str, how: str, query: dict) -> Expect:
    first, last = span(db, chip, how)
    by_time, by_id = _rows(db, chip, first, last, query)
    if not by_time:
        raise ValueError("empty window")
    share = 100 * sum(r["status"] == "failed" for r in by_time) / len(by_time)
    wide = 100 * sum(r["status"] == "failed" for r in by_id) / len(by_id)
    return Expect(share, UNIT_TOL["share"], unit="%", alternatives=(wide,) if abs(wide - share) > 1e-9 else ())


def _percentage(db) -> list[Question]:
    t1 = latest(db, CHIP, "t1")
    _clear_of(t1, 50.0, UNIT_TOL["us"])
    bell = latest(db, OTHER, "bell_state_fidelity", "coupling")
    _clear_of(bell, 90.0, UNIT_TOL["%"])
    texts = (
        "Of 64Qv3's qubits, what slice beats 50 microseconds of T1? As a percent.",
        "Out of all couplers on 144Qv2, what percentage sit under 90% in Bell fidelity?",
        "trailing 7 days on 144Qv2: proportion of task executions that ended up failing, percent?",
        "so far this month, of all the CheckT1 attempts on 64Qv3, what percent failed?",
    )
    expects = (
        _share_of(db, CHIP, "t1", "qubit", lambda v: v > 50.0),
        _share_of(db, OTHER, "bell_state_fidelity", "coupling", lambda v: v < 90.0),
        _fail_share(db, OTHER, "days:7", {}),
        _fail_share(db, CHIP, "month", {"name": "CheckT1"}),
    )
    return [_q("percentage", i, text, Truth(numbers=(e,))) for i, (text, e) in enumerate(zip(texts, expects), 1)]


# ---- spread ----------------------------------------------------------------------------------------------------------
def _spread(db) -> list[Question]:
    t1 = list(latest(db, OTHER, "t1").values())
    anh = list(latest(db, CHIP, "anharmonicity").values())
    zx = list(latest(db, CHIP, "zx90_gate_fidelity", "coupling").values())
    echo = list(latest(db, OTHER, "t2_echo").values())
    q_ex, q_in = statistics.quantiles(echo, n=4), statistics.quantiles(echo, n=4, method="inclusive")
    cases = (
        ("T1 across 144Qv2 -- std dev, in µs?",
         Expect(statistics.stdev(t1), UNIT_TOL["us"], alternatives=(statistics.pstdev(t1),))),
        ("Shallowest-to-deepest anharmonicity gap on 64Qv3, MHz?", Expect(max(anh) - min(anh), UNIT_TOL["MHz"])),
        ("my manager wants one number: between-coupler scatter (std dev) of ZX90 fidelity on 64Qv3, "
         "percentage points",
         Expect(statistics.stdev(zx), UNIT_TOL["%"], alternatives=(statistics.pstdev(zx),))),
        ("For 144Qv2 T2 echo, upper quartile minus lower quartile in microseconds -- i.e. the IQR?",
         Expect(q_ex[2] - q_ex[0], UNIT_TOL["us"], alternatives=(q_in[2] - q_in[0],))),
    )
    return [_q("spread", i, text, Truth(numbers=(e,))) for i, (text, e) in enumerate(cases, 1)]


# ---- correlation -----------------------------------------------------------------------------------------------------
def _correlation(db) -> list[Question]:
    specs = (
        (OTHER, "t1", "t2_echo", "qubit",
         "Is there a relationship linking T1 with echo T2 on 144Qv2? give me the Pearson r."),
        (CHIP, "qubit_frequency", "t1", "qubit",
         "On 64Qv3 do higher-frequency qubits tend to live longer? Put a correlation coefficient on frequency vs T1."),
        (OTHER, "bell_state_fidelity", "zx90_depolarizing_rate", "coupling",
         "couplers of 144Qv2: how strongly does Bell fidelty track ZX90's depolarizing-rate figure? coefficient please"),
        (CHIP, "readout_frequency", "average_readout_fidelity", "qubit",
         "Across the 64Qv3 qubits, compute r between resonator frequency and mean assignment fidelity."),
    )
    out = []
    for i, (chip, a, b, kind, text) in enumerate(specs, 1):
        xs, ys = latest(db, chip, a, kind), latest(db, chip, b, kind)
        both = sorted(set(xs) & set(ys))
        r = statistics.correlation([xs[k] for k in both], [ys[k] for k in both])
        rho = statistics.correlation(ranks([xs[k] for k in both]), ranks([ys[k] for k in both]))
        if abs(r) < 0.15:
            raise ValueError(f"correlation {i} is near zero")
        expect = Expect(r, UNIT_TOL["r"], signed=True, alternatives=(rho,) if rho * r > 0 and abs(rho) >= 0.15 else ())
        out.append(_q("correlation", i, text, Truth(numbers=(expect,))))
    return out


# ---- cross-chip ------------------------------------------------------------------------------------------------------
def _sides(figures: dict[str, float], tol: float, high: bool, *alts: dict[str, float]) -> Truth:
    if abs(figures[CHIP] - figures[OTHER]) <= 2 * tol:
        raise ValueError("the two chips are level")
    ahead = max(figures, key=figures.__getitem__) if high else min(figures, key=figures.__getitem__)
    behind = OTHER if ahead == CHIP else CHIP
    expects = []
    for c in (CHIP, OTHER):
        others = tuple(a[c] for a in alts if a[c] != figures[c])
        expects.append(Expect(figures[c], tol, kind="count" if tol == 0 else "value", near=(CHIP_RE[c],),
                              alternatives=others))
    big, small = (ahead, behind) if figures[ahead] > figures[behind] else (behind, ahead)
    return Truth(numbers=tuple(expects), winner=CHIP_RE[big], loser=CHIP_RE[small])


def _cross(db) -> list[Question]:
    median_t1 = {c: statistics.median(latest(db, c, "t1").values()) for c in (CHIP, OTHER)}
    mean_x90 = {c: statistics.fmean(latest(db, c, "x90_gate_fidelity").values()) for c in (CHIP, OTHER)}
    fails, fails_id = {}, {}
    for c in (CHIP, OTHER):
        first, last = span(db, c, "since:1")
        by_time, by_id = _rows(db, c, first, last, {"status": "failed"})
        fails[c], fails_id[c] = len(by_time), len(by_id)
    worst_bell = {c: min(latest(db, c, "bell_state_fidelity", "coupling").values()) for c in (CHIP, OTHER)}
    cases = (
        ("Median T1 face-off, 64Qv3 against 144Qv2: who leads, margin included?",
         _sides(median_t1, UNIT_TOL["us"], True)),
        ("Comparing the average X90 fidelity of the small chip and the big chip, which is better? both numbers pls",
         _sides(mean_x90, UNIT_TOL["%"], True)),
        ("Since Tuesday, did 64Qv3 or 144Qv2 pile up more task failures? Each chip's tally, please.",
         _sides({c: float(n) for c, n in fails.items()}, 0, True, {c: float(n) for c, n in fails_id.items()})),
        ("Whose weakest coupler is weaker on Bell fidelity, the 64Q chip or the 144Q one? I want the two minimums.",
         _sides(worst_bell, UNIT_TOL["%"], False)),
    )
    return [_q("cross-chip", i, text, truth) for i, (text, truth) in enumerate(cases, 1)]


# ---- qubit pair ------------------------------------------------------------------------------------------------------
def _coupling(db, chip: str, a: int, b: int, name: str) -> float:
    values = {_pair(k): v for k, v in latest(db, chip, name, "coupling").items()}
    return values[f"{min(a, b)}-{max(a, b)}"]


def _pairs(db) -> list[Question]:
    tol = UNIT_TOL["%"]
    zx = _coupling(db, OTHER, 104, 105, "zx90_gate_fidelity")
    bell = _coupling(db, CHIP, 16, 17, "bell_state_fidelity")
    left, right = _coupling(db, CHIP, 20, 21, "zx90_gate_fidelity"), _coupling(db, CHIP, 22, 23, "zx90_gate_fidelity")
    if abs(left - right) <= 2 * tol:
        raise ValueError("the two couplers are level")
    win, lose = ((20, 21, left), (22, 23, right)) if left > right else ((22, 23, right), (20, 21, left))
    gate = _coupling(db, OTHER, 107, 110, "zx90_gate_time")
    t1 = latest(db, OTHER, "t1")
    if abs(t1["107"] - t1["110"]) <= 2 * UNIT_TOL["us"]:
        raise ValueError("the two ends are level")
    longer, shorter = ("107", "110") if t1["107"] > t1["110"] else ("110", "107")
    cases = (
        ("Q104-Q105 coupler, 144Qv2: ZX90 fidelity?",
         Truth(numbers=(Expect(zx, tol, near=(pair_re(104, 105),), unit="%"),))),
        ("quick one - Bell-state fidelity these days for pair Q16/Q17 (64Qv3)?",
         Truth(numbers=(Expect(bell, tol, unit="%"),))),
        ("64Qv3, two couplers head to head: Q20-Q21 against Q22-Q23 on ZX90 fidelity. Which wins?",
         Truth(numbers=(Expect(win[2], tol, unit="%"), Expect(lose[2], tol, unit="%")),
               winner=pair_re(win[0], win[1]), loser=pair_re(lose[0], lose[1]))),
        ("Coupling 107-110 (144Qv2): ZX90 duration in ns, and which end qubit lives longer by T1?",
         Truth(numbers=(Expect(gate, UNIT_TOL["ns"]), Expect(t1[longer], UNIT_TOL["us"]),
                        Expect(t1[shorter], UNIT_TOL["us"])), winner=qubit_re(longer), loser=qubit_re(shorter))),
    )
    return [_q("qubit pair", i, text, truth) for i, (text, truth) in enumerate(cases, 1)]


# ---- fails most ------------------------------------------------------------------------------------------------------
def _fails_most(db) -> list[Question]:
    failed = {"status": "failed"}
    first, last = span(db, CHIP, "days:5")
    task, n_task = _sole(Counter(r["name"] for r in _rows(db, CHIP, first, last, failed)[0]))
    first, last = span(db, OTHER, "since:3")
    off = dead(db, OTHER)
    qubit, n_qubit = _sole(Counter(r["qid"] for r in _rows(db, OTHER, first, last, {**failed, "task_type": "qubit"})[0]
                                   if r["qid"] not in off))
    first, last = span(db, OTHER, "back:19:11")
    run, n_run = _sole(Counter(r["execution_id"] for r in _rows(db, OTHER, first, last, failed)[0]))
    run_text = f"{first:%Y-%m-%d} to {last:%Y-%m-%d}"
    first, last = span(db, OTHER, "month")
    pair, n_pair = _sole(Counter(_pair(r["qid"]) for r in _rows(db, OTHER, first, last,
                                                                 {**failed, "task_type": "coupling"})[0]))
    cases = (
        ("Past five days on 64Qv3 -- name the calibration task whose failure record looks ugliest, with its fail tally.",
         Truth(numbers=(_count(n_task),), patterns=(rf"(?i){re.escape(task)}",))),
        ("Since Thursday on 144Qv2 (ignore inactive qubits): whose qubit-level tasks tripped most, and how many fails?",
         Truth(numbers=(_count(n_qubit),), patterns=(qubit_re(qubit),))),
        (f"Window {run_text}: on 144Qv2 the execution id that collected the largest pile of task failures, and its count?",
         Truth(numbers=(_count(n_run),), patterns=(re.escape(run),))),
        ("This month so far on 144Qv2, which coupler keeps failing hardest? count included",
         Truth(numbers=(_count(n_pair),), patterns=(pair_re(*pair.split("-")),))),
    )
    return [_q("fails most", i, text, truth) for i, (text, truth) in enumerate(cases, 1)]


# ---- window count ----------------------------------------------------------------------------------------------------
def _windows(db) -> list[Question]:
    def counted(chip: str, how: str, query: dict, collection: str = HISTORY) -> Expect:
        first, last = span(db, chip, how)
        by_time, by_id = _rows(db, chip, first, last, query, collection)
        if not by_time:
            raise ValueError("empty window")
        return _count(len(by_time), len(by_id))

    first, last = span(db, CHIP, "back:26:17")
    cases = (
        ("Failed-task tally on 144Qv2 since Thursday?", counted(OTHER, "since:3", {"status": "failed"})),
        (f"64Qv3 runs launched from {first:%Y-%m-%d} to {last:%Y-%m-%d}, both days included -- how many?",
         counted(CHIP, "back:26:17", {}, RUNS)),
        ("Trailing 8 days, big chip: CheckRamsey failure count?",
         counted(OTHER, "days:8", {"status": "failed", "name": "CheckRamsey"})),
        ("Tally of failed ReadoutClassification tasks on 64Qv3 this month, please.",
         counted(CHIP, "month", {"status": "failed", "name": "ReadoutClassification"})),
    )
    return [_q("window count", i, text, Truth(numbers=(e,))) for i, (text, e) in enumerate(cases, 1)]


# ---- missing thing ---------------------------------------------------------------------------------------------------
def _missing(db) -> list[Question]:
    if db["qubit"].count_documents({"chip_id": CHIP, "qid": "77"}):
        raise ValueError("Q77 exists on 64Qv3")
    if db["coupling"].count_documents({"chip_id": OTHER, "qid": {"$in": ["5-90", "90-5"]}}):
        raise ValueError("5-90 exists on 144Qv2")
    if db["chip"].count_documents({"chip_id": "256Qv1"}):
        raise ValueError("256Qv1 exists")
    if db[HISTORY].count_documents({"output_parameter_names": "leakage_rate"}):
        raise ValueError("leakage_rate exists")
    truth = Truth(no_values=True, any_words=NOT_THERE)
    texts = (
        "What's qubit 77's current T1 on 64Qv3?",
        "Coupler Q5-Q90 on 144Qv2: its ZX90 fidelity?",
        "chip 256Qv1: median echo T2 please",
        "On 144Qv2 the worst per-gate leakage rate belongs to which qubit?",
    )
    return [_q("missing thing", i, text, truth) for i, text in enumerate(texts, 1)]


def build_heldout10(db, now: datetime) -> list[Question]:  # noqa: ARG001 - every window counts back from the data
    """The 40 questions with their truths; raises when one of them has no single answer."""
    return (_top(db) + _compound(db) + _percentage(db) + _spread(db) + _correlation(db) + _cross(db) + _pairs(db)
            + _fails_most(db) + _windows(db) + _missing(db))
