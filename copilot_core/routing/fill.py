"""The typed fields of a question the parse left unrouted, filled by one constrained model call and cross-checked
against the text: where the word tables miss a wording, the router can still make the call.

The model gets a JSON schema whose enums hold only what is safe (the shapes, the catalogue's metric keys, the
installed chips, the question's own numbers as qubit ids), so a grammar-constrained server cannot write anything
else.  Its answer is still read as untrusted: every filled value must be supported by the question's text (a number
among its numbers, a metric whose words it writes and whose unit fits the unit written, a chip whose size it
writes), a field the parse already read keeps the parse's value, and anything malformed, outside the schema or
unsupported is dropped; when nothing is left the parse stands (fail closed).  :class:`FilledQuestion` is the
agreed question the router then runs on; :meth:`FilledQuestion.without` keeps the filled fields.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from typing import cast

from copilot_core.domain.metrics import CATALOGUE
from copilot_core.domain.units import canonical, family
from copilot_core.domain.vocabulary import NUMBER_WORDS
from copilot_core.language.limits import Threshold
from copilot_core.language.question import Question
from copilot_core.language.question_words import tokens_of
from copilot_core.language.window_words import Window

# (question, JSON schema) -> the model's JSON text, None when the call failed: the one model call, made in llm/.
FillCall = Callable[[str, dict], "str | None"]

# The eval shape a model may name -> the parse's shape it sets (None: the limits or the ranking carry it).
SHAPES: dict[str, str | None] = {"compound filter": None, "percentage": "percentage", "top N": "extreme",
                                 "cross-chip": "cross-chip", "spread": "spread", "correlation": "correlation",
                                 "window count": "window count", "fails most": "fails most",
                                 "qubit pair": "qubit pair", "other": None}
# Parse shapes that say no more than "a question about values": a filled shape may replace only these.
_OPEN_SHAPES = frozenset({"other", "lookup", "count", "extreme", "statistic", "failures"})
_SUBJECT_ROWS = {"qubit": "by qubit", "coupling": "by coupling", "run": "by run", "task": "tasks"}
_CHIP_WORDS = frozenset({"chip", "chips", "device", "devices"})  # a cross-chip question writes one (or two chips)
_UNITS = ("", "%", "μs", "ns", "GHz", "MHz", "kHz")
# Words of metric titles that name no metric on their own ("fidelity" of which gate?).
_GENERIC = frozenset({"gate", "fidelity", "rate", "time", "average", "state", "qubit", "the", "of", "frequency"})


def fill_schema(asked: Question) -> dict:
    """The closed schema of one fill: every enum from the catalogue, the installed chips and the question's numbers."""
    metrics = sorted(CATALOGUE)
    numbers = sorted({str(int(n)) for n in _numbers(asked) if n == int(n) and n >= 0})
    limit = {"type": "object", "additionalProperties": False, "required": ["metric", "comparison", "value", "unit"],
             "properties": {"metric": {"enum": metrics}, "comparison": {"enum": ["above", "below"]},
                            "value": {"type": "number"}, "unit": {"enum": list(_UNITS)}}}
    props = {"metrics": {"type": "array", "items": {"enum": metrics}, "maxItems": 2},
             "chip": {"enum": [*asked.installed, "none"]},
             "subject": {"enum": ["qubit", "coupling", "task", "run", "none"]},
             "extreme": {"enum": ["lowest", "highest", "none"]},
             "n": {"type": "integer", "minimum": 0, "maximum": 50},
             "limits": {"type": "array", "items": limit, "maxItems": 4},
             "window_days": {"type": "integer", "minimum": 0, "maximum": 365},
             "qubits": {"type": "array", "items": {"enum": numbers or ["none"]}, "maxItems": 2 if numbers else 0},
             "shape": {"enum": list(SHAPES)}}  # asked last: the fields written first (measured: docs/benchmarks-fill.md)
    return {"type": "object", "additionalProperties": False, "required": list(props), "properties": props}


