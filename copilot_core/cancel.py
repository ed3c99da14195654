"""Stopping a running turn from another thread: the page's stop button sets the token, and whatever the turn is
blocked in (a streamed model answer, a sandbox job) is closed by the hook it registered.

A flag alone would only be seen between steps; a minute-long model call or a looping sandbox job must be ended
where it blocks, so each blocking step registers a hook for the time it runs.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from copilot_core.errors import CopilotError

log = logging.getLogger(__name__)
STOPPED_MESSAGE = "Stopped by the user."


class TurnCancelled(CopilotError):
    """The user stopped the turn."""

    def __init__(self, message: str = STOPPED_MESSAGE) -> None:
        super().__init__(message)


class CancelToken:
    """Set once by :meth:`cancel`; blocking steps register hooks that end them (called at most once each)."""

    def __init__(self) -> None:
        self._event = threading.Event()
        self._lock = threading.Lock()
        self._hooks: dict[int, Callable[[], None]] = {}
        self._next = 0

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()

    def cancel(self) -> None:
        """Stop the turn: run every registered hook now (from the caller's thread)."""
        with self._lock:
            self._event.set()
            hooks, self._hooks = list(self._hooks.values()), {}
        for hook in hooks:
            _call(hook)

    def check(self) -> None:
        """Raise :class:`TurnCancelled` when the turn was stopped."""
        if self.cancelled:
            raise TurnCancelled()

    @contextmanager
    def hook(self, on_cancel: Callable[[], None]) -> Iterator[None]:
        """Run ``on_cancel`` if the turn is stopped while the block runs (at once if it already was)."""
        with self._lock:
            key = self._next
            self._next += 1
            if not self._event.is_set():
                self._hooks[key] = on_cancel
                registered = True
            else:
                registered = False
        if not registered:
            _call(on_cancel)
        try:
            yield
        finally:
            with self._lock:
                self._hooks.pop(key, None)


def _call(hook: Callable[[], None]) -> None:
    try:
        hook()
    except Exception:  # noqa: BLE001  (closing a stream that already ended may fail; the turn still stops)
        log.debug("cancel hook failed", exc_info=True)
