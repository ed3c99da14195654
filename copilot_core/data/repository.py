"""Read-only access to QDash's calibration collections: the only reads the app makes.

Pages and copilot tools call these methods instead of speaking pymongo, so every query
honours the project scope, validates its arguments (no operator injection) and keeps to the
pymongo subset that works on both real MongoDB and the embedded litemongo engine
(``find`` + projection + explicit sort + limit; grouping is done here in Python, which is
faster on litemongo than ``aggregate``).
Return values are plain JSON-able dicts/lists (datetimes naive UTC), picklable for
``st.cache_data``.  Values are RAW as stored; convert with ``copilot_core.domain.metrics``.
"""

from __future__ import annotations

import copy
import functools
import statistics
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Concatenate, Literal, ParamSpec, Protocol, TypeVar, cast

from copilot_core.data import validation as v
from copilot_core.data.connection import DatabaseUnavailable
from copilot_core.data.observed import seen
from copilot_core.data.engine import Database
from copilot_core.data.plans import MAX_SCAN, QueryPlan, Query, Run, plan_for
from copilot_core.data.rows import (ChipLayout, ChipRow, ChipSeriesRow, ExecutionRow, LineageGraph, MetricValue,
                                    NoteRow, Param, Params, SeriesPoint, TaskRow)
from copilot_core.data.scoped import scoped
from copilot_core.data.validation import InvalidArgument
from copilot_core.domain.metrics import metric as catalogue_metric, stored_number

__all__ = ["CalibrationRepository", "DatabaseUnavailable", "InvalidArgument", "Mode", "Kind", "guarded"]

Mode = Literal["latest", "best", "average"]
Kind = Literal["qubit", "coupling"]
P = ParamSpec("P")
R = TypeVar("R")

MAX_LINEAGE_NODES = 400
MAX_RUNS = 5000  # executions of one chip a read considers (years of daily runs)
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


class _Reader(Protocol):
    db: Database
    plan: QueryPlan


S = TypeVar("S", bound=_Reader)


def guarded(fn: Callable[Concatenate[S, P], R]) -> Callable[Concatenate[S, P], R]:
    """Turn driver errors of a reader's method (a reader has the ``db`` it reads and its engine's ``plan``)
    into ``DatabaseUnavailable`` naming the host (never a traceback)."""

    @functools.wraps(fn)
    def wrapper(self: S, /, *args: P.args, **kwargs: P.kwargs) -> R:
        from pymongo.errors import PyMongoError

        try:
            result = fn(self, *args, **kwargs)
        except PyMongoError as exc:
            raise DatabaseUnavailable(
                f"cannot read from {self.plan.describe(self.db)} ({type(exc).__name__}). Check that the server "
                "is running and reachable, and the MONGODB_URI user, password and database name.") from None
        seen(result)
        return result

    return wrapper


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


@dataclass
class TurnFacts:
    """The chip facts one turn has read, by what was asked (the lookup table ``for_turn`` adds)."""

    chip_ids: list[str] | None = None
    layouts: dict[str, ChipLayout | None] = field(default_factory=dict)
    rows: dict[str, ChipRow | None] = field(default_factory=dict)


