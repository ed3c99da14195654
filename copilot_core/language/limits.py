"""The limits a question writes, each read as the limit of the metric written next to it, and ranges.

"T1 above 40 μs and qubit frequency below 5100 MHz" holds two limits of two metrics: a number alone does not say
whose limit it is, its place does.  A question writes its metrics either before their limits ("T1 > 40 μs", "with
T1 no lower than 40") or after them ("above 40 μs for T1"); the first limit and the first metric tell which, and each
limit takes the nearest metric on that side (the other side when there is none), preferring one whose unit fits
the limit's ("above 40 μs" is no frequency's limit).

Two limits of one metric are one :class:`Range`: "between 60 and 80 μs" and "above 60 and below 80" are inside;
"below 60 or above 80", "below 60 and above 80" (nobody asks for what cannot be) and "outside 60-80" are outside.

A condition the question excludes ("T1 above 50 μs but not T2 echo above 40 μs", "excluding those with readout
fidelity below 93%", "which don't have ...") is read as its opposite, the side turned and a value at the limit
counted: "not T2 echo above 40 μs" is T2 echo of at most 40 μs, so a filter joins it with "and" like any other.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, NamedTuple

from copilot_core.domain.metrics import CATALOGUE
from copilot_core.domain.vocabulary import metric_spans
from copilot_core.language.carried import carried, named
from copilot_core.language.comparisons import TRAILING, Way, comparison
from copilot_core.language.numbers import number_spans, signed_value, unit_after
from copilot_core.language.qualities import worded
from copilot_core.language.question_words import CHIP_ID, MENTION, WORDS, Phrases, tokens_of
from copilot_core.language.stated_numbers import COUNT_NOUNS

Side = Literal["below", "above"]
_BELOW_SIGNS = ("<", "<=", "≤")
_INCLUSIVE_SIGNS = ("<=", "≤", ">=", "≥")
# What may stand between a range word and its first number ("outside of the range 60-80"), and between its numbers.
_LEAD = frozenset({"of", "the", "a", "range", "band", "interval"})
_COUNTED = frozenset({"times", "time", "failed", "failures", "conditions", "condition", "criteria", "days", "day",
                      "weeks", "week", "hours", "hour", "months", "month", "h", "hr", "hrs", "d", "wk", "wks", "min",
                      "mins", "minutes", "minute"})  # "meets 2 conditions", "over 10 days", "past 24h"
_JOINS = frozenset({"and", "to", "-", "–", "—", "..", "…"})
# Words that exclude the condition after them, within its clause (between the limit before it and it).
# The words that leave something out; a subject after one of them ("except Q5") is left out of a set too.
LEAVING_WORDS = ("excluding|exclude|excludes|except|apart from|other than|not counting|leaving out|leave out|leaving|leave|"
                 "without|minus|setting aside|aside from|ignoring|disregarding|omitting|save for|barring|besides|"
                 "not including")
EXCLUSION = Phrases("but not|and not|" + LEAVING_WORDS + "|don t have|do not have|doesn t have|does not have|"
                    "lacking|but no|and no|neither|nor|unless")
# Two negations that cancel: "T1 above 40 but not unless T2 echo is above 30" asks for both, as "only if" does.
_CANCELLED = Phrases("not unless|only if|only when")
_SUBJECTS = frozenset({"coupling", "couplings", "qubit", "qubits", "qb", "qbs", "pair", "pairs", "cr", "cnot"})
_FLIPPED: dict[Side, Side] = {"below": "above", "above": "below"}


@dataclass(frozen=True)
class Threshold:
    side: Side
    value: float
    unit: str  # as written ("μs", "%"), "" when none
    metric: str | None = None  # the catalogue metric written next to it, None when none is clear
    inclusive: bool = False  # a value at the limit counts ("at least", "no more than", "≥", "<=")


@dataclass(frozen=True)
class Range:
    """Two limits of one metric: values between ``low`` and ``high`` (``inside``), or below ``low`` or above
    ``high``."""

    metric: str | None
    low: float
    high: float
    unit: str
    inside: bool

    @property
    def limits(self) -> tuple[Threshold, Threshold]:
        """The range as a tool's two limits: inside is above ``low`` and below ``high``; outside is below ``low``
        and above ``high`` (the tools read a below under the above as outside)."""
        if self.inside:
            return (Threshold("above", self.low, self.unit, self.metric),
                    Threshold("below", self.high, self.unit, self.metric))
        return (Threshold("below", self.low, self.unit, self.metric),
                Threshold("above", self.high, self.unit, self.metric))


@dataclass(frozen=True)
class _Placed:
    start: int
    end: int
    side: Way  # "better"/"worse": the metric's own direction says which side
    value: float
    unit: str
    inclusive: bool = False


def _written(text: str) -> list[_Placed]:
    """Every limit written with a comparison word or sign, with its place."""
    rule = WORDS["threshold"]
    if isinstance(rule, Phrases):
        raise TypeError("the threshold row is a pattern")
    out = []
    chips = [(c.start(), c.end()) for c in CHIP_ID.finditer(text)]
    for m in rule.finditer(text):
        after = tokens_of(text[m.end():])[:1]
        if after and (after[0][2].rstrip("s") in COUNT_NOUNS or after[0][2] in _COUNTED):
            continue  # "more than 10 qubits", "at least 3 times": a count, no limit of a value
        if any(a <= m.start(3) < b for a, b in chips):
            continue  # "better than 64Qv3": a chip's name, no limit
        if _pair_after(text[m.end(3):]):
            continue  # "better than 75—74": a coupling's first qubit, no limit
        way, inclusive = (comparison(m.group(1)) or ("above", False)) if m.group(1) else \
            ("below" if m.group(2) in _BELOW_SIGNS else "above", m.group(2) in _INCLUSIVE_SIGNS)
        out.append(_Placed(m.start(), m.end(), way, signed_value(m.group(3)), m.group(4) or "", inclusive))
    out += _trailing(text, [(p.start, p.end) for p in out])
    out += [_Placed(*c) for c in carried(text, [(p.start, p.end, p.side, p.inclusive) for p in out])]
    return out + [_Placed(*c) for c in named(text, [(p.start, p.end, p.side, p.inclusive) for p in out])]


_PAIR_SIGNS = frozenset("-–—/→_")


def _pair_after(rest: str) -> bool:
    """The number just read is the first half of a pair ("75—74", "75/74", "75→74")."""
    return len(rest) > 1 and rest[0] in _PAIR_SIGNS and rest[1].isdigit()


def _trailing(text: str, taken: Sequence[tuple[int, int]]) -> list[_Placed]:
    """A number with the comparison after it: "T1 of 50 μs or more", "readout fidelity 92% or worse" (not a number
    of a limit already read, nor one whose comparison word begins the next limit: "above 20 and below 50")."""
    out = []
    for start, end, written, _ in number_spans(text):
        unit, skip = unit_after(text[end:]) or ("", 0)
        after = tokens_of(text[end + skip:])[:3]
        way, size = (TRAILING.get((after[0][2], after[1][2])) if len(after) >= 2 else None), 2
        if way is None and after:  # "35 μs tops"
            way, size = TRAILING.get((after[0][2], "")), 1
        if way is not None and not any(s <= start < e for s, e in taken) and \
                not (len(after) == size + 1 and after[size][2].replace(".", "").isdigit()) and \
                not text[end + skip:end + skip + after[0][0]].strip():
            out.append(_Placed(start, end + skip + after[size - 1][1], way, signed_value(written), unit, True))
    return out


def _range_words(text: str) -> list[tuple[int, int, bool]]:
    """``(start, end, inside)`` of every range word, an outside word winning over the "between" inside it."""
    rows = [(WORDS["outside range"], False), (WORDS["inside range"], True)]
    out: list[tuple[int, int, bool]] = []
    for rule, inside in rows:
        if isinstance(rule, Phrases):
            out += [(a, b, inside) for a, b in rule.find(text) if not any(s <= a < e for s, e, _ in out)]
    return out


_DASHES = frozenset({"-", "–", "—"})
_PAIR_JOINS = frozenset({"and", "or", "vs", "versus"})


def _two_pairs(text: str, join: str, after: Sequence[tuple[int, int, str, bool]]) -> bool:
    """"between the 0-1 and 4-1 couplings": two dash pairs joined by "and", "or" or "vs" are two couplings, no
    range."""
    if join not in _DASHES or len(after) < 4:
        return False
    between = {w for _, _, w in tokens_of(text[after[1][1]:after[2][0]])}
    return bool(between & _PAIR_JOINS) and between <= _PAIR_JOINS | {"the", "coupling", "couplings", "pair", "pairs"} \
        and text[after[2][1]:after[3][0]].strip() in _DASHES


# "from A to B" is a range only of a metric written right before it or with a unit, and never after a change verb
# ("T1 went from 40 to 60 μs" is a change, "qubits from 3 to 7" are qubits).
_CHANGED = frozenset({"went", "go", "goes", "going", "gone", "changed", "change", "changes", "changing", "rose",
                      "risen", "rise", "rises", "fell", "fallen", "fall", "falls", "dropped", "drop", "drops", "moved",
                      "increased", "decreased", "jumped", "shifted", "drifted", "improved", "degraded", "grew",
                      "climbed", "slipped", "sank", "declined", "recovered"})
_FROM_GAP = frozenset({"values", "value", "ranging", "range", "is", "are", "lies", "lie", "lying", "in", "the", "of"})
_FROM_JOINS = frozenset({"to", "-", "–", "—", ".."})


def _from_range(text: str, start: int, join: str, units: str) -> bool:
    """Whether the "from" at ``start`` opens a range (see :data:`_FROM_JOINS` and :data:`_CHANGED`)."""
    before = tokens_of(text[:start])
    if join not in _FROM_JOINS or before and before[-1][2] in _CHANGED:
        return False
    ends = [e for _, e, name in metric_spans(text) if e <= start and name is not None]
    return bool(units) or bool(ends) and {w for _, _, w in tokens_of(text[max(ends):start])} <= _FROM_GAP


def _ranges(text: str) -> list[tuple[int, int, float, float, str, bool]]:
    """``(start, end, low, high, unit, inside)`` of every range written as a word and two numbers."""
    numbers = number_spans(text)
    out = []
    for start, end, inside in _range_words(text):
        after = [n for n in numbers if n[0] >= end]
        if len(after) < 2 or not {w for _, _, w in tokens_of(text[end:after[0][0]])} <= _LEAD:
            continue
        (_, end1, first, _), (start2, end2, second, _) = after[:2]
        unit1, skip = unit_after(text[end1:]) or ("", 0)
        join = text[end1 + skip:start2].strip().lower()
        if join not in _JOINS or _two_pairs(text, join, after):
            continue
        unit2, skip2 = unit_after(text[end2:]) or ("", 0)
        if text[start:end].lower() == "from" and not _from_range(text, start, join, unit1 + unit2):
            continue
        low, high = sorted((signed_value(first), signed_value(second)))
        out.append((start, end2 + skip2, low, high, unit2 or unit1, inside))
    return out


def _fits(value: float, unit: str, metric: str) -> bool:
    return CATALOGUE[metric].can_hold(value, unit)


def _nearest(start: int, spans: Sequence[tuple[int, int, str | None]], metric_first: bool) -> int | None:
    """Where the metric phrase nearest a limit at ``start`` on the question's side starts (an unclear one too:
    "gate fidelity above 99.5%" alone is a limit of no clear metric, not of a readout fidelity written after it)."""
    side = [s for s, _, _ in spans if (s < start) == metric_first]
    return (max(side) if metric_first else min(side)) if side else None


def _order(start: int, spans: Sequence[tuple[int, int, str]], metric_first: bool) -> list[int]:
    """The indexes of the metric phrases a limit at ``start`` may belong to, nearest first on the question's side,
    then the other side's."""
    before = [i for i in reversed(range(len(spans))) if spans[i][0] < start]
    after = [i for i in range(len(spans)) if spans[i][0] > start]
    return before + after if metric_first else after + before


