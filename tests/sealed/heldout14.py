"""The fourteenth sealed set: 10 shapes × 4 questions in registers the earlier sets left out (voice-dictated asks with
no punctuation and numbers spelled out, markdown bullets and ``key: value`` forms, a pasted log line before the ask,
English as a second language, relative days — "the day before yesterday", "over the weekend", "last <weekday>",
"in the last 36h" —, values asked in another unit of the same family (ns for a µs metric, GHz/kHz/MHz, an error as
one minus a fidelity), ratios ("one in ten", "half", "what fraction"), qubit ranges, exclusions, chips named by role
("the older chip", "the newer one", "the bigger chip") and hypotheses to confirm), truths from hand-written pymongo on
the raw demo collections.

Written without reading the copilot's word tables, routing, claim check or prompts, nor any other sealed set's
questions.  Values, units, labels and windows are the ninth to thirteenth sets' truth helpers:

- a window of whole UTC days ends on the day of the chip's newest run (by ``start_at``; the execution id's day is the
  accepted second reading); "the day before yesterday" is the newest day minus two, "over the weekend" the Saturday and
  Sunday before the newest day, "last <weekday>" the day three days before the newest, "in the last 36h" the rows
  started in the 36 hours before ``now`` (the last two whole days the accepted other reading).
- "the older chip" is 64Qv3 (installed in August), "the newer"/"bigger" one 144Qv2 (installed in October).
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
from tests.sealed.heldout9 import UNIT_TOL, latest, pair_re, qubit_re
from tests.sealed.heldout10 import span
from tests.sealed.heldout11 import _clear_of, _count, _hours, _label, _pair, _rows, _sole
from tests.sealed.heldout12 import _value
from tests.sealed.heldout13 import _failed_share, _share

__all__ = ["build_heldout14", "day_before_yesterday", "last_weekday", "weekend"]

SPLIT = "held-out-14"
RUNS = "execution_history"
CHIP_RE = {CHIP: r"(?i)(?:\b64Q|\b64[- ]qubit|\bolder)", OTHER: r"(?i)(?:\b144Q|\b144[- ]qubit|\bnewer|\bbigger)"}
NOT_THERE = ("not", "no ", "n't", "unknown", "only", "exist")
FAILED = {"status": "failed"}
SHIFT = 0  # days every window is moved back by (0; the hand-break sets 1)


def _q(shape: str, i: int, text: str, truth: Truth) -> Question:
    return Question(f"sealed14-{shape.replace(' ', '-')}-{i}", shape, text, truth, split=SPLIT)


def _moved(first: date, last: date) -> tuple[date, date]:
    return first - timedelta(days=SHIFT), last - timedelta(days=SHIFT)


def _newest(db, chip: str) -> date:
    return span(db, chip, "days:1")[1]


def day_before_yesterday(db, chip: str) -> tuple[date, date]:
    day = _newest(db, chip) - timedelta(days=2)
    return _moved(day, day)


def weekend(db, chip: str) -> tuple[date, date]:
    """The Saturday and Sunday before the newest day (a Sunday newest day means the weekend before it)."""
    newest = _newest(db, chip)
    sunday = newest - timedelta(days=(newest.weekday() - 6) % 7 or 7)
    return _moved(sunday - timedelta(days=1), sunday)


def last_weekday(db, chip: str) -> tuple[tuple[date, date], str]:
    """The day three days before the newest, and its weekday's name."""
    day = _newest(db, chip) - timedelta(days=3)
    return _moved(day, day), f"{day:%A}"


def _keyed(db, chip: str, name: str, kind: str) -> dict[str, float]:
    return {_pair(k) if kind == "coupling" else k: v for k, v in latest(db, chip, name, kind).items()}


def _in_range(values: dict[str, float], low: int, high: int) -> dict[str, float]:
    return {k: v for k, v in values.items() if low <= int(k) <= high}


def _names(keys: list[str]) -> tuple[str, ...]:
    return tuple(qubit_re(k) for k in keys)


