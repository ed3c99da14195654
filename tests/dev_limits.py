"""Dev questions for limits: each limit of a several-metric filter is its own metric's ("limit metric"), two limits of
one metric are a range, inside or outside ("limit range"), and a limit written with no unit, as a fraction of a
fidelity, or in another time unit is in the metric's display unit ("limit unit").

Truths are hand-written pymongo reads of the raw demo documents (``public_eval.latest_values``: the newest completed,
non-excluded result per qubit or coupling, NaN and QDash's 0 as no value; fidelities stored as fractions, shown in %),
with every limit converted here by hand; nothing calls the tools.
"""

from __future__ import annotations

from collections.abc import Callable

from tests.eval_score import Truth
from tests.public_eval import CHIP, Question, latest_values

Test = Callable[[float], bool]


def _count(db, tests: dict[str, Test], kind: str = "qubit") -> int:
    """How many ids have a value of every metric of ``tests`` and pass every test."""
    values = {name: latest_values(db, CHIP, name, kind) for name in tests}
    ids = set.intersection(*(set(v) for v in values.values()))
    return sum(1 for i in ids if all(values[n].get(i) is not None and test(values[n][i])  # type: ignore[arg-type]
                                     for n, test in tests.items()))


def _q(qid: str, shape: str, text: str, n: int) -> Question:
    return Question(qid, shape, text, Truth(((n, 0),)))


def _metric(db) -> list[Question]:
    """Two and three metrics, each limit written next to its own, before or after the name."""
    return [
        _q("lm-1", "limit metric", "How many qubits have T1 above 40 us and qubit frequency below 5100 MHz?",
           _count(db, {"t1": lambda v: v > 40, "qubit_frequency": lambda v: v < 5.1})),
        _q("lm-2", "limit metric", "Count the qubits that are above 50 μs for T2 echo and below 5.0 GHz for qubit "
                                   "frequency.",
           _count(db, {"t2_echo": lambda v: v > 50, "qubit_frequency": lambda v: v < 5.0})),
        _q("lm-3", "limit metric", "How many qubits show a T1 no lower than 60 plus a T2 echo not below 70?",
           _count(db, {"t1": lambda v: v > 60, "t2_echo": lambda v: v > 70})),
        _q("lm-4", "limit metric", "How many qubits have a qubit frequency above 5.1 GHz and T2 echo above 5100 ns?",
           _count(db, {"qubit_frequency": lambda v: v > 5.1, "t2_echo": lambda v: v > 5.1})),
        _q("lm-6", "limit metric", "How many qubits are above 45 μs in T1 and under 80 μs in T2 echo?",
           _count(db, {"t1": lambda v: v > 45, "t2_echo": lambda v: v < 80})),
        _q("lm-5", "limit metric", "How many qubits have T1 above 40 μs, T2 echo above 50 μs and readout fidelity "
                                   "above 90%?",
           _count(db, {"t1": lambda v: v > 40, "t2_echo": lambda v: v > 50,
                       "average_readout_fidelity": lambda v: v > 90})),
    ]


def _range(db) -> list[Question]:
    """Inside ("between", "above and below") and outside ("below or above", "below and above", "outside a-b")."""
    return [
        _q("lr-1", "limit range", "How many qubits have T1 between 55 and 80 μs?",
           _count(db, {"t1": lambda v: 55 < v < 80})),
        _q("lr-2", "limit range", "How many qubits have T1 below 40 or above 90 μs?",
           _count(db, {"t1": lambda v: v < 40 or v > 90})),
        _q("lr-3", "limit range", "How many qubits have T2 echo below 50 and above 100 us?",
           _count(db, {"t2_echo": lambda v: v < 50 or v > 100})),
        _q("lr-4", "limit range", "Count the qubits whose T2 echo is outside 60-90 us.",
           _count(db, {"t2_echo": lambda v: v < 60 or v > 90})),
        _q("lr-5", "limit range", "How many qubits have a qubit frequency between 4.9 and 5.1 GHz?",
           _count(db, {"qubit_frequency": lambda v: 4.9 < v < 5.1})),
        _q("lr-6", "limit range", "How many qubits have T1 above 50 and below 85 μs?",
           _count(db, {"t1": lambda v: 50 < v < 85})),
    ]


def _unit(db) -> list[Question]:
    """No unit (the display unit), a fidelity as a fraction (shown in %), a time in ns or ms (shown in μs)."""
    return [
        _q("lu-1", "limit unit", "How many qubits have T1 above 40?", _count(db, {"t1": lambda v: v > 40})),
        _q("lu-2", "limit unit", "How many qubits have readout fidelity above 0.95?",
           _count(db, {"average_readout_fidelity": lambda v: v > 95.0})),
        _q("lu-3", "limit unit", "How many qubits have X90 gate fidelity above .998?",
           _count(db, {"x90_gate_fidelity": lambda v: v > 99.8})),
        _q("lu-4", "limit unit", "How many qubits have T1 below 50000 ns?", _count(db, {"t1": lambda v: v < 50})),
        _q("lu-5", "limit unit", "How many qubits have T2 echo above 0.06 ms?",
           _count(db, {"t2_echo": lambda v: v > 60})),
        _q("lu-6", "limit unit", "How many couplings have ZX90 gate fidelity below 0.97?",
           _count(db, {"zx90_gate_fidelity": lambda v: v < 97.0}, "coupling")),
    ]


def build(db) -> list[Question]:
    return _metric(db) + _range(db) + _unit(db)
