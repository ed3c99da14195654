"""Whether an answer to "What were Q17's two most recent T1 values?" gives each value with its date.

The claim check binds numbers to fields; a date is not a number it checks, so a small model that writes both values
right and drops their dates passes it, and the person cannot tell which run each value came from.  When the question
asks for the most recent values (the router's shape, :func:`~copilot_core.routing.prefetch.recent_values_asked`),
each of the newest points of the fetched history must be written with the date the tool result holds for it, in any
common written form (``2026-11-20``, ``11-20``, ``Nov 20``, ``20 Nov``, ``November 20th, 2026``, ``20.11.2026``).
A value written without a date gets its date added after it ("corrected"); a value written with another date, or
left out, makes the answer replaced by the deterministic one, the tool's sentence that lists the values with their
dates ("replaced").  The labels and notes are the claim check's (:class:`~copilot_core.checking.claims.Repair`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime, timezone
from typing import Literal

from copilot_core.checking.claim_reading import clauses
from copilot_core.checking.claims import Repair
from copilot_core.checking.grounding import finite_number
from copilot_core.language.dates import DATES, MONTHS, WRITTEN
from copilot_core.language.forms import found_each
from copilot_core.language.numbers import number_spans, unit_after
from copilot_core.checking.matcher import states_written
from copilot_core.routing.prefetch import recent_values_asked
from copilot_core.language.question import mentions as find_mentions
from copilot_core.language.question_words import CHIP_ID
from copilot_core.tools.compact import compact_timestamp
from copilot_core.tools.toolkit import ToolOutcome, answer_line

Verdict = Literal["dated", "undated", "wrong date", "absent"]

# Where one value's part of the answer ends: a new clause, list item, line or sentence (dates are masked first).
_SEGMENT_END = re.compile(r"[;\n]|,\s|\.(?:\s|$)|\s+(?:and|but|while|whereas|then|vs\.?|versus)\s+", re.I)


@dataclass(frozen=True)
class Point:
    """One value of the fetched history (display units) and when it was calibrated (UTC)."""

    value: float
    day: date
    stamp: str  # as the tool's sentence writes it: "2026-11-26 12:22"


@dataclass(frozen=True)
class DateMention:
    """A date written in the answer: every (year or None, month, day) it can mean ("3/5": March 5 or May 3)."""

    start: int
    end: int
    means: frozenset[tuple[int | None, int, int]]

    def names(self, day: date) -> bool:
        return any((y is None or y == day.year) and m == day.month and d == day.day for y, m, d in self.means)


@dataclass(frozen=True)
class DatedValue:
    """One asked-for point and how the answer writes it."""

    point: Point
    verdict: Verdict
    written: str = ""
    insert_at: int = 0  # after the value and its unit, where its date goes when it has none
    clause: str = ""


def _valid(y: int | None, m: int, d: int) -> bool:
    try:
        date(y or 2000, m, d)  # a leap year, so "Feb 29" without a year is a date
    except ValueError:
        return False
    return True


def date_mentions(text: str) -> list[DateMention]:
    """Every date written in ``text``, in order."""
    taken: list[tuple[int, int]] = []
    found: list[DateMention] = []
    written = found_each(DATES, text, WRITTEN)
    for form in WRITTEN:  # a later form never takes text an earlier one took
        for m in written[form]:
            if any(m.start < e and s < m.end for s, e in taken):
                continue
            g = m.groups
            written_year = g.get("y")
            year = int(written_year) if written_year else None
            if form in ("a_b_y", "a_b"):
                a, b = int(g["a"] or 0), int(g["b"] or 0)
                means = {(year, a, b), (year, b, a)}
            else:
                mon = g.get("mon")
                month = MONTHS[mon.lower()[:3]] if mon else int(g["m"] or 0)
                means = {(year, month, int(g["d"] or 0))}
            means = {t for t in means if _valid(*t)}
            if means:
                taken.append((m.start, m.end))
                found.append(DateMention(m.start, m.end, frozenset(means)))
    return sorted(found, key=lambda mention: mention.start)


def _moment(value: object) -> datetime | None:
    """A point's ``calibrated_at`` (datetime, ISO text or date) as a naive UTC datetime."""
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value.strip())
        except ValueError:
            return None
    if isinstance(value, datetime):
        try:
            return value.astimezone(timezone.utc).replace(tzinfo=None) if value.tzinfo is not None else value
        except OverflowError:  # "0001-01-01T00:00+14:00" is before the first UTC date
            return None
    return datetime(value.year, value.month, value.day) if isinstance(value, date) else None


