"""Values written in words ("from thirty to seventy us", "above ninety-five percent", "three hundred
nanoseconds") read as the digits they are, so a limit written in words is the same limit as one written in digits.

A tens word (twenty ... ninety), alone or joined to a unit word ("forty-five", "ninety five"), and a "N hundred" are
always values; a word below twenty ("five", "twelve") is one only when a unit follows it ("five microseconds"), since
"which one" or "the two most recent" count, not measure.  "point" and a digit word after a value are its decimals
("ninety-nine point five").  Positions stay: the digits are padded on the left to the words' length.
"""

from __future__ import annotations

from copilot_core.domain.units import family
from copilot_core.language.phrases import tokens_of

UNITS: dict[str, int] = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                         "eight": 8, "nine": 9}
TEENS: dict[str, int] = {"ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
                         "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19}
TENS: dict[str, int] = {"twenty": 20, "thirty": 30, "forty": 40, "fourty": 40, "fifty": 50, "sixty": 60,
                        "seventy": 70, "eighty": 80, "ninety": 90}
# unit words a value below twenty must have after it to be read as a value
_UNIT_AFTER = frozenset({"percent", "per", "microseconds", "microsecond", "microsec", "us", "μs", "usec", "usecs",
                         "nanoseconds", "nanosecond", "nanosec", "ns", "megahertz", "mhz", "gigahertz", "ghz"})
_JOINS = frozenset({"-", " ", "–"})
Token = tuple[int, int, str]


def _below_hundred(tokens: list[Token], i: int, text: str) -> tuple[int, int] | None:
    """The value (0-99) the words from token ``i`` write and the token index after them, else None."""
    word = tokens[i][2]
    if word in TENS:
        if i + 1 < len(tokens) and tokens[i + 1][2] in UNITS and tokens[i + 1][2] != "zero" and \
                text[tokens[i][1]:tokens[i + 1][0]] in _JOINS:
            return TENS[word] + UNITS[tokens[i + 1][2]], i + 2
        return TENS[word], i + 1
    if word in TEENS:
        return TEENS[word], i + 1
    if word in UNITS:
        return UNITS[word], i + 1
    return None


def _value(tokens: list[Token], i: int, text: str) -> tuple[str, int, bool] | None:
    """The value written from token ``i`` (as digits), the token index after it, and whether it holds a tens word or
    a hundred (always a value), else None."""
    first = _below_hundred(tokens, i, text)
    if first is None:
        return None
    value, j = first
    sure = tokens[i][2] in TENS
    if j < len(tokens) and tokens[j][2] == "hundred" and 0 < value < 10:
        value, j, sure = value * 100, j + 1, True
        if j + 1 < len(tokens) and tokens[j][2] == "and" and tokens[j + 1][2] in {**TENS, **TEENS, **UNITS}:
            j += 1
        rest = _below_hundred(tokens, j, text) if j < len(tokens) else None
        if rest is not None:
            value, j = value + rest[0], rest[1]
    written = str(value)
    if j + 1 < len(tokens) and tokens[j][2] == "point" and tokens[j + 1][2] in UNITS:
        decimals = ""
        j += 1
        while j < len(tokens) and tokens[j][2] in UNITS:
            decimals, j = decimals + str(UNITS[tokens[j][2]]), j + 1
        written = f"{written}.{decimals}"
    return written, j, sure


def value_at(tokens: list[Token], i: int, text: str) -> tuple[str, int] | None:
    """The number written from token ``i``, in digits or in words, and the token index after it, else None."""
    if tokens[i][2].isdigit():
        return tokens[i][2], i + 1
    found = _value(tokens, i, text)
    return None if found is None else (found[0], found[1])


def _unit_follows(tokens: list[Token], j: int, text: str) -> bool:
    """Whether a unit is written right after the value ending before token ``j`` ("five microseconds", "six %")."""
    if j < len(tokens) and (tokens[j][2] in _UNIT_AFTER or family(tokens[j][2]) is not None):
        return True
    end = tokens[j - 1][1]
    return text[end:end + 2].strip().startswith("%")


def spelled_as_digits(text: str, always: int = 20) -> str:
    """``text`` with every value written in words written as digits, right-aligned in the words' place; a value of
    ``always`` or more needs no unit after it (11 for a window of "the last fourteen days")."""
    tokens = tokens_of(text)
    out, i = list(text), 0
    while i < len(tokens):
        found = _value(tokens, i, text)
        if found is None:
            i += 1
            continue
        written, j, sure = found
        if sure or float(written) >= always or _unit_follows(tokens, j, text):
            start, end = tokens[i][0], tokens[j - 1][1]
            out[start:end] = list(written.rjust(end - start))
        i = j
    return "".join(out)
