"""Which digits in a text are numbers a reader takes as values: the one tokenizer for questions and answers.

Dates, times, ordered-list markers and multiples of a standard deviation are names or choices, not
measurements, so they are blanked (positions kept) before numbers are read.  A number written right after
:data:`DERIVED_MARKER` is one the writer says it computed.
"""

from __future__ import annotations

import re

from copilot_core.domain.vocabulary import UNIT_WORDS
from copilot_core.language.dates import DATES
from copilot_core.language.forms import blanked, found, found_at, found_each

DERIVED_MARKER = "≈"

# What the answer's number reader tells apart, one grammar (read with :func:`~copilot_core.language.forms.found`):
# ``number`` one number (optional sign, digits with optional thousands separators, decimals, exponent; ``marker``
# when the derived mark is before it), and what is not a measurement: ``time`` ("10:20"), ``list_marker`` (an
# ordered list's "1."), ``sigma`` ("2σ": a method's choice, not data).
NUMBERS = re.compile(
    r"(?=[\d≈+\-−]|(?m:^))"  # where a form can start
    r"(?:(?=(?P<number>(?<![\w.])(?P<number__marker>≈\s*)?"
    r"(?P<number__num>[-−+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][-+]?\d+)?)))|)"
    r"(?:(?=(?P<time>\b\d{1,2}:\d{2}(?::\d{2})?\b))|)"
    r"(?:(?=(?P<list_marker>(?m:^)\s*(?:[-*+]\s+)?\d+[.)](?=\s)))|)"
    r"(?:(?=(?P<sigma>\b\d+(?:\.\d+)?\s*(?:σ|sigma)))|)"
    r"(?(number)|(?(time)|(?(list_marker)|(?(sigma)|(?!)))))"  # where some form starts
)
# The other readers around numbers (a grammar of their own: every form a grammar holds is tried at every position,
# so the answer's reader, the busiest, keeps its grammar small): ``unit`` a unit right after a number (one space
# allowed); ``plain`` a signed decimal standing alone (the figures of a qubit review); ``source`` an unsigned
# decimal with an optional exponent (the digits inside a tool's strings).
PLAIN_NUMBERS = re.compile(
    rf"(?=\d|[-−+]\d|\s?(?:{UNIT_WORDS}))"  # where a form can start
    rf"(?:(?=(?P<unit>\s?(?P<unit__word>{UNIT_WORDS})(?![\w])))|)"
    r"(?:(?=(?P<plain>(?<![\w.])[-−+]?\d+(?:\.\d+)?))|)"
    r"(?:(?=(?P<source>\d+(?:\.\d+)?(?:[eE][-+]?\d+)?))|)"
    r"(?(unit)|(?(plain)|(?(source)|(?!))))"  # where some form starts
)


def number_spans(text: str) -> list[tuple[int, int, str, bool]]:
    """``(start, end, number as written, marked as derived)`` for every checked number in ``text``, in order;
    positions are those of ``text`` (names, dates and list markers are blanked, not removed)."""
    text = blanked(text, found(DATES, text, "iso"))
    # times, then list markers, then "2σ" are blanked, each read on the text the ones before left; one pass reads
    # them all, and the text is read again only after something was blanked
    stages = ("time", "list_marker", "sigma", "number")
    each = found_each(NUMBERS, text, stages)
    for i, form in enumerate(stages[:-1]):
        if each[form]:
            text = blanked(text, each[form])
            each = found_each(NUMBERS, text, stages[i + 1:])
    out = []
    for m in each["number"]:
        num = m.groups["num"] or ""
        start = m.end - len(num)
        out.append((start, m.end, num, bool(m.groups["marker"])))
    return out


def list_markers(text: str) -> list[tuple[int, int]]:
    """Where ``text`` opens a line with an ordered list's marker ("1. ", "- 2) "): a position, never a value."""
    return [(m.start, m.end) for m in found(NUMBERS, text, "list_marker")]


# How a power of ten is written after a mantissa ("3.5×10^-5", "3.5 x 10-5", "3.5·10⁻⁵"), longest first: each is an "e".
_TIMES_TEN = ("×10**", "x10**", "*10**", "·10**", "×10^", "x10^", "*10^", "·10^", "×10", "x10", "*10", "·10")
_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")


def signed_value(written: str) -> float:
    """A number as written, as a float: a typographic minus ("−2"), thousands commas ("1,200") and an exponent in
    any notation ("3.5e-5", "3.5E-5", "3.5×10^-5", "3.5 x 10-5", "3.5·10⁻⁵") read too."""
    text = "".join(written.replace(",", "").replace("−", "-").lower().split()).translate(_SUPERSCRIPTS)
    times = next((t for t in _TIMES_TEN if t in text), None)
    return float(text.replace(times, "e", 1) if times is not None else text)


def answer_numbers(text: str) -> list[tuple[str, bool]]:
    """``(number as written, marked as derived)`` for every checked number in ``text``, in order."""
    return [(written, derived) for _, _, written, derived in number_spans(text)]


def unit_after(text: str) -> tuple[str, int] | None:
    """The unit written right after a number and where it ends in ``text`` (which starts where the number ends;
    one space allowed), or None."""
    unit = found_at(PLAIN_NUMBERS, text, "unit")
    return (unit.groups["word"] or "", unit.end) if unit else None