# ---- top N -----------------------------------------------------------------------------------------------------------
def _top(db) -> list[Question]:
    best_echo = max(latest(db, OTHER, "t2_echo").items(), key=lambda kv: kv[1])[0]
    specs = (
        (CHIP, "t1", "qubit", 4, True, "us", 1.0, None,
         "hey copilot on the older chip which four qubits are out in front on t one read me their values"),
        (OTHER, "readout_fidelity_0", "qubit", 3, False, "%", 1.0, None,
         "chip: 144Qv2\nmetric: |0> readout fidelity\nwant: the weakest three qubits\nformat: qubit, value"),
        (CHIP, "readout_fidelity_1", "qubit", 5, True, "%", 1.0, None,
         "Please tell five qubit of 64Qv3 which have most high readout fidelity for state 1 now, and value for each "
         "one."),
        (OTHER, "t2_echo", "qubit", 3, True, "us", 1000.0, best_echo,
         f"Leaving Q{int(best_echo):02d} aside, which 3 qubits on the newer chip hold the highest echo T2? Quote them "
         "in nanoseconds."),
    )
    out = []
    for i, (chip, name, kind, n, high, unit, scale, skip, text) in enumerate(specs, 1):
        values = sorted(((k, v * scale) for k, v in _keyed(db, chip, name, kind).items() if k != skip),
                        key=lambda kv: kv[1], reverse=high)
        tol = UNIT_TOL[unit] * scale
        if any(abs(a[1] - b[1]) <= 2 * tol for a, b in zip(values[:n], values[1:n + 1])):
            raise ValueError(f"top {n} of {name} cannot be told apart")
        expects = tuple(Expect(v, tol, near=(_label(q),), unit="%" if unit == "%" else "") for q, v in values[:n])
        out.append(_q("top N", i, text, Truth(numbers=expects)))
    return out


# ---- compound filter -------------------------------------------------------------------------------------------------
def _compound(db) -> list[Question]:
    specs = (
        (CHIP, None, ("average_readout_fidelity", ">", 95.0, "%"), ("t1", ">", 70.0, "us"),
         "- device: 64Qv3\n- average readout error: under 5 %\n- T1: over 70 µs\nHow many qubits meet both bullets, "
         "and which ones?"),
        (OTHER, None, ("anharmonicity", "<", -310.0, "MHz"), ("qubit_frequency", ">", 5.2, "GHz"),
         "On the bigger chip, tally qubits with anharmonicity below -0.31 GHz (so further from zero) while they sit "
         "above 5200 MHz in frequency. Which are they?"),
        (CHIP, (10, 30), ("t2_star", ">", 40.0, "us"), ("x90_gate_fidelity", ">", 99.8, "%"),
         "Looking only at Q10 through Q30 of the older chip: which of them combine T2* above 40 µs with X90 error "
         "under 0.2 %? Tally plus labels, please."),
        (OTHER, None, ("t1", ">", 90.0, "us"), ("readout_fidelity_1", ">", 95.0, "%"),
         "I reckon just a handful of 144Qv2 qubits pair T1 beyond 90 µs with |1> assignment fidelity beyond 95 % — "
         "how many exactly, and which?"),
    )
    out = []
    for i, (chip, rng, first, second, text) in enumerate(specs, 1):
        kept: set[str] | None = None
        for name, op, limit, unit in (first, second):
            values = latest(db, chip, name)
            if rng:
                values = _in_range(values, *rng)
            _clear_of(values, limit, UNIT_TOL[unit])
            ok = {q for q, v in values.items() if (v > limit if op == ">" else v < limit)}
            kept = ok if kept is None else kept & ok
        assert kept is not None
        if not 0 < len(kept) <= 12:
            raise ValueError(f"compound filter {i} keeps {len(kept)}")
        out.append(_q("compound filter", i, text, Truth(numbers=(_count(len(kept)),), patterns=_names(sorted(kept)))))
    return out


