"""Dev questions that name a subject the data lacks (a coupling of two qubits that are no neighbours, a qubit past
the chip's size, a chip not installed) in every shape: a lookup, a ranking, a yes/no against a limit, a compound
filter, two chips, a spread, a pair comparison, a count over a window; and yes/no questions against a band word
("is coupling 3-4 excellent?").

Every truth is a pymongo read written here over the raw demo documents: a coupling exists when a ``coupling``
document holds that pair in either direction; a qubit exists when its number is below the ``chip`` document's
``size``; a chip when a ``chip`` document has its id.  A band's limit is the catalogue threshold written here by
hand (ZX90 fidelity: excellent 99 %, good 95 %, bad below 85 %; T1: excellent 100 μs, good 50 μs, bad below 20 μs).
"""

from __future__ import annotations

from dataclasses import dataclass

from tests.dev_compound12 import latest
from tests.public_eval import CHIP

# The lab's band limits, by hand (display units): (excellent, good, bad), higher is better for both.
BANDS = {"zx90_gate_fidelity": (99.0, 95.0, 85.0), "t1": (100.0, 50.0, 20.0)}


@dataclass(frozen=True)
class Asked:
    """One dev question: its words, the subject the data lacks (kind and key), and whether it was written after the
    fix to attack it."""

    text: str
    kind: str  # "coupling", "qubit" or "chip"
    subject: str
    fresh: bool = False


def couplings(db, chip: str) -> set[tuple[int, int]]:
    """Every stored pair of ``chip``, each as (low, high)."""
    return {tuple(sorted(int(n) for n in d["qid"].split("-"))) for d in db["coupling"].find({"chip_id": chip})}


def size(db, chip: str) -> int:
    return int(db["chip"].find_one({"chip_id": chip})["size"])


def neighbours(db, chip: str, q: int) -> list[int]:
    return sorted(b if a == q else a for a, b in couplings(db, chip) if q in (a, b))


def value_of(db, chip: str, subject: tuple[int, ...], name: str) -> float | None:
    """The subject's newest completed, non-excluded value in display units (a coupling either way round), by
    :func:`tests.dev_compound12.latest`'s pymongo read."""
    kind = "coupling" if len(subject) == 2 else "qubit"
    return latest(db, chip, name, kind).get("-".join(str(n) for n in sorted(subject)))


# The subjects the questions name; each is checked missing by pymongo in the tests, never assumed.
PAIR = (3, 9)  # no neighbours on 64Qv3
FAR = 70  # past 64Qv3's 64 qubits
NO_CHIP = "64Qv9"

