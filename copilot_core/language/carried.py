"""Limits whose comparison word is written once for several numbers: a passing verb before a metric and its value
("passes an X of v", then "a Y of w" joined to it), or one comparison before the first value only ("clears v on X,
w on Y").

Each later value of a metric, joined to the limit before it, is a limit on the same side.  A number is carried only
when it is a value of a metric (a unit after it, or "of" / "is" / "at" before it), never a count (days, runs), a
label (a qubit's number) or a chip's size.
"""

from __future__ import annotations

from collections.abc import Sequence

from copilot_core.domain.vocabulary import metric_spans
from copilot_core.language.comparisons import Way, comparison
from copilot_core.language.numbers import number_spans, signed_value, unit_after
from copilot_core.language.question_words import CHIP_ID, MENTION, tokens_of
from copilot_core.language.stated_numbers import COUNT_NOUNS

Carried = tuple[int, int, Way, float, str, bool]  # start, end, side, value, unit as written, a value at it counts
# Verbs of passing a limit that take the metric first ("passes an X of v"): at least the value.
_PASSING: dict[str, tuple[Way, bool]] = {w: ("above", True) for w in (
    "pass", "passes", "passing", "satisfy", "satisfies", "satisfying", "achieve", "achieves", "achieving")}
_VALUE_BEFORE = frozenset({"of", "is", "at", "=", "are", "be"})
_JOINS = frozenset({"and", "or", "plus", "while", "but", "also", "whereas"})  # a number joined to the limit before
_COUNTED = frozenset({"days", "day", "weeks", "week", "hours", "hour", "months", "month", "times", "runs", "values"})
_REACH = 8  # tokens a comparison word governs a number across


def _carriers(text: str) -> list[tuple[int, int, Way, bool]]:
    """``(start, end, side, inclusive)`` of every comparison word or passing verb in ``text``, the longest at a place."""
    tokens = tokens_of(text)
    out: list[tuple[int, int, Way, bool]] = []
    for i, (start, _, _) in enumerate(tokens):
        if out and start < out[-1][1]:
            continue
        for k in (4, 3, 2, 1):
            said = " ".join(t[2] for t in tokens[i:i + k])
            found = _PASSING.get(said) or comparison(said) if i + k <= len(tokens) else None
            if found is not None:
                out.append((start, tokens[i + k - 1][1], found[0], found[1]))
                break
    return out


def _a_value(text: str, start: int, end: int, unit: str) -> bool:
    """The number at ``start``..``end`` is a metric's value: a unit after it or "of"/"is" before it, no count after
    it, no label or chip id around it."""
    if text[end:end + 1].isalpha() and not unit or any(m.start() <= start < m.end() for m in MENTION.finditer(text)) \
            or any(m.start() <= start < m.end() for m in CHIP_ID.finditer(text)):
        return False
    after = tokens_of(text[end:])[:1]
    if after and not unit and (after[0][2].rstrip("s") in COUNT_NOUNS or after[0][2] in _COUNTED):
        return False
    before = tokens_of(text[:start])[-1:]
    return bool(unit) or bool(before) and before[0][2] in _VALUE_BEFORE


def carried(text: str, taken: Sequence[tuple[int, int, Way, bool]]) -> list[Carried]:
    """The limits ``text`` writes with a comparison carried from a word before them; ``taken``: the limits already
    read (``(start, end, side, inclusive)``), which carry their side to the numbers joined after them."""
    metrics = [(s, e) for s, e, name in metric_spans(text) if name is not None]
    carriers = [c for c in _carriers(text) if not any(s <= c[0] < e for s, e, *_ in taken)]
    out: list[Carried] = []
    for start, end, written, _ in number_spans(text):
        if any(s <= start < e for s, e, *_ in taken):
            continue
        unit, skip = unit_after(text[end:]) or ("", 0)
        if not _a_value(text, start, end, unit):
            continue
        before = [c for c in [*carriers, *((s, e, w, i) for s, e, w, i in taken), *((s, e, w, i) for s, e, w, _, _, i
                                                                                    in out)] if c[1] <= start]
        if not before:
            continue
        carrier = max(before, key=lambda c: c[1])
        gap = text[carrier[1]:start]
        words = {w for _, _, w in tokens_of(gap)}
        near_metric = any(carrier[1] <= s and e <= start for s, e in metrics) or \
            any(end + skip < s <= end + skip + 12 for s, _ in metrics)
        joined = carrier in carriers or bool(words & _JOINS) or "," in gap
        if len(words) <= _REACH and near_metric and joined and \
                not any(carrier[1] <= s < start for s, *_ in number_spans(text)):
            out.append((start, end + skip, carrier[2], signed_value(written), unit, carrier[3]))
    return out
