"""Dev questions of the twelfth stop's ranking/coupling/unit/absence classes, in wordings of my own: rankings asked in
a person's own words ("relax fastest", "leading on", "trailing", "owning the most small"), one coupling written as
"pair 40/41", "the 40-41 link", "the coupler between Q10 and Q11" or with an en dash, a coupling metric asked together
with which of its two qubits has the longer/higher value of a qubit metric, values asked in another unit of their
family ("in megahertz", "in nanoseconds", "in kHz"), and quantities or subjects the data does not hold.

Every truth is a hand-written pymongo read over the raw ``task_result_history`` documents (the newest completed,
non-excluded result holding the parameter, 0 or NaN being no value), with display scales and unit factors written out
here by hand.  Questions marked ``after`` were written after the fix, to attack it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from tests.public_eval import CHIP

FRACTIONS = frozenset({"average_readout_fidelity", "x90_gate_fidelity", "zx90_gate_fidelity"})  # stored 0-1, shown %


def latest(db, chip: str, name: str, kind: str = "qubit") -> dict[str, float]:
    """Subject ("5", or a coupling "a-b" as stored) -> newest completed, non-excluded value in display units; subjects
    whose newest value is 0 or NaN are left out."""
    newest: dict[str, dict] = {}
    for doc in db["task_result_history"].find({"chip_id": chip, "task_type": kind, "status": "completed",
                                               "excluded": {"$ne": True},
                                               f"output_parameters.{name}": {"$exists": True}}):
        if doc["qid"] not in newest or doc["start_at"] > newest[doc["qid"]]["start_at"]:
            newest[doc["qid"]] = doc
    out = {}
    for key, doc in newest.items():
        raw = doc["output_parameters"][name]["value"]
        if isinstance(raw, (int, float)) and math.isfinite(raw) and raw != 0:
            out[key] = raw * (100.0 if name in FRACTIONS else 1.0)
    return out


def coupling_value(db, chip: str, a: int, b: int, name: str) -> float:
    """A coupling's newest value, whichever way round it is stored."""
    values = latest(db, chip, name, "coupling")
    return next(v for k, v in values.items() if {int(x) for x in k.split("-")} == {a, b})


def label(q: str | int) -> str:
    return f"Q{int(q):02d}"  # 64Qv3 labels its qubits with two digits


@dataclass(frozen=True)
class Ranked:
    id: str
    text: str
    metric: str
    end: str  # "lowest" / "highest"
    n: int
    after: bool = False


RANKED = (
    Ranked("relax-fastest", "Which 5 qubits relax fastest?", "t1", "lowest", 5),
    Ranked("leading-t1", "Which five qubits are leading on T1?", "t1", "highest", 5),
    Ranked("trailing-ro", "Which 3 qubits are trailing on readout fidelity?", "average_readout_fidelity", "lowest", 3),
    Ranked("most-small-t2e", "List the 4 qubits owning the most small T2 echo.", "t2_echo", "lowest", 4),
    Ranked("lagging-x90", "Name the 2 qubits lagging on X90 gate fidelity.", "x90_gate_fidelity", "lowest", 2),
    Ranked("relax-slowest", "Which 3 qubits relax slowest?", "t1", "highest", 3),
    Ranked("quickest", "Show me the 4 qubits that relax quickest.", "t1", "lowest", 4, after=True),
    Ranked("leading-t2e", "Which 3 qubits are leading in T2 echo right now?", "t2_echo", "highest", 3, after=True),
    Ranked("trailing-t2s", "Who are the 3 qubits trailing on T2 star?", "t2_star", "lowest", 3, after=True),
    Ranked("most-large-t1", "Give the 2 qubits owning the most large T1.", "t1", "highest", 2, after=True),
)


def ranked_truth(db, case: Ranked) -> list[tuple[str, float]]:
    values = latest(db, CHIP, case.metric)
    order = sorted(values.items(), key=lambda kv: kv[1], reverse=case.end == "highest")
    return order[:case.n]


@dataclass(frozen=True)
class Coupled:
    id: str
    text: str
    pair: tuple[int, int]
    metric: str  # the coupling metric asked
    qubit_metric: str | None = None  # the qubit metric whose longer/higher end is asked
    after: bool = False


