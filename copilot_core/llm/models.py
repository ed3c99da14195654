"""The LLM behind a seam: one conversation class per OpenAI API, plus retries and error wording.

Both classes keep the whole conversation client-side and resend it every round (llama.cpp has no
``previous_response_id``).  The Responses conversation replays *every* output item, reasoning
included, before the tool outputs, as the real API demands.  ``call_model`` retries 429/5xx/timeouts
with a short backoff, drops ``temperature``/``top_p``/the answer schema when a model rejects them,
and turns every other failure into a ``ProviderError`` whose message a user can act on.
"""

from __future__ import annotations

import json
import logging
import re
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from copilot_core.answer.parse import BLOCKS_SCHEMA, SCHEMA_NAME, holds_complete_answer
from copilot_core.llm.provider import ProviderConfig
from copilot_core.cancel import CancelToken, TurnCancelled
from copilot_core.errors import ProviderError
from copilot_core.masking import mask_url
from copilot_core.tools.registry import TOOLS
from copilot_core.tools.spec import constrained_schema

log = logging.getLogger(__name__)
MAX_BACKOFF_S = 8.0


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
    Completions: the stream is cut where it begins and the answer's text is kept)."""

    charts_drawn: bool

    def request(self, tools: list[dict] | None, dropped: set[str], tool_choice: str | None = None,
                on_text: OnText | None = None, cancel: CancelToken | None = None) -> ModelTurn: ...
    def add_turn(self, turn: ModelTurn) -> None: ...
    def add_tool_result(self, call: ToolCall, output: str) -> None: ...
    def add_user_note(self, text: str) -> None: ...
    def add_calls(self, calls: list[ToolCall]) -> None: ...  # an assistant turn of calls the loop made or parsed


# The conversation travels in ``extra_body``: its items are already wire-format JSON (model_dump by
# alias), and the SDK's TypedDict transform of them cost ~38 ms per Responses call (6 rounds, measured
# with bench/agent_overhead.py's server) and grows with every round.


def _text_args(raw: Any) -> str:
    """Arguments as JSON text; some local servers send an object instead of a string."""
    if raw is None:
        return ""
    return raw if isinstance(raw, str) else json.dumps(raw)


def _choice(tools: list[dict] | None, tool_choice: str | None, dropped: set[str]) -> tuple[list[dict] | None, dict]:
    """The tools to send and the ``tool_choice`` field.  ``tool_choice="none"`` keeps the tools in the request
    (the prompt prefix, and so the server's prompt cache, stays the same); a server that rejected the field
    gets the old form instead: no tools at all."""
    if not tools or tool_choice is None:
        return tools, {}
    if "tool_choice" in dropped:
        return (None, {}) if tool_choice == "none" else (tools, {})
    return tools, {"tool_choice": tool_choice}


def _cached(usage: Any, details_field: str) -> int:
    """Prompt tokens served from the server's cache: OpenAI's ``*_tokens_details.cached_tokens`` or
    llama.cpp's ``timings.cache_n`` (read by the caller)."""
    details = getattr(usage, details_field, None) if usage is not None else None
    return int(getattr(details, "cached_tokens", 0) or 0)


