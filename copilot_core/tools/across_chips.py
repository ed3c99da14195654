"""compare_chips: one metric's statistic on several chips, each chip's value side by side, or pooled over every
qubit (coupling) of the chips together.

"Across chips" has one meaning here: a statistic asked "across all chips", "over both devices" or "fleet-wide" is
taken over the pooled latest values of every chip compared (not the median of the chips' medians), and each chip's
own value is written beside it.  A spread (std, IQR, range, CV) is one chip's spread over its own qubits, or the
pooled values' spread; a frequency's spread may be asked in kHz or MHz.  With a limit (``below``/``above``) the
statistic is the share of each chip's qubits past it, said over both denominators a person may mean (those with a
value, and every one on the chip), or pooled: the matching qubits of all the chips over all their qubits (the limits
come from the question's words: the router's call and the restate check fill them, and no model is sent them).  The
``ranking`` (highest first) is what the order check holds a winner against; a smaller spread is the better (more
uniform) one.
"""

from __future__ import annotations

from copilot_core.analysis.chip_metrics import UnknownChip, chip_metric
from copilot_core.analysis.stats import SPREADS, ChipStatistic, statistic_of
from copilot_core.domain.display import format_share
from copilot_core.domain.metrics import CATALOGUE, Metric, format_value
from copilot_core.domain.units import convert
from copilot_core.tools.aggregates import ranking
from copilot_core.tools.distribution import SPREAD_UNITS, in_unit
from copilot_core.tools.ranking import _bound_text, _meets, held_limits
from copilot_core.tools.spec import FROM_QUESTION, ToolContext, ToolError, ToolResult, chip_ids_arg, name_arg, tool

STATISTICS: tuple[ChipStatistic, ...] = ("median", "mean", "min", "max", "std", "iqr", "range", "cv")
TITLES: dict[str, str] = {"median": "median", "mean": "mean", "min": "minimum", "max": "maximum",
                          "std": "standard deviation", "iqr": "interquartile range (IQR)", "range": "range",
                          "cv": "coefficient of variation"}


def _chips(ctx: ToolContext, chip_ids: list[str] | None) -> list[str]:
    if chip_ids:
        for chip_id in chip_ids:
            ctx.chip(chip_id)
        return list(dict.fromkeys(chip_ids))
    return [c["chip_id"] for c in ctx.repo.list_chips() if isinstance(c.get("chip_id"), str)]


def _shown(show: Metric, statistic: str, value: float) -> str:
    return f"{value:.1f}%" if statistic == "cv" else format_value(show, value)


@tool("compare_chips",
      {"metric_name": name_arg("Metric, e.g. 't2_echo', 'average_readout_fidelity'."),
       "statistic": {"type": "string", "enum": list(STATISTICS), "default": "median",
                     "description": "Statistic of the latest values (spreads: std, iqr, range, cv)."},
       "chip_ids": chip_ids_arg(8, "Chips to compare; default every chip."),
       "unit": {"type": "string", "enum": list(SPREAD_UNITS), "description": "Unit asked."},
       "pooled": {"type": "boolean", "default": False,
                  "description": "One value over all their qubits."},
       "below": {"type": "number", FROM_QUESTION: True, "description": "Share of qubits below this (display units)."},
       "above": {"type": "number", FROM_QUESTION: True, "description": "Share of qubits above this (display units)."}},
      ("metric_name",))
def compare_chips(ctx: ToolContext, metric_name: str, statistic: ChipStatistic = "median",
                  chip_ids: list[str] | None = None, unit: str | None = None, pooled: bool = False,
                  below: float | None = None, above: float | None = None) -> ToolResult:
    entry = CATALOGUE.get(metric_name)
    if entry is None:
        raise ToolError(f"unknown metric {metric_name!r}", "list names with list_available_parameters", kind="call")
    if statistic not in STATISTICS:
        raise ToolError(f"unknown statistic {statistic!r}", f"one of {', '.join(STATISTICS)}", kind="call")
    if below is not None or above is not None:
        return _shares(ctx, metric_name, _chips(ctx, chip_ids), below, above, pooled)
    show = entry if unit is None else in_unit(entry, unit)
    factor = convert(1.0, entry.unit, show.unit) if show.unit != entry.unit else 1.0
    values: dict[str, float] = {}
    every: list[float] = []
    rows = []
    for chip_id in _chips(ctx, chip_ids):
        try:
            cm = chip_metric(ctx.repo, chip_id, metric_name, kind=entry.kind)
        except UnknownChip as exc:
            raise ToolError(str(exc), "list chips in the app's overview", kind="data") from None
        own = [v * factor for v in cm.values.values() if v is not None]
        every += own
        value = statistic_of(own, statistic)
        if value is not None:
            values[chip_id] = value
            rows.append({"chip_id": chip_id, statistic: value, "with_data": cm.stats["count"],
                         "total": cm.stats["total"]})
    if len(values) < 2:
        raise ToolError(f"fewer than two chips have {metric_name} data", "compare qubits on one chip instead", kind="data")
    order = sorted(values, key=lambda c: -values[c])  # highest first
    rows.sort(key=lambda r: order.index(str(r["chip_id"])))
    spread = statistic in SPREADS
    higher_is_better = entry.higher_is_better and not spread
    shown = {c: _shown(show, statistic, values[c]) for c in order}
    title = f"{TITLES[statistic]} of {entry.title}" if spread else f"{statistic} {entry.title}"
    data: dict = {"metric": metric_name, "statistic": statistic, "unit": show.unit, "chips": rows,
                  "difference": abs(values[order[0]] - values[order[1]]),
                  "ranking": ranking("chip", metric_name, [(c, [shown[c]]) for c in order], higher_is_better)}
    kind = "couplings" if entry.kind == "coupling" else "qubits"
    if pooled:
        together = statistic_of(every, statistic)
        if together is None:
            raise ToolError(f"too few {metric_name} values to pool", "compare the chips instead", kind="data")
        each = "; ".join(f"{c} {shown[c]} over {r['with_data']}" for c, r in zip(order, rows))
        answer = (f"Over all {len(every)} {kind} of {' and '.join(order)} together (pooled), the {title} is "
                  f"{_shown(show, statistic, together)}; each chip's own: {each} {kind}.")
        data["pooled"] = {statistic: together, "with_data": len(every), "chip_ids": order}
    else:  # the best first (a spread: the widest), and the chip that varies least in words no ranking reads
        better = order if higher_is_better else order[::-1]
        head, rest = (order[0], order[1:]) if spread else (better[0], better[1:])
        word = "larger" if spread else "higher" if entry.higher_is_better else "lower"
        if values[rest[0]] == values[head]:
            answer = f"{head} and {rest[0]} have the same {title}: {shown[head]}."
        else:
            others = ", ".join(f"{shown[c]} on {c}" for c in rest)
            answer = (f"{head} has the {word} {title}: {shown[head]} vs {others}; difference "
                      f"{_shown(show, statistic, abs(values[head] - values[rest[0]]))}"
                      + (f"; {order[-1]} varies least (the most uniform)." if spread else "."))
    data["answer"] = answer
    scope = "pooled over" if pooled else "on"
    return ToolResult(data, f"{statistic} {metric_name} {scope} {len(rows)} chips")


