"""Dev questions, in wordings of my own, that write a limit's number and unit in any notation ("3.2e-5 s",
"0.00005 s", "3.8×10^-5 s", "3 x 10-5 s", "45e-6 s", "5.1e9 Hz", a fidelity as a fraction), put it on its side with
less common words ("past", "south of", "north of", "in excess of", "tops", "≥"), or ask the answer in a unit of their
own ("(MHz)", "in kHz", "expressed in ns", "as a fraction"), over counts, shares, compound filters, spreads, medians
and a qubit's value, on both demo chips.

Every truth is read here by hand: the newest completed, non-excluded value per qubit (:func:`tests.dev_compound12
.latest`, hand-written pymongo over ``task_result_history``; T1 and T2 echo stored in μs, frequencies in GHz,
fidelities as fractions and shown in %), the limit converted by hand to those units below (``limit``), then the
statistic by :mod:`statistics`, then the unit asked by hand (``factor``).  ``fresh`` marks the wordings written after
the fix, to attack it.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass

from tests.dev_compound12 import latest
from tests.public_eval import CHIP, OTHER

# How a hand-read stored value becomes the unit the catalogue shows (anharmonicity is stored in GHz, shown in MHz).
_STORED_TO_SHOWN = {"anharmonicity": 1000.0}


@dataclass(frozen=True)
class Asked:
    id: str
    text: str
    chip: str
    tool: str  # the call the router makes
    what: str  # "count", "share", "both" (two limits), "std", "median", "mean", "value"
    metric: str
    limit: tuple[str, float, bool] | None = None  # (side, value in the shown unit, counted at the limit)
    second: tuple[str, str, float, bool] | None = None  # a second metric's (metric, side, value, counted)
    factor: float = 1.0  # the unit asked, from the shown unit (GHz -> MHz: 1000)
    unit: str = ""  # the unit asked as the answer writes it
    qubit: int | None = None  # the qubit of a "value" question
    fresh: bool = False


def shown(db, chip: str, metric: str) -> dict[int, float]:
    """Qubit -> newest value in the catalogue's shown unit, read by hand."""
    scale = _STORED_TO_SHOWN.get(metric, 1.0)
    return {int(q): v * scale for q, v in latest(db, chip, metric, "qubit").items() if v is not None}


def _meets(value: float, side: str, limit: float, counted: bool) -> bool:
    if counted and value == limit:
        return True
    return value < limit if side == "below" else value > limit


def truth(db, asked: Asked) -> float:
    """The number the answer must state, in the unit asked, by hand."""
    vals = shown(db, asked.chip, asked.metric)
    if asked.what in ("count", "share", "both"):
        assert asked.limit is not None
        side, limit, counted = asked.limit
        hits = {q for q, v in vals.items() if _meets(v, side, limit, counted)}
        if asked.what == "both":
            assert asked.second is not None
            metric, side2, limit2, counted2 = asked.second
            other = shown(db, asked.chip, metric)
            hits = {q for q in hits & set(other) if _meets(other[q], side2, limit2, counted2)}
        return float(len(hits)) if asked.what != "share" else 100.0 * len(hits) / len(vals)
    if asked.what == "value":
        assert asked.qubit is not None
        return vals[asked.qubit] * asked.factor
    stat = {"std": statistics.stdev, "median": statistics.median, "mean": statistics.fmean}[asked.what]
    return stat(list(vals.values())) * asked.factor


def _a(id_: str, text: str, tool: str, what: str, metric: str, chip: str = CHIP, **kw) -> Asked:
    return Asked(id_, text, chip, tool, what, metric, **kw)


