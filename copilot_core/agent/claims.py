"""Whether each number in an answer says what the tool results say: the value, its role and its qubit.

:mod:`~copilot_core.agent.grounding` asks "does this number appear in some tool result?"; a small model passes that
while quoting the median as the lowest value, a count of qubits *with* data as the count *below* a threshold, or a
value next to a qubit that does not hold it.  Here every numeric field of the tool results becomes a :class:`Fact`
(its value in display units, its role: min, max, median, mean, latest, count, total, threshold or a qubit's value,
the metric and the qubit or coupling it belongs to), and every number in the answer a :class:`Claim` read from the
words of its clause (lowest, highest, median, average, latest, how many, below/above, a band word, the qubit or
coupling named next to it).  A claim is *wrong* when no fact has its value in the role, metric and subject the
words give it, or when a band word or a below/above comparison disagrees with the value.

Public entry points (also used by the qubit-analysis mode):

- :func:`check_claims` ``(answer_text, tool_results, *, question="") -> ClaimReport``;
- :func:`repair_answer` ``(answer_text, report, fallback) -> Repair``: the answer with wrong numbers corrected from
  the data, or replaced by ``fallback`` (the deterministic answer) when a claim cannot be corrected in place, and
  the note that tells the person which happened.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Iterator, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from typing import Literal

from copilot_core.agent.grounding import finite_number, number_spans, source_values
from copilot_core.agent.matcher import states, written_decimals, written_value
from copilot_core.domain.metrics import CATALOGUE, format_value, metric
from copilot_core.domain.vocabulary import (ABOVE_WORDS, BELOW_WORDS, LIMIT_WORDS, MISSING_WORDS, NUMBER_WORDS, UNIT_WORDS,
                                           is_below, metrics_named)

Role = Literal["min", "max", "median", "mean", "latest", "count", "total", "threshold", "value", "change", "other"]
Verdict = Literal["ok", "wrong", "unbacked"]

# Field name -> (role, count qualifier).  Count qualifiers say *which* items were counted.
_ROLE_KEYS: dict[str, tuple[Role, str | None]] = {
    "min": ("min", None), "minimum": ("min", None), "lowest_value": ("min", None),
    "max": ("max", None), "maximum": ("max", None), "highest_value": ("max", None),
    "median": ("median", None), "mean": ("mean", None), "average": ("mean", None),
    "median_before": ("median", "before"), "median_after": ("median", "after"),
    "compared": ("count", None), "better": ("count", None), "worse": ("count", None),
    "latest": ("latest", None), "value": ("value", None),
    "count": ("count", None), "qubits_with_data": ("count", None), "with_data": ("count", None),
    "num_points": ("count", None), "num_qubits": ("total", None), "num_couplings": ("total", None),
    "tasks_in_run": ("total", None), "total": ("total", None),
    "considered": ("total", None),
    "count_below": ("count", "below"), "count_above": ("count", "above"), "count_missing": ("count", "missing"),
    "count_failed": ("count", "failed"), "threshold": ("threshold", None),
    "below_limit": ("threshold", None), "above_limit": ("threshold", None),
    "change": ("change", None), "change_pct": ("change", "pct"), "median_change": ("change", None),
}
# A list under one of these keys ranks its items: each item's value is a lowest/highest value.
_RANKED_KEYS: dict[str, Role] = {"lowest": "min", "highest": "max"}
_SUBJECT_KEYS = ("qid", "coupling_id", "id", "label")
_METRIC_KEYS = ("metric", "parameter_name", "metric_name")
_QUALIFIER_KEYS = {"below": "below", "above": "above", "missing": "missing", "failed": "failed"}


@dataclass(frozen=True)
class Fact:
    """One number a tool returned, with what it is."""

    value: float  # display units, absolute (answers drop signs: "dropped by 5.2")
    role: Role
    metric: str | None = None
    subject: str | None = None  # "5" for a qubit, "4-1" for a coupling
    qualifier: str | None = None  # for counts: below / above / missing / failed / band:<name>
    tool: str = ""
    negative: bool = False  # the sign ``value`` dropped: a change's direction
    unit: str | None = None  # as the result states it next to the value ("μs", "%"), when it does
    at: str | None = None  # when the value was measured, as the result states it (ISO text), when it does

    def describe(self) -> str:
        what = {"min": "the lowest", "max": "the highest", "median": "the median", "mean": "the mean",
                "latest": "the latest value", "count": "a count", "total": "a total", "threshold": "a threshold",
                "value": "the value", "change": "the change", "other": "a number"}[self.role]
        if self.role == "count" and self.qualifier:
            what = f"the count of {self.qualifier.replace('band:', '')} items"
        owner = f" of {subject_label(self.subject)}" if self.subject else ""
        return f"{what}{' ' + self.metric if self.metric else ''}{owner}"


@dataclass(frozen=True)
class Claim:
    """One number of the answer, what its words claim, and whether the facts bear it out."""

    written: str
    clause: str
    role: Role | None
    metric: str | None
    subject: str | None
    qualifier: str | None
    band: str | None
    verdict: Verdict
    reason: str = ""
    correction: str | None = None  # the value the data gives for this claim, written like ``written``
    start: int = 0  # where ``written`` is in the answer
    end: int = 0


@dataclass(frozen=True)
class ClaimReport:
    """Every checked number of an answer (in order) and the verdicts."""

    claims: tuple[Claim, ...] = ()

    @property
    def wrong(self) -> list[Claim]:
        return [c for c in self.claims if c.verdict == "wrong"]

    @property
    def unbacked(self) -> list[Claim]:
        return [c for c in self.claims if c.verdict == "unbacked"]

    @property
    def ok(self) -> bool:
        """True when no claim is wrong and every number is backed."""
        return not self.wrong and not self.unbacked


# What a correction note vouches for, so it never reads as endorsing the sentences around the corrected number.
CHECK_SCOPE = ("The check verifies only numbers, rankings and counts; other sentences are the model's words, not "
               "checked.")


@dataclass(frozen=True)
class Repair:
    """What the person is shown: ``text``, and ``action`` with its ``note`` (empty when the answer was kept)."""

    text: str
    action: Literal["kept", "corrected", "replaced"]
    note: str = ""
    report: ClaimReport = field(default_factory=ClaimReport)


# ------------------------------------------------------------------------------------------- facts

def _canonical_subject(value: object) -> str | None:
    """``"5"``, ``"Q05"`` -> ``"5"``; ``"4-1"``, ``"Q004→Q001"`` -> ``"4-1"``; anything else None."""
    if isinstance(value, bool) or value is None:
        return None
    text = str(value).strip()
    found = _COUPLING_TEXT.fullmatch(text)
    if found:
        return f"{int(found.group(1))}-{int(found.group(2))}"
    found = re.fullmatch(r"[Qq]?0*(\d{1,5})", text)
    return str(int(found.group(1))) if found else None


def subject_label(subject: str) -> str:
    """How a subject is named back to the person: ``Q5``, ``Q4-Q1``."""
    if "-" in subject:
        a, b = subject.split("-")
        return f"Q{a}-Q{b}"
    return f"Q{subject}"


def _number(value: object) -> float | None:
    number = finite_number(value)
    return None if number is None else abs(number)


@dataclass(frozen=True)
class _Context:
    tool: str
    metric: str | None = None
    subject: str | None = None
    qualifier: str | None = None
    ranked: Role | None = None
    unit: str | None = None
    at: str | None = None


_TIME_KEYS = ("calibrated_at", "at", "start_at", "measured_at")


def _stated(obj: dict, keys: tuple[str, ...]) -> str | None:
    """The first of ``keys`` the result states as text or a date (ISO text), else None."""
    for key in keys:
        value = obj.get(key)
        if isinstance(value, str) and value:
            return value[:40]
        if isinstance(value, (datetime, date)):
            return value.isoformat()[:40]
    return None


def _walk(obj: object, ctx: _Context, key: str | None = None) -> Iterator[Fact]:
    signed = finite_number(obj)
    if signed is not None:
        yield from _leaf(signed, ctx, key)
    elif isinstance(obj, dict):
        yield from _walk_dict(obj, ctx)
    elif isinstance(obj, (list, tuple)):
        role, qualifier = _ROLE_KEYS.get(f"count_{key}", ("count", ctx.qualifier))
        yield Fact(float(len(obj)), "count", ctx.metric, None, qualifier if key in _QUALIFIER_KEYS else ctx.qualifier,
                   ctx.tool)
        inner = ctx
        if key in _RANKED_KEYS:
            inner = replace(ctx, ranked=_RANKED_KEYS[key])
        elif key in ("best", "worst") and ctx.metric:
            higher = metric(ctx.metric).higher_is_better
            inner = replace(ctx, ranked="max" if (key == "best") == higher else "min")
        elif key in _QUALIFIER_KEYS:
            inner = replace(ctx, qualifier=_QUALIFIER_KEYS[key], ranked=None)
        for item in obj:
            yield from _walk(item, inner)


def _walk_dict(obj: dict, ctx: _Context) -> Iterator[Fact]:
    subject = next((s for k in _SUBJECT_KEYS if (s := _canonical_subject(obj.get(k))) is not None), ctx.subject)
    named = next((str(obj[k]) for k in _METRIC_KEYS if isinstance(obj.get(k), str)), None)
    here = _Context(ctx.tool, named or ctx.metric, subject, ctx.qualifier, ctx.ranked,
                    _stated(obj, ("unit",)) or ctx.unit, _stated(obj, _TIME_KEYS) or ctx.at)
    for k, value in obj.items():
        k = str(k)
        if k in CATALOGUE or (k.isidentifier() and k in _ALL_METRIC_NAMES):
            yield from _walk(value, replace(here, metric=k), "value")
        elif k == "bands" and isinstance(value, dict):
            for band, n in value.items():
                if (count := _number(n)) is not None:
                    yield Fact(count, "count", here.metric, None, f"band:{band}", here.tool)
        elif (keyed := _canonical_subject(k)) is not None and k not in _ROLE_KEYS:
            yield from _walk(value, replace(here, subject=keyed), "value")
        else:
            yield from _walk(value, here, k)


def _leaf(signed: float, ctx: _Context, key: str | None) -> Iterator[Fact]:
    number, negative = abs(signed), signed < 0
    role, qualifier = _ROLE_KEYS.get(key or "", ("other", None))
    if key in CATALOGUE or key == "value":
        role = "value" if ctx.subject is not None else "other"
    unit, at = (None, None) if role in ("count", "total") else (ctx.unit, ctx.at)
    if role == "value" and ctx.ranked is not None:
        yield Fact(number, ctx.ranked, ctx.metric, ctx.subject, None, ctx.tool, unit=unit, at=at)
    if role == "count" and qualifier is None:
        qualifier = ctx.qualifier
    yield Fact(number, role, ctx.metric, ctx.subject if role in ("value", "latest", "change", "other") else None,
               qualifier, ctx.tool, negative, unit, at)


_ALL_METRIC_NAMES = frozenset(CATALOGUE)
CATALOGUE_LIMIT = "catalogue"  # the qualifier of a threshold the metric catalogue (not a tool) states


def _as_object(source: object) -> object:
    if isinstance(source, str):
        try:
            return json.loads(source)
        except ValueError:
            return None
    return source


def tool_facts(tool_results: Iterable[object]) -> list[Fact]:
    """Every numeric field of the results (dicts, JSON text, or outcomes with ``name``/``full``/``model_text``),
    plus the catalogue's thresholds."""
    facts: list[Fact] = []
    for result in tool_results:
        name = str(getattr(result, "name", "") or "")
        parts = [getattr(result, "full", None), getattr(result, "model_text", None)] if name else [result]
        for part in parts:
            obj = _as_object(part)
            if obj is not None:
                facts.extend(_walk(obj, _Context(name)))
    for entry in CATALOGUE.values():
        for limit in (entry.bad, entry.good, entry.excellent):
            if limit is not None:
                facts.append(Fact(abs(float(limit)), "threshold", entry.name, qualifier=CATALOGUE_LIMIT))
    return facts


