"""Which qubits or couplings: the lowest/highest N of a metric, those past a threshold, those with no valid value.

A chip summary gives the minimum but not who holds it, and the count of qubits *with* data but not the count below a
threshold; a small model then quotes the number it has for the question it was asked.  These tools answer those
question shapes directly, each with ids, counts and a one-line ``answer`` that states exactly what was asked.
Values are the heatmap's (``analysis.chip_metrics.chip_metric``: the newest completed, non-excluded result per
qubit or coupling, in display units), so the copilot and the dashboard agree.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from copilot_core.analysis.chip_metrics import ChipMetric, UnknownChip, chip_metric, restricted
from copilot_core.domain.display import format_share
from copilot_core.domain.metrics import CATALOGUE, Metric, format_value, unit_suffix
from copilot_core.tools.spec import (QUBIT_SET_ARGS, ToolContext, ToolError, ToolResult, chip_id_arg, including_arg,
                                     name_arg, tool)

LISTED = 40  # ids written out in an answer sentence; the full list is in the result
Order = Literal["lowest", "highest"]


def measure_metric(ctx: ToolContext, chip_id: str, metric_name: str, qubits: Sequence[int] | None = None,
                   leaving_out: Sequence[int] | None = None) -> ChipMetric:
    """The chip's values of ``metric_name``, over the set of qubits asked (``qubits`` less ``leaving_out``)."""
    ctx.chip(chip_id)
    entry = CATALOGUE.get(metric_name)
    try:
        found = chip_metric(ctx.repo, chip_id, metric_name, kind=entry.kind if entry else None)
        if entry is None and found.stats["count"] == 0:
            coupling = chip_metric(ctx.repo, chip_id, metric_name, kind="coupling")
            found = coupling if coupling.stats["count"] else found
    except UnknownChip as exc:
        raise ToolError(str(exc), "list chips in the app's overview", kind="data") from None
    if found.stats["count"] == 0:
        raise ToolError(f"no {metric_name} data on {chip_id}", "list names with list_available_parameters", kind="data")
    found = restricted(found, qubits, leaving_out or ())
    if not found.values:
        raise ToolError(f"the set asked ({found.scope}) is outside {chip_id}: give qubits below {found.size}",
                        f"name qubits below {found.size}", kind="call")
    return found


def on_chip(cm: ChipMetric) -> str:
    """``64Qv3`` or ``64Qv3 (Q10 to Q19, 10 qubits)``: the chip and the set of qubits a figure is over."""
    return f"{cm.chip_id} ({cm.scope})" if cm.scope else cm.chip_id


def _item(cm: ChipMetric, item_id: str) -> dict[str, object]:
    key = "coupling_id" if cm.kind == "coupling" else "qid"
    row: dict[str, object] = {key: item_id, "label": cm.label(item_id), "value": cm.values[item_id]}
    if cm.bands.get(item_id):
        row["band"] = cm.bands[item_id]
    return row


def _listed(cm: ChipMetric, rows: list[dict], *, values: bool = True) -> str:
    shown = ", ".join(f"{r['label']} {format_value(cm.metric, r['value'])}" if values else r["label"]
                      for r in rows[:LISTED])
    return shown + (f" and {len(rows) - LISTED} more" if len(rows) > LISTED else "")


def _base(cm: ChipMetric) -> dict[str, object]:
    return {"chip_id": cm.chip_id, "metric": cm.metric.name, "kind": cm.kind, "unit": cm.metric.unit,
            "with_data": cm.stats["count"], "num_" + ("couplings" if cm.kind == "coupling" else "qubits"):
            cm.stats["total"]}


@tool("rank_metric",
      {"chip_id": chip_id_arg(), "metric_name": name_arg("Metric, e.g. 't1', 'zx90_gate_fidelity'."),
       "order": {"type": "string", "enum": ["lowest", "highest"], "default": "lowest", "description": "Which end."},
       "n": {"type": "integer", "minimum": 1, "maximum": 50, "default": 5, "description": "How many, default 5."},
       **QUBIT_SET_ARGS},
      ("chip_id", "metric_name"))
