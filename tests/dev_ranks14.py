"""Dev questions of the fourteenth stop's ranking classes, in wordings of my own, on both demo chips:

1. couplings (and qubits) ranked at an end asked in error words: the lowest CZ error is the highest ZX90 fidelity,
   the "highest readout error" the lowest readout fidelity, an "infidelity" or an "error rate" the same;
2. rankings over a subset: the couplings of one qubit ("of Q07", "touching Q07"), one chip ("on 144Qv2");
3. two chips compared on a statistic other than the median: mean, maximum/minimum (a chip's top or bottom subject),
   a spread (std, range, IQR), the share of qubits past a limit; in error words too.

Every truth is a hand-written pymongo read of the raw demo documents (``tests.dev_ranks12.latest``: the newest
completed, non-excluded value per qubit or coupling, 0 and NaN left out, fractions shown in %) and arithmetic written
out here with ``statistics``.  Rows marked ``after`` were written after the fix, to attack it.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass

from tests.dev_ranks12 import latest
from tests.public_eval import CHIP, OTHER

CHIPS = (CHIP, OTHER)
KIND = {"zx90_gate_fidelity": "coupling", "zx90_gate_time": "coupling", "bell_state_fidelity": "coupling"}
WIDTH = {CHIP: 2, OTHER: 3}  # digits of a qubit label on each chip


def label(chip: str, subject: str) -> str:
    """"Q07", "Q000-Q001": a qubit's or a coupling's label as the tools write it."""
    return "-".join(f"Q{int(q):0{WIDTH[chip]}d}" for q in subject.split("-"))


def found_at(said: str, chip: str, subject: str) -> int:
    """Where ``said`` names the subject: a qubit's label, or a coupling's either way round with "-" or "→" (the
    tools write a coupling control→target); -1 when it does not."""
    ends = [f"Q{int(q):0{WIDTH[chip]}d}" for q in subject.split("-")]
    forms = [sep.join(ends) for sep in ("-", "→")] + [sep.join(ends[::-1]) for sep in ("-", "→")] if len(ends) == 2 \
        else ends
    return min((at for form in forms if (at := said.find(form)) >= 0), default=-1)


def values(db, chip: str, metric: str) -> dict[str, float]:
    return latest(db, chip, metric, KIND.get(metric, "qubit"))


@dataclass(frozen=True)
class Ranked:
    id: str
    text: str
    metric: str
    order: str  # the fidelity's end: "lowest" / "highest"
    n: int
    chip: str = CHIP
    after: bool = False


RANKED = (
    Ranked("cz-err-low", "Which three couplings have the lowest CZ error?", "zx90_gate_fidelity", "highest", 3),
    Ranked("cz-err-high", "Name the 4 couplings with the highest CZ error.", "zx90_gate_fidelity", "lowest", 4),
    Ranked("2q-err", "Which 5 couplers have the highest two-qubit gate error?", "zx90_gate_fidelity", "lowest", 5),
    Ranked("zx90-err-one", "Which coupling has the lowest ZX90 error?", "zx90_gate_fidelity", "highest", 1),
    Ranked("ro-err-low", "Which 3 qubits have the lowest readout error?", "average_readout_fidelity", "highest", 3),
    Ranked("ro-err-high", "Which 3 qubits have the highest readout error?", "average_readout_fidelity", "lowest", 3),
    Ranked("x90-infid", "Which two qubits have the smallest X90 infidelity?", "x90_gate_fidelity", "highest", 2),
    Ranked("cz-err-other", "List the 3 couplings with the lowest CZ error on 144Qv2.", "zx90_gate_fidelity",
           "highest", 3, OTHER),
    Ranked("worst-cz", "Which 3 couplings have the worst ZX90 gate fidelity?", "zx90_gate_fidelity", "lowest", 3),
    Ranked("best-time", "the 3 best couplings for gate time", "zx90_gate_time", "lowest", 3),
    Ranked("err-rate", "Which four couplings have the largest CZ error rate?", "zx90_gate_fidelity", "lowest", 4,
           after=True),
    Ranked("ro-infid-other", "On 144Qv2, which 2 qubits show the lowest readout infidelity?",
           "average_readout_fidelity", "highest", 2, OTHER, after=True),
    Ranked("x90-err-worst", "Give me the five qubits with the worst X90 gate error.", "x90_gate_fidelity", "lowest",
           5, after=True),
    Ranked("measure-err", "Which 3 qubits have the smallest measurement error?", "average_readout_fidelity",
           "highest", 3, after=True),
    Ranked("entangling", "Which two couplings show the highest entangling gate error?", "zx90_gate_fidelity",
           "lowest", 2, after=True),
)


def ranked_truth(db, case: Ranked) -> list[tuple[str, float]]:
    """The N subjects at the fidelity's end asked, with their values (ties broken by id, as a person would list)."""
    found = values(db, case.chip, case.metric)
    order = sorted(found.items(), key=lambda kv: (kv[1] if case.order == "lowest" else -kv[1],
                                                  [int(p) for p in kv[0].split("-")]))
    return order[:case.n]


