"""The one rule for "this number, as written, states that value": every check of an answer uses it.

A written number states a value when the value, rounded to the decimals the number shows, equals it (``61.2``
states ``61.234``; ``61`` states ``61.4``; ``61.6`` does not state ``61.2``).  Sizes are compared, not signs: answers
drop them ("fell by 5.2" states a change of ``-5.2``); the claim check reads a change's direction from its words.
Infinite or NaN on either side states nothing (an id's digits can overflow a float).
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Sequence

from copilot_core.language.numbers import signed_value

# Past this many decimals a half-unit is below the smallest float: more would overflow ``10.0 ** -decimals``.
MAX_DECIMALS = 400


def written_decimals(written: str) -> int:
    """How many decimals ``written`` resolves (``1.2e-3`` -> 4, ``1,200`` -> 0), at most :data:`MAX_DECIMALS`
    (an exponent hundreds of digits long is an id's digits, not a precision)."""
    mantissa, _, exponent = written.lower().partition("e")
    places = len(mantissa.partition(".")[2])
    digits = exponent.lstrip("+-")
    if len(digits) > 4:  # "1e-4009999…": as many decimals as a float can resolve
        return MAX_DECIMALS if exponent.startswith("-") else 0
    return min(max(places - int(exponent or 0), 0), MAX_DECIMALS)


def written_value(written: str) -> float:
    """The size of a number as written (``−3`` and ``1,200`` too); ``inf`` for one too large for a float."""
    return abs(signed_value(written))


def _half(size: float, decimals: int) -> tuple[float, float]:
    """Half a unit of the last decimal shown, and the float slack around it."""
    half = 0.5 * 10.0 ** -decimals
    return half, half * 1e-9 + 1e-12 * max(size, 1.0)


def states(size: float, decimals: int, value: float) -> bool:
    """True when ``value`` rounded to ``decimals`` places is ``size`` (a written number's size; ties either way)."""
    if not (math.isfinite(size) and math.isfinite(value)):
        return False
    half, slack = _half(size, decimals)
    return abs(abs(value) - size) <= half + slack


def states_written(written: str, value: float) -> bool:
    """:func:`states` for a number as written (``"61.2"``, ``"−3"``, ``"1,200"``)."""
    try:
        size = written_value(written)
    except ValueError:
        return False
    return states(size, written_decimals(written), value)


def stated_by_any(size: float, decimals: int, values: Sequence[float]) -> bool:
    """:func:`states` against sorted non-negative ``values`` (binary search: a turn's results hold thousands)."""
    if not math.isfinite(size):
        return False
    half, slack = _half(size, decimals)
    i = bisect.bisect_left(values, size - half - slack)
    return i < len(values) and values[i] <= size + half + slack
