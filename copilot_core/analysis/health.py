"""Deterministic health report of one qubit: no LLM, the same answer every time for the same data.

It answers what a lab member checks by hand before asking anyone: is each metric bad, good or
excellent against the thresholds, is it getting worse over the window, is it worse than the
qubits around it (a local problem, not a chip-wide one), and are its couplings healthy.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from copilot_core.analysis.chip_metrics import UnknownChip, canonical_coupling_ids, chip_topology
from copilot_core.analysis.drift import BASELINE_DAYS, DriftFlag, drops
from copilot_core.domain.metrics import (BANDS, SCORED_COUPLING_METRICS, SCORED_QUBIT_METRICS, Band, format_value,
                                         metric, missing_since, missing_text, window_text)
from copilot_core.data.rows import ChipSeriesRow
from copilot_core.domain.display import format_fraction, format_percent
from copilot_core.domain.topology import qubit_label
from copilot_core.domain.windows import dates_text, day_window, read_end
from copilot_core.errors import InvalidRequest

if TYPE_CHECKING:
    from copilot_core.data.rows import ChipRow, Params, SeriesPoint, TaskRow
    from copilot_core.data.repository import CalibrationRepository

Direction = Literal["improving", "degrading", "stable", "unknown"]
TREND_MIN_POINTS = 3
STABLE_CHANGE = 0.05  # relative change over the window below which a metric is "stable"
NEIGHBOUR_GAP = 0.25  # flagged when this much worse than the neighbours' median
OWN_DROP = 0.2  # flagged when the latest value is this much worse than the qubit's own median before it
TASK_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,63}")  # task names shown in findings and reviews: identifiers only
CORE_METRICS = ("t1", "t2_echo", "average_readout_fidelity", "x90_gate_fidelity")


@dataclass(frozen=True)
class Trend:
    points: int
    slope_per_day: float | None  # display units per day
    change: float | None  # relative change over the window, signed (value units, not "better")
    direction: Direction

    def text(self, unit: str) -> str:
        if self.direction == "unknown":
            return f"not enough points ({self.points})"
        pct = format_percent(self.change * 100) if self.change is not None else ""
        return f"{self.direction} ({pct} over the window, {self.points} points)"


@dataclass(frozen=True)
class MetricCheck:
    name: str
    title: str
    unit: str
    value: float | None
    band: Band | None
    thresholds: str
    calibrated_at: Any
    trend: Trend
    neighbour_median: float | None
    neighbour_count: int
    vs_neighbours: float | None  # relative, positive = better than the neighbours' median
    missing: str | None = None  # "no valid value since 2025-06-06" when the latest result was NaN/NaN-as-0
    own_median: float | None = None  # median of the qubit's own values in the days before its latest one
    own_drop: float | None = None  # fraction of ``own_median`` the latest value lost (set only past OWN_DROP)


@dataclass(frozen=True)
class CouplingCheck:
    coupling_id: str  # control-target as in the topology
    label: str
    role: Literal["control", "target"]
    partner: str  # the other qubit's qid
    values: dict[str, tuple[float | None, Band | None]]  # metric -> (display value, band)


@dataclass(frozen=True)
class TaskFailure:
    """A failed task on the qubit or on one of its couplings within the report's window."""

    target: str  # the stored qid ("5") or coupling id ("115-118")
    label: str  # "Q005" or "Q115→Q118"
    task: str
    at: datetime | None
    message: str  # untrusted database text: show it as plain text only

    @property
    def on_coupling(self) -> bool:
        return "-" in self.target


@dataclass(frozen=True)
class HealthReport:
    chip_id: str
    qid: str
    label: str
    size: int
    window_days: int
    verdict: Band | None  # worst band among scored metrics; None = nothing scored
    metrics: list[MetricCheck]
    neighbours: list[str]
    couplings: list[CouplingCheck]
    findings: list[str] = field(default_factory=list)
    window: str = ""  # the dates of the window: whole UTC days ending on the chip's newest run's day
    failures: list[TaskFailure] = field(default_factory=list)  # newest first

    @property
    def neighbour_labels(self) -> list[str]:
        return [qubit_label(n, self.size) for n in self.neighbours]

    def to_markdown(self) -> str:
        """The report as Markdown (numbers and fixed words only: no database text)."""
        verdict = self.verdict or "no scored data"
        lines = [f"### {self.label} on {self.chip_id}: {verdict}", ""]
        if self.window:
            lines += [f"Trends over {self.window}.", ""]
        lines += [f"- {f}" for f in self.findings] or ["- Nothing stands out."]
        lines += ["", "| metric | value | band | trend | vs neighbours |", "|---|---|---|---|---|"]
        for m in self.metrics:
            entry = metric(m.name)
            gap = "—" if m.vs_neighbours is None else (
                f"{m.vs_neighbours * 100:+.0f}% (median {format_value(entry, m.neighbour_median)})")
            shown = m.missing if m.value is None and m.missing else format_value(entry, m.value)
            lines.append(f"| {m.title} | {shown} | {m.band or '—'} | "
                         f"{m.trend.text(m.unit)} | {gap} |")
        if self.couplings:
            lines += ["", "| coupling | role | " + " | ".join(metric(n).title for n in SCORED_COUPLING_METRICS) + " |",
                      "|---|---|" + "---|" * len(SCORED_COUPLING_METRICS)]
            for c in self.couplings:
                cells = []
                for n in SCORED_COUPLING_METRICS:
                    value, band = c.values.get(n, (None, None))
                    cells.append(format_value(metric(n, kind="coupling"), value) + (f" ({band})" if band else ""))
                lines.append(f"| {c.label} | {c.role} | " + " | ".join(cells) + " |")
        return "\n".join(lines)