_F = "filter_metric"
_FF = "filter_metrics"
QUESTIONS: tuple[Asked, ...] = (
    # a limit in seconds, in every notation
    _a("n1", "How many qubits have T1 less than 3.2e-5 s?", _F, "count", "t1", limit=("below", 32.0, False)),
    _a("n2", "Count the qubits on 144Qv2 whose T1 is under 4.0E-5 seconds", _F, "count", "t1", chip=OTHER,
       limit=("below", 40.0, False)),
    _a("n3", "What percentage of qubits have T2 echo below 5.5e-5 s?", _F, "share", "t2_echo",
       limit=("below", 55.0, False)),
    _a("n4", "How many qubits have T1 above 0.00005 s?", _F, "count", "t1", limit=("above", 50.0, False)),
    _a("n5", "Share of qubits with T1 above 45e-6 s", _F, "share", "t1", limit=("above", 45.0, False)),
    _a("n6", "Count of qubits with T1 below 3.8×10^-5 s", _F, "count", "t1", limit=("below", 38.0, False)),
    _a("n7", "On 144Qv2, how many qubits have T2 echo above 3 x 10-5 s?", _F, "count", "t2_echo", chip=OTHER,
       limit=("above", 30.0, False)),
    _a("n8", "Number of qubits whose qubit frequency is above 5.1e9 Hz", _F, "count", "qubit_frequency",
       limit=("above", 5.1, False)),
    _a("n9", "How many qubits have T1 of 6e-5 s or more?", _F, "count", "t1", limit=("above", 60.0, True)),
    # side words
    _a("s1", "How many qubits have a readout fidelity past 95%?", _F, "count", "average_readout_fidelity",
       limit=("above", 95.0, False)),
    _a("s2", "What fraction of qubits on 144Qv2 have T1 past 40 us?", _F, "share", "t1", chip=OTHER,
       limit=("above", 40.0, False)),
    _a("s3", "How many qubits have T1 south of 30 us?", _F, "count", "t1", limit=("below", 30.0, False)),
    # compound filters
    _a("c1", "How many qubits have T1 above 4e-5 s and T2 echo above 2e-5 s?", _FF, "both", "t1",
       limit=("above", 40.0, False), second=("t2_echo", "above", 20.0, False)),
    _a("c2", "Qubits with T1 past 50 us and readout fidelity past 90%: how many?", _FF, "both", "t1",
       limit=("above", 50.0, False), second=("average_readout_fidelity", "above", 90.0, False)),
    _a("c3", "On 144Qv2, how many qubits have T1 > 3e-5 s and T2 echo < 8e-5 s?", _FF, "both", "t1", chip=OTHER,
       limit=("above", 30.0, False), second=("t2_echo", "below", 80.0, False)),
    # the unit the answer is asked in
    _a("u1", "What is the median qubit frequency (MHz)?", "get_chip_summary", "median", "qubit_frequency",
       factor=1000.0, unit="MHz"),
    _a("u2", "Standard deviation of the qubit frequency in kHz on 144Qv2", "metric_spread", "std", "qubit_frequency",
       chip=OTHER, factor=1e6, unit="kHz"),
    _a("u3", "What is the T1 of Q5 expressed in ns?", "get_qubit_params", "value", "t1", qubit=5, factor=1000.0,
       unit="ns"),
    _a("u4", "Q12's readout fidelity as a fraction", "get_qubit_params", "value", "average_readout_fidelity",
       qubit=12, factor=0.01),
    _a("u5", "What is the spread (std) of T1 in ms?", "metric_spread", "std", "t1", factor=1e-3, unit="ms"),
    _a("u6", "What's the median anharmonicity in GHz?", "get_chip_summary", "median", "anharmonicity",
       factor=1e-3, unit="GHz"),
    _a("u7", "Median T2 echo (ms) on 144Qv2", "get_chip_summary", "median", "t2_echo", chip=OTHER, factor=1e-3,
       unit="ms"),
    # written after the fix, to attack it
    _a("x1", "How many qubits have T2 echo in excess of 4.5E-5 s?", _F, "count", "t2_echo",
       limit=("above", 45.0, False), fresh=True),
    _a("x2", "What share of 144Qv2's qubits have T1 north of 0.00004 seconds?", _F, "share", "t1", chip=OTHER,
       limit=("above", 40.0, False), fresh=True),
    _a("x3", "How many qubits have T1 of 35 us tops?", _F, "count", "t1", limit=("below", 35.0, True), fresh=True),
    _a("x4", "On 144Qv2 what percent of qubits have readout fidelity upwards of 0.9?", _F, "share",
       "average_readout_fidelity", chip=OTHER, limit=("above", 90.0, False), fresh=True),
    _a("x5", "T1 standard deviation, in microseconds please", "metric_spread", "std", "t1", factor=1.0, unit="μs",
       fresh=True),
    _a("x6", "Mean qubit frequency [MHz] on 144Qv2", "get_chip_summary", "mean", "qubit_frequency", chip=OTHER,
       factor=1000.0, unit="MHz", fresh=True),
    _a("x7", "How many qubits have T1 ≥ 4×10⁻⁵ s and T2 echo ≤ 9e-5 s?", _FF, "both", "t1",
       limit=("above", 40.0, True), second=("t2_echo", "below", 90.0, True), fresh=True),
    _a("x8", "Count qubits whose qubit frequency is shy of 4.9e9 Hz on 144Qv2", _F, "count", "qubit_frequency",
       chip=OTHER, limit=("below", 4.9, False), fresh=True),
)
# A limit whose unit is not the metric's quantity: asked back or refused in words, never used.
UNFIT = ("How many qubits have T1 below 5 GHz?", "What share of qubits have qubit frequency above 40 us?")
