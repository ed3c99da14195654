"""Metric catalogue: units, raw->display scale, better direction and scoring thresholds.

Values are stored raw in QDash (fidelities as fractions, anharmonicity in GHz) while people and
thresholds speak %, MHz.  Every page, tool and prompt converts through this one table so the
model and the user compare like with like.  Thresholds are QDash's ``review.yaml: scoring``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from copilot_core.domain.display import format_value as format_value  # the display rule, re-exported
from copilot_core.domain.display import unit_suffix as unit_suffix
from copilot_core.domain.units import UnitMismatch, convert, family

Kind = Literal["qubit", "coupling"]
Band = Literal["bad", "fair", "good", "excellent"]
BANDS: tuple[Band, ...] = ("bad", "fair", "good", "excellent")


def stored_number(raw: object, *, zero_is_missing: bool = True) -> float | None:
    """A stored value as a float; None for missing, non-numeric, NaN/inf and (by default) QDash's NaN-as-0."""
    if raw is None or isinstance(raw, bool):
        return None
    try:
        value = float(raw)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None
    if not math.isfinite(value) or (zero_is_missing and value == 0.0):
        return None
    return value


def missing_since(param: object) -> datetime | None:
    """The date of a latest result whose value is unusable (NaN/inf/NaN-as-0), else None.

    ``param`` is a stored ParameterModel ({value, calibrated_at, ...}) or a repository row with
    ``missing_since``: the metric is then missing for that qubit, and this date says since when.
    """
    if not isinstance(param, dict):
        return None
    if "missing_since" in param:
        at = param.get("missing_since")
    elif stored_number(param.get("value")) is None and "value" in param:
        at = param.get("calibrated_at")
    else:
        return None
    return at if isinstance(at, datetime) else None


def missing_text(at: datetime | None) -> str:
    """``no valid value since 2025-06-06`` (the failed measurement's date stays visible)."""
    return f"no valid value since {at:%Y-%m-%d}" if at is not None else "no valid value"


def window_text(hours: float | None, end: datetime | None) -> str:
    """``7 days up to 2025-06-06`` / ``36 h up to 2025-06-06 14:00``: windows count back from the data."""
    if not hours:
        return "all time"
    span = f"{hours / 24:g} days" if hours % 24 == 0 else f"{hours:g} h"
    if end is None:
        return f"last {span}"
    return f"{span} up to {end:%Y-%m-%d}" if hours % 24 == 0 else f"{span} up to {end:%Y-%m-%d %H:%M}"


@dataclass(frozen=True)
class Metric:
    name: str
    title: str
    unit: str  # display unit
    scale: float = 1.0  # display = raw * scale
    higher_is_better: bool = True
    bad: float | None = None  # display units; worse than this is "bad"
    good: float | None = None  # at least this good is "good"
    excellent: float | None = None
    kind: Kind = "qubit"
    task: str | None = None  # the QDash task that produces it
    span: tuple[float, float] | None = None  # display units: the values the quantity can physically take

    def in_display(self, value: float, unit: str) -> float | None:
        """``value`` written in ``unit`` in the display unit; None when the unit cannot be this metric's.  A number
        with no unit is in the display unit, except a fraction of a metric shown in % ("0.995" of a fidelity)."""
        if not unit:
            return value * 100 if self.unit == "%" and 0 < abs(value) < 1 else value
        try:
            return convert(value, unit, self.unit)
        except UnitMismatch:
            return None

    def can_hold(self, value: float, unit: str) -> bool:
        """Whether a limit ``value`` ``unit`` can be this metric's: its unit of the metric's family (none for a metric
        in no family) and, in the display unit, a value the metric can take ("7.1 GHz" is no anharmonicity)."""
        if unit and family(self.unit) is None:
            return False
        shown = self.in_display(value, unit)
        return shown is not None and (self.span is None or self.span[0] <= shown <= self.span[1])

    def to_display(self, raw: object) -> float | None:
        """Raw stored value -> display units; NaN/inf and QDash's NaN-as-0 become None."""
        value = stored_number(raw)
        return None if value is None else value * self.scale

    def score(self, display: float | None) -> Band | None:
        """Band of a display value against the thresholds; None when unknown or unscored."""
        if display is None or (self.good is None and self.excellent is None and self.bad is None):
            return None
        better = (lambda v, t: v >= t) if self.higher_is_better else (lambda v, t: v <= t)
        if self.excellent is not None and better(display, self.excellent):
            return "excellent"
        if self.good is not None and better(display, self.good):
            return "good"
        if self.bad is not None and not better(display, self.bad):
            return "bad"
        return "fair"

    def band_limit(self, direction: str, word: str = "") -> tuple[str, float, Band] | None:
        """The lab's limit a condition in words means: a worse side ("poor", or "short" of a longer-is-better
        metric) is past the ``bad`` limit, a better one reaches ``good`` (``excellent`` when so written), as
        ``(side, value, band)``; None when the metric has no such limit (the person is asked which)."""
        worse_side = "below" if self.higher_is_better else "above"
        worse = direction == "worse" if direction in ("worse", "better") else \
            ("below" if direction == "low" else "above") == worse_side
        band: Band = "bad" if worse else "excellent" if word == "excellent" else "good"
        value = {"bad": self.bad, "good": self.good, "excellent": self.excellent}[band]
        side = worse_side if worse else "above" if worse_side == "below" else "below"
        return None if value is None else (side, value, band)

    def band_at(self, side: str, value: float) -> Band | None:
        """The band whose limit ``side value`` is (below 20 μs of T1: "bad"), else None."""
        worse_side = "below" if self.higher_is_better else "above"
        limits: dict[Band, float | None] = {"bad": self.bad, "good": self.good, "excellent": self.excellent}
        return next((b for b, v in limits.items() if v is not None and abs(v - value) < 1e-9
                     and (side == worse_side) == (b == "bad")), None)

    def threshold_text(self) -> str:
        """One prompt line, e.g. ``t1: bad < 20 μs, good > 50 μs, excellent > 100 μs``."""
        worse, better = ("<", ">") if self.higher_is_better else (">", "<")
        parts = []
        if self.bad is not None:
            parts.append(f"bad {worse} {self.bad:g} {self.unit}")
        if self.good is not None:
            parts.append(f"good {better} {self.good:g} {self.unit}")
        if self.excellent is not None:
            parts.append(f"excellent {better} {self.excellent:g} {self.unit}")
        direction = "higher is better" if self.higher_is_better else "lower is better"
        return f"{self.name}: " + (", ".join(parts) if parts else "no thresholds") + f" ({direction})"


