"""Dev questions of the sixteenth stop's "how many, which chip, which pair" class, in wordings of my own, over both
demo chips:

1. how many a ranking lists, read from a numbered fill-in form (its blanks counted) or from a count word before or
   after "top"/"worst"/"best" ("worst first, top six", "top-4 worst"); "a handful" is five;
2. a chip named by its qubit count ("the 144 one", "our 64 qubit processor"): the one installed chip whose stored
   size is that count, asked about when none or several are;
3. one coupling written as two qubit mentions joined loosely ("qubit no. 12 and qubit no. 13", "Q5 ↔ Q6",
   "Q5 & Q6", "qubits 5 and 6 coupled"): answered on that coupling and named as the data names it.

Every truth is a hand-written pymongo read of the raw demo documents (``tests.dev_ranks12.latest``: the newest
completed, non-excluded value per subject, 0 and NaN left out, fractions shown in %; the chip documents' ``size``;
a coupling's value in whichever direction the ``coupling`` documents store it).  Rows marked ``after`` were written
after the fix, to attack it.
"""

from __future__ import annotations

from dataclasses import dataclass

from tests.dev_chips10 import chip_doc, values as chip_values
from tests.dev_crosschip7 import stat
from tests.dev_pairs9 import coupling_label, coupling_value
from tests.dev_pairs13 import stored_pairs
from tests.dev_ranks14 import Ranked
from tests.eval_score import Expect, Truth
from tests.public_eval import CHIP, OTHER, Question, tol

CHIPS = (CHIP, OTHER)
Call = tuple[str, dict]

# Rankings whose N is written as a form's blanks or a count word around the ranking word.  Order: the fidelity's
# (or time's) end, by hand (worst T1 = lowest, worst fidelity = lowest, best T2 echo = highest).
RANKED = (
    Ranked("f16-form-paren", "Which qubits have the shortest T1? Fill in:\n1)\n2)\n3)\n4)", "t1", "lowest", 4),
    Ranked("f16-form-dots", "lowest readout fidelity qubits, please complete: 1. ___ 2. ___ 3. ___",
           "average_readout_fidelity", "lowest", 3),
    Ranked("f16-form-other", "Worst X90 gate fidelity on 144Qv2:\n1.\n2.\n3.\n4.\n5.", "x90_gate_fidelity", "lowest",
           5, OTHER),
    Ranked("f16-top-after", "Give the T2 echo qubits worst first, top six", "t2_echo", "lowest", 6),
    Ranked("f16-top-dash", "top-4 worst couplings by ZX90 gate fidelity", "zx90_gate_fidelity", "lowest", 4),
    Ranked("f16-seven", "the seven worst qubits for T1, worst first", "t1", "lowest", 7),
    Ranked("f16-best-three", "best T1 qubits, top three, best first", "t1", "highest", 3),
    Ranked("f16-form-two", "strongest T2 echo: 1) __ 2) __", "t2_echo", "highest", 2),
    Ranked("f16-handful", "a handful of the weakest qubits by T1", "t1", "lowest", 5),
    Ranked("f16-top-eight", "Rank the worst readout fidelity on 144Qv2, top 8", "average_readout_fidelity",
           "lowest", 8, OTHER),
    # written after the fix, to attack it
    Ranked("f16-after-form-colon", "T1, lowest first - fill the list:\n1:\n2:\n3:", "t1", "lowest", 3,
           after=True),
    Ranked("f16-after-form-inline", "Top T2 echo on 144Qv2? 1) ___ 2) ___ 3) ___ 4) ___", "t2_echo", "highest", 4,
           OTHER, after=True),
    Ranked("f16-after-nine", "worst nine qubits by X90 fidelity", "x90_gate_fidelity", "lowest", 9, after=True),
    Ranked("f16-after-form-dated", "Shortest T1 as of 2026-11-20:\n1)\n2)\n3)", "t1", "lowest", 3, after=True),
)

# (id, wording, the qubit count it names, metric, statistic, after): the chip meant is the one whose stored size is
# that count.
SIZED = (
    ("f16-size-144", "median T1 on the 144 one", 144, "t1", "median", False),
    ("f16-size-64", "What's the median T2 echo on the 64 one?", 64, "t2_echo", "median", False),
    ("f16-size-proc", "median readout fidelity of our 144 qubit processor", 144, "average_readout_fidelity",
     "median", False),
    ("f16-size-device", "median T1 for that 64-qubit device", 64, "t1", "median", False),
    # written after the fix, to attack it
    ("f16-after-size-q", "median X90 gate fidelity on the 144q chip", 144, "x90_gate_fidelity", "median", True),
    ("f16-after-size-64", "the 64 one: what is its median T1?", 64, "t1", "median", True),
)
UNSIZED = ("median T1 on the 99 one", "median T2 echo on our 32 device")  # a bare count no chip has: asked about

