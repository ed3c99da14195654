"""Which digits in a text are numbers a reader takes as values: the one tokenizer for questions and answers.

Dates, times, ordered-list markers and multiples of a standard deviation are names or choices, not
measurements, so they are blanked (positions kept) before numbers are read.  A number written right after
:data:`DERIVED_MARKER` is one the writer says it computed.
"""

from __future__ import annotations

import re

from copilot_core.domain.vocabulary import UNIT_WORDS

DERIVED_MARKER = "≈"

# One number as written: optional sign, digits with optional thousands separators, decimals, exponent.
_NUMBER = re.compile(r"(?<![\w.])(?P<marker>≈\s*)?(?P<num>[-−+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][-+]?\d+)?)")
_UNIT = re.compile(rf"\s?({UNIT_WORDS})(?![\w])")
# An ISO date, maybe with its time and zone: a name of a moment, never a measurement.
DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?(?:Z|[+-]\d{2}:?\d{2})?")
_NOT_MEASUREMENTS = (
    DATE,
    re.compile(r"\b\d{1,2}:\d{2}(?::\d{2})?\b"),  # times
    re.compile(r"(?m)^\s*(?:[-*+]\s+)?\d+[.)](?=\s)"),  # ordered-list markers
    re.compile(r"\b\d+(?:\.\d+)?\s*(?:σ|sigma)"),  # "2σ": a method's choice, not data
)


def number_spans(text: str) -> list[tuple[int, int, str, bool]]:
    """``(start, end, number as written, marked as derived)`` for every checked number in ``text``, in order;
    positions are those of ``text`` (names, dates and list markers are blanked, not removed)."""
    for pattern in _NOT_MEASUREMENTS:
        text = pattern.sub(lambda m: " " * len(m.group(0)), text)
    return [(m.start("num"), m.end("num"), m.group("num"), bool(m.group("marker"))) for m in _NUMBER.finditer(text)]


def answer_numbers(text: str) -> list[tuple[str, bool]]:
    """``(number as written, marked as derived)`` for every checked number in ``text``, in order."""
    return [(written, derived) for _, _, written, derived in number_spans(text)]


def unit_after(text: str) -> tuple[str, int] | None:
    """The unit written right after a number and where it ends in ``text`` (which starts where the number ends;
    one space allowed), or None."""
    found = _UNIT.match(text)
    return (found.group(1), found.end()) if found else None