# ------------------------------------------------------------------------------------------- claims

_COUPLING_TEXT = re.compile(r"[Qq]?0*(\d{1,5})\s*(?:-|→|->|–|—)\s*[Qq]?0*(\d{1,5})")
_SUBJECT_MENTION = re.compile(
    r"(?<![\w.])(?:[Qq]0*(?P<a>\d{1,5})\s*(?:-|→|->|–|—)\s*[Qq]0*(?P<b>\d{1,5})"
    r"|(?:coupling|pair)\s+[Qq]?0*(?P<c>\d{1,5})\s*(?:-|→|->|–|—)\s*[Qq]?0*(?P<d>\d{1,5})"
    r"|(?<![\w.-])0*(?P<e>\d{1,3})\s*(?:→|->)\s*0*(?P<f>\d{1,3})(?!\w|\.\d)"
    r"|[Qq]\s?0*(?P<q>\d{1,5})(?!\w|\.\d)|qubit\s*#?\s*0*(?P<r>\d{1,5})(?!\w|\.\d))", re.I)
_CHIP_ID = re.compile(r"(?<![\w.])\d+Q[A-Za-z0-9_]*|\b\d{8}-\d{3,6}\b")  # "64Qv3", "20261126-001": names
_CLAUSE_END = re.compile(r"[.!?:](?=\s|$)|;|\n|,\s+(?=\D)|\s+but\s+|\s+while\s+|\s+whereas\s+")
_ROLE_WORDS: tuple[tuple[Role, re.Pattern[str]], ...] = (
    ("min", re.compile(r"\b(lowest|minimum|min|smallest|shortest|(?<!at )least)\b", re.I)),
    ("max", re.compile(r"\b(highest|maximum|max|largest|longest|greatest|best)\b", re.I)),
    ("median", re.compile(r"\bmedian\b", re.I)),
    ("mean", re.compile(r"\b(mean|average|avg)\b", re.I)),
    ("latest", re.compile(r"\b(latest|most recent|newest|current(ly)?)\b"  # "the most recent values": several
                          r"(?!(?:\s+[\w*]+){0,2}\s+(?:values|points|measurements|results|calibrations)\b)", re.I)),
)
_THRESHOLD_BEFORE = re.compile(rf"(?:\b(?:{LIMIT_WORDS}|at least|at most|threshold(?: of)?)|[<>≤≥])\s*$", re.I)
_COUNT_AFTER = re.compile(r"^\s*(?:of\s+(?:the\s+)?\d+\s+)?(?:\w+\s+)?(qubits?|couplings?|pairs?|tasks?|failures?|"
                          r"runs?|executions?|results?|points?|values?|measurements?)\b", re.I)
