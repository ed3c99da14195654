"""The tool results of a turn as typed facts: every number a tool returned, with its role, metric and subject.

Every numeric field becomes a :class:`Fact` (its value in display units, its role: min, max, median, mean, latest,
count, total, threshold, change or a qubit's value, the metric and the qubit or coupling it belongs to); the claim
check (:mod:`~copilot_core.checking.claims`) holds each number of an answer against them with the one matcher
(:mod:`~copilot_core.checking.matcher`).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime
from typing import Literal

from copilot_core.checking.grounding import finite_number
from copilot_core.checking.matcher import states, written_decimals
from copilot_core.domain.display import asked_in
from copilot_core.domain.metrics import CATALOGUE, metric
from copilot_core.domain.topology import target_label
from copilot_core.language.count_units import CountNoun, count_noun_of
from copilot_core.language.question_words import task_words
from copilot_core.tools.compact import SIGNIFICANT
from copilot_core.tools.tabular import untabulate

Role = Literal["min", "max", "median", "mean", "latest", "count", "total", "threshold", "value", "change", "other",
               "std", "range", "iqr", "cv", "r", "percent", "spread", "pstd", "mad"]
# Statistics of a chip's spread, a correlation coefficient and a share: a number written for one is not another.
SHAPE_ROLES: tuple[Role, ...] = ("std", "pstd", "range", "iqr", "cv", "mad", "r", "percent")
# The statistics of a spread; "spread" is a number said to be one of them ("varies by", "a spread of").
SPREAD_ROLES: tuple[Role, ...] = ("std", "pstd", "range", "iqr", "cv", "mad")
Verdict = Literal["ok", "wrong", "unbacked", "unchecked"]  # unchecked: a claim no tool result can verify

# Field name -> (role, count qualifier).  Count qualifiers say *which* items were counted.
_ROLE_KEYS: dict[str, tuple[Role, str | None]] = {
    "min": ("min", None), "minimum": ("min", None), "lowest_value": ("min", None),
    "max": ("max", None), "maximum": ("max", None), "highest_value": ("max", None),
    "median": ("median", None), "mean": ("mean", None), "average": ("mean", None),
    "median_before": ("median", "before"), "median_after": ("median", "after"),
    "compared": ("count", None), "better": ("count", "better"), "worse": ("count", "worse"),
    "difference": ("change", None),
    "latest": ("latest", None), "value": ("value", None),
    "count": ("count", None), "qubits_with_data": ("count", None), "with_data": ("count", None),
    "num_points": ("count", None), "num_qubits": ("total", None), "num_couplings": ("total", None),
    "tasks_in_run": ("total", None), "total": ("total", None),
    "considered": ("total", None),
    "count_below": ("count", "below"), "count_above": ("count", "above"), "count_missing": ("count", "missing"),
    "count_failed": ("count", "failed"), "failed_subjects": ("count", "failed"), "threshold": ("threshold", None),
    "below_limit": ("threshold", None), "above_limit": ("threshold", None),
    "change": ("change", None), "change_pct": ("change", "pct"), "median_change": ("change", None),
    "std": ("std", None), "range": ("range", None), "iqr": ("iqr", None), "cv": ("cv", None),
    "pstd": ("pstd", None), "mad": ("mad", None),
    "pearson_r": ("r", "pearson"), "spearman_rho": ("r", "spearman"), "percent": ("percent", None),
    "share_pct": ("percent", None),
    "count_matching": ("count", "matching"), "pairs": ("count", None),
}
# A list under one of these keys ranks its items: each item's value is a lowest/highest value.
_RANKED_KEYS: dict[str, Role] = {"lowest": "min", "highest": "max"}
_SUBJECT_KEYS = ("qid", "coupling_id", "id", "label")
_METRIC_KEYS = ("metric", "parameter_name", "metric_name")
_QUALIFIER_KEYS = {"below": "below", "above": "above", "missing": "missing", "failed": "failed", "fell": "fell",
                   "rose": "rose"}
# What a share is a share of, as a tool states it (``share_of``): a share's qualifier.
SHARE_DENOMINATORS = ("task results", "failed tasks", "qubits", "couplings", "runs", "qubits on the chip",
                      "couplings on the chip")


@dataclass(frozen=True)
class Fact:
    """One number a tool returned, with what it is."""

    value: float  # display units, absolute (answers drop signs: "dropped by 5.2")
    role: Role
    metric: str | None = None
    subject: str | None = None  # "5" for a qubit, "4-1" for a coupling
    qualifier: str | None = None  # counts: below / above / missing / failed / band:<name>; shares: their denominator
    tool: str = ""
    negative: bool = False  # the sign ``value`` dropped: a change's direction
    unit: str | None = None  # as the result states it next to the value ("μs", "%"), when it does
    at: str | None = None  # when the value was measured, as the result states it (ISO text), when it does
    size: int | None = None  # the qubits of the chip the tool read: how its qubits are labelled
    counted: CountNoun | None = None  # a count's or total's items, when the result says: runs or task results
    within: str | None = None  # a share's: what its whole is narrowed to ("readout", "CheckT1", "on Q04 to Q06")

    def describe(self) -> str:
        what = {"min": "the lowest", "max": "the highest", "median": "the median", "mean": "the mean",
                "latest": "the latest value", "count": "a count", "total": "a total", "threshold": "a threshold",
                "value": "the value", "change": "the change", "other": "a number", "std": "the standard deviation",
                "range": "the range", "iqr": "the interquartile range", "cv": "the coefficient of variation",
                "r": f"the {self.qualifier or 'correlation'} coefficient", "percent": "the share",
                "spread": "the spread", "pstd": "the population standard deviation",
                "mad": "the median absolute deviation"}[self.role]
        if self.role == "percent" and self.qualifier:  # "the share of qubits with a value (t1)"
            plain = self.qualifier in ("qubits", "couplings")
            return f"the share of {self.within + ' ' if self.within else ''}{self.qualifier}" + \
                f"{' with a value' if plain else ''}" + (f" ({self.metric})" if self.metric else "")
        if self.role == "count" and self.qualifier:
            what = f"the count of {self.qualifier.replace('band:', '')} items"
        owner = f" of {subject_label(self.subject, self.size)}" if self.subject else ""
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



_COUPLING_TEXT = re.compile(r"[Qq]?0*(\d{1,5})\s*(?:-|→|->|–|—)\s*[Qq]?0*(\d{1,5})")


def canonical_subject(value: object) -> str | None:
    """``"5"``, ``"Q05"`` -> ``"5"``; ``"4-1"``, ``"Q004→Q001"`` -> ``"4-1"``; anything else None."""
    if isinstance(value, bool) or value is None:
        return None
    text = str(value).strip()
    found = _COUPLING_TEXT.fullmatch(text)
    if found:
        return f"{int(found.group(1))}-{int(found.group(2))}"
    digits = text[1:] if text[:1] in ("Q", "q") else text
    if not (digits.isascii() and digits.isdigit()) or len(digits.lstrip("0")) > 5:
        return None
    return str(int(digits))


def is_task(subject: str | None) -> bool:
    """``subject`` is a task's name ("CheckRamsey"), the subject of a count of that task's failures."""
    return subject is not None and [w for _, _, w in task_words(subject)] == [subject]


def subject_label(subject: str, size: int | None) -> str:
    """How a subject is named back to the person, as the tables write it on a chip of ``size`` qubits: ``Q074``
    and ``Q017→Q018`` on 144, ``Q05`` on 64 (:func:`~copilot_core.domain.topology.target_label`)."""
    return target_label(subject, size or 0)


def chip_size(facts: Iterable[Fact]) -> int | None:
    """The size of the chip the turn's tools read (the first fact that knows it)."""
    return next((f.size for f in facts if f.size), None)


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
    share_of: str | None = None  # the denominator of the shares below (``SHARE_DENOMINATORS``)
    counted: CountNoun | None = None  # what the counts below count (a ``count_in_window`` result's ``what``)
    within: str | None = None  # what the shares below are narrowed to (a result's ``share_within``)


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
    subject = next((s for k in _SUBJECT_KEYS if (s := canonical_subject(obj.get(k))) is not None), ctx.subject)
    row_of = obj.get("name")  # a table row of metrics: {"name": "t1", "value": ...}
    named = next((str(obj[k]) for k in _METRIC_KEYS if isinstance(obj.get(k), str)), None) or (
        row_of if isinstance(row_of, str) and row_of in CATALOGUE else None)
    share_of = obj.get("share_of") if obj.get("share_of") in SHARE_DENOMINATORS else ctx.share_of
    if isinstance(row_of, str) and is_task(row_of):  # a failure ranking's row: {"name": "CheckT1", "count_failed": 3}
        subject = row_of
    what = obj.get("what")  # count_in_window's "failed tasks": its count is a count of failures
    qualifier = "failed" if isinstance(what, str) and "fail" in what else ctx.qualifier
    here = _Context(ctx.tool, named or ctx.metric, subject, qualifier, ctx.ranked,
                    _stated(obj, ("unit",)) or ctx.unit, _stated(obj, _TIME_KEYS) or ctx.at, share_of,
                    count_noun_of(what, obj.get("counted")) if "what" in obj else ctx.counted,
                    str(obj["share_within"])[:80] if isinstance(obj.get("share_within"), str) else ctx.within)
    for k, value in obj.items():
        k = str(k)
        if k in CATALOGUE or (k.isidentifier() and k in _ALL_METRIC_NAMES):
            yield from _walk(value, replace(here, metric=k), "value")
        elif k == "by_task" and isinstance(value, dict):  # a run's failures per task: each task's own count
            for task, n in value.items():
                if (count := _number(n)) is not None:
                    yield Fact(count, "count", None, str(task), "failed", here.tool)
        elif k == "failed_subjects" and obj.get("by") == "qubit":  # a ranking's qubits with a failure: qubits
            yield from _walk(value, replace(here, counted="qubits"), k)
        elif k == "bands" and isinstance(value, dict):
            for band, n in value.items():
                if (count := _number(n)) is not None:
                    yield Fact(count, "count", here.metric, None, f"band:{band}", here.tool)
        elif (keyed := canonical_subject(k)) is not None and k not in _ROLE_KEYS:
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
    if role == "percent":
        qualifier = ctx.share_of
    owner = role in ("value", "latest", "change", "other") or (role in ("count", "percent") and is_task(ctx.subject))
    yield Fact(number, role, ctx.metric, ctx.subject if owner else None,
               qualifier, ctx.tool, negative, unit, at, counted=ctx.counted if role in ("count", "total") else None,
               within=ctx.within if role == "percent" else None)


