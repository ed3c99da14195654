"""Which numbers in an answer no tool result backs: a small model quotes well and invents quietly.

After the tool loop every number written in the answer is looked up among the numbers the turn's tools
returned (what the model read and the full results behind it), the numbers the user wrote, and the
thresholds the prompt states.  A number counts as found when some source value, rounded to the number of
decimals the answer wrote, equals it (``61.2`` is backed by ``61.234``; sign-insensitive, so "dropped by 5.2"
is backed by ``-5.2``).  Lengths of the lists a tool returned count as sources too: "3 qubits" after a tool
listed three is a count of what it returned, not an invention.

Not checked, because they are names, not measurements: qubit and parameter labels (``Q05``, ``T1``,
``zx90``), dates and times, ordered-list markers, and multiples of a standard deviation (``2σ``).  A number
the model computed itself (a difference, a ratio, a unit conversion) is accepted when it is marked with
:data:`DERIVED_MARKER` right before it, as the answer format asks; everything else is returned as unverified.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Iterator

from copilot_core.language.forms import found
from copilot_core.language.numbers import PLAIN_NUMBERS, answer_numbers
from copilot_core.checking.matcher import stated_by_any, written_decimals, written_value

# Every digit run in a source (loose on purpose: "Q05", "20260720-003", "4-1" all lend their digits).


def finite_number(value: object) -> float | None:
    """A tool result's number as a float, keeping its sign; None for NaN, infinities and integers too large for a
    float (a database can hold any of them)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        if type(value).__module__ == "numpy" and hasattr(value, "item"):
            return finite_number(value.item())
        return None
    try:
        number = float(value)
    except OverflowError:
        return None
    return number if math.isfinite(number) else None


def _walk(obj: object) -> Iterator[float]:
    """Every number in a tool result: values, numeric strings, and the length of every list."""
    if isinstance(obj, bool) or obj is None:
        return
    if isinstance(obj, (int, float)):
        if (number := finite_number(obj)) is not None:
            yield abs(number)
    elif isinstance(obj, str):
        yield from (abs(float(n.text)) for n in found(PLAIN_NUMBERS, obj, "source"))
    elif isinstance(obj, dict):
        for key, value in obj.items():
            yield from _walk(key)
            yield from _walk(value)
    elif isinstance(obj, (list, tuple)):
        yield float(len(obj))
        for value in obj:
            yield from _walk(value)
    elif type(obj).__module__ == "numpy" and hasattr(obj, "item"):
        yield from _walk(obj.item())
    else:
        yield from _walk(str(obj))


def source_values(sources: Iterable[object]) -> list[float]:
    """Sorted numbers of the sources: JSON text is parsed (so list lengths count), other text is scanned."""
    found: list[float] = []
    for source in sources:
        if isinstance(source, str):
            try:
                source = json.loads(source)
            except ValueError:
                pass
        found.extend(_walk(source))
    return sorted(set(found))


def unverified_numbers(answer: str, sources: Iterable[object], *, allowed_text: Iterable[str] = ()) -> list[str]:
    """Numbers written in ``answer`` that neither a source nor ``allowed_text`` (the user's words, the prompt's
    thresholds) backs and that are not marked as derived; each once, as written, in order."""
    values = source_values([*sources, *allowed_text])
    out: list[str] = []
    for written, derived in answer_numbers(answer or ""):
        if derived or written in out:
            continue
        try:
            value = written_value(written)
        except ValueError:
            continue
        if not stated_by_any(value, written_decimals(written), values):
            out.append(written)
    return out