def _llama_cache_n(response: Any) -> int:
    timings = (getattr(response, "model_extra", None) or {}).get("timings")
    return int(timings.get("cache_n") or 0) if isinstance(timings, dict) else 0


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
        self.charts_drawn = False
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
        if self.provider.max_output_tokens:
            kwargs["max_output_tokens"] = self.provider.max_output_tokens
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
            response = _read_responses_stream(stream, on_text, cancel)
        return self._turn(response)

    @staticmethod
    def _turn(response: Any) -> ModelTurn:
        calls, texts, items = [], [], []
        for item in response.output or []:
            dumped = item.model_dump(mode="json", exclude_none=True, by_alias=True)
            items.append(dumped)
            if dumped.get("type") == "function_call":
                calls.append(ToolCall(dumped.get("call_id") or dumped.get("id") or f"call_{len(items)}",
                                      dumped.get("name") or "", _text_args(dumped.get("arguments"))))
            elif dumped.get("type") == "message":
                for part in dumped.get("content") or []:
                    texts.append(part.get("text") or part.get("refusal") or "")
        usage = response.usage
        return ModelTurn("".join(texts) or None, calls, getattr(usage, "input_tokens", 0) or 0,
                         getattr(usage, "output_tokens", 0) or 0, items,
                         _cached(usage, "input_tokens_details") or _llama_cache_n(response))

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
        self.charts_drawn = False
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
        if self.provider.max_output_tokens:
            # OpenAI renamed the field; local servers (llama.cpp, Ollama, vLLM) know max_tokens.
            key = "max_completion_tokens" if self.provider.is_openai else "max_tokens"
            kwargs[key] = self.provider.max_output_tokens
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
        return _read_chat_stream(stream, on_text or _unshown, cancel, f"call_{len(self.messages)}",
                                 cut_charts=self.charts_drawn)

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


# --------------------------------------------------------------------------------------- streams


def _interrupt(stream: Any) -> None:
    """End a stream another thread is blocked reading: shut its socket down (closing alone does not wake a
    blocked read on Linux), then close it."""
    response = getattr(stream, "response", None)
    network = (getattr(response, "extensions", None) or {}).get("network_stream")
    sock = network.get_extra_info("socket") if network is not None else None
    if sock is not None:
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass  # already closed by the server
    stream.close()


def _drain(stream: Any, cancel: CancelToken | None) -> Any:
    """The stream's events; closing the stream is the stop button's hook, and a stop ends the read with
    TurnCancelled whether the closed connection raised or just ended."""
    if cancel is None:
        yield from stream
        return
    try:
        with cancel.hook(lambda: _interrupt(stream)):
            for event in stream:
                cancel.check()
                yield event
    except TurnCancelled:
        raise
    except Exception:
        if cancel.cancelled:
            raise TurnCancelled() from None
        raise
    cancel.check()


def _read_responses_stream(stream: Any, on_text: OnText, cancel: CancelToken | None) -> Any:
    """The completed response of a streamed ``/v1/responses`` call, showing its text deltas as they come."""
    written: list[str] = []
    response = None
    for event in _drain(stream, cancel):
        kind = getattr(event, "type", "")
        if kind == "response.output_text.delta":
            written.append(str(getattr(event, "delta", "") or ""))
            on_text("".join(written))
        elif kind in ("response.completed", "response.incomplete", "response.failed"):
            response = event.response
    if response is None:
        raise ProviderError("The model's streamed answer ended before it was complete.", retryable=True)
    return response


RAMBLE_PIECES = 48  # a closing fence and end of turn take a few; a small local model once wrote 4,000
_CHART_OBJECT = re.compile(r'"chart"\s*:\s*\{')


def _unshown(text: str) -> None:
    """``on_text`` for a round nobody watches."""