def rank_metric(ctx: ToolContext, chip_id: str, metric_name: str, order: Order = "lowest", n: int = 5,
                qubits: list[int] | None = None, leaving_out: list[int] | None = None) -> ToolResult:
    cm = measure_metric(ctx, chip_id, metric_name, qubits, leaving_out)
    present = sorted((i for i, v in cm.values.items() if v is not None), key=lambda i: (cm.values[i], _order_key(i)),
                     reverse=order == "highest")
    rows = [_item(cm, i) for i in present[:n]]
    kind = "couplings" if cm.kind == "coupling" else "qubits"
    head = rows[0]
    answer = (f"The {order} {cm.metric.name} on {on_chip(cm)} is {head['label']} with "
              f"{format_value(cm.metric, cm.values[present[0]])}")
    if len(rows) > 1:
        answer += f"; the {order} {len(rows)}: {_listed(cm, rows)}"
    answer += f" (latest values of {cm.stats['count']} of {cm.stats['total']} {kind})."
    if len(rows) < n:  # fewer than asked: said, never a shorter list passed off as the one asked
        answer += f" Only {len(rows)} {kind} have a value, fewer than the {n} asked."
    data = {"answer": answer, **_base(cm), "order": order, order: rows}
    return ToolResult(data, f"{order} {len(rows)} {cm.metric.name} on {chip_id}: {head['label']}")


def shares_said(n: int, with_value: int, total: int, kind: str, scope: str = "") -> tuple[str, dict[str, object]]:
    """A share stated over both denominators a person may mean: the subjects with a value, and all on the chip
    ("71.0% of those with a value; 68.8% of all 64 on the chip"), and the chip's share as a fact of its own; of a
    set of qubits (``scope``), all in that set."""
    of_all = format_share(n, total)
    where = "in the set" if scope else "on the chip"
    said = f"{format_share(n, with_value)} of those with a value; " + (
        f"{of_all} of all {total} {where}" if with_value != total else f"all {total} {where} have one")
    return said, {"percent": float(of_all.rstrip("%")), "share_of": f"{kind} {where}"}


def _order_key(item_id: str) -> tuple[int, ...]:
    return tuple(int(p) for p in item_id.split("-"))


@tool("filter_metric",
      {"chip_id": chip_id_arg(), "metric_name": name_arg("Metric, e.g. 't1', 'zx90_gate_fidelity'."),
       "below": {"type": "number", "description": "Only values below this (display units)."},
       "above": {"type": "number", "description": "Only values above this (display units)."},
       "including": including_arg(), **QUBIT_SET_ARGS},
      ("chip_id", "metric_name"))
def filter_metric(ctx: ToolContext, chip_id: str, metric_name: str, below: float | None = None,
                  above: float | None = None, including: list[str] | None = None, qubits: list[int] | None = None,
                  leaving_out: list[int] | None = None) -> ToolResult:
    if below is None and above is None:
        raise ToolError("give below or above", "e.g. {\"metric_name\": \"t1\", \"below\": 50}", kind="call")
    cm = measure_metric(ctx, chip_id, metric_name, qubits, leaving_out)
    held_limits(cm.metric, below, above)
    matched = [i for i, v in cm.values.items() if _meets(v, below, above, including)]
    matched.sort(key=_order_key)
    rows = [_item(cm, i) for i in matched]
    kind = "couplings" if cm.kind == "coupling" else "qubits"
    bounds = _bound_text(cm, below, above, including)
    share = format_share(len(rows), cm.stats["count"])
    said, of_chip = shares_said(len(rows), cm.stats["count"], cm.stats["total"], kind, cm.scope)
    answer = (f"{len(rows)} of {cm.stats['count']} {kind} with {cm.metric.name} data on {on_chip(cm)} have "
              f"{bounds} ({said})"
              + (f": {_listed(cm, rows)}." if rows else ".") + _bands_said([(cm, below, above)]))
    key = "below" if above is None else "above" if below is None else "matching"
    data = {"answer": answer, **_base(cm), "below_limit": below, "above_limit": above,
            f"count_{key}": len(rows), "percent": float(share.rstrip("%")), "share_of": kind, "of_chip": of_chip,
            key: rows}
    others = [cm.label(i) for i in sorted(cm.values, key=_order_key) if _meets(cm.values[i], below, above, including)
              is False]  # for a yes/no over every one ("are all under 300 ns?"): the ones that fail, by name only
    return ToolResult({**data, "not_meeting": others}, f"{len(rows)} {kind} with {bounds} on {on_chip(cm)}",
                      model=data)


@tool("missing_metric",
      {"chip_id": chip_id_arg(), "metric_name": name_arg("Metric, e.g. 't1', 'zx90_gate_fidelity'.")},
      ("chip_id", "metric_name"))
