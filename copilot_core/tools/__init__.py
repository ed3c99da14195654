"""The copilot's read-only tools, their data store and the compaction of what the model sees.

``Toolkit(repo, store=DataStore(), sandbox=run_analysis).execute(name, raw_args)`` is the only entry
point the agent loop and the CLI use; it never raises.
"""

from copilot_core.tools.compact import MAX_TOOL_RESULT_CHARS
from copilot_core.tools.registry import STORED_TOOLS, TOOLS, TOOLS_BY_NAME
from copilot_core.tools.store import DataStore
from copilot_core.tools.toolkit import ToolOutcome, Toolkit

__all__ = ["DataStore", "MAX_TOOL_RESULT_CHARS", "STORED_TOOLS", "TOOLS", "TOOLS_BY_NAME", "ToolOutcome", "Toolkit"]