def _fidelity(name: str, title: str, bad: float | None, good: float | None, excellent: float | None,
              kind: Kind = "qubit", task: str | None = None) -> Metric:
    return Metric(name, title, "%", 100.0, True, bad, good, excellent, kind, task, _SHARE)


# What each quantity can physically take, in display units, wide enough for any lab's chip: a limit outside it is
# another quantity's ("7.1 GHz" is a frequency, never an anharmonicity of 7100 MHz).
_SHARE = (0.0, 100.0)
_FREQUENCY = (0.05, 50.0)  # GHz
_DETUNING = (-2000.0, 2000.0)  # MHz: anharmonicity
_ZZ = (-200.0, 200.0)  # MHz
_COHERENCE = (0.0, 1e5)  # μs
_GATE = (0.0, 1e4)  # ns


CATALOGUE: dict[str, Metric] = {m.name: m for m in (
    Metric("qubit_frequency", "Qubit frequency", "GHz", 1.0, True, None, 4.5, 5.0, task="CheckQubitFrequency",
           span=_FREQUENCY),
    Metric("readout_frequency", "Readout frequency", "GHz", 1.0, True, task="CheckReadoutFrequency", span=_FREQUENCY),
    Metric("anharmonicity", "Anharmonicity", "MHz", 1000.0, False, -250, -280, -320, task="CheckQubitSpectroscopy",
           span=_DETUNING),
    Metric("t1", "T1", "μs", 1.0, True, 20, 50, 100, task="CheckT1", span=_COHERENCE),
    Metric("t1_average", "T1 (average)", "μs", 1.0, True, 20, 50, 100, task="CheckT1Average", span=_COHERENCE),
    Metric("t2_echo", "T2 echo", "μs", 1.0, True, 30, 80, 150, task="CheckT2Echo", span=_COHERENCE),
    Metric("t2_echo_average", "T2 echo (average)", "μs", 1.0, True, 30, 80, 150, task="CheckT2EchoAverage",
           span=_COHERENCE),
    Metric("t2_star", "T2*", "μs", 1.0, True, 10, 20, 40, task="CheckRamsey", span=_COHERENCE),
    _fidelity("average_readout_fidelity", "Readout fidelity", 85, 95, 99, task="ReadoutClassification"),
    _fidelity("readout_fidelity_0", "Readout fidelity |0>", None, None, None, task="ReadoutClassification"),
    _fidelity("readout_fidelity_1", "Readout fidelity |1>", None, None, None, task="ReadoutClassification"),
    _fidelity("average_gate_fidelity", "Average gate fidelity", 98.0, 99.5, 99.9, task="RandomizedBenchmarking"),
    _fidelity("x90_gate_fidelity", "X90 gate fidelity", 98.0, 99.5, 99.9,
              task="X90InterleavedRandomizedBenchmarking"),
    _fidelity("x180_gate_fidelity", "X180 gate fidelity", 98.0, 99.5, 99.9,
              task="X180InterleavedRandomizedBenchmarking"),
    _fidelity("zx90_gate_fidelity", "ZX90 gate fidelity", 85, 95, 99, kind="coupling",
              task="ZX90InterleavedRandomizedBenchmarking"),
    _fidelity("bell_state_fidelity", "Bell state fidelity", 80, 90, 95, kind="coupling",
              task="CheckBellStateTomography"),
    Metric("zx90_gate_time", "ZX90 gate time", "ns", 1.0, False, kind="coupling", task="CreateZX90", span=_GATE),
    # the interleaved RB tasks' second output (lower is better), unscored: a correlation or a ranking may read it
    Metric("x90_depolarizing_rate", "X90 depolarizing rate", "a.u.", 1.0, False,
           task="X90InterleavedRandomizedBenchmarking"),
    Metric("zx90_depolarizing_rate", "ZX90 depolarizing rate", "a.u.", 1.0, False, kind="coupling",
           task="ZX90InterleavedRandomizedBenchmarking"),
    Metric("static_zz_interaction", "Static ZZ", "MHz", 1000.0, False, kind="coupling", span=_ZZ),
    # QDash's metrics.yaml: units and scales as there; it evaluates none of them against thresholds (unscored)
    Metric("maximum_rabi_frequency", "Maximum Rabi frequency", "MHz/a.u.", 1.0, True, task="CheckRabi"),
    Metric("hpi_amplitude", "HPI amplitude", "a.u.", 1.0, True, task="CreateHPIPulse"),
    Metric("hpi_length", "HPI length", "ns", 1.0, False, task="CreateHPIPulse", span=_GATE),
    _fidelity("one_qubit_gate_coherence_limit", "1Q gate coherence limit", None, None, None,
              task="Check1QGateCoherenceLimit"),
    _fidelity("two_qubit_gate_coherence_limit", "2Q gate coherence limit", None, None, None, kind="coupling",
              task="Check2QGateCoherenceLimit"),
)}

