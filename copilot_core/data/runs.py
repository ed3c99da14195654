"""Reads for comparing calibration runs: every result of chosen executions, whatever its status.

The repository's metric reads keep only completed, non-excluded, non-zero values; a comparison
must also see what failed, was excluded or came back as QDash's NaN-stored-as-0, so it reads the
raw rows of whole executions here (indexed ``execution_id $in`` on both engines) and leaves the
judgement to ``copilot_core.analysis.compare``.
"""

from __future__ import annotations

from datetime import datetime
from typing import TypedDict

from copilot_core.data import validation as v
from copilot_core.data.guarded import driver_errors
from copilot_core.data.observed import seen
from copilot_core.data.plans import MAX_SCAN
from copilot_core.data.repository import CalibrationRepository
from copilot_core.data.stored import text_list

RESULT_PROJECTION = {"_id": 0, "qid": 1, "name": 1, "task_type": 1, "status": 1, "excluded": 1, "start_at": 1,
                     "execution_id": 1, "task_id": 1, "message": 1, "output_parameters": 1}
MAX_EXECUTIONS = 1000


class RunResult(TypedDict):
    """One task result of a run; ``values`` holds each output parameter's value exactly as stored."""

    qid: str
    name: str
    task_type: str
    status: str
    excluded: bool
    start_at: datetime | None
    execution_id: str
    task_id: str
    message: str
    values: dict[str, object]


def _number(value: object) -> float | int | None:
    """A stored value as a number, None for anything else (text, lists, documents, booleans)."""
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _values(outputs: object) -> dict[str, object]:
    if not isinstance(outputs, dict):
        return {}
    return {str(k): _number(m.get("value") if isinstance(m, dict) else m) for k, m in outputs.items()}


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _when(value: object) -> datetime | None:
    return value if isinstance(value, datetime) else None


class RunReader:
    """Whole-run reads over a ``CalibrationRepository`` (same database, same project scope)."""

    def __init__(self, repo: CalibrationRepository) -> None:
        self.repo = repo
        self.db = repo.db
        self.plan = repo.plan

    def executions_between(self, chip_id: str, since: datetime | None = None,
                           until: datetime | None = None) -> list[dict]:
        """Executions of a chip started in ``[since, until)``, newest first ({execution_id, status, start_at,
        end_at, name, tags})."""
        with driver_errors(self):
            query = self.repo.scope(chip_id=v.chip_id(chip_id))
            bounds = {}
            if since is not None:
                bounds["$gte"] = v.when(since, "since")
            if until is not None:
                bounds["$lt"] = v.when(until, "until")
            if bounds:
                query["start_at"] = bounds
            rows = self.db["execution_history"].find(
                query, {"_id": 0, "execution_id": 1, "status": 1, "start_at": 1, "end_at": 1, "name": 1, "tags": 1}) \
                .sort([("start_at", -1), ("execution_id", -1)]).limit(MAX_EXECUTIONS)
            return seen([{"execution_id": d["execution_id"], "status": _text(d.get("status")),
                          "start_at": _when(d.get("start_at")), "end_at": _when(d.get("end_at")),
                          "name": _text(d.get("name")), "tags": text_list(d.get("tags"))}
                         for d in rows if v.is_execution_id(d.get("execution_id"))])

    def results(self, chip_id: str, execution_ids: list[str]) -> list[RunResult]:
        """Every task result (any status, excluded or not) of the given executions of a chip."""
        with driver_errors(self):
            ids = sorted({v.execution_id(e) for e in execution_ids})
            if not ids:
                return seen([])
            query = self.repo.scope(chip_id=v.chip_id(chip_id)) | {"execution_id": {"$in": ids}}
            out: list[RunResult] = []
            for doc in self.db["task_result_history"].find(query, RESULT_PROJECTION).limit(MAX_SCAN):
                if not isinstance(doc.get("qid"), str):
                    continue
                start = doc.get("start_at")
                out.append(RunResult(
                    qid=doc["qid"], name=str(doc.get("name") or ""), task_type=str(doc.get("task_type") or "qubit"),
                    status=str(doc.get("status") or ""), excluded=bool(doc.get("excluded")),
                    start_at=start if isinstance(start, datetime) else None,
                    execution_id=str(doc.get("execution_id") or ""), task_id=str(doc.get("task_id") or ""),
                    message=str(doc.get("message") or ""), values=_values(doc.get("output_parameters"))))
            return seen(out)
