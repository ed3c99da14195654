"""A tool call's below/above limits held to the units the question wrote them in: the one place this is decided.

Tools take limits in the metric's display unit (the catalogue's).  A question may write its limit in another unit of
the same kind ("above 5100 MHz" of a frequency kept in GHz); a small model then passes 5100 unchanged and the tool
answers "0 qubits above 5100 GHz".  Every call the turn makes (the router's, the model's, a retry) passes through
:func:`settle_limits`: a limit equal to a number the question wrote with another unit is converted to the metric's
unit (and the model is told), and a unit that cannot belong to the metric ("5 μs" of a frequency) refuses the call
with a message that says why.  A limit the model already converted, or one the question wrote in the metric's own
unit or with no unit, passes as it is.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

from copilot_core.domain.metrics import CATALOGUE, Metric
from copilot_core.domain.units import canonical, convert, family
from copilot_core.language.question import Question, Threshold
from copilot_core.tools.compact import to_model_json
from copilot_core.tools.toolkit import ToolOutcome

SIDES = ("below", "above")
REFUSED = "The question's limit"  # how a refusal for a unit starts, so the answer can show it
# The tools that take limits, and where: top-level ``below``/``above`` of one metric, or a list of conditions.
_ONE_METRIC = frozenset({"filter_metric"})
_CONDITIONS = frozenset({"filter_metrics"})


@dataclass(frozen=True)
class Settled:
    """The call's arguments after the check: ``notes`` say what was converted, ``refusal`` why the call cannot run
    (``hint``: what to do instead)."""

    args: dict
    notes: tuple[str, ...] = ()
    refusal: str | None = None
    hint: str = ""


def _number(value: object) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value.strip())
        except ValueError:
            return None
    return None


def _bounds(name: str, args: dict) -> Iterator[tuple[dict, str, Metric]]:
    """Each (holder, side, metric) whose ``holder[side]`` is a limit of a catalogue metric."""
    holders = [args] if name in _ONE_METRIC else args.get("conditions") if name in _CONDITIONS else []
    for holder in holders if isinstance(holders, list) else []:
        entry = CATALOGUE.get(str(holder.get("metric_name"))) if isinstance(holder, dict) else None
        if entry is None:
            continue
        for side in SIDES:
            if holder.get(side) is not None:
                yield holder, side, entry


def _written(value: float, limits: tuple[Threshold, ...]) -> list[Threshold]:
    """The question's limits written with a unit whose number is ``value`` (the model passed it unchanged)."""
    return [t for t in limits if t.unit and t.value == value]


def settle_limits(name: str, args: dict, asked: Question) -> Settled:
    """``args`` with every limit the question wrote in another unit converted to the metric's unit, or a refusal
    when the unit cannot be the metric's.  Calls of other tools, and limits the question did not write with a unit,
    come back unchanged."""
    if name not in _ONE_METRIC | _CONDITIONS or not any(t.unit for t in asked.limits):
        return Settled(args)
    out = {**args, "conditions": [dict(c) if isinstance(c, dict) else c for c in args["conditions"]]} \
        if name in _CONDITIONS and isinstance(args.get("conditions"), list) else dict(args)
    notes: list[str] = []
    for holder, side, entry in _bounds(name, out):
        value = _number(holder[side])
        written = _written(value, asked.limits) if value is not None else []
        if value is None or not written or any(canonical(t.unit) == canonical(entry.unit) for t in written):
            continue
        same = next((t for t in written if family(t.unit) is not None and family(t.unit) == family(entry.unit)), None)
        if same is None:
            t = written[0]
            kind = family(t.unit)
            return Settled(args, refusal=f"{REFUSED} {t.value:g} {canonical(t.unit)} is "
                           f"{'a ' + kind if kind else 'in ' + canonical(t.unit)}, so it cannot be a limit of "
                           f"{entry.name}, which is in {entry.unit or 'no unit'}",
                           hint=f"tell the user the limit's unit does not fit {entry.name} (in {entry.unit}) and ask "
                                f"for the limit in {entry.unit}")
        else:
            holder[side] = convert(same.value, same.unit, entry.unit)
            notes.append(f"the question's {same.value:g} {canonical(same.unit)} is {holder[side]:g} {entry.unit}: "
                         f"the {entry.name} limit was converted")
    return Settled(out, tuple(notes))


def noted(outcome: ToolOutcome, notes: tuple[str, ...]) -> ToolOutcome:
    """``outcome`` with what was converted put in front of the result the model reads, and in its summary."""
    if not notes:
        return outcome
    try:
        body = json.loads(outcome.model_text)
    except ValueError:
        return outcome
    if not isinstance(body, dict):
        return outcome
    text = "; ".join(notes)
    return replace(outcome, model_text=to_model_json({"note": text, **body}), summary=f"{outcome.summary} ({text})")


def unit_refusals(outcomes: Sequence[ToolOutcome]) -> str | None:
    """The turn's refusals for a limit's unit, as one line the person reads next to the answer; None without any."""
    said = list(dict.fromkeys(o.error for o in outcomes if not o.ok and o.error and o.error.startswith(REFUSED)))
    return " ".join(f"{line}." for line in said) or None
