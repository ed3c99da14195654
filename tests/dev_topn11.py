"""Dev questions for two classes, in wordings of my own: a TOP N ranking (N as digits or words up to twenty, hyphened
"bottom-4", "a couple of", "half a dozen", "the poorest", "top 3 worst", N after the ranking word, "of the 64 qubits"
beside the N) and a chip's SPREAD (range, min-to-max, the two ends "min and max" / "lowest and highest", standard
deviation, IQR, "how uniform", "how consistent", "scatter", "span of"), on 64Qv3 (the chip in view) and 144Qv2.

``BEFORE`` was written before the fix (some of them failed then: the single lowest came back); ``AFTER`` was written
after it, to attack it.  Every truth is a hand-written pymongo read over the ``qubit`` / ``coupling`` collections
(:func:`tests.dev_shapes9.values`: ``data.<metric>.value``, 0 or NaN no value, fractions shown in %); nothing here calls
the tools.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tests.dev_shapes9 import BELL, FREQ, GT, RO, T1, T2, TO_UNIT, STORED_UNIT, X90, ZX, Ranked, values
from tests.public_eval import CHIP, OTHER


@dataclass(frozen=True)
class Spread:
    """A spread asked of one metric on one chip: its lead statistic (``range``, ``std``, ``iqr``), in ``unit``."""

    id: str
    text: str
    chip: str
    metric: str
    kind: str
    stat: str
    unit: str | None = None

    def _values(self, db) -> np.ndarray:
        factor = TO_UNIT[(STORED_UNIT[self.metric], self.unit)] if self.unit else 1.0
        return np.asarray(list(values(db, self.chip, self.metric, self.kind).values()), dtype=float) * factor

    def truth(self, db) -> float:
        got = self._values(db)
        if self.stat == "range":
            return float(got.max() - got.min())
        if self.stat == "iqr":
            q1, q3 = np.percentile(got, [25, 75])
            return float(q3 - q1)
        return float(got.std(ddof=1))

    def ends(self, db) -> tuple[float, float]:
        got = self._values(db)
        return float(got.min()), float(got.max())

    @property
    def call(self) -> tuple[str, dict]:
        return "metric_spread", {"chip_id": self.chip, "metric_name": self.metric, "lead": self.stat,
                                 **({"unit": self.unit} if self.unit else {})}


def _r(id_: str, text: str, chip: str, metric: str, kind: str, order: str, n: int) -> Ranked:
    return Ranked(id_, text, chip, metric, kind, order, n)


RANKED_BEFORE: tuple[Ranked, ...] = (
    _r("t-five-worst", "What are the five worst T1 qubits?", CHIP, T1, "qubit", "lowest", 5),
    _r("t-top-hyphen", "List the top-3 qubits by readout fidelity.", CHIP, RO, "qubit", "highest", 3),
    _r("t-bottom-three", "bottom three couplings by ZX90 gate fidelity on 144Qv2", OTHER, ZX, "coupling", "lowest", 3),
    _r("t-a-top-ten", "Give me a top ten of qubits by T2 echo.", CHIP, T2, "qubit", "highest", 10),
    _r("t-couple-best", "Which are a couple of the best X90 gate fidelities on 144Qv2?", OTHER, X90, "qubit",
       "highest", 2),
    _r("t-worst-4", "What are the worst 4 qubits by T2 echo on 144Qv2?", OTHER, T2, "qubit", "lowest", 4),
    _r("t-weakest-seven", "Give a ranked list of the weakest seven qubits by X90 fidelity.", CHIP, X90, "qubit",
       "lowest", 7),
    _r("t-twenty", "twenty weakest qubits by readout fidelity", CHIP, RO, "qubit", "lowest", 20),
    _r("t-bottom-dash-4", "Bottom-4 T1 qubits", CHIP, T1, "qubit", "lowest", 4),
    _r("t-lowest-five-qubit", "lowest five qubit frequencies", CHIP, FREQ, "qubit", "lowest", 5),
    _r("t-highest-eleven", "What are the highest eleven qubit frequencies on 144Qv2?", OTHER, FREQ, "qubit", "highest",
       11),
    _r("t-poorest", "List 5 qubits with the poorest readout fidelity.", CHIP, RO, "qubit", "lowest", 5),
    _r("t-top-worst", "Top 3 worst T1 qubits on 144Qv2", OTHER, T1, "qubit", "lowest", 3),
    _r("t-seventeen", "Name the seventeen lowest T2 echo qubits on 144Qv2.", OTHER, T2, "qubit", "lowest", 17),
)

SPREADS_BEFORE: tuple[Spread, ...] = (
    Spread("s-min-to-max", "What's the min-to-max spread of readout fidelity?", CHIP, RO, "qubit", "range"),
    Spread("s-min-and-max", "Give the minimum and maximum T1 on 144Qv2.", OTHER, T1, "qubit", "range"),
    Spread("s-low-and-high", "What's the lowest and highest readout fidelity on this chip?", CHIP, RO, "qubit",
           "range"),
    Spread("s-span-of", "what's the span of ZX90 gate time on 144Qv2", OTHER, GT, "coupling", "range"),
    Spread("s-min-max-short", "Min and max of T2 echo?", CHIP, T2, "qubit", "range"),
    Spread("s-iqr", "What is the IQR of T1?", CHIP, T1, "qubit", "iqr"),
    Spread("s-uniform", "How uniform is the qubit frequency across the chip?", CHIP, FREQ, "qubit", "std"),
    Spread("s-consistent", "How consistent is the readout fidelity on 144Qv2?", OTHER, RO, "qubit", "std"),
    Spread("s-scatter", "How much scatter is there in the T2 echo values?", CHIP, T2, "qubit", "std"),
    Spread("s-sigma", "Tell me the sigma of T2 echo on 144Qv2.", OTHER, T2, "qubit", "std"),
    Spread("s-widely", "How widely does T2 echo vary across the qubits?", CHIP, T2, "qubit", "std"),
    Spread("s-range-across", "What is the range of T1 across qubits on 144Qv2?", OTHER, T1, "qubit", "range"),
)

# Written after the fix, to attack it.
RANKED_AFTER: tuple[Ranked, ...] = (
    _r("a-of-the-64", "Of the 64 qubits, which three have the shortest T1?", CHIP, T1, "qubit", "lowest", 3),
    _r("a-lowest-dash-6", "Lowest-6 T2 echo qubits on 144Qv2", OTHER, T2, "qubit", "lowest", 6),
    _r("a-poorest-nine", "I need the poorest nine qubits by X90 gate fidelity", CHIP, X90, "qubit", "lowest", 9),
    _r("a-bottom-ten", "Give me a bottom-ten by readout fidelity on 144Qv2", OTHER, RO, "qubit", "lowest", 10),
    _r("a-top-fourteen", "Which qubits make up the top fourteen for T2 echo?", CHIP, T2, "qubit", "highest", 14),
    _r("a-strongest-two", "What are the strongest two couplings by ZX90 gate fidelity on 144Qv2?", OTHER, ZX,
       "coupling", "highest", 2),
    _r("a-twelve-of-them", "Show the highest T1 qubits, twelve of them.", CHIP, T1, "qubit", "highest", 12),
    _r("a-seven-poorest", "the 7 poorest T1 values on 144Qv2", OTHER, T1, "qubit", "lowest", 7),
    _r("a-top-worst-words", "top three worst readout fidelities", CHIP, RO, "qubit", "lowest", 3),
    _r("a-half-dozen-longest", "half a dozen couplings with the longest ZX90 gate time", CHIP, GT, "coupling",
       "highest", 6),
)

SPREADS_AFTER: tuple[Spread, ...] = (
    Spread("a-uniform-other", "How uniform is T2 echo across qubits on 144Qv2?", OTHER, T2, "qubit", "std"),
    Spread("a-amp-ends", "Lowest & highest T1 on 144Qv2?", OTHER, T1, "qubit", "range"),
    Spread("a-small-large", "smallest and largest X90 gate fidelity", CHIP, X90, "qubit", "range"),
    Spread("a-min-to-max-bell", "What's the min-to-max of the Bell state fidelity?", CHIP, BELL, "coupling", "range"),
    Spread("a-coupling-to-coupling", "How consistent is the ZX90 gate fidelity from coupling to coupling?", CHIP, ZX,
           "coupling", "std"),
    Spread("a-iqr-other", "IQR of T2 echo on 144Qv2", OTHER, T2, "qubit", "iqr"),
    Spread("a-the-max", "T1 extremes on 144Qv2: the minimum and the maximum?", OTHER, T1, "qubit", "range"),
    Spread("a-scattered-mhz", "How scattered are the qubit frequencies, in MHz?", CHIP, FREQ, "qubit", "std", "MHz"),
)

RANKED = (*RANKED_BEFORE, *RANKED_AFTER)
SPREADS = (*SPREADS_BEFORE, *SPREADS_AFTER)
ALL = (*RANKED, *SPREADS)