# What may stand between two metrics that share one limit ("both T1 and T2 echo above 30 μs").
_SHARING = frozenset({"and", "both", "as", "well", "a", "an", "the", "their", "its", "plus", "/", "&", "or", "either"})
_SHARED = frozenset({"and", "plus", "well", "/", "&", "or"})  # one of them, or a comma, joins the two


def _sharing(index: int, spans: Sequence[tuple[int, int, str]], text: str, starts: Sequence[int],
             metric_first: bool, owned: set[int]) -> list[int]:
    """The metric phrase at ``index`` and those joined to it (before it when metrics come first, else after it)
    with no limit of their own: they share its limit."""
    out = [index]
    step = -1 if metric_first else 1
    while 0 <= out[-1] + step < len(spans) and out[-1] + step not in owned:
        a, b = sorted((out[-1], out[-1] + step))
        gap = text[spans[a][1]:spans[b][0]]
        words = {w for _, _, w in tokens_of(gap)}
        if not words <= _SHARING or not (words & _SHARED or "," in gap) or \
                any(spans[a][1] <= s < spans[b][0] for s in starts):
            break
        out.append(out[-1] + step)
    return out


def _placed_metrics(placed: Sequence[_Placed], spans: Sequence[tuple[int, int, str]], text: str,
                    metric_first: bool) -> dict[int, tuple[list[str], list[str]]]:
    """Each limit's metrics, and the metrics written next to it that cannot hold it.  A limit is the nearest metric
    phrase's and of those joined to it with no limit of their own ("both T1 and T2 echo above 30 μs"), each that
    can hold its unit and size; when none of them can ("above 7.1 GHz" after an anharmonicity), it is the next
    metric named that can and holds no limit of its own on that side, else no metric's."""
    orders = {p.start: _order(p.start, spans, metric_first) for p in placed}
    near = {p.start: orders[p.start][0] for p in placed if orders[p.start]}
    owned = set(near.values()) | {i for i, (s, _, _) in enumerate(spans) if s in worded(text)}
    groups = {start: _sharing(i, spans, text, [p.start for p in placed], metric_first, owned - {i})
              for start, i in near.items()}
    claimed = {(spans[i][2], p.side) for p in placed for i in groups.get(p.start, [])
               if _fits(p.value, p.unit, spans[i][2])}
    out: dict[int, tuple[list[str], list[str]]] = {}
    for p in placed:
        group = [spans[i][2] for i in groups.get(p.start, [])]  # the nearest first
        held = [spans[i][2] for i in sorted(groups.get(p.start, [])) if _fits(p.value, p.unit, spans[i][2])]
        if held or not group:
            out[p.start] = (held, [m for m in group if m not in held])
            continue
        moved = next((spans[i][2] for i in orders[p.start] if _fits(p.value, p.unit, spans[i][2])
                      and (spans[i][2], p.side) not in claimed), None)
        out[p.start] = ([moved], []) if moved is not None else ([], group[:1])
    return out