COUPLED = (
    Coupled("slash", "What is the CZ fidelity of pair 40/41?", (40, 41), "zx90_gate_fidelity"),
    Coupled("link", "What is the gate time of the 40-41 link?", (40, 41), "zx90_gate_time"),
    Coupled("coupler", "What is the CZ fidelity of the coupler between Q10 and Q11?", (10, 11), "zx90_gate_fidelity"),
    Coupled("endash", "What is the CZ fidelity of Q12–Q13?", (12, 13), "zx90_gate_fidelity"),
    Coupled("and-t2e", "What is the CZ fidelity of Q10-Q11, and which of its two qubits has the longer T2 echo?",
            (10, 11), "zx90_gate_fidelity", "t2_echo"),
    Coupled("end-t1", "For the coupler between Q20 and Q21, give the ZX90 gate fidelity and tell me which end has the "
            "shorter T1.", (20, 21), "zx90_gate_fidelity", "t1"),
    Coupled("link-ro", "What is the CZ fidelity of the 12–13 link and which of its qubits has higher readout fidelity?",
            (12, 13), "zx90_gate_fidelity", "average_readout_fidelity"),
    Coupled("pair-slash-t1", "For pair 20/21, what's the gate time, and which of the two qubits has the longer T1?",
            (20, 21), "zx90_gate_time", "t1", after=True),
    Coupled("joining", "CZ fidelity of the link joining qubits 40 and 41?", (40, 41), "zx90_gate_fidelity",
            after=True),
    Coupled("endash-t2s", "Q10–Q11: its 2Q gate fidelity, and which qubit of it has the longer T2 star?", (10, 11),
            "zx90_gate_fidelity", "t2_star", after=True),
)


@dataclass(frozen=True)
class InUnit:
    id: str
    text: str
    metric: str
    what: str  # "range" / "mean" / "value:<qid>" / "top:<n>"
    factor: float  # display unit -> asked unit
    unit: str
    decimals: int
    after: bool = False


IN_UNIT = (
    InUnit("mhz-span", "What is the spread of qubit frequency on this chip? State the range in megahertz.",
           "qubit_frequency", "range", 1000.0, "MHz", 1),
    InUnit("mhz-apart", "How far apart are the highest and lowest qubit frequencies, in megahertz?",
           "qubit_frequency", "range", 1000.0, "MHz", 1),
    InUnit("ns-range", "What is the range of T1 in nanoseconds?", "t1", "range", 1000.0, "ns", 0),
    InUnit("ns-mean", "What is the mean T1 in nanoseconds?", "t1", "mean", 1000.0, "ns", 0),
    InUnit("mhz-one", "What is the qubit frequency of Q05 in megahertz?", "qubit_frequency", "value:5", 1000.0, "MHz",
           1),
    InUnit("khz-median", "What is the mean qubit frequency in kHz?", "qubit_frequency", "mean", 1e6, "kHz", 0),
    InUnit("mhz-top", "Which 3 qubits have the highest qubit frequency, in MHz?", "qubit_frequency", "top:3", 1000.0,
           "MHz", 1),
    InUnit("ns-one", "Give me the T2 echo of Q08 in nanoseconds.", "t2_echo", "value:8", 1000.0, "ns", 0, after=True),
    InUnit("khz-spelled", "Mean qubit frequency across the chip, in kilohertz please.", "qubit_frequency", "mean",
           1e6, "kHz", 0, after=True),
    InUnit("ms-range", "What's the T1 range on this chip, expressed in milliseconds?", "t1", "range", 1e-3, "ms", 4,
           after=True),
)


def unit_truth(db, case: InUnit) -> list[str]:
    """The numbers (with the unit asked) the answer must write."""
    values = latest(db, CHIP, case.metric)

    def shown(v: float) -> str:
        return f"{v * case.factor:.{case.decimals}f} {case.unit}"
    if case.what == "range":
        return [shown(max(values.values()) - min(values.values()))]
    if case.what == "mean":
        return [shown(sum(values.values()) / len(values))]
    if case.what.startswith("value:"):
        return [shown(values[case.what.split(":")[1]])]
    n = int(case.what.split(":")[1])
    return [f"{label(q)} {shown(v)}" for q, v in sorted(values.items(), key=lambda kv: -kv[1])[:n]]


@dataclass(frozen=True)
class Absent:
    id: str
    text: str
    words: str  # what the answer must say is not held, or which subject does not exist
    after: bool = False


ABSENT = (
    Absent("qnd", "Which qubit has the best QND-ness?", "holds no measurement QND-ness"),
    Absent("purity", "Rank the 5 qubits with the highest state purity.", "holds no state purity"),
    Absent("crosstalk", "Which qubit suffers the most crosstalk?", "holds no crosstalk"),
    Absent("readout-qnd", "Which qubits have the worst readout QND-ness on 144Qv2?", "holds no measurement QND-ness"),
    Absent("purity-pair", "Compare Q03 and Q04 on state purity.", "holds no state purity"),
    Absent("leak", "Rank the qubits by leakage.", "holds no leakage rate"),
    Absent("no-qubit", "Compare Q03 and Q250 on T1.", "There is no such qubit"),
    Absent("no-qubit-rank", "Which is better on T1, Q05 or Q77?", "There is no such qubit"),
    Absent("no-coupling", "Compare couplings 0-1 and 3-50 on CZ fidelity.", "There is no such coupling"),
    Absent("non-demolition", "How non-demolition is the readout of each qubit? Top 3 please.",
           "holds no measurement QND-ness", after=True),
    Absent("xy-crosstalk", "Which 3 qubits have the worst XY crosstalk?", "holds no crosstalk", after=True),
    Absent("purity-of", "What's the purity of Q05's state?", "holds no state purity", after=True),
    Absent("no-chip", "Which 3 qubits relax fastest on chip 999Qv9?", "There is no chip 999Qv9", after=True),
)
