"""How one metric is spread over a chip, and how two metrics go together over its qubits.

A small model cannot compute a standard deviation or a correlation from a list it was sent; these tools state the
statistic asked for in a sentence that names it ("standard deviation", "IQR", "Pearson r") with the number of qubits
it is over, so the claim check can hold a number written for one statistic against that statistic.  Values are the
heatmap's (latest completed, non-excluded result per qubit or coupling, display units), through
:func:`~copilot_core.tools.ranking.measure_metric`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Literal

import numpy as np
import pandas as pd

from copilot_core.analysis.stats import statistic_of
from copilot_core.domain.display import converted_decimals, format_coefficient, format_value
from copilot_core.domain.metrics import Metric
from copilot_core.domain.units import canonical, convert, family
from copilot_core.tools.ranking import measure_metric, on_chip
from copilot_core.tools.spec import QUBIT_SET_ARGS, ToolContext, ToolError, ToolResult, chip_id_arg, name_arg, tool

Statistic = Literal["std", "range", "iqr", "cv", "pstd", "mad"]
STATISTICS: tuple[Statistic, ...] = ("std", "range", "iqr", "cv", "pstd", "mad")
_ALWAYS: tuple[Statistic, ...] = ("std", "range", "iqr", "cv")  # said after the one asked; pstd and mad when asked
SPREAD_UNITS = ("kHz", "MHz", "GHz", "ns", "μs", "ms")  # another unit of the metric's own family


@tool("metric_spread",
      {"chip_id": chip_id_arg(), "metric_name": name_arg("Metric, e.g. 't1', 'zx90_gate_fidelity'."),
       "lead": {"type": "string", "enum": list(STATISTICS), "default": "std",
                "description": "The statistic asked for, written first."},
       "unit": {"type": "string", "enum": list(SPREAD_UNITS), "description": "Unit asked."}, **QUBIT_SET_ARGS},
      ("chip_id", "metric_name"))
def metric_spread(ctx: ToolContext, chip_id: str, metric_name: str, lead: Statistic = "std",
                  unit: str | None = None, qubits: list[int] | None = None,
                  leaving_out: list[int] | None = None) -> ToolResult:
    cm = measure_metric(ctx, chip_id, metric_name, qubits, leaving_out)
    show = cm.metric if unit is None else in_unit(cm.metric, unit)
    factor = convert(1.0, cm.metric.unit, show.unit) if show.unit != cm.metric.unit else 1.0
    arr = np.asarray([v * factor for v in cm.values.values() if v is not None], dtype=float)
    if arr.size < 2:
        raise ToolError(f"only {arr.size} value of {metric_name} on {chip_id}: no spread", "ask for the value instead",
                        kind="data")
    places = converted_decimals(cm.metric.unit, factor) if factor != 1.0 else None

    def shown(value: float) -> str:
        return format_value(show, value, decimals=places)

    def gap(value: float) -> str:
        """A difference of values: of a percentage, in percentage points (a spread of 3% of a fidelity is no 3%
        of anything)."""
        if show.unit != "%":
            return shown(value)
        return f"{format_value(show, value, unit=False, decimals=places)} percentage points"

    got = {s: statistic_of(arr, s) for s in STATISTICS}
    low, high = float(arr.min()), float(arr.max())
    q1, q3 = (float(x) for x in np.percentile(arr, [25, 75]))
    mean, cv = float(arr.mean()), got["cv"]
    parts: dict[Statistic, str] = {
        "std": f"sample standard deviation {gap(got['std'] or 0.0)}",
        "pstd": f"population standard deviation {gap(got['pstd'] or 0.0)}",
        "range": f"range {gap(high - low)} (min {shown(low)}, max {shown(high)})",
        "iqr": f"interquartile range (IQR) {gap(q3 - q1)}",
        "cv": f"coefficient of variation {cv:.1f}%" if cv is not None else "coefficient of variation undefined",
        "mad": f"median absolute deviation (MAD) {gap(got['mad'] or 0.0)}",
    }
    order = [lead, *(s for s in _ALWAYS if s != lead)]
    kind = "couplings" if cm.kind == "coupling" else "qubits"
    answer = (f"{cm.metric.name} on {on_chip(cm)}: " + "; ".join(parts[s] for s in order)
              + f"; over {arr.size} {kind} with a value (mean {shown(mean)}).")
    data: dict[str, object] = {
        "answer": answer, "chip_id": chip_id, "metric": cm.metric.name, "unit": show.unit, "with_data": int(arr.size),
        f"num_{kind}": cm.stats["total"], "std": got["std"], "range": high - low, "min": low, "max": high, "q1": q1,
        "q3": q3, "iqr": q3 - q1, "mean": mean, "cv": cv, "lead": lead, **{s: got[s] for s in ("pstd", "mad") if s == lead}}
    return ToolResult(data, f"spread of {cm.metric.name} on {chip_id} over {arr.size} {kind}")


def in_unit(metric: Metric, unit: str) -> Metric:
    """``metric`` shown in ``unit``, another unit of its own family (a frequency's spread in MHz)."""
    written = canonical(unit)
    if family(written) is None or family(written) != family(metric.unit):
        raise ToolError(f"{unit} is not available for {metric.name} (in {metric.unit})",
                        f"leave unit out, or give one in {metric.unit}'s family", kind="call")
    return replace(metric, unit=written)


@tool("correlate_metrics",
      {"chip_id": chip_id_arg(), "metric_a": name_arg("First metric, e.g. 't1'."),
       "metric_b": name_arg("Second metric, e.g. 't2_echo'."),
       "method": {"type": "string", "enum": ["pearson", "spearman", "both"], "default": "pearson",
                  "description": "Pearson r (default), Spearman rho, or both."}, **QUBIT_SET_ARGS},
      ("chip_id", "metric_a", "metric_b"))
def correlate_metrics(ctx: ToolContext, chip_id: str, metric_a: str, metric_b: str, method: str = "pearson",
                      qubits: list[int] | None = None, leaving_out: list[int] | None = None) -> ToolResult:
    if metric_a == metric_b:
        raise ToolError("give two different metrics", "e.g. metric_a 't1', metric_b 't2_echo'", kind="call")
    a, b = (measure_metric(ctx, chip_id, m, qubits, leaving_out) for m in (metric_a, metric_b))
    if a.kind != b.kind:
        raise ToolError(f"{metric_a} and {metric_b} are not both qubit (or both coupling) metrics",
                        "correlate two qubit metrics or two coupling metrics", kind="call")
    pairs = pd.DataFrame({"a": {i: v for i, v in a.values.items() if v is not None},
                          "b": {i: v for i, v in b.values.items() if v is not None}}).dropna()
    n = len(pairs)
    if n < 3 or pairs["a"].nunique() < 2 or pairs["b"].nunique() < 2:
        raise ToolError(f"only {n} {a.kind}s have both {metric_a} and {metric_b} (or the values do not vary)",
                        "a correlation needs at least 3 varying pairs", kind="data")
    pearson = float(pairs["a"].corr(pairs["b"], method="pearson"))
    ranks = pairs.rank()  # Spearman's rho: Pearson's r of the ranks (ties averaged), without scipy
    spearman = float(ranks["a"].corr(ranks["b"], method="pearson"))
    kind = "couplings" if a.kind == "coupling" else "qubits"
    stated = []
    if method in ("pearson", "both"):
        stated.append(f"Pearson r = {format_coefficient(pearson)}")
    if method in ("spearman", "both"):
        stated.append(f"Spearman rho = {format_coefficient(spearman)}")
    answer = (f"Across {n} {kind} of {on_chip(a)} with both values, {a.metric.name} and {b.metric.name} correlate with "
              + " and ".join(stated) + f" ({_strength(pearson if method != 'spearman' else spearman)}).")
    data = {"answer": answer, "chip_id": chip_id, "metric_a": a.metric.name, "metric_b": b.metric.name,
            "pairs": n, "pearson_r": pearson, "spearman_rho": spearman, "method": method}
    return ToolResult(data, f"{a.metric.name} vs {b.metric.name} on {chip_id}: r over {n} {kind}")


def relation_strength(r: float) -> str:
    """The word for a coefficient's size: "strong", "moderate", "weak" or "no clear" (the claim check holds an
    answer's words to the same bands)."""
    size = abs(r)
    return "strong" if size >= 0.7 else "moderate" if size >= 0.4 else "weak" if size >= 0.1 else "no clear"


def _strength(r: float) -> str:
    """Words for a coefficient's size and sign, so the sentence reads without the number."""
    word = relation_strength(r)
    return f"{word} {'positive' if r > 0 else 'negative'} relation" if word != "no clear" else "no clear relation"
