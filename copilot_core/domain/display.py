"""The one display rule for numbers: every page, report, tool sentence and export prints through here.

A value keeps the digits the data has at its unit's precision (``5.0474 GHz``, never a value rounded to four
significant figures and padded back to four decimals); a change is printed in the unit that makes it readable
(kHz / MHz for a frequency, percentage points for a fidelity); a missing value says so in words, never
``None`` or ``nan``; qubits and couplings are labelled ``Q069`` / ``Q115→Q118``.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING

from copilot_core.domain.topology import qubit_label, target_label
from copilot_core.domain.units import convert, family

if TYPE_CHECKING:
    from copilot_core.domain.metrics import Metric

__all__ = ["NOT_MEASURED", "NO_CHANGE", "NO_VALUE", "converted_decimals", "format_value", "format_change", "format_percent",
           "format_fraction", "format_share", "unit_suffix", "format_coefficient", "format_with_error", "number_or_none",
           "qubit_label", "target_label", "MEDIAN_CHANGE_LABEL", "shown_in", "asked_in"]

NO_VALUE = "—"  # a value missing inside a sentence or a chart label
NOT_MEASURED = "not measured"  # a table cell with no usable value
NO_CHANGE = "no change"
MEDIAN_CHANGE_LABEL = "median of per-qubit changes"
_DECIMALS = {"%": 2, "GHz": 4, "MHz": 1, "μs": 1, "ns": 1}


def number_or_none(value: object) -> float | None:
    """A finite float, or None for None / NaN / inf / non-numbers (pandas cells hold NaN for "none")."""
    if value is None or isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    value = float(value)
    return value if math.isfinite(value) else None


# The unit the question asks its values in ("in megahertz"), for the turn being answered: every value, spread and
# change of a metric of that unit's family is written in it (a frequency kept in GHz shown in MHz).
_SHOWN_IN: ContextVar[str | None] = ContextVar("unit_shown_in", default=None)


@contextmanager
def shown_in(unit: str | None) -> Iterator[None]:
    """Within the block, values of ``unit``'s family are written in ``unit`` (None: each in its metric's own)."""
    token = _SHOWN_IN.set(unit)
    try:
        yield
    finally:
        _SHOWN_IN.reset(token)


def asked_in(unit: str) -> tuple[str, float] | None:
    """The unit asked and its factor from ``unit`` when it is another unit of ``unit``'s family, else None."""
    asked = _SHOWN_IN.get()
    if not asked or asked == unit or family(unit) is None or family(asked) != family(unit):
        return None
    return asked, convert(1.0, unit, asked)


def unit_suffix(unit: str) -> str:
    """What follows a number for ``unit``: ``%`` sits against it, any other unit after a space, no unit (or a
    share written as a fraction) nothing."""
    return "" if not unit or unit == "fraction" else unit if unit == "%" else f" {unit}"


def _with_unit(text: str, unit: str) -> str:
    return f"{text}{unit_suffix(unit)}"


def converted_decimals(unit: str, factor: float) -> int | None:
    """The decimals a value kept in ``unit`` has once multiplied by ``factor`` into another unit of its family (a GHz
    value's 4 are 1 in MHz and none in kHz; a ns value's 1 is 4 in μs): the data's precision, not the new unit's."""
    base = _DECIMALS.get(unit)
    return None if base is None or factor <= 0 else max(0, base - round(math.log10(factor)))


def format_value(metric: Metric, value: float | None, *, unit: bool = True, missing: str = NO_VALUE,
                 decimals: int | None = None) -> str:
    """``99.87%``, ``48.3 μs``, ``5.0474 GHz``; ``missing`` (default "—") when there is no value, never a 0;
    ``decimals`` when a converted value keeps another precision than its unit's (:func:`converted_decimals`)."""
    number = number_or_none(value)
    if number is None:
        return missing
    shown = metric.unit
    if (asked := asked_in(metric.unit)) is not None:
        shown, factor = asked
        number, decimals = number * factor, converted_decimals(metric.unit, factor) if decimals is None else decimals
    decimals = _DECIMALS.get(metric.unit) if decimals is None else decimals
    text = f"{number:.{decimals}f}" if decimals is not None else f"{number:.5g}"
    return _with_unit(text, shown) if unit else text


def format_with_error(metric: Metric, value: float | None, error: float | None, *, missing: str = NO_VALUE) -> str:
    """``45.3 ± 0.9 μs``, ``99.87 ± 0.02%``: a fit value and its error in display units at the value's precision."""
    if number_or_none(value) is None:
        return missing
    text = format_value(metric, value, unit=False)
    spread = number_or_none(error)
    if spread:
        text += " ± " + format_value(metric, abs(spread), unit=False)
    asked = asked_in(metric.unit)
    return _with_unit(text, asked[0] if asked else metric.unit)


def _signed(number: float, decimals: int) -> str:
    text = f"{abs(number):.{decimals}f}"
    return ("+" if number > 0 else "-") + text


def format_change(metric: Metric, change: float | None, *, missing: str = NOT_MEASURED) -> str:
    """A change in display units, in the unit a reader takes in at a glance: ``-1.5 kHz`` / ``+12.3 MHz`` for a
    frequency, ``+0.12 pp`` (percentage points) for a fidelity, ``-4.2 μs`` for a time; ``no change`` for 0."""
    number = number_or_none(change)
    if number is None:
        return missing
    if number == 0:
        return NO_CHANGE
    if (asked := asked_in(metric.unit)) is not None:
        shown, factor = asked
        places = converted_decimals(metric.unit, factor)
        return _with_unit(_signed(number * factor, places) if places is not None else f"{number * factor:+.5g}", shown)
    if metric.unit == "GHz":
        khz = number * 1e6
        if abs(khz) < 0.05:
            return "< 0.1 kHz"
        return f"{_signed(khz, 1)} kHz" if abs(khz) < 1000 else f"{_signed(khz / 1000, 1)} MHz"
    if metric.unit == "%":
        return f"{_signed(number, 2)} pp"
    decimals = _DECIMALS.get(metric.unit)
    if decimals is None:
        text = f"{abs(number):.5g}"
        return _with_unit(("+" if number > 0 else "-") + text, metric.unit)
    return _with_unit(_signed(number, decimals), metric.unit)


def format_percent(percent: float | None, *, missing: str = NOT_MEASURED) -> str:
    """A relative change given in percent: ``+1.23%`` / ``-80.7%``; ``no change`` for 0."""
    number = number_or_none(percent)
    if number is None:
        return missing
    if number == 0:
        return NO_CHANGE
    return "< 0.1%" if abs(number) < 0.05 else f"{_signed(number, 1)}%"


def format_fraction(fraction: float | None, *, missing: str = NOT_MEASURED) -> str:
    """A relative size given as a fraction (a drop of 0.553 -> ``55%``), unsigned: the sentence says which way."""
    number = number_or_none(fraction)
    return missing if number is None else f"{abs(number) * 100:.0f}%"


def format_share(part: int, whole: int) -> str:
    """``part`` of ``whole`` as a percentage at one decimal (41 of 64 -> ``64.1%``); ``0.0%`` of nothing."""
    return f"{100.0 * part / whole:.1f}%" if whole else "0.0%"


def format_coefficient(value: float | None, *, missing: str = NO_VALUE) -> str:
    """A unitless coefficient (a correlation r) at two decimals, sign kept: ``-0.41``, ``0.82``."""
    number = number_or_none(value)
    return missing if number is None else f"{number:.2f}"
