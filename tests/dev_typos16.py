"""Dev questions of the sixteenth stop's typo class, in wordings of my own, on both demo chips: a metric or shape word
with one slip (a letter dropped, doubled, changed or two swapped), and a QDash task named in another case or with its
words apart, in every shape (a lookup, a top N, a spread, a compound filter, a share, a window count, the task that
fails most, a qubit pair, a cross-chip statistic, a correlation, a missing value).

Each question has the same question spelled right, written here by hand: the typo must be read as that one (the same
metrics, shape and first tool call) and say how it read the slipped words.  Truths of values and counts are pymongo
reads of the raw demo documents (:func:`tests.dev_ranks14.values`; a task's failures: ``task_result_history``
documents of that ``name`` with ``status`` "failed").  Rows marked ``fresh`` were written after the fix, to attack it.
"""

from __future__ import annotations

from dataclasses import dataclass

from tests.public_eval import CHIP, OTHER

CHIPS = (CHIP, OTHER)


@dataclass(frozen=True)
class Slip:
    """One dev question with a slip, the same question spelled right, and the words it must say it read again."""

    id: str
    text: str
    right: str
    read: tuple[str, ...] = ()  # the slipped words as written, each said back in the answer's note
    fresh: bool = False


QUESTIONS: tuple[Slip, ...] = (
    Slip("lookup-t1", "what is the relaxtion time of Q7 on 64Qv3", "what is the relaxation time of Q7 on 64Qv3",
         ("relaxtion",)),
    Slip("lookup-ro", "reaodut fidelity of qubit 12 on 144Qv2?", "readout fidelity of qubit 12 on 144Qv2?",
         ("reaodut",)),
    Slip("lookup-freq", "Q3 qubit frequancy on 64Qv3", "Q3 qubit frequency on 64Qv3", ("frequancy",)),
    Slip("lookup-echo", "T2 echp of Q9 on 64Qv3?", "T2 echo of Q9 on 64Qv3?", ("echp",)),
    Slip("top-anh", "which 4 qubits have the lowest anharmonicty on 144Qv2", "which 4 qubits have the lowest "
         "anharmonicity on 144Qv2", ("anharmonicty",)),
    Slip("top-fid", "top 3 couplings by zx90 fidelitty on 64Qv3", "top 3 couplings by zx90 fidelity on 64Qv3",
         ("fidelitty",)),
    Slip("spread-std", "what is the standrad deviation of T1 on 64Qv3", "what is the standard deviation of T1 on "
         "64Qv3", ("standrad",)),
    Slip("spread-dev", "standard devation of the qubit frequency on 144Qv2", "standard deviation of the qubit "
         "frequency on 144Qv2", ("devation",)),
    Slip("median", "what is the meidan T2 echo on 144Qv2?", "what is the median T2 echo on 144Qv2?", ("meidan",)),
    Slip("average", "avreage readout fidelity on 64Qv3", "average readout fidelity on 64Qv3", ("avreage",)),
    Slip("pct", "what percetnage of qubits on 64Qv3 have T1 below 40 us", "what percentage of qubits on 64Qv3 have "
         "T1 below 40 us", ("percetnage",)),
    Slip("compound", "qubits on 144Qv2 with T1 above 50 us and readuot fidelity above 95%", "qubits on 144Qv2 with "
         "T1 above 50 us and readout fidelity above 95%", ("readuot",)),
    Slip("corr", "is there a corelation between T1 and qubit frequency on 64Qv3", "is there a correlation between "
         "T1 and qubit frequency on 64Qv3", ("corelation",)),
    Slip("corr-2", "corrleation of T2 echo and T1 on 144Qv2", "correlation of T2 echo and T1 on 144Qv2",
         ("corrleation",)),
    Slip("cross", "compare the median readout fideltiy of 64Qv3 and 144Qv2", "compare the median readout fidelity "
         "of 64Qv3 and 144Qv2", ("fideltiy",)),
    Slip("pair", "which has the better T1, Q4 or Q5 on 64Qv3, and by how much is the reladout fidelity apart",
         "which has the better T1, Q4 or Q5 on 64Qv3, and by how much is the readout fidelity apart", ("reladout",)),
    Slip("missing", "which qubits on 64Qv3 are missing a T2 eho value", "which qubits on 64Qv3 are missing a T2 "
         "echo value", ("eho",)),
    Slip("task-caps", "how many CHECKT1 failures on 64Qv3 in the last 7 days", "how many CheckT1 failures on 64Qv3 "
         "in the last 7 days"),
    Slip("task-lower", "how many times did checkramsey fail on 144Qv2 in the last 10 days", "how many times did "
         "CheckRamsey fail on 144Qv2 in the last 10 days"),
    Slip("task-under", "which qubit fails CHECK_T2_ECHO most on 64Qv3", "which qubit fails CheckT2Echo most on "
         "64Qv3"),
    Slip("task-apart", "count check t1 results on 64Qv3 over the last 7 days", "count CheckT1 results on 64Qv3 over "
         "the last 7 days"),
    Slip("window-cal", "how many calibraton runs failed on 64Qv3 this week", "how many calibration runs failed on "
         "64Qv3 this week", ("calibraton",)),
    # written after the fix, to attack it
    Slip("f-anh", "whats the anharmoncity of Q2 on 144Qv2", "whats the anharmonicity of Q2 on 144Qv2",
         ("anharmoncity",), True),
    Slip("f-top", "top 5 qubits by readotu fidelity on 144Qv2", "top 5 qubits by readout fidelity on 144Qv2",
         ("readotu",), True),
    Slip("f-spread", "how much does T1 vary on 144Qv2, the standart deviation please", "how much does T1 vary on "
         "144Qv2, the standard deviation please", ("standart",), True),
    Slip("f-pct", "percantage of couplings on 64Qv3 with ZX90 fidelity above 95%", "percentage of couplings on 64Qv3 "
         "with ZX90 fidelity above 95%", ("percantage",), True),
    Slip("f-corr", "is T1 corelated with T2 echo on 64Qv3", "is T1 correlated with T2 echo on 64Qv3", ("corelated",),
         True),
    Slip("f-median", "mediaan qubit frequency on 64Qv3", "median qubit frequency on 64Qv3", ("mediaan",), True),
    Slip("f-task", "how many times did Checkt2echo fail on 64Qv3 over the last 5 days", "how many times did "
         "CheckT2Echo fail on 64Qv3 over the last 5 days", (), True),
    Slip("f-compound", "qubits on 64Qv3 with T1 above 40 us and T2 ehco above 30 us", "qubits on 64Qv3 with T1 above "
         "40 us and T2 echo above 30 us", ("ehco",), True),
    Slip("f-cross", "avergae T1 on 64Qv3 vs 144Qv2", "average T1 on 64Qv3 vs 144Qv2", ("avergae",), True),
)

# Plain words one slip from a lab word, or near one: never read as a metric.
PLAIN = ("tone", "their", "frequent", "rabbit", "derivation", "medium", "around", "correction", "percentile",
         "intersection", "average joe", "standing", "spreadsheet")
