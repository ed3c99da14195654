"""Dev questions, in wordings of my own, for compound filters whose conditions were paired with the wrong metric or
dropped: a metric named loosely ("f01", "f_q", "f_ge", "resonance", "transition / drive / resonant frequency") beside
two others, so its limit of one unit family went to a metric of another (a frequency limit on a T1); "neither ... nor"
(both conditions turned); "not unless" / "only if" / "only when" (a condition required, never excluded); "unless"
(a condition excluded); three conditions of mixed unit families ("%", "μs", "GHz"/"MHz", "ms"); "excluding those
with" a frequency; couplings (CZ fidelity and gate time).

``LOOSE`` holds questions with one limit whose metric no table reads ("sit above 5.1 GHz", "an operating point
above ..."): the answer counts the other conditions and says which one it did not apply.  ``UNCLEAR`` holds questions
with a limit of a phrase that names several metrics ("coherence above 30 μs"): no filter is planned (the model
chooses, and may ask), and whatever the answer, it says which limit it did not apply.

Truths are the hand-written pymongo reads of :mod:`tests.dev_compound12` (newest completed, non-excluded value per
subject, 0 or NaN missing); every limit is written out by hand (a turned condition includes its limit: "neither T1
below 30" is T1 of at least 30 μs).  ``AFTER`` holds the wordings written after the fix, to attack it.
"""

from __future__ import annotations

from dataclasses import dataclass

from tests.dev_compound8 import GT, RO, T1, T2, ZX, Test, _c, _f
from tests.dev_compound12 import Case, _q
from tests.public_eval import OTHER

FQ = "qubit_frequency"

BEFORE: tuple[Case, ...] = (
    _q("c14-f01", "which qubits have T1 > 40us and f01 < 5.1GHz", ((T1, lambda v: v > 40), (FQ, lambda v: v < 5.1)),
       _f("and", _c(T1, above=40), _c(FQ, below=5.1))),
    _q("c14-fq-mhz", "Which qubits show T1 over 45 us, T2 echo over 30 us and f_q under 5150 MHz?",
       ((T1, lambda v: v > 45), (T2, lambda v: v > 30), (FQ, lambda v: v < 5.15)),
       _f("and", _c(T1, above=45), _c(T2, above=30), _c(FQ, below=5.15))),
    _q("c14-resonance", "how many qubits have T1 above 40 us, T2 echo above 30 us and a resonance above 5.1 GHz",
       ((T1, lambda v: v > 40), (T2, lambda v: v > 30), (FQ, lambda v: v > 5.1)),
       _f("and", _c(T1, above=40), _c(T2, above=30), _c(FQ, above=5.1)), count=True),
    _q("c14-transition", "qubits whose transition frequency is below 5.2 GHz while T1 exceeds 50 us",
       ((FQ, lambda v: v < 5.2), (T1, lambda v: v > 50)), _f("and", _c(FQ, below=5.2), _c(T1, above=50))),
    _q("c14-drive", "Which qubits have a drive frequency above 5 GHz yet readout fidelity below 95%?",
       ((FQ, lambda v: v > 5), (RO, lambda v: v < 95)), _f("and", _c(FQ, above=5), _c(RO, below=95))),
    _q("c14-neither", "which qubits have neither T1 below 30 us nor T2 echo below 20 us",
       ((T1, lambda v: v >= 30), (T2, lambda v: v >= 20)),
       _f("and", _c(T1, above=30, including=["above"]), _c(T2, above=20, including=["above"]))),
    _q("c14-neither-ro", "qubits with neither a T1 under 35 us nor a readout fidelity under 90%",
       ((T1, lambda v: v >= 35), (RO, lambda v: v >= 90)),
       _f("and", _c(T1, above=35, including=["above"]), _c(RO, above=90, including=["above"]))),
    _q("c14-not-unless", "which qubits have T1 above 40 us but not unless their T2 echo is above 30 us",
       ((T1, lambda v: v > 40), (T2, lambda v: v > 30)), _f("and", _c(T1, above=40), _c(T2, above=30))),
    _q("c14-unless", "qubits with T1 above 40 us unless their T2 echo is below 20 us",
       ((T1, lambda v: v > 40), (T2, lambda v: v >= 20)),
       _f("and", _c(T1, above=40), _c(T2, above=20, including=["above"]))),
    _q("c14-only-if", "list qubits with T1 above 45 us, but only if T2 echo exceeds 35 us",
       ((T1, lambda v: v > 45), (T2, lambda v: v > 35)), _f("and", _c(T1, above=45), _c(T2, above=35))),
    _q("c14-three-mixed", "Which qubits have T1 above 40 us, readout fidelity above 92% and qubit frequency below "
       "5.2 GHz?", ((T1, lambda v: v > 40), (RO, lambda v: v > 92), (FQ, lambda v: v < 5.2)),
       _f("and", _c(T1, above=40), _c(RO, above=92), _c(FQ, below=5.2))),
    _q("c14-among-three", "Among qubits with readout fidelity above 92%, how many have T1 above 45 us and T2 echo "
       "above 30 us?", ((RO, lambda v: v > 92), (T1, lambda v: v > 45), (T2, lambda v: v > 30)),
       _f("and", _c(RO, above=92), _c(T1, above=45), _c(T2, above=30)), count=True),
    _q("c14-with-over", "qubits with T1 over 50 us with a frequency over 5.0 GHz",
       ((T1, lambda v: v > 50), (FQ, lambda v: v > 5.0)), _f("and", _c(T1, above=50), _c(FQ, above=5.0))),
    _q("c14-both-freq", "Which qubits have both a T2 echo above 30 us and a qubit frequency above 5.1 GHz?",
       ((T2, lambda v: v > 30), (FQ, lambda v: v > 5.1)), _f("and", _c(T2, above=30), _c(FQ, above=5.1))),
    _q("c14-aswell", "Qubits having readout fidelity above 93% as well as frequency below 5.3 GHz?",
       ((RO, lambda v: v > 93), (FQ, lambda v: v < 5.3)), _f("and", _c(RO, above=93), _c(FQ, below=5.3))),
    _q("c14-excl-freq", "Which qubits have T1 above 40 us, excluding those with frequency above 5.2 GHz?",
       ((T1, lambda v: v > 40), (FQ, lambda v: v <= 5.2)),
       _f("and", _c(T1, above=40), _c(FQ, below=5.2, including=["below"]))),
    _q("c14-other-f01", "On 144Qv2, which qubits have T1 above 40 us and f01 below 5.1 GHz?",
       ((T1, lambda v: v > 40), (FQ, lambda v: v < 5.1)), _f("and", _c(T1, above=40), _c(FQ, below=5.1)),
       chip=OTHER),
    _q("c14-cz-excl", "couplings whose CZ fidelity is above 95%, excluding those with a gate time above 300 ns",
       ((ZX, lambda v: v > 95), (GT, lambda v: v <= 300)),
       _f("and", _c(ZX, above=95), _c(GT, below=300, including=["below"])), kind="coupling"),
)