def _read_chat_stream(stream: Any, on_text: OnText, cancel: CancelToken | None, call_prefix: str,
                      cut_charts: bool = False) -> ModelTurn:
    """A streamed ``/v1/chat/completions`` round put back together: text deltas shown as they come, tool-call
    pieces joined by index, usage from the last chunk.  The stream is closed early (the server stops generating)
    when the model writes on for more than ``RAMBLE_PIECES`` pieces after a complete blocks answer, or, with
    ``cut_charts``, where it begins a chart object (a small model once wrote 4,000 tokens of invented chart data
    after a tool had drawn the chart); the round's usage then counts the pieces read as output tokens and the
    prompt's tokens as unknown (0)."""
    written: list[str] = []
    pieces: dict[int, dict[str, str]] = {}
    usage: Any = None
    cache_n = 0
    deltas = after = 0
    complete = cut = False
    events = _drain(stream, cancel)
    for chunk in events:
        usage = getattr(chunk, "usage", None) or usage
        cache_n = _llama_cache_n(chunk) or cache_n
        for choice in getattr(chunk, "choices", None) or []:
            delta = getattr(choice, "delta", None)
            if delta is None:
                continue
            if getattr(delta, "content", None):
                written.append(delta.content)
                deltas += 1
                on_text("".join(written))
                if complete:
                    after += 1
                else:
                    complete = "}" in delta.content and not pieces and holds_complete_answer("".join(written))
                cut = cut or (cut_charts and "{" in delta.content and not pieces
                              and _CHART_OBJECT.search("".join(written)) is not None)
            for tc in getattr(delta, "tool_calls", None) or []:
                piece = pieces.setdefault(int(getattr(tc, "index", 0) or 0), {"id": "", "name": "", "arguments": ""})
                piece["id"] = getattr(tc, "id", None) or piece["id"]
                fn = getattr(tc, "function", None)
                if fn is not None:
                    piece["name"] += getattr(fn, "name", None) or ""
                    piece["arguments"] += _text_args(getattr(fn, "arguments", None))
        if (cut or after > RAMBLE_PIECES) and not pieces:
            events.close()
            stream.close()
            break
    calls = [ToolCall(p["id"] or f"{call_prefix}_{i}", p["name"], p["arguments"])
             for i, p in sorted(pieces.items()) if p["name"]]
    text = "".join(written)
    replay: dict[str, Any] = {"role": "assistant", "content": text or None}
    if calls:
        replay["tool_calls"] = [{"id": c.call_id, "type": "function",
                                 "function": {"name": c.name, "arguments": c.arguments}} for c in calls]
    output_tokens = getattr(usage, "completion_tokens", 0) or (deltas if cut or after else 0)
    return ModelTurn(text or None, calls, getattr(usage, "prompt_tokens", 0) or 0, output_tokens, [replay],
                     _cached(usage, "prompt_tokens_details") or cache_n)


def start_conversation(client: Any, provider: ProviderConfig, system: str, history: list[dict],
                       message: str, context: str = "") -> Conversation:
    """A conversation: ``system`` first, the earlier turns, ``context`` (this question's part of the prompt, as a
    system/developer message) and the question."""
    cls = ResponsesConversation if provider.api_style == "responses" else ChatConversation
    return cls(client, provider, system, history, message, context)


# --------------------------------------------------------------------------------------- retries


CONTEXT_MESSAGE = "context_message"  # in ``dropped``: the context goes in the first system message
# How chat templates refuse a system message after the first (Mistral's, Gemma's, Llama 2's ...).
_ONE_SYSTEM_MESSAGE = re.compile(r"roles? must alternate|system (message|role)s? (is|are)? ?(only|not)"
                                 r"|system message must be (at the beginning|first)|only .{0,20}first .{0,20}system")


def _status(exc: Exception) -> int | None:
    return getattr(exc, "status_code", None)


def _rejected_param(exc: Exception, dropped: set[str]) -> str | None:
    """The parameter a 400/422 complains about, if it is one we can simply stop sending; a chat template that
    takes no second system message (it raises, and llama.cpp answers 400 or 500) gets the context joined to the
    first."""
    text = f"{getattr(exc, 'param', '') or ''} {getattr(exc, 'message', '') or exc}".lower()
    if (_status(exc) in (400, 422, 500) and CONTEXT_MESSAGE not in dropped
            and _ONE_SYSTEM_MESSAGE.search(text) is not None):
        return CONTEXT_MESSAGE
    if _status(exc) not in (400, 422):
        return None
    for name in ("temperature", "top_p", "tool_choice"):
        if name in text and name not in dropped:
            return name
    if "format" not in dropped and any(s in text for s in ("response_format", "text.format", "json_schema")):
        return "format"
    return None


