"""One conversation class per OpenAI API, both keeping the whole conversation client-side.

Both resend it every round (llama.cpp has no ``previous_response_id``).  The Responses conversation replays
*every* output item, reasoning included, before the tool outputs, as the real API demands.
"""

from __future__ import annotations
from typing import Any

from copilot_core.answer.parse import BLOCKS_SCHEMA, SCHEMA_NAME
from copilot_core.llm.provider import ProviderConfig
from copilot_core.cancel import CancelToken
from copilot_core.errors import CutReply
from copilot_core.tools.registry import TOOLS
from copilot_core.tools.spec import constrained_schema
from copilot_core.llm.stream_read import (cached_tokens, llama_cache_n, read_chat_stream, read_responses_stream,
                                          text_args, unshown)
from copilot_core.llm.turns import Conversation, ModelTurn, OnText, ToolCall


def _choice(tools: list[dict] | None, tool_choice: str | None, dropped: set[str]) -> tuple[list[dict] | None, dict]:
    """The tools to send and the ``tool_choice`` field.  ``tool_choice="none"`` keeps the tools in the request
    (the prompt prefix, and so the server's prompt cache, stays the same); a server that rejected the field
    gets the old form instead: no tools at all."""
    if not tools or tool_choice is None:
        return tools, {}
    if "tool_choice" in dropped:
        return (None, {}) if tool_choice == "none" else (tools, {})
    return tools, {"tool_choice": tool_choice}


def _sampling(provider: ProviderConfig, dropped: set[str]) -> dict:
    kwargs: dict[str, Any] = {}
    if provider.temperature is not None and "temperature" not in dropped:
        kwargs["temperature"] = provider.temperature
    return kwargs


def _context_joined(system: str, items: list[dict], context_at: int | None,
                    dropped: set[str]) -> tuple[str, list[dict]]:
    """The system text and the items after it; once a server refused a second system message, the context
    item at ``context_at`` is joined to the system text instead (the shared prefix is then lost, the answer is not)."""
    if context_at is None or CONTEXT_MESSAGE not in dropped:
        return system, list(items)
    return f"{system}\n\n{items[context_at]['content']}", [*items[:context_at], *items[context_at + 1:]]


class ResponsesConversation:
    """``/v1/responses``: instructions + input items; output items replayed verbatim."""

    def __init__(self, client: Any, provider: ProviderConfig, system: str, history: list[dict], message: str,
                 context: str = ""):
        self.client, self.provider, self.system = client, provider, system
        self.charts_drawn, self.output_cap = False, provider.max_output_tokens
        self.input: list[dict] = [{"role": t["role"], "content": t["content"]} for t in history]
        self.context_at = len(self.input) if context else None
        if context:
            self.input.append({"role": "developer", "content": context})
        self.input.append({"role": "user", "content": message})

    def wire(self, dropped: set[str]) -> tuple[str, list[dict]]:
        """Instructions and input items to send (the context joined to the instructions for a server that takes
        no developer message after the first turn)."""
        return _context_joined(self.system, self.input, self.context_at, dropped)

    def request(self, tools: list[dict] | None, dropped: set[str], tool_choice: str | None = None,
                on_text: OnText | None = None, cancel: CancelToken | None = None) -> ModelTurn:
        kwargs = _sampling(self.provider, dropped)
        if self.output_cap:
            kwargs["max_output_tokens"] = self.output_cap
        tools, choice = _choice(tools, tool_choice, dropped)
        kwargs.update(choice)
        if tools:
            kwargs["tools"] = [{"type": "function", "name": t["name"], "description": t.get("description", ""),
                                "parameters": t["parameters"], "strict": False} for t in tools]
        if "format" not in dropped:
            kwargs["text"] = {"format": {"type": "json_schema", "name": SCHEMA_NAME, "schema": BLOCKS_SCHEMA,
                                         "strict": False}}
        create = self.client.responses.create
        instructions, items = self.wire(dropped)
        if on_text is None:
            response = create(model=self.provider.model, instructions=instructions, extra_body={"input": items},
                              **kwargs)
        else:
            stream = create(model=self.provider.model, instructions=instructions, extra_body={"input": items},
                            stream=True, **kwargs)
            response = read_responses_stream(stream, on_text, cancel, self.output_cap)
        return self._turn(response)

    @staticmethod
    def _turn(response: Any) -> ModelTurn:
        calls, texts, items = [], [], []
        for item in response.output or []:
            dumped = item.model_dump(mode="json", exclude_none=True, by_alias=True)
            items.append(dumped)
            if dumped.get("type") == "function_call":
                calls.append(ToolCall(dumped.get("call_id") or dumped.get("id") or f"call_{len(items)}",
                                      dumped.get("name") or "", text_args(dumped.get("arguments"))))
            elif dumped.get("type") == "message":
                for part in dumped.get("content") or []:
                    texts.append(part.get("text") or part.get("refusal") or "")
        if getattr(response, "status", None) == "incomplete" and \
                getattr(getattr(response, "incomplete_details", None), "reason", None) == "max_output_tokens":
            raise CutReply(partial="".join(texts))
        usage = response.usage
        return ModelTurn("".join(texts) or None, calls, getattr(usage, "input_tokens", 0) or 0,
                         getattr(usage, "output_tokens", 0) or 0, items,
                         cached_tokens(usage, "input_tokens_details") or llama_cache_n(response))

    def add_turn(self, turn: ModelTurn) -> None:
        self.input.extend(turn.items)  # every item, reasoning included (400 otherwise)

    def add_calls(self, calls: list[ToolCall]) -> None:
        self.input.extend({"type": "function_call", "call_id": c.call_id, "name": c.name, "arguments": c.arguments}
                          for c in calls)

    def add_tool_result(self, call: ToolCall, output: str) -> None:
        self.input.append({"type": "function_call_output", "call_id": call.call_id, "output": output})

    def add_user_note(self, text: str) -> None:
        self.input.append({"role": "user", "content": text})


