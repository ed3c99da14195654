"""The words people use for metrics and intents, shared by the tool router, the prompt's threshold pick and the
router's argument extraction, so "T2 echo", "readout fidelity" or "trend" mean the same thing everywhere.

:data:`METRIC_TERMS` maps a phrase to the one catalogue metric it names (``None`` when the phrase is ambiguous,
e.g. "T2" or "coherence") and to the metrics whose thresholds an answer about it needs.  The intent patterns
(chip-wide statistics, maps, trends, health summaries) are plain regex alternations the router wraps in word
boundaries.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from copilot_core.domain.metrics import CATALOGUE, SCORED_COUPLING_METRICS, SCORED_QUBIT_METRICS

_SCORED = SCORED_QUBIT_METRICS + SCORED_COUPLING_METRICS
_FIDELITIES = tuple(name for name in _SCORED if CATALOGUE[name].unit == "%")
_GATES = ("average_gate_fidelity", "x90_gate_fidelity", "x180_gate_fidelity")
_TWO_QUBIT = ("zx90_gate_fidelity", "bell_state_fidelity")
FID = r"(fidelit(y|ies)|fids?)"  # "fid": the lab's shorthand for a fidelity ("bell fid", "assignment fid")
# One state's readout as people write it: "ground-state assignment", "0-state readout", "|0> fidelity", "|1⟩ readout",
# "P(0|0)" (the chance of reading 0 when 0 was prepared), "reads out the one state"; ``{0}``: the state's words, ``{1}``:
# its digit.
_STATE = (rf"({{0}}) state(( assignment| readout| measurement)( {FID})?| {FID})|\|{{1}}(>|⟩)( state)?( readout| assignment"
          rf"| measurement)?( {FID})?|p\({{1}}\|{{1}}\)( readout| assignment)?( {FID})?|(read|reads|reading)( out)? (the )?"
          rf"\|?({{0}})(>|⟩)? state( with( an?| the)? {FID})?")
# The two-qubit gate as people write it: its duration words name the time row.  QDash's two-qubit gate is the ZX90
# (cross-resonance) gate; a lab calling its two-qubit gate "CZ" means these rows.
TWO_Q = r"(zx90|cz|controlled.z|cr|cnot|cross resonance|two.qubit|2q|entangling|coupling)"
_ONE_Q = r"(hpi|half.pi|pi.half|pi ?/ ?2|π ?/ ?2|x90|single.qubit|one.qubit|1q)"  # the half-pi pulse: the X90 gate
_NOT_RATED = r"(?! (error|infidelity|" + FID[1:] + ")"  # "the longest X90 gate fidelity" is the fidelity
_SWIFT = r"(fastest|quickest|briefest|shortest|slowest|longest)"
# How long a gate or pulse of ``{0}`` lasts: "how long is the X", "the X pulse lasts", "the X gate's ns
# count", "the duration of the X", "the fastest X gates"
_LASTS = (r"how (long|many ns|many nanoseconds?) (is|are|does|do|did|was|were) (the |a |its |their )?{0}"
          r"( gates?| pulses?)?|{0}( gates?| pulses?)? (lasts?|takes?)"
          r"|(duration|length|width)s? of (the |a |its |their |each )?{0}( gates?| pulses?)?"
          r"|" + _SWIFT + r" {0} (gates?|pulses?)" + _NOT_RATED)


@dataclass(frozen=True)
class Term:
    """A metric phrase (regex; a space also matches ``_``/``-``/none), the metric it names, and the metrics
    whose thresholds a question using it needs."""

    pattern: str
    metric: str | None
    thresholds: tuple[str, ...]


# Most specific first: :func:`metrics_named` lets an earlier term claim the words it matched.  ``x90(?!_)``: the
# written-out name ``x90_gate_fidelity`` names that metric alone.
METRIC_TERMS: tuple[Term, ...] = (
    Term(r"((readout )?resonator|readout) freq(uency|uencies)?", "readout_frequency", ()),
    # one state's fidelity (the |0> or |1> state) before the average readout fidelity
    Term(rf"(readout |assignment )?{FID} (of|for) (the )?(ground|zero|0) state|{_STATE.format('ground|zero|0', '0')}",
         "readout_fidelity_0", ("readout_fidelity_0",)),
    Term(rf"(readout |assignment )?{FID} (of|for) (the )?(excited|one|1) state|{_STATE.format('excited|one|1', '1')}",
         "readout_fidelity_1", ("readout_fidelity_1",)),
    Term(rf"(average )?(readout|measurement)( assignment)? {FID}|(average )?assignment {FID}|readout|reads? out",
         "average_readout_fidelity", ("average_readout_fidelity",)),
    # the gates' coherence limits, before "two-qubit" and "coherence" alone claim their words
    Term(r"(two.qubit|2q|zx90|cr|cross resonance|coupling)( gate)? coherence limits?", "two_qubit_gate_coherence_limit",
         ()),
    Term(r"(one.qubit|single.qubit|1q)( gate)? coherence limits?", "one_qubit_gate_coherence_limit", ()),
    # a coupling's gate time before its fidelity: a duration word said of a CR (2Q) gate or pulse names the time
    # row, never the fidelity ("ZX90 gate time", "CR pulse length", "how long is the cross-resonance gate")
    # a one-qubit gate's duration is its half-pi (X90) pulse's length; a time superlative said of a gate or pulse
    # ("the quickest HPI pulses", "the fastest gates") asks the time row, never the fidelity
    Term(rf"{_ONE_Q}( gate| pulse)? (time|duration|length|width)s?|{_LASTS.format(_ONE_Q)}", "hpi_length", ()),
    Term(r"hpi( pulse)? amplitudes?", "hpi_amplitude", ()),
    Term(rf"({TWO_Q}( gate| pulse)? )?gate (time|duration|length)s?|{TWO_Q}( gate| pulse)? (time|duration|length|width)s?"
         rf"|{_LASTS.format(TWO_Q)}|{_SWIFT} (gates?|pulses?){_NOT_RATED}", "zx90_gate_time", ()),
    # the interleaved RB depolarizing rates, before the gates' fidelities ("ZX90 depolarizing rate" is no fidelity)
    Term(rf"{TWO_Q}( gate)? depolari[sz]ing rates?", "zx90_depolarizing_rate", ()),
    Term(r"x90( gate)? depolari[sz]ing rates?", "x90_depolarizing_rate", ()),
    Term(rf"zx90(?!_)( gate)?( {FID})?|cz( gate)? {FID}", "zx90_gate_fidelity", _TWO_QUBIT),
    Term(rf"x90(?!_)( gate)?( {FID})?", "x90_gate_fidelity", _GATES),
    Term(rf"x180(?!_)( gate)?( {FID})?", "x180_gate_fidelity", _GATES),
    Term(rf"average gate {FID}|rb|randomi[sz]ed benchmarking", "average_gate_fidelity", _GATES),
    # the ZX90 (CR) gate
    Term(rf"(two.qubit|2q|entangling) gate {FID}|(cr|cross resonance)( gate| pulse)? {FID}", "zx90_gate_fidelity",
         _TWO_QUBIT),
    Term(rf"gate {FID}|single.qubit gates?", None, _GATES),
    Term(rf"bell( state)?( {FID})?", "bell_state_fidelity", ("bell_state_fidelity",)),
    Term(r"cr( pulses?)?|cross resonance( gates?| pulses?)?|cnot|two.qubit( gates?)?|entangling gates?|couplings?", None,
         _TWO_QUBIT),
    Term(r"t1|(energy )?relaxation times?|relax(es)? (fastest|quickest|slowest)|(short|long)(est|er)? lived", "t1",
         ("t1", "t1_average")),
    Term(r"t2 ?(\*|star)|ramsey( dephasing times?| decay times?)?", "t2_star", ("t2_star",)),
    Term(r"t2 ?e(cho)?|(hahn )?echo( t2| dephasing times?| decay times?)?|t2 hahn echo", "t2_echo",
         ("t2_echo", "t2_echo_average")),
    Term(r"t2(?![\s_-]*(\*|star|echo|e(?![a-z0-9])))|dephasing times?", None, ("t2_echo", "t2_echo_average", "t2_star")),
    Term(r"coherence|decoherence|lifetimes?", None, ("t1", "t2_echo", "t2_star")),
    # the loose names of the qubit's own (0-1 transition) frequency: "f01", "f_q", "resonance", "drive freq"
    Term(r"(qubit |transition |resonance |resonant |drive |ge |01 )?freq(uency|uencies)?|f ?01|f ?ge|f ?q|resonances?",
         "qubit_frequency", ("qubit_frequency",)),
    Term(r"anharmonicity", "anharmonicity", ("anharmonicity",)),
    Term(r"(static )?zz( interaction| crosstalk| cross talk| coupling)?", "static_zz_interaction", ()),
    Term(r"fidelity|fidelities|fids?|忠実度", None, _FIDELITIES),
)

# Physical quantities people ask about that no QDash task measures (no metric of the catalogue holds them): the words
# (a language.question_words Phrases spec), what the answer calls it, and the held metrics nearest to it.  A question
# about one is told the data holds no such quantity, never given a neighbour's value as if it were the one asked.
NOT_HELD: dict[str, tuple[str, tuple[str, ...]]] = {
    "depolariz*|depolaris*": ("depolarizing rate", ("average_gate_fidelity", "x90_gate_fidelity")),
    "leakage rate/rates|leakage|leak rate/rates": ("leakage rate", ("x90_gate_fidelity", "average_gate_fidelity")),
    "readout/measurement/microwave/qubit/gate/drive/xy? crosstalk|readout/measurement/microwave/qubit/gate/drive/xy? "
    "cross talk": (
        "crosstalk", ("static_zz_interaction", "zx90_gate_fidelity")),
    "thermal population/populations/excitation/occupation|excited state population|residual excited/excitation"
    "|effective/qubit temperature": ("thermal population",
                                     ("readout_fidelity_0", "average_readout_fidelity")),
    "dephasing rate/rates|pure dephasing|t phi|tphi|t_phi": ("pure dephasing rate", ("t2_echo", "t2_star", "t1")),
    "dispersive shift|chi shift": ("dispersive shift", ("readout_frequency", "qubit_frequency")),
    "resonator linewidth/linewidths|resonator kappa|kappa": ("resonator linewidth", ("readout_frequency",)),
    "spam error/errors|state preparation and measurement": ("SPAM error", ("average_readout_fidelity",)),
    "quasiparticle/quasiparticles|tls density|two level system density": (
        "quasiparticle or TLS density", ("t1",)),
    "charge noise|flux noise|charge dispersion": ("charge or flux noise", ("t2_echo", "t2_star")),
    "coupling strength/strengths|exchange coupling|j coupling": ("coupling strength", (
        "static_zz_interaction", "zx90_gate_time")),
    "readout/measurement? qnd/qndness|readout/measurement? qnd ness|readout/measurement? non/quantum? demolition"
    "|readout/measurement? nondemolition": ("measurement QND-ness", (
        "average_readout_fidelity", "readout_fidelity_1")),
    "state/qubit? purity|purities": ("state purity", ("average_readout_fidelity", "t2_echo")),
}



def not_held_named(name: str) -> tuple[str, tuple[str, ...]] | None:
    """The :data:`NOT_HELD` entry whose title (or title with ``_`` for spaces, as a tool argument) is ``name``."""
    said = " ".join(name.replace("_", " ").replace("-", " ").lower().split())
    return next((entry for entry in NOT_HELD.values() if entry[0].lower().replace("-", " ") == said), None)


def not_held_arg(key: str) -> str:
    """The tool argument naming the :data:`NOT_HELD` quantity of ``key`` ("depolarizing_rate")."""
    return "_".join(NOT_HELD[key][0].split()).replace("/", "_").replace("-", "_")


# Comparison and absence words, shared by the router (which tool), the prefetch (the threshold's side) and the claim
# check (what a number in an answer claims), so "under 50", "exceeding 99.9" or "without a valid T1" is read alike.
BELOW_WORDS = r"below|under|less than|lower than|shorter than|smaller than"  # "shorter": a time's limit
ABOVE_WORDS = r"above|over|greater than|more than|higher than|longer than|larger than|exceed(?:s|ing|ed)?"
LIMIT_WORDS = f"{BELOW_WORDS}|{ABOVE_WORDS}"
# The units an answer writes after a number (display units, with the ASCII and micro-sign spellings of μs).
UNIT_WORDS = (r"%|microsec(?:ond)?s?|usecs?|nanosec(?:ond)?s?|millisec(?:ond)?s?|(?:kilo|mega|giga)?hertz|per\s?cent"
              r"|[μµu]s|ns|ms|[kMG]?Hz|dB|sec(?:ond)?s?|s")  # spelled-out units too ("45 microseconds", "95 per cent")
NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
                "ten": 10}  # "the two most recent values", "which three qubits"
MISSING_WORDS = (r"no valid|not valid|invalid|missing|without (?:a )?(?:valid|usable|value|data)|no (?:usable )?data"
                 r"|no value|never measured|lacks?|lacking|no (?:\S+ ){1,3}?(?:values?|data|results?|readings?)")
_BELOW = re.compile(f"(?:{BELOW_WORDS})", re.I)


def is_below(word: str) -> bool:
    """Whether a comparison word (one of :data:`LIMIT_WORDS`) means "below"."""
    return _BELOW.fullmatch(" ".join(word.split())) is not None


def words(pattern: str, plural: bool = False) -> re.Pattern[str]:
    """``pattern`` as whole words, case-insensitive, a space matching any run of spaces, ``_`` or ``-``
    (``plural``: an "s" may follow, "the best 5 T1s", "T1's": only for names ending in a digit, as "two qubits" is
    no "two qubit" term)."""
    tail = r"(?:['’]?s)?" if plural else ""
    return re.compile(r"(?<![a-z0-9_])(" + pattern.replace(" ", r"[\s_-]*") + r")" + tail + r"(?![a-z0-9_])", re.I)


# Catalogue names written out ("t2_echo") come first: they are the most specific phrase of all.
_TERMS = tuple((words(re.escape(name), name[-1:].isdigit()), name, (name,) if name in _SCORED else ())
               for name in CATALOGUE) + tuple((words(t.pattern, t.pattern[-1:].isdigit()), t.metric, t.thresholds)
                                              for t in METRIC_TERMS)  # "T1s": a name ending in a digit, plural


def threshold_metrics(text: str) -> set[str]:
    """Every scored metric a question's words point at (each phrase on its own, as a threshold needs)."""
    return {name for rule, _, names in _TERMS if rule.search(text) for name in names}