_ALL_METRIC_NAMES = frozenset(CATALOGUE)
CATALOGUE_LIMIT = "catalogue"  # the qualifier of a threshold the metric catalogue (not a tool) states


def as_object(source: object) -> object:
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
        size = getattr(result, "size", None)
        for part in parts:
            obj = untabulate(as_object(part))
            if obj is not None:
                facts.extend(replace(f, size=size) if size else f for f in _walk(obj, _Context(name)))
    facts.extend(_in_unit_asked(facts))
    for entry in CATALOGUE.values():
        for limit in (entry.bad, entry.good, entry.excellent):
            if limit is not None:
                facts.append(Fact(abs(float(limit)), "threshold", entry.name, qualifier=CATALOGUE_LIMIT))
    return facts


def _in_unit_asked(facts: Sequence[Fact]) -> list[Fact]:
    """Each value of a metric also in the unit the question asks (:func:`~copilot_core.domain.display.shown_in`): the
    tools' sentences write 4827.2 MHz of a frequency their numbers hold as 4.8272 GHz."""
    out = []
    for f in facts:
        unit = f.unit or (CATALOGUE[f.metric].unit if f.metric in CATALOGUE else None)
        if unit and f.role not in ("count", "total", "percent", "r") and (asked := asked_in(unit)) is not None:
            out.append(replace(f, value=float(f"{f.value * asked[1]:.12g}"), unit=asked[0]))
    return out


