"""What changed between two calibration runs (or two days) of a chip, metric by metric.

Each point is one execution or every execution of one UTC day.  A qubit's value at a point is its
newest completed, non-excluded, non-zero result there; when it has none, the point records why
(failed, excluded, NaN stored as 0, or not measured).  A change is judged by the metric's better
direction from the catalogue, by threshold band, and against the qubit's own spread over the
days before the later point, so a noisy qubit moving by its usual amount does not top the list.
Windows are relative to the chip's executions, never to the wall clock: old databases work.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from functools import cached_property
from typing import Literal

import numpy as np
import pandas as pd

from copilot_core.analysis.chip_metrics import canonical_coupling_ids, chip_topology
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
from copilot_core.domain.display import (
    NOT_MEASURED,
    format_change,
    format_percent,
    format_value,
    number_or_none,
)
from copilot_core.domain.topology import Topology, qubit_label
from copilot_core.errors import CopilotError

Status = Literal["ok", "failed", "excluded", "nan", "absent"]
SPREAD_DAYS = 7
_EXECUTION = re.compile(r"^[0-9]{8}-[0-9]{3,6}$")
_DATE = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")
_DAYS_BACK = re.compile(r"^-?([0-9]{1,3})\s*d(ays?)?(\s+ago)?$")
ALIASES = {"latest": "latest", "last": "latest", "now": "latest", "today": "latest", "previous": "previous",
           "prev": "previous", "yesterday": "-1d", "last week": "-7d", "a week ago": "-7d"}
FRAME_COLUMNS = ["metric", "title", "kind", "id", "label", "qid", "unit", "before", "after", "change", "change_pct",
                 "direction", "spread", "spread_n", "z", "band_before", "band_after", "band_move", "status_before",
                 "status_after", "availability", "at_before", "at_after", "execution_before", "execution_after"]


class CompareError(CopilotError, ValueError):
    """The two points cannot be compared (message is safe to show and says what to pick instead)."""

    level = "warning"


@dataclass(frozen=True)
class Point:
    """One side of a comparison: the executions it covers, and how to name it."""

    spec: str
    kind: Literal["execution", "date"]
    label: str
    execution_ids: tuple[str, ...]
    start: datetime


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


# ---- points -------------------------------------------------------------------------------------

def _usable(executions: list[dict]) -> list[dict]:
    done = [e for e in executions if e.get("status") == "completed"]
    return done or executions


def _run_label(e: dict) -> str:
    start = e.get("start_at")
    when = f" ({start:%Y-%m-%d %H:%M})" if isinstance(start, datetime) else ""
    return f"run {e['execution_id']}{when}"


def _run_point(spec: str, e: dict) -> Point:
    return Point(spec, "execution", _run_label(e), (e["execution_id"],), e["start_at"])


def _day_point(spec: str, day: date, executions: list[dict]) -> Point | None:
    runs = [e for e in executions if isinstance(e.get("start_at"), datetime) and e["start_at"].date() == day]
    if not runs:
        return None
    start = min(e["start_at"] for e in runs)
    return Point(spec, "date", f"{day.isoformat()} ({len(runs)} run{'s' if len(runs) > 1 else ''})",
                 tuple(e["execution_id"] for e in runs), start)


def resolve_point(spec: str, executions: list[dict]) -> Point:
    """``latest``, ``previous``, an execution id, a date ``YYYY-MM-DD``, or ``-Nd`` (N days before the
    chip's last execution; the newest day with runs on or before it).  ``executions`` newest first."""
    text = " ".join(str(spec).strip().lower().split())
    text = ALIASES.get(text, text)
    dated = [e for e in executions if isinstance(e.get("start_at"), datetime)]
    if not dated:
        raise CompareError("this chip has no executions to compare")
    usable = _usable(dated)
    if text == "latest":
        return _run_point(spec, usable[0])
    if text == "previous":
        if len(usable) < 2:
            raise CompareError("this chip has only one execution: there is no previous run to compare with")
        return _run_point(spec, usable[1])
    if _EXECUTION.fullmatch(text):
        found = next((e for e in dated if e["execution_id"] == text), None)
        if found is None:
            recent = ", ".join(e["execution_id"] for e in dated[:5])
            raise CompareError(f"execution {text} is not recorded for this chip; recent ones: {recent}")
        return _run_point(spec, found)
    if _DATE.fullmatch(text):
        try:
            day = date.fromisoformat(text)
        except ValueError:
            raise CompareError(f"{text!r} is not a calendar date (YYYY-MM-DD)") from None
        point = _day_point(spec, day, dated)
        if point is None:
            days = sorted({e["start_at"].date() for e in dated}, reverse=True)[:5]
            raise CompareError(f"no execution on {day.isoformat()}; days with runs: "
                               + ", ".join(d.isoformat() for d in days))
        return point
    back = _DAYS_BACK.fullmatch(text)
    if back:
        target = dated[0]["start_at"].date() - timedelta(days=int(back.group(1)))
        for day in sorted({e["start_at"].date() for e in dated if e["start_at"].date() <= target}, reverse=True):
            point = _day_point(spec, day, dated)
            if point is not None:
                return point
        raise CompareError(f"no execution on or before {target.isoformat()} ({int(back.group(1))} days before the "
                           "chip's last execution)")
    raise CompareError(f"cannot read the point {str(spec)[:40]!r}: use 'latest', 'previous', an execution id like "
                       "'20260720-003', a date like '2026-07-20', or '-7d' (7 days before the last execution)")


# ---- values at a point --------------------------------------------------------------------------

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

def _entry(name: str, kind_hint: Kind) -> Metric:
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
        raise CompareError(f"both points cover the same run ({a.label} and {b.label}): pick two different runs")
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
        m = _entry(name, kinds.get(name, "qubit"))  # type: ignore[arg-type]
        ids = {k for (p, k) in cells_a if p == name} | {k for (p, k) in cells_b if p == name}
        ran = (any(p == name for (p, _) in cells_a), any(p == name for (p, _) in cells_b))
        for key in sorted(ids, key=_id_order):
            records.append(_row(m, key, size, cells_a.get((name, key)), cells_b.get((name, key)),
                                spread.get((name, key), []), ran))
    frame = pd.DataFrame.from_records(records, columns=FRAME_COLUMNS)
    failed = tuple(sorted((r for r in rows_b if r["status"] == "failed"), key=_order, reverse=True))
    return Comparison(chip_id, size, a, b, names, frame, spread_days, topology, failed)


# ---- views ------------------------------------------------------------------------------------------

def _median(values: pd.Series) -> float | None:
    clean = [float(v) for v in values if v is not None and not (isinstance(v, float) and math.isnan(v))]
    return float(np.median(clean)) if clean else None


def metric_summary(comp: Comparison) -> pd.DataFrame:
    """One row per metric: how many compared, medians before/after, median change, improved/worsened,
    band moves and measurements lost or restored."""
    records = []
    for name in comp.metrics:
        f = comp.metric_frame(name)
        m = _entry(name, "coupling" if (not f.empty and f["kind"].iloc[0] == "coupling") else "qubit")
        both = f[f["change"].notna()]
        records.append({
            "metric": name, "title": m.title, "kind": m.kind, "unit": m.unit,
            "compared": len(both), "median_before": _median(f["before"]), "median_after": _median(f["after"]),
            "median_change": _median(both["change"]),
            "better": int((both["direction"] == "better").sum()), "worse": int((both["direction"] == "worse").sum()),
            "band_worse": int((f["band_move"] == "worse").sum()), "band_better": int((f["band_move"] == "better").sum()),
            "lost": int((f["availability"] == "lost").sum()), "restored": int((f["availability"] == "restored").sum()),
        })
    return pd.DataFrame.from_records(records, columns=["metric", "title", "kind", "unit", "compared", "median_before",
                                                       "median_after", "median_change", "better", "worse",
                                                       "band_worse", "band_better", "lost", "restored"])


def band_crossings(comp: Comparison) -> pd.DataFrame:
    """Qubits and couplings whose threshold band changed, worse ones first."""
    f = comp.frame[comp.frame["band_move"] != ""]
    return f.sort_values(["band_move", "metric"], ascending=[False, True], kind="stable").reset_index(drop=True)


def lost_measurements(comp: Comparison) -> pd.DataFrame:
    """Usable before, failed / excluded / NaN-as-0 / not measured after (while the task ran on the chip)."""
    return comp.frame[comp.frame["availability"] == "lost"].reset_index(drop=True)


def ranked_changes(comp: Comparison, limit: int | None = None) -> pd.DataFrame:
    """Largest changes first, measured in each qubit's own spread (|z|); without a spread, after those,
    by relative change."""
    f = comp.frame[comp.frame["change"].notna()].copy()
    f["_z"] = pd.to_numeric(f["z"], errors="coerce").abs()  # a column of None (no spread anywhere) is no number
    f["_pct"] = pd.to_numeric(f["change_pct"], errors="coerce").abs()
    f = f.sort_values(["_z", "_pct"], ascending=[False, False], na_position="last", kind="stable")
    f = f.drop(columns=["_z", "_pct"]).reset_index(drop=True)
    return f.head(limit) if limit else f


def point_health(comp: Comparison) -> pd.DataFrame:
    """Health at the later point per scored metric: coverage, median and band counts of its values."""
    records = []
    for name in comp.metrics:
        m = CATALOGUE.get(name)
        if m is None or (m.good is None and m.bad is None):
            continue
        f = comp.metric_frame(name)
        total = comp.size if m.kind == "qubit" else (len(comp.topology.couplings) if comp.topology else len(f))
        values = [v for v in f["after"] if v is not None and not math.isnan(v)]
        if not values:
            continue
        bands = [m.score(v) for v in values]
        counts: dict[str, int] = {band: bands.count(band) for band in BANDS}
        records.append({"metric": name, "title": m.title, "unit": m.unit, "count": len(values), "total": total,
                        "median": float(np.median(values)), **counts})
    return pd.DataFrame.from_records(records, columns=["metric", "title", "unit", "count", "total", "median", *BANDS])


# ---- shown as text (pages, report, exports: one display rule) -----------------------------------------------

STATUS_WORDS = {"ok": "", "failed": "failed", "excluded": "excluded", "nan": "no value (stored as 0)",
                "absent": NOT_MEASURED}


def _entries(frame: pd.DataFrame) -> list[Metric]:
    """The catalogue entry of each row (a parameter found only in the data keeps its stored unit)."""
    return [metric(str(n), str(u or ""), "coupling" if k == "coupling" else "qubit")
            for n, u, k in zip(frame["metric"], frame["unit"], frame["kind"])]


def _missing_word(status: object) -> str:
    return STATUS_WORDS.get(str(status), NOT_MEASURED) or NOT_MEASURED


def shown_changes(frame: pd.DataFrame) -> pd.DataFrame:
    """Rows of ``frame`` (FRAME_COLUMNS) with before/after/change/change %/spread as text by the display rule:
    a missing side says why (failed, excluded, not measured), a frequency change reads in kHz/MHz, a fidelity's
    in percentage points; the other columns stay as they are (direction, band_move: CSS classes, qid: links)."""
    out = frame.copy()
    if out.empty:
        return out
    entries = _entries(frame)
    out["before"] = [format_value(m, v, missing=_missing_word(s))
                     for m, v, s in zip(entries, frame["before"], frame["status_before"])]
    out["after"] = [format_value(m, v, missing=_missing_word(s))
                    for m, v, s in zip(entries, frame["after"], frame["status_after"])]
    out["change"] = [format_change(m, c) for m, c in zip(entries, frame["change"])]
    out["change_pct"] = [format_percent(p) for p in frame["change_pct"]]
    out["z"] = [f"{z:+.1f}×" if (z := number_or_none(v)) is not None else "no spread" for v in frame["z"]]
    out["status_before"] = [_missing_word(s) if s != "ok" else "measured" for s in frame["status_before"]]
    out["status_after"] = [_missing_word(s) if s != "ok" else "measured" for s in frame["status_after"]]
    for column in ("band_before", "band_after"):
        out[column] = [str(b) if isinstance(b, str) and b else NOT_MEASURED for b in frame[column]]
    return out


def shown_summary(summary: pd.DataFrame) -> pd.DataFrame:
    """``metric_summary`` with medians and the median of per-qubit changes as text by the display rule."""
    out = summary.copy()
    if out.empty:
        return out
    entries = _entries(summary)
    out["median_before"] = [format_value(m, v, missing=NOT_MEASURED) for m, v in zip(entries, summary["median_before"])]
    out["median_after"] = [format_value(m, v, missing=NOT_MEASURED) for m, v in zip(entries, summary["median_after"])]
    out["median_change"] = [format_change(m, v) for m, v in zip(entries, summary["median_change"])]
    return out


CHANGE_NUMBERS = ("before", "after", "change", "change_pct", "z")
SUMMARY_NUMBERS = ("median_before", "median_after", "median_change")


def as_numbers(frame: pd.DataFrame, columns: tuple[str, ...]) -> pd.DataFrame:
    """``frame`` with ``columns`` as floats in display units and NaN where there is no value (never 0), so a grid
    sorting them on a header click orders by value; ``shown_changes`` / ``shown_summary`` give the text to show."""
    out = frame.copy()
    for column in columns:
        out[column] = pd.Series([number_or_none(v) for v in frame[column]], index=frame.index, dtype="float64")
    return out
