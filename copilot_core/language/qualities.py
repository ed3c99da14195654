"""A condition written in words without a number, next to its metric: "short T1", "low readout fidelity",
"poor T2 echo", "high-fidelity couplings", "whose T1 is low".

The question settles a side of a metric but no value; the lab's own band limits
(:func:`~copilot_core.routing.limits.band_limit`) give the value, or, for a metric with no band, the person is asked
which limit.  The words are rows of the question word table (``low words``, ``high words``, ``worse words``,
``better words``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from copilot_core.domain.vocabulary import metric_spans
from copilot_core.language.question_words import WORDS, Phrases, tokens_of

Direction = Literal["low", "high", "worse", "better"]
_ROWS: tuple[tuple[str, Direction], ...] = (("low words", "low"), ("high words", "high"), ("worse words", "worse"),
                                            ("better words", "better"))
_LINKS = frozenset({"is", "are", "was", "were", "looks", "seems", "stays"})


@dataclass(frozen=True)
class Quality:
    """One condition in words: the metric it is on (None for an ambiguous phrase: "fidelity"), which way
    (a value word: low/high; a quality word: worse/better by the metric's direction) and the word as written."""

    metric: str | None
    direction: Direction
    word: str


def _words(text: str) -> list[tuple[int, int, Direction, str]]:
    out = []
    for row, direction in _ROWS:
        rule = WORDS[row]
        if isinstance(rule, Phrases):
            out += [(a, b, direction, text[a:b].lower()) for a, b in rule.find(text)]
    return out


def _qualified(text: str) -> list[tuple[int, Quality]]:
    """Each condition in words with where its metric phrase starts."""
    words = _words(text)
    tokens = tokens_of(text)
    out: list[tuple[int, Quality]] = []
    for start, end, metric in metric_spans(text):
        before = [w for w in words if w[1] <= start and not text[w[1]:start].strip(" -")]
        after = [t for t in tokens if t[0] >= end][:2]
        if not before and len(after) == 2 and after[0][2] in _LINKS and not text[end:after[0][0]].strip():
            before = [w for w in words if w[0] == after[1][0]]
        out += [(start, Quality(metric, w[2], w[3])) for w in before[-1:]]
    return out


def qualities(text: str) -> tuple[Quality, ...]:
    """Every condition in words ``text`` puts on a metric: the word right before the metric phrase ("short T1",
    "high-fidelity") or after it and a link word ("T1 is short")."""
    return tuple(dict.fromkeys(q for _, q in _qualified(text)))


def worded(text: str) -> frozenset[int]:
    """Where the metric phrases that carry a condition in words start: such a metric shares no number's limit
    ("short T1 and T2 echo above 40 μs")."""
    return frozenset(start for start, _ in _qualified(text))
