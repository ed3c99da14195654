"""A ``Database`` that adds the project scope to every query on QDash's project-scoped collections.

QDash keys its calibration data by ``project_id``; a repository opened for one project must never read
another's documents.  Instead of trusting every filter to start with the scope, the repository reads
through this wrapper: ``find``, ``find_one``, ``count_documents``, ``distinct`` and ``aggregate`` (a leading
``$match``) on a scoped collection always carry ``project_id``; writes (chat sessions, memory) stamp it and
only touch the project's own documents.  Anything else a caller asks of a scoped collection is refused.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

# QDash collections whose documents belong to one project (its project-scoped unique keys), and this app's
# chats (shared with QDash) and memory.
SCOPED_COLLECTIONS = frozenset({
    "chip", "qubit", "coupling", "task_result_history", "execution_history", "calibration_note",
    "parameter_versions", "provenance_activities", "provenance_relations", "chip_history", "qubit_history",
    "coupling_history", "execution_counter", "copilot_chat_session", "copilot_memory",
})
# Index management passes through unchanged (it reads no documents).
_PASS_THROUGH = frozenset({"create_index", "create_indexes", "index_information", "list_indexes", "name",
                           "full_name", "database"})


class ScopeError(RuntimeError):
    """A caller asked a scoped collection for something the wrapper cannot scope (a programming error)."""


def _scoped_filter(query: Mapping[str, Any] | None, project_id: str) -> dict[str, Any]:
    query = dict(query or {})
    if "project_id" in query and query["project_id"] != project_id:
        raise ScopeError(f"query names another project ({query['project_id']!r})")
    return query | {"project_id": project_id}


class ScopedCollection:
    """One project-scoped collection: the pymongo calls the app makes, each with the project added."""

    def __init__(self, collection: Any, project_id: str) -> None:
        self._coll = collection
        self.project_id = project_id

    def find(self, filter: Mapping[str, Any] | None = None, *args: Any, **kwargs: Any) -> Any:  # noqa: A002
        return self._coll.find(_scoped_filter(filter, self.project_id), *args, **kwargs)

    def find_one(self, filter: Mapping[str, Any] | None = None, *args: Any, **kwargs: Any) -> Any:  # noqa: A002
        return self._coll.find_one(_scoped_filter(filter, self.project_id), *args, **kwargs)

    def count_documents(self, filter: Mapping[str, Any], **kwargs: Any) -> int:  # noqa: A002
        return int(self._coll.count_documents(_scoped_filter(filter, self.project_id), **kwargs))

    def distinct(self, key: str, filter: Mapping[str, Any] | None = None, **kwargs: Any) -> list[Any]:  # noqa: A002
        return list(self._coll.distinct(key, _scoped_filter(filter, self.project_id), **kwargs))

    def aggregate(self, pipeline: Sequence[Mapping[str, Any]], **kwargs: Any) -> Any:
        return self._coll.aggregate([{"$match": {"project_id": self.project_id}}, *pipeline], **kwargs)

    def insert_one(self, document: Mapping[str, Any], **kwargs: Any) -> Any:
        return self._coll.insert_one(_scoped_filter(document, self.project_id), **kwargs)

    def insert_many(self, documents: Sequence[Mapping[str, Any]], **kwargs: Any) -> Any:
        return self._coll.insert_many([_scoped_filter(d, self.project_id) for d in documents], **kwargs)

    def update_one(self, filter: Mapping[str, Any], update: Any, **kwargs: Any) -> Any:  # noqa: A002
        return self._coll.update_one(_scoped_filter(filter, self.project_id), update, **kwargs)

    def delete_one(self, filter: Mapping[str, Any], **kwargs: Any) -> Any:  # noqa: A002
        return self._coll.delete_one(_scoped_filter(filter, self.project_id), **kwargs)

    def delete_many(self, filter: Mapping[str, Any], **kwargs: Any) -> Any:  # noqa: A002
        return self._coll.delete_many(_scoped_filter(filter, self.project_id), **kwargs)

    def __getattr__(self, name: str) -> Any:
        if name in _PASS_THROUGH:
            return getattr(self._coll, name)
        raise ScopeError(f"{name} is not available on the project-scoped collection {self._coll.name!r}")


class ScopedDatabase:
    """``db[name]`` is scoped for QDash's project-scoped collections; other collections and database-level
    calls (``command``, ``list_collection_names``, ``close``) go to the wrapped ``Database``."""

    def __init__(self, db: Any, project_id: str) -> None:
        self.raw = db
        self.project_id = project_id

    def __getitem__(self, name: str) -> Any:
        collection = self.raw[name]
        return ScopedCollection(collection, self.project_id) if name in SCOPED_COLLECTIONS else collection

    def get_collection(self, name: str) -> Any:
        return self[name]

    def __getattr__(self, name: str) -> Any:
        return getattr(self.raw, name)


def scoped(db: Any, project_id: str | None) -> Any:
    """``db`` scoped to ``project_id``; unchanged when there is no project (every project is visible)."""
    if project_id is None or isinstance(db, ScopedDatabase):
        return db
    return ScopedDatabase(db, project_id)


def unwrap(db: Any) -> Any:
    """The engine's own ``Database`` behind a scoped one (for engine checks and messages)."""
    return db.raw if isinstance(db, ScopedDatabase) else db