def trend(points: list[tuple[datetime, float]], higher_is_better: bool) -> Trend:
    """Least-squares slope over the window, as a relative change of the median."""
    if len(points) < TREND_MIN_POINTS:
        return Trend(len(points), None, None, "unknown")
    t0 = points[0][0]
    days = np.array([(t - t0).total_seconds() / 86400 for t, _ in points])
    vals = np.array([v for _, v in points])
    if np.ptp(days) == 0:
        return Trend(len(points), None, None, "unknown")
    slope = float(np.polyfit(days, vals, 1)[0])
    median = float(np.median(vals))
    change = slope * float(np.ptp(days)) / abs(median) if median else 0.0
    if abs(change) < STABLE_CHANGE:
        direction: Direction = "stable"
    else:
        direction = "improving" if (change > 0) == higher_is_better else "degrading"
    return Trend(len(points), slope, change, direction)


def _value(params: dict | None, name: str) -> tuple[float | None, Any]:
    entry = (params or {}).get(name)
    if not isinstance(entry, dict):
        return None, None
    return metric(name).to_display(entry.get("value")), entry.get("calibrated_at")


def _own_drop(rows: list[SeriesPoint], name: str) -> DriftFlag | None:
    """The latest value against the qubit's own median of the days before it (the drift page's rule)."""
    flags = drops([ChipSeriesRow(qid="q", calibrated_at=r["calibrated_at"], value=r["value"], unit=r["unit"],
                                 execution_id=r["execution_id"], task_id=r["task_id"]) for r in rows],
                  name, threshold=OWN_DROP)
    return flags[0] if flags else None


def _coupling_checks(qid: int, topology, size: int, coupling_params: dict[str, dict]) -> list[CouplingCheck]:
    canon = canonical_coupling_ids(topology)
    by_edge: dict[str, dict] = {}
    for cid, params in coupling_params.items():
        edge = canon.get(cid)
        if edge is None or not isinstance(params, dict):
            continue
        merged = by_edge.setdefault(edge, {})
        for name, entry in params.items():  # the control-target document wins over the reverse one
            if cid == edge or name not in merged:
                merged[name] = entry
    out = []
    for cpl in topology.couplings_of(qid):
        params = by_edge.get(cpl.id, {})
        values = {}
        for name in SCORED_COUPLING_METRICS:
            entry = metric(name, kind="coupling")
            raw = params.get(name)
            value = entry.to_display(raw.get("value")) if isinstance(raw, dict) else None
            values[name] = (value, entry.score(value))
        role: Literal["control", "target"] = "control" if cpl.control == qid else "target"
        partner = cpl.target if role == "control" else cpl.control
        label = f"{qubit_label(cpl.control, size)}→{qubit_label(cpl.target, size)}"
        out.append(CouplingCheck(cpl.id, label, role, str(partner), values))
    return out


def task_failures(results: list[TaskRow], qid: str, size: int) -> list[TaskFailure]:
    """Failed task results (repository shape) on qubit ``qid`` or on a coupling it belongs to, newest first."""
    out = []
    for res in sorted(results, key=lambda r: r["start_at"] if isinstance(r["start_at"], datetime) else datetime.min,
                      reverse=True):
        target = str(res.get("qid") or "")
        ends = target.split("-")
        if res.get("status") != "failed" or not all(e.isdigit() for e in ends) or str(int(qid)) not in \
                [str(int(e)) for e in ends]:
            continue
        label = "→".join(qubit_label(int(e), size) for e in ends)
        at = res.get("start_at")
        out.append(TaskFailure(target, label, str(res.get("name") or "?"), at if isinstance(at, datetime) else None,
                               str(res.get("message") or "")[:300]))
    return out


