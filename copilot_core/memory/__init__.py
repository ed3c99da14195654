"""Cross-session copilot memory: learning from finished requests and the prompt section (the tool that reads
it is ``copilot_core.tools.memory.recall_memory``)."""

from copilot_core.memory.learn import Observation, observations
from copilot_core.memory.memory import CAPS, DECAY, MAX_INJECT_CHARS, MIN_HITS, CopilotMemory

__all__ = ["CAPS", "DECAY", "MAX_INJECT_CHARS", "MIN_HITS", "CopilotMemory", "Observation", "observations"]