_COMPARED_AFTER = re.compile(r"^\s+(?:compared|better|worse)\b", re.I)  # "(60 compared, 27 better, 33 worse)"
_COUNT_BEFORE = re.compile(r"\b(how many|count(?:ed)?|number of|total of)\b[^\d]*$", re.I)
_OF_BEFORE = re.compile(r"\b(of|out of)\s*$", re.I)
_QUALIFIER_WORDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("missing", re.compile(rf"\b({MISSING_WORDS}|lack)\w*", re.I)),
    ("failed", re.compile(r"\bfail\w*|\berrors?\b", re.I)),
    ("below", re.compile(rf"\b({BELOW_WORDS}|at most)\b|<", re.I)),
    ("above", re.compile(rf"\b({ABOVE_WORDS}|at least)\b|>", re.I)),
)
# "the last 3 values", "the 3 most recent": the number sizes a selection of results, it is not a measured value.
_SELECTION_BEFORE = re.compile(r"\b(?:last|latest|most recent|newest|recent|past|previous|first|top|bottom)\s+$", re.I)
_SELECTION_AFTER = re.compile(r"^\s+(?:most recent|latest|newest|last|recent|previous)\b", re.I)
# A count the question states: "last 3", "two most recent", "3 T2 echo values", "which 5 qubits".
_COUNT_NOUNS = {"qubit": "qubits", "coupling": "couplings", "pair": "couplings", "task": "tasks", "failure": "tasks",
                "run": "runs", "execution": "runs", "calibration": "runs", "result": "values", "point": "values",
                "value": "values", "measurement": "values"}
