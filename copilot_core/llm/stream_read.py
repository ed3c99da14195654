"""Reading a streamed reply on either API: the text as it grows, calls as they complete, a stop at once.

A small model sometimes writes on after a complete answer; the reader cuts it after ``RAMBLE_PIECES`` pieces.  A
reply (text or a call's arguments) that repeats one unit over and over is stopped at once
(:mod:`~copilot_core.llm.repetition`).  A round the server cut at its output cap (``finish_reason == "length"``, a
Responses ``incomplete`` reply), or one that writes more pieces than the cap (a server that ignores it), raises
``CutReply`` unless a complete answer came first (that answer is kept).
"""

from __future__ import annotations

import json
import socket
from typing import Any

from copilot_core.answer.parse import after_key, holds_complete_answer
from copilot_core.cancel import CancelToken, TurnCancelled
from copilot_core.errors import CutReply, ProviderError
from copilot_core.llm.repetition import RepetitionWatch, repeated
from copilot_core.llm.turns import ModelTurn, OnText, ToolCall


def text_args(raw: Any) -> str:
    """Arguments as JSON text; some local servers send an object instead of a string."""
    if raw is None:
        return ""
    return raw if isinstance(raw, str) else json.dumps(raw)


def cached_tokens(usage: Any, details_field: str) -> int:
    """Prompt tokens served from the server's cache: OpenAI's ``*_tokens_details.cached_tokens`` or
    llama.cpp's ``timings.cache_n`` (read by the caller)."""
    details = getattr(usage, details_field, None) if usage is not None else None
    return int(getattr(details, "cached_tokens", 0) or 0)


def llama_cache_n(response: Any) -> int:
    timings = (getattr(response, "model_extra", None) or {}).get("timings")
    return int(timings.get("cache_n") or 0) if isinstance(timings, dict) else 0




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


def _stop(events: Any, stream: Any) -> None:
    """Close the stream early: the server stops generating."""
    events.close()
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


def _over(pieces: int, limit: int | None) -> bool:
    """More pieces than the round's output cap: each piece is at least one token."""
    return limit is not None and pieces > limit


def read_responses_stream(stream: Any, on_text: OnText, cancel: CancelToken | None, limit: int | None = None) -> Any:
    """The completed response of a streamed ``/v1/responses`` call, showing its text deltas as they come; stopped
    with ``CutReply`` past ``limit`` pieces."""
    pieces = 0
    written: list[str] = []
    grown: dict[str, str] = {}  # "" for the answer's text, an item id for a call's arguments
    watches: dict[str, RepetitionWatch] = {}
    response = None
    events = _drain(stream, cancel)
    for event in events:
        kind = getattr(event, "type", "")
        key = None
        if kind == "response.output_text.delta":
            written.append(str(getattr(event, "delta", "") or ""))
            key, grown[""] = "", "".join(written)
            on_text(grown[""])
        elif kind == "response.function_call_arguments.delta":
            key = str(getattr(event, "item_id", None) or getattr(event, "output_index", 0))
            grown[key] = grown.get(key, "") + str(getattr(event, "delta", "") or "")
        elif kind in ("response.completed", "response.incomplete", "response.failed"):
            response = event.response
        if key is not None and watches.setdefault(key, RepetitionWatch()).repeats(grown[key]):
            _stop(events, stream)
            raise repeated()
        pieces += key is not None
        if _over(pieces, limit):
            _stop(events, stream)
            raise CutReply(partial="".join(written))
    if response is None:
        raise ProviderError("The model's streamed answer ended before it was complete.", retryable=True)
    return response


RAMBLE_PIECES = 48  # a closing fence and end of turn take a few; a small local model once wrote 4,000


def unshown(text: str) -> None:
    """``on_text`` for a round nobody watches."""


def read_chat_stream(stream: Any, on_text: OnText, cancel: CancelToken | None, call_prefix: str,
                      cut_charts: bool = False, limit: int | None = None) -> ModelTurn:
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
    complete = cut = length = False
    arg_pieces = 0
    watches: dict[int, RepetitionWatch] = {}  # -1: the text; a call's index: its arguments
    events = _drain(stream, cancel)
    for chunk in events:
        usage = getattr(chunk, "usage", None) or usage
        cache_n = llama_cache_n(chunk) or cache_n
        for choice in getattr(chunk, "choices", None) or []:
            length = length or getattr(choice, "finish_reason", None) == "length"
            delta = getattr(choice, "delta", None)
            if delta is None:
                continue
            if getattr(delta, "content", None):
                written.append(delta.content)
                deltas += 1
                on_text(so_far := "".join(written))
                if watches.setdefault(-1, RepetitionWatch()).repeats(so_far) and not complete:
                    _stop(events, stream)
                    raise repeated()  # after a complete answer it is a ramble, cut below with the answer kept
                if complete:
                    after += 1
                else:
                    complete = "}" in delta.content and not pieces and holds_complete_answer("".join(written))
                cut = cut or (cut_charts and "{" in delta.content and not pieces
                              and bool(after_key("".join(written), "chart", "{")))
            for tc in getattr(delta, "tool_calls", None) or []:
                index = int(getattr(tc, "index", 0) or 0)
                piece = pieces.setdefault(index, {"id": "", "name": "", "arguments": ""})
                piece["id"] = getattr(tc, "id", None) or piece["id"]
                fn = getattr(tc, "function", None)
                if fn is not None:
                    piece["name"] += getattr(fn, "name", None) or ""
                    piece["arguments"] += text_args(getattr(fn, "arguments", None))
                arg_pieces += 1
                if watches.setdefault(index, RepetitionWatch()).repeats(piece["arguments"]):
                    _stop(events, stream)
                    raise repeated()
        if (cut or after > RAMBLE_PIECES) and not pieces:
            _stop(events, stream)
            break
        if _over(deltas + arg_pieces, limit) and not complete:
            _stop(events, stream)
            raise CutReply(partial="".join(written))
    if length and not complete:
        raise CutReply(partial="".join(written))
    calls = [ToolCall(p["id"] or f"{call_prefix}_{i}", p["name"], p["arguments"])
             for i, p in sorted(pieces.items()) if p["name"]]
    text = "".join(written)
    replay: dict[str, Any] = {"role": "assistant", "content": text or None}
    if calls:
        replay["tool_calls"] = [{"id": c.call_id, "type": "function",
                                 "function": {"name": c.name, "arguments": c.arguments}} for c in calls]
    output_tokens = getattr(usage, "completion_tokens", 0) or (deltas if cut or after else 0)
    return ModelTurn(text or None, calls, getattr(usage, "prompt_tokens", 0) or 0, output_tokens, [replay],
                     cached_tokens(usage, "prompt_tokens_details") or cache_n)
