"""How each engine runs the repository's history reads: one plan per engine, chosen once.

``MongoPlan`` lets a real MongoDB (6-8) do the work it is built for: server-side sort and limit
on QDash's indexes, ``$group``/``$first`` for "latest per qubit", ``distinct``.  ``EmbeddedPlan``
works around litemongo, which plans only equality filters with its hash indexes and sorts BSON
slowly: it walks the newest executions (indexed ``execution_id $in``) and sorts in Python.
Both return the same documents in the same order; the contract tests run on both.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypedDict

from copilot_core.data.engine import Collection, Database, Document as Doc
from copilot_core.data.scoped import unwrap
from copilot_core.data.serial import SerialDatabase

if TYPE_CHECKING:
    from copilot_core.data.warmup import IndexWarmUp

Query = dict[str, Any]  # a filter the repository builds (and narrows again, e.g. ``query["start_at"]["$gte"]``)
Projection = dict[str, int]


class Run(TypedDict):
    """One execution of a chip as the plans need it: results of a run start between its start and end."""

    execution_id: str
    start_at: datetime | None
    end_at: datetime | None  # None while it runs


Runs = Callable[[], list[Run]]  # the chip's runs, newest start first

MAX_SCAN = 500_000  # upper bound on history rows one read may touch (always limit the big collection)
NEWEST_FIRST = [("start_at", -1), ("task_id", 1)]


def newest_key(doc: Doc) -> tuple:
    """Sort key for Python-side sorts: start time, task id breaking ties as the server sort does."""
    start = doc.get("start_at")
    return (start if isinstance(start, datetime) else datetime.min, _Reversed(str(doc.get("task_id"))))


class _Reversed(str):
    """A string that sorts backwards, so ``sorted(..., reverse=True)`` keeps task ids ascending on ties."""

    def __lt__(self, other: str) -> bool:
        return str.__gt__(self, other)

    def __gt__(self, other: str) -> bool:
        return str.__lt__(self, other)


def _going_at(runs: list[Run], cutoff: datetime, read: set[str]) -> list[str]:
    """Runs not read yet that were still going at ``cutoff`` (or started after it): a run that started
    earlier than the newest ones can still hold a result newer than ``cutoff`` (a re-run overlaps it)."""
    return [r["execution_id"] for r in runs if r["execution_id"] not in read
            and (not isinstance(r["end_at"], datetime) or r["end_at"] >= cutoff)]


def _with_orphans(ids: list[str]) -> Query:
    """``execution_id`` in ``ids`` or absent: results without an execution are never skipped."""
    return {"execution_id": {"$in": [*ids, None]}}


def _start(doc: Doc) -> datetime:
    return newest_key(doc)[0]


def _first_per_id(docs: Iterable[Doc]) -> list[Doc]:
    seen: set[str] = set()
    out = []
    for doc in docs:
        qid = doc.get("qid")
        if isinstance(qid, str) and qid not in seen:
            seen.add(qid)
            out.append(doc)
    return out


class QueryPlan:
    """The reads whose best form differs between engines; every method returns newest-first documents."""

    name = "abstract"
    embedded = False

    def ping(self, db: Database) -> None:
        raise NotImplementedError

    def describe(self, db: Database) -> str:
        """Where ``db`` points, for error messages: host:port list and name, never credentials."""
        raise NotImplementedError

    def index_warm_up(self, db: Database) -> IndexWarmUp | None:
        """The engine's in-process index build to run before a person waits for it (None: the server has them)."""
        return None

    def history(self, coll: Collection, query: Query, projection: Projection, limit: int = MAX_SCAN) -> list[Doc]:
        """Up to ``limit`` documents, newest first (start_at descending, task_id ascending on ties)."""
        raise NotImplementedError

    def task_docs(self, coll: Collection, query: Query, projection: Projection, limit: int) -> list[Doc]:
        """The newest ``limit`` whole task documents (projection applied)."""
        raise NotImplementedError

    def recent_task_docs(self, coll: Collection, query: Query, projection: Projection, limit: int,
                         executions: Runs) -> list[Doc]:
        """The newest ``limit`` task documents of a chip-wide query with no selective equality filter."""
        raise NotImplementedError

    def latest_per_id(self, coll: Collection, query: Query, projection: Projection, *,
                      executions: Runs, known_ids: Callable[[], set[str]]) -> list[Doc]:
        """The newest matching document of every ``qid`` (one each, newest first overall)."""
        raise NotImplementedError

    def window_hint(self, since: datetime, executions: Runs) -> Query:
        """Extra filter that lets the engine use an index for a ``start_at >= since`` window; it never
        drops a document the window holds."""
        raise NotImplementedError

    def distinct_names(self, coll: Collection, query: Query) -> set[str]:
        """Distinct ``output_parameter_names`` of the matching history (a selective query: one qubit)."""
        raise NotImplementedError