def build_health_report(chip: ChipRow | dict, qid: str, qubit_params: dict[str, Params],
                        coupling_params: dict[str, Params], history: dict[str, list[SeriesPoint]], *, window_days: int = 7,
                        metrics: tuple[str, ...] = SCORED_QUBIT_METRICS,
                        window_end: datetime | None = None, failed: list[TaskRow] | None = None) -> HealthReport:
    """Pure assembly from repository shapes: ``qubit_params`` {qid: qubit.data}, ``coupling_params``
    {cid: coupling.data}, ``history`` {metric: parameter_timeseries rows of this qubit}, ``failed``
    failed task results of the chip in the window."""
    size = int(chip.get("size") or 0)
    topology = chip_topology(chip)
    q = int(qid)
    neighbours = [str(n) for n in topology.neighbours(q)] if topology else []
    own = qubit_params.get(str(q)) or {}
    checks: list[MetricCheck] = []
    findings: list[str] = []
    for name in metrics:
        entry = metric(name)
        value, at = _value(own, name)
        failed_at = missing_since(own.get(name))
        if failed_at is not None:
            findings.append(f"{entry.title}: {missing_text(failed_at)} (the latest measurement failed).")
        points = sorted(((at, v) for r in history.get(name, [])
                         if isinstance(at := r["calibrated_at"], datetime)
                         and (v := entry.to_display(r["value"])) is not None), key=lambda p: p[0])
        if value is None and not points:
            if name in CORE_METRICS:
                findings.append(f"No {entry.title} data.")
            continue
        around = [v for n in neighbours if (v := _value(qubit_params.get(n), name)[0]) is not None]
        med = float(np.median(around)) if around else None
        vs = None
        if value is not None and med:
            vs = (value - med) / abs(med) * (1 if entry.higher_is_better else -1)
        tr = trend(points, entry.higher_is_better)
        band = entry.score(value)
        drop = _own_drop(history.get(name, []), name) if failed_at is None else None
        checks.append(MetricCheck(name, entry.title, entry.unit, value, band, entry.threshold_text(), at, tr,
                                  med, len(around), vs, missing_text(failed_at) if failed_at else None,
                                  drop.baseline if drop else None, drop.drop if drop else None))
        shown = format_value(entry, value)
        if band == "bad":
            findings.insert(0, f"{entry.title} {shown} is bad ({entry.threshold_text().split(': ', 1)[1]}).")
        # one drop figure per metric: the drop below the qubit's own median, else the window's trend
        if drop is not None and drop.drop is not None:
            findings.append(f"{entry.title} {format_value(entry, drop.latest)} dropped {format_fraction(drop.drop)} "
                            f"below its own {BASELINE_DAYS}-day median ({format_value(entry, drop.baseline)}).")
        elif tr.direction == "degrading":
            findings.append(f"{entry.title} is degrading: {format_percent((tr.change or 0.0) * 100)} over "
                            f"{window_days} days.")
        if vs is not None and vs < -NEIGHBOUR_GAP:
            findings.append(f"{entry.title} {shown} is {abs(vs) * 100:.0f}% worse than its {len(around)} "
                            f"neighbours' median ({format_value(entry, med)}): a local problem.")
    couplings = _coupling_checks(q, topology, size, coupling_params) if topology else []
    for c in couplings:
        for name, (value, band) in c.values.items():
            if band == "bad":
                findings.append(f"Coupling {c.label} has a bad {metric(name, kind='coupling').title} "
                                f"({format_value(metric(name, kind='coupling'), value)}).")
    failures = task_failures(failed or [], str(q), size)
    for label in dict.fromkeys(f.label for f in failures):  # fixed words, computed labels, identifier task names
        count = sum(f.label == label for f in failures)
        where = f"coupling {label}" if "→" in label else label
        tasks = ", ".join(sorted({f.task for f in failures if f.label == label and TASK_NAME.fullmatch(f.task)}))
        findings.insert(0, f"{count} task run(s) failed on {where} in the last {window_days} days "
                           f"({tasks + '; ' if tasks else ''}see Failed tasks).")
    scored = [c.band for c in checks if c.band is not None]
    verdict = min(scored, key=BANDS.index) if scored else None
    return HealthReport(str(chip.get("chip_id")), str(q), qubit_label(q, size), size, window_days, verdict, checks,
                        neighbours, couplings, findings,
                        dates_text(*day_window(window_end, window_days), window_end) if window_end is not None
                        else window_text(window_days * 24, None), failures)


def qubit_health(repo: CalibrationRepository, chip_id: str, qid: str, *, window_days: int = 7,
                 metrics: tuple[str, ...] = SCORED_QUBIT_METRICS) -> HealthReport:
    """Read what the report needs through a ``CalibrationRepository`` (each fact once) and build it."""
    chip = repo.chip_layout(chip_id)
    if chip is None:
        raise UnknownChip(f"chip {chip_id!r} was not found in the database")
    size = int(chip.get("size") or 0)
    if not str(qid).isdigit() or not 0 <= int(qid) < size:
        raise InvalidRequest(f"qubit {qid!r} is not on chip {chip_id} ({size} qubits)")
    if not 1 <= window_days <= 366:
        raise InvalidRequest(f"window must be 1..366 days, not {window_days!r}")
    end = repo.window_end(chip_id)  # the chip's last execution, else now
    since, until = day_window(end, window_days)
    read = read_end(until, end)  # the newest run whole, even past midnight UTC
    history = {name: repo.parameter_timeseries(chip_id, name, str(int(qid)), last_n=200, since=since, until=read)
               for name in metrics}
    failed = repo.task_results(chip_id, status="failed", since=since, until=read, limit=1000)
    return build_health_report(dict(chip), str(int(qid)), repo.all_qubit_params(chip_id), repo.all_coupling_params(chip_id),
                               history, window_days=window_days, metrics=metrics, window_end=end, failed=failed)
