"""What surrounds one copilot turn (issue 7): skills and memory in the prompt, the memory tool, the
per-request tool cache and the tracer before ``run_copilot``; learning and the trace summary after.

The chat page, the CLI and the eval harness call this one place, so they wire the turn the same way::

    extras = TurnExtras.from_settings(settings, db)            # once per process (cache it)
    kit = extras.start(message, history=h, chip_id=c, toolkit=toolkit, provider=provider)
    result = run_copilot(request, provider=provider, toolkit=kit.toolkit, repo=repo,
                         tracer=kit.tracer, prompt_extras=kit.prompt_extras)
    trace_summary = extras.finish(kit, result)               # learn into memory, close the trace
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from copilot_core.cache import CachingToolkit
from copilot_core.memory import CopilotMemory, MemoryToolkit
from copilot_core.skills import SkillLibrary
from copilot_core.tracing import Tracer

log = logging.getLogger(__name__)


@dataclass
class TurnKit:
    toolkit: Any  # the toolkit to pass to run_copilot (memory tool + per-request cache around yours)
    tracer: Tracer
    prompt_extras: list[str]
    skills: list[str] = field(default_factory=list)  # names of the skills injected (for show-work)
    chip_id: str | None = None


class TurnExtras:
    """Process-wide services (skills, memory, trace settings); cheap ``start``/``finish`` per turn."""

    def __init__(self, *, skills: SkillLibrary, memory: CopilotMemory | None = None, settings: Any = None,
                 trace_dir: str | None = None) -> None:
        self.skills = skills
        self.memory = memory
        self.settings = settings
        self.trace_dir = trace_dir

    @classmethod
    def from_settings(cls, settings: Any, db: Any = None) -> TurnExtras:
        """Skills from the built-in + site folder; memory on ``db`` (the repository's Database) unless
        ``COPILOT_MEMORY=off``; traces per ``Tracer.from_settings``."""
        memory = None
        if db is not None and (settings.get("COPILOT_MEMORY") or "on").lower() not in ("off", "false", "0", "no"):
            from copilot_core.data.memory_store import MemoryStore

            memory = CopilotMemory(MemoryStore(db, project_id=settings.project_id))
        return cls(skills=SkillLibrary.from_settings(settings), memory=memory, settings=settings)

    def start(self, message: str, *, toolkit: Any, history: Iterable[dict] = (), chip_id: str | None = None,
              provider: Any = None, tracer: Tracer | None = None, **trace_attrs: Any) -> TurnKit:
        """Prompt extras for this message, the wrapped toolkit, and a fresh tracer.  Never raises for
        memory problems (the turn then runs without memory)."""
        history = list(history)
        chosen = [m.skill for m in self.skills.select(message, history)]
        extras = self.skills.prompt_extras(message, history) if chosen else []
        uses_tools = bool(toolkit.schemas())  # readiness "none": no tools, so no memory tool either
        if self.memory is not None and chip_id:
            try:
                extras += self.memory.prompt_extras(chip_id, recall_tool=uses_tools)
            except Exception:  # noqa: BLE001 - memory is a nicety; the answer must still come
                log.exception("memory unavailable for chip %s", chip_id)
        if tracer is None:
            tracer = self._tracer(provider, chip_id=chip_id, skills=",".join(s.name for s in chosen), **trace_attrs)
        wrapped = MemoryToolkit(toolkit, self.memory) if self.memory is not None and uses_tools else toolkit
        return TurnKit(toolkit=CachingToolkit(wrapped, tracer=tracer), tracer=tracer, prompt_extras=extras,
                       skills=[s.name for s in chosen], chip_id=chip_id)

    def _tracer(self, provider: Any, **attrs: Any) -> Tracer:
        if self.settings is not None:
            return Tracer.from_settings(self.settings, provider=provider, **attrs)
        return Tracer(trace_dir=self.trace_dir, base_url=getattr(provider, "base_url", None),
                      model=getattr(provider, "model", None), **attrs)

    def finish(self, kit: TurnKit, result: Any) -> dict:
        """Learn from the turn's tool calls (chip memory), close the trace; returns the trace summary."""
        if self.memory is not None and kit.chip_id and not getattr(result, "error", None):
            try:
                with kit.tracer.span("memory.learn", chip_id=kit.chip_id):
                    self.memory.learn(kit.chip_id, getattr(result, "tool_calls", None) or [])
            except Exception:  # noqa: BLE001
                log.exception("could not update copilot memory for chip %s", kit.chip_id)
        summary = kit.tracer.finish(error=getattr(result, "error", None))
        summary["skills"] = kit.skills
        summary["cache_hits"] = getattr(kit.toolkit, "hits", 0)
        return summary