class MongoPlan(QueryPlan):
    """A real MongoDB server: sorting, limiting, grouping and distinct happen on the server."""

    name = "mongodb"

    def ping(self, db: Database) -> None:
        db.command("ping")

    def describe(self, db: Database) -> str:
        from pymongo.database import Database as MongoDatabase

        raw, hosts = unwrap(db), "the configured host"
        try:
            if isinstance(raw, MongoDatabase):
                hosts = ",".join(f"{h}:{p}" for h, p in raw.client.topology_description.server_descriptions())
        except Exception:  # noqa: BLE001 - only used to word an error message
            pass
        return f"MongoDB at {hosts}/{db.name}"

    def history(self, coll: Collection, query: Query, projection: Projection, limit: int = MAX_SCAN) -> list[Doc]:
        if limit < MAX_SCAN:  # a true top-N on the (chip_id, name, qid, start_at) index
            return list(coll.find(query, projection).sort(NEWEST_FIRST).limit(limit))
        # whole-window reads: no server sort (it would need an in-memory sort of the window)
        return sorted(coll.find(query, projection).limit(MAX_SCAN), key=newest_key, reverse=True)

    def task_docs(self, coll: Collection, query: Query, projection: Projection, limit: int) -> list[Doc]:
        return list(coll.find(query, projection).sort(NEWEST_FIRST).limit(limit))

    def recent_task_docs(self, coll: Collection, query: Query, projection: Projection, limit: int,
                         executions: Runs) -> list[Doc]:
        return self.task_docs(coll, query, projection, limit)

    def latest_per_id(self, coll: Collection, query: Query, projection: Projection, *,
                      executions: Runs, known_ids: Callable[[], set[str]]) -> list[Doc]:
        pipeline = [{"$match": query}, {"$sort": dict(NEWEST_FIRST)}, {"$project": projection},
                    {"$group": {"_id": "$qid", "doc": {"$first": "$$ROOT"}}},
                    {"$replaceRoot": {"newRoot": "$doc"}}]
        docs = list(coll.aggregate(pipeline))
        return sorted(docs, key=newest_key, reverse=True)

    def window_hint(self, since: datetime, executions: Runs) -> Query:
        return {}  # the start_at range uses the real index

    def distinct_names(self, coll: Collection, query: Query) -> set[str]:
        return {n for n in coll.distinct("output_parameter_names", query) if isinstance(n, str)}


class EmbeddedPlan(QueryPlan):
    """litemongo: equality filters on hash indexes, Python-side sorts, executions walked newest first.

    Assumes, as QDash guarantees, that a result starts while its execution runs (between the execution's
    start and end); runs overlap (a re-run starts before the previous run ends), so every shortcut
    also reads the runs still going at its cutoff and the results without an ``execution_id``.
    """

    name = "embedded"
    embedded = True

    def ping(self, db: Database) -> None:
        db.list_collection_names()

    def describe(self, db: Database) -> str:
        return f"the embedded database ({db.name})"

    def index_warm_up(self, db: Database) -> IndexWarmUp | None:
        from copilot_core.data.warmup import IndexWarmUp

        raw = unwrap(db)
        return IndexWarmUp(raw) if isinstance(raw, SerialDatabase) else None

    def history(self, coll: Collection, query: Query, projection: Projection, limit: int = MAX_SCAN) -> list[Doc]:
        # sorting here is ~3x faster than litemongo's generic BSON sort
        return sorted(coll.find(query, projection).limit(MAX_SCAN), key=newest_key, reverse=True)[:limit]

    def task_docs(self, coll: Collection, query: Query, projection: Projection, limit: int) -> list[Doc]:
        # pick the newest ids on a tiny projection, then fetch only those documents by indexed task_id
        keys = coll.find(query, {"_id": 0, "task_id": 1, "start_at": 1}).limit(MAX_SCAN)
        top = [d["task_id"] for d in sorted(keys, key=newest_key, reverse=True)[:limit]]
        if not top:
            return []
        docs = coll.find(query | {"task_id": {"$in": top}}, projection).limit(len(top))
        return sorted(docs, key=newest_key, reverse=True)

    def recent_task_docs(self, coll: Collection, query: Query, projection: Projection, limit: int,
                         executions: Runs) -> list[Doc]:
        runs = executions()
        ids = [r["execution_id"] for r in runs]
        read: set[str] = set()
        rows: list[Doc] = []
        start, size = 0, 1
        while start < len(ids) and len(rows) < limit:  # doubling batches of executions
            batch = ids[start:start + size]
            read.update(batch)
            rows += self.task_docs(coll, query | {"execution_id": {"$in": batch}}, projection, limit)
            start, size = start + size, size * 2
        if len(rows) < limit:
            return self.task_docs(coll, query, projection, limit)
        rows = sorted(rows, key=newest_key, reverse=True)[:limit]
        rows += self.task_docs(coll, query | _with_orphans(_going_at(runs, _start(rows[-1]), read)), projection,
                               limit)
        return sorted(rows, key=newest_key, reverse=True)[:limit]

    def latest_per_id(self, coll: Collection, query: Query, projection: Projection, *,
                      executions: Runs, known_ids: Callable[[], set[str]]) -> list[Doc]:
        # the two newest executions cover most ids; runs still going then and results without a run may
        # hold newer ones; the whole history only for the ids still missing
        runs = executions()
        read = {r["execution_id"] for r in runs[:2]}
        rows = self.history(coll, query | {"execution_id": {"$in": sorted(read)}}, projection)
        found = _first_per_id(sorted(rows, key=newest_key, reverse=True))
        if found:
            cutoff = min(_start(d) for d in found)
            rows += self.history(coll, query | _with_orphans(_going_at(runs, cutoff, read)), projection)
        missing = sorted(known_ids() - {r["qid"] for r in rows if isinstance(r.get("qid"), str)})
        if missing:
            rows += self.history(coll, query | {"qid": {"$in": missing}}, projection)
        return _first_per_id(sorted(rows, key=newest_key, reverse=True))

    def window_hint(self, since: datetime, executions: Runs) -> Query:
        # executions that can hold results after ``since``: still going then, or started later
        return _with_orphans(_going_at(executions(), since, set()))

    def distinct_names(self, coll: Collection, query: Query) -> set[str]:
        return {n for n in coll.distinct("output_parameter_names", query) if isinstance(n, str)}


def plan_for(db: Database) -> QueryPlan:
    """The engine's plan, chosen once per repository: ``EmbeddedPlan`` for litemongo, else ``MongoPlan``."""
    return EmbeddedPlan() if isinstance(unwrap(db), SerialDatabase) else MongoPlan()
