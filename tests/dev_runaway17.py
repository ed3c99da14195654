"""Dev questions that must be answered, not asked back: each names its chip and every metric or subject its shape
needs (compound filter, percentage, top N, spread, window count, fails most, qubit pair, cross-chip, correlation,
missing thing), with correlation asked in many registers ("go together", "a relation between", "rise with",
"anything to do with each other").  And incomplete ones that are still asked back: a shape with no metric, a metric
word that names several, a bare T2.

Truths for the correlations are hand-written pymongo reads (:func:`tests.dev_corrpct7.coefficients`: the newest
completed, non-excluded value per qubit, Pearson r by numpy over the qubits with both values).
"""

from __future__ import annotations

from dataclasses import dataclass

from tests.public_eval import CHIP, OTHER


@dataclass(frozen=True)
class Asked:
    """One dev question; ``pair``: a correlation's two metrics (the truth is their r on ``chip``); ``fresh``: written
    after the fix to attack it."""

    text: str
    shape: str
    chip: str = CHIP
    pair: tuple[str, str] | None = None
    fresh: bool = False


COMPLETE: tuple[Asked, ...] = (
    Asked(f"Do T1 and T2 echo go together on {CHIP}?", "correlation", pair=("t1", "t2_echo")),
    Asked(f"Is there a relation between readout fidelity and T1 on {OTHER}?", "correlation", OTHER,
          ("average_readout_fidelity", "t1")),
    Asked(f"Does T2 echo rise with T1 across the qubits of {CHIP}?", "correlation", pair=("t2_echo", "t1")),
    Asked(f"Do readout fidelity and T2 echo have anything to do with each other on {CHIP}?", "correlation",
          pair=("average_readout_fidelity", "t2_echo")),
    Asked(f"On {OTHER}, do T1 and T2* track each other?", "correlation", OTHER, ("t1", "t2_star")),
    Asked(f"Is T1 related to qubit frequency on {OTHER}?", "correlation", OTHER, ("t1", "qubit_frequency")),
    Asked(f"Is there any link between anharmonicity and T1 on chip {CHIP}?", "correlation",
          pair=("anharmonicity", "t1")),
    Asked(f"Which qubits on {CHIP} have T1 above 40 us and T2 echo above 30 us?", "compound filter"),
    Asked(f"What percentage of qubits on {OTHER} have T1 below 50 us?", "percentage", OTHER),
    Asked(f"Top 5 qubits by T1 on {CHIP}", "top N"),
    Asked(f"How spread out is the readout fidelity on {OTHER}?", "spread", OTHER),
    Asked(f"How many calibration runs did {CHIP} have in the last 7 days?", "window count"),
    Asked(f"Which task fails most on {OTHER}?", "fails most", OTHER),
    Asked(f"What is the ZX90 fidelity between Q00 and Q01 on {CHIP}?", "qubit pair"),
    Asked(f"Compare the mean T1 of {CHIP} and {OTHER}", "cross-chip"),
    Asked(f"Which qubits on {CHIP} have no T2 echo value?", "missing thing"),
    Asked(f"What is the median T2 echo on {OTHER}?", "statistic", OTHER),
    Asked(f"Is readout fidelity connected to T1 on {CHIP}?", "correlation", pair=("average_readout_fidelity", "t1")),
    Asked(f"Do T2* and T2 echo vary together on {OTHER}?", "correlation", OTHER, ("t2_star", "t2_echo")),
    Asked(f"On {CHIP}, is qubit frequency associated with anharmonicity?", "correlation",
          pair=("qubit_frequency", "anharmonicity")),
)

# Written after the fix, to attack it: other registers of a correlation, other shapes.
FRESH: tuple[Asked, ...] = (
    Asked(f"Are T1 and T2 echo on {OTHER} connected in any way?", "correlation", OTHER, ("t1", "t2_echo"), True),
    Asked(f"On {CHIP}, does readout fidelity increase with T1?", "correlation",
          pair=("average_readout_fidelity", "t1"), fresh=True),
    Asked(f"Is the qubit frequency of {OTHER} tied to its T1?", "correlation", OTHER, ("qubit_frequency", "t1"), True),
    Asked(f"Do T1 and T2 echo scale together on {OTHER}?", "correlation", OTHER, ("t1", "t2_echo"), True),
    Asked(f"How do T2* and T1 relate on {CHIP}?", "correlation", pair=("t2_star", "t1"), fresh=True),
    Asked(f"Which qubits on {OTHER} lack a readout fidelity value?", "missing thing", OTHER, fresh=True),
    Asked(f"What fraction of couplings on {CHIP} have ZX90 fidelity above 95%?", "percentage", fresh=True),
    Asked(f"Which task failed the most on {CHIP} in the last 30 days?", "fails most", fresh=True),
)
COMPLETE = COMPLETE + FRESH

INCOMPLETE: tuple[Asked, ...] = (
    Asked(f"Which two metrics go together best on {CHIP}?", "correlation"),
    Asked(f"What is the spread on {OTHER}?", "spread", OTHER),
    Asked(f"Top 5 qubits on {CHIP}", "top N"),
    Asked("What is the T2 of Q05?", "bare T2"),
)
