"""Physical quantities a question names that the data does not hold ("depolarizing rate", "leakage", "crosstalk"),
from the catalogue's own list (:data:`~copilot_core.domain.vocabulary.NOT_HELD`), so the router answers that the data
holds no such quantity instead of a neighbouring metric's value, and the restate check notes a call that reads one."""

from __future__ import annotations

import functools

from copilot_core.domain.vocabulary import NOT_HELD, metric_spans
from copilot_core.language.question_words import Phrases


@functools.cache
def _rows() -> tuple[tuple[Phrases, str], ...]:
    return tuple((Phrases(spec), spec) for spec in NOT_HELD)


def not_held_spans(text: str) -> list[tuple[int, int, str]]:
    """``(start, end, key of NOT_HELD)`` of every quantity ``text`` names that no metric holds; words a held metric's
    phrase claims whole ("ZZ crosstalk" is static ZZ) are that metric's; a quantity's words claim a metric word inside
    them ("readout crosstalk" is no readout fidelity)."""
    held = [(s, e) for s, e, name in metric_spans(text) if name is not None]
    out = []
    for rule, key in _rows():
        out += [(s, e, key) for s, e in rule.find(text) if not any(hs <= s and e <= he for hs, he in held)]
    return sorted(out)


def not_held(text: str) -> tuple[str, ...]:
    """The keys of :data:`NOT_HELD` ``text`` names, in order, once each."""
    return tuple(dict.fromkeys(key for _, _, key in not_held_spans(text)))