_NOUN_AFTER = re.compile(rf"^\s+(?:[\w*-]+\s+){{0,3}}?({'|'.join(_COUNT_NOUNS)})s?\b", re.I)
_STATED_NUMBER = re.compile(rf"(?<![\w.])(\d+|{'|'.join(NUMBER_WORDS)})(?![\w.])", re.I)
_LIMIT_AFTER = re.compile(rf"\b(?P<word>{LIMIT_WORDS})\s+(?P<num>\d+(?:\.\d+)?)", re.I)
_BAND_WORD = re.compile(r"(?<!not )(?<!than )\b(excellent|good|fair|bad|poor)\b", re.I)
_BAND_ALIASES = {"poor": "bad"}


def _mask(text: str, spans: Iterable[tuple[int, int]]) -> str:
    chars = list(text)
    for start, end in spans:
        for i in range(start, end):
            if chars[i] != "\n":
                chars[i] = " "
    return "".join(chars)


def _mentions(text: str) -> list[tuple[int, int, str]]:
    out = []
    for m in _SUBJECT_MENTION.finditer(text):
        g = m.groupdict()
        pair = next(((g[a], g[b]) for a, b in (("a", "b"), ("c", "d"), ("e", "f")) if g[a] is not None), None)
        subject = f"{int(pair[0])}-{int(pair[1])}" if pair else str(int(g["q"] or g["r"]))
        out.append((m.start(), m.end(), subject))
    return out


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


def _matches(value: float, decimals: int, fact: Fact) -> bool:
    return states(value, decimals, fact.value)


def _written_like(value: float, written: str) -> str:
    decimals = written_decimals(written)
    return f"{value:.{decimals}f}"


@dataclass
class _Reading:
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


def _readings(answer: str) -> tuple[list[_Reading], list[tuple[int, int, str]]]:
    mentions = _mentions(answer)
    masked = _mask(answer, [(s, e) for s, e, _ in mentions] + [m.span() for m in _CHIP_ID.finditer(answer)])
    out = []
    for cstart, cend in clauses(masked):
        for start, end, written, derived in number_spans(masked[cstart:cend]):
            try:
                value = written_value(written)
            except ValueError:
                continue
            s, e = cstart + start, cstart + end
            out.append(_Reading(written, value, written_decimals(written), s, e, answer[cstart:cend].strip(),
                                answer[cstart:s], answer[e:cend], derived, _listed(answer, e, mentions),
                                _sentence_before(answer, s)))
    return out, mentions


def numbers_read(text: str) -> list[str]:
    """The numbers the claim check reads in ``text``, as written (ids, labels, dates and list markers are not)."""
    return [r.written for r in _readings(text)[0]]


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
    rest = _mask(answer[found.start(1):found.end(1)], [(s - found.start(1), e - found.start(1)) for s, e, _ in inside])
    return len(inside) if inside and not re.sub(r"[\s,;&]|\band\b", "", rest) else None


def _subject_for(reading: _Reading, mentions: list[tuple[int, int, str]], answer: str) -> str | None:
    """The qubit or coupling named nearest to the number within its clause."""
    clause_start = reading.start - len(reading.before)
    clause_end = reading.end + len(reading.after)
    near = [(min(abs(reading.start - e), abs(s - reading.end)), subject) for s, e, subject in mentions
            if s >= clause_start and e <= clause_end]
    return min(near)[1] if near else None