QUESTIONS: tuple[Asked, ...] = (
    Asked("What is the ZX90 fidelity of coupling Q03-Q09?", "coupling", "3-9"),
    Asked("ZX90 gate fidelity between qubits 3 and 9", "coupling", "3-9"),
    Asked("How fast is the CR gate on the 3/9 coupler?", "coupling", "3-9"),
    Asked("is the bell state fidelity of Q3-Q9 above 90%", "coupling", "3-9"),
    Asked("Does coupling 9-3 clear 0.95 ZX90 fidelity?", "coupling", "9-3"),
    Asked("Is pair 3-9 in the top 5 couplings for ZX90 fidelity?", "coupling", "3-9"),
    Asked("rank coupling Q03-Q09 among the chip's couplers by gate time", "coupling", "3-9"),
    Asked("Compare coupling 3-9 with coupling 3-6 on ZX90 fidelity", "coupling", "3-9"),
    Asked("Which is better for ZX90 fidelity, Q3-Q9 or Q3-Q6?", "coupling", "3-9"),
    Asked("How much has the ZX90 fidelity of coupling 3-9 varied?", "coupling", "3-9"),
    Asked("How many times was the 3-9 coupling calibrated in the last 7 days?", "coupling", "3-9"),
    Asked("Is coupling 3-9 excellent for ZX90 fidelity?", "coupling", "3-9"),
    Asked("Show me the Bell fidelity history of coupler 3-9", "coupling", "3-9"),
    Asked("What is the T1 of Q70?", "qubit", "70"),
    Asked("Is qubit 70's T1 over 50 us?", "qubit", "70"),
    Asked("Is Q70 among the worst 5 qubits for T1?", "qubit", "70"),
    Asked("Compare Q70 and Q05 on T2 echo", "qubit", "70"),
    Asked("How much does the readout fidelity of qubit 70 vary?", "qubit", "70"),
    Asked("Does Q70 have T1 above 40 us and T2 echo above 30 us?", "qubit", "70"),
    Asked("How many times did qubit 70 fail this week?", "qubit", "70"),
    Asked("Is Q70's T1 good?", "qubit", "70"),
    Asked("What's the median T1 on 64Qv9?", "chip", NO_CHIP),
    Asked("Which qubit has the best T1 on chip 64Qv9?", "chip", NO_CHIP),
    Asked("Compare 64Qv9 and 64Qv3 on mean T1", "chip", NO_CHIP),
    Asked("Are all couplings on 64Qv9 above 95% ZX90 fidelity?", "chip", NO_CHIP),
    Asked("How many runs failed on 64Qv9 in the last 3 days?", "chip", NO_CHIP),
    # written after the fix, to attack it
    Asked("q3 to q9 coupling: what's its zx90 gate time?", "coupling", "3-9", fresh=True),
    Asked("Tell me whether the 3 and 9 coupler has a ZX90 fidelity of at least 99%", "coupling", "3-9", fresh=True),
    Asked("Where does coupling Q9-Q3 rank for Bell state fidelity?", "coupling", "9-3", fresh=True),
    Asked("Qubit 70: is its T1 poor?", "qubit", "70", fresh=True),
    Asked("Is the T2 echo of Q70 better or worse than the chip median?", "qubit", "70", fresh=True),
    Asked("Give the spread of T1 across 64Qv9's qubits", "chip", NO_CHIP, fresh=True),
)


@dataclass(frozen=True)
class BandAsked:
    """A yes/no against a band word on a subject the data holds: the metric, the subject and the band's side."""

    text: str
    metric: str
    subject: tuple[int, ...]  # a qubit (one number) or a coupling (two)
    band: str  # "excellent", "good", "fair" (not bad) or "bad"
    fresh: bool = False


BAND_QUESTIONS: tuple[BandAsked, ...] = (
    BandAsked("Is coupling 1-4 excellent for ZX90 fidelity?", "zx90_gate_fidelity", (1, 4), "excellent"),
    BandAsked("Is the ZX90 fidelity of Q01-Q04 good?", "zx90_gate_fidelity", (1, 4), "good"),
    BandAsked("is the CZ fidelity of 4-1 acceptable?", "zx90_gate_fidelity", (1, 4), "fair"),
    BandAsked("Is the ZX90 fidelity of coupling 1-4 poor?", "zx90_gate_fidelity", (1, 4), "bad"),
    BandAsked("Is coupling 11-14 excellent on ZX90 gate fidelity?", "zx90_gate_fidelity", (11, 14), "excellent"),
    BandAsked("Is Q05's T1 poor?", "t1", (5,), "bad"),
    BandAsked("Is qubit 5's T1 excellent?", "t1", (5,), "excellent"),
    BandAsked("Does Q05 have a good T1?", "t1", (5,), "good"),
    BandAsked("Q5's T1: is it decent?", "t1", (5,), "fair", fresh=True),
    BandAsked("Would you say the ZX90 fidelity on coupler Q1/Q4 is great?", "zx90_gate_fidelity", (1, 4), "good",
              fresh=True),
)


def band_passes(value: float, metric: str, band: str) -> bool:
    """Whether ``value`` is in ``band`` by the hand-written limits (higher is better for both metrics)."""
    excellent, good, bad = BANDS[metric]
    return {"excellent": value >= excellent, "good": value >= good, "fair": value >= bad, "bad": value < bad}[band]


def band_limit(metric: str, band: str) -> float:
    excellent, good, bad = BANDS[metric]
    return {"excellent": excellent, "good": good, "fair": bad, "bad": bad}[band]


__all__ = ["BANDS", "BAND_QUESTIONS", "CHIP", "FAR", "NO_CHIP", "PAIR", "QUESTIONS", "Asked", "BandAsked",
           "band_limit", "band_passes", "couplings", "neighbours", "size", "value_of"]
