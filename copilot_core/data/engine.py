"""The database surface the data layer speaks: the pymongo calls it makes, as Protocols.

pymongo (a real MongoDB), litemongo behind ``serial.SerialDatabase`` (the embedded store), mongomock (tests)
and ``scoped.ScopedDatabase`` (the project scope) all satisfy them, so the plans, the repository and the
stores are written once against this surface and type-checked against it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

# A stored document as the engine returns it: its fields are untrusted and read with isinstance checks.
Document = dict[str, Any]
Filter = Mapping[str, object]
Projection = Mapping[str, int]
SortSpec = Sequence[tuple[str, int]]


class Updated(Protocol):
    @property
    def matched_count(self) -> int: ...


class Deleted(Protocol):
    @property
    def deleted_count(self) -> int: ...


@runtime_checkable
class Cursor(Protocol):
    """``find``'s result: sort and limit chain, iteration yields documents."""

    def sort(self, key_or_list: SortSpec, /) -> Cursor: ...

    def limit(self, limit: int, /) -> Cursor: ...

    def __iter__(self) -> Iterator[Document]: ...


@runtime_checkable
class Collection(Protocol):
    """The collection calls the data layer makes (reads; the stores' writes; index creation)."""

    @property
    def name(self) -> str: ...

    def find(self, filter: Filter | None = None, projection: Projection | None = None, /) -> Cursor: ...  # noqa: A002

    def find_one(self, filter: Filter | None = None, projection: Projection | None = None, /, *,  # noqa: A002
                 sort: SortSpec | None = None) -> Document | None: ...

    def count_documents(self, filter: Filter, /) -> int: ...  # noqa: A002

    def distinct(self, key: str, filter: Filter | None = None, /) -> list[object]: ...  # noqa: A002

    def aggregate(self, pipeline: Sequence[Filter], /) -> Iterator[Document]: ...

    def insert_one(self, document: Document, /) -> object: ...

    def insert_many(self, documents: list[Document], /, *, ordered: bool = True) -> object: ...

    def update_one(self, filter: Filter, update: Filter, /) -> Updated: ...  # noqa: A002

    def update_many(self, filter: Filter, update: Filter, /) -> Updated: ...  # noqa: A002

    def delete_one(self, filter: Filter, /) -> Deleted: ...  # noqa: A002

    def delete_many(self, filter: Filter, /) -> Deleted: ...  # noqa: A002

    def create_index(self, keys: SortSpec, /, *, unique: bool = False) -> str: ...


@runtime_checkable
class Database(Protocol):
    """A pymongo-API database: collections by name, a name for messages."""

    @property
    def name(self) -> str: ...

    def __getitem__(self, name: str, /) -> Collection: ...

    def list_collection_names(self) -> list[str]: ...

    def command(self, command: str, /) -> Document: ...
