"""recall_memory: what earlier sessions on a chip learned, for when the prompt's memory section is not enough.

Offered only when the session has cross-session memory (``ToolSpec.requires``); it returns structured facts
only (``CopilotMemory.recall``): no text an earlier model wrote, no code.
"""

from __future__ import annotations

from copilot_core.data.memory_store import KINDS
from copilot_core.tools.spec import ToolContext, ToolError, ToolResult, chip_id_arg, tool


@tool("recall_memory",
      {"chip_id": chip_id_arg(),
       "kind": {"type": "string", "enum": list(KINDS), "description": "Only this kind of entry."}},
      ("chip_id",), requires="memory")
def recall_memory(ctx: ToolContext, chip_id: str, kind: str | None = None) -> ToolResult:
    if ctx.memory is None:
        raise ToolError("memory is off in this session", "answer without memory", kind="call")
    try:
        data = ctx.memory.recall(chip_id, kind=kind)
    except Exception as exc:  # noqa: BLE001 - a database failure is a tool error the model can work around
        raise ToolError(f"memory is unavailable ({type(exc).__name__})", "answer without memory", kind="call") from None
    return ToolResult(data, f"memory of {chip_id}: {data['count']} entries")