class CalibrationRepository:
    """Validated, project-scoped reads over a pymongo-API ``Database`` (MongoDB or litemongo)."""

    def __init__(self, db: Database, *, project_id: str | None = None, plan: QueryPlan | None = None) -> None:
        """``db`` is a pymongo-compatible Database; ``project_id`` (QDASH_PROJECT_ID) scopes every query;
        ``plan`` defaults to the engine's own (tests force ``MongoPlan`` onto another engine)."""
        self.project_id = v.project_id(project_id) if project_id is not None else None
        self.db = scoped(db, self.project_id)  # every query on a project's collections carries its id
        self.plan = plan or plan_for(db)
        self._turn: TurnFacts | None = None  # set on the copy ``for_turn`` gives

    def for_turn(self) -> CalibrationRepository:
        """This repository for one copilot turn: the chip ids and each chip's layout and row are read once however
        many steps ask (the question's chip, the prompt's context, the clarification and the tools all need them).
        A turn lasts seconds: a chip installed meanwhile shows in the next turn.  A failed read is not kept."""
        if self._turn is not None:
            return self
        turn = copy.copy(self)
        turn._turn = TurnFacts()
        return turn

    def scope(self, **conditions: object) -> Query:
        """Every filter starts here (also those of ``runs.RunReader``): the project scope plus validated
        equality conditions.  ``self.db`` adds the scope again by construction (``scoped.py``)."""
        base = {"project_id": self.project_id} if self.project_id else {}
        return base | {k: c for k, c in conditions.items() if c is not None}

    # ---- health -------------------------------------------------------------------------
    @guarded
    def ping(self) -> None:
        """Cheap round trip; raises ``DatabaseUnavailable`` (message names the host) when unreachable."""
        self.plan.ping(self.db)

    def warm_up(self) -> None:
        """Build the embedded engine's lazy in-process indexes now (see ``warmup.py``); a no-op on MongoDB."""
        warm = self.plan.index_warm_up(self.db)
        if warm is not None:
            warm.run()

    # ---- chips ----------------------------------------------------------------------------
    @guarded
    def list_chips(self) -> list[ChipRow]:
        """Chips, most recently installed first: {chip_id, size, topology_id, installed_at, active, qubits_total,
        qubits_with_data, last_execution_at, last_execution_status}.  ``active`` is False only for a chip
        QDash marks ``activity_status: "inactive"`` (a chip without the field is active)."""
        return self._chips(self.scope())

    def _chips(self, query: Query) -> list[ChipRow]:
        rows = self.db["chip"].find(query, _projection(("chip_id", "size", "topology_id", "installed_at",
                                                        "activity_status"))) \
            .sort([("installed_at", -1), ("chip_id", 1)]).limit(1000)
        found: dict[str, dict] = {}
        for doc in rows:
            chip_id = doc.get("chip_id")
            if not isinstance(chip_id, str) or chip_id in found:
                continue  # same chip under another username: keep the newest
            found[chip_id] = doc
        chips = []
        for chip_id, doc in found.items():
            layout = _layout(chip_id, doc)
            last = self.db["execution_history"].find_one(
                self.scope(chip_id=chip_id), {"_id": 0, "start_at": 1, "status": 1}, sort=[("start_at", -1)])
            chips.append(ChipRow(chip_id=chip_id, size=layout["size"], topology_id=layout["topology_id"],
                                 installed_at=doc.get("installed_at"),
                                 active=doc.get("activity_status") != INACTIVE, qubits_total=layout["size"],
                                 qubits_with_data=self._qubits_with_data(chip_id),
                                 last_execution_at=last.get("start_at") if last else None,
                                 last_execution_status=last.get("status") if last else None))
        return chips

    def _qubits_with_data(self, chip_id: str) -> int:
        rows = self.db["qubit"].find(self.scope(chip_id=chip_id), {"_id": 0, "qid": 1, "data": 1}) \
            .sort([("qid", 1)]).limit(10_000)
        qids = {doc.get("qid") for doc in rows
                if isinstance(doc.get("data"), dict)
                and any(_usable(m.get("value") if isinstance(m, dict) else m) is not None
                        for m in doc["data"].values())}
        return len(qids)

    @guarded
    def get_chip(self, chip_id: str) -> ChipRow | None:
        """One chip in the ``list_chips`` shape, or None if it does not exist."""
        turn = self._turn
        if turn is not None and chip_id in turn.rows:
            return copy.copy(turn.rows[chip_id])
        found = self._chips(self.scope(chip_id=v.chip_id(chip_id)))
        row = found[0] if found else None
        if turn is not None:
            turn.rows[chip_id] = copy.copy(row)
        return row

    @guarded
    def chip_layout(self, chip_id: str) -> ChipLayout | None:
        """A chip's size and topology (the newest document of that chip id, as ``get_chip``), in one read; None
        when the chip does not exist."""
        turn = self._turn
        if turn is not None and chip_id in turn.layouts:
            return copy.copy(turn.layouts[chip_id])
        doc = self.db["chip"].find_one(self.scope(chip_id=v.chip_id(chip_id)),
                                       {"_id": 0, "chip_id": 1, "size": 1, "topology_id": 1},
                                       sort=[("installed_at", -1), ("chip_id", 1)])
        layout = None if doc is None else _layout(chip_id, doc)
        if turn is not None:
            turn.layouts[chip_id] = copy.copy(layout)
        return layout

    @guarded
    def chip_ids(self) -> list[str]:
        """Every chip id in scope (for spotting a chip named in a question)."""
        turn = self._turn
        if turn is not None and turn.chip_ids is not None:
            return list(turn.chip_ids)
        ids = sorted(str(c) for c in self.db["chip"].distinct("chip_id", self.scope()) if isinstance(c, str))
        if turn is not None:
            turn.chip_ids = list(ids)
        return ids

    @guarded
    def default_chip_id(self) -> str | None:
        """The most recently installed active chip (QDash's default when no chip is given), or None.  A chip
        QDash marks inactive is never the default; it is still read when named."""
        doc = self.db["chip"].find_one(self.scope() | {"activity_status": {"$ne": INACTIVE}}, {"_id": 0, "chip_id": 1},
                                       sort=[("installed_at", -1), ("chip_id", 1)])
        return doc.get("chip_id") if doc else None

    # ---- latest merged parameters (qubit.data / coupling.data) -----------------------------
    @guarded
    def qubit_params(self, chip_id: str, qid: str) -> Params | None:
        """``qubit.data`` of one qubit: {param: {value, unit, error, calibrated_at, execution_id, task_id}};
        None when the qubit does not exist."""
        doc = self.db["qubit"].find_one(self.scope(chip_id=v.chip_id(chip_id), qid=v.qid(qid)),
                                        {"_id": 0, "data": 1}, sort=[("qid", 1)])
        return None if doc is None else _params(doc.get("data"))

    @guarded
    def all_qubit_params(self, chip_id: str) -> dict[str, Params]:
        """``qubit.data`` for every qubit of a chip: {qid: {param: {...}}} (qubits with no data map to {})."""
        return self._all_data("qubit", v.chip_id(chip_id))

    @guarded
    def coupling_params(self, chip_id: str, coupling_id: str) -> Params | None:
        """``coupling.data`` for one coupling id exactly as stored (e.g. "4-1"); None when absent."""
        doc = self.db["coupling"].find_one(
            self.scope(chip_id=v.chip_id(chip_id), qid=v.coupling_id(coupling_id)), {"_id": 0, "data": 1},
            sort=[("qid", 1)])
        return None if doc is None else _params(doc.get("data"))

    @guarded
    def all_coupling_params(self, chip_id: str) -> dict[str, Params]:
        """``coupling.data`` for every stored coupling id (both directions present): {cid: {param: {...}}}."""
        return self._all_data("coupling", v.chip_id(chip_id))

    def _all_data(self, collection: str, chip_id: str) -> dict[str, Params]:
        # sorted here, not by the engine: a qid stored as a number beside the strings has no order in Python
        rows = self.db[collection].find(self.scope(chip_id=chip_id), {"_id": 0, "qid": 1, "data": 1}).limit(20_000)
        out = {str(doc["qid"]): _params(doc.get("data")) for doc in rows if isinstance(doc.get("qid"), str)}
        return dict(sorted(out.items(), key=lambda item: _qid_sort_key(item[0])))

    # ---- task result history ------------------------------------------------------------------
    @guarded
    def task_results(self, chip_id: str, *, task_name: str | None = None, qid: str | None = None,
                     status: str | None = None, execution_id: str | None = None,
                     since: datetime | None = None, until: datetime | None = None,
                     limit: int = 10) -> list[TaskRow]:
        """Task results newest first (by start_at): {task_id, name, task_type, qid, execution_id, status,
        message, output_parameters, start_at, end_at, elapsed_time, excluded, tags, user_note,
        ai_review_note}.  ``limit`` 1..1000; all statuses unless ``status`` is given."""
        query = self.scope(
            chip_id=v.chip_id(chip_id),
            name=v.task_name(task_name) if task_name is not None else None,
            qid=v.qid_or_coupling(qid) if qid is not None else None,
            status=v.choice(status, "status", v.TASK_STATUSES) if status is not None else None,
            execution_id=v.execution_id(execution_id) if execution_id is not None else None,
        ) | self._window("start_at", since, until)
        limit = v.limit(limit)
        if not {"name", "qid", "execution_id", "status"} & query.keys():
            if since is None:
                docs = self.plan.recent_task_docs(self.db["task_result_history"], query, _projection(TASK_FIELDS),
                                                  limit, lambda: self._runs(query["chip_id"]))
                return [_task_row(d) for d in docs]
            query |= self._window_hint(query["chip_id"], query["start_at"]["$gte"])
        return self._task_rows(query, limit)

    @guarded
    def count_task_results(self, chip_id: str, execution_id: str, *, status: str | None = None) -> int:
        """How many task results one execution holds (of one status when given): a count, never capped."""
        query = self.scope(chip_id=v.chip_id(chip_id), execution_id=v.execution_id(execution_id),
                           status=v.choice(status, "status", v.TASK_STATUSES) if status is not None else None)
        return int(self.db["task_result_history"].count_documents(query))

    def _runs(self, chip_id: str) -> list[Run]:
        """The chip's executions, newest start first, with the interval their results fall in."""
        rows = self.db["execution_history"].find(self.scope(chip_id=chip_id),
                                                 {"_id": 0, "execution_id": 1, "start_at": 1, "end_at": 1}) \
            .sort([("start_at", -1), ("execution_id", -1)]).limit(MAX_RUNS)
        return [Run(execution_id=d["execution_id"], start_at=_when(d.get("start_at")), end_at=_when(d.get("end_at")))
                for d in rows if isinstance(d.get("execution_id"), str)]

    def _window_hint(self, chip_id: str, since: datetime) -> dict:
        return self.plan.window_hint(since, lambda: self._runs(chip_id))

    def _task_rows(self, query: Query, limit: int) -> list[TaskRow]:
        return [_task_row(d) for d in self.plan.task_docs(self.db["task_result_history"], query,
                                                          _projection(TASK_FIELDS), limit)]

    @staticmethod
    def _window(field: str, since: datetime | None, until: datetime | None) -> dict:
        bounds = {}
        if since is not None:
            bounds["$gte"] = v.when(since, "since")
        if until is not None:
            bounds["$lt"] = v.when(until, "until")
        if "$gte" in bounds and "$lt" in bounds and bounds["$gte"] >= bounds["$lt"]:
            raise InvalidArgument("since must be earlier than until")
        return {field: bounds} if bounds else {}

    @guarded
    def latest_task_result(self, chip_id: str, task_name: str, qid: str) -> TaskRow | None:
        """Newest completed, non-excluded result of a task on a qubit/coupling (``task_results`` shape)."""
        query = self.scope(chip_id=v.chip_id(chip_id), name=v.task_name(task_name), qid=v.qid_or_coupling(qid),
                            status="completed") | {"excluded": {"$ne": True}}
        rows = self._task_rows(query, 1)
        return rows[0] if rows else None

    def _metric_query(self, chip_id: str, parameter: str, *, usable_only: bool = True, **extra: object) -> Query:
        """Completed, non-excluded history rows that carry ``parameter`` (with a non-zero value unless
        ``usable_only`` is False: "latest" must see QDash's NaN-as-0 to report the metric missing)."""
        query = self.scope(chip_id=chip_id, output_parameter_names=parameter, status="completed", **extra) | {
            "excluded": {"$ne": True}}
        return query | {f"output_parameters.{parameter}.value": {"$ne": 0}} if usable_only else query

    @staticmethod
    def _metric_projection(parameter: str) -> dict:
        return {"_id": 0, "qid": 1, "start_at": 1, "end_at": 1, "execution_id": 1, "task_id": 1,
                f"output_parameters.{parameter}": 1}

    @staticmethod
    def _metric_row(doc: dict, parameter: str) -> dict | None:
        """A history document reduced to one parameter; ``value`` None when it is NaN/inf/QDash's NaN-as-0."""
        if not isinstance(doc.get("qid"), str):
            return None
        model = (doc.get("output_parameters") or {}).get(parameter)
        model = model if isinstance(model, dict) else {"value": model}
        return {"qid": doc["qid"], "value": _usable(model.get("value")), "unit": model.get("unit") or "",
                "error": model.get("error"),
                "calibrated_at": model.get("calibrated_at") or doc.get("end_at") or doc.get("start_at"),
                "at": doc.get("start_at"),
                "execution_id": model.get("execution_id") or doc.get("execution_id"),
                "task_id": model.get("task_id") or doc.get("task_id")}

    def _metric_rows(self, query: dict, parameter: str, *, limit: int = MAX_SCAN) -> list[dict]:
        """The newest ``limit`` usable values, newest first: NaN/inf are dropped before the limit counts."""
        fetch = limit
        while True:
            docs = self.plan.history(self.db["task_result_history"], query, self._metric_projection(parameter),
                                     fetch)
            rows = [r for r in (self._metric_row(doc, parameter) for doc in docs)
                    if r is not None and r["value"] is not None]
            if len(rows) >= limit or len(docs) < fetch or fetch >= MAX_SCAN:
                return rows[:limit]
            fetch = min(2 * fetch + 8, MAX_SCAN)

    def _latest_metric_rows(self, query: dict, parameter: str, kind: str) -> list[dict]:
        """The newest completed, non-excluded result per id, whatever its value (None when unusable)."""
        chip_id = query["chip_id"]
        if isinstance(query.get("qid"), str):  # one id: its newest document, on every plan
            docs = self.plan.history(self.db["task_result_history"], query, self._metric_projection(parameter), 1)
            return [r for r in (self._metric_row(d, parameter) for d in docs) if r is not None]

        def known_ids() -> set[str]:
            rows = self.db[kind].find(self.scope(chip_id=chip_id), {"_id": 0, "qid": 1}) \
                .sort([("qid", 1)]).limit(20_000)
            return {d["qid"] for d in rows if isinstance(d.get("qid"), str)}

        docs = self.plan.latest_per_id(self.db["task_result_history"], query, self._metric_projection(parameter),
                                       executions=lambda: self._runs(chip_id), known_ids=known_ids)
        return [r for r in (self._metric_row(d, parameter) for d in docs) if r is not None]

    @guarded
    def last_execution_at(self, chip_id: str) -> datetime | None:
        """Start of the chip's newest execution that started (a scheduled one has not): the end of every "last N
        days" window."""
        doc = self.db["execution_history"].find_one(self.scope(chip_id=v.chip_id(chip_id))
                                                    | {"status": {"$ne": "scheduled"}},
                                                    {"_id": 0, "start_at": 1}, sort=[("start_at", -1)])
        start = doc.get("start_at") if doc else None
        return start if isinstance(start, datetime) else None

    def window_end(self, chip_id: str, window_end: datetime | None = None) -> datetime:
        """``window_end`` if given, else the chip's last execution, else now (naive UTC)."""
        if window_end is not None:
            return v.when(window_end, "window_end")
        return self.last_execution_at(chip_id) or _utcnow()

    @guarded
    def metric_values(self, chip_id: str, metric: str, *, mode: Mode = "latest", kind: Kind = "qubit",
                      within_hours: float | None = None, window_end: datetime | None = None,
                      qid: str | None = None) -> dict[str, MetricValue]:
        """One value per qubit (or coupling id as stored, control-target) from task_result_history:
        {id: {value, stddev, count, at, execution_id, task_id, missing_since}}.  Completed, non-excluded
        results only.  latest = the newest such result; when its value is NaN/inf/QDash's NaN-as-0 the
        metric is missing (value None, ``missing_since`` = that result's date), never the result before.
        best (catalogue's better direction) and average (mean, sample stddev) use the usable values.
        ``within_hours`` counts back from ``window_end`` (default: the chip's last execution); ``qid`` reads
        one qubit (or coupling id) only."""
        chip_id, metric = v.chip_id(chip_id), v.name(metric, "metric name")
        mode = v.choice(mode, "mode", v.MODES)  # type: ignore[assignment]
        kind = v.choice(kind, "kind", v.KINDS)  # type: ignore[assignment]
        query = self._metric_query(chip_id, metric, usable_only=mode != "latest", task_type=kind,
                                   qid=v.qid_or_coupling(qid) if qid is not None else None)
        if within_hours is not None:
            since = self.window_end(chip_id, window_end) - timedelta(hours=v.hours(within_hours))
            query |= {"start_at": {"$gte": since}} | self._window_hint(chip_id, since)
        if mode == "latest":
            rows = self._latest_metric_rows(query, metric, kind)
        else:
            rows = self._metric_rows(query, metric)
        groups: dict[str, list[dict]] = defaultdict(list)
        for row in rows:
            groups[row["qid"]].append(row)
        higher = catalogue_metric(metric, kind=kind).higher_is_better
        out: dict[str, MetricValue] = {}
        for key in sorted(groups, key=_qid_sort_key):
            rows = groups[key]  # newest first
            chosen = rows[0]
            if mode == "best":
                chosen = (max if higher else min)(rows, key=lambda r: r["value"])
            values = [r["value"] for r in rows if r["value"] is not None]
            value = statistics.fmean(values) if mode == "average" else chosen["value"]
            stddev = (statistics.stdev(values) if len(values) > 1 else 0.0) if mode == "average" else None
            out[key] = MetricValue(value=value, stddev=stddev, count=len(values), unit=chosen["unit"],
                                   at=chosen["calibrated_at"], execution_id=chosen["execution_id"],
                                   task_id=chosen["task_id"],
                                   missing_since=chosen["calibrated_at"] if value is None else None)
        return out

    # ---- timeseries ----------------------------------------------------------------------------
    @guarded
    def parameter_timeseries(self, chip_id: str, parameter: str, qid: str, *, last_n: int = 10,
                             since: datetime | None = None) -> list[SeriesPoint]:
        """Last ``last_n`` values of one output parameter for one qubit, oldest first:
        {value, unit, error, calibrated_at, execution_id, task_id}.  Completed, non-excluded, 0/NaN skipped."""
        query = self._metric_query(v.chip_id(chip_id), v.name(parameter), qid=v.qid_or_coupling(qid)) \
            | self._window("start_at", since, None)
        rows = self._metric_rows(query, parameter, limit=v.limit(last_n, "last_n"))
        return [SeriesPoint(value=r["value"], unit=r["unit"], error=r["error"], calibrated_at=r["calibrated_at"],
                            execution_id=r["execution_id"], task_id=r["task_id"]) for r in reversed(rows)]

    @guarded
    def chip_parameter_timeseries(self, chip_id: str, parameter: str, *, qids: list[str] | None = None,
                                  since: datetime | None = None, last_n: int | None = None) -> list[ChipSeriesRow]:
        """Rows {qid, calibrated_at, value, unit, execution_id, task_id} for all (or the given) qubits,
        oldest first, in one query; ``last_n`` applies per qubit.  Same filters as ``parameter_timeseries``."""
        extra: Query = {}
        if qids is not None:
            extra["qid"] = {"$in": v.qid_list(qids)}
        per_qubit = v.limit(last_n, "last_n") if last_n is not None else None
        chip_id = v.chip_id(chip_id)
        query = self._metric_query(chip_id, v.name(parameter)) | extra | self._window("start_at", since, None)
        if since is not None:
            query |= self._window_hint(chip_id, query["start_at"]["$gte"])
        rows = self._metric_rows(query, parameter)
        if per_qubit is not None:
            seen: dict[str, int] = defaultdict(int)
            kept = []
            for row in rows:
                seen[row["qid"]] += 1
                if seen[row["qid"]] <= per_qubit:
                    kept.append(row)
            rows = kept
        rows.reverse()
        return [ChipSeriesRow(qid=r["qid"], calibrated_at=r["calibrated_at"], value=r["value"], unit=r["unit"],
                              execution_id=r["execution_id"], task_id=r["task_id"]) for r in rows]

    # ---- executions, notes, provenance ----------------------------------------------------------
    @guarded
    def executions(self, chip_id: str, *, status: str | None = None, tags: list[str] | None = None,
                   limit: int = 10) -> list[ExecutionRow]:
        """Execution history newest first: {execution_id, name, status, tags, chip_id, start_at, end_at,
        elapsed_time, note}.  ``tags`` matches executions carrying all the given tags."""
        query = self.scope(chip_id=v.chip_id(chip_id),
                            status=v.choice(status, "status", v.EXECUTION_STATUSES) if status is not None else None)
        if tags:
            query["$and"] = [{"tags": t} for t in v.tags(tags)]
        rows = self.db["execution_history"].find(query, _projection(EXECUTION_FIELDS)) \
            .sort([("start_at", -1), ("execution_id", -1)]).limit(v.limit(limit))
        return [cast(ExecutionRow, _pick(doc, EXECUTION_FIELDS) | {"tags": text_list(doc.get("tags"))}) for doc in rows]

    @guarded
    def calibration_notes(self, chip_id: str, *, execution_id: str | None = None, task_id: str | None = None,
                          limit: int = 10) -> list[NoteRow]:
        """Calibration notes newest first: {chip_id, execution_id, task_id, note, version, timestamp}.
        ``note`` is the stored dict verbatim: treat its strings as untrusted (prompt injection)."""
        query = self.scope(chip_id=v.chip_id(chip_id),
                            execution_id=v.execution_id(execution_id) if execution_id is not None else None,
                            task_id=v.task_id(task_id) if task_id is not None else None)
        rows = self.db["calibration_note"].find(query, _projection(NOTE_FIELDS)) \
            .sort([("timestamp", -1), ("execution_id", -1)]).limit(v.limit(limit, maximum=100))
        return [cast(NoteRow, _pick(doc, NOTE_FIELDS)) for doc in rows]

    @guarded
    def parameter_versions(self, chip_id: str, parameter: str, qid: str, *, limit: int = 10) -> list[dict]:
        """Versions of one parameter on one qubit, version descending: {entity_id, parameter_name, qid, value,
        unit, error, version, valid_from, valid_until, task_name, execution_id, task_id}."""
        query = self.scope(chip_id=v.chip_id(chip_id), parameter_name=v.name(parameter),
                            qid=v.qid_or_coupling(qid))
        rows = [_pick(doc, VERSION_FIELDS) for doc in self.db["parameter_versions"].find(
            query, _projection(VERSION_FIELDS)).sort([("version", -1)]).limit(v.limit(limit))]
        return self._with_task_state(rows)

    def _with_task_state(self, versions: list[dict]) -> list[dict]:
        """Mark each version with the outcome of the task that produced it: ``task_status``,
        ``task_excluded`` and ``usable`` (completed, not excluded, a real number: not NaN-as-0), so a
        failed or excluded value is never read as the current one."""
        ids = sorted({t for r in versions if isinstance(t := r.get("task_id"), str)})
        states: dict[str, dict] = {}
        if ids:
            for doc in self.db["task_result_history"].find(self.scope(task_id={"$in": ids}),
                                                           {"_id": 0, "task_id": 1, "status": 1, "excluded": 1}) \
                    .sort([("task_id", 1)]).limit(len(ids) * 2):
                states[doc["task_id"]] = doc
        for row in versions:
            state = states.get(row.get("task_id"))  # type: ignore[arg-type]
            status = state.get("status") if state else None
            excluded = bool(state.get("excluded")) if state else False
            row["task_status"] = status
            row["task_excluded"] = excluded
            row["usable"] = (status in (None, "completed") and not excluded
                             and _usable(row.get("value")) is not None)
        return versions

    @guarded
    def lineage_graph(self, chip_id: str, entity_id: str, *, max_depth: int = 5) -> LineageGraph:
        """Ancestors of a parameter version through provenance relations/activities (max_depth 1..20):
        {"root": entity_id, "nodes": [{id, type: "entity"|"activity", depth, ...}], "edges": [{source, target,
        relation}], "truncated": bool}.  Unknown entity -> {"root": entity_id, "nodes": [], "edges": []}.
        Edges point from the newer thing to what it came from (wasGeneratedBy, used, wasDerivedFrom)."""
        chip_id, entity_id = v.chip_id(chip_id), v.entity_id(entity_id)
        depth_limit = v.limit(max_depth, "max_depth", maximum=20)
        nodes: dict[str, dict] = {}
        edges: list[dict] = []
        root = self._entities([entity_id], chip_id)
        if not root:
            return LineageGraph(root=entity_id, nodes=[], edges=[], truncated=False)
        nodes[entity_id] = root[entity_id] | {"depth": 0}
        frontier, truncated = [entity_id], False
        for depth in range(1, depth_limit + 1):
            if not frontier:
                break
            relations = self.db["provenance_relations"].find(
                self.scope(source_id={"$in": frontier}),
                {"_id": 0, "relation_type": 1, "source_id": 1, "target_id": 1, "target_type": 1}) \
                .sort([("source_id", 1), ("target_id", 1)]).limit(MAX_LINEAGE_NODES * 4)
            new_entities: list[str] = []
            new_activities: list[str] = []
            for rel in relations:
                target = rel.get("target_id")
                if not isinstance(target, str):
                    continue
                edges.append({"source": rel.get("source_id"), "target": target, "relation": rel.get("relation_type")})
                if target in nodes or target in new_entities or target in new_activities:
                    continue
                (new_activities if rel.get("target_type") == "activity" else new_entities).append(target)
            found = self._entities(new_entities, chip_id) | self._activities(new_activities, chip_id)
            frontier = []
            for node_id in new_entities + new_activities:
                if len(nodes) >= MAX_LINEAGE_NODES:
                    truncated = True
                    break
                nodes[node_id] = found.get(node_id, {"id": node_id, "type": "unknown"}) | {"depth": depth}
                frontier.append(node_id)
        edges = [e for e in edges if e["source"] in nodes and e["target"] in nodes]
        return LineageGraph(root=entity_id, nodes=list(nodes.values()), edges=edges, truncated=truncated)

    def _entities(self, ids: list[str], chip_id: str) -> dict[str, dict]:
        if not ids:
            return {}
        rows = self.db["parameter_versions"].find(self.scope(entity_id={"$in": ids}, chip_id=chip_id),
                                                  _projection(VERSION_FIELDS)) \
            .sort([("entity_id", 1)]).limit(len(ids))
        found = self._with_task_state([_pick(d, VERSION_FIELDS) for d in rows])
        return {d["entity_id"]: {"id": d["entity_id"], "type": "entity"} | d for d in found}

    def _activities(self, ids: list[str], chip_id: str) -> dict[str, dict]:
        if not ids:
            return {}
        rows = self.db["provenance_activities"].find(self.scope(activity_id={"$in": ids}, chip_id=chip_id),
                                                     _projection(ACTIVITY_FIELDS)) \
            .sort([("activity_id", 1)]).limit(len(ids))
        return {d["activity_id"]: {"id": d["activity_id"], "type": "activity"} | _pick(d, ACTIVITY_FIELDS)
                for d in rows}

    @guarded
    def output_parameter_names(self, chip_id: str, qid: str | None = None) -> list[str]:
        """Output parameter names, sorted: of one qubit/coupling's history, or (no ``qid``) every name with
        a merged value in the chip's qubit/coupling data (the same definition on every engine)."""
        chip_id = v.chip_id(chip_id)
        query = self.scope(chip_id=chip_id, qid=v.qid_or_coupling(qid) if qid is not None else None)

        if qid is not None:
            return sorted(self.plan.distinct_names(self.db["task_result_history"], query))
        # chip-wide: every usable output is merged into qubit/coupling.data, which is small on every engine
        # (a chip-wide distinct over the history decodes all of it on the embedded one)
        names = {p for data in self.all_qubit_params(chip_id).values() for p in data}
        return sorted(names | {p for data in self.all_coupling_params(chip_id).values() for p in data})


    # ---- counts over a window (read-only aggregations, grouped here in Python) ------------------------------
    @guarded
    def failure_counts(self, chip_id: str, *, by: Literal["name", "qid"] = "name",
                       since: datetime | None = None, until: datetime | None = None) -> dict[str, int]:
        """Failed task results per task name (or per qubit/coupling id), most first: every failure, never capped."""
        query = self.scope(chip_id=v.chip_id(chip_id), status="failed") | self._window("start_at", since, until)
        counts: dict[str, int] = defaultdict(int)
        for doc in self.db["task_result_history"].find(query, {"_id": 0, by: 1}):
            key = doc.get(by)
            if isinstance(key, str) and key:
                counts[key] += 1
        return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))

    @guarded
    def count_in_window(self, chip_id: str, what: Literal["failed tasks", "task results", "runs", "measurements"], *,
                        since: datetime | None = None, until: datetime | None = None, qid: str | None = None,
                        task_name: str | None = None, parameter: str | None = None) -> int:
        """One count of documents that started in ``[since, until)``, counted by the server (never capped):
        ``runs``: executions that started (any outcome; a scheduled one has not); ``task results``: finished task
        results (completed or failed: one document per task run per qubit or coupling); ``failed tasks``: those
        that failed; ``measurements``: completed, non-excluded results with a usable value of ``parameter``.
        ``qid`` (a qubit's or coupling's own results) and ``task_name`` narrow the task results."""
        window = self._window("start_at", since, until)
        if what == "runs":
            query = self.scope(chip_id=v.chip_id(chip_id)) | window | {"status": {"$ne": "scheduled"}}
            return int(self.db["execution_history"].count_documents(query))
        query = self.scope(chip_id=v.chip_id(chip_id), qid=v.qid_or_coupling(qid) if qid is not None else None,
                           name=v.task_name(task_name) if task_name is not None else None) | window
        if what == "failed tasks":
            return int(self.db["task_result_history"].count_documents(query | {"status": "failed"}))
        if what == "task results":
            return int(self.db["task_result_history"].count_documents(
                query | {"status": {"$in": ["completed", "failed"]}}))
        if parameter is None:
            raise InvalidArgument("counting measurements needs a parameter")
        name = v.name(parameter)
        query |= {"status": "completed", "excluded": {"$ne": True}, f"output_parameters.{name}": {"$exists": True}}
        docs = self.db["task_result_history"].find(query, {"_id": 0, f"output_parameters.{name}": 1})
        return sum(1 for doc in docs if stored_number(_param((doc.get("output_parameters") or {}).get(name))
                                                      .get("value")) is not None)
