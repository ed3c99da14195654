"""Dev questions whose call must restate five more elements of the question: a condition written in words with no
number ("poor T2 echo", "high T1"), a coupling's gate time (not its fidelity), N subjects asked, a spread's statistic
and unit, and a correlation's two metrics.

Truths are hand-written pymongo reads of the raw demo documents (``public_eval.latest_values``: the newest completed,
non-excluded result per qubit or coupling, NaN and QDash's 0 as no value).  The lab's band limits are written out
here by hand from QDash's ``review.yaml: scoring`` (T1: bad below 20 μs, good from 50 μs, excellent from 100 μs; T2
echo: bad below 30 μs; readout fidelity: good from 95%; ZX90 gate fidelity: good from 95%); quartiles, standard
deviations and Pearson r are numpy's over the values read here; nothing calls the tools.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from tests.eval_score import Expect, Truth
from tests.public_eval import CHIP, Question, latest_values, scale

PCT_TOL = 0.051  # a share shown at one decimal
US_TOL = 0.051  # μs, ns and MHz shown at one decimal
PCT_VALUE_TOL = 0.0051  # a fidelity shown in % at two decimals
R_TOL = 0.0051  # r at two decimals
Test = Callable[[float], bool]


def _present(db, name: str, kind: str = "qubit") -> dict[str, float]:
    """Display values: ``latest_values`` scales fidelities to %; the gate time is stored in ns already."""
    undo = scale(name) if name == "zx90_gate_time" else 1.0
    return {q: v / undo for q, v in latest_values(db, CHIP, name, kind).items() if v is not None}


def _qubit(qid: str) -> str:
    return rf"Q0*{int(qid)}(?!\d)"


def _count(db, tests: dict[str, Test], kind: str = "qubit") -> int:
    vals = {name: _present(db, name, kind) for name in tests}
    ids = set.intersection(*(set(v) for v in vals.values()))
    return sum(1 for q in ids if all(test(vals[n][q]) for n, test in tests.items()))


def _conditions(db) -> list[Question]:
    t1 = _present(db, "t1")
    long_t1 = sum(1 for v in t1.values() if v > 50)
    return [
        Question("r2c-1", "restate2 condition", "How many qubits on the chip have poor T2 echo?",
                 Truth(((_count(db, {"t2_echo": lambda v: v < 30}), 0),))),
        Question("r2c-2", "restate2 condition", "Count the qubits that combine high T1 with good readout fidelity.",
                 Truth(((_count(db, {"t1": lambda v: v > 50, "average_readout_fidelity": lambda v: v > 95}), 0),))),
        Question("r2c-3", "restate2 condition", "Among all qubits, what percentage have a long T1?",
                 Truth((Expect(100.0 * long_t1 / len(t1), PCT_TOL, unit="%"), (long_t1, 0)))),
        Question("r2c-4", "restate2 condition", "Tally the couplings with high ZX90 gate fidelity.",
                 Truth(((_count(db, {"zx90_gate_fidelity": lambda v: v > 95}, "coupling"), 0),))),
        Question("r2c-5", "restate2 condition", "How many qubits show excellent T1?",
                 Truth(((_count(db, {"t1": lambda v: v > 100}), 0),))),
    ]


def _ends(db, name: str, n: int, highest: bool, kind: str = "qubit", labels: bool = True,
          tolerance: float = US_TOL) -> Truth:
    vals = _present(db, name, kind)
    picked = sorted(vals, key=lambda q: vals[q], reverse=highest)[:n]
    return Truth(tuple((vals[q], tolerance) for q in picked), tuple(_qubit(q) for q in picked) if labels else ())


def _gate_times(db) -> list[Question]:
    return [
        Question("r2g-1", "restate2 gate time", "Which coupling has the longest ZX90 gate time?",
                 _ends(db, "zx90_gate_time", 1, True, "coupling", labels=False)),
        Question("r2g-2", "restate2 gate time", "List the 3 couplings with the shortest CZ duration.",
                 _ends(db, "zx90_gate_time", 3, False, "coupling", labels=False)),
        Question("r2g-3", "restate2 gate time", "Name the four couplings whose two-qubit gate time is longest.",
                 _ends(db, "zx90_gate_time", 4, True, "coupling", labels=False)),
        Question("r2g-4", "restate2 gate time", "Which 2 couplings have the best CZ fidelity?",
                 _ends(db, "zx90_gate_fidelity", 2, True, "coupling", labels=False, tolerance=PCT_VALUE_TOL)),
    ]


def _many(db) -> list[Question]:
    return [
        Question("r2n-1", "restate2 n", "Which three qubits have the shortest T2 echo?",
                 _ends(db, "t2_echo", 3, False)),
        Question("r2n-2", "restate2 n", "List the qubits with the highest readout fidelity.",
                 _ends(db, "average_readout_fidelity", 3, True, tolerance=PCT_VALUE_TOL)),
        Question("r2n-3", "restate2 n", "Name the five worst couplings, ranked on Bell state fidelity.",
                 _ends(db, "bell_state_fidelity", 5, False, "coupling", labels=False, tolerance=PCT_VALUE_TOL)),
        Question("r2n-4", "restate2 n", "Give me the two qubits with the longest T1.", _ends(db, "t1", 2, True)),
    ]


def _spread(db, qid: str, text: str, name: str, stat: str, factor: float = 1.0,
            tolerance: float = US_TOL) -> Question:
    arr = np.asarray(list(_present(db, name).values()), dtype=float) * factor
    q1, q3 = np.percentile(arr, [25, 75])
    value = {"iqr": q3 - q1, "std": arr.std(ddof=1), "range": arr.max() - arr.min()}[stat]
    near = {"iqr": ("interquartile|IQR",), "std": ("standard deviation",), "range": ("range",)}[stat]
    return Question(qid, "restate2 spread", text, Truth((Expect(float(value), tolerance, near=near),)))


def _spreads(db) -> list[Question]:
    return [
        _spread(db, "r2s-1", "What is the interquartile range of T1 across the chip?", "t1", "iqr"),
        _spread(db, "r2s-2", "How large is the standard deviation of the qubit frequency, in MHz?",
                "qubit_frequency", "std", 1000.0),
        _spread(db, "r2s-3", "Give the full range of T2 echo values on the chip.", "t2_echo", "range"),
        _spread(db, "r2s-4", "What's the IQR of the qubit frequencies in MHz?", "qubit_frequency", "iqr", 1000.0),
    ]


def _band(r: float) -> str:
    """The correlation tool's words for a size of r, written out: 0.7 strong, 0.4 moderate, 0.1 weak."""
    size = abs(r)
    return "strong" if size >= 0.7 else "moderate" if size >= 0.4 else "weak" if size >= 0.1 else "no clear"


