"""Dev questions, in wordings of my own, that hold an error (1 − fidelity) to a number: "readout error below 4%",
"CZ error of at most 0.02", "infidelity under 3e-2", "misassignment", "one minus the readout fidelity", "2Q error".
The catalogue holds fidelities, so each limit is the fidelity's with its side and value turned (below N% error:
above 100 − N% fidelity; a value of at most 1 written without "%" is a fraction).

Shapes: compound filter, share, yes/no verdict, cross-chip share, and a window count's limit.  Truths are hand-written
pymongo reads (:func:`tests.dev_compound12.latest`: the newest completed, non-excluded value in %); every ``Test``
below is written in the *error's* terms (``100 - v``), so the turned limit is never computed by the code under test.
``AFTER`` holds wordings written after the fix, to attack it.
"""

from __future__ import annotations

from dataclasses import dataclass

from tests.dev_compound8 import RO, T1, X90, ZX, Test, _c, _f
from tests.dev_compound12 import Case, _one, _q
from tests.public_eval import CHIP, OTHER


def err(v: float) -> float:
    """A fidelity in % as its error in %."""
    return 100.0 - v


BEFORE: tuple[Case, ...] = (
    _q("e15-ro-pct-t1", "Which qubits have a readout error below 4% and T1 above 40 us?",
       ((RO, lambda v: err(v) < 4), (T1, lambda v: v > 40)), _f("and", _c(RO, above=96), _c(T1, above=40))),
    _q("e15-ro-fraction", "list the qubits whose readout error is under 0.05 and whose T1 exceeds 50 us",
       ((RO, lambda v: err(v) < 5), (T1, lambda v: v > 50)), _f("and", _c(RO, above=95), _c(T1, above=50))),
    _q("e15-infid-exp", "qubits with readout infidelity below 6e-2 and T1 over 45 us",
       ((RO, lambda v: err(v) < 6), (T1, lambda v: v > 45)), _f("and", _c(RO, above=94), _c(T1, above=45))),
    _q("e15-atmost", "Which qubits have readout error of at most 3% and T1 of at least 40 us?",
       ((RO, lambda v: err(v) <= 3), (T1, lambda v: v >= 40)),
       _f("and", _c(RO, above=97, including=["above"]), _c(T1, above=40, including=["above"]))),
    _q("e15-nomore", "how many qubits have a readout error no more than 5 percent and T1 above 60 us",
       ((RO, lambda v: err(v) <= 5), (T1, lambda v: v > 60)),
       _f("and", _c(RO, above=95, including=["above"]), _c(T1, above=60)), count=True),
    _q("e15-exceeding", "Which qubits have a readout error exceeding 10% and T1 above 40 us?",
       ((RO, lambda v: err(v) > 10), (T1, lambda v: v > 40)), _f("and", _c(RO, below=90), _c(T1, above=40))),
    _q("e15-x90-err", "Which qubits have X90 gate error below 0.2% and T1 above 50 us?",
       ((X90, lambda v: err(v) < 0.2), (T1, lambda v: v > 50)), _f("and", _c(X90, above=99.8), _c(T1, above=50))),
    _q("e15-cz-err", "Which couplings have a CZ error less than 1.5%?", ((ZX, lambda v: err(v) < 1.5),),
       _one(ZX, above=98.5), kind="coupling"),
    _q("e15-2q-frac", "which couplings have 2Q error under 0.03", ((ZX, lambda v: err(v) < 3),),
       _one(ZX, above=97), kind="coupling"),
    _q("e15-misassign", "Which qubits have misassignment below 5 percent and T1 above 70 us?",
       ((RO, lambda v: err(v) < 5), (T1, lambda v: v > 70)), _f("and", _c(RO, above=95), _c(T1, above=70))),
    _q("e15-one-minus", "Which qubits have one minus the readout fidelity under 0.04 and T1 above 50 us?",
       ((RO, lambda v: err(v) < 4), (T1, lambda v: v > 50)), _f("and", _c(RO, above=96), _c(T1, above=50))),
    _q("e15-share-ro", "What percentage of qubits have a readout error below 5%?", ((RO, lambda v: err(v) < 5),),
       _one(RO, above=95), share=True),
    _q("e15-share-frac", "what share of qubits have readout error under 0.1", ((RO, lambda v: err(v) < 10),),
       _one(RO, above=90), share=True),
    _q("e15-share-cz", "What fraction of couplings have a CZ error above 2%?", ((ZX, lambda v: err(v) > 2),),
       _one(ZX, below=98), kind="coupling", share=True),
    _q("e15-other-ro", "On 144Qv2, which qubits have readout error below 3% and T1 above 50 us?",
       ((RO, lambda v: err(v) < 3), (T1, lambda v: v > 50)), _f("and", _c(RO, above=97), _c(T1, above=50)),
       chip=OTHER),
    _q("e15-other-count", "On 144Qv2, how many couplings have CZ error below 1%?", ((ZX, lambda v: err(v) < 1),),
       _one(ZX, above=99), chip=OTHER, kind="coupling", count=True),
)


