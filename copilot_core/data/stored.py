"""How a stored QDash document becomes a row: the fields each read keeps and the reductions every read shares."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import cast

from copilot_core.data.rows import ChipLayout, Param, Params, TaskRow
from copilot_core.domain.metrics import stored_number

PARAM_FIELDS = ("value", "unit", "error", "calibrated_at", "execution_id", "task_id")
TASK_FIELDS = ("task_id", "name", "task_type", "qid", "chip_id", "execution_id", "status", "message",
               "output_parameters", "output_parameter_names", "start_at", "end_at", "elapsed_time", "excluded",
               "tags", "user_note", "ai_review_note", "figure_path", "json_figure_path")
EXECUTION_FIELDS = ("execution_id", "name", "status", "tags", "chip_id", "start_at", "end_at", "elapsed_time", "note")
NOTE_FIELDS = ("chip_id", "execution_id", "task_id", "note", "version", "timestamp")
VERSION_FIELDS = ("entity_id", "parameter_name", "qid", "value", "unit", "error", "version", "valid_from",
                  "valid_until", "task_name", "execution_id", "task_id")
ACTIVITY_FIELDS = ("activity_id", "task_name", "task_type", "qid", "execution_id", "task_id", "started_at",
                   "ended_at", "status")


INACTIVE = "inactive"  # QDash's chip.activity_status for a chip no longer in use (the default is "active")


def _when(value: object) -> datetime | None:
    return value if isinstance(value, datetime) else None


def _utcnow() -> datetime:
    return datetime.now(timezone.utc).replace(tzinfo=None)


_usable = stored_number  # a stored metric value, or None for missing, NaN/inf and QDash's NaN-as-0


def _param(model: object) -> Param:
    """A ParameterModel reduced to {value, unit, error, calibrated_at, execution_id, task_id}."""
    if not isinstance(model, dict):
        return Param(value=model, unit="", error=None, calibrated_at=None, execution_id=None, task_id=None)
    return Param(value=model.get("value"), unit=str(model.get("unit") or ""), error=model.get("error"),
                 calibrated_at=model.get("calibrated_at"), execution_id=model.get("execution_id"),
                 task_id=model.get("task_id"))


def _params(data: object) -> Params:
    if not isinstance(data, dict):
        return {}
    return {str(k): _param(m) for k, m in sorted(data.items())}


def _pick(doc: dict, fields: tuple[str, ...]) -> dict:
    return {k: doc.get(k) for k in fields}


def _task_row(doc: dict) -> TaskRow:
    row = _pick(doc, TASK_FIELDS)  # every TaskRow field, as stored but for the three below
    row["output_parameters"] = _params(doc.get("output_parameters"))
    row["excluded"] = bool(doc.get("excluded"))
    row["tags"] = list(doc.get("tags") or [])
    return cast(TaskRow, row)


def _projection(fields: tuple[str, ...]) -> dict:
    return {"_id": 0, **{f: 1 for f in fields}}


def text_list(value: object) -> list[str]:
    """A stored list of strings (tags); anything else in its place, or in it, is left out."""
    return [t for t in value if isinstance(t, str)] if isinstance(value, list) else []


def _qid_sort_key(qid: str) -> tuple:
    parts = qid.split("-")  # numbers first, then the text: a stored "Q5" beside "4-1" still has an order
    return (tuple(int(p) if p.isdigit() else 0 for p in parts), qid)


def _layout(chip_id: str, doc: dict) -> ChipLayout:
    """The layout of a stored chip document (``list_chips``' defaults for a missing size or topology)."""
    size = doc["size"] if isinstance(doc.get("size"), int) else 64
    return ChipLayout(chip_id=chip_id, size=size, topology_id=doc.get("topology_id") or f"square-lattice-mux-{size}")