def _claimed_metric(clause: str, candidates: Sequence[Fact]) -> str | None:
    named = [n for n in metrics_named(clause) if n is not None]
    if len(named) == 1:
        return named[0]
    metrics = {f.metric for f in candidates if f.metric}
    return metrics.pop() if len(metrics) == 1 else None


def _noun(after: str) -> str | None:
    """What a count counts, from the words after it: ``qubits``, ``couplings``, ``tasks``, ``runs``, ``values``."""
    found = _NOUN_AFTER.match(after)
    return _COUNT_NOUNS[found.group(1).lower()] if found else None


def _selects(before: str, after: str) -> bool:
    return bool(_SELECTION_BEFORE.search(before) or _SELECTION_AFTER.match(after))


def stated_counts(question: str) -> set[tuple[int, str]]:
    """The counts a question states, each with what it counts: ``(3, "values")`` for "the last 3 T2 echo values",
    ``(2, "selection")`` for "the two most recent", ``(5, "qubits")`` for "which 5 qubits"."""
    masked = _mask(question, [(s, e) for s, e, _ in _mentions(question)] +
                   [m.span() for m in _CHIP_ID.finditer(question)])
    out: set[tuple[int, str]] = set()
    for m in _STATED_NUMBER.finditer(masked):
        word = m.group(1).lower()
        n = int(word) if word.isdigit() else NUMBER_WORDS[word]
        before, after = masked[:m.start()], masked[m.end():]
        if _selects(before, after):
            out.add((n, "selection"))
        if (noun := _noun(after)) is not None:
            out.add((n, noun))
    return out


def _asked_count(reading: _Reading, stated: AbstractSet[tuple[int, str]]) -> bool:
    """True when the number sizes a selection ("last 3", "3 most recent") or counts what the question itself
    asked for ("the 3 values" after "the last 3 values"): it is not a claimed value.  A count of something else
    ("3 qubits" after "the last 3 values") and a selection of failed, missing, below or above items stay claims."""
    if reading.decimals or not math.isfinite(reading.value) or reading.value != int(reading.value):
        return False
    if _qualifier(reading.clause) is not None:  # "the last 3 tasks failed": a claim about those items
        return False
    n = int(reading.value)
    noun = _noun(reading.after)
    if _selects(reading.before, reading.after):
        return any(count == n for count, _ in stated) or noun in (None, "values")
    return noun is not None and ((n, noun) in stated or (noun == "values" and (n, "selection") in stated))


