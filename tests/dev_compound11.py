"""Dev questions with two or more conditions, in wordings of my own, for the failures of compound filters that
reach no full filter: joins written "yet", "while", "and also", "at the same time", "as well as", "with ... and ...";
one limit shared by two metrics; a limit plus a quality word; a count asked ("how many ..."); spelled-out units
("microseconds", "megahertz", "per cent"); ranges written "between A and B" / "from A to B"; physics names ("energy
relaxation time", "Hahn echo dephasing time", "Ramsey decay time"); typed-fast comparisons ("abov", "belw"); and a lone
limit with a second metric named without one ("qubits with T1 above 30 μs, what is their readout fidelity": a filter
on T1 only).  ``count`` marks a question that asks how many: the answer leads with that count.

Truths are the hand-written pymongo reads of :mod:`tests.dev_compound8` (newest completed, non-excluded value per
subject, 0 or NaN missing); every limit below is written out by hand, a quality word as the lab's band limit (good
readout fidelity: above 95%; good X90 gate fidelity: above 99.5%; poor T2 echo: below 30 μs).
``AFTER`` holds the wordings written after the fix, to attack it.
"""

from __future__ import annotations

from dataclasses import dataclass

from tests.dev_compound8 import GT, RO, T1, T2, T2S, X90, ZX, Test, _c, _f
from tests.dev_compound8 import Case as _Case
from tests.public_eval import CHIP, OTHER

FQ = "qubit_frequency"


@dataclass(frozen=True)
class Case(_Case):
    count: bool = False  # the question asks how many


def _one(metric: str, **sides) -> tuple[str, dict]:
    return "filter_metric", {"metric_name": metric, **sides}


def _q(cid: str, text: str, tests: tuple[tuple[str, Test], ...], call: tuple[str, dict], *, chip: str = CHIP,
       kind: str = "qubit", join: str = "and", count: bool = False) -> Case:
    return Case(cid, text, chip, kind, join, tests, call, count)


BEFORE: tuple[Case, ...] = (
    _q("c11-shared-count", "How many qubits have both T1 and T2 echo above 30 us?",
       ((T1, lambda v: v > 30), (T2, lambda v: v > 30)), _f("and", _c(T1, above=30), _c(T2, above=30)), count=True),
    _q("c11-shared-words", "How many qubits have T1 and T2 echo both over 40 microseconds?",
       ((T1, lambda v: v > 40), (T2, lambda v: v > 40)), _f("and", _c(T1, above=40), _c(T2, above=40)), count=True),
    _q("c11-microsec", "Which qubits have T1 above 40 microseconds and T2 echo above 30 microsec?",
       ((T1, lambda v: v > 40), (T2, lambda v: v > 30)), _f("and", _c(T1, above=40), _c(T2, above=30))),
    _q("c11-quality-1", "which qubits have good readout fidelity and T1 above 50 us",
       ((T1, lambda v: v > 50), (RO, lambda v: v > 95)), _f("and", _c(T1, above=50), _c(RO, above=95))),
    _q("c11-percent", "how many qubits have T1 above 50 us but readout fidelity under 93 percent",
       ((T1, lambda v: v > 50), (RO, lambda v: v < 93)), _f("and", _c(T1, above=50), _c(RO, below=93)), count=True),
    _q("c11-percent-2", "qubits with T1 above 45 us while readout fidelity is below 93 per cent",
       ((T1, lambda v: v > 45), (RO, lambda v: v < 93)), _f("and", _c(T1, above=45), _c(RO, below=93))),
    _q("c11-yet", "Which qubits have T1 over 45 us yet T2 echo under 30 us?",
       ((T1, lambda v: v > 45), (T2, lambda v: v < 30)), _f("and", _c(T1, above=45), _c(T2, below=30))),
    _q("c11-andalso", "Which qubits have T1 over 45 us, and also T2 echo over 30 us?",
       ((T1, lambda v: v > 45), (T2, lambda v: v > 30)), _f("and", _c(T1, above=45), _c(T2, above=30))),
    _q("c11-sametime", "Which qubits have T1 over 45 us and at the same time readout fidelity above 95%?",
       ((T1, lambda v: v > 45), (RO, lambda v: v > 95)), _f("and", _c(T1, above=45), _c(RO, above=95))),
    _q("c11-with-with", "qubits with T1 over 45us with T2 echo over 30us and readout fidelity over 92%",
       ((T1, lambda v: v > 45), (T2, lambda v: v > 30), (RO, lambda v: v > 92)),
       _f("and", _c(T1, above=45), _c(T2, above=30), _c(RO, above=92))),
    _q("c11-lone-1", "qubits with T1 above 30 μs, what is their readout fidelity", ((T1, lambda v: v > 30),),
       _one(T1, above=30)),
    _q("c11-lone-2", "For qubits with T1 above 60 us, what's their readout fidelity?", ((T1, lambda v: v > 60),),
       _one(T1, above=60)),
    _q("c11-from-to", "Which qubits have T1 from 40 to 60 us and T2 echo above 30 us?",
       ((T1, lambda v: 40 < v < 60), (T2, lambda v: v > 30)),
       _f("and", _c(T1, above=40), _c(T1, below=60), _c(T2, above=30))),
    _q("c11-energy", "how many qubits have energy relaxation time above 50 us and T2 echo above 30 us",
       ((T1, lambda v: v > 50), (T2, lambda v: v > 30)), _f("and", _c(T1, above=50), _c(T2, above=30)), count=True),
    _q("c11-megahertz", "which qubits have frequency above 5100 megahertz and T1 above 40 us",
       ((FQ, lambda v: v > 5.1), (T1, lambda v: v > 40)), _f("and", _c(FQ, above=5.1), _c(T1, above=40))),
    _q("c11-typo", "hw many qubits hav T1 abov 40 us and T2 echo abov 30 us",
       ((T1, lambda v: v > 40), (T2, lambda v: v > 30)), _f("and", _c(T1, above=40), _c(T2, above=30)), count=True),
    _q("c11-signs", "Count the qubits where T1 > 40 us and T2 echo > 30 us.",
       ((T1, lambda v: v > 40), (T2, lambda v: v > 30)), _f("and", _c(T1, above=40), _c(T2, above=30)), count=True),
    _q("c11-between-and", "Which qubits have T2 echo between 20 and 40 microseconds and T1 above 30 us?",
       ((T2, lambda v: 20 < v < 40), (T1, lambda v: v > 30)),
       _f("and", _c(T2, above=20), _c(T2, below=40), _c(T1, above=30))),
    _q("c11-ramsey", "Which qubits have a Ramsey decay time above 20 us and T1 above 40 us?",
       ((T2S, lambda v: v > 20), (T1, lambda v: v > 40)), _f("and", _c(T2S, above=20), _c(T1, above=40))),
    _q("c11-poor-but", "Which qubits have a poor T2 echo but a readout fidelity above 90%?",
       ((RO, lambda v: v > 90), (T2, lambda v: v < 30)), _f("and", _c(RO, above=90), _c(T2, below=30))),
    _q("c11-cz-words", "Which couplings have CZ fidelity above 95 percent and gate time under 300 nanoseconds?",
       ((ZX, lambda v: v > 95), (GT, lambda v: v < 300)), _f("and", _c(ZX, above=95), _c(GT, below=300)),
       kind="coupling"),
    _q("c11-other-count", "How many qubits have T1 above 40 us and T2 echo above 30 us on 144Qv2?",
       ((T1, lambda v: v > 40), (T2, lambda v: v > 30)), _f("and", _c(T1, above=40), _c(T2, above=30)),
       chip=OTHER, count=True),
)