def _numbers(asked: Question) -> set[float]:
    """Every number the question writes, in digits or words."""
    out: set[float] = set()
    for written in asked.values:
        try:
            out.add(float(written.replace(",", "")))
        except ValueError:
            continue
    out |= {float(NUMBER_WORDS[w]) for _, _, t in tokens_of(asked.text) if (w := t.lower()) in NUMBER_WORDS}
    return out


def _writes(asked: Question, metric: str) -> bool:
    """The question writes a word of the metric's own (its title's or key's, no generic word like "fidelity")."""
    entry = CATALOGUE[metric]
    words = {w for w in (entry.title.lower().replace("*", " star").split() + metric.split("_")) if w not in _GENERIC}
    said = _said(asked)
    return bool(words & said) or metric == "qubit_frequency" and "frequency" in said and "readout" not in said


def _said(asked: Question) -> set[str]:
    return {t.lower() for _, _, t in tokens_of(asked.text)}


def _fits(metric: str, unit: str) -> bool:
    """A unit written fits the metric: the same family (μs of T1), or % of a fraction shown in %."""
    shown = CATALOGUE[metric].unit
    return not unit or unit == shown or (family(unit) is not None and family(unit) == family(shown))


@dataclass(frozen=True)
class FilledQuestion(Question):
    """A parse with the fields a model fill agreed on; re-reading it without a row keeps them."""

    fill: tuple[tuple[str, object], ...] = ()
    marks: tuple[tuple[str, str], ...] = ()  # word-table rows the fill stands for (row, what it stands in for)

    def without(self, row: str) -> Question:
        again = Question.without(self, row)
        return _with(again, dict(self.fill), tuple(m for m in self.marks if m[0] != row))


def _with(asked: Question, changes: dict[str, object], marks: tuple[tuple[str, str], ...]) -> FilledQuestion:
    base = {f.name: getattr(asked, f.name) for f in fields(Question)}
    found = {**asked.found, **dict(marks)}
    return FilledQuestion(**{**base, **changes, "found": found, "fill": tuple(changes.items()), "marks": marks})


def _read(raw: str | None) -> dict | None:
    try:
        got = json.loads(raw) if raw else None
    except (ValueError, TypeError, RecursionError):
        return None
    return got if isinstance(got, dict) else None


def _enum(got: dict, key: str, allowed: Sequence[str]) -> str | None:
    value = got.get(key)
    return value if isinstance(value, str) and value in allowed and value != "none" else None


def _count(got: dict, key: str, numbers: set[float]) -> int | None:
    value = got.get(key)
    ok = isinstance(value, int) and not isinstance(value, bool) and 0 < value <= 365
    return cast(int, value) if ok and float(cast(int, value)) in numbers else None


def _days(got: dict, numbers: set[float]) -> int | None:
    """Window days written as days, weeks or hours ("2 weeks": 14, "48 hours": 2)."""
    value = got.get("window_days")
    if not isinstance(value, int) or isinstance(value, bool) or not 0 < value <= 365:
        return None
    return value if {float(value), value / 7, value * 24.0} & numbers else None


def _limits(asked: Question, got: dict, numbers: set[float], metrics: set[str]) -> tuple[Threshold, ...] | None:
    """The parse's limits with a metric filled where it read none; else the filled ones the text supports."""
    raw = got.get("limits")
    if not isinstance(raw, list):
        return None
    stated = {canonical(t.unit) for t in asked.limits if t.unit} | ({asked.unit_asked} if asked.unit_asked else set())
    filled = []
    for item in raw:
        if not isinstance(item, dict):
            continue
        metric, side, value, unit = item.get("metric"), item.get("comparison"), item.get("value"), item.get("unit")
        if metric not in CATALOGUE or side not in ("above", "below") or isinstance(value, bool) or \
                not isinstance(value, (int, float)) or float(value) not in numbers or unit not in _UNITS:
            continue
        metric, unit = str(metric), canonical(str(unit))
        if not (metric in metrics or _writes(asked, metric)) or not _fits(metric, unit) or \
                any(not _fits(metric, s) for s in stated if s and len(stated) == 1):
            continue
        filled.append(Threshold(side, float(value), unit, metric))
    if asked.limits:  # the parse's limits stand; a metric it left open is taken from a filled limit of that value
        kept = tuple(t if t.metric is not None else next(
            (Threshold(t.side, t.value, t.unit, f.metric, t.inclusive) for f in filled
             if f.value == t.value and f.side == t.side and _fits(str(f.metric), canonical(t.unit))), t)
            for t in asked.limits)
        return kept if kept != asked.limits else None
    return tuple(filled) or None


