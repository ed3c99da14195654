"""How each engine runs the repository's history reads: one plan per engine, chosen once.

``MongoPlan`` lets a real MongoDB (6-8) do the work it is built for: server-side sort and limit
on QDash's indexes, ``$group``/``$first`` for "latest per qubit", ``distinct``.  ``EmbeddedPlan``
works around litemongo, which plans only equality filters with its hash indexes and sorts BSON
slowly: it walks the newest executions (indexed ``execution_id $in``) and sorts in Python.
Both return the same documents in the same order; the contract tests run on both.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from typing import Any

Doc = dict[str, Any]
Query = dict[str, Any]
Projection = dict[str, int]

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

    def ping(self, db: Any) -> None:
        raise NotImplementedError

    def history(self, coll: Any, query: Query, projection: Projection, limit: int = MAX_SCAN) -> list[Doc]:
        """Up to ``limit`` documents, newest first (start_at descending, task_id ascending on ties)."""
        raise NotImplementedError

    def task_docs(self, coll: Any, query: Query, projection: Projection, limit: int) -> list[Doc]:
        """The newest ``limit`` whole task documents (projection applied)."""
        raise NotImplementedError

    def recent_task_docs(self, coll: Any, query: Query, projection: Projection, limit: int,
                         executions: Callable[[], list[str]]) -> list[Doc]:
        """The newest ``limit`` task documents of a chip-wide query with no selective equality filter."""
        raise NotImplementedError

    def latest_per_id(self, coll: Any, query: Query, projection: Projection, *,
                      executions: Callable[[], list[str]], known_ids: Callable[[], set[str]]) -> list[Doc]:
        """The newest matching document of every ``qid`` (one each, newest first overall)."""
        raise NotImplementedError

    def window_hint(self, since: datetime, executions_since: Callable[[datetime], list[str]]) -> Query:
        """Extra filter that lets the engine use an index for a ``start_at >= since`` window."""
        raise NotImplementedError

    def distinct_names(self, coll: Any, query: Query, fallback: Callable[[], set[str]]) -> set[str]:
        """Distinct ``output_parameter_names`` of the matching history."""
        raise NotImplementedError


class MongoPlan(QueryPlan):
    """A real MongoDB server: sorting, limiting, grouping and distinct happen on the server."""

    name = "mongodb"

    def ping(self, db: Any) -> None:
        db.command("ping")

    def history(self, coll: Any, query: Query, projection: Projection, limit: int = MAX_SCAN) -> list[Doc]:
        if limit < MAX_SCAN:  # a true top-N on the (chip_id, name, qid, start_at) index
            return list(coll.find(query, projection).sort(NEWEST_FIRST).limit(limit))
        # whole-window reads: no server sort (it would need an in-memory sort of the window)
        return sorted(coll.find(query, projection).limit(MAX_SCAN), key=newest_key, reverse=True)

    def task_docs(self, coll: Any, query: Query, projection: Projection, limit: int) -> list[Doc]:
        return list(coll.find(query, projection).sort(NEWEST_FIRST).limit(limit))

    def recent_task_docs(self, coll: Any, query: Query, projection: Projection, limit: int,
                         executions: Callable[[], list[str]]) -> list[Doc]:
        return self.task_docs(coll, query, projection, limit)

    def latest_per_id(self, coll: Any, query: Query, projection: Projection, *,
                      executions: Callable[[], list[str]], known_ids: Callable[[], set[str]]) -> list[Doc]:
        pipeline = [{"$match": query}, {"$sort": dict(NEWEST_FIRST)}, {"$project": projection},
                    {"$group": {"_id": "$qid", "doc": {"$first": "$$ROOT"}}},
                    {"$replaceRoot": {"newRoot": "$doc"}}]
        docs = list(coll.aggregate(pipeline))
        return sorted(docs, key=newest_key, reverse=True)

    def window_hint(self, since: datetime, executions_since: Callable[[datetime], list[str]]) -> Query:
        return {}  # the start_at range uses the real index

    def distinct_names(self, coll: Any, query: Query, fallback: Callable[[], set[str]]) -> set[str]:
        return {n for n in coll.distinct("output_parameter_names", query) if isinstance(n, str)}


class EmbeddedPlan(QueryPlan):
    """litemongo: equality filters on hash indexes, Python-side sorts, executions walked newest first.

    Assumes, as QDash guarantees, that every result belongs to an execution and starts after it;
    a final unrestricted pass covers results without an execution document.
    """

    name = "embedded"
    embedded = True

    def ping(self, db: Any) -> None:
        db.list_collection_names()

    def history(self, coll: Any, query: Query, projection: Projection, limit: int = MAX_SCAN) -> list[Doc]:
        # sorting here is ~3x faster than litemongo's generic BSON sort
        return sorted(coll.find(query, projection).limit(MAX_SCAN), key=newest_key, reverse=True)[:limit]

    def task_docs(self, coll: Any, query: Query, projection: Projection, limit: int) -> list[Doc]:
        # pick the newest ids on a tiny projection, then fetch only those documents by indexed task_id
        keys = coll.find(query, {"_id": 0, "task_id": 1, "start_at": 1}).limit(MAX_SCAN)
        top = [d["task_id"] for d in sorted(keys, key=newest_key, reverse=True)[:limit]]
        if not top:
            return []
        docs = coll.find(query | {"task_id": {"$in": top}}, projection).limit(len(top))
        return sorted(docs, key=newest_key, reverse=True)

    def recent_task_docs(self, coll: Any, query: Query, projection: Projection, limit: int,
                         executions: Callable[[], list[str]]) -> list[Doc]:
        ids = executions()
        rows: list[Doc] = []
        start, size = 0, 1
        while start < len(ids) and len(rows) < limit:  # doubling batches of executions
            rows += self.task_docs(coll, query | {"execution_id": {"$in": ids[start:start + size]}}, projection,
                                   limit)
            start, size = start + size, size * 2
        if len(rows) < limit:
            rows = self.task_docs(coll, query, projection, limit)
        return sorted(rows, key=newest_key, reverse=True)[:limit]

    def latest_per_id(self, coll: Any, query: Query, projection: Projection, *,
                      executions: Callable[[], list[str]], known_ids: Callable[[], set[str]]) -> list[Doc]:
        # the two newest executions cover most ids; the whole history only for the rest
        rows = self.history(coll, query | {"execution_id": {"$in": executions()[:2]}}, projection)
        missing = sorted(known_ids() - {r["qid"] for r in rows if isinstance(r.get("qid"), str)})
        if missing:
            rows += self.history(coll, query | {"qid": {"$in": missing}}, projection)
        return _first_per_id(sorted(rows, key=newest_key, reverse=True))

    def window_hint(self, since: datetime, executions_since: Callable[[datetime], list[str]]) -> Query:
        # executions that can hold results after ``since`` (started up to a day before it)
        return {"execution_id": {"$in": executions_since(since - timedelta(days=1))}}

    def distinct_names(self, coll: Any, query: Query, fallback: Callable[[], set[str]]) -> set[str]:
        if "qid" in query:
            return {n for n in coll.distinct("output_parameter_names", query) if isinstance(n, str)}
        # a chip-wide distinct decodes the whole history (seconds); every usable output is merged
        # into qubit/coupling.data, so their keys are the same list in practice
        return fallback()