def _judge(reading: _Reading, subject: str | None, facts: list[Fact], user_values: list[float],
           loose_values: list[float], stated: AbstractSet[tuple[int, str]]) -> Claim:
    clause = reading.clause
    before_text = reading.before
    threshold = bool(_THRESHOLD_BEFORE.search(before_text))
    of_total = bool(_OF_BEFORE.search(before_text))
    is_count = not threshold and (bool(_COUNT_AFTER.match(reading.after)) or bool(_COUNT_BEFORE.search(before_text))
                                  or (not reading.decimals and bool(_COMPARED_AFTER.match(reading.after))))
    role: Role | None = "threshold" if threshold else "total" if (of_total and is_count) else \
        "count" if is_count else _role_from_words(before_text, reading.after, clause)
    qualifier = _qualifier(clause) if role == "count" else None
    candidates = [f for f in facts if _matches(reading.value, reading.decimals, f)]
    claimed = _claimed_metric(clause, candidates)
    band_match = _BAND_WORD.search(clause)
    band = _BAND_ALIASES.get(band_match.group(1).lower(), band_match.group(1).lower()) if band_match else None

    def claim(verdict: Verdict, reason: str = "", correction: str | None = None) -> Claim:
        return Claim(reading.written, clause, role, claimed, subject, qualifier, band, verdict, reason, correction,
                     reading.start, reading.end)

    if reading.derived:
        return claim("ok", "marked as derived")
    if _asked_count(reading, stated):
        return claim("ok", "how many were asked for, not a measured value")
    if role is None and reading.listed == reading.value:
        return claim("ok", "how many are listed right after it")
    if any(states(reading.value, reading.decimals, u) for u in user_values) and \
            (role == "threshold" or (role is None and subject is None)):
        return claim("ok", "the question's own number")
    direction = _change_claimed(reading, candidates, claimed)
    if direction is not None and (candidates or _changes(facts, claimed, subject)):
        # "+0.05%", "fell by 2.6 μs": a change, checked against the tools' change and never made a level
        role = "change"
        problem, fix = _change_problem(reading, direction, facts, claimed, subject)
        return claim("wrong", problem, fix) if problem else claim("ok", "the change the tools give")
    if not candidates:
        if any(states(reading.value, reading.decimals, v) for v in loose_values) \
                and role is None:
            return claim("ok", "in a tool result's text")
        counted = [f for f in facts if role == "count" and qualifier in ("failed", "missing") and f.role == "count"
                   and f.qualifier == qualifier and f.metric in (None, claimed)]
        if counted:  # "the last 3 tasks failed" when the run's failures are 4 (below/above: the limit may differ)
            return claim("wrong", f"{reading.written} is not {counted[0].describe()}",
                         _correction(facts, role, claimed, None, qualifier, reading.written))
        return claim("unbacked", "no tool result has this number")
    pool = [f for f in candidates if f.role != "threshold"]
    if role == "threshold":  # a limit the tools or the metric's catalogue entry use, or "at least 3 qubits"
        if _COUNT_AFTER.match(reading.after):
            return claim("ok", "a count")
        problem = _limit_problem(reading, candidates, facts)
        return claim("wrong", problem) if problem else claim("ok", "a threshold")
    if not pool:  # only a threshold has this value: no data gives it
        return claim("unbacked", "only a threshold has this number")
    if claimed is not None:
        same_metric = [f for f in pool if f.metric in (None, claimed)]
        if not same_metric:
            other = pool[0]
            return claim("wrong", f"{reading.written} is {other.describe()}, not {claimed}",
                         _correction(facts, role, claimed, subject, qualifier, reading.written))
        pool = same_metric
    if role == "count":
        fitting = [f for f in pool if f.role == "count" and f.qualifier == qualifier] if qualifier is not None \
            else [f for f in pool if f.role in ("count", "total")]
        if not fitting:
            return claim("wrong", f"{reading.written} is {pool[0].describe()}, not a count of "
                                  f"{qualifier or 'items'}", _correction(facts, role, claimed, None, qualifier,
                                                                          reading.written))
        return claim("ok")
    if role == "total":
        return claim("ok") if any(f.role in ("total", "count") for f in pool) else \
            claim("wrong", f"{reading.written} is {pool[0].describe()}, not a total")
    if role in ("min", "max", "median", "mean", "latest"):
        fitting = [f for f in pool if f.role == role or (role == "latest" and f.role == "value")]
        side = _side(reading)
        if side is not None and any(f.qualifier == side for f in fitting):  # "median 59.1 μs → 61.9 μs"
            fitting = [f for f in fitting if f.qualifier == side]
        elif side is not None and any(f.qualifier is not None and f.role == role for f in fitting):
            fitting = [f for f in fitting if f.qualifier is None]
        if role == "latest":
            newest = [f for f in facts if f.role == "latest" and f.subject in (None, subject)
                      and f.metric in (None, claimed)]
            if newest:  # a history's older points are values too, but not the latest one
                fitting = [f for f in fitting if f.role == "latest"]
        if subject is not None:
            fitting = [f for f in fitting if f.subject in (None, subject)] if role != "latest" else \
                [f for f in fitting if f.subject == subject or f.subject is None]
        if not fitting:
            return claim("wrong", f"{reading.written} is {pool[0].describe()}, not the {_ROLE_NAMES[role]}",
                         _correction(facts, role, claimed, subject, None, reading.written))
        if subject is not None and role in ("min", "max"):
            held = [f for f in facts if f.subject == subject and f.role in ("value", "latest", "min", "max")
                    and f.metric in (None, claimed or fitting[0].metric)]
            if held and not any(_matches(reading.value, reading.decimals, f) for f in held):
                return claim("wrong", f"{subject_label(subject)} does not have {reading.written}")
            if not held and not any(f.subject == subject for f in fitting):
                return claim("wrong", f"no tool result ties {reading.written} to {subject_label(subject)}")
    elif subject is not None:
        if not any(f.subject == subject for f in pool):
            owners = sorted({subject_label(f.subject) for f in pool if f.subject})
            whose = f" (it is {', '.join(owners[:3])}'s)" if owners else ""
            return claim("wrong", f"no tool result gives {subject_label(subject)} {reading.written}{whose}",
                         _correction(facts, "value", claimed, subject, None, reading.written))
    problem = _band_problem(reading, band, claimed or next((f.metric for f in pool if f.metric), None), pool)
    if problem:
        return claim("wrong", problem)
    return claim("ok")


_UNIT_AFTER = re.compile(rf"^\s?({UNIT_WORDS})(?![\w])")
_UNIT_NAMES = {"µs": "μs", "us": "μs"}


def _limit_metric(reading: _Reading, facts: Sequence[Fact]) -> str | None:
    """The metric a below/above limit is said of: named in its clause, else the nearest one named before it in
    its sentence, else the one metric the tool results hold."""
    for text in (reading.clause, reading.sentence):
        named = [n for n in metrics_named(text) if n is not None]
        if named:
            return named[-1] if text is reading.sentence else named[0] if len(named) == 1 else None
    held = {f.metric for f in facts if f.metric and f.qualifier != CATALOGUE_LIMIT}
    return held.pop() if len(held) == 1 else None


