"""One metric across a whole chip, in display units: the input of heatmaps, coupling maps and stats.

Pages and the copilot's ``generate_chip_heatmap`` tool both call :func:`chip_metric`, so the
dashboard and the model always see the same numbers: the repository's latest/best/average
aggregation (completed, non-excluded results only), converted through the metric catalogue,
keyed by every qubit (or topology coupling) of the chip so missing data stays visible.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import TYPE_CHECKING, Literal

import pandas as pd

from copilot_core.analysis.stats import Stats, describe
from copilot_core.domain.metrics import CATALOGUE, Band, Kind, Metric, metric, missing_since, missing_text, window_text
from copilot_core.domain.topology import Topology, qubit_label, runs_named, topology_for
from copilot_core.errors import CopilotError, InvalidRequest

if TYPE_CHECKING:
    from copilot_core.data.rows import ChipRow
    from copilot_core.data.repository import CalibrationRepository

Mode = Literal["latest", "best", "average"]
MODES: tuple[Mode, ...] = ("latest", "best", "average")


class UnknownChip(CopilotError, ValueError):
    """The chip id does not exist in the database (message is safe to show)."""


@dataclass(frozen=True)
class ChipMetric:
    """Display-unit values of one metric for every qubit (or coupling) of a chip."""

    metric: Metric
    kind: Kind
    chip_id: str
    size: int
    mode: Mode
    within_hours: float | None
    values: dict[str, float | None]  # id -> display value; None = no usable data
    raw: dict[str, dict]  # id -> repository row ({value, stddev, count, at, execution_id, task_id})
    stats: Stats
    bands: dict[str, Band | None] = field(default_factory=dict)
    source: str = "task_result_history"  # or "qubit.data"/"coupling.data" (latest merged, incl. overrides)
    missing_since: dict[str, datetime] = field(default_factory=dict)  # id -> date of a NaN/NaN-as-0 latest result
    window_end: datetime | None = None  # the chip's last execution: windows count back from it
    scope: str = ""  # the set of qubits it is restricted to, as an answer names it ("Q10 to Q19, 10 qubits")

    @property
    def window(self) -> str:
        """``7 days up to 2025-06-06`` or ``all time``."""
        return window_text(self.within_hours, self.window_end)

    def missing_reason(self, item_id: str) -> str | None:
        """``no valid value since 2025-06-06`` for an id whose latest result was unusable, else None."""
        at = self.missing_since.get(item_id)
        return missing_text(at) if at is not None else None

    @property
    def missing(self) -> list[str]:
        """Ids with no usable value (dead qubits, never measured, excluded or failed only)."""
        return [i for i, v in self.values.items() if v is None]

    def label(self, item_id: str) -> str:
        """``Q005`` for a qubit, ``Q004→Q001`` for a coupling (control→target)."""
        if self.kind == "coupling":
            control, target = item_id.split("-")
            return f"{qubit_label(control, self.size)}→{qubit_label(target, self.size)}"
        return qubit_label(item_id, self.size)


def restricted(cm: ChipMetric, qubits: Collection[int] | None, leaving_out: Collection[int] = ()) -> ChipMetric:
    """``cm`` over a set of qubits: those of ``qubits`` (every one when None) less ``leaving_out``; a coupling is in
    the set when both its qubits are.  A statistic over a run of qubits is asked of that run, never of the chip."""
    if qubits is None and not leaving_out:
        return cm
    keep = None if qubits is None else {int(q) for q in qubits}
    drop = {int(q) for q in leaving_out}
    ids = [i for i in cm.values if all((keep is None or int(e) in keep) and int(e) not in drop for e in i.split("-"))]
    values = {i: cm.values[i] for i in ids}
    named = runs_named(sorted(q for q in keep if q < cm.size), cm.size) if keep is not None else "all qubits"
    out = sorted(q for q in drop if q < cm.size and (keep is None or q in keep))
    left = f" leaving out {runs_named(out, cm.size)}" if out else ""
    kind = "couplings" if cm.kind == "coupling" else "qubits"
    return replace(cm, values=values, raw={i: r for i, r in cm.raw.items() if i in values},
                   stats=describe(values.values(), total=len(ids)), bands={i: cm.bands.get(i) for i in ids},
                   missing_since={i: at for i, at in cm.missing_since.items() if i in values},
                   scope=f"{named}{left}, {len(ids)} {kind}")


def canonical_coupling_ids(topology: Topology) -> dict[str, str]:
    """Stored coupling id (either direction) -> the topology's control-target id."""
    out: dict[str, str] = {}
    for c in topology.couplings:
        out[c.id] = c.id
        out.setdefault(f"{c.target}-{c.control}", c.id)
    return out


def _ids_for(kind: Kind, size: int, topology: Topology | None) -> list[str]:
    if kind == "coupling":
        if topology is None:
            return []
        return [c.id for c in topology.couplings]
    return [str(q) for q in range(size)]


def _key_rows(kind: Kind, rows: dict[str, dict], topology: Topology | None) -> dict[str, dict]:
    """Map repository ids onto chip ids; a coupling stored in the reverse direction fills a gap only."""
    if kind == "qubit":
        return dict(rows)
    if topology is None:
        return {}
    canon = canonical_coupling_ids(topology)
    keyed: dict[str, dict] = {}
    for cid, row in rows.items():
        target = canon.get(cid)
        if target is None:
            continue
        if cid == target or target not in keyed:
            keyed[target] = row
    return keyed


