"""One chat turn on a worker thread, so the page's own thread stays free to draw progress and to notice the stop
button at once (Streamlit only sees a stop between two page updates, and a model call or a sandbox job may
block for a minute).

The worker's listener events, streamed text included, go into a queue; the page thread drains it with
:meth:`BackgroundTurn.pump`.  When the user stops, :meth:`BackgroundTurn.stop` cancels the turn (the model stream
is closed, a running sandbox job killed).  However the turn ends (answered, stopped, failed), the worker stores
the chat once, before it tells the page the turn is over: a stopped answer is saved even when the page run has
already ended, and a finished one before the page shows it.  A failed save does not raise: it is kept in
``save_failure`` for the page to say so.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from copilot_core.agent.contracts import SilentListener, TurnListener
from copilot_core.cancel import CancelToken
from copilot_core.chat.state import ChatState
from copilot_core.data.chat_sessions import ChatSessionStore
from copilot_core.sandbox.fairshare import current_session, session_scope

log = logging.getLogger(__name__)
T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)
TICK_S = 0.1  # how often the page thread looks for a stop while nothing arrives
FRAME_S = 0.1  # after showing events, the page gathers what arrives for this long before it shows again


@dataclass(frozen=True)
class TurnEvent:
    """Something the page shows: ``kind`` is a TurnListener method name or ``draft`` (the answer so far)."""

    kind: str
    args: tuple[Any, ...] = ()


class QueueListener(SilentListener):
    """A TurnListener (and stream callback) that only queues events for the page thread."""

    def __init__(self, events: queue.Queue[TurnEvent | None]) -> None:
        self.events = events

    def phase(self, text: str) -> None:
        self.events.put(TurnEvent("phase", (text,)))

    def notice(self, text: str) -> None:
        self.events.put(TurnEvent("notice", (text,)))

    def tool_call(self, name: str, args: dict) -> None:
        self.events.put(TurnEvent("tool_call", (name, dict(args))))

    def tool_result(self, outcome: object) -> None:
        self.events.put(TurnEvent("tool_result", (outcome,)))

    def draft(self, text: str) -> None:
        self.events.put(TurnEvent("draft", (text,)))

    def report(self, markdown: str) -> None:
        """The analysed qubit's report, shown before the model's review (``agent.qubit_review.ReportListener``)."""
        self.events.put(TurnEvent("report", (markdown,)))


class TurnWork(Protocol[T_co]):
    """What a background turn runs: the turn service's ``ask`` with its question bound (``functools.partial``)."""

    def __call__(self, listener: TurnListener, /, *, stream: Callable[[str], None], cancel: CancelToken) -> T_co: ...


class BackgroundTurn(threading.Thread, Generic[T]):
    """``work(listener, stream=, cancel=)`` on a daemon thread the page starts (:meth:`start`); ``chat`` is stored
    in ``store`` when the turn ends (no store, or a chat without messages: nothing is written).  See the module
    docstring."""

    def __init__(self, work: TurnWork[T], chat: ChatState, store: ChatSessionStore | None) -> None:
        super().__init__(name="copilot-turn", daemon=True)
        self.cancel = CancelToken()
        self.events: queue.Queue[TurnEvent | None] = queue.Queue()
        self.result: T | None = None
        self.failure: BaseException | None = None
        self.save_failure: Exception | None = None  # the store's error when the chat could not be saved
        self._work = work
        self._chat = chat
        self._store = store
        self._listener = QueueListener(self.events)
        self._session = current_session()  # the page thread's chat: the turn's sandbox jobs count against it

    def run(self) -> None:
        listener, chat, store = self._listener, self._chat, self._store
        try:
            with session_scope(self._session):
                self.result = self._work(listener, stream=listener.draft, cancel=self.cancel)
        except BaseException as exc:  # noqa: BLE001  (handed to the page thread, which shows it)
            self.failure = exc
        finally:
            try:
                if store is not None and chat.messages:
                    store.save(chat.username, chat.session_id, **chat.document_fields())
            except Exception as exc:  # noqa: BLE001  (the page says so; the chat stays in memory)
                self.save_failure = exc
                log.warning("could not store the chat", exc_info=True)
            finally:
                self.events.put(None)  # the page always hears the end

    @property
    def running(self) -> bool:
        return self.is_alive()

    def pump(self, show: Callable[[list[TurnEvent]], None], check: Callable[[], None]) -> T | None:
        """Show events as they come until the turn ends; ``check`` raises when the page must stop (it runs at
        least every ``TICK_S``).  The first event is shown at once; after a show, what arrives within
        ``FRAME_S`` is shown together in one call (the page draws only the newest draft and status label), so
        a fast model or a streamed answer costs the browser a few updates a second, not one per event.  The
        turn's end is shown at once.  The worker's own failure is raised here."""
        batch: list[TurnEvent | None] = []
        next_show = 0.0
        while True:
            check()
            wait = TICK_S if not batch else min(TICK_S, max(0.0, next_show - time.monotonic()))
            try:
                batch.append(self.events.get(timeout=wait) if wait > 0 else self.events.get_nowait())
                while True:
                    batch.append(self.events.get_nowait())
            except queue.Empty:
                pass
            done = None in batch
            if not batch or not (done or time.monotonic() >= next_show):
                continue
            shown = [e for e in batch if e is not None]
            batch = []
            if shown:
                show(shown)
                next_show = time.monotonic() + FRAME_S
            if done:
                if self.failure is not None:
                    raise self.failure
                return self.result

    def stop(self, grace_s: float = 5.0) -> bool:
        """Cancel the turn and wait up to ``grace_s`` for it to end; True when it did (the worker stores the chat
        when it ends, now or later)."""
        self.cancel.cancel()
        self.join(grace_s)
        return not self.is_alive()

    def wait(self, timeout_s: float) -> bool:
        self.join(timeout_s)
        return not self.is_alive()
