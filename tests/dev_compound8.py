"""Dev questions with two or more conditions ("compound filters"), in wordings of my own: "and", "but", "as well as",
"both ... and", "while", "with ... plus ...", "either ... or", "among those with X, which have Y", "X but not Y",
"excluding those with ...", three conditions, couplings (CZ / 2Q gate fidelity and gate time), a limit joined with a
status (no valid value, or a band word), on 64Qv3 (the chip in view) and 144Qv2 (named).

Each question carries the call the router must make, written by hand.  Every truth is a pymongo read written here
over the raw ``task_result_history`` documents: the newest completed, non-excluded result per qubit (coupling) holding
the parameter, a value of 0 or NaN stored being missing; limits and the lab's band limits are written out by hand.
A condition on a metric is judged where the subject has a value of it (the filter's sentence says so: "with a value
of every one of ..."); "no valid X" holds where it has none.  An excluded condition ("but not T2 echo above 40 μs")
is its opposite with the limit included (T2 echo of at most 40 μs).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from tests.public_eval import CHIP, OTHER

Test = Callable[[float], bool]
MISSING = "missing"  # a status condition: no valid value


@dataclass(frozen=True)
class Case:
    id: str
    text: str
    chip: str
    kind: str  # "qubit" or "coupling"
    join: str  # "and" / "or"
    tests: tuple[tuple[str, Test | str], ...]  # (metric, test) or (metric, MISSING)
    call: tuple[str, dict]  # the router's call, written by hand (chip_id left out)


FRACTIONS = frozenset({"average_readout_fidelity", "x90_gate_fidelity", "zx90_gate_fidelity"})  # stored 0-1, shown in %


def scale(name: str) -> float:
    """Stored unit to display unit: a fidelity is a fraction shown in %; T1, T2 (μs) and gate time (ns) as stored."""
    return 100.0 if name in FRACTIONS else 1.0


def _usable(raw: object) -> bool:
    return isinstance(raw, (int, float)) and not isinstance(raw, bool) and math.isfinite(raw) and raw != 0


def latest(db, chip: str, name: str, kind: str) -> dict[str, float | None]:
    """Subject id (a coupling as "a-b" with a < b) -> its newest completed, non-excluded value (display units), None
    when that value is 0 or NaN."""
    newest: dict[str, dict] = {}
    for doc in db["task_result_history"].find({"chip_id": chip, "task_type": kind, "status": "completed",
                                               "excluded": {"$ne": True}, f"output_parameters.{name}":
                                               {"$exists": True}}):
        key = "-".join(sorted(doc["qid"].split("-"), key=int)) if kind == "coupling" else doc["qid"]
        if key not in newest or doc["start_at"] > newest[key]["start_at"]:
            newest[key] = doc
    return {k: (d["output_parameters"][name]["value"] * scale(name) if _usable(d["output_parameters"][name]["value"])
                else None) for k, d in newest.items()}


def subjects(db, chip: str, kind: str) -> set[str]:
    """Every qubit of the chip (by its size), or every coupling with a stored result."""
    if kind == "qubit":
        return {str(q) for q in range(int(db["chip"].find_one({"chip_id": chip})["size"]))}
    return {"-".join(sorted(d["qid"].split("-"), key=int))
            for d in db["task_result_history"].find({"chip_id": chip, "task_type": "coupling"})}


def truth(db, case: Case) -> set[str]:
    """The subjects meeting the case's conditions, joined as it asks."""
    values = {name: latest(db, case.chip, name, case.kind) for name, _ in case.tests}
    out = set()
    for s in subjects(db, case.chip, case.kind):
        verdicts = []
        for name, test in case.tests:
            v = values[name].get(s)
            verdicts.append((v is None) if test == MISSING else None if v is None else bool(test(v)))  # type: ignore
        if case.join == "and" and None not in verdicts and all(verdicts) or \
                case.join == "or" and any(x for x in verdicts if x is not None):
            out.add(s)
    return out


T1, T2, RO, X90 = "t1", "t2_echo", "average_readout_fidelity", "x90_gate_fidelity"
ZX, GT, T2S = "zx90_gate_fidelity", "zx90_gate_time", "t2_star"


def _f(join: str, *conditions: dict) -> tuple[str, dict]:
    return "filter_metrics", {"join": join, "conditions": list(conditions)}


def _c(metric: str, **sides) -> dict:
    return {"metric_name": metric, **sides}


