"""Units a limit may be written in, by family, so a number written in one unit reaches a tool in the metric's own.

A person writes "above 5100 MHz" of a frequency the catalogue keeps in GHz, or "below 0.02 ms" of a T1 kept in μs.
Within a family a value converts exactly (through the family's base unit); across families it cannot ("5 μs" is no
frequency), and :class:`UnitMismatch` says so in words.
"""

from __future__ import annotations

# Each family's units and their size in the family's base unit.
FAMILIES: dict[str, dict[str, float]] = {
    "frequency": {"Hz": 1.0, "kHz": 1e3, "MHz": 1e6, "GHz": 1e9},
    "time": {"ns": 1e-9, "μs": 1e-6, "ms": 1e-3, "s": 1.0},
    "percentage": {"%": 1.0, "fraction": 100.0},  # a share written 0-1 ("as a fraction")
    "ratio in decibels": {"dB": 1.0},
}
# Units written out in words ("45 microseconds", "3 megahertz"), singular and plural.
SPELLED_UNITS: dict[str, str] = {f"{name}{plural}": unit for name, unit in (
    ("nanosecond", "ns"), ("microsecond", "μs"), ("millisecond", "ms"), ("hertz", "Hz"), ("kilohertz", "kHz"),
    ("megahertz", "MHz"), ("gigahertz", "GHz"), ("decibel", "dB"), ("microsec", "μs"), ("usec", "μs"),
    ("nanosec", "ns"), ("millisec", "ms"), ("second", "s"), ("sec", "s"))
    for plural in ("", "s")} | {"percent": "%", "per cent": "%", "percents": "%"}
_SPELLINGS = ({unit.lower(): unit for family in FAMILIES.values() for unit in family} | {"us": "μs", "µs": "μs"}
              | SPELLED_UNITS)


class UnitMismatch(ValueError):
    """A value written in a unit that cannot be converted to the one asked for."""


def canonical(unit: str) -> str:
    """The catalogue's spelling of a written unit ("mhz" -> "MHz", "us" / "µs" -> "μs"); unknown units as written."""
    written = unit.strip()
    return _SPELLINGS.get(written.lower(), written)


def family(unit: str) -> str | None:
    """``"frequency"`` for MHz, ``"time"`` for ns; None for a unit of no family ("a.u.", "MHz/a.u.")."""
    unit = canonical(unit)
    return next((name for name, units in FAMILIES.items() if unit in units), None)


def convert(value: float, written: str, to: str) -> float:
    """``value`` in ``written`` units expressed in ``to`` units (5100 MHz -> 5.1 GHz); the same unit returns it as is.

    Raises :class:`UnitMismatch` when the two units are of different families or of none."""
    source, target = canonical(written), canonical(to)
    if source == target:
        return value
    kind = family(source)
    if kind is None or kind != family(target):
        raise UnitMismatch(f"{value:g} {source} is {_what(source)}, not something in {target}")
    units = FAMILIES[kind]
    return float(f"{value * units[source] / units[target]:.12g}")  # 5100 MHz is 5.1 GHz, not 5.1000000000000005


def _what(unit: str) -> str:
    kind = family(unit)
    return f"a {kind}" if kind is not None else f"in {unit}"
