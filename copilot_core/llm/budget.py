"""The prompt budget: how many tokens the fixed part of every round may cost, and a tokenizer-free estimate.

On a CPU-served small model prompt processing dominates a round, and every round resends the system
prompt and the tool schemas, so both have a budget.  ``bench/prompt_budget.py`` prints the figures with the
served model's own tokenizer next to :func:`estimate_tokens`; the unit tests hold the estimate to the budget.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from types import SimpleNamespace

from copilot_core.llm.conversation import start_conversation
from copilot_core.llm.provider import ApiStyle, ProviderConfig

CHAT_PROMPT_BUDGET = 1_200  # the chat-mode system prompt, any question, either API style
TOOL_SCHEMAS_TARGET = 2_660  # the full tool set as sent, either API style (31 tools; a window of runs on two of them)
CHARS_PER_TOKEN = 3.5
ESTIMATE_RULE = f"ceil(characters / {CHARS_PER_TOKEN:g})"


def estimate_tokens(text: str) -> int:
    """Tokens of ``text`` by the rule in ``ESTIMATE_RULE`` (no tokenizer needed)."""
    return math.ceil(len(text) / CHARS_PER_TOKEN)


class _EmptyReply(SimpleNamespace):
    """A reply with nothing in it, read whole or as an (empty) stream."""

    def __iter__(self) -> Iterator[object]:
        return iter(())

    def close(self) -> None:
        pass


class _Recorder:
    """Stands in for the OpenAI client: keeps the keyword arguments of the one create() call."""

    def __init__(self) -> None:
        self.sent: dict[str, object] = {}
        empty = _EmptyReply(output=[], choices=[], usage=None)

        def create(**kwargs: object) -> SimpleNamespace:
            self.sent.update(kwargs)
            return empty

        self.responses = SimpleNamespace(create=create)
        self.chat = SimpleNamespace(completions=SimpleNamespace(create=create))


def sent_tools_text(api_style: ApiStyle, schemas: list[dict]) -> str:
    """The ``tools`` of one request exactly as ``llm/conversation.py`` sends them for this API style, one JSON line
    per tool, which is how chat templates (llama.cpp's Qwen template) show them to the model."""
    recorder = _Recorder()
    provider = ProviderConfig(api_key="budget", base_url="http://127.0.0.1:9/v1", model="m", api_style=api_style)
    start_conversation(recorder, provider, "system", [], "question").request(schemas, set())
    tools = recorder.sent["tools"]
    return "\n".join(json.dumps(tool, ensure_ascii=False) for tool in (tools if isinstance(tools, list) else []))