AFTER: tuple[Case, ...] = (  # written after the fix, to attack it
    _q("c14a-f-ge", "how many qubits have f_ge above 5.05 GHz and T1 over 40 us",
       ((FQ, lambda v: v > 5.05), (T1, lambda v: v > 40)), _f("and", _c(FQ, above=5.05), _c(T1, above=40)),
       count=True),
    _q("c14a-neither-three", "which qubits have neither T1 below 30 us, nor T2 echo below 20 us, nor readout "
       "fidelity below 88%", ((T1, lambda v: v >= 30), (T2, lambda v: v >= 20), (RO, lambda v: v >= 88)),
       _f("and", _c(T1, above=30, including=["above"]), _c(T2, above=20, including=["above"]),
          _c(RO, above=88, including=["above"]))),
    _q("c14a-resonant", "qubits whose resonant frequency is under 5.2 GHz and whose T2 echo is longer than 35 us",
       ((FQ, lambda v: v < 5.2), (T2, lambda v: v > 35)), _f("and", _c(FQ, below=5.2), _c(T2, above=35))),
    _q("c14a-not-unless-ro", "Show qubits with readout fidelity above 93%, but not unless their T1 is over 40 us",
       ((RO, lambda v: v > 93), (T1, lambda v: v > 40)), _f("and", _c(RO, above=93), _c(T1, above=40))),
    _q("c14a-only-when", "qubits with T2 echo above 30 us only when T1 is above 50 us",
       ((T2, lambda v: v > 30), (T1, lambda v: v > 50)), _f("and", _c(T2, above=30), _c(T1, above=50))),
    _q("c14a-unless-freq", "which qubits have T1 over 45 us unless their frequency is above 5.25 GHz",
       ((T1, lambda v: v > 45), (FQ, lambda v: v <= 5.25)),
       _f("and", _c(T1, above=45), _c(FQ, below=5.25, including=["below"]))),
    _q("c14a-ms-mhz", "Which qubits have T1 above 0.04 ms and qubit frequency below 5150 MHz?",
       ((T1, lambda v: v > 40), (FQ, lambda v: v < 5.15)), _f("and", _c(T1, above=40), _c(FQ, below=5.15))),
    _q("c14a-neither-cz", "Which couplings have neither a CZ fidelity below 94% nor a gate time above 320 ns?",
       ((ZX, lambda v: v >= 94), (GT, lambda v: v <= 320)),
       _f("and", _c(ZX, above=94, including=["above"]), _c(GT, below=320, including=["below"])), kind="coupling"),
    _q("c14a-other-neither", "On 144Qv2, which qubits have neither T1 under 40 us nor readout fidelity under 92%?",
       ((T1, lambda v: v >= 40), (RO, lambda v: v >= 92)),
       _f("and", _c(T1, above=40, including=["above"]), _c(RO, above=92, including=["above"])), chip=OTHER),
    _q("c14a-yet-f01", "which qubits have a T1 above 50 us yet an f01 above 5.1 GHz",
       ((T1, lambda v: v > 50), (FQ, lambda v: v > 5.1)), _f("and", _c(T1, above=50), _c(FQ, above=5.1))),
    _q("c14a-count-three", "How many qubits have T1 above 35 us, T2 echo above 25 us and a drive freq under 5.2 GHz?",
       ((T1, lambda v: v > 35), (T2, lambda v: v > 25), (FQ, lambda v: v < 5.2)),
       _f("and", _c(T1, above=35), _c(T2, above=25), _c(FQ, below=5.2)), count=True),
    _q("c14a-while-resonance", "qubits with resonance below 5.15 GHz while readout fidelity is above 94%",
       ((FQ, lambda v: v < 5.15), (RO, lambda v: v > 94)), _f("and", _c(FQ, below=5.15), _c(RO, above=94))),
    _q("c14a-but-transition", "which qubits have T1 above 40 us but transition frequency below 5.1 GHz",
       ((T1, lambda v: v > 40), (FQ, lambda v: v < 5.1)), _f("and", _c(T1, above=40), _c(FQ, below=5.1))),
)

