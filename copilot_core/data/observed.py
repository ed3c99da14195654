"""Who is watching what the database hands back: every read of a repository returns ``seen(result)``, which
passes the result to the observer set for the current context, so the tools can tell database text from their own
by where it came from, whatever its type or field (``copilot_core.tools.taint``).  A context variable, not an
attribute: one repository serves every session's threads at once."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TypeVar

T = TypeVar("T")
Observer = Callable[[object], None]
_OBSERVER: ContextVar[Observer | None] = ContextVar("database_observer", default=None)


@contextmanager
def observed(observer: Observer) -> Iterator[None]:
    """Within the block, every repository read of this context is shown to ``observer``."""
    token = _OBSERVER.set(observer)
    try:
        yield
    finally:
        _OBSERVER.reset(token)


def seen(result: T) -> T:
    """A read's result, handed to the current observer first, if any."""
    observer = _OBSERVER.get()
    if observer is not None:
        observer(result)
    return result
