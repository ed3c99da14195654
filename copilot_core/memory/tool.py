"""The ``recall_memory`` tool: the full memory of a chip, for when the 1000-char prompt section is not enough."""

from __future__ import annotations

import json
import time
from typing import Any

from copilot_core.data.memory_store import KINDS
from copilot_core.data.validation import InvalidArgument
from copilot_core.memory.memory import CopilotMemory

RECALL_MEMORY = "recall_memory"
RECALL_MEMORY_SCHEMA: dict = {
    "name": RECALL_MEMORY,
    "description": ("Recall what earlier sessions on this chip learned: parameters often asked about, analysis "
                    "code that worked (reuse it with execute_python_analysis), and error→fix pairs. Read-only."),
    "parameters": {
        "type": "object",
        "properties": {
            "chip_id": {"type": "string", "description": "Chip id, e.g. 64Qv3"},
            "kind": {"type": "string", "enum": list(KINDS), "description": "Only this kind of entry (optional)"},
        },
        "required": ["chip_id"],
        "additionalProperties": False,
    },
}


def recall_memory(memory: CopilotMemory, raw_args: str | dict) -> dict:
    """Run the tool; never raises: bad arguments come back as ``{"error", "hint"}``."""
    try:
        args = json.loads(raw_args) if isinstance(raw_args, str) else dict(raw_args or {})
        if not isinstance(args, dict):
            raise ValueError("arguments must be a JSON object")
        unknown = set(args) - {"chip_id", "kind"}
        if unknown:
            raise ValueError(f"unknown argument(s): {', '.join(sorted(unknown))}")
        kind = args.get("kind")
        if kind is not None and kind not in KINDS:
            raise ValueError(f"kind must be one of {', '.join(KINDS)}")
        return memory.recall(args.get("chip_id"), kind=kind)
    except (ValueError, TypeError, InvalidArgument) as exc:
        return {"error": str(exc), "hint": 'Call recall_memory with {"chip_id": "64Qv3"}.'}
    except Exception as exc:  # noqa: BLE001 - a database failure is a tool error, not a crash
        return {"error": f"memory is unavailable ({type(exc).__name__})", "hint": "Answer without memory."}


def recall_memory_handler(memory: CopilotMemory) -> Any:
    """A ``fn(args: dict) -> dict`` for toolkits that accept extra tools."""
    return lambda args: recall_memory(memory, args)


class MemoryToolkit:
    """Adds ``recall_memory`` to a toolkit with the loop's interface (schemas, begin_request, execute).

    E2's ``Toolkit`` has a fixed registry, so the memory tool is layered on top; every other call is
    passed through unchanged.  ``allowed`` (readiness gating) may leave the memory tool out.
    """

    def __init__(self, toolkit: Any, memory: CopilotMemory, *, enabled: bool = True) -> None:
        self.inner = toolkit
        self.memory = memory
        self.enabled = enabled

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def schemas(self) -> list[dict]:
        return self.inner.schemas() + ([RECALL_MEMORY_SCHEMA] if self.enabled else [])

    def names(self) -> list[str]:
        return [s["name"] for s in self.schemas()]

    def begin_request(self) -> None:
        self.inner.begin_request()

    def execute(self, name: str, raw_args: str | dict | None) -> Any:
        if name != RECALL_MEMORY or not self.enabled:
            return self.inner.execute(name, raw_args)
        from copilot_core.tools.compact import fit_to_budget
        from copilot_core.tools.toolkit import ToolOutcome

        started = time.perf_counter()
        result = recall_memory(self.memory, raw_args if raw_args is not None else {})
        try:
            args = json.loads(raw_args) if isinstance(raw_args, str) else dict(raw_args or {})
        except (ValueError, TypeError):
            args = {}
        error = result.get("error")
        summary = (f"recall_memory failed: {error}" if error
                   else f"memory of {result['chip_id']}: {result['count']} entries")
        return ToolOutcome(name=RECALL_MEMORY, args=args if isinstance(args, dict) else {}, ok=error is None,
                           model_text=fit_to_budget(result, getattr(self.inner, "max_result_chars", 30_000)),
                           summary=summary, full=result, error=error, elapsed_s=time.perf_counter() - started)
