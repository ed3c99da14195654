"""A ``Database`` that adds the project scope to every query on QDash's project-scoped collections.

QDash keys its calibration data by ``project_id``; a repository opened for one project must never read
another's documents.  Instead of trusting every filter to start with the scope, the repository reads
through this wrapper: ``find``, ``find_one``, ``count_documents``, ``distinct`` and ``aggregate`` (a leading
``$match``) on a scoped collection always carry ``project_id``; writes (chat sessions, memory) stamp it and
only touch the project's own documents.  Anything else a caller asks of a scoped collection is refused.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from copilot_core.data.engine import Collection, Cursor, Database, Deleted, Document, Filter, Projection, SortSpec, \
    Updated

# QDash collections whose documents belong to one project (its project-scoped unique keys), and this app's
# chats (shared with QDash) and memory.
SCOPED_COLLECTIONS = frozenset({
    "chip", "qubit", "coupling", "task_result_history", "execution_history", "calibration_note",
    "parameter_versions", "provenance_activities", "provenance_relations", "chip_history", "qubit_history",
    "coupling_history", "execution_counter", "copilot_chat_session", "copilot_memory",
})
# QDash keeps its chats per user, with no project field: a chat without ``project_id`` is read in every project
# but written in none (updates and deletes match only the project's own documents: such a chat is continued in a
# copy, ``ChatSessionStore.read_only``); a chat this app creates is stamped with the project.
SHARED_WHEN_UNSCOPED = frozenset({"copilot_chat_session"})
# Index management passes through unchanged (it reads no documents).
_PASS_THROUGH = frozenset({"create_index", "create_indexes", "index_information", "list_indexes", "name",
                           "full_name", "database"})


class ScopeError(RuntimeError):
    """A caller asked a scoped collection for something the wrapper cannot scope (a programming error)."""


def _scoped_filter(query: Mapping[str, object] | None, project_id: str, scope: object = None) -> Document:
    """``query`` limited to the project (``scope``: the project condition, when it is not equality)."""
    query = dict(query or {})
    if "project_id" in query and query["project_id"] != project_id:
        raise ScopeError(f"query names another project ({query['project_id']!r})")
    return query | {"project_id": project_id if scope is None else scope}


class ScopedCollection:
    """One project-scoped collection: the pymongo calls the app makes, each with the project added."""

    def __init__(self, collection: Collection, project_id: str) -> None:
        self._coll = collection
        self.project_id = project_id
        self._scope: object = ({"$in": [project_id, None]} if collection.name in SHARED_WHEN_UNSCOPED
                               else project_id)

    def _filter(self, query: Mapping[str, object] | None) -> Document:
        return _scoped_filter(query, self.project_id, self._scope)

    @property
    def name(self) -> str:
        return self._coll.name

    def find(self, filter: Filter | None = None, projection: Projection | None = None, /) -> Cursor:  # noqa: A002
        return self._coll.find(self._filter(filter), projection)

    def find_one(self, filter: Filter | None = None, projection: Projection | None = None, /, *,  # noqa: A002
                 sort: SortSpec | None = None) -> Document | None:
        return self._coll.find_one(self._filter(filter), projection, sort=sort)

    def count_documents(self, filter: Filter, /) -> int:  # noqa: A002
        return int(self._coll.count_documents(self._filter(filter)))

    def distinct(self, key: str, filter: Filter | None = None, /) -> list[object]:  # noqa: A002
        return list(self._coll.distinct(key, self._filter(filter)))

    def aggregate(self, pipeline: Sequence[Filter], /) -> Iterator[Document]:
        return self._coll.aggregate([{"$match": {"project_id": self._scope}}, *pipeline])

    def insert_one(self, document: Document, /) -> object:
        return self._coll.insert_one(_scoped_filter(document, self.project_id))

    def insert_many(self, documents: list[Document], /, *, ordered: bool = True) -> object:
        return self._coll.insert_many([_scoped_filter(d, self.project_id) for d in documents], ordered=ordered)

    def update_one(self, filter: Filter, update: Filter, /) -> Updated:  # noqa: A002
        return self._coll.update_one(_scoped_filter(filter, self.project_id), update)

    def update_many(self, filter: Filter, update: Filter, /) -> Updated:  # noqa: A002
        return self._coll.update_many(_scoped_filter(filter, self.project_id), update)

    def delete_one(self, filter: Filter, /) -> Deleted:  # noqa: A002
        return self._coll.delete_one(_scoped_filter(filter, self.project_id))

    def delete_many(self, filter: Filter, /) -> Deleted:  # noqa: A002
        return self._coll.delete_many(_scoped_filter(filter, self.project_id))

    def create_index(self, keys: SortSpec, /, *, unique: bool = False) -> str:
        return self._coll.create_index(keys, unique=unique)

    def __getattr__(self, name: str) -> object:
        if name in _PASS_THROUGH:
            return getattr(self._coll, name)
        raise ScopeError(f"{name} is not available on the project-scoped collection {self._coll.name!r}")


class ScopedDatabase:
    """``db[name]`` is scoped for QDash's project-scoped collections; other collections and database-level
    calls (``command``, ``list_collection_names``, ``close``) go to the wrapped ``Database``."""

    def __init__(self, db: Database, project_id: str) -> None:
        self.raw = db
        self.project_id = project_id

    @property
    def name(self) -> str:
        return self.raw.name

    def __getitem__(self, name: str, /) -> Collection:
        collection = self.raw[name]
        return ScopedCollection(collection, self.project_id) if name in SCOPED_COLLECTIONS else collection

    def get_collection(self, name: str) -> Collection:
        return self[name]

    def list_collection_names(self) -> list[str]:
        return self.raw.list_collection_names()

    def command(self, command: str, /) -> Document:
        return self.raw.command(command)

    def __getattr__(self, name: str) -> object:
        return getattr(self.raw, name)


def scoped(db: Database, project_id: str | None) -> Database:
    """``db`` scoped to ``project_id``; unchanged when there is no project (every project is visible)."""
    if project_id is None or isinstance(db, ScopedDatabase):
        return db
    return ScopedDatabase(db, project_id)


def unwrap(db: Database) -> Database:
    """The engine's own ``Database`` behind a scoped one (for engine checks and messages)."""
    return db.raw if isinstance(db, ScopedDatabase) else db