def _limit_problem(reading: _Reading, candidates: Sequence[Fact], facts: Sequence[Fact]) -> str | None:
    """Why a below/above limit is not one the tools or the metric's own catalogue entry state (the question's own
    numbers are accepted before this), in the metric's display unit; None when it is."""
    name = _limit_metric(reading, facts)
    limits = [f for f in candidates if f.role == "threshold" and (name is None or f.metric in (None, name))]
    if name is None:  # no metric to hold it to: a tool's limit, or a catalogue limit of a metric the tools returned
        held = {f.metric for f in facts if f.metric and f.qualifier != CATALOGUE_LIMIT}
        limits = [f for f in limits if f.qualifier != CATALOGUE_LIMIT or f.metric in held]
    if not limits:
        own = metric(name) if name else None
        stated = ", ".join(format_value(own, v) for v in (own.bad, own.good, own.excellent) if v is not None) \
            if own else ""
        other = next((f.describe() for f in candidates if f.role != "threshold"), None) or \
            next((f"a limit of {f.metric}" for f in candidates if f.metric), "no limit")
        return (f"{reading.written} is {other}, not a threshold the question, the tools or {name or 'the metric'} "
                "use" + (f" ({name}: {stated})" if stated else ""))
    unit = _UNIT_AFTER.match(reading.after)
    if unit and name is not None and metric(name).unit and \
            _UNIT_NAMES.get(unit.group(1), unit.group(1)) != metric(name).unit:
        return f"{reading.written} {unit.group(1)} is not in {name}'s unit ({metric(name).unit})"
    return None


_RISE = r"ros[ei]\w*|ris[ei]\w*|increas\w*|grew|grow\w*|gain\w*|went up|up"
_FALL = r"fell|fall\w*|dropp?\w*|drops?|decreas\w*|lost|los[est]\w*|went down|down|declin\w*"
_BETTER, _WORSE = r"improv\w*|better", r"degrad\w*|worse\w*"
_CHANGE_BEFORE = re.compile(
    rf"(?:\b(?P<dir>{_RISE}|{_FALL}|{_BETTER}|{_WORSE}|chang\w*|shift\w*|mov\w*)\b(?:\s+[\w*]+)?\s+(?:by|of)"
    r"|\b(?:delta|difference|change)\s*(?:of|:|=|is|was)?|Δ\s*[=:]?)\s*(?:about|roughly|around|approximately|~)?\s*"
    r"[(\[]?\s*$", re.I)


def _change_claimed(reading: _Reading, candidates: Sequence[Fact], claimed: str | None) -> int | None:
    """Whether the number is claimed as a change, and which way: +1 up, -1 down, 0 either (None: not a change).
    A leading ``+`` or change words right before it ("fell by", "a change of") say so; a leading minus says so
    only when no level among the number's facts is negative (an anharmonicity of -310 MHz is a level)."""
    sign = reading.written[:1]
    words = _CHANGE_BEFORE.search(reading.before)
    negative_level = any(f.negative and f.role not in ("change", "threshold") for f in candidates)
    if sign == "+":
        return 1
    if sign in "-−" and (words or (not negative_level and any(f.role == "change" for f in candidates))):
        return -1
    if words is None:
        return None
    said = (words.group("dir") or "").lower()
    if re.fullmatch(_RISE, said):
        return 1
    if re.fullmatch(_FALL, said):
        return -1
    better = re.fullmatch(_BETTER, said) is not None
    if (better or re.fullmatch(_WORSE, said)) and claimed is not None:
        return 1 if better == metric(claimed).higher_is_better else -1
    return 0


def _changes(facts: Sequence[Fact], claimed: str | None, subject: str | None) -> list[Fact]:
    """The changes the tools give for this metric (any when unnamed) and qubit or coupling (any when unnamed)."""
    return [f for f in facts if f.role == "change" and f.metric in (None, claimed)
            and (subject is None or f.subject == subject)]


def _change_problem(reading: _Reading, direction: int, facts: Sequence[Fact], claimed: str | None,
                    subject: str | None) -> tuple[str, str | None] | tuple[None, None]:
    """Why a claimed change is not the change the tools give for that metric and qubit (sign included), and the
    right change written like the claim when exactly one fits and the answer's words cannot contradict it."""
    changes = _changes(facts, claimed, subject)
    fitting = [f for f in changes if _matches(reading.value, reading.decimals, f)
               and (direction == 0 or f.negative == (direction < 0))]
    if fitting:
        return None, None
    owner = f" of {subject_label(subject)}" if subject else ""
    what = f"the change{' in ' + claimed if claimed else ''}{owner}"
    same = [f for f in changes if f.qualifier is None]
    values = sorted({("-" if f.negative else "+") + _written_like(f.value, reading.written) for f in same})
    if not values:
        return f"no tool result gives {what}", None
    fix = None
    if len(values) == 1 and (reading.written[:1] in "+-−" or direction == 0
                             or (same[0].negative == (direction < 0))):
        fix = values[0] if reading.written[:1] in "+-−" else values[0].lstrip("+-")
    return f"{reading.written} is not {what} (the tools give {', '.join(values[:3])})", fix


_ARROW_AFTER = re.compile(rf"^\s*(?:{UNIT_WORDS})?\s*(?:→|->)")
_ARROW_BEFORE = re.compile(r"(?:→|->)\s*$")