def matches(value: float, decimals: int, fact: Fact) -> bool:
    """``value`` (written with ``decimals`` places) states ``fact``: rounded to those places, or, when the fact
    may be the model JSON's rounding (:func:`~copilot_core.tools.compact.compact_number`: four significant
    figures), a more precise number that rounds to it (the median 5.0474 GHz is the 5.047 the JSON holds)."""
    held = _rounding_decimals(fact.value)
    return states(value, decimals, fact.value) or (
        held is not None and decimals > held and float(f"{value:.{SIGNIFICANT}g}") == fact.value)


def _rounding_decimals(value: float) -> int | None:
    """The decimals ``value`` holds when it may be a number kept to the JSON's significant figures, else None."""
    if not math.isfinite(value) or value == 0 or float(f"{value:.{SIGNIFICANT}g}") != value:
        return None
    return max(SIGNIFICANT - 1 - math.floor(math.log10(abs(value))), 0)


def written_like(value: float, written: str) -> str:
    """``value`` with as many decimals as ``written``, never more than the value holds when it may be the JSON's
    rounding: 5.047 is corrected to "5.047", not to a made-up "5.0470"."""
    decimals = written_decimals(written)
    held = _rounding_decimals(value)
    return f"{value:.{min(decimals, held) if held is not None else decimals}f}"