CASES: tuple[Case, ...] = (
    Case("c8-and-1", "Which qubits have T1 above 45 us and T2 echo above 35 us?", CHIP, "qubit", "and",
         ((T1, lambda v: v > 45), (T2, lambda v: v > 35)), _f("and", _c(T1, above=45), _c(T2, above=35))),
    Case("c8-but-1", "Which qubits have a T1 above 40 us but a readout fidelity below 94%?", CHIP, "qubit", "and",
         ((T1, lambda v: v > 40), (RO, lambda v: v < 94)), _f("and", _c(T1, above=40), _c(RO, below=94))),
    Case("c8-aswell-1", "List the qubits with T1 over 55 us as well as an X90 gate fidelity above 99.6%.", CHIP,
         "qubit", "and", ((T1, lambda v: v > 55), (X90, lambda v: v > 99.6)),
         _f("and", _c(T1, above=55), _c(X90, above=99.6))),
    Case("c8-both-1", "Which qubits have both a T2 echo above 30 us and a readout fidelity above 92%?", CHIP, "qubit",
         "and", ((T2, lambda v: v > 30), (RO, lambda v: v > 92)), _f("and", _c(T2, above=30), _c(RO, above=92))),
    Case("c8-while-1", "Which qubits show T1 below 35 us while their T2 echo is above 25 us?", CHIP, "qubit", "and",
         ((T1, lambda v: v < 35), (T2, lambda v: v > 25)), _f("and", _c(T1, below=35), _c(T2, above=25))),
    Case("c8-plus-1", "Which qubits come with a T1 above 50 us plus a T2 echo under 45 us?", CHIP, "qubit", "and",
         ((T1, lambda v: v > 50), (T2, lambda v: v < 45)), _f("and", _c(T1, above=50), _c(T2, below=45))),
    Case("c8-either-1", "Which qubits have either a T1 below 25 us or a readout fidelity below 88%?", CHIP, "qubit",
         "or", ((T1, lambda v: v < 25), (RO, lambda v: v < 88)), _f("or", _c(T1, below=25), _c(RO, below=88))),
    Case("c8-among-1", "Among the qubits with T2 echo above 40 us, which have a readout fidelity under 95%?", CHIP,
         "qubit", "and", ((T2, lambda v: v > 40), (RO, lambda v: v < 95)),
         _f("and", _c(T2, above=40), _c(RO, below=95))),
    Case("c8-butnot-1", "Which qubits have T1 above 45 us but not T2 echo above 40 us?", CHIP, "qubit", "and",
         ((T1, lambda v: v > 45), (T2, lambda v: v <= 40)),
         _f("and", _c(T1, above=45), _c(T2, below=40, including=["below"]))),
    Case("c8-excl-1", "Which qubits have a readout fidelity above 90%, excluding those with T1 below 30 us?", CHIP,
         "qubit", "and", ((RO, lambda v: v > 90), (T1, lambda v: v >= 30)),
         _f("and", _c(RO, above=90), _c(T1, above=30, including=["above"]))),
    Case("c8-three-1", "Which qubits have T1 above 40 us, T2 echo above 30 us and X90 gate fidelity above 99.5%?",
         CHIP, "qubit", "and", ((T1, lambda v: v > 40), (T2, lambda v: v > 30), (X90, lambda v: v > 99.5)),
         _f("and", _c(T1, above=40), _c(T2, above=30), _c(X90, above=99.5))),
    Case("c8-cz-1", "Which couplings have a CZ fidelity above 96% and a gate time below 300 ns?", CHIP, "coupling",
         "and", ((ZX, lambda v: v > 96), (GT, lambda v: v < 300)), _f("and", _c(ZX, above=96), _c(GT, below=300))),
    Case("c8-2q-1", "Which couplings have a 2Q gate fidelity over 95% but a ZX90 gate time above 250 ns?", CHIP,
         "coupling", "and", ((ZX, lambda v: v > 95), (GT, lambda v: v > 250)),
         _f("and", _c(ZX, above=95), _c(GT, above=250))),
    Case("c8-status-1", "Which qubits have T1 below 30 us or no valid T2 echo?", CHIP, "qubit", "or",
         ((T1, lambda v: v < 30), (T2, MISSING)), _f("or", _c(T1, below=30), _c(T2))),
    Case("c8-status-2", "Which qubits have a T1 below 60 us and a poor T2 echo?", CHIP, "qubit", "and",
         ((T1, lambda v: v < 60), (T2, lambda v: v < 30)), _f("and", _c(T1, below=60), _c(T2, below=30))),
    Case("c8-ormore-1", "Which qubits have a T1 of 50 us or more and a T2 echo of 40 us or more?", CHIP, "qubit",
         "and", ((T1, lambda v: v >= 50), (T2, lambda v: v >= 40)),
         _f("and", _c(T1, above=50, including=["above"]), _c(T2, above=40, including=["above"]))),
    Case("c8-count-1", "How many qubits have T1 above 40 us and T2 echo above 30 us?", CHIP, "qubit", "and",
         ((T1, lambda v: v > 40), (T2, lambda v: v > 30)), _f("and", _c(T1, above=40), _c(T2, above=30))),
    Case("c8-range-1", "Which qubits have a T2 echo above 30 us and a T1 either below 30 us or above 80 us?", CHIP,
         "qubit", "and", ((T2, lambda v: v > 30), (T1, lambda v: v < 30 or v > 80)),
         _f("and", _c(T2, above=30), _c(T1, below=30), _c(T1, above=80))),
    Case("c8-dont-1", "Which qubits with a T1 over 50 us don't have a T2 echo over 40 us?", CHIP, "qubit", "and",
         ((T1, lambda v: v > 50), (T2, lambda v: v <= 40)),
         _f("and", _c(T1, above=50), _c(T2, below=40, including=["below"]))),
    Case("c8-apart-1", "Which qubits have T1 above 35 us and readout fidelity above 92%, apart from the ones with "
         "X90 gate fidelity below 99.3%?", CHIP, "qubit", "and",
         ((T1, lambda v: v > 35), (RO, lambda v: v > 92), (X90, lambda v: v >= 99.3)),
         _f("and", _c(T1, above=35), _c(RO, above=92), _c(X90, above=99.3, including=["above"]))),
    Case("c8-or3-1", "Which qubits have T1 below 30 us or T2 echo below 20 us or readout fidelity below 86%?", CHIP,
         "qubit", "or", ((T1, lambda v: v < 30), (T2, lambda v: v < 20), (RO, lambda v: v < 86)),
         _f("or", _c(T1, below=30), _c(T2, below=20), _c(RO, below=86))),
    Case("c8-relax-1", "Which qubits have a relaxation time above 60 us and a T2 echo above 30 us?", CHIP, "qubit",
         "and", ((T1, lambda v: v > 60), (T2, lambda v: v > 30)), _f("and", _c(T1, above=60), _c(T2, above=30))),
    Case("c8-status-3", "Which qubits are missing T2 star or have a readout fidelity below 88%?", CHIP, "qubit",
         "or", ((RO, lambda v: v < 88), (T2S, MISSING)), _f("or", _c(RO, below=88), _c(T2S))),
    Case("c8-other-and", "On 144Qv2, which qubits have T1 above 50 us and T2 echo above 40 us?", OTHER, "qubit",
         "and", ((T1, lambda v: v > 50), (T2, lambda v: v > 40)), _f("and", _c(T1, above=50), _c(T2, above=40))),
    Case("c8-other-but", "Which qubits on 144Qv2 have T1 above 45 us but readout fidelity below 93%?", OTHER, "qubit",
         "and", ((T1, lambda v: v > 45), (RO, lambda v: v < 93)), _f("and", _c(T1, above=45), _c(RO, below=93))),
    Case("c8-other-either", "On 144Qv2, which qubits have either T2 echo below 25 us or X90 gate fidelity below "
         "99.3%?", OTHER, "qubit", "or", ((T2, lambda v: v < 25), (X90, lambda v: v < 99.3)),
         _f("or", _c(T2, below=25), _c(X90, below=99.3))),
    Case("c8-other-among", "Among the 144Qv2 qubits with readout fidelity above 94%, which have T1 below 40 us?",
         OTHER, "qubit", "and", ((RO, lambda v: v > 94), (T1, lambda v: v < 40)),
         _f("and", _c(RO, above=94), _c(T1, below=40))),
    Case("c8-other-butnot", "On 144Qv2, which qubits have T1 above 40 us but not readout fidelity below 90%?", OTHER,
         "qubit", "and", ((T1, lambda v: v > 40), (RO, lambda v: v >= 90)),
         _f("and", _c(T1, above=40), _c(RO, above=90, including=["above"]))),
    Case("c8-other-cz", "Which couplings on 144Qv2 have ZX90 gate fidelity above 97% and a CZ gate time under 280 ns?",
         OTHER, "coupling", "and", ((ZX, lambda v: v > 97), (GT, lambda v: v < 280)),
         _f("and", _c(ZX, above=97), _c(GT, below=280))),
    Case("c8-other-three", "On 144Qv2, which qubits have T1 above 40 us, T2 echo above 30 us and readout fidelity "
         "above 92%?", OTHER, "qubit", "and", ((T1, lambda v: v > 40), (T2, lambda v: v > 30), (RO, lambda v: v > 92)),
         _f("and", _c(T1, above=40), _c(T2, above=30), _c(RO, above=92))),
    Case("c8-other-status", "On 144Qv2, which qubits have a T1 below 20 us or no valid X90 gate fidelity?", OTHER,
         "qubit", "or", ((T1, lambda v: v < 20), (X90, MISSING)), _f("or", _c(T1, below=20), _c(X90))),
    Case("c8-other-while", "How many qubits on 144Qv2 have a T1 above 45 us while having a T2 echo below 50 us?",
         OTHER, "qubit", "and", ((T1, lambda v: v > 45), (T2, lambda v: v < 50)),
         _f("and", _c(T1, above=45), _c(T2, below=50))),
    Case("c8-other-bands", "Which qubits on 144Qv2 have a good readout fidelity but a T1 below 45 us?", OTHER,
         "qubit", "and", ((T1, lambda v: v < 45), (RO, lambda v: v > 95)),
         _f("and", _c(T1, below=45), _c(RO, above=95))),
    Case("c8-other-excl", "On 144Qv2, which qubits have T2 echo above 35 us, excluding those with X90 gate fidelity "
         "below 99.4%?", OTHER, "qubit", "and", ((T2, lambda v: v > 35), (X90, lambda v: v >= 99.4)),
         _f("and", _c(T2, above=35), _c(X90, above=99.4, including=["above"]))),
)
