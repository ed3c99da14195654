"""Driver errors of a read become one clear ``DatabaseUnavailable`` naming the host.

Every public read of the repository runs its body in ``with driver_errors(self):`` and returns ``seen(result)``
(``observed.py``): a block, not a wrapper, so no frame stands between a read and its caller
(``tests/data/test_read_guard.py`` holds every read to it)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Protocol

from copilot_core.data.connection import DatabaseUnavailable
from copilot_core.data.engine import Database
from copilot_core.data.plans import QueryPlan


class _Reader(Protocol):
    db: Database
    plan: QueryPlan


@contextmanager
def driver_errors(reader: _Reader) -> Iterator[None]:
    """Within the block, a driver error of ``reader`` (it has the ``db`` it reads and its engine's ``plan``) becomes
    ``DatabaseUnavailable`` naming the host (never a traceback)."""
    from pymongo.errors import PyMongoError

    try:
        yield
    except PyMongoError as exc:
        raise DatabaseUnavailable(
            f"cannot read from {reader.plan.describe(reader.db)} ({type(exc).__name__}). Check that the server "
            "is running and reachable, and the MONGODB_URI user, password and database name.") from None
