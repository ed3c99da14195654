"""A number's unit held to the unit of what it states: a unit the fact's metric does not have (and cannot be
converted to) is wrong by itself, a unit of the same family is converted before the number is matched.

Numbers were matched by value alone, so "T1's standard deviation is 26.7 MHz" passed on the tools' 26.7 μs,
"the IQR is 12 dB" on any 12, and a right value in another unit of its family ("0.0452 ms" for 45.2 μs) was struck.
Here a fact's unit is the one its result states, else its metric's (:mod:`~copilot_core.domain.metrics`); a share,
a coefficient of variation or a change in percent is in %; a count, a total and a correlation coefficient have none.
Units are :mod:`~copilot_core.domain.units`' (symbols, and names written out: "45 microseconds").
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from copilot_core.checking.claim_facts import CATALOGUE_LIMIT, Fact, matches
from copilot_core.checking.claim_reading import Reading
from copilot_core.checking.matcher import written_decimals, written_value
from copilot_core.domain.metrics import CATALOGUE
from copilot_core.domain.units import FAMILIES, SPELLED_UNITS, UnitMismatch, canonical, convert, family
from copilot_core.domain.vocabulary import NUMBER_WORDS, metrics_named
from copilot_core.language.numbers import number_spans, unit_after
from copilot_core.language.question_words import tokens_of
from copilot_core.language.stated_numbers import COUNT_NOUNS

_PLAIN_ROLES = ("count", "total", "r")  # a plain number: any unit written with it is wrong
_PERCENT_ROLES = ("cv", "percent")
_RANGE_JOINS = ("and", "to", "-", "–", "—")  # "between 20 and 40 μs", "20–40 μs": the first number's unit is after


def written_unit(after: str) -> str | None:
    """The unit written right after a number (``after`` starts where it ends), canonical ("microseconds" -> "μs");
    for the first number of a range ("between 20 and 40 μs") the unit after the second; None when none is."""
    unit = _unit_opening(after)
    if unit is not None:
        return unit
    rest = after.lstrip()
    for join in _RANGE_JOINS:
        if rest.startswith(join) and (not join.isalpha() or rest[len(join):len(join) + 1].isspace()):
            tail = rest[len(join):]
            spans = number_spans(tail[:40])
            if spans and not tail[:spans[0][0]].strip():
                return _unit_opening(tail[spans[0][1]:])
    return None


def _unit_opening(after: str) -> str | None:
    found = unit_after(after)
    if found is not None:
        return canonical(found[0])
    words = tokens_of(after[:30])
    if words and not after[:words[0][0]].strip() and words[0][2] in SPELLED_UNITS:
        return SPELLED_UNITS[words[0][2]]
    return None


def fact_unit(fact: Fact) -> str | None:
    """The unit ``fact`` is in: "" for a plain number, None when nothing says (any unit may state it)."""
    if fact.role in _PLAIN_ROLES:
        return ""
    if fact.role in _PERCENT_ROLES or (fact.role == "change" and fact.qualifier == "pct"):
        return "%"
    if fact.unit:
        return canonical(fact.unit)
    entry = CATALOGUE.get(fact.metric or "")
    return entry.unit if entry is not None else None


def _precision(written: str) -> int:
    """The decimals ``written`` resolves, trailing zeros of a whole number not counted ("45200" -> -2)."""
    decimals = written_decimals(written)
    mantissa = written.lower().partition("e")[0]
    if "." in mantissa or "e" in written.lower():
        return decimals
    digits = mantissa.lstrip("+-−").replace(",", "")
    return -(len(digits) - len(digits.rstrip("0"))) if digits.strip("0") else 0


def unit_fits(written: str, unit: str | None, fact: Fact) -> bool:
    """``written`` in ``unit`` (None: no unit written) states ``fact``: in the fact's unit, or converted to it from
    a unit of its family; a fraction with no unit states a percentage (0.9978 is 99.78%)."""
    value, decimals = written_value(written), written_decimals(written)
    expected = fact_unit(fact)
    if unit is None:
        return matches(value, decimals, fact) or (expected == "%" and value <= 1 < fact.value
                                                  and matches(value * 100, decimals - 2, fact))
    if expected is None or unit == expected:
        return matches(value, decimals, fact)
    kind = family(unit)
    if not expected or kind is None or kind != family(expected):
        return False
    factor = FAMILIES[kind][unit] / FAMILIES[kind][expected]
    return matches(value * factor, _precision(written) - round(math.log10(factor)), fact)


def in_metric_unit(value: float, unit: str | None, name: str) -> float:
    """``value`` written in ``unit`` expressed in the unit of metric ``name`` (as is when it cannot be)."""
    entry = CATALOGUE.get(name)
    if unit is None or entry is None or not entry.unit:
        return value
    try:
        return convert(value, unit, entry.unit)
    except UnitMismatch:
        return value


def said_metric(clause: str, sentence: str, facts: Sequence[Fact]) -> str | None:
    """The metric a number is said of: named in its clause, else the nearest one named before it in its sentence,
    else the one metric the tool results hold."""
    for text in (clause, sentence):
        named = [n for n in metrics_named(text) if n is not None]
        if named:
            return named[-1] if text is sentence else named[0] if len(named) == 1 else None
    held = {f.metric for f in facts if f.metric and f.qualifier != CATALOGUE_LIMIT}
    return held.pop() if len(held) == 1 else None


def unit_problem(written: str, unit: str | None, facts: Sequence[Fact], name: str | None) -> str | None:
    """Why a number no fact holds in its unit is wrong by its unit alone: its value is a fact's in another unit,
    it reads a fraction as a percentage, or its unit is not of the family of the metric it is said of (``name``).
    None when nothing says so (the number may still be unbacked)."""
    if unit is None:
        return None
    value, decimals = written_value(written), written_decimals(written)
    if unit == "%" and value < 1:
        fraction = [f for f in facts if fact_unit(f) == "%" and matches(value * 100, decimals - 2, f)]
        if fraction:
            return f"{written}% reads a fraction as a percentage ({fraction[0].describe()} is {value * 100:g}%)"
    same = [f for f in facts if f.role != "threshold" and matches(value, decimals, f)]
    if same:
        return f"{written} {unit} is not in the unit of {same[0].describe()} ({fact_unit(same[0]) or 'a plain number'})"
    own = CATALOGUE[name].unit if name is not None and name in CATALOGUE else ""
    if unit != "%" and family(own) is not None and family(unit) != family(own):
        return f"{written} {unit} is not in {name}'s unit ({own})"
    return None


# Plural nouns after a whole number that the ledger counts ("62 qubits") or that are no count of items ("7 days",
# "3 times"), and words ending in "s" that are no plural noun ("12 is", "across").
_NOT_UNCOUNTED = frozenset({f"{n}s" for n in COUNT_NOUNS} | {
    "chips", "seconds", "minutes", "hours", "days", "weeks", "months", "years", "times", "decimals", "places",
    "digits", "sigmas", "is", "was", "has", "as", "its", "this", "thus", "plus", "minus", "versus", "vs"})


def uncounted_noun(reading: Reading) -> str | None:
    """The plural noun a whole number counts when no tool counts that kind of item ("12 anomalies", "3 outliers"),
    else None."""
    if reading.decimals or "." in reading.written:
        return None
    words = tokens_of(reading.after[:40])
    if not words or reading.after[:words[0][0]] != " ":
        return None
    noun = words[0][2]
    if not noun.isalpha() or not noun.endswith("s") or noun.endswith(("ss", "us", "ous", "is")) \
            or noun in _NOT_UNCOUNTED:
        return None
    return noun


# Number words beyond one to ten a sentence may state a value in ("about twelve microseconds").
_MORE_WORDS = frozenset({"zero", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
                         "eighteen", "nineteen", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty",
                         "ninety", "hundred", "thousand", "half", "dozen"})
_SYMBOLS = frozenset(unit.lower() for units in FAMILIES.values() for unit in units if unit != "s") | {"us", "µs"}


def spelled_value(sentence: str) -> bool:
    """The sentence states a value in words: a number written as a word with a unit after it ("about three
    microseconds", "ten percent", "twenty μs").  The number reader reads digits only."""
    tokens = tokens_of(sentence)
    for i, (_, end, word) in enumerate(tokens):
        if word not in NUMBER_WORDS and word not in _MORE_WORDS:
            continue
        if sentence[end:].lstrip()[:1] == "%":
            return True
        following = tokens[i + 1][2] if i + 1 < len(tokens) else ""
        if following in SPELLED_UNITS or following in _SYMBOLS:
            return True
    return False