def _shares(ctx: ToolContext, metric_name: str, chips: list[str], below: float | None, above: float | None,
            pooled: bool) -> ToolResult:
    """The share of each chip's qubits (couplings) past the limits, over those with a value and over all on the
    chip; pooled: over every chip's together.  The highest share is ranked first."""
    if metric_name in CATALOGUE:
        held_limits(CATALOGUE[metric_name], below, above)
    parts: dict[str, tuple[int, int, int]] = {}  # chip: (matching, with a value, all on the chip)
    bounds = ""
    for chip_id in chips:
        try:
            cm = chip_metric(ctx.repo, chip_id, metric_name, kind=CATALOGUE[metric_name].kind)
        except UnknownChip as exc:
            raise ToolError(str(exc), "list chips in the app's overview", kind="data") from None
        hit = sum(1 for v in cm.values.values() if _meets(v, below, above))
        parts[chip_id] = (hit, int(cm.stats["count"]), int(cm.stats["total"]))
        bounds = _bound_text(cm, below, above)
    if sum(1 for p in parts.values() if p[1]) < 2:
        raise ToolError(f"fewer than two chips have {metric_name} data", "filter one chip instead", kind="data")
    kind = "couplings" if CATALOGUE[metric_name].kind == "coupling" else "qubits"
    order = sorted(parts, key=lambda c: -(parts[c][0] / parts[c][1] if parts[c][1] else 0.0))

    def said(hit: int, with_value: int, total: int, where: str) -> str:
        return (f"{hit} of {with_value} {kind} with a value ({format_share(hit, with_value)} of those with a value; "
                f"{format_share(hit, total)} of all {total} {kind} {where})")
    rows = [{"chip_id": c, "matching": parts[c][0], "with_data": parts[c][1], "total": parts[c][2],
             "percent": 100.0 * parts[c][0] / parts[c][1] if parts[c][1] else 0.0,
             "percent_of_chip": 100.0 * parts[c][0] / parts[c][2] if parts[c][2] else 0.0} for c in order]
    each = "; ".join(f"{c}: {said(*parts[c], 'on the chip')}" for c in order)
    data: dict = {"metric": metric_name, "statistic": "share", "below_limit": below, "above_limit": above,
                  "share_of": kind, "chips": rows,
                  "ranking": ranking("chip", f"share with {bounds}",
                                     [(c, [format_share(parts[c][0], parts[c][1])]) for c in order], True)}
    if pooled:
        hit, with_value, total = (sum(p[i] for p in parts.values()) for i in range(3))
        data["pooled"] = {"matching": hit, "with_data": with_value, "total": total, "chip_ids": order,
                          "percent": 100.0 * hit / with_value if with_value else 0.0}
        answer = (f"Over all {kind} of {' and '.join(order)} together (pooled), {bounds}: "
                  f"{said(hit, with_value, total, 'on the chips')}; each chip's own: {each}.")
    else:
        pct = {c: format_share(parts[c][0], parts[c][1]) for c in order}
        head, rest = order[0], order[1:]
        lead = (f"{head} and {rest[0]} have the same share, {pct[head]}" if pct[head] == pct[rest[0]] else
                f"{head} has the larger share, {pct[head]} vs " + ", ".join(f"{pct[c]} on {c}" for c in rest))
        answer = f"Share of {kind} with {bounds}: {lead} (of those with a value). Each chip: {each}."
    data["answer"] = answer
    scope = "pooled over" if pooled else "on"
    return ToolResult(data, f"share of {kind} with {bounds} {scope} {len(order)} chips")
