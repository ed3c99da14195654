"""An answer read as claims: each number with its clause, the words around it and the qubit named next to it.

The answer is cut into clauses; qubit, coupling, chip and execution labels are blanked first (they are names, not
values, :func:`~copilot_core.language.question.names_blanked`).  For each number :func:`read_words` says what its words
claim (lowest, highest, median, average, latest, how many, below/above, a band word); the judging is
:mod:`~copilot_core.checking.claim_judge`'s.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from copilot_core.checking.claim_facts import Fact, Role
from copilot_core.language.numbers import number_spans
from copilot_core.checking.matcher import written_decimals, written_value
from copilot_core.language.question import blank, names_blanked, noun_after, selects
from copilot_core.language.question import mentions as find_mentions
from copilot_core.language.question_words import TOKEN, Phrases, Row
from copilot_core.domain.vocabulary import ABOVE_WORDS, BELOW_WORDS, LIMIT_WORDS, MISSING_WORDS, metrics_named

_CLAUSE_END = re.compile(r"[.!?:](?=\s|$)|;|\n|,\s+(?=\D)|\s+but\s+|\s+while\s+|\s+whereas\s+")
_ROLE_WORDS: tuple[tuple[Role, re.Pattern[str]], ...] = (
    ("min", re.compile(r"\b(lowest|minimum|min|smallest|shortest|(?<!at )least)\b", re.I)),
    ("max", re.compile(r"\b(highest|maximum|max|largest|longest|greatest|best)\b", re.I)),
    ("median", re.compile(r"\bmedian\b", re.I)),
    ("mean", re.compile(r"\b(mean|average|avg)\b", re.I)),
    ("latest", re.compile(r"\b(latest|most recent|newest|current(ly)?)\b"  # "the most recent values": several
                          r"(?!(?:\s+[\w*]+){0,2}\s+(?:values|points|measurements|results|calibrations)\b)", re.I)),
    ("std", re.compile(r"\b(standard deviation|std|stdev|sigma)\b|σ", re.I)),
    ("iqr", re.compile(r"\b(interquartile range|iqr)\b", re.I)),
    ("cv", re.compile(r"\b(coefficient of variation|cv)\b", re.I)),
    ("range", re.compile(r"(?<!interquartile )\brange\b", re.I)),
    ("r", re.compile(r"\b(pearson|spearman|correlat\w*|r|rho)\b|ρ", re.I)),
    ("percent", re.compile(r"^\s*%\s+of\b|\b(percent|percentage|share|fraction)\b", re.I)),
)
_THRESHOLD_BEFORE = re.compile(rf"(?:\b(?:{LIMIT_WORDS}|at least|at most|threshold(?: of)?)|[<>≤≥])\s*$", re.I)
_COUNT_AFTER = re.compile(r"^\s*(?:of\s+(?:the\s+)?\d+\s+)?(?:\w+\s+)?(qubits?|couplings?|pairs?|tasks?|failures?|"
                          r"runs?|executions?|results?|points?|values?|measurements?)\b", re.I)
_COMPARED_AFTER = re.compile(r"^\s+(?:compared|better|worse)\b", re.I)  # "(60 compared, 27 better, 33 worse)"
_COUNT_BEFORE = re.compile(r"\b(how many|count(?:ed)?|number of|total of)\b[^\d]*$", re.I)
_OF_BEFORE = re.compile(r"\b(of|out of)(\s+the)?\s*$", re.I)
_QUALIFIER_WORDS: tuple[tuple[str, Row], ...] = (
    ("missing", re.compile(rf"\b({MISSING_WORDS}|lack)\w*", re.I)),
    ("failed", Phrases("fail*|error/errors")),
    ("below", re.compile(rf"\b({BELOW_WORDS}|at most)\b|<", re.I)),
    ("above", re.compile(rf"\b({ABOVE_WORDS}|at least)\b|>", re.I)),
)
LIMIT_AFTER = re.compile(rf"\b(?P<word>{LIMIT_WORDS})\s+(?P<num>\d+(?:\.\d+)?)", re.I)
_BAND_WORD = re.compile(r"(?<!not )(?<!than )\b(excellent|good|fair|bad|poor)\b", re.I)
_BAND_ALIASES = {"poor": "bad"}


def clauses(text: str, ends: re.Pattern[str] = _CLAUSE_END) -> list[tuple[int, int]]:
    """``(start, end)`` of each clause of ``text``, cut at every match of ``ends`` (the match belongs to neither)."""
    bounds, start = [], 0
    for m in ends.finditer(text):
        bounds.append((start, m.start()))
        start = m.end()
    bounds.append((start, len(text)))
    return bounds


def _role_from_words(before: str, after: str, clause: str) -> Role | None:
    """The role the nearest claim word gives a number: the last one before it in its clause, else one after."""
    best: tuple[int, Role] | None = None
    for role, pattern in _ROLE_WORDS:
        for m in pattern.finditer(before):
            if best is None or m.start() > best[0]:
                best = (m.start(), role)
    if best is not None:
        return best[1]
    after = after[:40].partition("(")[0]  # "36 of the 59 compared (largest drop first": the aside has its own words
    for role, pattern in _ROLE_WORDS:
        if pattern.search(after):
            return role
    return None


def _qualifier(clause: str) -> str | None:
    return next((name for name, pattern in _QUALIFIER_WORDS if pattern.search(clause)), None)


def counts_after(after: str) -> bool:
    """The words after a number say it counts something ("3 qubits", "of the 59 couplings")."""
    return bool(_COUNT_AFTER.match(after))


@dataclass
class Reading:
    written: str
    value: float
    decimals: int
    start: int
    end: int
    clause: str
    before: str
    after: str
    derived: bool
    listed: int | None = None  # "CheckRamsey 2 (Q03, Q07)": how many qubits/couplings the brackets after it name
    sentence: str = ""  # the sentence up to the number ("Median X90 fidelity 99.78% (good: above ")


def read_numbers(answer: str) -> tuple[list[Reading], list[tuple[int, int, str]]]:
    mentions = [(m.start, m.end, m.subject) for m in find_mentions(answer)]
    masked = names_blanked(answer)
    out = []
    for cstart, cend in clauses(masked):
        for start, end, written, derived in number_spans(masked[cstart:cend]):
            try:
                value = written_value(written)
            except ValueError:
                continue
            s, e = cstart + start, cstart + end
            out.append(Reading(written, value, written_decimals(written), s, e, answer[cstart:cend].strip(),
                                answer[cstart:s], answer[e:cend], derived, _listed(answer, e, mentions),
                                _sentence_before(answer, s)))
    return out, mentions


def numbers_read(text: str) -> list[str]:
    """The numbers the claim check reads in ``text``, as written (ids, labels, dates and list markers are not)."""
    return [r.written for r in read_numbers(text)[0]]


_BRACKETED = re.compile(r"\s*\(([^()]*)\)")
_SENTENCE_END = re.compile(r"[.!?](?=\s)|\n")


def _sentence_before(answer: str, start: int) -> str:
    """The answer from the start of the sentence that holds ``start`` up to it."""
    ends = [m.end() for m in _SENTENCE_END.finditer(answer, 0, start)]
    return answer[ends[-1] if ends else 0:start]


def _listed(answer: str, end: int, mentions: list[tuple[int, int, str]]) -> int | None:
    """How many qubits or couplings the brackets right after a number name, when they name nothing else."""
    found = _BRACKETED.match(answer, end)
    if found is None:
        return None
    inside = [m for m in mentions if found.start(1) <= m[0] and m[1] <= found.end(1)]
    rest = blank(answer[found.start(1):found.end(1)], [(s - found.start(1), e - found.start(1)) for s, e, _ in inside])
    only_names = all(t == "and" for t in TOKEN.findall(rest)) and set(TOKEN.sub("", rest)) <= set(" \t\n\r,;&")
    return len(inside) if inside and only_names else None


def subject_for(reading: Reading, mentions: list[tuple[int, int, str]], answer: str) -> str | None:
    """The qubit or coupling named nearest to the number within its clause."""
    clause_start = reading.start - len(reading.before)
    clause_end = reading.end + len(reading.after)
    near = [(min(abs(reading.start - e), abs(s - reading.end)), subject) for s, e, subject in mentions
            if s >= clause_start and e <= clause_end]
    return min(near)[1] if near else None


def claimed_metric(clause: str, candidates: Sequence[Fact]) -> str | None:
    named = [n for n in metrics_named(clause) if n is not None]
    if len(named) == 1:
        return named[0]
    metrics = {f.metric for f in candidates if f.metric}
    return metrics.pop() if len(metrics) == 1 else None


def asked_count(reading: Reading, stated: AbstractSet[tuple[int, str]]) -> bool:
    """True when the number sizes a selection ("last 3", "3 most recent") or counts what the question itself
    asked for ("the 3 values" after "the last 3 values"): it is not a claimed value.  A count of something else
    ("3 qubits" after "the last 3 values") and a selection of failed, missing, below or above items stay claims."""
    if reading.decimals or not math.isfinite(reading.value) or reading.value != int(reading.value):
        return False
    if _qualifier(reading.clause) is not None:  # "the last 3 tasks failed": a claim about those items
        return False
    n = int(reading.value)
    noun = noun_after(reading.after)
    if selects(reading.before, reading.after):
        return any(count == n for count, _ in stated) or noun in (None, "values")
    return noun is not None and ((n, noun) in stated or (noun == "values" and (n, "selection") in stated))


@dataclass(frozen=True)
class Words:
    """What the words around a number claim: its role, what a count counts, and a band word of its clause."""

    role: Role | None
    qualifier: str | None
    band: str | None


def read_words(reading: Reading) -> Words:
    """The role the words give the number (a threshold, a total, a count, else the nearest claim word), the count's
    qualifier (below, above, missing, failed) and the band its clause names."""
    before, after = reading.before, reading.after
    threshold = bool(_THRESHOLD_BEFORE.search(before))
    is_count = not threshold and (counts_after(after) or bool(_COUNT_BEFORE.search(before))
                                  or (not reading.decimals and bool(_COMPARED_AFTER.match(after))))
    role: Role | None = "threshold" if threshold else "total" if (is_count and _OF_BEFORE.search(before)) else \
        "count" if is_count else _role_from_words(before, after, reading.clause)
    band_match = _BAND_WORD.search(reading.clause)
    band = _BAND_ALIASES.get(band_match.group(1).lower(), band_match.group(1).lower()) if band_match else None
    return Words(role, _qualifier(reading.clause) if role == "count" else None, band)
