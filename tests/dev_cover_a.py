"""Dev questions in the registers a lab user types, for five chip-wide shapes the router must read before the model
speaks: a compound filter (two or more conditions), a share, the top or bottom N, a spread and a correlation.

Terse ("t1>50us & t2e>40us count?"), chatty, condition-first, British spelling, lower case, "fraction",
"proportion", "how many out of", "worst five", "bottom 3", "how tight", "does ... go with ...".  Truths are
hand-written pymongo reads (``public_eval.latest_values``: newest completed, non-excluded result, NaN and QDash's 0
as no value); quartiles, standard deviations and Pearson r are numpy's; nothing calls the tools.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from tests.eval_score import Expect, Truth
from tests.public_eval import CHIP, Question, latest_values, scale

PCT_TOL = 0.051
US_TOL = 0.051
PCT_VALUE_TOL = 0.0051
R_TOL = 0.0051
Test = Callable[[float], bool]


def _present(db, name: str, kind: str = "qubit") -> dict[str, float]:
    return {q: v for q, v in latest_values(db, CHIP, name, kind).items() if v is not None}


def _all_have(db, tests: dict[str, Test], kind: str = "qubit") -> int:
    vals = {name: _present(db, name, kind) for name in tests}
    ids = set.intersection(*(set(v) for v in vals.values()))
    return sum(1 for q in ids if all(test(vals[n][q]) for n, test in tests.items()))


def _compound(db, qid: str, text: str, tests: dict[str, Test]) -> Question:
    return Question(qid, "cover compound", text, Truth(((_all_have(db, tests), 0),)))


def _compounds(db) -> list[Question]:
    return [
        _compound(db, "cac-1", "t1>50us & t2e>40us count?", {"t1": lambda v: v > 50, "t2_echo": lambda v: v > 40}),
        _compound(db, "cac-2", "count of qubits having t2 echo above 30 us and t1 above 60 us",
                  {"t1": lambda v: v > 60, "t2_echo": lambda v: v > 30}),
        _compound(db, "cac-3", "Could you tell me how many of the qubits manage both a T1 over 40 μs and a readout "
                  "fidelity over 90%?", {"t1": lambda v: v > 40, "average_readout_fidelity": lambda v: v > 90}),
        _compound(db, "cac-4", "With T2 echo below 20 us and T1 below 30 us, how many qubits are there?",
                  {"t1": lambda v: v < 30, "t2_echo": lambda v: v < 20}),
        _compound(db, "cac-5", "number of qubits where x90 fidelity > 99% and readout fidelity > 95%",
                  {"x90_gate_fidelity": lambda v: v > 99, "average_readout_fidelity": lambda v: v > 95}),
        _compound(db, "cac-6", "Count qubits satisfying T1 >= 50 μs, T2 echo >= 50 μs and readout fidelity >= 90 %.",
                  {"t1": lambda v: v >= 50, "t2_echo": lambda v: v >= 50,
                   "average_readout_fidelity": lambda v: v >= 90}),
        _compound(db, "cac-7", "how many qubits have t1 under 25us while their readout fidelity is under 85%",
                  {"t1": lambda v: v < 25, "average_readout_fidelity": lambda v: v < 85}),
        _compound(db, "cac-8", "Qubits whose T2 echo is greater than 40 microseconds and T1 greater than "
                  "80 microseconds: how many?", {"t2_echo": lambda v: v > 40, "t1": lambda v: v > 80}),
    ]


def _share(db, qid: str, text: str, name: str, test: Test, kind: str = "qubit", percent: bool = True) -> Question:
    vals = _present(db, name, kind)
    hit = sum(1 for v in vals.values() if test(v))
    numbers = ((Expect(100.0 * hit / len(vals), PCT_TOL, unit="%"), (hit, 0)) if percent else ((hit, 0),))
    return Question(qid, "cover share", text, Truth(numbers))


def _shares(db) -> list[Question]:
    return [
        _share(db, "cas-1", "what fraction of qubits have T1 above 50 us?", "t1", lambda v: v > 50),
        _share(db, "cas-2", "proportion of qubits with readout fidelity below 90%?", "average_readout_fidelity",
               lambda v: v < 90),
        _share(db, "cas-3", "How many out of all the qubits have T2 echo over 40 µs?", "t2_echo", lambda v: v > 40,
               percent=False),
        _share(db, "cas-4", "What share of all qubits have a T1 under 30 microseconds?", "t1", lambda v: v < 30),
        _share(db, "cas-5", "x90 gate fidelity over 99.5%: percentage of the qubits?", "x90_gate_fidelity",
               lambda v: v > 99.5),
        _share(db, "cas-6", "Of the chip's qubits, what percent reach a T2 echo of at least 50 us?", "t2_echo",
               lambda v: v >= 50),
        _share(db, "cas-7", "t1 > 70us: what % of qubits?", "t1", lambda v: v > 70),
        _share(db, "cas-8", "Roughly what proportion of the couplings have ZX90 gate fidelity above 95%?",
               "zx90_gate_fidelity", lambda v: v > 95, "coupling"),
        _share(db, "cas-9", "Can you work out the fraction of qubits whose readout fidelity is at or above 95 "
               "percent?", "average_readout_fidelity", lambda v: v >= 95),
    ]


def _qubit(qid: str) -> str:
    return rf"Q0*{int(qid)}(?!\d)"


def _ends(db, qid: str, text: str, name: str, n: int, highest: bool, kind: str = "qubit") -> Question:
    vals = _present(db, name, kind)
    picked = sorted(vals, key=lambda q: vals[q], reverse=highest)[:n]
    tolerance = US_TOL if scale(name) == 1.0 else PCT_VALUE_TOL
    labels = tuple(_qubit(q) for q in picked) if kind == "qubit" else ()
    return Question(qid, "cover top n", text, Truth(tuple((vals[q], tolerance) for q in picked), labels))


def _tops(db) -> list[Question]:
    return [
        _ends(db, "can-1", "worst five qubits by T1", "t1", 5, False),
        _ends(db, "can-2", "bottom 3 qubits for readout fidelity", "average_readout_fidelity", 3, False),
        _ends(db, "can-3", "the 10 best qubits on T2 echo", "t2_echo", 10, True),
        _ends(db, "can-4", "Which 4 qubits score highest on X90 gate fidelity?", "x90_gate_fidelity", 4, True),
        _ends(db, "can-5", "bell-state fidelity: top 6 couplings", "bell_state_fidelity", 6, True, "coupling"),
        _ends(db, "can-6", "Show me the three lowest-T1 qubits please.", "t1", 3, False),
        _ends(db, "can-7", "By T2 echo, which are the 5 weakest qubits?", "t2_echo", 5, False),
        _ends(db, "can-8", "List the best 2 couplings as measured by ZX90 gate fidelity.", "zx90_gate_fidelity", 2, True,
              "coupling"),
        _ends(db, "can-9", "give me the top seven qubits ranked by readout fidelity", "average_readout_fidelity", 7,
              True),
    ]


def _spread(db, qid: str, text: str, name: str, stat: str) -> Question:
    arr = np.asarray(list(_present(db, name).values()), dtype=float)
    q1, q3 = np.percentile(arr, [25, 75])
    std = float(arr.std(ddof=1))
    value = {"iqr": q3 - q1, "std": std, "range": arr.max() - arr.min(), "cv": 100.0 * std / arr.mean()}[stat]
    near = {"iqr": ("interquartile|IQR",), "std": ("standard deviation",), "range": ("range",),
            "cv": ("coefficient of variation|CV",)}[stat]
    tolerance = US_TOL if scale(name) == 1.0 or stat == "cv" else PCT_VALUE_TOL
    return Question(qid, "cover spread", text, Truth((Expect(float(value), tolerance, near=near),)))


def _spreads(db) -> list[Question]:
    return [
        _spread(db, "caw-1", "T1 from qubit to qubit: how widely does it differ?", "t1", "std"),
        _spread(db, "caw-2", "how tight is the T1 distribution", "t1", "std"),
        _spread(db, "caw-3", "std of t2 echo across qubits?", "t2_echo", "std"),
        _spread(db, "caw-4", "What's the standard deviation of readout fidelity on this chip?",
                "average_readout_fidelity", "std"),
        _spread(db, "caw-5", "IQR of T1 please", "t1", "iqr"),
        _spread(db, "caw-6", "range of x90 gate fidelity across the qubits", "x90_gate_fidelity", "range"),
        _spread(db, "caw-7", "How consistent is T2 echo across the chip? Give the coefficient of variation.",
                "t2_echo", "cv"),
        _spread(db, "caw-8", "What is the spread of T1 over all qubits, max minus min?", "t1", "range"),
        _spread(db, "caw-9", "How much does the readout fidelity vary between qubits, as a standard deviation?",
                "average_readout_fidelity", "std"),
    ]


def _band(r: float) -> str:
    size = abs(r)
    return "strong" if size >= 0.7 else "moderate" if size >= 0.4 else "weak" if size >= 0.1 else "no clear"


def _correlation(db, qid: str, text: str, a: str, b: str, kind: str = "qubit") -> Question:
    va, vb = _present(db, a, kind), _present(db, b, kind)
    both = sorted(set(va) & set(vb))
    r = float(np.corrcoef([va[q] for q in both], [vb[q] for q in both])[0, 1])
    return Question(qid, "cover correlation", text, Truth((Expect(r, R_TOL, signed=True),), any_words=(_band(r),)))


def _correlations(db) -> list[Question]:
    return [
        _correlation(db, "car-1", "does T1 go with T2 echo?", "t1", "t2_echo"),
        _correlation(db, "car-2", "is there a link between readout fidelity and T1?", "average_readout_fidelity", "t1"),
        _correlation(db, "car-3", "correlation between x90 gate fidelity and readout fidelity", "x90_gate_fidelity",
                     "average_readout_fidelity"),
        _correlation(db, "car-4", "Do qubits with longer T2 echo also have higher X90 fidelity?", "t2_echo",
                     "x90_gate_fidelity"),
        _correlation(db, "car-5", "To what degree is T1 related to qubit frequency across the chip?", "t1",
                     "qubit_frequency"),
        _correlation(db, "car-6", "Pearson r of T2 echo vs readout fidelity?", "t2_echo", "average_readout_fidelity"),
        _correlation(db, "car-7", "On the couplings, are Bell-state fidelity plus ZX90 gate fidelity associated?",
                     "bell_state_fidelity", "zx90_gate_fidelity", "coupling"),
        _correlation(db, "car-8", "When T1 rises, does readout fidelity rise with it?", "t1",
                     "average_readout_fidelity"),
        _correlation(db, "car-9", "t1 vs t2e correlation?", "t1", "t2_echo"),
    ]


def build(db) -> list[Question]:
    """The dev questions of this file with their truths."""
    return _compounds(db) + _shares(db) + _tops(db) + _spreads(db) + _correlations(db)