# A gate fidelity's other form (its interleaved RB depolarizing rate): read by the tools, left out of the prompt's
# context, where the fidelity already says it.
RESTATED = frozenset({"x90_depolarizing_rate", "zx90_depolarizing_rate"})
QUBIT_METRICS = tuple(name for name, m in CATALOGUE.items() if m.kind == "qubit")
COUPLING_METRICS = tuple(name for name, m in CATALOGUE.items() if m.kind == "coupling")
# Metrics with thresholds: what health summaries, drift flags and prompts score.
SCORED_QUBIT_METRICS = tuple(n for n in QUBIT_METRICS if CATALOGUE[n].good is not None or CATALOGUE[n].bad is not None)
SCORED_COUPLING_METRICS = tuple(n for n in COUPLING_METRICS if CATALOGUE[n].good is not None)


def metric(name: str, unit: str = "", kind: Kind = "qubit") -> Metric:
    """Catalogue entry, or an unscored entry for a parameter found only in the data."""
    found = CATALOGUE.get(name)
    if found is not None:
        return found
    return Metric(name, name.replace("_", " "), unit, 1.0, True, kind=kind)


def _rule(m: Metric) -> str:
    """``bad < 20, good > 50, excellent > 100 μs``: the prompt's compact form of ``threshold_text``."""
    worse, better = ("<", ">") if m.higher_is_better else (">", "<")
    parts = [f"{band} {sign} {value:g}" for band, sign, value in (("bad", worse, m.bad), ("good", better, m.good),
                                                                  ("excellent", better, m.excellent))
             if value is not None]
    return ", ".join(parts) + f" {m.unit}" + ("" if m.higher_is_better else " (lower is better)")


def thresholds_prompt(names: tuple[str, ...] | None = None) -> str:
    """Threshold lines for a system prompt, in display units; metrics with the same rule share one line."""
    rules: dict[str, list[str]] = {}
    for name in names or SCORED_QUBIT_METRICS + SCORED_COUPLING_METRICS:
        rules.setdefault(_rule(CATALOGUE[name]), []).append(name)
    return "\n".join(f"- {', '.join(group)}: {rule}" for rule, group in rules.items())