def _correlation(db, qid: str, text: str, a: str, b: str, kind: str = "qubit") -> Question:
    va, vb = _present(db, a, kind), _present(db, b, kind)
    both = sorted(set(va) & set(vb))
    r = float(np.corrcoef([va[q] for q in both], [vb[q] for q in both])[0, 1])
    return Question(qid, "restate2 correlation", text,
                    Truth((Expect(r, R_TOL, signed=True),), any_words=(_band(r),)))


def _correlations(db) -> list[Question]:
    return [
        _correlation(db, "r2r-1", "Are T1 and T2 echo correlated across the chip?", "t1", "t2_echo"),
        _correlation(db, "r2r-2", "Does readout fidelity track T1?", "average_readout_fidelity", "t1"),
        _correlation(db, "r2r-3", "What is the relationship between X90 gate fidelity and T2 echo?",
                     "x90_gate_fidelity", "t2_echo"),
        _correlation(db, "r2r-4", "Across all couplings, do ZX90 gate fidelities and Bell state fidelities move together?",
                     "zx90_gate_fidelity", "bell_state_fidelity", "coupling"),
    ]


def build(db) -> list[Question]:
    """The dev questions of this file with their truths."""
    return _conditions(db) + _gate_times(db) + _many(db) + _spreads(db) + _correlations(db)
