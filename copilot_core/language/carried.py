"""Limits whose comparison word is written once for several numbers: a passing verb before a metric and its value
("passes an X of v", then "a Y of w" joined to it), or one comparison before the first value only ("clears v on X,
w on Y"); and a value named as a limit ("the bar at v", "a cutoff of v", "v as the threshold") that a comparison
later takes as its object ("clear it", "fall below that", "miss the bar": :func:`named`).

Each later value of a metric, joined to the limit before it, is a limit on the same side.  A number is carried only
when it is a value of a metric (a unit after it, or "of" / "is" / "at" before it), never a count (days, runs), a
label (a qubit's number) or a chip's size.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

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
# Nouns that name a value as a limit, and the words joining one to its value ("the bar at 40", "a cutoff of 95%").
_LIMIT_NOUNS = frozenset({"bar", "cutoff", "cut", "threshold", "limit", "line", "mark", "target", "spec", "criterion",
                          "benchmark", "requirement", "floor", "ceiling", "standard", "hurdle"})
_NAMING = frozenset({"at", "of", "is", "=", "to", "set", "being", "be", "as", "off", "on", "for"})
_OBJECTS = frozenset({"it", "that", "this", "them", "those"}) | _LIMIT_NOUNS
# Verbs that take a named limit as their object only ("make the cut", "miss the bar").
_ON_A_NAMED: dict[str, tuple[Way, bool]] = {
    **{w: ("better", True) for w in ("make", "makes", "made", "making", "pass", "passes", "passed", "passing")},
    **{w: ("worse", False) for w in ("miss", "misses", "missed", "missing")}}


def _phrases(tokens: Sequence[tuple[int, int, str]], read: Callable[[str], tuple[Way, bool] | None],
             fits: Callable[[int, int], bool] = lambda i, k: True) -> Iterator[tuple[int, int, tuple[Way, bool]]]:
    """``(first token, tokens, side)`` of the longest phrase of at most 4 words at each place that ``read`` gives a
    side and ``fits`` takes; a phrase's words are not read again ("don't meet it": not also "meet it")."""
    past = 0
    for i in range(len(tokens)):
        for k in (k for k in (4, 3, 2, 1) if i >= past and i + k <= len(tokens)):
            found = read(" ".join(t[2] for t in tokens[i:i + k]))
            if found is not None and fits(i, k):
                yield i, k, found
                past = i + k
                break


def _carriers(text: str) -> list[tuple[int, int, Way, bool]]:
    """``(start, end, side, inclusive)`` of every comparison word or passing verb in ``text``, the longest at a place."""
    tokens = tokens_of(text)
    return [(tokens[i][0], tokens[i + k - 1][1], side, inclusive)
            for i, k, (side, inclusive) in _phrases(tokens, lambda said: _PASSING.get(said) or comparison(said))]


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


def _named_value(tokens: Sequence[tuple[int, int, str]], start: int, end: int, metrics: Sequence[tuple[int, int]]) \
        -> bool:
    """The number at ``start``..``end`` is named as a limit: a limit noun before it with only naming words or a
    metric's name between ("the bar at 40", "our spec is T1 = 30 μs"), or "as the <noun>" after it ("40 μs as the
    cutoff")."""
    before = [(s, w) for s, _, w in tokens if s < start][-6:]
    after = [w for s, _, w in tokens if s >= end][:4]
    nouns = [i for i, (_, w) in enumerate(before) if w in _LIMIT_NOUNS]
    if nouns and all(w in _NAMING or any(a <= s < b for a, b in metrics) or CHIP_ID.fullmatch(w.upper())
                     for s, w in before[nouns[-1] + 1:]):
        return True
    return bool(after) and (after[0] in ("as", "for") and any(w in _LIMIT_NOUNS for w in after[1:3])
                            or after[0] in _LIMIT_NOUNS)  # "a 40 μs bar": the unit is read before


def named(text: str, taken: Sequence[tuple[int, int, Way, bool]]) -> list[Carried]:
    """The limits ``text`` names as a value and compares to later ("set the bar at 40 μs: how many clear it"): the
    value of a limit noun, on the side of a comparison whose object is a pronoun or the noun; none when the text
    compares to no such object, or names two values so (which one "it" is cannot be told)."""
    tokens = tokens_of(text)
    metrics = [(s, e) for s, e, name in metric_spans(text) if name is not None]
    spans = [(start, end, written, unit_after(text[end:]) or ("", 0)) for start, end, written, _ in number_spans(text)]
    labels = [m.span() for m in (*MENTION.finditer(text), *CHIP_ID.finditer(text))]  # "Q5", "144Qv2": no value
    values = [(start, end, written, unit) for start, end, written, unit in spans
              if not any(s <= start < e for s, e in [*((s, e) for s, e, *_ in taken), *labels])
              and _named_value(tokens, start, end + unit[1], metrics)]
    if len(values) != 1:
        return []

    def takes_the_limit(i: int, k: int) -> bool:  # "clear it", "miss the bar", or the phrase ends a sentence
        rest = [t[2] for t in tokens[i + k:i + k + 2]]
        ends = i + k == len(tokens) or bool(set(text[tokens[i + k - 1][1]:tokens[i + k][0]]) & set("?.!;:,"))
        return ends or rest[0] in _OBJECTS or rest[0] in ("the", "our", "a") and len(rest) > 1 and rest[1] in _LIMIT_NOUNS

    sides = [found for _, _, found in _phrases(
        tokens, lambda said: comparison(said) or _PASSING.get(said) or _ON_A_NAMED.get(said), takes_the_limit)]
    if len(set(sides)) != 1:
        return []
    (start, end, written, (unit, skip)), (side, inclusive) = values[0], sides[0]
    return [(start, end + skip, side, signed_value(written), unit, inclusive)]