def _is_api_error(exc: Exception) -> bool:
    import openai

    return isinstance(exc, openai.APIError)


def _retryable(exc: Exception) -> bool:
    import openai

    if isinstance(exc, (openai.APITimeoutError, openai.APIConnectionError)):
        return True
    status = _status(exc)
    return status is not None and (status in (408, 409, 429) or status >= 500)


def describe_failure(exc: Exception, provider: ProviderConfig, attempts: int) -> str:
    """A sentence a user can act on; never the raw exception text of a non-API error."""
    import openai

    where = provider.label()
    tries = f" after {attempts} attempts" if attempts > 1 else ""
    if isinstance(exc, openai.APITimeoutError):
        return f"The model provider ({where}) did not answer within {provider.timeout_s:g} s{tries}."
    if isinstance(exc, openai.APIConnectionError):
        return (f"Cannot reach the model provider at {mask_url(provider.base_url) or 'api.openai.com'}{tries}. "
                "Check OPENAI_BASE_URL and that the server is running.")
    status = _status(exc)
    detail = str(getattr(exc, "message", "") or "").replace("\n", " ")[:240]
    if status == 401:
        return f"The model provider ({where}) rejected the API key (HTTP 401). Check OPENAI_API_KEY."
    if status == 403:
        return f"The API key has no access to this model or API (HTTP 403): {detail}"
    if status == 404:
        return (f"The provider does not serve model {provider.model!r} on the {provider.api_style} API (HTTP 404). "
                "Check COPILOT_MODEL and COPILOT_API_STYLE.")
    if status == 429:
        return f"The model provider is rate-limiting requests (HTTP 429){tries}. Wait a minute and try again."
    if status is not None and status >= 500:
        return f"The model provider failed (HTTP {status}){tries}. Try again later. Detail: {detail}"
    if status is not None:
        return f"The model provider rejected the request (HTTP {status}): {detail}"
    return f"The model call failed: {type(exc).__name__}."


def call_model(conversation: Conversation, tools: list[dict] | None, *, provider: ProviderConfig,
               dropped: set[str], on_retry: Callable[[str], None] | None = None,
               sleep: Callable[[float], None] = time.sleep, tool_choice: str | None = None,
               on_text: OnText | None = None, cancel: CancelToken | None = None) -> ModelTurn:
    """One model turn with bounded retries; raises ProviderError with a clear message when it gives up, and
    TurnCancelled (never retried) when the user stopped the turn.
    ``tool_choice="none"``: the tools stay in the request but the model must answer in text."""
    attempt = 0
    while True:
        if cancel is not None:
            cancel.check()
        try:
            if on_text is None and cancel is None:
                return conversation.request(tools, dropped, tool_choice)
            return conversation.request(tools, dropped, tool_choice, on_text=on_text, cancel=cancel)
        except TurnCancelled:
            raise
        except Exception as exc:  # noqa: BLE001  (classified below; nothing escapes unexplained)
            if cancel is not None and cancel.cancelled:
                raise TurnCancelled() from None
            param = _rejected_param(exc, dropped)
            if param is not None:
                log.info("model rejected %s; retrying without it", param)
                dropped.add(param)
                continue
            if _retryable(exc) and attempt < provider.max_retries:
                wait = min(MAX_BACKOFF_S, provider.retry_backoff_s * (2 ** attempt))
                attempt += 1
                log.warning("model call failed (%s); retry %d/%d in %.2fs", type(exc).__name__, attempt,
                            provider.max_retries, wait)
                if on_retry:
                    on_retry(f"retrying ({attempt}/{provider.max_retries})")
                sleep(wait)
                continue
            if not _is_api_error(exc):
                log.exception("unexpected error from the model client")
            raise ProviderError(describe_failure(exc, provider, attempt + 1), status=_status(exc),
                                retryable=_retryable(exc)) from exc