@dataclass(frozen=True)
class Asked:
    """A yes/no, a cross-chip share or a window count: the fidelity limit the question must be read as."""

    id: str
    text: str
    metric: str
    side: str  # the fidelity's side
    value: float  # the fidelity's limit, in %
    test: Test  # the error's condition, on a fidelity in %
    qid: str | None = None
    chip: str = CHIP


VERDICTS: tuple[Asked, ...] = (
    Asked("e15-yn-ro", "Is Q05's readout error under 3%?", RO, "above", 97, lambda v: err(v) < 3, "5"),
    Asked("e15-yn-frac", "is the readout error of Q12 below 0.08?", RO, "above", 92, lambda v: err(v) < 8, "12"),
    Asked("e15-yn-x90", "Does qubit 9 have an X90 gate error above 0.1%?", X90, "below", 99.9,
          lambda v: err(v) > 0.1, "9"),
    Asked("e15-yn-other", "On 144Qv2, is Q20's readout error less than 4%?", RO, "above", 96,
          lambda v: err(v) < 4, "20", OTHER),
)
CROSS: tuple[Asked, ...] = (
    Asked("e15-x-cz", "Across both chips, what share of couplings have a CZ error below 2%?", ZX, "above", 98,
          lambda v: err(v) < 2),
    Asked("e15-x-ro", "Pooled over both chips, what percentage of qubits have readout error under 0.05?", RO,
          "above", 95, lambda v: err(v) < 5),
)
WINDOWS: tuple[Asked, ...] = (  # a window count's limit: read on the fidelity (no tool counts a window by a limit)
    Asked("e15-w-ro", "how many times in the last 30 days was Q05's readout error above 5%?", RO, "below", 95,
          lambda v: err(v) > 5, "5"),
    Asked("e15-w-frac", "in the past 2 weeks, how often did Q03 have a readout error under 0.04?", RO, "above", 96,
          lambda v: err(v) < 4, "3"),
)

AFTER: tuple[Case, ...] = (  # written after the fix, to attack it
    _q("e15a-gate-err", "qubits whose X90 error stays below 0.15% while T1 is over 40 us",
       ((X90, lambda v: err(v) < 0.15), (T1, lambda v: v > 40)), _f("and", _c(X90, above=99.85), _c(T1, above=40))),
    _q("e15a-cz-rate", "couplings with a CZ error rate of no more than 0.01", ((ZX, lambda v: err(v) <= 1),),
       _one(ZX, above=99, including=["above"]), kind="coupling"),
    _q("e15a-sign", "qubits with readout error < 0.07 and T1 > 55 us",
       ((RO, lambda v: err(v) < 7), (T1, lambda v: v > 55)), _f("and", _c(RO, above=93), _c(T1, above=55))),
    _q("e15a-infid-pct", "How many qubits show a readout infidelity greater than 8 percent?",
       ((RO, lambda v: err(v) > 8),), _one(RO, below=92), count=True),
    _q("e15a-two-qubit", "On 144Qv2 which couplings have a two-qubit error beneath 1.2%?",
       ((ZX, lambda v: err(v) < 1.2),), _one(ZX, above=98.8), kind="coupling", chip=OTHER),
    _q("e15a-share-mis", "what proportion of qubits have a misassignment rate above 0.1",
       ((RO, lambda v: err(v) > 10),), _one(RO, below=90), share=True),
    _q("e15a-range", "which qubits have readout error between 2% and 4%", ((RO, lambda v: 2 < err(v) < 4),),
       _one(RO, above=96, below=98)),
    _q("e15a-range-frac", "On 144Qv2, which couplings have a CZ error between 0.01 and 0.02?",
       ((ZX, lambda v: 1 < err(v) < 2),), _one(ZX, above=98, below=99), kind="coupling", chip=OTHER),
)
AFTER_ASKED: tuple[Asked, ...] = (
    Asked("e15a-yn-cz", "is the CZ error of coupling Q00-Q01 at most 2%?", ZX, "above", 98, lambda v: err(v) <= 2),
    Asked("e15a-yn-infid", "Q09: is its readout infidelity above 0.1?", RO, "below", 90, lambda v: err(v) > 10, "9"),
)

CASES = BEFORE + AFTER