def metric_spans(text: str) -> list[tuple[int, int, str | None]]:
    """``(start, end, metric)`` of every metric phrase in ``text``, in order (``None``: an ambiguous phrase), so a
    limit can be read as the limit of the metric written next to it."""
    found: list[tuple[int, int, str | None]] = []
    for rule, name, _ in _TERMS:
        for match in rule.finditer(text):
            start, end = match.span()
            if not any(start < e and s < end for s, e, _ in found):
                found.append((start, end, name))
    return sorted(found, key=lambda span: span[0])


def metrics_named(text: str) -> list[str | None]:
    """The metrics the question names, in the order it names them; ``None`` for an ambiguous phrase ("T2",
    "coherence", "fidelity"), so a caller can tell "one clear metric" from "one of several"."""
    spans = metric_spans(text)
    concrete = {name for _, _, name in spans if name is not None}
    named: list[str | None] = []
    for start, end, name in spans:
        if name is None and _framed(text[start:end], concrete):
            continue
        if name is None or name not in named:
            named.append(name)
    return named


_T2 = frozenset({"t2_echo", "t2_echo_average", "t2_star"})


def _framed(phrase: str, concrete: set[str]) -> bool:
    """An ambiguous phrase that only frames the metrics named beside it (a "coherence" heading over T1 and T2 echo):
    its family holds one of them, so it asks nothing more.  A bare "T2" is never a frame: echo or star is asked."""
    family = next((set(names) for rule, name, names in _TERMS if name is None and rule.fullmatch(phrase)), set())
    return bool(family & concrete) and family != _T2