def _excluded(text: str, placed: Sequence[_Placed]) -> set[int]:
    """The starts of the limits an exclusion word stands before, in their own clause (after the limit before)."""
    out = set()
    ends = [0] + [p.end for p in placed]
    for before, p in zip(ends, placed):
        found = EXCLUSION.find(text[before:p.start]) if before <= p.start else []
        rest = text[before + found[-1][1]:p.start] if found else ""
        if found and not MENTION.search(rest) and not CHIP_ID.search(rest) and \
                not _CANCELLED.find(text[before:p.start]):  # "other than Q5, T1 above 50"; "not unless"
            out.add(p.start)
    return out


Join = Literal["and", "or"]


def _join(text: str, ordered: Sequence[_Placed], by_place: dict[int, str | None]) -> Join:
    """How the question joins its conditions: "or" only when an "or"/"either" is left once the limits' own words
    ("50 μs or more") and the words between two limits of one metric ("below 30 or above 90": a range) are set aside."""
    spans = [(p.start, p.end) for p in ordered]
    ends = [0] + [p.end for p in ordered]
    for before, p, q in zip(ends, ordered, ordered[1:]):
        if by_place[p.start] == by_place[q.start]:  # "T1 either below 30 or above 90": one metric's range
            spans += [(p.end, q.start)] + [(before + a, before + b) for a, b, w in tokens_of(text[before:p.start])
                                           if w == "either"]
    rest = "".join(" " if any(s <= i < e for s, e in spans) else c for i, c in enumerate(text))
    rule = WORDS["or join"]
    return "or" if isinstance(rule, Phrases) and rule.find(rest) else "and"