@dataclass(frozen=True)
class OfQubit:
    id: str
    text: str
    qubit: int
    metric: str
    end: str  # "best" / "worst": the coupling the answer must put at that end
    after: bool = False


OF_QUBIT = (
    OfQubit("worst-of", "Which of Q14's couplings has the worst CZ fidelity?", 14, "zx90_gate_fidelity", "worst"),
    OfQubit("best-touching", "What are the two best couplings touching Q20 by ZX90 gate fidelity?", 20,
            "zx90_gate_fidelity", "best"),
    OfQubit("rank-of", "Rank the couplings of Q05 by CZ fidelity, worst first.", 5, "zx90_gate_fidelity", "worst"),
    OfQubit("worst-q10", "Which coupling of Q10 is worst for CZ fidelity?", 10, "zx90_gate_fidelity", "worst"),
    OfQubit("err-of", "Which of Q12's couplings has the lowest CZ error?", 12, "zx90_gate_fidelity", "best",
            after=True),
    OfQubit("time-of", "Among the couplings attached to Q09, which has the best gate time?", 9, "zx90_gate_time",
            "best", after=True),
)


def qubit_couplings(db, case: OfQubit) -> list[tuple[str, float]]:
    """The qubit's couplings with a value, best first (a coupling stored either way round)."""
    found = {k: v for k, v in values(db, CHIP, case.metric).items() if str(case.qubit) in k.split("-")}
    lower_better = case.metric == "zx90_gate_time"
    return sorted(found.items(), key=lambda kv: kv[1] if lower_better else -kv[1])


@dataclass(frozen=True)
class Across:
    id: str
    text: str
    metric: str
    statistic: str  # "mean", "max", "min", "std", "range", "iqr", or "share>"/"share<" with ``limit``
    limit: float | None = None
    after: bool = False


ACROSS = (
    Across("mean-t1", "Which chip has the higher mean T1, 64Qv3 or 144Qv2?", "t1", "mean"),
    Across("avg-t2e", "Compare the average T2 echo of 64Qv3 and 144Qv2.", "t2_echo", "mean"),
    Across("top-t1", "Compare the top T1 on 64Qv3 and 144Qv2.", "t1", "max"),
    Across("best-single", "Which chip has the best single qubit for T1, 64Qv3 or 144Qv2?", "t1", "max"),
    Across("worst-x90", "Which chip's worst qubit has the lowest X90 gate fidelity?", "x90_gate_fidelity", "min"),
    Across("max-t2e", "Which chip has the higher maximum T2 echo?", "t2_echo", "max"),
    Across("spread-t1", "Which chip has the wider spread of T1, 64Qv3 or 144Qv2?", "t1", "std"),
    Across("range-t1", "Compare the range of T1 on 64Qv3 and 144Qv2.", "t1", "range"),
    Across("iqr-t2e", "Which chip has the higher IQR of T2 echo?", "t2_echo", "iqr"),
    Across("share-t1", "Which chip has more qubits with T1 above 50 us, 64Qv3 or 144Qv2?", "t1", "share>", 50.0),
    Across("pass-ro", "What fraction of qubits pass 99% readout fidelity on 64Qv3 versus 144Qv2?",
           "average_readout_fidelity", "share>", 99.0),
    Across("mean-cz-err", "Which chip has the lower mean CZ error, 64Qv3 or 144Qv2?", "zx90_gate_fidelity", "mean"),
    Across("best-coupler-err", "Which chip's best coupler has the lowest CZ error, 64Qv3 or 144Qv2?",
           "zx90_gate_fidelity", "max", after=True),
    Across("bottom-t2e", "Set the bottom T2 echo of 64Qv3 against that of 144Qv2.", "t2_echo", "min", after=True),
    Across("below-t1", "Which of the two chips has a bigger share of qubits under 30 us T1?", "t1", "share<", 30.0,
           after=True),
    Across("mean-ro-err", "Is the mean readout error lower on 64Qv3 or on 144Qv2?", "average_readout_fidelity",
           "mean", after=True),
)


def _iqr(found: list[float]) -> float:
    q1, _, q3 = statistics.quantiles(found, n=4, method="inclusive")
    return q3 - q1


STAT = {"mean": statistics.fmean, "max": max, "min": min, "std": statistics.stdev,
        "range": lambda v: max(v) - min(v), "iqr": _iqr}


def across_truth(db, case: Across) -> dict[str, float]:
    """Each chip's figure: the statistic of its latest values, or the % of those with a value past the limit."""
    out = {}
    for chip in CHIPS:
        found = list(values(db, chip, case.metric).values())
        if case.statistic.startswith("share"):
            past = [v for v in found if (v > case.limit if case.statistic == "share>" else v < case.limit)]
            out[chip] = 100.0 * len(past) / len(found)
        else:
            out[chip] = STAT[case.statistic](found)
    return out


def after() -> list[object]:
    return [c for c in (*RANKED, *OF_QUBIT, *ACROSS) if c.after]
