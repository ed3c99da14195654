"""Cross-session copilot memory: learning from finished requests, the prompt section and recall_memory."""

from copilot_core.memory.learn import Observation, observations
from copilot_core.memory.memory import CAPS, DECAY, MAX_INJECT_CHARS, MIN_HITS, CopilotMemory
from copilot_core.memory.tool import RECALL_MEMORY, RECALL_MEMORY_SCHEMA, MemoryToolkit, recall_memory

__all__ = ["CAPS", "DECAY", "MAX_INJECT_CHARS", "MIN_HITS", "CopilotMemory", "MemoryToolkit", "Observation",
           "RECALL_MEMORY", "RECALL_MEMORY_SCHEMA", "observations", "recall_memory"]
