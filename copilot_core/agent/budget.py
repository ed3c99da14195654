"""The prompt budget: how many tokens the fixed part of every round may cost, and a tokenizer-free estimate.

On a CPU-served small model prompt processing dominates a round, and every round resends the system
prompt and the tool schemas, so both have a budget.  The estimate needs no tokenizer and errs high:
``bench/prompt_budget.py`` prints it against the served model's own tokenizer.
"""

from __future__ import annotations

import math

TOOL_SCHEMAS_BUDGET = 1_500  # the full tool set, as either API style sends it
CHAT_PROMPT_BUDGET = 1_200  # the chat-mode system prompt, any question
CHARS_PER_TOKEN = 3.0
ESTIMATE_RULE = f"ceil(characters / {CHARS_PER_TOKEN:g})"


def estimate_tokens(text: str) -> int:
    """Tokens of ``text`` by the rule in ``ESTIMATE_RULE`` (no tokenizer needed)."""
    return math.ceil(len(text) / CHARS_PER_TOKEN)
