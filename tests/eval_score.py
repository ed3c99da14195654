"""The eval's scorer: an expected value counts only in the sentence (or table row) that claims it.

Dates, times, execution ids, chip ids and qubit or coupling labels are masked before numbers are read, so the
digits of "2026-11-28" or "Q28" never pass for 28.  A count must be written as a count: a whole number, no unit
after it, in a sentence that counts something (qubits, tasks, runs ...).  ``near`` patterns bind a value to its
subject (the qubit or task it belongs to), ``winner``/``loser`` bind a comparison to the right side.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

Kind = Literal["value", "count"]

_MASKS = (
    re.compile(r"\b\d{4}-\d{2}-\d{2}(?:[ T]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?(?:\s*UTC)?"),  # dates
    re.compile(r"\b\d{1,2}:\d{2}(?::\d{2})?\b"),  # times
    re.compile(r"\b\d{8}-\d{3}\b"),  # execution ids
    re.compile(r"\b\d+Q[vV]\d+\b"),  # chip ids
    re.compile(r"\bQ\d+(?:\s*[-–→]\s*Q?\d+)?\b"),  # qubit labels and Q-style couplings
    re.compile(r"\b(?:qubits?|qid|coupling|pair)\s*#?\s*\d+(?:\s*(?:[-–→]|and|,)\s*\d+)*(?![.\d])", re.I),
    re.compile(r"(?<![\d.])\d+\s*[-–→]\s*\d+(?![.\d])"),  # bare couplings "5-6"
)
_NUMBER = re.compile(r"(?<![\w.])([-−]?)(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?:[eE]([-+]?\d+))?(?![\w])")
_UNIT_AFTER = re.compile(r"\s*(μs|us|µs|ms|ns|%|percent|GHz|MHz|kHz|days?|hours?|weeks?|minutes?|s\b)", re.I)
_COUNTED = re.compile(r"\b(qubits?|tasks?|runs?|executions?|failures?|failed|times?|calibrations?|couplings?|"
                      r"pairs?|results?)\b", re.I)
_HIGHER = re.compile(r"\b(higher|greater|larger|longer|better|more|leads?|wins?|exceeds?|outperforms?|above|"
                     r"best|highest|stronger|superior)\b", re.I)
_LOWER = re.compile(r"\b(lower|smaller|shorter|worse|less|below|trails?|loses?|weaker|lowest|worst)\b", re.I)
_SPLIT = re.compile(r"(?<=[.!?;])\s+|\n+|(?<=:)\s+(?=[A-Z])")


@dataclass(frozen=True)
class Expect:
    """One value the answer must state: ``value`` within ``tol`` (or one of ``alternatives``)."""

    value: float
    tol: float = 0.0
    kind: Kind = "value"
    near: tuple[str, ...] = ()  # regexes that must be in the same sentence
    unit: str = ""  # "%" : written as a percentage (a "%" or "percent" after it, or in the sentence)
    alternatives: tuple[float, ...] = ()
    signed: bool = False  # the sign matters (a correlation), else "-3" and "3" both state a change of 3


@dataclass(frozen=True)
class Truth:
    numbers: tuple = ()  # Expect, or (value, tolerance): a whole value with tolerance 0 is a count
    patterns: tuple[str, ...] = ()  # regexes that must match somewhere
    any_words: tuple[str, ...] = ()  # at least one must appear (case-insensitive)
    chart: bool = False
    winner: str | None = None  # regex of the side a comparison must put first / higher
    loser: str | None = None
    no_values: bool = False  # the answer states no measured value (the thing asked about does not exist)
    expects: tuple[Expect, ...] = field(init=False, default=())

    def __post_init__(self) -> None:
        out = []
        for item in self.numbers:
            if isinstance(item, Expect):
                out.append(item)
            else:
                value, tol = item
                whole = tol == 0 and float(value).is_integer()
                out.append(Expect(float(value), tol, "count" if whole else "value"))
        object.__setattr__(self, "expects", tuple(out))


@dataclass(frozen=True)
class Token:
    value: float
    whole: bool
    unit: str  # the unit written right after it ("" when none)


def claims(answer: str) -> list[str]:
    """The answer cut into sentences, list items and table rows (each one claim unit)."""
    units = []
    for line in answer.splitlines():
        if line.count("|") >= 2:
            units.append(line)
            continue
        units.extend(u for u in _SPLIT.split(line) if u.strip())
    return units


def masked(text: str) -> str:
    for mask in _MASKS:
        text = mask.sub(" ∎ ", text)
    return text


def tokens(unit: str) -> list[Token]:
    """The numbers a sentence states, with the unit written after each (dates, ids and labels are not numbers)."""
    text = masked(unit)
    out = []
    for m in _NUMBER.finditer(text):
        sign, whole, frac, exp = m.groups()
        raw = whole.replace(",", "") + (frac or "") + (f"e{exp}" if exp else "")
        value = float(raw) * (-1 if sign else 1)
        after = _UNIT_AFTER.match(text, m.end())
        out.append(Token(value, frac is None and exp is None, after.group(1).lower() if after else ""))
    return out


def _close(token: Token, target: float, expect: Expect) -> bool:
    got = token.value if expect.signed else abs(token.value)
    want = target if expect.signed else abs(target)
    return abs(got - want) <= expect.tol + 1e-9


def stated(expect: Expect, unit: str) -> bool:
    """Whether ``unit`` (one sentence) states ``expect`` as the claim it is."""
    if not all(re.search(p, unit, re.I) for p in expect.near):
        return False
    targets = (expect.value, *expect.alternatives)
    for token in tokens(unit):
        if not any(_close(token, t, expect) for t in targets):
            continue
        if expect.kind == "count":
            if token.whole and token.unit == "" and _COUNTED.search(unit):
                return True
            continue
        if expect.unit == "%" and not (token.unit in ("%", "percent") or "%" in unit or "percent" in unit.lower()):
            continue
        if token.unit in ("day", "days", "hour", "hours", "week", "weeks", "minute", "minutes"):
            continue
        return True
    return False


def _ordered(unit: str, first: str, second: str, word: re.Pattern[str]) -> bool:
    """``first`` is written before a comparison word in ``unit`` with no ``second`` between them."""
    a = re.search(first, unit, re.I)
    if not a:
        return False
    w = word.search(unit, a.end())
    if not w:
        return False
    b = re.search(second, unit[a.end():w.start()], re.I)
    return b is None


def compared(answer: str, winner: str, loser: str) -> bool:
    """Some sentence puts the winner above the loser, and none puts the loser above the winner."""
    units = claims(answer)
    right = any(_ordered(u, winner, loser, _HIGHER) or _ordered(u, loser, winner, _LOWER) for u in units)
    wrong = any(_ordered(u, loser, winner, _HIGHER) or _ordered(u, winner, loser, _LOWER) for u in units)
    return right and not wrong


def problems(truth: Truth, answer: str, charts: int = 0) -> list[str]:
    """Why ``answer`` does not give the truth (empty: it does)."""
    units = claims(answer)
    out = [f"not stated: {e.kind} {e.value:g}" for e in truth.expects if not any(stated(e, u) for u in units)]
    out += [f"missing pattern {p!r}" for p in truth.patterns if not re.search(p, answer)]
    if truth.any_words and not any(w in answer.lower() for w in truth.any_words):
        out.append("none of the expected words")
    if truth.winner and truth.loser and not compared(answer, truth.winner, truth.loser):
        out.append("the comparison does not put the right side first")
    if truth.no_values and any(t.unit in ("μs", "us", "µs", "%", "percent", "ghz", "mhz") for u in units
                               for t in tokens(u)):
        out.append("states a measured value for something that does not exist")
    if truth.chart and charts == 0:
        out.append("no chart")
    return out


def passed(truth: Truth, answer: str, charts: int = 0) -> bool:
    return not problems(truth, answer, charts)