def _count_digits(chip: str) -> str:
    """The digits a chip id starts with: its qubit count as QDash names chips ("64" of "64Qv3")."""
    return chip[:len(chip) - len(chip.lstrip("0123456789"))]


def chips_meant(written: str, installed: Sequence[str]) -> tuple[str, ...]:
    """The installed chips a chip written the way people write it can be, read the one way for the question and
    for a tool's argument: the id itself in any case ("64QV3"); else every id it begins, written with its whole
    qubit count and a letter after it ("64Q", "64qv" of "64Qv3"; "6Q" and a bare "64" begin none); else the ids it is
    with one typing slip undone (:func:`_slips`).  One chip: the
    one meant; several: a choice to ask about; none: no such chip."""
    said = written.strip().lower()
    exact = [chip for chip in installed if chip.lower() == said]
    if exact:
        return (exact[0],)
    digits = _count_digits(said)
    if not digits or len(said) <= len(digits):
        return ()
    begun = tuple(dict.fromkeys(chip for chip in installed
                                if chip.lower().startswith(said) and _count_digits(chip) == digits))
    return begun or tuple(chip for chip in installed if chip.lower() in _slips(said) and _count_digits(chip) == digits)


def _slips(said: str) -> set[str]:
    """What ``said`` is with one typing slip undone: a key struck twice ("64qv33") or two keys swapped ("64qv3" of
    "64q3v"); a key struck for another ("64qv4") is another chip's name, never a slip."""
    doubled = {said[:i] + said[i + 1:] for i in range(1, len(said)) if said[i] == said[i - 1]}
    return doubled | {said[:i] + said[i + 1] + said[i] + said[i + 2:] for i in range(len(said) - 1)}


def chip_resolved(written: str, installed: Sequence[str]) -> str:
    """``written`` as the one installed chip it means, else as written (an unknown chip, or one of several)."""
    meant = chips_meant(written, installed)
    return meant[0] if len(meant) == 1 else written


def chip_named(text: str, chip_ids: list[str]) -> str | None:
    """The one chip among ``chip_ids`` the text names as a whole word (any case), or None when it names none or
    several: a question about one other chip is answered on that chip, a comparison of chips is the model's."""
    lowered = text.lower()
    named = {chip for chip in chip_ids if chip and re.search(
        r"(?<![A-Za-z0-9_-])" + re.escape(chip.lower()) + r"(?![A-Za-z0-9_-])", lowered)}
    return named.pop() if len(named) == 1 else None
