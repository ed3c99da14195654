"""What one model round gives back, whichever API it came from: text, tool calls and the cached-prefix count.
"""

from __future__ import annotations
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from copilot_core.cancel import CancelToken


@dataclass(frozen=True)
class ToolCall:
    call_id: str
    name: str
    arguments: str  # raw JSON text as the model wrote it


@dataclass
class ModelTurn:
    text: str | None
    calls: list[ToolCall]
    input_tokens: int = 0
    output_tokens: int = 0
    items: list[dict] = field(default_factory=list)  # what to replay (Responses output items / chat message)
    cached_tokens: int = 0  # prompt tokens the server took from its prompt cache (part of input_tokens)


OnText = Callable[[str], None]  # the round's text so far, called as a streamed answer grows


class Conversation(Protocol):
    """One request's conversation with a model, whatever the API.  With ``on_text`` the round is streamed and
    ``on_text`` gets the text written so far after every piece; ``cancel`` closes the stream when the user stops.
    ``charts_drawn``: a tool has drawn this turn's chart, so a chart the model starts to write is a copy (Chat
    Completions: the stream is cut where it begins and the answer's text is kept).  A round cut at ``output_cap``
    raises :class:`~copilot_core.errors.CutReply`."""

    charts_drawn: bool
    output_cap: int | None  # the most the next round may write (``max_tokens`` / ``max_output_tokens``)

    def request(self, tools: list[dict] | None, dropped: set[str], tool_choice: str | None = None,
                on_text: OnText | None = None, cancel: CancelToken | None = None) -> ModelTurn: ...
    def add_turn(self, turn: ModelTurn) -> None: ...
    def add_tool_result(self, call: ToolCall, output: str) -> None: ...
    def add_user_note(self, text: str) -> None: ...
    def add_calls(self, calls: list[ToolCall]) -> None: ...  # an assistant turn of calls the loop made or parsed