AFTER: tuple[Case, ...] = (  # written after the fix, to attack it
    _q("c11a-hahn", "which qubits have a Hahn echo dephasing time above 35 microseconds and T1 above 45 us?",
       ((T2, lambda v: v > 35), (T1, lambda v: v > 45)), _f("and", _c(T2, above=35), _c(T1, above=45))),
    _q("c11a-from-pct", "How many qubits have a readout fidelity from 90 to 95 per cent and T1 above 30 us?",
       ((RO, lambda v: 90 < v < 95), (T1, lambda v: v > 30)),
       _f("and", _c(RO, above=90), _c(RO, below=95), _c(T1, above=30)), count=True),
    _q("c11a-from-units", "qubits w/ T1 from 30 us to 50 us as well as T2 echo over 25 us pls",
       ((T1, lambda v: 30 < v < 50), (T2, lambda v: v > 25)),
       _f("and", _c(T1, above=30), _c(T1, below=50), _c(T2, above=25))),
    _q("c11a-lone-3", "Of the qubits with T2 echo below 40 us, how good is their T1?", ((T2, lambda v: v < 40),),
       _one(T2, below=40)),
    _q("c11a-lone-4", "show me qubits having readout fidelity over 94% and tell me their X90 gate fidelity",
       ((RO, lambda v: v > 94),), _one(RO, above=94)),
    _q("c11a-typo-below", "which qubits hve T1 abve 40 us and T2 echo belw 30 us",
       ((T1, lambda v: v > 40), (T2, lambda v: v < 30)), _f("and", _c(T1, above=40), _c(T2, below=30))),
    _q("c11a-shared-usec", "how many qubits have both T1 as well as T2 echo above 25 usec?",
       ((T1, lambda v: v > 25), (T2, lambda v: v > 25)), _f("and", _c(T1, above=25), _c(T2, above=25)), count=True),
    _q("c11a-ghz", "Which qubits sit above 5.1 gigahertz in qubit frequency while keeping T1 above 35 us?",
       ((FQ, lambda v: v > 5.1), (T1, lambda v: v > 35)), _f("and", _c(FQ, above=5.1), _c(T1, above=35))),
    _q("c11a-x90-good", "how many qubits have T1 above 40 us and good X90 gate fidelity",
       ((T1, lambda v: v > 40), (X90, lambda v: v > 99.5)), _f("and", _c(T1, above=40), _c(X90, above=99.5)),
       count=True),
    _q("c11a-good-yet", "Which qubits have a good readout fidelity yet a T2 echo under 50 microseconds?",
       ((T2, lambda v: v < 50), (RO, lambda v: v > 95)), _f("and", _c(T2, below=50), _c(RO, above=95))),
    _q("c11a-relax-count", "Number of qubits whose relaxation time exceeds 50 microsec and whose Ramsey dephasing time "
       "exceeds 20 microsec?", ((T1, lambda v: v > 50), (T2S, lambda v: v > 20)),
       _f("and", _c(T1, above=50), _c(T2S, above=20)), count=True),
    _q("c11a-other-from", "On 144Qv2, which qubits have T2 echo from 30 to 60 us but T1 under 50 us?",
       ((T2, lambda v: 30 < v < 60), (T1, lambda v: v < 50)),
       _f("and", _c(T2, above=30), _c(T2, below=60), _c(T1, below=50)), chip=OTHER),
    _q("c11a-cz-ns", "how many couplings have 2Q gate fidelity greater then 96 percent and gate time below 280 "
       "nanosec", ((ZX, lambda v: v > 96), (GT, lambda v: v < 280)),
       _f("and", _c(ZX, above=96), _c(GT, below=280)), kind="coupling", count=True),
)

CASES: tuple[Case, ...] = BEFORE + AFTER
