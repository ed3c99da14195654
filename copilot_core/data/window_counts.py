"""Counts over a time window (read-only aggregations, counted and grouped by the server): never capped."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from copilot_core.data import validation as v
from copilot_core.data.guarded import driver_errors
from copilot_core.data.observed import seen
from copilot_core.data.reader import ScopedReader
from copilot_core.data.stored import _param
from copilot_core.data.validation import InvalidArgument
from copilot_core.domain.metrics import stored_number
from copilot_core.domain.task_families import Family, in_family


# A kind of task result, by QDash's ``excluded`` flag and ``status``.
_KINDS: dict[str, dict] = {"excluded tasks": {"excluded": True},
                           "usable tasks": {"status": "completed", "excluded": {"$ne": True}},
                           "completed tasks": {"status": "completed"}}


class WindowCounts(ScopedReader):
    """Failures per task name or qubit, and how many failures, runs or measurements a window holds."""

    def failure_counts(self, chip_id: str, *, by: Literal["name", "qid", "execution_id"] = "name",
                       since: datetime | None = None, until: datetime | None = None, qid: str | None = None,
                       task_name: str | None = None, family: Family | None = None,
                       finished: bool = False, execution_id: str | None = None,
                       runs: Sequence[str] | None = None) -> dict[str, int]:
        """Failed task results per task name (or per qubit/coupling id, or per run), most first: every failure, never
        capped; ``qid``, ``task_name`` and ``family`` (:mod:`~copilot_core.domain.task_families`) narrow them to one
        qubit's (or coupling's), one task's or one family's, ``execution_id`` to one run's, ``runs`` to those runs'.
        ``finished``: every
        finished result (completed or failed) instead, the denominator of a failure rate."""
        with driver_errors(self):
            status: object = {"$in": ["completed", "failed"]} if finished else "failed"
            query = self.scope(chip_id=v.chip_id(chip_id), status=status, **_narrowing(qid, task_name)) | \
                self._window("start_at", since, until) | \
                ({"execution_id": v.execution_id(execution_id)} if execution_id is not None else {}) | _of_runs(runs)
            counts: dict[str, int] = defaultdict(int)
            fields = {"_id": 0, by: 1} | ({"name": 1, "task_type": 1, "qid": 1} if family else {})
            for doc in self.db["task_result_history"].find(query, fields):
                key = doc.get(by)
                if isinstance(key, str) and key and (family is None or in_family(family, doc.get("name"),
                                                                                 doc.get("task_type"), doc.get("qid"))):
                    counts[key] += 1
            return seen(dict(sorted(counts.items(), key=lambda item: (-item[1], item[0]))))

    def _groups(self, query: dict, within: Narrowed | None, key: str = "qid") -> list[tuple[str, int]]:
        """The results ``query`` matches, grouped by the server by ``key`` and by what ``within`` judges them on
        (qubit or coupling id, task name and type), each group ``within`` holds as ``(its key, its count)``."""
        pipeline = [{"$match": query}, {"$group": {"_id": {"key": f"${key}", "qid": "$qid", "name": "$name",
                                                           "task_type": "$task_type"}, "n": {"$sum": 1}}}]
        out = []
        for group in self.db["task_result_history"].aggregate(pipeline):
            found = group.get("_id")
            if isinstance(found, dict) and isinstance(run := found.get("key"), str) and \
                    (within is None or within.holds(found)):
                out.append((run, int(group.get("n") or 0)))
        return out

    def task_names(self, chip_id: str) -> list[str]:
        """The task names the chip's results hold: what a task written loosely ("T1 check") is read against."""
        with driver_errors(self):
            names = self.db["task_result_history"].distinct("name", self.scope(chip_id=v.chip_id(chip_id)))
            return seen(sorted(n for n in names if isinstance(n, str) and n))

    def run_starts(self, chip_id: str) -> dict[str, datetime]:
        """When each of the chip's runs (executions) started, by execution id: the date a ranked run is named with."""
        with driver_errors(self):
            return seen({r["execution_id"]: at for r in self._runs(v.chip_id(chip_id)) if (at := r["start_at"]) is not None})

    def count_in_window(self, chip_id: str,
                        what: Literal["failed tasks", "task results", "runs", "failed runs", "runs with failures",
                                      "measurements", "excluded tasks", "usable tasks", "completed tasks", "notes"], *,
                        since: datetime | None = None, until: datetime | None = None, qid: str | None = None,
                        task_name: str | None = None, parameter: str | None = None,
                        within: Narrowed | None = None, runs: Sequence[str] | None = None) -> int:
        """One count of documents that started in ``[since, until)``, counted by the server (never capped):
        ``runs``: executions that started (any outcome; a scheduled one has not); ``task results``: finished task
        results (completed or failed: one document per task run per qubit or coupling); ``failed runs``: executions
        whose status is failed; ``runs with failures``: executions that started and hold at least one failed task
        result (whatever their own status); ``failed tasks``: those that failed; ``excluded tasks``: task results a person
        marked excluded (QDash's ``excluded: true``, any status); ``usable tasks``: completed and not excluded;
        ``completed tasks``: completed (excluded or not); ``measurements``: completed, non-excluded results with a
        usable value of ``parameter``; ``notes``: calibration notes written (by their ``timestamp``).  ``qid`` (a
        qubit's or coupling's own results) and ``task_name`` narrow the task results, and the runs to those that
        hold such a result; ``within`` narrows task results (and runs to those holding one) to a set of qubits, a
        family of tasks, a stored-unit limit of the measurement, or counts the distinct qubits they fall on
        (:class:`Narrowed`); ``runs`` keeps only the documents of those runs (execution ids), whatever the window."""
        with driver_errors(self):
            if what == "notes":
                return seen(int(self.db["calibration_note"].count_documents(
                    self.scope(chip_id=v.chip_id(chip_id)) | self._window("timestamp", since, until) |
                    _of_runs(runs))))
            window = self._window("start_at", since, until) | _of_runs(runs)
            narrowed = _narrowing(qid, task_name)
            if what in ("runs", "failed runs", "runs with failures"):
                status = "failed" if what == "failed runs" else {"$ne": "scheduled"}
                query = self.scope(chip_id=v.chip_id(chip_id)) | window | {"status": status}
                holding = narrowed | ({"status": "failed"} if what == "runs with failures" else {})
                if holding or within is not None:  # the runs that hold such a result (failed, of a qubit, task, set)
                    held = self._groups(self.scope(chip_id=v.chip_id(chip_id), **holding), within, "execution_id")
                    ids = {run for run, _ in held if isinstance(run, str)}
                    query |= {"execution_id": {"$in": sorted(ids & set(runs) if runs is not None else ids)}}
                return seen(int(self.db["execution_history"].count_documents(query)))
            query = self.scope(chip_id=v.chip_id(chip_id), **narrowed) | window
            if within is not None and what != "measurements":
                kept: dict[str, object] = {"failed tasks": "failed", "task results": {"$in": ["completed", "failed"]}}
                query |= _KINDS[what] if what in _KINDS else {"status": kept[what]}
                groups = self._groups(query, within)
                return seen(len({qid for qid, _ in groups if "-" not in qid}) if within.distinct_qubits
                            else sum(n for _, n in groups))
            if what == "failed tasks":
                return seen(int(self.db["task_result_history"].count_documents(query | {"status": "failed"})))
            if what in _KINDS:
                return seen(int(self.db["task_result_history"].count_documents(query | _KINDS[what])))
            if what == "task results":
                return seen(int(self.db["task_result_history"].count_documents(
                    query | {"status": {"$in": ["completed", "failed"]}})))
            if parameter is None:
                raise InvalidArgument("counting measurements needs a parameter")
            name = v.name(parameter)
            query |= {"status": "completed", "excluded": {"$ne": True}, f"output_parameters.{name}": {"$exists": True}}
            docs = self.db["task_result_history"].find(query, {"_id": 0, "qid": 1, "name": 1, "task_type": 1,
                                                               f"output_parameters.{name}": 1})
            narrowing = within or Narrowed()
            return seen(narrowing.count(docs, lambda doc: narrowing.passes(stored_number(_param(
                (doc.get("output_parameters") or {}).get(name)).get("value")))))


