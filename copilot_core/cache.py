"""Per-request tool cache: the same tool with the same arguments runs once (AXIS's per-turn cache).

``CachingToolkit(toolkit)`` wraps any :class:`~copilot_core.tools.toolkit.ToolLayer` so the agent loop is
unchanged.  Keys are the tool name plus the arguments as canonical JSON; after a call, the tool's normalised
arguments (``"Q05"`` -> ``"5"``) are registered too, so both spellings hit.  Only successful outcomes are
cached (a failure may be transient), only tools whose ``ToolSpec.cacheable`` is set (not the sandbox: the
data store can change between calls), and a hit carries no charts, so the answer does not get the same chart
twice.
"""

from __future__ import annotations

import dataclasses
import json
import threading

from copilot_core.agent.contracts import Tracer
from copilot_core.tools.registry import cacheable
from copilot_core.tools.toolkit import ToolLayer, ToolOutcome


def cache_key(name: str, args: object) -> str | None:
    """``name`` + canonical JSON of the arguments; None when the arguments are not a JSON object."""
    if isinstance(args, str):
        try:
            args = json.loads(args) if args.strip() else {}
        except ValueError:
            return None
    if args is None:
        args = {}
    if not isinstance(args, dict):
        return None
    try:
        return f"{name}:" + json.dumps(args, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    except (TypeError, ValueError):
        return None


class CachingToolkit:
    """A toolkit whose ``execute`` answers repeated calls from memory within one request."""

    def __init__(self, toolkit: ToolLayer, *, tracer: Tracer | None = None) -> None:
        self.inner = toolkit
        self.tracer = tracer
        self.hits = 0
        self.misses = 0
        self._cache: dict[str, ToolOutcome] = {}
        self._lock = threading.Lock()

    def schemas(self) -> list[dict]:
        return self.inner.schemas()

    def names(self) -> list[str]:
        return self.inner.names()

    def begin_request(self, chip_id: str | None = None) -> None:
        """New request: forget every cached result, reset the counters, reset the wrapped toolkit."""
        with self._lock:
            self._cache.clear()
            self.hits = self.misses = 0
        self.inner.begin_request(chip_id)

    def execute(self, name: str, raw_args: str | dict | None) -> ToolOutcome:
        key = cache_key(name, raw_args) if cacheable(name) else None
        if key is not None:
            with self._lock:
                cached = self._cache.get(key)
                if cached is not None:
                    self.hits += 1
            if cached is not None:
                if self.tracer is not None:
                    self.tracer.event("cache_hit", tool=name)
                return dataclasses.replace(cached, charts=[], elapsed_s=0.0,
                                           summary=f"{cached.summary} (cached)")
        outcome = self.inner.execute(name, raw_args)
        if key is not None:
            with self._lock:
                self.misses += 1
                if outcome.ok:
                    self._cache[key] = outcome
                    normalised = cache_key(name, outcome.args)
                    if normalised is not None:
                        self._cache.setdefault(normalised, outcome)
        return outcome