def _chip_and_topology(repo: CalibrationRepository, chip_id: str) -> tuple[ChipRow, Topology | None]:
    chip = repo.get_chip(chip_id)
    if chip is None:
        raise UnknownChip(f"chip {chip_id!r} was not found in the database")
    return chip, chip_topology(chip)


def chip_topology(chip: ChipRow | dict) -> Topology | None:
    """The chip's topology, or None for a layout we do not know (qubit values still work)."""
    try:
        topology_id = chip.get("topology_id")
        return topology_for(int(chip.get("size") or 0), topology_id if isinstance(topology_id, str) else None)
    except ValueError:
        return None


_SAFE_UNIT = re.compile(r"[^A-Za-z0-9μ%/.·^ -]")


def _with_data_unit(entry: Metric, rows: dict[str, dict]) -> Metric:
    """A parameter outside the catalogue borrows the unit stored with it (sanitised: database text is untrusted)."""
    if entry.name in CATALOGUE or entry.unit:
        return entry
    unit = next((r.get("unit") for r in rows.values() if isinstance(r, dict) and r.get("unit")), None)
    if not isinstance(unit, str):
        return entry
    unit = _SAFE_UNIT.sub("", unit)[:12].strip()
    return replace(entry, unit=unit) if unit and unit != "a.u." else entry


def _build(chip: dict, topology: Topology | None, entry: Metric, rows: dict[str, dict], *, mode: Mode,
           within_hours: float | None, source: str, window_end: datetime | None = None) -> ChipMetric:
    size = int(chip.get("size") or 0)
    entry = _with_data_unit(entry, rows)
    keyed = _key_rows(entry.kind, rows, topology)
    ids = _ids_for(entry.kind, size, topology)
    values = {i: entry.to_display((keyed.get(i) or {}).get("value")) for i in ids}
    return ChipMetric(
        metric=entry,
        kind=entry.kind,
        chip_id=str(chip.get("chip_id")),
        size=size,
        mode=mode,
        within_hours=within_hours,
        values=values,
        raw={i: keyed[i] for i in ids if i in keyed},
        stats=describe(values.values(), total=len(ids)),
        bands={i: entry.score(v) for i, v in values.items()},
        source=source,
        missing_since={i: at for i in ids if values[i] is None and (at := missing_since(keyed.get(i))) is not None},
        window_end=window_end,
    )


def chip_metric(repo: CalibrationRepository, chip_id: str, metric_name: str, *, mode: Mode = "latest",
                within_hours: float | None = None, kind: Kind | None = None) -> ChipMetric:
    """Aggregate ``metric_name`` over ``chip_id`` from task history (``repo`` is a ``CalibrationRepository``).

    ``kind`` is only needed for a parameter that is not in the catalogue and lives on couplings.
    Raises ``UnknownChip`` for a chip that does not exist and ``ValueError`` for a bad mode/window;
    repository errors (``InvalidArgument``, ``DatabaseUnavailable``) pass through unchanged.
    """
    if mode not in MODES:
        raise InvalidRequest(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
    if within_hours is not None and not within_hours > 0:
        raise InvalidRequest(f"within_hours must be a positive number of hours, not {within_hours!r}")
    chip, topology = _chip_and_topology(repo, chip_id)
    entry = metric(metric_name, kind=kind or "qubit")
    last = chip["last_execution_at"]
    end = last if isinstance(last, datetime) else None
    rows = repo.metric_values(chip_id, metric_name, mode=mode, kind=entry.kind, within_hours=within_hours,
                              window_end=end)
    return _build(dict(chip), topology, entry, {k: dict(r) for k, r in rows.items()}, mode=mode,
                  within_hours=within_hours, source="task_result_history",
                  window_end=end)


def metric_from_params(chip: dict, params: dict[str, dict[str, dict]], metric_name: str,
                       kind: Kind | None = None) -> ChipMetric:
    """The same picture from ``qubit.data``/``coupling.data`` ({id: {param: {value, ...}}}): the latest
    merged values (manual overrides included) that the Qubits table and chip health show."""
    entry = metric(metric_name, kind=kind or "qubit")
    rows = {i: p[metric_name] for i, p in params.items() if isinstance(p, dict) and isinstance(p.get(metric_name), dict)}
    return _build(chip, chip_topology(chip), entry, rows, mode="latest", within_hours=None,
                  source=f"{entry.kind}.data")


def chip_metric_frame(cm: ChipMetric) -> pd.DataFrame:
    """What a heatmap or coupling map shows, as a table (the CSV download): one row per qubit/coupling."""
    records = []
    for item_id, value in cm.values.items():
        row = cm.raw.get(item_id) or {}
        records.append({"id": item_id, "label": cm.label(item_id), "metric": cm.metric.name, "value": value,
                        "missing": cm.missing_reason(item_id),
                        "unit": cm.metric.unit, "band": cm.bands.get(item_id), "mode": cm.mode,
                        "count": row.get("count"),
                        "stddev": row["stddev"] * cm.metric.scale if isinstance(row.get("stddev"), (int, float))
                        else None,
                        "at": row.get("at") or row.get("calibrated_at"), "execution_id": row.get("execution_id"),
                        "task_id": row.get("task_id")})
    return pd.DataFrame.from_records(records, columns=["id", "label", "metric", "value", "missing", "unit", "band",
                                                       "mode", "count", "stddev", "at", "execution_id", "task_id"])