def agreed(asked: Question, raw: str | None) -> FilledQuestion | None:
    """The question with every filled field the text supports and the parse left open; None when none is."""
    got = _read(raw)
    if got is None:
        return None
    numbers = _numbers(asked)
    changes: dict[str, object] = {}
    marks: list[tuple[str, str]] = []
    shape = _enum(got, "shape", list(SHAPES))
    if shape is not None and SHAPES[shape] is not None and asked.shape in _OPEN_SHAPES:
        changes["shape"] = SHAPES[shape]
    clear = [m for m in asked.metrics if m is not None]
    metrics = got.get("metrics")
    if not asked.metrics and isinstance(metrics, list):  # an ambiguous metric the parse read ("T2") is asked about
        named = tuple(dict.fromkeys(m for m in metrics if isinstance(m, str) and m in CATALOGUE and _writes(asked, m)))
        if named:
            changes["metrics"] = named
            clear = list(named)
    limits = _limits(asked, got, numbers, set(clear))
    if limits is not None and not (set(clear) and any(t.metric not in clear for t in limits if t.metric)):
        changes["limits"], changes["threshold"] = limits, limits[0]
    chip = _enum(got, "chip", asked.installed)
    if chip is not None and not asked.chip_ids and float("".join(c for c in chip.split("Q")[0] if c.isdigit()) or -1) \
            in numbers:
        changes["chip_ids"], changes["chips"] = (chip,), (chip,)
    extreme = _enum(got, "extreme", ["lowest", "highest"])
    if extreme is not None and asked.extreme is None and shape in ("top N", "fails most"):
        changes["extreme"], changes["extreme_word"] = extreme, extreme
    n = _count(got, "n", numbers)
    if n is not None and asked.extreme_n is None and (asked.extreme or "extreme" in changes):
        changes["extreme_n"] = min(n, 50)
    days = _days(got, numbers)
    if days is not None and asked.window is None and asked.dates is None:
        changes["window"] = Window(days, "day")
    qubits = got.get("qubits")
    if not asked.qubits and not asked.couplings and isinstance(qubits, list) and len(qubits) == 2 and \
            all(isinstance(q, str) and q.isdigit() and float(q) in numbers for q in qubits) and qubits[0] != qubits[1] \
            and not any(float(q) in {t.value for t in asked.limits} for q in qubits):
        changes["qubits"] = changes["ends"] = tuple(str(int(q)) for q in qubits)
    subject = _enum(got, "subject", list(_SUBJECT_ROWS))
    if subject is not None and (changes.get("shape") or asked.shape) == "fails most" and \
            not any(asked.has(row) for row in _SUBJECT_ROWS.values()):
        marks.append((_SUBJECT_ROWS[subject], subject))
    if not _shaped(_with(asked, changes, tuple(marks))):
        changes.pop("shape", None)  # a shape whose own fields are not there (a "qubit pair" of no qubits)
    return _with(asked, changes, tuple(marks)) if changes or marks else None


def _shaped(asked: Question) -> bool:
    """The question holds what its shape needs: two qubits to compare, two metrics to relate, one to spread, rank
    or compare chips by, a window to count in, a limit to take a share past."""
    clear = {m for m in asked.metrics if m is not None}
    needs = {"qubit pair": len(asked.qubits) == 2, "correlation": len(clear) == 2, "spread": len(clear) == 1,
             "extreme": len(clear) == 1 and asked.extreme is not None,
             "cross-chip": len(clear) == 1 and (len(set(asked.chip_ids)) >= 2 or bool(_CHIP_WORDS & _said(asked))),
             "window count": asked.window is not None or asked.dates is not None or asked.since_weekday is not None,
             "percentage": bool(asked.limits) or asked.has("fail")}
    return needs.get(asked.shape, True)