class Limits(NamedTuple):
    """What :func:`read_limits` reads: every limit bound to its metric, the ranges, the join, the limits a metric
    written right next to them cannot hold (each with that metric: a wrong unit), and the limits bound to no metric
    because the unit fits no metric read (their metric written in words no table reads: the answer says so)."""

    limits: tuple[Threshold, ...]
    ranges: tuple[Range, ...]
    join: Join
    unfit: tuple[Threshold, ...]
    unbound: tuple[Threshold, ...]


def read_limits(text: str) -> Limits:
    """The question's limits in the order written (a range's two included, a limit two metrics share given to
    each), its ranges, how its conditions are joined, the limits a metric written next to them cannot hold (each
    with that metric), and those no metric read can hold; an excluded condition turned to its opposite."""
    every = [(s, e, name) for s, e, name in metric_spans(text) if text[s:e].lower() not in _SUBJECTS]
    spans = [(s, e, name) for s, e, name in every if name is not None]
    unclear = [s for s, _, name in every if name is None]
    written = _ranges(text)
    placed = [p for p in _written(text) if not any(s <= p.start < e for s, e, *_ in written)]
    placed += [_Placed(s, e, "above", low, unit) for s, e, low, _, unit, _ in written]
    firsts = [p.start for p in placed]
    metric_first = bool(every) and bool(firsts) and every[0][0] < min(firsts)
    where = _placed_metrics(placed, spans, text, metric_first)
    unclear_near = {p.start for p in placed if _nearest(p.start, every, metric_first) in unclear}
    names: dict[int, list[str | None]] = {p.start: [None] if p.start in unclear_near or not where[p.start][0] and
                                          not where[p.start][1] else list(where[p.start][0]) for p in placed}
    by_place = {start: found[0] if found else None for start, found in names.items()}
    ordered = sorted(placed, key=lambda p: p.start)
    excluded = _excluded(text, ordered)
    written = [(s, e, low, high, unit, inside != (s in excluded)) for s, e, low, high, unit, inside in written]
    ranges = [Range(m, low, high, unit, inside) for s, _, low, high, unit, inside in written for m in names[s]]
    limits: list[Threshold] = []
    unfit: list[Threshold] = []
    unbound: list[Threshold] = []
    starts = {s for s, *_ in written}
    for p in ordered:
        for name in names[p.start]:
            if p.start in starts:
                limits += Range(name, *next((lo, hi, u, i) for s, _, lo, hi, u, i in written if s == p.start)).limits
            elif p.start in excluded:
                limits.append(Threshold(_FLIPPED[_side(p.side, name)], p.value, p.unit, name, not p.inclusive))
            else:
                limits.append(Threshold(_side(p.side, name), p.value, p.unit, name, p.inclusive))
        if p.start not in unclear_near and where[p.start][1] and _unread(p, ordered, every, metric_first):
            unbound.append(Threshold(_side(p.side, None), p.value, p.unit, None, p.inclusive))
            continue
        unfit += [Threshold(_side(p.side, m), p.value, p.unit, m, p.inclusive)
                  for m in ([] if p.start in unclear_near else where[p.start][1])]
    return Limits(tuple(limits), tuple(ranges) + _paired(limits, ranges), _join(text, ordered, by_place), tuple(unfit),
                  tuple(unbound))


