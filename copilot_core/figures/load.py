"""The figure of one task result, read from the local figure root and checked before a page draws it.

Plotly JSON is preferred (drawn natively, through the chart allowlist); a PNG is read from the local file and
checked to be a PNG.  Nothing is fetched from anywhere else, and a figure that cannot be shown carries the
reason (missing file, refused path, refused chart) instead.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import lru_cache
from pathlib import Path

from copilot_core.data.rows import TaskRow
from copilot_core.domain.display import format_with_error, number_or_none, target_label
from copilot_core.domain.metrics import CATALOGUE, metric
from copilot_core.errors import CopilotError
from copilot_core.figures.paths import FigureMissing, FigureRefused, FigureRoot
from copilot_core.render_safety import UnsafeFigure, validate_figure
from copilot_core.render_safety.figure_limits import MAX_FIGURE_BYTES

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
MAX_PNG_BYTES = 8_000_000
FIGURE_KEYS = ("data", "layout", "frames")


class FigureUnreadable(CopilotError):
    """The file is there but is not a figure this app can draw."""


@dataclass(frozen=True)
class TaskFigure:
    """A task result with its figure (``plotly`` validated chart JSON, or ``png`` bytes) or, when there is
    none to show, ``problem`` saying why."""

    task: str
    qid: str
    label: str  # "Q069" / "Q115→Q118": how every table, caption and tool sentence names the target
    status: str
    at: datetime | None
    execution_id: str
    fit: tuple[str, ...] = ()  # "t1 = 45.3 ± 0.9 μs", one per stored output parameter
    plotly: dict | None = None
    png: bytes | None = None
    problem: str | None = None
    stored_path: str = ""
    notes: tuple[str, ...] = field(default=())  # other paths of the task that could not be read

    @property
    def shown(self) -> bool:
        return self.plotly is not None or self.png is not None

    def describe(self) -> str:
        """One line for a caption or the model: task, qubit, status, time, fit values."""
        when = self.at.strftime("%Y-%m-%d %H:%M UTC") if self.at else "time unknown"
        fit = "; ".join(self.fit) if self.fit else "no fit values stored"
        return f"{self.task} on {self.label} ({self.status}, {when}, execution {self.execution_id}): {fit}"


def fit_values(outputs: object) -> tuple[str, ...]:
    """``name = value ± error unit`` for each stored output parameter (rows shaped like ``task_results``), in the
    display units and precision every page uses (a fidelity in %, an anharmonicity in MHz); a catalogued parameter
    stored as QDash's NaN-as-0 is left out like a missing one."""
    if not isinstance(outputs, dict):
        return ()
    shown = []
    for name, model in sorted(outputs.items()):
        model = model if isinstance(model, dict) else {"value": model}
        unit = model.get("unit")
        stored_unit = unit if isinstance(unit, str) else ""
        known = CATALOGUE.get(name) or metric(name, stored_unit)
        value = known.to_display(model.get("value"))
        if value is None:
            continue
        error = number_or_none(model.get("error"))
        shown.append(f"{name} = {format_with_error(known, value, None if error is None else error * known.scale)}")
    return tuple(shown)


@lru_cache(maxsize=256)
def _read_json(path: str, mtime_ns: int, size: int) -> dict:
    if size > MAX_FIGURE_BYTES:
        raise FigureUnreadable(f"the figure file is {size / 1e6:.1f} MB; the limit is {MAX_FIGURE_BYTES / 1e6:.0f} MB")
    try:
        raw = json.loads(Path(path).read_bytes())
    except (OSError, ValueError, RecursionError) as exc:
        raise FigureUnreadable(f"the figure file is not readable Plotly JSON ({type(exc).__name__})") from None
    if not isinstance(raw, dict) or not isinstance(raw.get("data"), list):
        raise FigureUnreadable("the figure file is not a Plotly figure (no data list)")
    figure = {k: raw[k] for k in FIGURE_KEYS if k in raw}  # write_json may add keys a chart does not need
    try:
        return validate_figure(figure)
    except UnsafeFigure as exc:
        raise FigureUnreadable(f"the chart check refused the figure: {exc}") from None


@lru_cache(maxsize=64)
def _read_png(path: str, mtime_ns: int, size: int) -> bytes:
    if size > MAX_PNG_BYTES:
        raise FigureUnreadable(f"the image is {size / 1e6:.1f} MB; the limit is {MAX_PNG_BYTES / 1e6:.0f} MB")
    try:
        blob = Path(path).read_bytes()
    except OSError as exc:
        raise FigureUnreadable(f"the image cannot be read ({type(exc).__name__})") from None
    if not blob.startswith(PNG_MAGIC):
        raise FigureUnreadable("the file is not a PNG image")
    return blob