def _side(reading: _Reading) -> str | None:
    """``before`` for the number left of an arrow ("59.1 μs → 61.9 μs"), ``after`` for the one right of it."""
    if _ARROW_AFTER.match(reading.after):
        return "before"
    return "after" if _ARROW_BEFORE.search(reading.before) else None


_ROLE_NAMES = {"min": "lowest value", "max": "highest value", "median": "median", "mean": "mean",
               "latest": "latest value"}


def _band_problem(reading: _Reading, band: str | None, name: str | None, pool: list[Fact]) -> str | None:
    """A band word or a below/above comparison in the clause that the value contradicts."""
    if name is None or not any(f.role in ("value", "latest", "min", "max", "median", "mean") for f in pool):
        return None
    entry = metric(name)
    if band is not None and entry.good is not None:
        actual = entry.score(reading.value if entry.higher_is_better or entry.unit != "MHz" else -reading.value)
        if actual is not None and actual != band:
            return f"{reading.written} {entry.unit} is {actual} for {name}, not {band}"
    after = reading.after
    for m in _LIMIT_AFTER.finditer(after):
        limit = float(m.group("num"))
        below = is_below(m.group("word"))
        if (below and not reading.value < limit) or (not below and not reading.value > limit):
            return f"{reading.written} is not {m.group('word').lower()} {m.group('num')}"
    return None


def _correction(facts: list[Fact], role: Role | None, name: str | None, subject: str | None, qualifier: str | None,
                written: str) -> str | None:
    """The one value the data gives for this claim (role, metric, subject, count qualifier), else None."""
    if role in (None, "threshold", "other", "total") or (role in ("min", "max") and subject is not None):
        return None  # a wrong extreme named with a qubit: the qubit is wrong too, so no in-place fix
    wanted_roles = ("value", "latest") if role == "value" else (role,)
    found = {f.value for f in facts if f.role in wanted_roles and (name is None or f.metric == name)
             and (role not in ("value", "latest") or f.subject == subject)
             and (role != "count" or f.qualifier == qualifier)
             and (role in ("value", "latest", "count") or f.subject is None)}
    if role == "latest" and not found and subject is not None:
        found = {f.value for f in facts if f.role == "value" and f.subject == subject and f.metric == name}
    return _written_like(found.pop(), written) if len(found) == 1 else None


def _answer_sentence(result: object) -> str:
    """A tool's own ``answer`` sentence (its numbers back a claim the check has no role for)."""
    for part in (getattr(result, "model_text", None), getattr(result, "full", None)):
        body = _as_object(part)
        if isinstance(body, dict) and isinstance(body.get("answer"), str):
            return body["answer"]
    return ""


def check_claims(answer_text: str, tool_results: Iterable[object], *, question: str = "") -> ClaimReport:
    """Judge every number of ``answer_text`` against ``tool_results`` (result dicts, their JSON text, or
    ``ToolOutcome`` objects).  Numbers the ``question`` itself states are accepted as thresholds or counts."""
    results = list(tool_results)
    facts = tool_facts(results)
    user_values = [written_value(w) for _, _, w, _ in number_spans(_mask(question, [
        (s, e) for s, e, _ in _mentions(question)]))]
    loose = source_values([getattr(r, "summary", None) or "" for r in results] + [_answer_sentence(r) for r in results]
                          + [r for r in results if isinstance(r, str)])
    readings, mentions = _readings(answer_text or "")
    stated = stated_counts(question)
    claims = [_judge(r, _subject_for(r, mentions, answer_text), facts, user_values, loose, stated) for r in readings]
    return ClaimReport(tuple(claims))


def _note_claim(claim: Claim) -> str:
    """A wrong claim for the visible note: the check's own reason (numbers and metric names), never the model's
    words, so a note cannot be steered into quoting or endorsing a planted sentence."""
    return claim.reason


def repair_answer(answer_text: str, report: ClaimReport, fallback: str | None) -> Repair:
    """The answer to show: unchanged when no claim is wrong; wrong numbers replaced in place when the data gives
    each one its right value; otherwise ``fallback`` (the deterministic answer).  The note says which."""
    wrong = report.wrong
    if not wrong:
        return Repair(answer_text, "kept", report=report)
    if all(c.correction is not None and c.role in ("min", "max", "median", "mean", "latest", "count", "change")
           for c in wrong):
        text = answer_text
        for c in sorted(wrong, key=lambda c: c.start, reverse=True):
            text = text[:c.start] + str(c.correction) + text[c.end:]
        fixes = "; ".join(f"{c.written} → {c.correction} ({c.reason})" for c in wrong)
        return Repair(text, "corrected", f"Corrected from the data: {fixes}. {CHECK_SCOPE}", report)
    reasons = "; ".join(_note_claim(c) for c in wrong[:3])
    if fallback:
        return Repair(fallback, "replaced", "The model's answer was replaced by one computed from the tool results, "
                                            f"because the data does not support it: {reasons}.", report)
    # no answer to replace it with: the unsupported sentences are left out where they stand (agent/marks.py)
    return Repair(answer_text, "kept", "", report)
