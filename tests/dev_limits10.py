"""Dev questions for two failure classes of compound filters, in wordings of my own.

A. A limit's unit (and size) says whose limit it is: "above 5,000 MHz" next to an anharmonicity is a qubit
frequency's, "above 0.05 ms" is a time, "0.95" of a fidelity is 95%; thousands separators ("60,000 ns"), kHz, ms,
ns and fractions, a limit written before its metric or after it.  A limit no metric the question names can hold
("T1 above 5 GHz", "anharmonicity above 7.1 GHz") is said, never filtered on silently (:data:`UNFIT`).
B. Every condition reaches the call: "as well as", "while also", "that also have", "but also", "plus", commas, a
condition in words ("short T2 echo") beside a number, and one limit shared by two metrics ("both T1 and T2 echo
above 50 μs").

Each case carries the router's call, written by hand.  Every truth is a pymongo read written here over the raw
``task_result_history`` documents: per subject, the newest completed, non-excluded result holding the parameter, a
stored 0 or NaN being missing; stored values are put in display units by the scale written here by hand (fidelities
are fractions shown in %, anharmonicity is GHz shown in MHz).  A condition holds where the subject has a value.
The questions from ``lx-`` on were written after the fix, to attack it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from tests.public_eval import CHIP, OTHER

Test = Callable[[float], bool]
T1, T2, T2S, RO, X90 = "t1", "t2_echo", "t2_star", "average_readout_fidelity", "x90_gate_fidelity"
QF, RF, ANH, ZX, GT, BELL = ("qubit_frequency", "readout_frequency", "anharmonicity", "zx90_gate_fidelity",
                             "zx90_gate_time", "bell_state_fidelity")
SCALE = {RO: 100.0, X90: 100.0, ZX: 100.0, BELL: 100.0, ANH: 1000.0}  # stored -> shown; the rest as stored


@dataclass(frozen=True)
class Case:
    id: str
    text: str
    chip: str
    kind: str  # "qubit" or "coupling"
    tests: tuple[tuple[str, Test], ...]  # joined with "and"
    call: tuple[str, dict] | None  # the router's call, written by hand (chip_id left out); None: no call


@dataclass(frozen=True)
class Unfit(Case):
    """A question with a limit no metric it names can hold: ``metric`` the one written next to it, ``said`` the
    limit as the note writes it."""

    metric: str = ""
    said: str = ""


def _usable(raw: object) -> bool:
    return isinstance(raw, (int, float)) and not isinstance(raw, bool) and math.isfinite(raw) and raw != 0


def latest(db, chip: str, name: str, kind: str) -> dict[str, float | None]:
    """Subject ("5", or "a-b" with a < b) -> its newest completed, non-excluded value in display units; None when
    that value is 0 or NaN."""
    newest: dict[str, dict] = {}
    for doc in db["task_result_history"].find({"chip_id": chip, "task_type": kind, "status": "completed",
                                               "excluded": {"$ne": True},
                                               f"output_parameters.{name}": {"$exists": True}}):
        key = "-".join(sorted(doc["qid"].split("-"), key=int)) if kind == "coupling" else doc["qid"]
        if key not in newest or doc["start_at"] > newest[key]["start_at"]:
            newest[key] = doc
    out: dict[str, float | None] = {}
    for key, doc in newest.items():
        raw = doc["output_parameters"][name]["value"]
        out[key] = raw * SCALE.get(name, 1.0) if _usable(raw) else None
    return out


def truth(db, case: Case) -> set[str]:
    """The subjects with a value of every metric the case tests, meeting every test."""
    values = [(latest(db, case.chip, name, case.kind), test) for name, test in case.tests]
    keys = set.intersection(*(set(k for k, v in found.items() if v is not None) for found, _ in values))
    return {k for k in keys if all(test(found[k]) for found, test in values)}  # type: ignore[arg-type]


def _f(*conditions: dict) -> tuple[str, dict]:
    if len(conditions) == 1:
        return "filter_metric", dict(conditions[0])
    return "filter_metrics", {"join": "and", "conditions": list(conditions)}


def _c(metric: str, **sides) -> dict:
    return {"metric_name": metric, **sides}


CASES: tuple[Case, ...] = (
    # A: the unit says which metric; separators; before and after
    Case("la-mhz-sep", "Which qubits have an anharmonicity below -300 MHz and a qubit frequency above 5,000 MHz?",
         CHIP, "qubit", ((ANH, lambda v: v < -300), (QF, lambda v: v > 5.0)),
         _f(_c(ANH, below=-300.0), _c(QF, above=5.0))),
    Case("la-ghz-while", "Which qubits have anharmonicity under -280 MHz while their qubit frequency is over 4.9 GHz?",
         CHIP, "qubit", ((ANH, lambda v: v < -280), (QF, lambda v: v > 4.9)),
         _f(_c(ANH, below=-280.0), _c(QF, above=4.9))),
    Case("la-moved-after", "Which qubits with anharmonicity below -290 MHz sit above 5.1 GHz in qubit frequency?",
         CHIP, "qubit", ((ANH, lambda v: v < -290), (QF, lambda v: v > 5.1)),
         _f(_c(ANH, below=-290.0), _c(QF, above=5.1))),
    Case("la-before", "Which qubits are above 4,950 MHz of qubit frequency and below -300 MHz of anharmonicity?",
         CHIP, "qubit", ((QF, lambda v: v > 4.95), (ANH, lambda v: v < -300)),
         _f(_c(QF, above=4.95), _c(ANH, below=-300.0))),
    Case("la-readout-freq", "List the qubits whose readout frequency is above 7,000 MHz and whose T1 is above 50 us.",
         CHIP, "qubit", ((RF, lambda v: v > 7.0), (T1, lambda v: v > 50)), _f(_c(RF, above=7.0), _c(T1, above=50.0))),
    Case("la-ms-ns", "Which qubits have a T1 above 0.05 ms and a T2 echo above 60,000 ns?", CHIP, "qubit",
         ((T1, lambda v: v > 50), (T2, lambda v: v > 60)), _f(_c(T1, above=50.0), _c(T2, above=60.0))),
    Case("la-us-gate", "Which couplings have a gate time below 0.25 μs and a ZX90 gate fidelity above 97%?", CHIP,
         "coupling", ((GT, lambda v: v < 250), (ZX, lambda v: v > 97)), _f(_c(GT, below=250.0), _c(ZX, above=97.0))),
    Case("la-other-mhz", "On 144Qv2, which qubits have a qubit frequency under 5,100 MHz and an anharmonicity above "
         "-270 MHz?", OTHER, "qubit", ((QF, lambda v: v < 5.1), (ANH, lambda v: v > -270)),
         _f(_c(QF, below=5.1), _c(ANH, above=-270.0))),
    Case("la-other-ns", "Which qubits on 144Qv2 have a T2* above 30,000 ns and a T1 below 80 us?", OTHER, "qubit",
         ((T2S, lambda v: v > 30), (T1, lambda v: v < 80)), _f(_c(T2S, above=30.0), _c(T1, below=80.0))),
    Case("la-fraction", "Which qubits have a readout fidelity above 0.95 and an X90 gate fidelity above 99.8%?", CHIP,
         "qubit", ((RO, lambda v: v > 95), (X90, lambda v: v > 99.8)), _f(_c(RO, above=95.0), _c(X90, above=99.8))),
    Case("la-ghz-anh", "Which qubits have anharmonicity below -0.3 GHz and qubit frequency above 4,800 MHz?", CHIP,
         "qubit", ((ANH, lambda v: v < -300), (QF, lambda v: v > 4.8)), _f(_c(ANH, below=-300.0), _c(QF, above=4.8))),
    Case("la-moved-with", "Which qubits have an anharmonicity of less than -300 MHz with more than 5.0 GHz qubit "
         "frequency?", CHIP, "qubit", ((ANH, lambda v: v < -300), (QF, lambda v: v > 5.0)),
         _f(_c(ANH, below=-300.0), _c(QF, above=5.0))),
    Case("la-other-claimed", "On 144Qv2, which qubits have anharmonicity above -260 MHz and over 5,200 MHz of qubit "
         "frequency?", OTHER, "qubit", ((ANH, lambda v: v > -260), (QF, lambda v: v > 5.2)),
         _f(_c(ANH, above=-260.0), _c(QF, above=5.2))),
    Case("la-khz", "Which qubits have anharmonicity below -300,000 kHz and T1 above 50 us?", CHIP, "qubit",
         ((ANH, lambda v: v < -300), (T1, lambda v: v > 50)), _f(_c(ANH, below=-300.0), _c(T1, above=50.0))),
    # B: every condition reaches the call
    Case("lb-both", "Which qubits have both T1 and T2 echo above 50 us?", CHIP, "qubit",
         ((T1, lambda v: v > 50), (T2, lambda v: v > 50)), _f(_c(T1, above=50.0), _c(T2, above=50.0))),
    Case("lb-both-after", "Which qubits have T1 and T2 echo both above 45 us?", CHIP, "qubit",
         ((T1, lambda v: v > 45), (T2, lambda v: v > 45)), _f(_c(T1, above=45.0), _c(T2, above=45.0))),
    Case("lb-aswell-shared", "Which qubits have T1 as well as T2 echo above 40 us and readout fidelity above 92%?",
         CHIP, "qubit", ((T1, lambda v: v > 40), (T2, lambda v: v > 40), (RO, lambda v: v > 92)),
         _f(_c(T1, above=40.0), _c(T2, above=40.0), _c(RO, above=92.0))),
    Case("lb-other-both", "On 144Qv2, which qubits have both T1 and T2 echo above 60 us?", OTHER, "qubit",
         ((T1, lambda v: v > 60), (T2, lambda v: v > 60)), _f(_c(T1, above=60.0), _c(T2, above=60.0))),
    Case("lb-while-also", "Which qubits have T1 above 50 us while also having readout fidelity under 94%?", CHIP,
         "qubit", ((T1, lambda v: v > 50), (RO, lambda v: v < 94)), _f(_c(T1, above=50.0), _c(RO, below=94.0))),
    Case("lb-plus-plus", "Which qubits with a T1 over 45 us plus a T2 echo over 50 us plus an X90 gate fidelity over "
         "99.7%?", CHIP, "qubit", ((T1, lambda v: v > 45), (T2, lambda v: v > 50), (X90, lambda v: v > 99.7)),
         _f(_c(T1, above=45.0), _c(T2, above=50.0), _c(X90, above=99.7))),
    Case("lb-that-also", "Which qubits have a T2 echo above 60 us that also have a readout fidelity above 95%?", CHIP,
         "qubit", ((T2, lambda v: v > 60), (RO, lambda v: v > 95)), _f(_c(T2, above=60.0), _c(RO, above=95.0))),
    Case("lb-word-but-also", "Which qubits have a short T2 echo but also a T1 above 40 us?", CHIP, "qubit",
         ((T1, lambda v: v > 40), (T2, lambda v: v < 30)), _f(_c(T1, above=40.0), _c(T2, below=30))),
    Case("lb-commas", "Which qubits have T1 above 60 us, T2 echo above 50 us, T2* above 30 us?", CHIP, "qubit",
         ((T1, lambda v: v > 60), (T2, lambda v: v > 50), (T2S, lambda v: v > 30)),
         _f(_c(T1, above=60.0), _c(T2, above=50.0), _c(T2S, above=30.0))),
    Case("lb-other-word", "On 144Qv2, which qubits have high readout fidelity as well as T1 above 50 us?", OTHER,
         "qubit", ((T1, lambda v: v > 50), (RO, lambda v: v > 95)), _f(_c(T1, above=50.0), _c(RO, above=95))),
    Case("lb-cz-aswell", "Which couplings have a ZX90 gate fidelity above 98% as well as a gate time below 200 ns?",
         CHIP, "coupling", ((ZX, lambda v: v > 98), (GT, lambda v: v < 200)),
         _f(_c(ZX, above=98.0), _c(GT, below=200.0))),
    Case("lb-other-cz", "On 144Qv2, which couplings have a ZX90 gate fidelity above 97% but also a gate time above "
         "300 ns?", OTHER, "coupling", ((ZX, lambda v: v > 97), (GT, lambda v: v > 300)),
         _f(_c(ZX, above=97.0), _c(GT, above=300.0))),
    Case("lb-long-word", "Which qubits have a long T1 and a readout fidelity under 90%?", CHIP, "qubit",
         ((RO, lambda v: v < 90), (T1, lambda v: v > 50)), _f(_c(RO, below=90.0), _c(T1, above=50))),
    Case("lb-other-keeping", "How many qubits on 144Qv2 have T1 above 40 us while also keeping T2 echo above 40 us?",
         OTHER, "qubit", ((T1, lambda v: v > 40), (T2, lambda v: v > 40)), _f(_c(T1, above=40.0), _c(T2, above=40.0))),
    # written after the fix, to attack it
    Case("lx-two-freqs", "Which qubits have a readout frequency above 6,950 MHz as well as a qubit frequency below "
         "5,000 MHz?", CHIP, "qubit", ((RF, lambda v: v > 6.95), (QF, lambda v: v < 5.0)),
         _f(_c(RF, above=6.95), _c(QF, below=5.0))),
    Case("lx-moved-of", "Which qubits show anharmonicity below -310 MHz and more than 5.2 GHz of qubit frequency?",
         CHIP, "qubit", ((ANH, lambda v: v < -310), (QF, lambda v: v > 5.2)),
         _f(_c(ANH, below=-310.0), _c(QF, above=5.2))),
    Case("lx-other-shared-ns", "Which qubits on 144Qv2 have both T2 echo and T2* above 40,000 ns?", OTHER, "qubit",
         ((T2, lambda v: v > 40), (T2S, lambda v: v > 40)), _f(_c(T2, above=40.0), _c(T2S, above=40.0))),
    Case("lx-shared-ms", "Which qubits have T1 and T2 echo both below 0.04 ms?", CHIP, "qubit",
         ((T1, lambda v: v < 40), (T2, lambda v: v < 40)), _f(_c(T1, below=40.0), _c(T2, below=40.0))),
    Case("lx-shared-cz", "Which couplings have both ZX90 gate fidelity and Bell state fidelity above 95%?", CHIP,
         "coupling", ((ZX, lambda v: v > 95), (BELL, lambda v: v > 95)), _f(_c(ZX, above=95.0), _c(BELL, above=95.0))),
    Case("lx-shared-fraction", "Which qubits have X90 gate fidelity and readout fidelity both above 0.97?", CHIP,
         "qubit", ((X90, lambda v: v > 97), (RO, lambda v: v > 97)), _f(_c(X90, above=97.0), _c(RO, above=97.0))),
    Case("lx-other-fronted", "Above 5,000 MHz of qubit frequency and below -290 MHz of anharmonicity: which qubits on "
         "144Qv2?", OTHER, "qubit", ((QF, lambda v: v > 5.0), (ANH, lambda v: v < -290)),
         _f(_c(QF, above=5.0), _c(ANH, below=-290.0))),
    Case("lx-word-two-numbers", "Which qubits have a long T2 echo, a T1 above 50 us and a readout fidelity above 93%?",
         CHIP, "qubit", ((T1, lambda v: v > 50), (RO, lambda v: v > 93), (T2, lambda v: v > 80)),
         _f(_c(T1, above=50.0), _c(RO, above=93.0), _c(T2, above=80))),
    Case("lx-trailing", "Which qubits combine anharmonicity above -250 MHz with 4,800 MHz or more of qubit frequency?",
         CHIP, "qubit", ((ANH, lambda v: v > -250), (QF, lambda v: v >= 4.8)),
         _f(_c(ANH, above=-250.0), _c(QF, above=4.8, including=["above"]))),
)

# A limit no metric the question names can hold: the filter of the others (or none), and a note.
UNFIT: tuple[Unfit, ...] = (
    Unfit("lu-t1-ghz", "Which qubits have T1 above 5 GHz?", CHIP, "qubit", (), None, T1, "5 GHz"),
    Unfit("lu-anh-ghz", "Which qubits have anharmonicity above 7.1 GHz?", CHIP, "qubit", (), None, ANH, "7.1 GHz"),
    Unfit("lu-t1-pct", "Which qubits have a T2 echo above 40 us and a T1 above 60%?", CHIP, "qubit",
          ((T2, lambda v: v > 40),), _f(_c(T2, above=40.0)), T1, "60%"),
    Unfit("lu-gate-pct", "Which couplings have a ZX90 gate fidelity above 96% and a gate time above 97%?", CHIP,
          "coupling", ((ZX, lambda v: v > 96),), _f(_c(ZX, above=96.0)), GT, "97%"),
    Unfit("lu-other-shared", "On 144Qv2, which qubits have readout fidelity and T1 above 93%?", OTHER, "qubit",
          ((RO, lambda v: v > 93),), _f(_c(RO, above=93.0)), T1, "93%"),
    Unfit("lu-fronted-ghz", "Which qubits above 5.1 GHz have anharmonicity below -300 MHz?", CHIP, "qubit",
          ((ANH, lambda v: v < -300),), _f(_c(ANH, below=-300.0)), ANH, "5.1 GHz"),
    Unfit("lx-unitless-size", "Which qubits have qubit frequency above 5000 and T1 above 40 us?", CHIP, "qubit",
          ((T1, lambda v: v > 40),), _f(_c(T1, above=40.0)), QF, "5000"),
)