def read_figure(root: FigureRoot, stored: object) -> dict | bytes:
    """Validated chart JSON (``.json``) or PNG bytes (``.png``) for a stored path; FigureRefused, FigureMissing
    or FigureUnreadable otherwise.  Reads are cached per file version (path, mtime, size)."""
    path = root.resolve(stored)
    try:
        stat = path.stat()
    except OSError as exc:
        raise FigureUnreadable(f"figure file cannot be read ({type(exc).__name__})") from None
    reader = _read_json if path.suffix.lower() == ".json" else _read_png
    return reader(str(path), stat.st_mtime_ns, stat.st_size)


def _paths(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    return [p for p in value if isinstance(p, str)] if isinstance(value, list) else []


def task_figure(root: FigureRoot, row: TaskRow | dict, size: int) -> TaskFigure:
    """The first drawable figure of a task result row (JSON first, then PNG), or the reason there is none;
    ``size`` (the chip's qubit count) sets the target's label width, as in every table."""
    at = row.get("end_at") or row.get("start_at")
    qid = str(row.get("qid") or "?")
    empty = TaskFigure(task=str(row.get("name") or "?"), qid=qid, label=target_label(qid, size),
                       status=str(row.get("status") or "unknown"), at=at if isinstance(at, datetime) else None,
                       execution_id=str(row.get("execution_id") or "?"), fit=fit_values(row.get("output_parameters")))
    candidates = _paths(row.get("json_figure_path")) + _paths(row.get("figure_path"))
    if not candidates:
        return replace(empty, problem="no figure stored for this task result")
    problems: list[str] = []
    for stored in candidates:
        try:
            found = read_figure(root, stored)
        except (FigureRefused, FigureMissing, FigureUnreadable) as exc:
            problems.append(str(exc))
            continue
        if isinstance(found, bytes):
            return replace(empty, png=found, stored_path=stored, notes=tuple(problems))
        return replace(empty, plotly=found, stored_path=stored, notes=tuple(problems))
    return replace(empty, problem=problems[0], stored_path=candidates[0], notes=tuple(problems[1:]))


def latest_per_task(rows: Iterable[dict]) -> list[dict]:
    """The newest row of each task name (``rows`` newest first), keeping that order."""
    seen: dict[str, dict] = {}
    for row in rows:
        name = row.get("name")
        if isinstance(name, str) and name not in seen:
            seen[name] = row
    return list(seen.values())


def newest_failed(latest: Sequence[dict], rows: Iterable[dict]) -> dict[str, dict]:
    """Per task of ``latest`` (the newest row with a figure of each task): the task's newest run of all ``rows``
    (newest first) when that run failed and is not the row shown, so the page says so instead of showing an older
    fit as if it were current."""
    newest = {str(r.get("name")): r for r in latest_per_task(rows)}
    out = {}
    for shown in latest:
        name = str(shown.get("name"))
        run = newest.get(name)
        if run is not None and run.get("status") == "failed" and \
                (run.get("task_id"), run.get("execution_id")) != (shown.get("task_id"), shown.get("execution_id")):
            out[name] = run
    return out


def failed_note(run: dict, shown: dict) -> str:
    """``Newest run failed (2025-06-07 09:01 UTC): Fit did not converge. The figure is the last stored fit, from …``
    (the stored message shortened; database text, shown as plain text only)."""
    def when(row: dict) -> str:
        at = row.get("start_at")
        return at.strftime("%Y-%m-%d %H:%M UTC") if isinstance(at, datetime) else "time unknown"

    message = " ".join(str(run.get("message") or "").split())[:200] or "no message was stored"
    return (f"Newest run failed ({when(run)}): {message}. The figure below is the last stored fit, from "
            f"{when(shown)}.")


def most_relevant(latest: Sequence[dict], flagged: Collection[str] = ()) -> int:
    """Which of ``latest`` (one row per task) a person wants to see first: a failed task's figure, else one of a
    task that measured a ``flagged`` metric (bad or degrading on the report), else the newest (index 0)."""
    for wanted in (lambda r: r.get("status") == "failed",
                   lambda r: bool(set(flagged) & set(r.get("output_parameters") or {}))):
        found = next((i for i, row in enumerate(latest) if wanted(row)), None)
        if found is not None:
            return found
    return 0
