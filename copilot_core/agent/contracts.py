"""The agent's public values: the request, the result, and the tracer hook (no-op by default)."""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Iterator, Literal, Protocol

Mode = Literal["chat", "analysis"]


@dataclass
class AgentRequest:
    message: str
    chip_id: str | None = None
    qid: str | None = None
    mode: Mode = "chat"
    history: list[dict] = field(default_factory=list)  # role/content turns; the loop keeps the last 6, no charts
    context: dict = field(default_factory=dict)  # extra prompt context, e.g. {"task_name": "CheckT1"}


@dataclass
class AgentResult:
    answer: str  # plain text of the text blocks
    blocks: list[dict]  # [{"type": "text"|"chart", "content": str|None, "chart": dict|None}]
    assessment: str | None = None  # "good" | "warning" | "bad" | None
    tool_calls: list[Any] = field(default_factory=list)  # ToolOutcome, in call order
    usage: dict = field(default_factory=lambda: {"rounds": 0, "input_tokens": 0, "output_tokens": 0})
    error: str | None = None  # a clear message when the API failed; blocks then hold a partial answer
    elapsed_s: float = 0.0
    model: str = ""
    api_style: str = ""
    flags: list[str] = field(default_factory=list)  # injection-like phrases noticed in the question


class Tracer(Protocol):
    """Issue 7's hook: spans per request, model call and tool; token usage per model call."""

    def span(self, name: str, **attrs: Any) -> Any: ...  # a context manager
    def record_usage(self, input_tokens: int, output_tokens: int, model: str) -> None: ...


class NullTracer:
    """The default tracer: records nothing."""

    @contextmanager
    def span(self, name: str, **attrs: Any) -> Iterator[None]:
        yield None

    def record_usage(self, input_tokens: int, output_tokens: int, model: str) -> None:
        return None


NULL_TRACER = NullTracer()
