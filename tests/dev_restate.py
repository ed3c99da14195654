"""Dev questions for calls that must restate their question: compound filters of two and three conditions (a range, a
limit in another unit than its metric's), shares past a limit, top N by several metrics at either end, and a pair's
parameter (a coupling's fidelity, or the two qubits' own values).

Truths are hand-written pymongo reads of the raw demo documents (``public_eval.latest_values``: the newest completed,
non-excluded result per qubit or coupling, NaN and QDash's 0 as no value; ``public_eval.merged``: a qubit's merged
value), every limit converted here by hand; nothing calls the tools.
"""

from __future__ import annotations

from collections.abc import Callable

from tests.eval_score import Expect, Truth
from tests.public_eval import CHIP, Question, latest_values, merged, scale, tol

PCT_TOL = 0.051  # a share shown at one decimal
Test = Callable[[float], bool]


def _present(db, name: str, kind: str = "qubit") -> dict[str, float]:
    return {q: v for q, v in latest_values(db, CHIP, name, kind).items() if v is not None}


def _label(qid: str) -> str:
    return rf"Q0*{int(qid)}(?!\d)"


def _count(db, tests: dict[str, Test]) -> int:
    """Qubits with a value of every metric of ``tests`` that pass every test."""
    vals = {name: _present(db, name) for name in tests}
    ids = set.intersection(*(set(v) for v in vals.values()))
    return sum(1 for q in ids if all(test(vals[n][q]) for n, test in tests.items()))


def _filter(db, qid: str, text: str, tests: dict[str, Test]) -> Question:
    return Question(qid, "restate filter", text, Truth(((_count(db, tests), 0),)))


def _share(db, qid: str, text: str, name: str, test: Test) -> Question:
    vals = _present(db, name)
    n = sum(1 for v in vals.values() if test(v))
    return Question(qid, "restate share", text, Truth((Expect(100.0 * n / len(vals), PCT_TOL, unit="%"), (n, 0))))


def _top(db, qid: str, text: str, name: str, n: int, highest: bool) -> Question:
    vals = _present(db, name)
    picked = sorted(vals, key=lambda q: (vals[q], int(q)), reverse=highest)[:n]
    return Question(qid, "restate top n", text, Truth(tuple((vals[q], tol(name)) for q in picked),
                                                      tuple(_label(q) for q in picked)))


def _filters(db) -> list[Question]:
    return [
        _filter(db, "rf-1", "How many qubits combine a T1 under 55 μs with a T2 echo over 35 μs?",
                {"t1": lambda v: v < 55, "t2_echo": lambda v: v > 35}),
        _filter(db, "rf-2", "Count the qubits where T1 exceeds 0.045 ms and qubit frequency stays below 5050 MHz.",
                {"t1": lambda v: v > 45, "qubit_frequency": lambda v: v < 5.05}),
        _filter(db, "rf-3", "How many qubits sit between 40 and 75 μs in T1 and have a T2 echo above 25000 ns?",
                {"t1": lambda v: 40 < v < 75, "t2_echo": lambda v: v > 25}),
        _filter(db, "rf-4", "How many qubits have T1 over 35 μs, T2 echo under 90 μs, plus X90 gate fidelity "
                            "over 99.5%?",
                {"t1": lambda v: v > 35, "t2_echo": lambda v: v < 90, "x90_gate_fidelity": lambda v: v > 99.5}),
        _filter(db, "rf-5", "Tally the qubits having readout fidelity above 0.93 together with T1 below 60 μs.",
                {"average_readout_fidelity": lambda v: v > 93, "t1": lambda v: v < 60}),
        _filter(db, "rf-6", "How many qubits have T2 echo between 30 and 80 μs, T1 above 40 μs and readout "
                            "fidelity above 92%?",
                {"t2_echo": lambda v: 30 < v < 80, "t1": lambda v: v > 40,
                 "average_readout_fidelity": lambda v: v > 92}),
    ]


def _shares(db) -> list[Question]:
    return [
        _share(db, "rs-1", "What fraction of the qubits show T1 under 48 μs?", "t1", lambda v: v < 48),
        _share(db, "rs-2", "What percent of qubits have a T2 echo above 0.05 ms?", "t2_echo", lambda v: v > 50),
        _share(db, "rs-3", "What share of qubits keeps X90 gate fidelity above 99.7%?", "x90_gate_fidelity",
               lambda v: v > 99.7),
        _share(db, "rs-4", "What percentage of the qubits have readout fidelity below 0.94?",
               "average_readout_fidelity", lambda v: v < 94),
        _share(db, "rs-5", "Percentage of qubits having T1 above 65 μs?", "t1", lambda v: v > 65),
    ]


def _tops(db) -> list[Question]:
    return [
        _top(db, "rt-1", "Name the 3 qubits with the highest T1.", "t1", 3, True),
        _top(db, "rt-2", "List the 4 qubits with the lowest T2 echo.", "t2_echo", 4, False),
        _top(db, "rt-3", "Rank the 3 best qubits by X90 gate fidelity.", "x90_gate_fidelity", 3, True),
        _top(db, "rt-4", "Name the 2 qubits with the worst readout fidelity.", "average_readout_fidelity", 2, False),
        _top(db, "rt-5", "Give the top 5 qubits by T2 echo.", "t2_echo", 5, True),
        _top(db, "rt-6", "Point out the 3 qubits with the worst T1.", "t1", 3, False),
    ]


def _pairs(db) -> list[Question]:
    zx = _present(db, "zx90_gate_fidelity", "coupling")
    bell = _present(db, "bell_state_fidelity", "coupling")
    pairs = sorted(zx, key=lambda p: tuple(int(x) for x in p.split("-")))
    first, second = pairs[3], next(p for p in pairs[10:] if p in bell)
    a, b = first.split("-")
    c, d = second.split("-")
    out = [
        Question("rp-1", "restate pair",
                 f"Report the ZX90 gate fidelity measured on the coupling linking Q{int(a)} with Q{int(b)}.",
                 Truth(((zx[first], tol("zx90_gate_fidelity")),))),
        Question("rp-2", "restate pair", f"Bell state fidelity of the coupling joining Q{int(c)} and Q{int(d)}?",
                 Truth(((bell[second], tol("bell_state_fidelity")),))),
    ]
    for qid, name, x, y in (("rp-3", "t1", a, b), ("rp-4", "t2_echo", c, d)):
        px, py = merged(db, CHIP, x, name), merged(db, CHIP, y, name)
        if px is None or py is None:
            continue
        words = {"t1": "T1", "t2_echo": "T2 echo"}[name]
        text = (f"How do Q{int(x)} and Q{int(y)} compare on {words}?" if qid == "rp-3" else
                f"Put the {words} of Q{int(x)} next to that of Q{int(y)}.")
        out.append(Question(qid, "restate pair", text, Truth(((px["value"] * scale(name), tol(name)),
                                                              (py["value"] * scale(name), tol(name))))))
    return out


def build(db) -> list[Question]:
    """The dev questions of this file with their truths."""
    return _filters(db) + _shares(db) + _tops(db) + _pairs(db)
