"""A counting wrapper at the data layer's boundary: the engine ``Database`` (``copilot_core.data.engine``) with every
read the repository sends recorded, then passed on unchanged to the real engine underneath.

    counted = CountingDatabase(demo_db)
    repo = CalibrationRepository(counted, plan=plan_for(demo_db))
    ... run a turn ...
    counted.reads   # [("chip", "find"), ("execution_history", "find_one"), ...] in the order they were sent
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

READS = ("find", "find_one", "count_documents", "distinct", "aggregate")


class _CountingCollection:
    def __init__(self, inner: Any, reads: list[tuple[str, str]]) -> None:
        self._inner = inner
        self._reads = reads

    @property
    def name(self) -> str:
        return self._inner.name

    def __getattr__(self, attr: str) -> Any:
        found = getattr(self._inner, attr)
        if attr not in READS:
            return found

        def counted(*args: Any, **kwargs: Any) -> Any:
            self._reads.append((self._inner.name, attr))
            return found(*args, **kwargs)

        return counted


class CountingDatabase:
    """The engine's database; ``reads`` lists (collection, operation) for every read sent through it."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.reads: list[tuple[str, str]] = []

    @property
    def name(self) -> str:
        return self.inner.name

    def __getitem__(self, name: str) -> _CountingCollection:
        return _CountingCollection(self.inner[name], self.reads)

    def __getattr__(self, attr: str) -> Any:
        return getattr(self.inner, attr)

    def list_collection_names(self) -> list[str]:
        return self.inner.list_collection_names()

    def command(self, command: str) -> Any:
        return self.inner.command(command)

    def since(self, mark: int) -> Sequence[tuple[str, str]]:
        return self.reads[mark:]
