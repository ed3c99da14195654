"""Figures derived from two subjects' values, beyond the values themselves: the gap between two values (its unit
and the higher side named) and their ratio, and one statistic of each history over a window.

A person asking for the frequency gap of two qubits, or which of two T1 histories was the steadier in a fortnight,
wants that one derived figure, the winner first; a dump of each one's latest value leaves the
arithmetic, and its mistakes, to the reader (and to a small model).  The statistic a call names is computed here
once; the tools only put the sentence first in their answer.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from typing import Literal, get_args

from copilot_core.domain.display import format_value
from copilot_core.domain.metrics import Metric

Statistic = Literal["mean", "median", "max", "min", "std", "drift", "gain"]
STATISTICS: tuple[str, ...] = get_args(Statistic)
# How each statistic is named in a sentence.
_NAMES = {"mean": "mean", "median": "median", "max": "maximum", "min": "minimum", "std": "standard deviation",
          "drift": "change", "gain": "change"}


def _amount_value(entry: Metric, value: float) -> tuple[float, str]:
    """A difference, a spread or a change in the unit it is written in: a frequency's in MHz (a gap of 0.3 MHz is
    0.0003 GHz: four decimals would round it away), a percentage's in percentage points, others in the metric's."""
    return (value * 1000, "MHz") if entry.unit == "GHz" else (value, entry.unit)


def _amount(entry: Metric, value: float) -> str:
    """An amount as written (never a relative %: a gap between percentages is in percentage points)."""
    number, unit = _amount_value(entry, value)
    if unit == "MHz" and entry.unit == "GHz":
        return f"{number:.3f} MHz"
    if unit == "%":
        return f"{format_value(entry, number, unit=False)} percentage points"
    return format_value(entry, number)


def _signed(entry: Metric, value: float) -> str:
    return ("+" if value > 0 else "-" if value < 0 else "±") + _amount(entry, abs(value))


def gap_text(entry: Metric, a: tuple[str, float], b: tuple[str, float]) -> str:
    """"Q03 is 12.1 μs higher than Q09 (difference 12.1 μs; ratio Q03/Q09 1.31)": the gap of two values, the better
    side by the metric's direction named first (a gate time: the shorter, "lower"); the ratio only of two positive
    values."""
    (first, fv), (second, sv) = (a, b) if (a[1] >= b[1]) == entry.higher_is_better else (b, a)
    if fv == sv:
        return f"{first} and {second} are equal ({format_value(entry, fv)}; difference 0)"
    gap = _amount(entry, abs(fv - sv))
    ratio = f"; ratio {first}/{second} {fv / sv:.3g}" if fv > 0 and sv > 0 else ""
    if not entry.higher_is_better:  # "lower" would read as the worse side: the gap alone, the better side first
        return f"{first} and {second} differ by {gap} in {entry.title}, {first} the better (difference {gap}{ratio})"
    return f"{first} is {gap} higher than {second} (difference {gap}{ratio})"


def gap_facts(entry: Metric, a: float, b: float) -> dict:
    """The gap (and ratio) :func:`gap_text` writes, as the numbers the claim check reads."""
    number, unit = _amount_value(entry, abs(a - b))
    first, second = (max(a, b), min(a, b)) if entry.higher_is_better else (min(a, b), max(a, b))
    return {"difference": number, "unit": unit, **({"ratio": first / second} if first > 0 and second > 0 else {})}


def series_statistic(values: Sequence[float], statistic: Statistic) -> float | None:
    """One statistic of a history given oldest first: a center or extreme, the sample standard deviation (needs two
    points), or the change from the first value to the last (drift and gain alike)."""
    if not values or statistic == "std" and len(values) < 2:
        return None
    if statistic in ("drift", "gain"):
        return values[-1] - values[0]
    if statistic == "std":
        return statistics.stdev(values)
    if statistic == "mean":
        return statistics.mean(values)
    if statistic == "median":
        return float(statistics.median(values))
    return max(values) if statistic == "max" else min(values)


def statistic_facts(entry: Metric, series: dict[str, Sequence[float]], statistic: Statistic) -> dict:
    """Each side's ``statistic`` as the numbers the claim check reads (a spread or a change in its written unit)."""
    amount = statistic in ("std", "drift", "gain")
    sides = []
    for label, points in series.items():
        value = series_statistic(points, statistic)
        if value is not None:
            number, unit = _amount_value(entry, value) if amount else (value, entry.unit)
            sides.append({"label": label, "change" if statistic in ("drift", "gain") else statistic: number,
                          "unit": unit})
    return {"statistic": statistic, "sides": sides}


def two_statistics(entry: Metric, series: dict[str, Sequence[float]], over: str, statistic: Statistic) -> str:
    """The sentence comparing two histories (label -> values, oldest first) on ``statistic`` ``over`` a window, the
    one the question is after first, with the difference; empty unless both have the statistic."""
    values = {label: v for label, points in series.items() if (v := series_statistic(points, statistic)) is not None}
    if len(series) != 2 or len(values) != 2:
        return ""
    name = _NAMES[statistic]
    (a, va), (b, vb) = values.items()
    if statistic == "std":
        (a, va), (b, vb) = sorted(values.items(), key=lambda kv: -kv[1])
        return (f"{a}'s {entry.title} varied more than {b}'s {over}: {name} {_amount(entry, va)} vs "
                f"{_amount(entry, vb)} (difference {_amount(entry, va - vb)}); {b} was the steadier. ")
    if statistic in ("drift", "gain"):
        gains = {k: v if entry.higher_is_better else -v for k, v in values.items()}
        key = (lambda kv: -abs(kv[1])) if statistic == "drift" else (lambda kv: -gains[kv[0]])
        (a, va), (b, vb) = sorted(values.items(), key=key)
        changes = f"{a} changed by {_signed(entry, va)}, {b} by {_signed(entry, vb)}"
        if statistic == "drift":
            return f"{a}'s {entry.title} drifted more than {b}'s {over}: {changes}. "
        verb = "improved more than" if gains[a] > 0 else "worsened less than"
        return f"{a} {verb} {b} in {entry.title} {over}: {changes}. "
    (a, va), (b, vb) = sorted(values.items(), key=lambda kv: -kv[1] if entry.higher_is_better else kv[1])
    if va == vb:
        return f"{a} and {b} have the same {name} {entry.title} {over}: {format_value(entry, va)}. "
    return (f"{a} is better than {b} for {name} {entry.title} {over}: {a} {name} {format_value(entry, va)} vs "
            f"{b} {name} {format_value(entry, vb)}; {gap_text(entry, (a, va), (b, vb))}. ")