# (id, template, metric, after): {a}, {b} the coupling's qubits in the order the data stores them.
PAIRS = (
    ("f16-pair-no", "ZX90 gate fidelity between qubit no. {a} and qubit no. {b}", "zx90_gate_fidelity", False),
    ("f16-pair-coupled", "Bell state fidelity for qubits {a} and {b} coupled", "bell_state_fidelity", False),
    ("f16-pair-arrow", "CZ fidelity of Q{a} ↔ Q{b}", "zx90_gate_fidelity", False),
    ("f16-pair-lr", "ZX90 gate time, Q{a} <-> Q{b}", "zx90_gate_time", False),
    ("f16-pair-amp", "Q{a} & Q{b} ZX90 fidelity", "zx90_gate_fidelity", False),
    ("f16-pair-to", "two-qubit gate fidelity of qubit {a} to qubit {b}", "zx90_gate_fidelity", False),
    # written after the fix, to attack it
    ("f16-after-pair-nr", "Bell fidelity, qubit nr. {a} & qubit nr. {b}", "bell_state_fidelity", True),
    ("f16-after-pair-dbl", "ZX90 gate time Q{a} ⇔ Q{b}", "zx90_gate_time", True),
    ("f16-after-pair-with", "CZ fidelity of qubit {a} with qubit {b}", "zx90_gate_fidelity", True),
)

# Not a coupling: a run of qubits, two qubits compared or listed on a qubit metric (id, wording, qubits, span).
NOT_PAIRS = (
    ("f16-not-range", "mean T1 of Q10 to Q19", (), tuple(str(q) for q in range(10, 20))),
    ("f16-not-list", "T1 of qubits 5 and 6", ("5", "6"), ()),
    ("f16-not-compare", "compare T1 of Q5 and Q6", ("5", "6"), ()),
    ("f16-not-which", "which of Q5 and Q6 has the better CZ fidelity", ("5", "6"), ()),
    ("f16-not-run", "median T2 echo for qubits 20 to 25", (), tuple(str(q) for q in range(20, 26))),
)


@dataclass(frozen=True)
class Sized:
    question: Question
    chip: str
    call: Call
    after: bool


def chip_of_size(db, size: int) -> list[str]:
    """The installed demo chips whose chip document stores ``size`` qubits."""
    return [c for c in CHIPS if int(chip_doc(db, c)["size"]) == size]


def sized(db) -> list[Sized]:
    out = []
    for qid, text, size, name, how, after in SIZED:
        (chip,) = chip_of_size(db, size)
        figure = stat(chip_values(db, chip, name), how)
        out.append(Sized(Question(qid, "described chip", text, Truth(((figure, tol(name)),), patterns=(chip,))),
                         chip, ("get_chip_summary", {"chip_id": chip, "param_names": [name]}), after))
    return out


def _tol(name: str) -> float:
    return 0.051 if name == "zx90_gate_time" else 0.0051


def pairs(db) -> list[tuple[Question, Call, bool]]:
    """Each pair wording on a coupling the chip stores (both directions of the demo's pairs spread over the chips)."""
    out = []
    for i, (qid, template, name, after) in enumerate(PAIRS):
        chip = OTHER if i % 3 == 2 else CHIP
        found = [(a, b) for a, b in stored_pairs(db, chip, name) if a != b and max(a, b) < 64]
        a, b = found[(5 * i + 1) % len(found)]
        value = coupling_value(db, chip, a, b, name)
        assert value is not None
        text = template.format(a=a, b=b) + (f" on {chip}" if chip != CHIP else "")
        truth = Truth((Expect(value, _tol(name), near=(coupling_label(a, b),)),))
        out.append((Question(qid, "lookup", text, truth),
                    ("get_coupling_params", {"chip_id": chip, "coupling_id": f"{a}-{b}", "param_names": [name]}),
                    after))
    return out


def count(db) -> tuple[int, int]:
    """(dev questions, those written after the fix)."""
    rows = [c.after for c in RANKED] + [s.after for s in sized(db)] + [p[2] for p in pairs(db)]
    return len(rows) + len(NOT_PAIRS) + len(UNSIZED), sum(rows)