def missing_metric(ctx: ToolContext, chip_id: str, metric_name: str) -> ToolResult:
    cm = measure_metric(ctx, chip_id, metric_name)
    rows = []
    for item_id in sorted(cm.missing, key=_order_key):
        key = "coupling_id" if cm.kind == "coupling" else "qid"
        rows.append({key: item_id, "label": cm.label(item_id),
                     "reason": cm.missing_reason(item_id) or "no usable result"})
    kind = "couplings" if cm.kind == "coupling" else "qubits"
    listed = ", ".join(f"{r['label']} ({r['reason']})" for r in rows[:LISTED])
    more = f" and {len(rows) - LISTED} more" if len(rows) > LISTED else ""
    answer = (f"{len(rows)} of {cm.stats['total']} {kind} on {chip_id} have no valid {cm.metric.name}"
              + (f": {listed}{more}." if rows else "."))
    data = {"answer": answer, **_base(cm), "count_missing": len(rows), "missing": rows}
    return ToolResult(data, f"{len(rows)} {kind} without a valid {cm.metric.name} on {chip_id}")


def _bound_text(cm: ChipMetric, below: float | None, above: float | None,
                including: Sequence[str] | None = None) -> str:
    """``t1 below 60 μs``, ``t1 at least 60 μs``, ``t1 between 60 and 80 μs``, ``t1 outside 60–80 μs``."""
    unit = unit_suffix(cm.metric.unit)
    if below is not None and above is not None:
        inside = f"between {above:g} and {below:g}" if below > above else f"outside {below:g}–{above:g}"
        ends = " (ends included)" if including and len(including) == 2 else \
            f" ({'upper' if 'below' in including else 'lower'} end included)" if including else ""
        return f"{cm.metric.name} {inside}{unit}{ends}"
    side, limit = ("below", below) if below is not None else ("above", above)
    if including and side in including:
        side = "at most" if side == "below" else "at least"
    return f"{cm.metric.name} {side} {limit:g}{unit}"


def _bands_said(groups: Sequence[tuple[ChipMetric, float | None, float | None]]) -> str:
    """" 50 μs is the lab's 'good' limit of t1.": which limits are the catalogue's band limits, so an answer to
    "high T1" says which limit it used; "" when none is."""
    said = []
    for cm, below, above in groups:
        unit = unit_suffix(cm.metric.unit)
        said += [f"{limit:g}{unit} is the lab's '{band}' limit of {cm.metric.name}" for side, limit in
                 (("below", below), ("above", above)) if limit is not None and (band := cm.metric.band_at(side, limit))]
    return f" {'; '.join(said)}." if said else ""


def _meets(value: float | None, below: float | None, above: float | None,
           including: Sequence[str] | None = None) -> bool | None:
    """Whether a value is past its limits; None when there is no value to hold to them.  A below under the above
    is a range's outside ("below 60 or above 80": nobody asks for what cannot be), a below over it its inside.
    ``including``: the sides whose limit itself counts ("at least 60": a value of 60 meets it)."""
    if value is None:
        return None
    at = set(including or ())
    under = below is not None and (value <= below if "below" in at else value < below)
    over = above is not None and (value >= above if "above" in at else value > above)
    if below is not None and above is not None:
        return under or over if below <= above else under and over
    return under or over


def held_limits(metric: Metric, below: float | None, above: float | None) -> None:
    """Refuse a limit the metric can never take in its display unit ("qubit_frequency below 5000": MHz sent as GHz):
    filtering on it would count every qubit or none and say so with a unit the person never wrote."""
    if metric.span is None:
        return
    low, high = metric.span
    unit = unit_suffix(metric.unit)
    for limit in (below, above):
        if limit is not None and not metric.can_hold(float(limit), ""):  # "": the display unit the tools take
            raise ToolError(f"{float(limit):g}{unit} is no {metric.name} value (it takes {low:g} to {high:g}{unit})",
                            f"give the limit in {metric.unit}", kind="call")


Group = tuple[ChipMetric, float | None, float | None, list[str]]


def _groups(ctx: ToolContext, chip_id: str, conditions: list[dict], qubits: list[int] | None = None,
            leaving_out: list[int] | None = None) -> list[Group]:
    """The conditions as (metric, below, above, sides included): a below and an above of one metric are one
    range; a condition with neither is the status "no valid value" ("T1 above 50 μs and no T2 echo")."""
    out: list[Group] = []
    for condition in conditions:
        below, above = condition.get("below"), condition.get("above")
        name = str(condition["metric_name"])
        low, high = (float(below) if below is not None else None), (float(above) if above is not None else None)
        included = [side for side in condition.get("including") or () if side in ("below", "above")]
        if name in CATALOGUE:
            held_limits(CATALOGUE[name], low, high)
        at = None if below is None and above is None else next(
            (i for i, (cm, b, a, _) in enumerate(out) if cm.metric.name == name and (b is None) != (a is None)
             and (low is None or b is None) and (high is None or a is None)), None)
        if at is not None:
            cm, b, a, was = out[at]
            out[at] = (cm, b if low is None else low, a if high is None else high, sorted({*was, *included}))
        else:
            out.append((measure_metric(ctx, chip_id, name, qubits, leaving_out), low, high, included))
    return out


