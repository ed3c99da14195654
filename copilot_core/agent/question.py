"""A question read once into a typed :class:`Question`, from one table of words.

Which chips, qubits, couplings and metrics it names, the extreme it asks for, how many (top 3, last 5), a threshold
with its unit, a time window in days, whether it wants a chart, and its shape.  Callers read the fields instead of
matching their own patterns over the question's text; a new question shape is one row of :data:`SHAPES`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from copilot_core.domain.vocabulary import (LIMIT_WORDS, MISSING_WORDS, NUMBER_WORDS, TREND_WORDS,
                                           UNIT_WORDS, chip_named, is_below, metrics_named, words)

Extreme = Literal["lowest", "highest", "best", "worst"]
_COUNT = rf"\d+|{'|'.join(NUMBER_WORDS)}"

# The one word table: every pattern the parse reads, by what it finds.
WORDS: dict[str, re.Pattern[str]] = {
    "qubit": re.compile(r"(?<![\w-])(?:q\s?0*(\d{1,4})|qubits?\s*#?\s*0*(\d{1,4}))(?!\w|\.\d|\s*(?:-|→|->)\s*q?\d)",
                        re.I),
    "coupling": re.compile(r"(?<![\w.])(?:coupling\s+|pair\s+)?q?0*(\d{1,4})\s*(?:-|→|->)\s*q?0*(\d{1,4})(?![\w.])",
                           re.I),
    "extreme": words("lowest|highest|best|worst|smallest|largest|longest|shortest|minimum|maximum|weakest|strongest|"
                     "top|bottom"),
    "n": re.compile(rf"\b(?:top|bottom|last|latest|first|past)\s+({_COUNT})\b(?!\s*(?:days?|weeks?|hours?))"
                    rf"|\b({_COUNT})\s+(?:most recent|latest|best|worst|lowest|highest|qubits|couplings|pairs)\b", re.I),
    "threshold": re.compile(rf"(?:\b({LIMIT_WORDS})|([<>]))\s*(-?\d+(?:\.\d+)?)\s*({UNIT_WORDS})?", re.I),
    "window": re.compile(rf"\b(?:last|past|previous|over the (?:last|past))\s+(?:({_COUNT})\s+)?(days?|weeks?|hours?)\b",
                         re.I),
    "t2": words(r"t2(?![\s_-]*(\*|star|echo|e(?![a-z0-9])))"),
    "data": words(r"q\d+|qubits?|chip|heat ?map|median|trend|worst|best"),
    "many chips": words(r"chips|compare|comparison|every chip|all chips|which chip"),
    "chart": words(r"plot\w*|graph\w*|chart\w*|draw|visuali[sz]e\w*"),
}
_EXTREMES: dict[str, Extreme] = {"lowest": "lowest", "smallest": "lowest", "shortest": "lowest", "minimum": "lowest",
                                 "weakest": "lowest", "highest": "highest", "largest": "highest", "longest": "highest",
                                 "maximum": "highest", "strongest": "highest", "best": "best", "worst": "worst",
                                 "top": "best", "bottom": "worst"}
# Question shapes, first match wins: (shape, words that make it).
SHAPES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("plot", WORDS["chart"]),
    ("correlation", words(r"correlat\w*|pearson|track\w*|move together")),
    ("percentage", words(r"percent\w*|percentage|fraction|share|proportion")),
    ("compare runs", words(r"last two runs|two (?:most recent|latest) (?:runs|executions)|previous (?:run|execution)|"
                           r"last two executions|between (?:the )?runs")),
    ("when", words(r"when|what date|what time")),
    ("failures", words(r"fail\w*|errors?")),
    ("missing", words(MISSING_WORDS)),
    ("spread", words(r"spread|standard deviation|std|vary|variation|range|gap between")),
    ("count", words(r"how many|count|number of")),
    ("extreme", WORDS["extreme"]),
    ("statistic", words(r"median|mean|average|typical")),
    ("trend", words(TREND_WORDS)),
    ("provenance", words(r"come from|provenance|lineage|where does")),
    ("health", words(r"health\w*|shape|condition|wrong|look|doing|status|summary|overview")),
)


@dataclass(frozen=True)
class Threshold:
    side: Literal["below", "above"]
    value: float
    unit: str  # as written ("μs", "%"), "" when none


@dataclass(frozen=True)
class Question:
    text: str
    shape: str  # a row of :data:`SHAPES`, "lookup" (a qubit and a metric), or "other"
    chips: tuple[str, ...] = ()
    qubits: tuple[str, ...] = ()  # "5"
    couplings: tuple[str, ...] = ()  # "4-5"
    metrics: tuple[str | None, ...] = ()  # None for an ambiguous phrase ("T2", "coherence")
    extreme: Extreme | None = None
    n: int | None = None
    threshold: Threshold | None = None
    window_days: float | None = None
    chart: bool = False
    bare_t2: bool = False  # "T2" with no echo/star
    about_data: bool = False  # names a qubit, the chip, a metric or a chip-wide word
    many_chips: bool = False  # about several chips at once


def _count(word: str) -> int:
    return int(word) if word.isdigit() else NUMBER_WORDS[word.lower()]


def _window(text: str) -> float | None:
    m = WORDS["window"].search(text)
    if m is None:
        return None
    n = _count(m.group(1)) if m.group(1) else 1
    unit = m.group(2).lower().rstrip("s")
    return n * {"day": 1.0, "week": 7.0, "hour": 1 / 24}[unit]


def parse(text: str, chips: Sequence[str] = ()) -> Question:
    """Read ``text`` once (``chips``: the installed chip ids it may name)."""
    couplings = tuple(dict.fromkeys(f"{int(a)}-{int(b)}" for a, b in WORDS["coupling"].findall(text)))
    qubits = tuple(dict.fromkeys(str(int(a or b)) for a, b in WORDS["qubit"].findall(text)))
    named_chips = tuple(c for c in chips if chip_named(text, [c]) is not None)
    metrics = tuple(metrics_named(text))
    found = WORDS["extreme"].search(text)
    extreme = _EXTREMES[found.group(1).lower()] if found else None
    n_match = WORDS["n"].search(text)
    n = _count(n_match.group(1) or n_match.group(2)) if n_match else None
    limit = WORDS["threshold"].search(text)
    threshold = None
    if limit is not None:
        below = limit.group(2) == "<" or bool(limit.group(1) and is_below(limit.group(1)))
        threshold = Threshold("below" if below else "above", float(limit.group(3)), limit.group(4) or "")
    shape = next((name for name, rule in SHAPES if rule.search(text)), None)
    if shape is None:
        shape = "lookup" if (qubits or couplings) and any(metrics) else "other"
    return Question(text=text, shape=shape, chips=named_chips, qubits=qubits, couplings=couplings, metrics=metrics,
                    extreme=extreme, n=n, threshold=threshold, window_days=_window(text),
                    chart=bool(WORDS["chart"].search(text)),
                    bare_t2=bool(WORDS["t2"].search(text)) and not {"t2_echo", "t2_star"} & set(metrics),
                    about_data=bool(WORDS["data"].search(text)) or any(metrics),
                    many_chips=bool(WORDS["many chips"].search(text)) or len(named_chips) > 1)


__all__ = ["Question", "SHAPES", "Threshold", "WORDS", "parse"]
