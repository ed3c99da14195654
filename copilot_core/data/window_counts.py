"""Counts over a time window (read-only aggregations, grouped here in Python): never capped."""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime
from typing import Literal

from copilot_core.data import validation as v
from copilot_core.data.guarded import guarded
from copilot_core.data.reader import ScopedReader
from copilot_core.data.stored import _param
from copilot_core.data.validation import InvalidArgument
from copilot_core.domain.metrics import stored_number


class WindowCounts(ScopedReader):
    """Failures per task name or qubit, and how many failures, runs or measurements a window holds."""

    @guarded
    def failure_counts(self, chip_id: str, *, by: Literal["name", "qid"] = "name",
                       since: datetime | None = None) -> dict[str, int]:
        """Failed task results per task name (or per qubit/coupling id), most first: every failure, never capped."""
        query = self.scope(chip_id=v.chip_id(chip_id), status="failed") | self._window("start_at", since, None)
        counts: dict[str, int] = defaultdict(int)
        for doc in self.db["task_result_history"].find(query, {"_id": 0, by: 1}):
            key = doc.get(by)
            if isinstance(key, str) and key:
                counts[key] += 1
        return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))

    @guarded
    def count_in_window(self, chip_id: str, what: Literal["failed tasks", "runs", "measurements"], *,
                        since: datetime | None = None, qid: str | None = None, parameter: str | None = None) -> int:
        """How many failed task results, executions, or usable completed results of ``parameter`` (of ``qid``)
        started at or after ``since``: a count, never capped."""
        window = self._window("start_at", since, None)
        if what == "runs":
            return int(self.db["execution_history"].count_documents(self.scope(chip_id=v.chip_id(chip_id)) | window))
        if what == "failed tasks":
            query = self.scope(chip_id=v.chip_id(chip_id), status="failed",
                               qid=v.qid_or_coupling(qid) if qid is not None else None) | window
            return int(self.db["task_result_history"].count_documents(query))
        if parameter is None:
            raise InvalidArgument("counting measurements needs a parameter")
        name = v.name(parameter)
        query = self.scope(chip_id=v.chip_id(chip_id), status="completed",
                           qid=v.qid_or_coupling(qid) if qid is not None else None) | window
        query |= {"excluded": {"$ne": True}, f"output_parameters.{name}": {"$exists": True}}
        docs = self.db["task_result_history"].find(query, {"_id": 0, f"output_parameters.{name}": 1})
        return sum(1 for doc in docs if stored_number(_param((doc.get("output_parameters") or {}).get(name))
                                                      .get("value")) is not None)