_CONDITION = {"type": "object",
              "properties": {"metric_name": name_arg("Metric, e.g. 't1'."),
                             "below": {"type": "number", "description": "Only values below this (display units)."},
                             "above": {"type": "number", "description": "Only values above this (display units)."},
                             "including": including_arg()},
              "required": ["metric_name"], "additionalProperties": False}


@tool("filter_metrics",
      {"chip_id": chip_id_arg(),
       "conditions": {"type": "array", "items": _CONDITION, "minItems": 2, "maxItems": 4,
                      "description": "Conditions, e.g. [{'metric_name': 't1', 'above': 50}, "
                                     "{'metric_name': 't2_echo', 'above': 40}]."},
       "join": {"type": "string", "enum": ["and", "or"], "default": "and",
                "description": "'and': every condition; 'or': at least one."}, **QUBIT_SET_ARGS},
      ("chip_id", "conditions"))
def filter_metrics(ctx: ToolContext, chip_id: str, conditions: list[dict], join: str = "and",
                   qubits: list[int] | None = None, leaving_out: list[int] | None = None) -> ToolResult:
    """Qubits (or couplings) meeting several conditions at once: a small model cannot intersect two lists."""
    limits = _groups(ctx, chip_id, conditions, qubits, leaving_out)
    kinds = {cm.kind for cm, _, _, _ in limits}
    if len(kinds) > 1:
        raise ToolError("conditions mix qubit and coupling metrics", "filter qubits and couplings separately", kind="call")
    first = limits[0][0]
    verdicts = {i: [_meets(cm.values.get(i), below, above, at) if below is not None or above is not None
                    else cm.values.get(i) is None for cm, below, above, at in limits] for i in first.values}
    if join == "and":
        judged = [i for i, v in verdicts.items() if None not in v]
        matched = [i for i in judged if all(v for v in verdicts[i])]
    else:
        judged = [i for i, v in verdicts.items() if any(x is not None for x in v)]
        matched = [i for i in judged if any(verdicts[i])]
    matched.sort(key=_order_key)
    names = list(dict.fromkeys(cm.metric.name for cm, b, a, _ in limits if b is not None or a is not None))
    rows = []
    for i in matched:
        row: dict[str, object] = {("coupling_id" if first.kind == "coupling" else "qid"): i, "label": first.label(i)}
        for cm, _, _, _ in limits:
            row[cm.metric.name] = cm.values.get(i)
        rows.append(row)
    kind = "couplings" if first.kind == "coupling" else "qubits"
    bounds = f" {join} ".join(_bound_text(cm, below, above, at) if below is not None or above is not None else
                              f"no valid {cm.metric.name}" for cm, below, above, at in limits)
    which = "" if not names else f" with a value of {names[0]}" if len(names) == 1 else \
        f" with a value of {'every one of ' if join == 'and' else 'at least one of '}{', '.join(names)}"
    share = format_share(len(rows), len(judged))
    said, of_chip = shares_said(len(rows), len(judged), first.stats["total"], kind, first.scope)
    listed = ", ".join(str(r["label"]) for r in rows[:LISTED]) + (
        f" and {len(rows) - LISTED} more" if len(rows) > LISTED else "")
    answer = (f"{len(rows)} of {len(judged)} {kind}{which} on {on_chip(first)} have {bounds} "
              f"({said})"
              + (f": {listed}." if rows else ".") + _bands_said([(cm, b, a) for cm, b, a, _ in limits]))
    data = {"answer": answer, "chip_id": chip_id, "kind": first.kind, "join": join,
            "conditions": [{"metric": cm.metric.name, "unit": cm.metric.unit,
                            **{f"{side}_limit": limit for side, limit in (("below", below), ("above", above))
                               if limit is not None}, **({} if below is not None or above is not None else
                                                         {"no_valid_value": True})} for cm, below, above, _ in limits],
            "with_data": len(judged), "num_" + kind: first.stats["total"], "count_matching": len(rows),
            "percent": float(share.rstrip("%")), "share_of": kind, "of_chip": of_chip, "matching": rows}
    return ToolResult(data, f"{len(rows)} {kind} with {bounds} on {chip_id}")