@dataclass(frozen=True)
class Narrowed:
    """What a count of task results is narrowed to beyond its window: the qubits of a set (``qubits``: only these,
    a coupling by both ends; ``leaving_out``), a family of tasks, a measurement's limits in stored units (``below``,
    ``above``: values past them), and ``distinct_qubits``: the qubits the results fall on, each counted once."""

    qubits: frozenset[str] | None = None
    leaving_out: frozenset[str] = frozenset()
    family: Family | None = None
    below: float | None = None
    above: float | None = None
    distinct_qubits: bool = False

    def passes(self, value: float | None) -> bool:
        return value is not None and (self.below is None or value < self.below) and \
            (self.above is None or value > self.above)

    def holds(self, doc: Mapping[str, object]) -> bool:
        """Whether a result (its ``qid``, ``name`` and ``task_type``) is of the set and family asked."""
        qid = doc.get("qid")
        ends = qid.split("-") if isinstance(qid, str) else []
        placed = self.qubits is None and not self.leaving_out or bool(ends) and \
            (self.qubits is None or all(e in self.qubits for e in ends)) and not any(e in self.leaving_out for e in ends)
        return placed and \
            (self.family is None or in_family(self.family, doc.get("name"), doc.get("task_type"), qid))

    def count(self, docs: Iterable[dict], keep: Callable[[dict], bool]) -> int:
        """How many of ``docs`` it holds that ``keep`` keeps (or the distinct single qubits they fall on)."""
        held = [d for d in docs if self.holds(d) and keep(d)]
        return len({q for d in held if isinstance(q := d.get("qid"), str) and q and "-" not in q}) \
            if self.distinct_qubits else len(held)


def _of_runs(runs: Sequence[str] | None) -> dict[str, dict[str, list[str]]]:
    """The query part that keeps a count to some runs' documents (none when ``runs`` is None), each id validated."""
    return {"execution_id": {"$in": [v.execution_id(run) for run in runs]}} if runs is not None else {}


def _narrowing(qid: str | None, task_name: str | None) -> dict[str, str]:
    """The task-result fields one qubit (or coupling) and one task narrow a query to, validated."""
    out = {"qid": v.qid_or_coupling(qid)} if qid is not None else {}
    return out | ({"name": v.task_name(task_name)} if task_name is not None else {})