_FULL_SCHEMAS = {spec.name: spec.parameters for spec in TOOLS}


def _chat_function(tool: dict, constrained: bool) -> dict:
    """A chat-completions tool; ``constrained``: with the full closed schema (the server's call grammar) and
    ``strict``, for a tool the registry knows; any other (``more_tools``) is closed as sent."""
    function = {"name": tool["name"], "description": tool.get("description", ""), "parameters": tool["parameters"]}
    if constrained:
        full = _FULL_SCHEMAS.get(tool["name"])
        function["parameters"] = constrained_schema(full if full is not None else tool["parameters"])
        function["strict"] = True
    return {"type": "function", "function": function}


class ChatConversation:
    """``/v1/chat/completions``: the same loop with an assistant ``tool_calls`` message and ``role=tool`` replies."""

    def __init__(self, client: Any, provider: ProviderConfig, system: str, history: list[dict], message: str,
                 context: str = ""):
        self.client, self.provider = client, provider
        self.charts_drawn, self.output_cap = False, provider.max_output_tokens
        self.messages: list[dict] = [{"role": "system", "content": system}]
        self.messages += [{"role": t["role"], "content": t["content"]} for t in history]
        self.context_at = len(self.messages) if context else None  # where the context message sits
        if context:
            self.messages.append({"role": "system", "content": context})
        self.messages.append({"role": "user", "content": message})

    def wire(self, dropped: set[str]) -> list[dict]:
        """The messages to send: as kept, or, for a server whose chat template takes one system message only,
        with the context joined to the first (the shared prefix is then lost, the answer is not)."""
        if self.context_at is None or CONTEXT_MESSAGE not in dropped:
            return list(self.messages)
        system, rest = _context_joined(self.messages[0]["content"], self.messages[1:], self.context_at - 1, dropped)
        return [{"role": "system", "content": system}, *rest]

    def request(self, tools: list[dict] | None, dropped: set[str], tool_choice: str | None = None,
                on_text: OnText | None = None, cancel: CancelToken | None = None) -> ModelTurn:
        kwargs = _sampling(self.provider, dropped)
        tools, choice = _choice(tools, tool_choice, dropped)
        kwargs.update(choice)
        if self.output_cap:
            # OpenAI renamed the field; local servers (llama.cpp, Ollama, vLLM) know max_tokens.
            key = "max_completion_tokens" if self.provider.is_openai else "max_tokens"
            kwargs[key] = self.output_cap
        if tools:
            kwargs["tools"] = [_chat_function(t, self.provider.constrain_tool_calls) for t in tools]
            if self.provider.constrain_tool_calls:
                kwargs["parallel_tool_calls"] = False
        if self.provider.is_openai and "format" not in dropped:
            kwargs["response_format"] = {"type": "json_schema", "json_schema": {
                "name": SCHEMA_NAME, "schema": BLOCKS_SCHEMA, "strict": False}}
        # Always streamed: a reply that goes on after a complete answer is cut there, not at max tokens.
        stream = self.client.chat.completions.create(
            model=self.provider.model, messages=[], extra_body={"messages": self.wire(dropped)}, stream=True,
            stream_options={"include_usage": True}, **kwargs)
        return read_chat_stream(stream, on_text or unshown, cancel, f"call_{len(self.messages)}",
                                 cut_charts=self.charts_drawn, limit=self.output_cap)

    def add_turn(self, turn: ModelTurn) -> None:
        self.messages.extend(turn.items)

    def add_calls(self, calls: list[ToolCall]) -> None:
        self.messages.append({"role": "assistant", "content": None, "tool_calls": [
            {"id": c.call_id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
            for c in calls]})

    def add_tool_result(self, call: ToolCall, output: str) -> None:
        self.messages.append({"role": "tool", "tool_call_id": call.call_id, "content": output})

    def add_user_note(self, text: str) -> None:
        self.messages.append({"role": "user", "content": text})


def start_conversation(client: Any, provider: ProviderConfig, system: str, history: list[dict],
                       message: str, context: str = "") -> Conversation:
    """A conversation: ``system`` first, the earlier turns, ``context`` (this question's part of the prompt, as a
    system/developer message) and the question."""
    cls = ResponsesConversation if provider.api_style == "responses" else ChatConversation
    return cls(client, provider, system, history, message, context)


CONTEXT_MESSAGE = "context_message"  # in ``dropped``: the context goes in the first system message