# ---- correlation -----------------------------------------------------------------------------------------------------
def _correlation(db) -> list[Question]:
    specs = (
        (OTHER, "t1", "t2_star", "qubit",
         "is there some link between t one and t two star on the bigger chip how strong tell me that correlation "
         "number"),
        (CHIP, "readout_fidelity_0", "readout_fidelity_1", "qubit",
         "[calib-worker] WARN ReadoutClassification: assignment drift flagged on 64Qv3\n^ pasted from the worker "
         "log. Across that chip, do |0> and |1> readout fidelities rise and fall in step? Pearson r?"),
        (CHIP, "bell_state_fidelity", "zx90_gate_fidelity", "coupling",
         "My hunch: on the older chip, couplers with good Bell-state fidelity also have good ZX90 fidelity. Can you "
         "confirm it with the actual coefficient?"),
        (OTHER, "t2_echo", "t2_star", "qubit",
         "What is correlation of T2 echo with T2 star for qubits in 144Qv2? Give coefficient number."),
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
    t1 = {c: statistics.median(latest(db, c, "t1").values()) for c in (CHIP, OTHER)}
    freq = {c: 1000 * statistics.fmean(latest(db, c, "qubit_frequency").values()) for c in (CHIP, OTHER)}
    fails = {}
    for c in (CHIP, OTHER):
        by_start, by_id = _rows(db, c, *weekend(db, c), FAILED)
        if len(by_start) != len(by_id) or not by_start:
            raise ValueError("weekend failures read two ways")
        fails[c] = float(len(by_start))
    gate = {c: statistics.fmean(latest(db, c, "zx90_gate_time", "coupling").values()) for c in (CHIP, OTHER)}
    return [
        _sides(t1, UNIT_TOL["us"], "Older chip versus newer chip — whose median T1 is longer? I need both medians.",
               1),
        _sides(fails, 0, "over the weekend which chip saw the heavier load of broken tasks 64Qv3 or the other one and how "
               "many each", 2),
        _sides(freq, UNIT_TOL["MHz"], "Mean qubit frequency per chip, expressed in MHz: which of the two chips sits "
               "higher, and by what numbers?", 3),
        _sides(gate, UNIT_TOL["ns"], "Which chip have longer average ZX90 gate time, 64Qv3 or 144Qv2? Write both "
               "average.", 4),
    ]


# ---- percentage ------------------------------------------------------------------------------------------------------
def _percentage(db) -> list[Question]:
    week = _moved(*span(db, OTHER, "days:7"))
    bell = latest(db, CHIP, "bell_state_fidelity", "coupling")
    _clear_of(bell, 95.0, UNIT_TOL["%"])
    ro = latest(db, OTHER, "average_readout_fidelity")
    _clear_of(ro, 97.0, UNIT_TOL["%"])
    qubits = db["qubit"].count_documents({"chip_id": OTHER})
    return [
        _q("percentage", 1, "Is it true that roughly one in ten CheckT1 tasks went red on the newer chip this past week? "
           "Give me the real percentage.",
           Truth(numbers=(_failed_share(db, OTHER, week, {"name": "CheckT1"}),))),
        _q("percentage", 2, "Are over half the older chip's couplers above 95 % in Bell fidelity? Say what share exactly.",
           Truth(numbers=(_share(sum(v > 95.0 for v in bell.values()), len(bell)),))),
        _q("percentage", 3, "what fraction among 144Qv2 qubits has an average readout error smaller than 3 % — as a "
           "percentage",
           Truth(numbers=(_share(sum(v > 97.0 for v in ro.values()), len(ro), qubits),))),
        _q("percentage", 4, "Day before yesterday, on 64Qv3: what percent of all tasks ended failed?",
           Truth(numbers=(_failed_share(db, CHIP, day_before_yesterday(db, CHIP), {}),))),
    ]


# ---- window count ----------------------------------------------------------------------------------------------------
def _window(db, now: datetime) -> list[Question]:
    def counted(chip: str, window: tuple[date, date], query: dict, collection: str = "task_result_history") -> Expect:
        by_start, by_id = _rows(db, chip, *window, query, collection)
        if not by_start:
            raise ValueError("an empty window")
        return _count(len(by_start), len(by_id))

    weekend_fails = counted(CHIP, weekend(db, CHIP), FAILED)
    recent = _hours(db, OTHER, now - timedelta(days=SHIFT), 36, FAILED)
    two_days = _rows(db, OTHER, *_moved(*span(db, OTHER, "days:2")), FAILED)
    if not recent:
        raise ValueError("an empty window")
    hours = _count(len(recent), *{len(two_days[0]), len(two_days[1])} - {len(recent)})
    window, weekday = last_weekday(db, OTHER)
    ramsey = counted(OTHER, window, {"name": "CheckRamsey", **FAILED})
    runs = counted(CHIP, _moved(*span(db, CHIP, "days:3")), {}, RUNS)
    return [
        _q("window count", 1, "Over the weekend, the older chip: number of task failures?",
           Truth(numbers=(weekend_fails,))),
        _q("window count", 2, "144Qv2 broken tasks, last 36h — what total?", Truth(numbers=(hours,))),
        _q("window count", 3, f"Last {weekday}, CheckRamsey on the bigger chip: how often did it come back "
           "failed?", Truth(numbers=(ramsey,))),
        _q("window count", 4, "count calibration runs started on sixty four q v three across these last three "
           "days", Truth(numbers=(runs,))),
    ]


# ---- fails most ------------------------------------------------------------------------------------------------------
def _leader(db, chip: str, window: tuple[date, date], query: dict, key) -> tuple[str, int]:  # noqa: ANN001
    by_start, by_id = _rows(db, chip, *window, {**FAILED, **query})
    first, second = _sole(Counter(key(r) for r in by_start)), _sole(Counter(key(r) for r in by_id))
    if first != second:
        raise ValueError("the two day readings disagree")
    return first


def _fails(db) -> list[Question]:
    week = _moved(*span(db, OTHER, "days:7"))
    task, n1 = _leader(db, OTHER, week, {}, lambda r: r["name"])
    month = _moved(*span(db, CHIP, "month"))
    qubit, n2 = _leader(db, CHIP, month, {"task_type": "qubit", "qid": {"$in": [str(q) for q in range(6, 17)]}},
                        lambda r: r["qid"])
    run, n3 = _leader(db, CHIP, _moved(*span(db, CHIP, "days:7")), {}, lambda r: r["execution_id"])
    nine = _moved(*span(db, OTHER, "days:9"))
    other, n4 = _leader(db, OTHER, nine, {"name": {"$ne": "CheckRamsey"}}, lambda r: r["name"])
    newest = _newest(db, CHIP)
    return [
        _q("fails most", 1, "Which task fail most times on 144Qv2 in last seven day, and how many time it fail?",
           Truth(numbers=(_count(n1),), patterns=(re.escape(task),))),
        _q("fails most", 2, f"For qubits 6–16 of the older chip, which one racked the heaviest failure tally in "
           f"{newest:%B}? Give the count too.",
           Truth(numbers=(_count(n2),), patterns=(qubit_re(qubit),))),
        _q("fails most", 3, "ERROR flow daily_calibration: task CheckQubitSpectroscopy failed, retrying\n(copied "
           "from our log) — which 64Qv3 run of the last week holds the heaviest failure tally? want "
           "execution id plus count",
           Truth(numbers=(_count(n3),), patterns=(re.escape(run),))),
        _q("fails most", 4, "Not counting CheckRamsey, name the task breaking most frequently on the newer chip over "
           "nine days ending today, with its failure tally?",
           Truth(numbers=(_count(n4),), patterns=(re.escape(other),))),
    ]


# ---- qubit pair ------------------------------------------------------------------------------------------------------
def _pairs(db) -> list[Question]:
    gate = _value(db, CHIP, "zx90_gate_time", "4-5", "coupling") / 1000
    bell = _keyed(db, OTHER, "bell_state_fidelity", "coupling")
    worst, low = min(bell.items(), key=lambda kv: kv[1])
    if sorted(bell.values())[1] - low <= 2 * UNIT_TOL["%"]:
        raise ValueError("no single worst pair")
    guess = "12-13" if worst != "12-13" else "9-12"
    ro = _value(db, CHIP, "bell_state_fidelity", "30-31", "coupling")
    zx = {p: _value(db, OTHER, "zx90_gate_fidelity", p, "coupling") for p in ("100-101", "100-102")}
    better, worse = sorted(zx, key=zx.__getitem__, reverse=True)
    if zx[better] - zx[worse] <= 2 * UNIT_TOL["%"]:
        raise ValueError("equal pairs")
    return [
        _q("qubit pair", 1, "On the older chip, how long does ZX90 take on Q04 with Q05 — in microseconds, please?",
           Truth(numbers=(Expect(gate, UNIT_TOL["ns"] / 1000, near=(pair_re(4, 5),)),))),
        _q("qubit pair", 2, f"I think Q{guess.split('-')[0]}–Q{guess.split('-')[1]} is our worst pair for Bell "
           "fidelity on 144Qv2 — right? Give its value and the real worst one.",
           Truth(numbers=(Expect(bell[guess], UNIT_TOL["%"], near=(pair_re(*guess.split("-")),), unit="%"),
                          Expect(low, UNIT_TOL["%"], near=(pair_re(*worst.split("-")),), unit="%")),
                 patterns=(r"(?i)\bno\b|\bnot\b|n't",))),
        _q("qubit pair", 3, "Coupling Q30 Q31 on 64Qv3 — fidelity of Bell state, how much it is?",
           Truth(numbers=(Expect(ro, UNIT_TOL["%"], near=(pair_re(30, 31),), unit="%"),))),
        _q("qubit pair", 4, "chip: the newer one\ncouplings: Q100-Q101, Q100-Q102\nfield: ZX90 fidelity\nwant: "
           "the better coupling and its value",
           Truth(numbers=(Expect(zx[better], UNIT_TOL["%"], near=(pair_re(*better.split("-")),), unit="%"),),
                 winner=pair_re(*better.split("-")), loser=pair_re(*worse.split("-")))),
    ]


# ---- spread ----------------------------------------------------------------------------------------------------------
def _spread(db) -> list[Question]:
    t1 = [1000 * v for v in latest(db, OTHER, "t1").values()]
    anh = [v / 1000 for v in latest(db, CHIP, "anharmonicity").values()]
    freq = [1000 * v for v in _in_range(latest(db, CHIP, "qubit_frequency"), 20, 29).values()]
    bell = list(latest(db, OTHER, "bell_state_fidelity", "coupling").values())
    if len(freq) < 5:
        raise ValueError("too few qubits in the range")

    def std(values: list[float], tol: float) -> Expect:
        return Expect(statistics.stdev(values), tol, alternatives=(statistics.pstdev(values),))

    return [
        _q("spread", 1, "Whole newer chip, T1 std dev, expressed in nanoseconds?",
           Truth(numbers=(std(t1, 1000 * UNIT_TOL["us"]),))),
        _q("spread", 2, "On the older chip, anharmonicity highest minus lowest, written in GHz?",
           Truth(numbers=(Expect(max(anh) - min(anh), UNIT_TOL["GHz"]),))),
        _q("spread", 3, "qubits 20-29 of 64Qv3: gap between lowest and highest frequency, given in MHz?",
           Truth(numbers=(Expect(max(freq) - min(freq), UNIT_TOL["MHz"]),))),
        _q("spread", 4, "whats the spread of bell state fidelity on the bigger chip standard deviation please",
           Truth(numbers=(std(bell, UNIT_TOL["%"]),))),
    ]


# ---- missing thing ---------------------------------------------------------------------------------------------------
def _missing(db) -> list[Question]:
    if db["qubit"].count_documents({"chip_id": OTHER, "qid": "150"}):
        raise ValueError("Q150 exists")
    if [d for d in db["coupling"].find({"chip_id": CHIP}) if set(d["qid"].split("-")) == {"3", "40"}]:
        raise ValueError("3-40 exists")
    if any("zz" in k.lower() for r in db["task_result_history"].find({"chip_id": CHIP}, {"output_parameters": 1})
           for k in r["output_parameters"]):
        raise ValueError("ZZ is measured")
    if "64Qv4" in db["chip"].distinct("chip_id"):
        raise ValueError("64Qv4 exists")
    truth = Truth(any_words=NOT_THERE, no_values=True)
    return [
        _q("missing thing", 1, "tell me t one for qubit one hundred fifty on the bigger chip", truth),
        _q("missing thing", 2, "On the older chip, give the Bell fidelity of the coupler joining Q03 and Q40.", truth),
        _q("missing thing", 3, "Give me residual ZZ of coupling Q10-Q11 on 64Qv3, in kHz.", truth),
        _q("missing thing", 4, "- chip: 64Qv4\n- metric: T2 echo\n- ask: median over all qubits", truth),
    ]


def build_heldout14(db, now: datetime) -> list[Question]:
    """The forty questions, shape by shape (raises when the data leaves a question without a single answer)."""
    return (_missing(db) + _top(db) + _compound(db) + _correlation(db) + _cross(db) + _percentage(db)
            + _window(db, now) + _fails(db) + _pairs(db) + _spread(db))
