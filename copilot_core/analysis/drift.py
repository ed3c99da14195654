"""Drift flags: qubits whose coherence or gate fidelity fell against their own recent history,
and qubits whose calibration tasks are failing.

A qubit is compared with itself (median of its previous week) rather than with the chip, so a
qubit that is always mediocre is not flagged but one that just lost a TLS-free window is.
The reference time is the chip's last execution, so a database that is days old still works.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING, Literal

import numpy as np

from copilot_core.domain.metrics import CATALOGUE, metric
from copilot_core.errors import InvalidRequest

if TYPE_CHECKING:
    from copilot_core.data.rows import ChipRow, ChipSeriesRow, TaskRow
    from copilot_core.data.repository import CalibrationRepository

DRIFT_METRICS: tuple[str, ...] = tuple(
    n for n in ("t1", "t2_echo", "x90_gate_fidelity", "x180_gate_fidelity", "average_gate_fidelity") if n in CATALOGUE)
BASELINE_DAYS = 7
MIN_BASELINE_POINTS = 2
FAILED_WINDOW_HOURS = 24


@dataclass(frozen=True)
class DriftFlag:
    """One thing on the chip that needs a look; ``qid`` is the qubit to open (control qubit for a coupling)."""

    qid: str
    reason: Literal["drop", "failed_task"]
    metric: str | None  # parameter name for a drop
    task: str | None  # failed task name(s), comma-separated
    latest: float | None  # display units
    baseline: float | None  # display units: median of the previous BASELINE_DAYS
    drop: float | None  # fraction of the baseline lost (0.25 = 25 % worse)
    at: datetime | None
    target: str  # the stored qid ("5" or a coupling "4-1")
    message: str = ""  # task message for failures (untrusted database text)


def drops(rows: Sequence[ChipSeriesRow], metric_name: str, *, threshold: float = 0.2, baseline_days: int = BASELINE_DAYS,
          unusable_latest: Collection[str] = ()) -> list[DriftFlag]:
    """Flags from timeseries rows ({qid, calibrated_at, value}) of one parameter.

    For each qubit: latest value vs the median of its values in the ``baseline_days`` before it
    (at least MIN_BASELINE_POINTS); flagged when it is worse by more than ``threshold`` of the baseline.
    Qubits in ``unusable_latest`` (newest result NaN or NaN-as-0) are not compared: their newest usable
    value is not their latest, and the pages already show them as "no valid value since".
    """
    if not 0 < threshold < 1:
        raise InvalidRequest(f"drop threshold must be between 0 and 1, not {threshold!r}")
    entry = metric(metric_name)
    series: dict[str, list[tuple[datetime, float]]] = defaultdict(list)
    for row in rows:
        value = entry.to_display(row.get("value"))
        at = row.get("calibrated_at")
        if value is not None and isinstance(at, datetime):
            series[str(row.get("qid"))].append((at, value))
    flags: list[DriftFlag] = []
    for qid, points in series.items():
        if qid in unusable_latest:
            continue
        points.sort(key=lambda p: p[0])
        latest_at, latest = points[-1]
        since = latest_at - timedelta(days=baseline_days)
        history = [v for t, v in points[:-1] if since <= t < latest_at]
        if len(history) < MIN_BASELINE_POINTS:
            continue
        baseline = float(np.median(history))
        if baseline == 0:
            continue
        worse = (baseline - latest) if entry.higher_is_better else (latest - baseline)
        drop = worse / abs(baseline)
        if drop > threshold:
            flags.append(DriftFlag(qid, "drop", metric_name, None, latest, baseline, drop, latest_at, qid))
    return flags


def failures(results: list[TaskRow]) -> list[DriftFlag]:
    """One flag per failing qubit or coupling (its failed task names joined), newest first."""
    tasks: dict[str, list[str]] = {}
    first: dict[str, TaskRow] = {}
    for res in sorted(results, key=lambda r: r["start_at"] if isinstance(r["start_at"], datetime) else datetime.min,
                      reverse=True):
        target, task = str(res.get("qid") or ""), str(res.get("name") or "")
        if not target or res.get("status") != "failed":
            continue
        first.setdefault(target, res)
        if task not in tasks.setdefault(target, []):
            tasks[target].append(task)
    return [DriftFlag(target.split("-", 1)[0], "failed_task", None, ", ".join(tasks[target]), None, None, None,
                      at if isinstance(at := res["start_at"], datetime) else None, target,
                      str(res.get("message") or "")[:200])
            for target, res in first.items()]


def unusable_latest(repo: CalibrationRepository, chip_id: str, metric_name: str, until: datetime | None = None) -> set[str]:
    """Qubits whose newest completed result for the metric carries no usable value (and, with ``until``, is no
    later than it)."""
    return {qid for qid, row in repo.metric_values(chip_id, metric_name).items()
            if isinstance(at := row.get("missing_since"), datetime) and (until is None or at <= until)}


def reference_time(chip: ChipRow | dict, now: datetime | None = None) -> datetime:
    """The chip's last execution (or ``now``): the end of every window here."""
    last = chip.get("last_execution_at")
    return last if isinstance(last, datetime) else (now or datetime.now(timezone.utc).replace(tzinfo=None))


def drift_flags(repo: CalibrationRepository, chip: ChipRow | dict, *, threshold: float = 0.2,
                metrics: tuple[str, ...] = DRIFT_METRICS,
                baseline_days: int = BASELINE_DAYS, failed_hours: int = FAILED_WINDOW_HOURS) -> list[DriftFlag]:
    """Drops (largest first) then failing tasks for a chip, read through a ``CalibrationRepository``."""
    ref = reference_time(chip)
    since = ref - timedelta(days=baseline_days + 2)
    chip_id = chip["chip_id"]
    flags: list[DriftFlag] = []
    for name in metrics:
        flags += drops(repo.chip_parameter_timeseries(chip_id, name, since=since), name,
                       threshold=threshold, baseline_days=baseline_days,
                       unusable_latest=unusable_latest(repo, chip_id, name))
    flags.sort(key=lambda f: -(f.drop or 0))
    failed = repo.task_results(chip_id, status="failed", since=ref - timedelta(hours=failed_hours), limit=1000)
    return flags + failures(failed)
