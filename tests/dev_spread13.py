"""Dev questions that name a spread statistic loosely (a range as "max less min", "peak-to-peak", "the gap between
the best and worst"; a standard deviation as "σ", "SD", "std dev", "sample" or "population"; "IQR"; "relative
spread"; "MAD"), asked in a unit ("in MHz", "in kHz", "in ns", "in percentage points"), and questions that rank the
runs by failures ("which batch failed worst", "the worst execution", "the job with the highest failure count"),
set against one named run's breakdown ("the newest run", a run id).

Each question carries the router call it needs (tool and every argument), written by hand.  Every truth is read
here: a chip's values are the newest completed, non-excluded result per qubit or coupling
(:func:`tests.public_eval.latest_values`, pymongo over ``task_result_history``), their statistics computed with
Python's ``statistics`` module (sample SD n − 1, population SD n, quartiles by the inclusive linear method, MAD the
unscaled median of absolute deviations from the median); a run's failures are ``task_result_history`` documents
with status "failed", counted per ``execution_id`` (:func:`tests.dev_fails8.failed_by`).
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from datetime import timedelta

from tests.dev_fails7 import label
from tests.dev_fails8 import failed_by, last_day, top
from tests.eval_score import Truth
from tests.public_eval import CHIP, OTHER, Question, latest_values

Call = tuple[str, dict]
T1, T2, RO, X90, ZX, FREQ = ("t1", "t2_echo", "average_readout_fidelity", "x90_gate_fidelity", "zx90_gate_fidelity",
                             "qubit_frequency")
COUPLING = frozenset({ZX})
TO_UNIT = {("qubit_frequency", "MHz"): 1e3, ("qubit_frequency", "kHz"): 1e6, ("t2_echo", "ns"): 1e3,
           ("t1", "ns"): 1e3}
# The display's rounding of a spread: half its last digit (μs 1 decimal, % 2, GHz→MHz 1, →kHz and μs→ns none)
TOLERANCE = {None: 0.051, "MHz": 0.051, "kHz": 0.51, "ns": 0.51}
PERCENT_TOL = 0.0051
# How the answer names each statistic, right before its number.
NAMED = {"std": "sample standard deviation", "pstd": "population standard deviation", "range": "range",
         "iqr": r"interquartile range \(IQR\)", "cv": "coefficient of variation",
         "mad": r"median absolute deviation \(MAD\)"}


def chip_values(db, chip: str, metric: str, unit: str | None = None) -> list[float]:
    kind = "coupling" if metric in COUPLING else "qubit"
    factor = TO_UNIT.get((metric, unit), 1.0) if unit else 1.0
    return [v * factor for v in latest_values(db, chip, metric, kind).values() if v is not None]


def spread_of(values: list[float], stat: str) -> float:
    """The statistic by hand (``statistics``, no numpy, no tool)."""
    if stat == "std":
        return statistics.stdev(values)
    if stat == "pstd":
        return statistics.pstdev(values)
    if stat == "range":
        return max(values) - min(values)
    if stat == "iqr":
        q1, _, q3 = statistics.quantiles(values, n=4, method="inclusive")
        return q3 - q1
    if stat == "cv":
        return 100.0 * statistics.stdev(values) / abs(statistics.fmean(values))
    middle = statistics.median(values)
    return statistics.median(abs(v - middle) for v in values)


@dataclass(frozen=True)
class Spread:
    id: str
    text: str
    chip: str
    metric: str
    stat: str
    unit: str | None = None

    @property
    def percent(self) -> bool:
        return self.metric in (RO, X90, ZX)

    def value(self, db) -> float:
        return spread_of(chip_values(db, self.chip, self.metric, self.unit), self.stat)

    def question(self, db) -> Question:
        tol = 0.051 if self.stat == "cv" else PERCENT_TOL if self.percent else TOLERANCE[self.unit]
        shown_in = " percentage points" if self.percent and self.stat != "cv" else ""
        return Question(self.id, "spread", self.text,
                        Truth(((self.value(db), tol),), patterns=(rf"{NAMED[self.stat]} [\d.]+{shown_in}",)))

    @property
    def call(self) -> Call:
        return "metric_spread", {"chip_id": self.chip, "metric_name": self.metric, "lead": self.stat,
                                 **({"unit": self.unit} if self.unit else {})}


SPREADS: tuple[Spread, ...] = (
    Spread("sp13-less", "What's T1's max less min on 144Qv2?", OTHER, T1, "range"),
    Spread("sp13-minus", "Max minus min of T2 echo on this chip", CHIP, T2, "range"),
    Spread("sp13-bestworst", "How big is the gap between the best and worst readout fidelity?", CHIP, RO, "range"),
    Spread("sp13-ptp-mhz", "Peak-to-peak qubit frequency on 144Qv2 in MHz", OTHER, FREQ, "range", "MHz"),
    Spread("sp13-sigma-sym", "What is σ of T1?", CHIP, T1, "std"),
    Spread("sp13-sigma", "sigma of the x90 gate fidelity on 144Qv2", OTHER, X90, "std"),
    Spread("sp13-sd", "SD of T2 echo", CHIP, T2, "std"),
    Spread("sp13-stddev-khz", "std dev of qubit frequency in kHz", CHIP, FREQ, "std", "kHz"),
    Spread("sp13-sample", "What is the sample standard deviation of T1 on 144Qv2?", OTHER, T1, "std"),
    Spread("sp13-pop", "population standard deviation of T2 echo", CHIP, T2, "pstd"),
    Spread("sp13-pop-sd", "Give me the population SD of readout fidelity on 144Qv2", OTHER, RO, "pstd"),
    Spread("sp13-iqr", "IQR of T1", CHIP, T1, "iqr"),
    Spread("sp13-iqr-zx", "What's the interquartile range of the ZX90 gate fidelity on 144Qv2?", OTHER, ZX, "iqr"),
    Spread("sp13-cv", "coefficient of variation of T2 echo on 144Qv2", OTHER, T2, "cv"),
    Spread("sp13-rel", "What's the relative spread of T1?", CHIP, T1, "cv"),
    Spread("sp13-pp", "spread of readout fidelity in percentage points", CHIP, RO, "std"),
    Spread("sp13-pp-x90", "How widely does x90 fidelity vary, in percent points, on 144Qv2?", OTHER, X90, "std"),
    Spread("sp13-mad", "median absolute deviation of T1 on 144Qv2", OTHER, T1, "mad"),
    Spread("sp13-mad-mhz", "MAD of the qubit frequency in MHz", CHIP, FREQ, "mad", "MHz"),
    Spread("sp13-range-ns", "What's the range of T2 echo in ns?", CHIP, T2, "range", "ns"),
)


def _rank(chip: str, **window: object) -> Call:
    return "failure_ranking", {"chip_id": chip, "by": "run", **window}


def _ranked(qid: str, text: str, db, chip: str, first=None, **window: object) -> tuple[Question, Call]:
    names, n = top(failed_by(db, chip, "run", first))
    truth = Truth(((n, 0),), patterns=tuple(label(k) for k in names))
    return Question(qid, "fails most", text, truth), _rank(chip, **window)


def newest_run(db, chip: str) -> str:
    doc = next(db["execution_history"].find({"chip_id": chip}).sort([("start_at", -1)]).limit(1))
    return str(doc["execution_id"])


def run_failed(db, chip: str, run: str) -> int:
    return db["task_result_history"].count_documents({"chip_id": chip, "execution_id": run, "status": "failed"})


def runs(db) -> list[tuple[Question, Call]]:
    end, other_end = last_day(db, CHIP), last_day(db, OTHER)
    monday = end - timedelta(days=end.weekday())
    newest = newest_run(db, CHIP)
    busiest = top(failed_by(db, OTHER, "run"))[0][0]
    return [
        _ranked("run13-count", "Which execution had the highest failure count?", db, CHIP),
        _ranked("run13-batch", "which batch failed worst on 144Qv2", db, OTHER),
        _ranked("run13-job-week", "Which job had the most failed tasks this week?", db, CHIP, monday,
                since_weekday="monday"),
        _ranked("run13-worst-exec", "the worst execution in the last 10 days", db, CHIP, end - timedelta(days=9),
                days=10),
        _ranked("run13-rank", "Rank the calibration runs by number of failures on 144Qv2", db, OTHER),
        _ranked("run13-racked", "Which calibration run racked up the most failures?", db, CHIP),
        _ranked("run13-largest", "Run with the largest number of failed tasks", db, CHIP),
        _ranked("run13-errors", "Which of our executions had the most errors in the past 7 days?", db, CHIP,
                end - timedelta(days=6), days=7),
        _ranked("run13-batches", "Of all the batches on 144Qv2 in the last 5 days, which failed most?", db, OTHER,
                other_end - timedelta(days=4), days=5),
        (Question("run13-newest", "failures", "What failed in the newest run?",
                  Truth(((run_failed(db, CHIP, newest), 0),), patterns=(newest,))),
         ("get_run_failures", {"chip_id": CHIP})),
        (Question("run13-id", "failures", f"How many tasks failed in run {busiest} on 144Qv2?",
                  Truth(((run_failed(db, OTHER, busiest), 0),))),
         ("get_run_failures", {"chip_id": OTHER, "execution_id": busiest})),
    ]


def planned(db) -> list[tuple[Question, Call]]:
    """Every dev question with the router call it needs."""
    return [*((s.question(db), s.call) for s in SPREADS), *runs(db)]


def build(db) -> list[Question]:
    return [q for q, _ in planned(db)]