CASES: tuple[Case, ...] = BEFORE + AFTER


@dataclass(frozen=True)
class Loose:
    """A question with one limit whose metric no table reads: the answer applies ``tests`` (the conditions bound
    to a metric, written out by hand) and says it did not apply the limit ``said`` ("above 5.1 GHz")."""

    id: str
    text: str
    tests: tuple[tuple[str, Test], ...]
    said: str
    after: bool = False  # written after the fix

    def as_case(self) -> Case:
        conditions = [_c(m, above=v) for m, v in ((m, _LIMIT[self.id][m]) for m, _ in self.tests)]
        call = ("filter_metric", conditions[0]) if len(conditions) == 1 else _f("and", *conditions)
        return _q(self.id, self.text, self.tests, call, count=self.text.lower().startswith("how many"))


_LIMIT = {"c14l-sit": {T1: 45}, "c14l-operating": {T1: 40, T2: 30}, "c14l-tone": {T2: 25, RO: 90},
          "c14l-sweet": {RO: 92}, "c14l-larmor": {T2: 30}}
LOOSE: tuple[Loose, ...] = (
    Loose("c14l-sit", "How many qubits have T1 over 45 us and sit above 5.1 GHz?", ((T1, lambda v: v > 45),),
          "above 5.1 GHz"),
    Loose("c14l-operating", "which qubits have T1 > 40 us, T2 echo > 30 us and an operating point above 5.1 GHz",
          ((T1, lambda v: v > 40), (T2, lambda v: v > 30)), "above 5.1 GHz"),
    Loose("c14l-tone", "which qubits have T2 echo above 25 us, readout fidelity above 90% and a tone below 5.2 GHz",
          ((T2, lambda v: v > 25), (RO, lambda v: v > 90)), "below 5.2 GHz"),
    Loose("c14l-sweet", "Which qubits have readout fidelity above 92% and a sweet spot below 5.2 GHz?",
          ((RO, lambda v: v > 92),), "below 5.2 GHz", after=True),
    Loose("c14l-larmor", "qubits with T2 echo above 30 us plus a Larmor value above 5 GHz", ((T2, lambda v: v > 30),),
          "above 5 GHz", after=True),
)

UNCLEAR: tuple[tuple[str, str], ...] = (  # (question, the limit said as not applied)
    ("qubits with T1 above 40 us and coherence above 30 us", "above 30 μs"),
    ("Which qubits have readout fidelity above 93% and a lifetime above 45 us?", "above 45 μs"),
)
