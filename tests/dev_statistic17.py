"""Dev questions, in wordings of my own, that ask the quantity and the statistic in words: a gate's or pulse's
duration in words of time ("how long ... last", "how many ns does ... take", "the duration of", "length"), a spread
in any of its words ("dispersion", "scatter", "how spread out", "more variable", "tighter", "IQR", "min to max"),
one statistic of two chips side by side (spread, mean, worst), a superlative of time or life with its count
("shortest-lived", "longest-lived", "fastest", "slowest", "briefest", "quickest") and a value asked in seconds or
milliseconds, over both demo chips.

Each question carries the router call it needs (tool and every argument), written by hand.  Every truth is read
here by hand: the newest completed, non-excluded value per subject (:func:`tests.dev_compound12.latest`, pymongo
over ``task_result_history``; T1/T2 stored in μs, gate times in ns, fidelities as fractions shown in %), then the
statistic by :mod:`statistics` (:func:`tests.dev_spread13.spread_of`), then the unit asked by hand.  ``fresh`` marks
the wordings written after the fix, to attack it.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field

from tests.dev_compound12 import latest
from tests.dev_spread13 import spread_of
from tests.public_eval import CHIP, OTHER

T1, T2, RO, X90, FREQ, ZXT, HPI = ("t1", "t2_echo", "average_readout_fidelity", "x90_gate_fidelity", "qubit_frequency",
                                   "zx90_gate_time", "hpi_length")
_KIND = {ZXT: "coupling"}
# How the answer names each chip statistic, right before its number.
STAT_NAMED = {"std": "standard deviation", "range": "range", "iqr": "IQR", "mean": "mean", "min": "min"}


@dataclass(frozen=True)
class Asked:
    id: str
    text: str
    tool: str
    args: dict
    what: str  # "value", "spread", "chips", "rank", "none" (a quantity the chip holds no value of)
    metric: str
    chip: str = CHIP
    subject: str | None = None  # the qubit or coupling of a "value" question
    stat: str | None = None  # the statistic of a "spread" / "chips" question
    n: int = 1  # how many a "rank" question lists
    lowest: bool = True
    factor: float = 1.0  # the unit asked, from the stored unit (μs -> s: 1e-6)
    fresh: bool = False
    chips: tuple[str, ...] = field(default=(CHIP, OTHER))


def values(db, chip: str, metric: str) -> dict[str, float]:
    """Subject -> newest usable value in the shown unit, by hand."""
    return {s: v for s, v in latest(db, chip, metric, _KIND.get(metric, "qubit")).items() if v is not None}


def truth(db, asked: Asked) -> list[float]:
    """The figures the answer must state, by hand: one value, one spread, one per chip, or the N ranked."""
    if asked.what == "value":
        assert asked.subject is not None
        return [values(db, asked.chip, asked.metric)[asked.subject] * asked.factor]
    if asked.what == "spread":
        return [spread_of(list(values(db, asked.chip, asked.metric).values()), str(asked.stat))]
    if asked.what == "chips":
        out = []
        for chip in asked.chips:
            vals = list(values(db, chip, asked.metric).values())
            out.append(statistics.fmean(vals) if asked.stat == "mean" else min(vals) if asked.stat == "min"
                       else spread_of(vals, str(asked.stat)))
        return out
    if asked.what == "rank":
        ranked = sorted(values(db, asked.chip, asked.metric).values(), reverse=not asked.lowest)
        return ranked[:asked.n]
    return []


def _c(chip: str, coupling: str) -> dict:
    return {"chip_id": chip, "coupling_id": coupling, "param_names": [ZXT]}


def _spread(chip: str, metric: str, lead: str) -> dict:
    return {"chip_id": chip, "metric_name": metric, "lead": lead}


def _chips(metric: str, stat: str, named: bool = True) -> dict:
    return {"metric_name": metric, "statistic": stat, **({"chip_ids": [CHIP, OTHER]} if named else {})}


def _rank(chip: str, metric: str, order: str, n: int) -> dict:
    return {"chip_id": chip, "metric_name": metric, "order": order, "n": n}


QUESTIONS: tuple[Asked, ...] = (
    # a duration in words of time: the gate time, never the fidelity
    Asked("d1", "How long does the ZX90 pulse last on coupling Q4-Q5?", "get_coupling_params", _c(CHIP, "4-5"),
          "value", ZXT, subject="4-5"),
    Asked("d2", "How many ns does the CR gate take between Q0 and Q1 on 64Qv3?", "get_coupling_params",
          _c(CHIP, "0-1"), "value", ZXT, subject="0-1"),
    Asked("d3", "What's the duration of the two-qubit gate on pair 10-11 of 144Qv2?", "get_coupling_params",
          _c(OTHER, "10-11"), "value", ZXT, chip=OTHER, subject="10-11"),
    Asked("d4", "How long is the pi/2 pulse on qubit 3 of 144Qv2?", "get_qubit_params",
          {"chip_id": OTHER, "qid": "3", "param_names": [HPI]}, "none", HPI, chip=OTHER, subject="3"),
    Asked("d5", "What is the length of the HPI pulse on Q7?", "get_qubit_params",
          {"chip_id": CHIP, "qid": "7", "param_names": [HPI]}, "none", HPI, subject="7"),
    # a spread in its words: the spread, never the median
    Asked("d6", "How much does T1 vary across 64Qv3?", "metric_spread", _spread(CHIP, T1, "std"), "spread", T1,
          stat="std"),
    Asked("d7", "What is the dispersion of T2 echo on 144Qv2?", "metric_spread", _spread(OTHER, T2, "std"), "spread",
          T2, chip=OTHER, stat="std"),
    Asked("d8", "How spread out is the readout fidelity on chip 64Qv3?", "metric_spread", _spread(CHIP, RO, "std"),
          "spread", RO, stat="std"),
    Asked("d9", "Give me the range between the best and worst qubit frequency on 144Qv2.", "metric_spread",
          _spread(OTHER, FREQ, "range"), "spread", FREQ, chip=OTHER, stat="range"),
    Asked("d10", "What's the scatter of the X90 gate fidelity on 64Qv3?", "metric_spread", _spread(CHIP, X90, "std"),
          "spread", X90, stat="std"),
    Asked("d11", "What's the interquartile spread of T2 echo on 144Qv2?", "metric_spread", _spread(OTHER, T2, "iqr"),
          "spread", T2, chip=OTHER, stat="iqr"),
    # one statistic of two chips side by side: the one asked, never the median
    Asked("d12", "Compare the spread of T1 between 64Qv3 and 144Qv2.", "compare_chips", _chips(T1, "std"), "chips",
          T1, stat="std"),
    Asked("d13", "Is T1 more variable on 64Qv3 than on 144Qv2?", "compare_chips", _chips(T1, "std"), "chips", T1,
          stat="std"),
    Asked("d14", "Which device has the tighter T1 distribution, 64Qv3 or 144Qv2?", "compare_chips", _chips(T1, "std"),
          "chips", T1, stat="std"),
    Asked("d15", "Compare the worst T1 on 64Qv3 and 144Qv2.", "compare_chips", _chips(T1, "min"), "chips", T1,
          stat="min"),
    Asked("d16", "Compare the mean T2 echo of 64Qv3 and 144Qv2.", "compare_chips", _chips(T2, "mean"), "chips", T2,
          stat="mean"),
    Asked("d17", "What is the IQR of T1 on each chip?", "compare_chips", _chips(T1, "iqr", named=False), "chips", T1,
          stat="iqr"),
    # a superlative of time or life with its count
    Asked("d18", "Which 3 qubits are the shortest-lived on 64Qv3?", "rank_metric", _rank(CHIP, T1, "lowest", 3),
          "rank", T1, n=3),
    Asked("d19", "List the 4 longest-lived qubits on 144Qv2.", "rank_metric", _rank(OTHER, T1, "highest", 4), "rank",
          T1, chip=OTHER, n=4, lowest=False),
    Asked("d20", "Which 5 couplings have the fastest gates on 64Qv3?", "rank_metric", _rank(CHIP, ZXT, "lowest", 5),
          "rank", ZXT, n=5),
    Asked("d21", "Which 3 couplings have the slowest two-qubit gates on 144Qv2?", "rank_metric",
          _rank(OTHER, ZXT, "highest", 3), "rank", ZXT, chip=OTHER, n=3, lowest=False),
    Asked("d22", "Which qubit has the briefest T2 echo on 64Qv3?", "rank_metric", _rank(CHIP, T2, "lowest", 1),
          "rank", T2),
    # a value asked in seconds or milliseconds
    Asked("d23", "What is Q5's T1 in seconds on 64Qv3?", "get_qubit_params",
          {"chip_id": CHIP, "qid": "5", "param_names": [T1]}, "value", T1, subject="5", factor=1e-6),
    Asked("d24", "What is the T2 echo of Q3 in ms on 144Qv2?", "get_qubit_params",
          {"chip_id": OTHER, "qid": "3", "param_names": [T2]}, "value", T2, chip=OTHER, subject="3", factor=1e-3),
    # fresh attack wordings, written after the fix
    Asked("f1", "How many nanoseconds does the entangling gate on 144Qv2's pair 12-14 last?", "get_coupling_params",
          _c(OTHER, "12-14"), "value", ZXT, chip=OTHER, subject="12-14", fresh=True),
    Asked("f2", "Name the six quickest cross-resonance gates on 144Qv2.", "rank_metric",
          _rank(OTHER, ZXT, "lowest", 6), "rank", ZXT, chip=OTHER, n=6, fresh=True),
    Asked("f3", "Which of the two chips, 64Qv3 or 144Qv2, shows the wider spread in readout fidelity?",
          "compare_chips", _chips(RO, "std"), "chips", RO, stat="std", fresh=True),
    Asked("f4", "Which 4 qubits on 64Qv3 have the quickest-decaying T1?", "rank_metric", _rank(CHIP, T1, "lowest", 4),
          "rank", T1, n=4, fresh=True),
    Asked("f5", "How much does the ZX90 gate time vary on 144Qv2?", "metric_spread", _spread(OTHER, ZXT, "std"),
          "spread", ZXT, chip=OTHER, stat="std", fresh=True),
    Asked("f6", "Give Q9's T1 on 144Qv2 in milliseconds.", "get_qubit_params",
          {"chip_id": OTHER, "qid": "9", "param_names": [T1]}, "value", T1, chip=OTHER, subject="9", factor=1e-3,
          fresh=True),
    Asked("f7", "Between 64Qv3 and 144Qv2, whose T2 echo is less scattered?", "compare_chips", _chips(T2, "std"),
          "chips", T2, stat="std", fresh=True),
    Asked("f8", "What are the five longest 2Q gates on 64Qv3?", "rank_metric", _rank(CHIP, ZXT, "highest", 5), "rank",
          ZXT, n=5, lowest=False, fresh=True),
)
