"""Driver errors of a read become one clear ``DatabaseUnavailable`` naming the host."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Concatenate, ParamSpec, Protocol, TypeVar

from copilot_core.data.connection import DatabaseUnavailable
from copilot_core.data.engine import Database
from copilot_core.data.observed import seen
from copilot_core.data.plans import QueryPlan

P = ParamSpec("P")
R = TypeVar("R")


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
