"""What changed between two calibration runs (or two days) of a chip, metric by metric.

Each point is one execution or every execution of one UTC day.  A qubit's value at a point is its
newest completed, non-excluded, non-zero result there; when it has none, the point records why
(failed, excluded, NaN stored as 0, or not measured).  A change is judged by the metric's better
direction from the catalogue, by threshold band, and against the qubit's own spread over the
days before the later point, so a noisy qubit moving by its usual amount does not top the list.
Windows are relative to the chip's executions, never to the wall clock: old databases work.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cached_property
from typing import Literal

import numpy as np
import pandas as pd

from copilot_core.analysis.chip_metrics import canonical_coupling_ids, chip_topology
from copilot_core.analysis.compare_points import CompareError, Point, resolve_point
from copilot_core.data.runs import RunReader, RunResult
from copilot_core.domain.metrics import (
    BANDS,
    CATALOGUE,
    COUPLING_METRICS,
    QUBIT_METRICS,
    Kind,
    Metric,
    metric,
    stored_number,
)
from copilot_core.domain.topology import Topology, qubit_label

Status = Literal["ok", "failed", "excluded", "nan", "absent"]
SPREAD_DAYS = 7
FRAME_COLUMNS = ["metric", "title", "kind", "id", "label", "qid", "unit", "before", "after", "change", "change_pct",
                 "direction", "spread", "spread_n", "z", "band_before", "band_after", "band_move", "status_before",
                 "status_after", "availability", "at_before", "at_after", "execution_before", "execution_after"]


@dataclass(frozen=True)
class Cell:
    value: float | None  # raw stored value (ok only)
    status: Status
    at: datetime | None
    execution_id: str
    message: str = ""


@dataclass(frozen=True)
class Comparison:
    """Everything a page, tool or report shows about one comparison; ``frame`` has FRAME_COLUMNS."""

    chip_id: str
    size: int
    before: Point
    after: Point
    metrics: tuple[str, ...]
    frame: pd.DataFrame
    spread_days: int
    topology: Topology | None
    failed_after: tuple[RunResult, ...]  # failed tasks of the later point

    @cached_property
    def _by_metric(self) -> dict[str, pd.DataFrame]:
        return {str(name): part for name, part in self.frame.groupby("metric", sort=False)}

    def metric_frame(self, name: str) -> pd.DataFrame:
        """The rows of one metric (split once: pages and reports ask for every metric)."""
        return self._by_metric.get(name, self.frame.iloc[0:0])


def _producers(rows: list[RunResult]) -> dict[str, set[str]]:
    """Task name -> the parameters it outputs (from the data, plus the catalogue's task of each metric)."""
    out: dict[str, set[str]] = defaultdict(set)
    for m in CATALOGUE.values():
        if m.task:
            out[m.task].add(m.name)
    for row in rows:
        out[row["name"]].update(row["values"])
    return out


class _Keys:
    """Stored qid / coupling id -> the chip's id (qubits 0..size-1, couplings as control-target)."""

    def __init__(self, size: int, topology: Topology | None) -> None:
        self.size = size
        self.couplings = canonical_coupling_ids(topology) if topology is not None else None

    def of(self, row: RunResult) -> str | None:
        qid = row["qid"]
        if "-" in qid:
            if self.couplings is None:
                return qid
            return self.couplings.get(qid)
        if not qid.isdigit() or str(int(qid)) != qid or (self.size and int(qid) >= self.size):
            return None
        return qid


def _order(row: RunResult) -> tuple:
    return (row["start_at"] or datetime.min, row["task_id"])


def cells(rows: list[RunResult], keys: _Keys, producers: dict[str, set[str]]) -> dict[tuple[str, str], Cell]:
    """{(metric, id): Cell}: the newest usable value, else the newest reason there is none."""
    out: dict[tuple[str, str], Cell] = {}
    for row in sorted(rows, key=_order):
        key = keys.of(row)
        if key is None:
            continue
        at, run = row["start_at"], row["execution_id"]
        found: list[tuple[str, Cell]] = []
        if row["status"] == "completed" and row["excluded"]:
            found = [(p, Cell(None, "excluded", at, run)) for p in row["values"]]
        elif row["status"] == "completed":
            for p, raw in row["values"].items():
                value = stored_number(raw)
                found.append((p, Cell(value, "ok", at, run) if value is not None else Cell(None, "nan", at, run)))
        elif row["status"] == "failed":
            found = [(p, Cell(None, "failed", at, run, row["message"][:200])) for p in producers.get(row["name"], ())]
        for p, cell in found:
            old = out.get((p, key))
            if old is None or cell.status == "ok" or old.status != "ok":
                out[(p, key)] = cell
    return out


def _spread(rows: list[RunResult], keys: _Keys, names: set[str]) -> dict[tuple[str, str], list[float]]:
    values: dict[tuple[str, str], list[float]] = defaultdict(list)
    for row in rows:
        key = keys.of(row)
        if key is None or row["status"] != "completed" or row["excluded"]:
            continue
        for p, raw in row["values"].items():
            value = stored_number(raw)
            if p in names and value is not None:
                values[(p, key)].append(value)
    return values


# ---- the comparison ---------------------------------------------------------------------------------

def metric_entry(name: str, kind_hint: Kind) -> Metric:
    return metric(name, kind=CATALOGUE[name].kind if name in CATALOGUE else kind_hint)


def _label(key: str, kind: Kind, size: int) -> str:
    if kind == "coupling" and "-" in key:
        control, target = key.split("-", 1)
        return f"{qubit_label(control, size)}→{qubit_label(target, size)}"
    return qubit_label(key, size)


def _band_move(m: Metric, before: str | None, after: str | None) -> str:
    if before is None or after is None or before == after:
        return ""
    return "better" if BANDS.index(after) > BANDS.index(before) else "worse"


def _row(m: Metric, key: str, size: int, a: Cell | None, b: Cell | None, spread: list[float],
         ran: tuple[bool, bool]) -> dict:
    before = m.to_display(a.value) if a and a.status == "ok" else None
    after = m.to_display(b.value) if b and b.status == "ok" else None
    change = after - before if before is not None and after is not None else None
    std = float(np.std([v * m.scale for v in spread], ddof=1)) if len(spread) >= 2 else None
    better = None if change is None else (change if m.higher_is_better else -change)
    band_before, band_after = m.score(before), m.score(after)
    status_a: Status = a.status if a else "absent"
    status_b: Status = b.status if b else "absent"
    availability = ""
    if status_a == "ok" and status_b != "ok" and ran[1]:
        availability = "lost"
    elif status_a != "ok" and status_b == "ok" and ran[0]:
        availability = "restored"
    return {
        "metric": m.name, "title": m.title, "kind": m.kind, "id": key, "label": _label(key, m.kind, size),
        "qid": key.split("-", 1)[0], "unit": m.unit, "before": before, "after": after, "change": change,
        "change_pct": change / abs(before) * 100 if change is not None and before else None,
        "direction": None if better is None else "better" if better > 0 else "worse" if better < 0 else "same",
        "spread": std, "spread_n": len(spread),
        "z": change / std if change is not None and std is not None and std > 0 else None,
        "band_before": band_before, "band_after": band_after, "band_move": _band_move(m, band_before, band_after),
        "status_before": status_a, "status_after": status_b, "availability": availability,
        "at_before": a.at if a else None, "at_after": b.at if b else None,
        "execution_before": a.execution_id if a else None, "execution_after": b.execution_id if b else None,
    }


def _id_order(key: str) -> tuple[int, ...]:
    return tuple(int(p) if p.isdigit() else 0 for p in key.split("-"))


def compare(reader: RunReader, chip: dict, before: str = "previous", after: str = "latest", *,
            metrics: tuple[str, ...] | None = None, spread_days: int = SPREAD_DAYS) -> Comparison:
    """Compare two points of ``chip`` (a ``list_chips`` row).  Raises ``CompareError`` for points that
    do not exist or coincide; repository errors pass through."""
    chip_id, size = str(chip["chip_id"]), int(chip.get("size") or 0)
    executions = reader.executions_between(chip_id)
    a, b = resolve_point(before, executions), resolve_point(after, executions)
    if set(a.execution_ids) & set(b.execution_ids):
        raise CompareError(f"both points cover the same run ({a.label} and {b.label}): pick two different runs",
                           malformed=True)
    if a.start > b.start:
        a, b = b, a
    topology = chip_topology(chip)
    keys = _Keys(size, topology)
    rows_a = reader.results(chip_id, list(a.execution_ids))
    rows_b = reader.results(chip_id, list(b.execution_ids))
    window = [e["execution_id"] for e in executions if isinstance(e.get("start_at"), datetime)
              and b.start - timedelta(days=spread_days) <= e["start_at"] < b.start]
    rows_w = [r for r in rows_a if r["execution_id"] in window]
    rows_w += reader.results(chip_id, [e for e in window if e not in a.execution_ids])
    producers = _producers(rows_a + rows_b + rows_w)
    cells_a, cells_b = cells(rows_a, keys, producers), cells(rows_b, keys, producers)
    kinds = {p: ("coupling" if r["task_type"] == "coupling" else "qubit") for r in rows_a + rows_b for p in r["values"]}
    if metrics:
        names = tuple(dict.fromkeys(metrics))
    else:
        have = {p for (p, _), c in (cells_a | cells_b).items() if c.status == "ok"}
        names = tuple(n for n in QUBIT_METRICS + COUPLING_METRICS if n in have)
    spread = _spread(rows_w, keys, set(names))
    records = []
    for name in names:
        m = metric_entry(name, kinds.get(name, "qubit"))  # type: ignore[arg-type]
        ids = {k for (p, k) in cells_a if p == name} | {k for (p, k) in cells_b if p == name}
        ran = (any(p == name for (p, _) in cells_a), any(p == name for (p, _) in cells_b))
        for key in sorted(ids, key=_id_order):
            records.append(_row(m, key, size, cells_a.get((name, key)), cells_b.get((name, key)),
                                spread.get((name, key), []), ran))
    frame = pd.DataFrame.from_records(records, columns=FRAME_COLUMNS)
    failed = tuple(sorted((r for r in rows_b if r["status"] == "failed"), key=_order, reverse=True))
    return Comparison(chip_id, size, a, b, names, frame, spread_days, topology, failed)


# ---- views ------------------------------------------------------------------------------------------