def _unread(p: _Placed, ordered: Sequence[_Placed], every: Sequence[tuple[int, int, str | None]],
            metric_first: bool) -> bool:
    """A limit no metric written can hold whose nearest metric holds another limit written between them ("T1 above
    40 us and a resonance above 5.1 GHz"): its own metric was written in words no table reads, so it is bound to
    none (not to T1, "T1 above 5 GHz" is T1's limit in a wrong unit)."""
    near = _nearest(p.start, every, metric_first)
    return near is not None and any(q is not p and min(near, p.start) < q.start < max(near, p.start) for q in ordered)


def _side(way: Way, metric: str | None) -> Side:
    """"better than" is above for a metric where higher is better, below for one where lower is (a gate time)."""
    if way in ("below", "above"):
        return "below" if way == "below" else "above"
    higher = CATALOGUE[metric].higher_is_better if metric in CATALOGUE else True
    return "above" if (way == "better") == higher else "below"


def _paired(limits: Sequence[Threshold], ranges: Sequence[Range]) -> tuple[Range, ...]:
    """A below and an above of one metric written as two limits: inside when the below is over the above
    ("above 60 and below 80"), else outside ("below 60 or above 80")."""
    out = []
    taken = {r.metric for r in ranges}
    for metric in dict.fromkeys(t.metric for t in limits):
        if metric in taken:
            continue
        mine = [t for t in limits if t.metric == metric]
        below = [t for t in mine if t.side == "below"]
        above = [t for t in mine if t.side == "above"]
        if len(below) == 1 and len(above) == 1 and (metric is not None or len(mine) == len(limits)):
            b, a = below[0], above[0]
            unit = b.unit or a.unit
            out.append(Range(metric, min(a.value, b.value), max(a.value, b.value), unit, b.value > a.value))
    return tuple(out)
