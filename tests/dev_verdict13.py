"""Dev questions, in wordings of my own, that ask a yes or no against a limit: one qubit or coupling ("is Q05's T1
over 50 μs?", "does 4-5 beat 95 % ZX90 fidelity?"), several named ("are Q0, Q1 and Q2 all ..."), every one of a chip
("are all couplings under 300 ns?", "do any qubits have ..."); limits written as fractions of a metric shown in %
("≥ 0.98", "clear 0.99", "above .995"); state notation for the one-state readout fidelities ("|0> fidelity",
"|1⟩ readout", "P(0|0)", "ground-state assignment", "1-state readout").

Truths are hand-written pymongo reads of the raw ``task_result_history`` documents: the newest completed,
non-excluded result per subject holding the parameter (0 or NaN stored: no value), fidelities (stored as fractions)
times 100.  Every limit is written out by hand in the display unit.  ``AFTER`` holds wordings written after the fix.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from tests.public_eval import CHIP, OTHER

# Stored as fractions of one, shown in % (written out by hand, not read from the catalogue).
FRACTIONS = frozenset({"average_readout_fidelity", "readout_fidelity_0", "readout_fidelity_1", "x90_gate_fidelity",
                       "zx90_gate_fidelity", "bell_state_fidelity", "average_gate_fidelity"})
UNITS = {"t1": " μs", "t2_echo": " μs", "t2_star": " μs", "zx90_gate_time": " ns"}  # others: "%"


@dataclass(frozen=True)
class Case:
    id: str
    text: str
    metric: str
    passes: Callable[[float], bool]  # the limit, by hand, in the display unit
    limit: str  # the limit as the answer must write it ("50 μs", "98%")
    subjects: tuple[str, ...] = ()  # empty: every one on the chip
    quantifier: str = "one"  # "one", "all", "any"
    kind: str = "qubit"
    chip: str = CHIP


def _usable(raw: object) -> bool:
    return isinstance(raw, (int, float)) and not isinstance(raw, bool) and math.isfinite(raw) and raw != 0


def latest(db, chip: str, name: str, kind: str) -> dict[str, float | None]:
    """Subject ("5", a coupling "4-5" with its lower end first) -> newest usable value in display units, or None."""
    newest: dict[str, dict] = {}
    for doc in db["task_result_history"].find({"chip_id": chip, "task_type": kind, "status": "completed",
                                               "excluded": {"$ne": True},
                                               f"output_parameters.{name}": {"$exists": True}}):
        key = "-".join(sorted(doc["qid"].split("-"), key=int)) if kind == "coupling" else doc["qid"]
        if key not in newest or doc["start_at"] > newest[key]["start_at"]:
            newest[key] = doc
    scale = 100.0 if name in FRACTIONS else 1.0
    return {k: d["output_parameters"][name]["value"] * scale if _usable(d["output_parameters"][name]["value"])
            else None for k, d in newest.items()}


def shown(case: Case, value: float) -> str:
    """The value as the answer writes it: μs and ns to one decimal, a fidelity to two."""
    unit = UNITS.get(case.metric)
    return f"{value:.1f}{unit}" if unit else f"{value:.2f}%"


@dataclass(frozen=True)
class Truth:
    word: str | None  # "Yes" / "No"; None: the data holds no value to judge
    values: dict[str, float]  # subject -> value (the subjects judged)
    failing: int = 0  # over a chip or several: how many have a value past the wrong side
    passing: int = 0


def truth(db, case: Case) -> Truth:
    values = latest(db, case.chip, case.metric, case.kind)
    if case.subjects:
        held = {s: v for s in case.subjects if (v := values.get(s)) is not None}
    else:
        held = {s: v for s, v in values.items() if v is not None}
    passing = sum(1 for v in held.values() if case.passes(v))
    failing = len(held) - passing
    if not held:
        return Truth(None, {})
    if case.quantifier == "one":
        return Truth("Yes" if passing else "No", held, failing, passing)
    if case.quantifier == "all":
        every = passing == len(case.subjects) if case.subjects else failing == 0
        return Truth("Yes" if every else "No", held, failing, passing)
    return Truth("Yes" if passing else "No", held, failing, passing)


def _q(cid: str, text: str, metric: str, passes: Callable[[float], bool], limit: str, *subjects: str,
       quantifier: str = "one", kind: str = "qubit", chip: str = CHIP) -> Case:
    return Case(cid, text, metric, passes, limit, tuple(subjects), quantifier, kind, chip)


BEFORE: tuple[Case, ...] = (
    _q("t1-over", "Is Q05's T1 over 50 µs?", "t1", lambda v: v > 50, "50 μs", "5"),
    _q("t1-under", "is the T1 of qubit 5 under 50 us", "t1", lambda v: v < 50, "50 μs", "5"),
    _q("t1-exceed", "Does Q12 have a T1 exceeding 80 microseconds?", "t1", lambda v: v > 80, "80 μs", "12"),
    _q("t2e-least", "Is Q20's T2 echo at least 40 μs?", "t2_echo", lambda v: v >= 40, "40 μs", "20"),
    _q("t2s-above", "Is the Ramsey T2* of Q09 above 30 us?", "t2_star", lambda v: v > 30, "30 μs", "9"),
    _q("zx-beat", "Does coupling 4-5 beat 95 % ZX90 fidelity?", "zx90_gate_fidelity", lambda v: v > 95, "95%",
       "4-5", kind="coupling"),
    _q("zx-frac", "Does Q04-Q05 clear 0.97 ZX90 gate fidelity?", "zx90_gate_fidelity", lambda v: v > 97, "97%",
       "4-5", kind="coupling"),
    _q("gt-under", "is the ZX90 gate time of coupling 0-1 under 250 ns?", "zx90_gate_time", lambda v: v < 250,
       "250 ns", "0-1", kind="coupling"),
    _q("ro-geq-frac", "Is Q08's readout fidelity ≥ 0.98?", "average_readout_fidelity", lambda v: v >= 98, "98%", "8"),
    _q("x90-frac", "Does Q02 clear 0.999 X90 gate fidelity?", "x90_gate_fidelity", lambda v: v > 99.9, "99.9%", "2"),
    _q("x90-dot", "Is Q04's X90 fidelity above .995?", "x90_gate_fidelity", lambda v: v > 99.5, "99.5%", "4"),
    _q("ro-pct", "Is the readout fidelity of Q10 over 96 percent?", "average_readout_fidelity", lambda v: v > 96,
       "96%", "10"),
    _q("ro0-ket", "Is Q05's |0> fidelity above 99%?", "readout_fidelity_0", lambda v: v > 99, "99%", "5"),
    _q("ro1-ket", "is the |1⟩ readout of Q08 over 0.95", "readout_fidelity_1", lambda v: v > 95, "95%", "8"),
    _q("ro0-prob", "Is P(0|0) for Q04 above 0.99?", "readout_fidelity_0", lambda v: v > 99, "99%", "4"),
    _q("ro0-ground", "Is the ground-state assignment of Q04 above .995?", "readout_fidelity_0", lambda v: v > 99.5,
       "99.5%", "4"),
    _q("ro1-state", "Is Q08's 1-state readout above 90%?", "readout_fidelity_1", lambda v: v > 90, "90%", "8"),
    _q("ro1-excited", "does Q02 have an excited-state assignment fidelity of at least 95%?", "readout_fidelity_1",
       lambda v: v >= 95, "95%", "2"),
    _q("missing-ro", "Is Q03's readout fidelity above 0.9?", "average_readout_fidelity", lambda v: v > 90, "90%", "3"),
    _q("missing-agf", "Does Q02 clear 0.99 average gate fidelity?", "average_gate_fidelity", lambda v: v > 99, "99%",
       "2"),
    _q("all-gt", "Are all of 64Qv3's couplings' ZX90 gate times under 300 ns?", "zx90_gate_time", lambda v: v < 300,
       "300 ns", quantifier="all", kind="coupling"),
    _q("all-t2e", "Is every qubit's T2 echo above 20 µs?", "t2_echo", lambda v: v > 20, "20 μs", quantifier="all"),
    _q("any-t1", "Do any qubits have T1 over 200 us?", "t1", lambda v: v > 200, "200 μs", quantifier="any"),
    _q("any-t1-low", "Are there any qubits with T1 below 30 µs?", "t1", lambda v: v < 30, "30 μs", quantifier="any"),
    _q("all-ro-frac", "are all qubits above 0.9 readout fidelity", "average_readout_fidelity", lambda v: v > 90, "90%",
       quantifier="all"),
    _q("named-all", "Are Q3, Q5 and Q8 all above 50 µs T1?", "t1", lambda v: v > 50, "50 μs", "3", "5", "8",
       quantifier="all"),
    _q("named-any", "Do any of Q0, Q1, Q2 have T2 echo under 50 us?", "t2_echo", lambda v: v < 50, "50 μs", "0", "1",
       "2", quantifier="any"),
)

AFTER: tuple[Case, ...] = (
    _q("after-whether", "Tell me whether Q05 T1 exceeds 60 microseconds.", "t1", lambda v: v > 60, "60 μs", "5"),
    _q("after-colon", "Q11: is T2 echo below 70 µs?", "t2_echo", lambda v: v < 70, "70 μs", "11"),
    _q("after-frac-min", "Is Q13's readout fidelity no lower than 0.97?", "average_readout_fidelity",
       lambda v: v >= 97, "97%", "13"),
    _q("after-ket-zero", "is qubit 6 |0⟩ readout fidelity over 0.985?", "readout_fidelity_0", lambda v: v > 98.5,
       "98.5%", "6"),
    _q("after-p11", "Does Q10 have P(1|1) above 93 percent?", "readout_fidelity_1", lambda v: v > 93, "93%", "10"),
    _q("after-zero-state", "Is the 0-state readout of Q12 better than 98%?", "readout_fidelity_0", lambda v: v > 98,
       "98%", "12"),
    _q("after-every-zx", "Does every coupling on 64Qv3 have ZX90 fidelity above 0.9?", "zx90_gate_fidelity",
       lambda v: v > 90, "90%", quantifier="all", kind="coupling"),
    _q("after-any-gt", "Is any coupling's ZX90 gate time longer than 320 ns?", "zx90_gate_time", lambda v: v > 320,
       "320 ns", quantifier="any", kind="coupling"),
    _q("after-other-chip", "On 144Qv2, is Q010's T1 above 40 μs?", "t1", lambda v: v > 40, "40 μs", "10",
       chip=OTHER),
    _q("after-gt-most", "is the gate time of Q00-Q01 at most 290 ns?", "zx90_gate_time", lambda v: v <= 290,
       "290 ns", "0-1", kind="coupling"),
)

CASES = BEFORE + AFTER
