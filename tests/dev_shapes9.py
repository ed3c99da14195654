"""Dev questions for five shapes, in wordings of my own: the N lowest / highest (N as digits, words, "dozen", "half a
dozen", "a few", "a couple", "bottom N", "the N best", "N qubits with the lowest"), a chip's spread in words the
parser used to miss ("how far apart", "peak-to-peak", "max minus min", "variability", "dispersion") and in another
unit (kHz, ns, μs), two conditions on two metrics joined loosely ("whose ... is also", "at the same time", "pass a
X of N and a Y of M", "clear N on X and M on Y"), the share of couplings past a limit, and the Pearson r of two
coupling metrics (the ZX90 depolarizing rate included), on 64Qv3 (the chip in view) and 144Qv2 (named).

Every truth is a pymongo read written here over the ``qubit`` / ``coupling`` collections: ``data.<metric>.value``,
a value of 0 or NaN stored being no value (QDash stores NaN as 0); fidelities are fractions shown in %, T1 / T2 in μs,
gate times in ns, frequencies in GHz.  A coupling is stored in both directions, its values under one of them.
Nothing here calls the tools.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from tests.public_eval import CHIP, OTHER

PERCENT = frozenset({"average_readout_fidelity", "x90_gate_fidelity", "zx90_gate_fidelity", "bell_state_fidelity"})
TO_UNIT = {("GHz", "MHz"): 1e3, ("GHz", "kHz"): 1e6, ("μs", "ns"): 1e3, ("ns", "μs"): 1e-3}
STORED_UNIT = {"qubit_frequency": "GHz", "t1": "μs", "t2_echo": "μs", "zx90_gate_time": "ns"}
T1, T2, RO, X90 = "t1", "t2_echo", "average_readout_fidelity", "x90_gate_fidelity"
ZX, BELL, GT, ZXD, FREQ = "zx90_gate_fidelity", "bell_state_fidelity", "zx90_gate_time", "zx90_depolarizing_rate", \
    "qubit_frequency"


def values(db, chip: str, metric: str, kind: str = "qubit") -> dict[str, float]:
    """Subject id -> display value, subjects with no usable value left out."""
    out = {}
    for doc in db[kind].find({"chip_id": chip}):
        raw = (doc.get("data") or {}).get(metric, {}).get("value")
        if isinstance(raw, (int, float)) and not isinstance(raw, bool) and math.isfinite(raw) and raw != 0:
            out[doc["qid"]] = raw * (100.0 if metric in PERCENT else 1.0)
    return out


def label(chip: str, subject: str) -> str:
    """Q05 on 64Qv3, Q005 on 144Qv2; a coupling control→target as stored."""
    width = 3 if chip == OTHER else 2
    return "→".join(f"Q{int(q):0{width}d}" for q in subject.split("-"))


@dataclass(frozen=True)
class Ranked:
    id: str
    text: str
    chip: str
    metric: str
    kind: str
    order: str  # "lowest" / "highest"
    n: int

    def truth(self, db) -> list[tuple[str, float]]:
        got = values(db, self.chip, self.metric, self.kind)
        return sorted(got.items(), key=lambda kv: kv[1], reverse=self.order == "highest")[:self.n]

    @property
    def call(self) -> tuple[str, dict]:
        return "rank_metric", {"chip_id": self.chip, "metric_name": self.metric, "order": self.order, "n": self.n}


RANKED: tuple[Ranked, ...] = (
    Ranked("n-halfdozen", "What are the half a dozen weakest readout fidelities on 144Qv2?", OTHER, RO, "qubit",
           "lowest", 6),
    Ranked("n-dozen", "Give me the worst dozen qubits by X90 gate fidelity.", CHIP, X90, "qubit", "lowest", 12),
    Ranked("n-afew", "A few weakest T1 qubits?", CHIP, T1, "qubit", "lowest", 3),
    Ranked("n-name-five", "Name five qubits with the lowest T1 on 144Qv2.", OTHER, T1, "qubit", "lowest", 5),
    Ranked("n-bottom-word", "Bottom seven qubits for T2 echo, please.", CHIP, T2, "qubit", "lowest", 7),
    Ranked("n-twelve", "The twelve shortest T2 echo values on 144Qv2?", OTHER, T2, "qubit", "lowest", 12),
    Ranked("n-couple", "Show me a couple of the worst couplings by ZX90 gate fidelity.", CHIP, ZX, "coupling",
           "lowest", 2),
    Ranked("n-best-words", "Which are the four best qubits by readout fidelity?", CHIP, RO, "qubit", "highest", 4),
    Ranked("n-top-digits", "top 3 couplings on 144Qv2 by bell state fidelity", OTHER, BELL, "coupling", "highest", 3),
    Ranked("n-worst-n", "the worst 4 qubits for T1 on 144Qv2", OTHER, T1, "qubit", "lowest", 4),
    Ranked("n-handful", "a handful of qubits with the lowest X90 gate fidelity", CHIP, X90, "qubit", "lowest", 5),
    Ranked("n-fifteen", "fifteen weakest couplings by Bell state fidelity on 144Qv2", OTHER, BELL, "coupling",
           "lowest", 15),
)


@dataclass(frozen=True)
class Spread:
    id: str
    text: str
    chip: str
    metric: str
    kind: str
    stat: str  # "range" / "std"
    unit: str | None  # the unit asked, when another than the stored one

    def truth(self, db) -> float:
        got = np.asarray(list(values(db, self.chip, self.metric, self.kind).values()), dtype=float)
        value = float(got.max() - got.min()) if self.stat == "range" else float(got.std(ddof=1))
        return value * (TO_UNIT[(STORED_UNIT[self.metric], self.unit)] if self.unit else 1.0)

    @property
    def call(self) -> tuple[str, dict]:
        return "metric_spread", {"chip_id": self.chip, "metric_name": self.metric, "lead": self.stat,
                                 **({"unit": self.unit} if self.unit else {})}


SPREADS: tuple[Spread, ...] = (
    Spread("s-far-apart", "How far apart are the highest and lowest T1 on 144Qv2?", OTHER, T1, "qubit", "range",
           None),
    Spread("s-ptp", "What is the peak-to-peak readout fidelity on 144Qv2?", OTHER, RO, "qubit", "range", None),
    Spread("s-maxmin", "T2 echo max minus min?", CHIP, T2, "qubit", "range", None),
    Spread("s-best-worst", "What's the difference between the best and the worst X90 gate fidelity?", CHIP, X90,
           "qubit", "range", None),
    Spread("s-gap-mhz", "Gap between the max and min qubit frequency, in MHz?", CHIP, FREQ, "qubit", "range", "MHz"),
    Spread("s-var-khz", "What's the variability of the qubit frequency on 144Qv2 in kHz?", OTHER, FREQ, "qubit", "std",
           "kHz"),
    Spread("s-vary", "How much does readout fidelity vary on 144Qv2?", OTHER, RO, "qubit", "std", None),
    Spread("s-disp", "dispersion of T1 on this chip", CHIP, T1, "qubit", "std", None),
    Spread("s-ns", "T1 spread on 144Qv2 in ns", OTHER, T1, "qubit", "std", "ns"),
    Spread("s-us", "what's the range of the ZX90 gate time in us?", CHIP, GT, "coupling", "range", "μs"),
    Spread("s-lo-hi", "From the lowest to the highest Bell state fidelity on 144Qv2, how big is the span?", OTHER,
           BELL, "coupling", "range", None),
)

Test = Callable[[float], bool]


@dataclass(frozen=True)
class Filtered:
    id: str
    text: str
    chip: str
    kind: str
    tests: tuple[tuple[str, Test], ...]
    conditions: tuple[dict, ...]  # the router's conditions, written by hand

    def truth(self, db) -> set[str]:
        got = {m: values(db, self.chip, m, self.kind) for m, _ in self.tests}
        every = set.intersection(*(set(v) for v in got.values()))
        return {s for s in every if all(t(got[m][s]) for m, t in self.tests)}

    def with_values(self, db) -> int:
        return len(set.intersection(*(set(values(db, self.chip, m, self.kind)) for m, _ in self.tests)))

    @property
    def call(self) -> tuple[str, dict]:
        if len(self.conditions) == 1:
            return "filter_metric", {"chip_id": self.chip, **self.conditions[0]}
        return "filter_metrics", {"chip_id": self.chip, "join": "and", "conditions": list(self.conditions)}


def _c(metric: str, **sides) -> dict:
    return {"metric_name": metric, **sides}


FILTERED: tuple[Filtered, ...] = (
    Filtered("f-whose-also", "How many qubits with T1 over 70 us whose T2 echo is also under 80?", CHIP, "qubit",
             ((T1, lambda v: v > 70), (T2, lambda v: v < 80)), (_c(T1, above=70.0), _c(T2, below=80.0))),
    Filtered("f-same-time", "How many qubits have T1 > 90 and at the same time readout below 95%?", CHIP, "qubit",
             ((T1, lambda v: v > 90), (RO, lambda v: v < 95)), (_c(T1, above=90.0), _c(RO, below=95.0))),
    Filtered("f-pass-both", "Qubits on 144Qv2 that pass both T1 > 40 us and readout fidelity above 90%", OTHER, "qubit",
             ((T1, lambda v: v > 40), (RO, lambda v: v > 90)), (_c(T1, above=40.0), _c(RO, above=90.0))),
    Filtered("f-reach-of", "Which qubits reach a T1 of 50 us and a T2 echo of 40 us?", CHIP, "qubit",
             ((T1, lambda v: v >= 50), (T2, lambda v: v >= 40)),
             (_c(T1, above=50.0, including=["above"]), _c(T2, above=40.0, including=["above"]))),
    Filtered("f-clear-on", "How many qubits clear 60 us on T1 and 99.5% on X90 gate fidelity?", CHIP, "qubit",
             ((T1, lambda v: v > 60), (X90, lambda v: v > 99.5)), (_c(T1, above=60.0), _c(X90, above=99.5))),
    Filtered("f-also-have", "On 144Qv2, qubits with readout fidelity under 92% that also have T1 less than 40 us",
             OTHER, "qubit", ((RO, lambda v: v < 92), (T1, lambda v: v < 40)),
             (_c(RO, below=92.0), _c(T1, below=40.0))),
    Filtered("f-plus", "count the qubits having T1 over 70 us, plus readout fidelity below 95%", CHIP, "qubit",
             ((T1, lambda v: v > 70), (RO, lambda v: v < 95)), (_c(T1, above=70.0), _c(RO, below=95.0))),
    Filtered("f-pass-of-cp", "How many couplings on 144Qv2 pass a ZX90 fidelity of 97% and a Bell state fidelity of "
             "93%?", OTHER, "coupling", ((ZX, lambda v: v >= 97), (BELL, lambda v: v >= 93)),
             (_c(ZX, above=97.0, including=["above"]), _c(BELL, above=93.0, including=["above"]))),
    Filtered("f-hit-of", "Which qubits hit a readout fidelity of 96% and a T1 of 60 us?", CHIP, "qubit",
             ((RO, lambda v: v >= 96), (T1, lambda v: v >= 60)),
             (_c(RO, above=96.0, including=["above"]), _c(T1, above=60.0, including=["above"]))),
    # the share of couplings past a limit
    Filtered("p-couplers", "What share of couplers have bell-state fidelity >= 90%?", CHIP, "coupling",
             ((BELL, lambda v: v >= 90),), (_c(BELL, above=90.0, including=["above"]),)),
    Filtered("p-fraction", "What fraction of couplings on 144Qv2 reach a Bell state fidelity of 90% or more?", OTHER,
             "coupling", ((BELL, lambda v: v >= 90),), (_c(BELL, above=90.0, including=["above"]),)),
    Filtered("p-percent-zx", "what percentage of couplings have ZX90 gate fidelity above 95% on 144Qv2", OTHER,
             "coupling", ((ZX, lambda v: v > 95),), (_c(ZX, above=95.0),)),
    Filtered("p-pairs-time", "what proportion of pairs have a ZX90 gate time under 200 ns?", CHIP, "coupling",
             ((GT, lambda v: v < 200),), (_c(GT, below=200.0),)),
)


@dataclass(frozen=True)
class Related:
    id: str
    text: str
    chip: str
    a: str
    b: str

    def truth(self, db) -> tuple[float, int]:
        va, vb = values(db, self.chip, self.a, "coupling"), values(db, self.chip, self.b, "coupling")
        both = sorted(set(va) & set(vb))
        return float(np.corrcoef([va[s] for s in both], [vb[s] for s in both])[0, 1]), len(both)

    @property
    def call(self) -> tuple[str, dict]:
        return "correlate_metrics", {"chip_id": self.chip, "metric_a": self.a, "metric_b": self.b,
                                     "method": "pearson"}


RELATED: tuple[Related, ...] = (
    Related("r-zxd-bell", "Does ZX90 depolarizing rate track bell fidelity across couplers?", CHIP, ZXD, BELL),
    Related("r-zxd-bell-other", "Does the zx90 depolarising rate go together with Bell-state fidelity on 144Qv2?",
            OTHER, ZXD, BELL),
    Related("r-zx-bell", "Is ZX90 gate fidelity correlated with Bell state fidelity across the couplings of "
            "144Qv2?", OTHER, ZX, BELL),
    Related("r-time-zx", "Is the ZX90 gate time related to the ZX90 gate fidelity over couplings?", CHIP, GT, ZX),
)

ALL = (*RANKED, *SPREADS, *FILTERED, *RELATED)