def _points(outcome: ToolOutcome) -> list[Point]:
    """The history's points, newest first; [] when the result holds none with a value and a date."""
    full = outcome.full if outcome.ok and isinstance(outcome.full, dict) else {}
    raw = full.get("points")
    dated: list[tuple[datetime, Point]] = []
    for p in raw if isinstance(raw, list) else ():
        value, at = (p.get("value"), p.get("calibrated_at")) if isinstance(p, dict) else (None, None)
        moment, number = _moment(at), finite_number(value)
        if number is not None and moment is not None:
            dated.append((moment, Point(abs(number), moment.date(), compact_timestamp(moment, year=True))))
    return [p for _, p in sorted(dated, key=lambda pair: pair[0], reverse=True)]


def asked_points(question: str, outcomes: Sequence[ToolOutcome]) -> tuple[list[Point], ToolOutcome | None]:
    """The newest points the question asks for, from the router's history call first; ([], None) when the
    question does not ask for recent values or no history was fetched."""
    asked = recent_values_asked(question)
    if asked is None:
        return [], None
    for outcome in sorted(outcomes, key=lambda o: o.origin != "router"):
        points = _points(outcome)
        if points:
            return (points[:asked] if asked else points), outcome
    return [], None


def _blank(text: str, spans: Sequence[tuple[int, int]]) -> str:
    chars = list(text)
    for start, end in spans:
        chars[start:end] = "#" * (end - start)
    return "".join(chars)


def judge_dates(answer: str, points: Sequence[Point]) -> list[DatedValue]:
    """For each point: is it written, and with its own date?"""
    mentions = date_mentions(answer)
    names = [(m.start, m.end) for m in find_mentions(answer)] + [m.span() for m in CHIP_ID.finditer(answer)]
    masked = _blank(answer, [(m.start, m.end) for m in mentions] + names)
    numbers = [(s, e, w) for s, e, w, _ in number_spans(masked)]
    segments = clauses(masked, _SEGMENT_END)
    out: list[DatedValue] = []
    for point in points:
        places = [(s, e, w) for s, e, w in numbers if states_written(w, point.value)]
        if not places:
            out.append(DatedValue(point, "absent"))
            continue
        verdict: Verdict = "undated"
        clause = ""
        for s, _, _ in places:
            seg = next((a, b) for a, b in segments if a <= s <= b)
            near = [m for m in mentions if seg[0] <= m.start and m.end <= seg[1] + 1]
            if any(m.names(point.day) for m in near):
                verdict, clause = "dated", ""
                break
            if near and verdict == "undated":
                verdict, clause = "wrong date", answer[seg[0]:seg[1]].strip()
        s, e, w = places[0]
        _, unit_end = unit_after(answer[e:]) or ("", 0)
        out.append(DatedValue(point, verdict, w, e + unit_end, clause))
    if all(v.verdict in ("dated", "undated") for v in out) and any(v.verdict == "undated" for v in out):
        # "93.8 μs and 94.9 μs, on Nov 26 and Nov 25": every date written, in the values' order
        order = sorted(out, key=lambda v: next(s for s, _, w in numbers if w == v.written))
        if len(mentions) == len(order) and all(m.names(v.point.day) for m, v in zip(mentions, order)):
            out = [replace(v, verdict="dated") for v in out]
    return out


def _value_text(v: DatedValue) -> str:
    return v.written or f"{v.point.value:g}"


def complete_dates(repair: Repair, question: str, outcomes: Sequence[ToolOutcome], fallback: str | None) -> Repair:
    """``repair`` with the dates of the asked-for values added, or replaced by the deterministic answer (the router's
    ``fallback``, else the history's own sentence) when a value is left out or has another date."""
    points, source = asked_points(question, outcomes)
    if not points or repair.action == "replaced":
        return repair
    judged = judge_dates(repair.text, points)
    if all(v.verdict == "dated" for v in judged):
        return repair
    wrong = [v for v in judged if v.verdict in ("wrong date", "absent")]
    if wrong:
        reasons = "; ".join(
            f"the tool result dates {_value_text(v)} {v.point.stamp}" if v.verdict == "wrong date"
            else f"the answer leaves out {v.point.value:g} ({v.point.stamp})" for v in wrong[:3])
        replacement = fallback or (answer_line(source) if source is not None else None)
        if replacement:
            return Repair(replacement, "replaced", "The model's answer was replaced by one computed from the tool "
                                                   f"results, because the data does not support it: {reasons}.",
                          repair.report)
        note = f"Not supported by the data: {reasons}."
        return Repair(repair.text, repair.action, f"{repair.note} {note}".strip(), repair.report)
    text = repair.text
    undated = [v for v in judged if v.verdict == "undated"]
    for v in sorted(undated, key=lambda v: v.insert_at, reverse=True):
        text = f"{text[:v.insert_at]} ({v.point.stamp}){text[v.insert_at:]}"
    added = ", ".join(f"{v.written} → {v.point.stamp}" for v in undated)
    note = f"Completed from the data: the answer gave these values without their dates; added {added}."
    return Repair(text, "corrected", f"{repair.note} {note}".strip(), repair.report)
