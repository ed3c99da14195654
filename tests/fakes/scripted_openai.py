"""A scripted OpenAI-compatible HTTP server for tests (real sockets, driven by the real openai SDK).

Why: the agent loop must be tested through the real SDK over real HTTP, deterministically, on both
``/v1/responses`` and ``/v1/chat/completions``.  This server replies from a script (or a callable)
and records every request body so tests can assert on what a provider would have received.

API (stable; other helpers' tests use it)
-----------------------------------------
    from tests.fakes.scripted_openai import (ScriptedOpenAI, scripted_openai, text, answer, call, calls,
        error, delay, reasoning, null_content, SmartRequest, ToolResultSeen, tools_then_answer)

    with ScriptedOpenAI(script=[call("get_chip_summary", {"chip_id": "64Qv3"}), answer("All good", "good")]) as srv:
        srv.base_url                 # "http://127.0.0.1:PORT/v1" (pass as OPENAI_BASE_URL / base_url)
        srv.push(step, ...)          # append steps
        srv.requests                 # list[Recorded]: .path, .body (dict), .api ("responses"|"chat")
        srv.bodies(api=None)         # just the JSON bodies, optionally one API
        srv.calls_made               # how many model requests were answered (errors included)
        srv.provider("responses", timeout_s=1)   # a copilot_core.agent.ProviderConfig on this server (fast retries)

    Pytest fixture ``scripted_openai`` (import it into your conftest): a started server with an empty script,
    stopped after the test.  Options on the server object may be set by the test before the first request.

Steps (API-neutral: rendered as Responses output items or a Chat Completions message):
    text("plain words")                 assistant message with this exact text (may be None -> null content)
    answer("markdown", "good")          assistant message holding the blocks JSON {"blocks":[...],"assessment":..}
    call(name, args)                    one function call; args a dict (JSON-encoded) or a raw string (malformed)
    calls((name, args), (name, args))   several function calls in one reply
    reasoning("summary", step)          prepend a reasoning item (Responses only) to ``step``
    error(status, message, param=None)  an HTTP error with OpenAI's error body
    unparsable(status=500, mid_stream=False)  llama.cpp's answer when the model wrote a tool call its parser cannot
                                        read: HTTP 500 with {"error": {"code": 500, "message": "Failed to parse tool
                                        call arguments as JSON: ...", "type": "server_error"}}; ``mid_stream``: a
                                        streamed request gets 200, a first piece, then that body as a stream event
    delay(seconds, step)                sleep server-side, then reply ``step`` (for client timeouts)
    paused(step, after=n) -> (step, Pause)   a slow model: a streamed request gets ``n`` pieces, then the server
                                        sets ``pause.reached`` and waits for ``pause.release`` (or for the server to
                                        stop); a plain request waits before its reply.  No timing involved.
                                        ``pause.hung_up`` is set when the client closes the connection meanwhile
                                        (or before the pause point: a write then fails).

Streaming: a request with ``"stream": true`` gets the same reply as Server-Sent Events, text split into word pieces
(Chat Completions chunks with ``[DONE]``; Responses ``response.*`` events ending in ``response.completed``).
``srv.disconnects`` counts streams the client closed before their end.
    null_content()                      a reply with no text and no tool calls (content null / empty output)
    cut("partial text")                 the server stopped at the output cap: Chat Completions ``finish_reason
                                        "length"``; Responses ``status "incomplete"`` with ``incomplete_details.reason
                                        "max_output_tokens"`` (streamed: ``response.incomplete`` as the last event)
    endless()                           a model that never stops: a streamed request gets distinct words for ever
                                        (it ignores the request's cap) until the client closes the stream or the
                                        server stops; a plain request gets ``cut(...)``

Options:
    require_reasoning=True   a later request that returns a function_call_output for a call that was emitted next to
                             a reasoning item, without sending that reasoning item back, gets the real API's 400.
                             (On by default, as on the real API.)  Tool results whose call was not sent back 400 too.
    reject_params={"temperature", "top_p"}   any request carrying one of these gets a 400 naming the parameter
                             (like reasoning models); no script step is consumed.
    smart=callable(SmartRequest) -> step | None   used when the script is empty ("smart" mode for UI/eval tests);
                             ``tools_then_answer(plan, write)`` builds the common one (call tools, then answer).
    When neither script nor smart has a step the server answers 400 "scripted server: script exhausted" so a test
    that makes more calls than it planned fails loudly.

SmartRequest fields: api, body, round (assistant tool-call turns already in the input + 1), user_text (last user
message), system_text, tool_names (tools in the request), tool_results (list of ToolResultSeen(name, args, output)),
tool_choice (the request's field, "auto" when absent), has_tools (tools offered and tool_choice is not "none": False on
a forced answer call, whether it dropped the tools or kept them with tool_choice "none").

Prompt cache, like llama.cpp's slot cache: every answer reports as cached the longest common prefix of this request's
prompt with the previous request's prompt, in estimated tokens (4 characters each).  The prompt is the request
rendered in the order a server puts it in front of the model: tools, system/instructions, then the conversation
(``prompt_text``).  Chat Completions report it in ``usage.prompt_tokens_details.cached_tokens`` and llama.cpp's
``timings.cache_n``; Responses in ``usage.input_tokens_details.cached_tokens``.
"""

from __future__ import annotations

import itertools
import json
import re
import select
import socket
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest


def send_json(handler: BaseHTTPRequestHandler, status: int, payload: dict) -> None:
    """One JSON response with its length, as the OpenAI-compatible servers send it."""
    data = json.dumps(payload).encode()
    handler.send_response(status)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Length", str(len(data)))
    handler.end_headers()
    handler.wfile.write(data)


# --------------------------------------------------------------------------------------------- steps


@dataclass(frozen=True)
class Pause:
    """Where a slow model stops until the test releases it."""

    after: int
    reached: threading.Event = field(default_factory=threading.Event, compare=False)
    release: threading.Event = field(default_factory=threading.Event, compare=False)
    hung_up: threading.Event = field(default_factory=threading.Event, compare=False)  # the client closed meanwhile


@dataclass(frozen=True)
class Step:
    kind: str  # "text" | "calls" | "error" | "null" | "unparsable" | "cut" | "endless"
    text: str | None = None
    calls: tuple[tuple[str, str], ...] = ()  # (name, raw JSON arguments)
    status: int = 200
    param: str | None = None
    delay_s: float = 0.0
    reasoning: str | None = None
    pause: Pause | None = None
    mid_stream: bool = False  # "unparsable": a streamed request fails after its first piece, as an event


def paused(step: Step, after: int = 1) -> tuple[Step, Pause]:
    """``step`` from a slow model: ``after`` streamed pieces, then a wait the test ends with ``pause.release``."""
    pause = Pause(after)
    return replace(step, pause=pause), pause


def text(content: str | None) -> Step:
    """An assistant message whose text is exactly ``content`` (None -> null content)."""
    return Step("null") if content is None else Step("text", text=content)


def answer(markdown: str, assessment: str | None = None, charts: Iterable[dict] = ()) -> Step:
    """An assistant message in the blocks format the copilot asks for."""
    blocks = [{"type": "text", "content": markdown, "chart": None}]
    blocks += [{"type": "chart", "content": None, "chart": c} for c in charts]
    return Step("text", text=json.dumps({"blocks": blocks, "assessment": assessment}))


def _raw(args: dict | str) -> str:
    return args if isinstance(args, str) else json.dumps(args)


def call(name: str, args: dict | str | None = None) -> Step:
    """One function call; a string ``args`` is sent verbatim (use it for malformed JSON)."""
    return Step("calls", calls=((name, _raw(args if args is not None else {})),))


def calls(*pairs: tuple[str, dict | str]) -> Step:
    """Several function calls in one model turn."""
    return Step("calls", calls=tuple((n, _raw(a)) for n, a in pairs))


def reasoning(summary: str, step: Step) -> Step:
    """``step`` preceded by a reasoning item (Responses API); Chat Completions ignores it."""
    return replace(step, reasoning=summary)


def error(status: int, message: str, param: str | None = None) -> Step:
    """An HTTP error with OpenAI's error body."""
    return Step("error", text=message, status=status, param=param)


# What llama.cpp's server says when the model's tool call is not JSON it can parse (the model's text is quoted in it).
PARSE_FAILURE = ("Failed to parse tool call arguments as JSON: [json.exception.parse_error.101] parse error at line 1, "
                 "column 38: syntax error while parsing object - unexpected end of input; expected '}'; last read: "
                 "'{\"chip_id\": \"64Qv3\", \"metric_name\": \"t1'")


def unparsable(status: int = 500, message: str = PARSE_FAILURE, mid_stream: bool = False) -> Step:
    """The server could not parse the tool call the model wrote: llama.cpp's error body (``code`` a number, no
    ``param``) with HTTP ``status``; ``mid_stream``: a streamed request gets 200 and the error after a first piece."""
    return Step("unparsable", text=message, status=status, mid_stream=mid_stream)


def delay(seconds: float, step: Step) -> Step:
    """Reply ``step`` after ``seconds`` (server-side), e.g. to trip a client timeout."""
    return replace(step, delay_s=seconds)


def cut(partial: str) -> Step:
    """A reply the server cut at its output-token cap after writing ``partial``."""
    return Step("cut", text=partial)


def endless() -> Step:
    """A model that writes on for ever without repeating itself (streamed requests)."""
    return Step("endless")


def null_content() -> Step:
    """No text, no tool calls: what some local servers return on a bad generation."""
    return Step("null")


# ------------------------------------------------------------------------------------ smart requests


@dataclass(frozen=True)
class ToolResultSeen:
    name: str
    args: dict | str
    output: str


@dataclass(frozen=True)
class SmartRequest:
    api: str  # "responses" | "chat"
    body: dict
    round: int
    user_text: str
    system_text: str
    tool_names: list[str]
    tool_results: list[ToolResultSeen]
    tool_choice: str = "auto"

    @property
    def has_tools(self) -> bool:
        return bool(self.tool_names) and self.tool_choice != "none"


def _content_text(content: Any) -> str:
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(str(part.get("text", "")) for part in content if isinstance(part, dict))
    return str(content)


def _parse_args(raw: Any) -> dict | str:
    try:
        value = json.loads(raw) if isinstance(raw, str) else raw
    except ValueError:
        return raw
    return value if isinstance(value, dict) else raw


def smart_request_from(api: str, body: dict) -> SmartRequest:
    """Normalise either API's request body into what a smart callable needs."""
    user_text = system_text = ""
    results: list[ToolResultSeen] = []
    assistant_turns = 0
    if api == "responses":
        system_text = _content_text(body.get("instructions"))
        items = body.get("input")
        items = [{"role": "user", "content": items}] if isinstance(items, str) else (items or [])
        calls_by_id: dict[str, tuple[str, Any]] = {}
        for item in items:
            kind = item.get("type", "message")
            if kind == "function_call":
                calls_by_id[item.get("call_id")] = (item.get("name"), _parse_args(item.get("arguments")))
            elif kind == "function_call_output":
                name, args = calls_by_id.get(item.get("call_id"), ("?", {}))
                results.append(ToolResultSeen(name, args, _content_text(item.get("output"))))
            elif kind == "message" and item.get("role") == "user":
                user_text = _content_text(item.get("content"))
            elif kind == "message" and item.get("role") in ("system", "developer"):
                system_text += _content_text(item.get("content"))
        tools = [t.get("name") for t in body.get("tools") or []]
    else:
        calls_by_id = {}
        for msg in body.get("messages") or []:
            role = msg.get("role")
            if role == "system":
                system_text += _content_text(msg.get("content"))
            elif role == "user":
                user_text = _content_text(msg.get("content"))
            elif role == "assistant":
                assistant_turns += 1 if msg.get("tool_calls") else 0
                for tc in msg.get("tool_calls") or []:
                    fn = tc.get("function") or {}
                    calls_by_id[tc.get("id")] = (fn.get("name"), _parse_args(fn.get("arguments")))
            elif role == "tool":
                name, args = calls_by_id.get(msg.get("tool_call_id"), ("?", {}))
                results.append(ToolResultSeen(name, args, _content_text(msg.get("content"))))
        tools = [(t.get("function") or {}).get("name") for t in body.get("tools") or []]
    if api == "responses":
        assistant_turns = _responses_rounds(body)
    choice = body.get("tool_choice")
    return SmartRequest(api, body, assistant_turns + 1, user_text, system_text, [t for t in tools if t], results,
                        choice if isinstance(choice, str) else "auto")


def prompt_text(api: str, body: dict) -> str:
    """The prompt a server would feed the model for this request: tools, then system text, then the turns."""
    tools = json.dumps(body.get("tools") or [], sort_keys=True)
    if api == "responses":
        turns = body.get("input")
        return tools + json.dumps(body.get("instructions") or "") + json.dumps(turns, sort_keys=True)
    return tools + json.dumps(body.get("messages") or [], sort_keys=True)


def common_prefix(a: str, b: str) -> int:
    """Length of the longest common prefix of two strings."""
    n = min(len(a), len(b))
    lo, hi = 0, n
    while lo < hi:  # binary search on prefix equality: C-speed slices instead of a Python loop per character
        mid = (lo + hi + 1) // 2
        if a[:mid] == b[:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def estimate_tokens(chars: int) -> int:
    return chars // 4


def _responses_rounds(body: dict) -> int:
    """Assistant turns in a Responses input: runs of consecutive function_call items."""
    items = body.get("input")
    if not isinstance(items, list):
        return 0
    rounds, in_calls = 0, False
    for item in items:
        is_call = item.get("type") in ("function_call", "reasoning")
        if is_call and not in_calls:
            rounds += 1
        in_calls = is_call
    return rounds


def tools_then_answer(plan: Iterable[tuple[str, dict]], write: Callable[[list[ToolResultSeen]], str],
                      assessment: str | None = None) -> Callable[[SmartRequest], Step]:
    """A smart callable: call the planned tools one per round, then answer with ``write(tool_results)``.

    On a forced no-tools (finalize) request it answers at once.  Example::

        server.smart = tools_then_answer([("get_chip_summary", {"chip_id": "64Qv3"})],
                                         lambda results: f"Saw {len(results)} results")
    """
    steps = list(plan)

    def reply(req: SmartRequest) -> Step:
        if req.has_tools and req.round <= len(steps):
            return call(*steps[req.round - 1])
        return answer(write(req.tool_results), assessment)

    return reply


# --------------------------------------------------------------------------------------------- server


@dataclass
class Recorded:
    path: str
    api: str
    body: dict
    headers: dict[str, str] = field(default_factory=dict)


class ScriptedOpenAI:
    """The server; see the module docstring for the API."""

    def __init__(self, script: Iterable[Step] = (), *, smart: Callable[[SmartRequest], Step | None] | None = None,
                 require_reasoning: bool = True, reject_params: Iterable[str] = (), model: str = "scripted-model"):
        self._script: list[Step] = list(script)
        self.smart = smart
        self.require_reasoning = require_reasoning
        self.reject_params = set(reject_params)
        self.model = model
        self.requests: list[Recorded] = []
        self.calls_made = 0
        self.disconnects = 0
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._reasoning_for_call: dict[str, str] = {}  # call_id -> reasoning id emitted with it
        self._last_prompt = ""  # the previous request's prompt (the one-slot prompt cache)
        self._stop = threading.Event()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle
    def start(self) -> ScriptedOpenAI:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:  # keep test output clean
                return

            def setup(self) -> None:
                super().setup()  # headers and body are separate writes: without NODELAY, Nagle adds ~40 ms
                self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

            def do_GET(self) -> None:  # noqa: N802
                if self.path.rstrip("/").endswith("/models"):
                    self._send(200, {"object": "list", "data": [
                        {"id": server.model, "object": "model", "created": 0, "owned_by": "scripted"}]})
                else:
                    self._send(404, {"error": {"message": f"no route {self.path}", "type": "not_found"}})

            def do_POST(self) -> None:  # noqa: N802
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    body = json.loads(raw or b"{}")
                except ValueError:
                    self._send(400, _err("request body is not JSON", "invalid_request_error"))
                    return
                status, payload, wait, pause = server._handle(self.path, body, dict(self.headers))
                if wait and server._stop.wait(wait):
                    return
                try:
                    if status == 200 and body.get("stream"):
                        self._stream(server._events(self.path, body, payload), pause)
                        return
                    if pause is not None and not server._hold(pause, self.connection):
                        return
                    self._send(status, payload)
                except (BrokenPipeError, ConnectionResetError):  # the client gave up (timeout test, stop)
                    with server._lock:
                        server.disconnects += 1
                    if pause is not None:  # it hung up before the pause point was even reached
                        pause.hung_up.set()

            def _stream(self, events: list[str], pause: Pause | None) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Connection", "close")
                self.end_headers()
                self.close_connection = True
                for i, event in enumerate(events):
                    if pause is not None and i == pause.after and not server._hold(pause, self.connection):
                        return
                    self.wfile.write(event.encode())
                    self.wfile.flush()

            def _send(self, status: int, payload: dict) -> None:
                send_json(self, status, payload)

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        httpd = self._httpd
        self._thread = threading.Thread(target=lambda: httpd.serve_forever(poll_interval=0.05), name="scripted-openai",
                                        daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None

    def __enter__(self) -> ScriptedOpenAI:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    @property
    def base_url(self) -> str:
        assert self._httpd is not None, "server not started"
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def provider(self, style: str = "chat_completions", **changes: Any) -> Any:
        """A ``copilot_core.agent.ProviderConfig`` on this server: fast retries, no backoff waits."""
        from dataclasses import replace

        from copilot_core.agent import ProviderConfig

        base = ProviderConfig(api_key="sk-test-provider-key-0001", base_url=self.base_url, model=self.model,
                              api_style=style, temperature=0.2, max_output_tokens=512, timeout_s=5.0, max_retries=2,
                              retry_backoff_s=0.01)
        return replace(base, **changes)

    # -- script
    def push(self, *steps: Step) -> None:
        with self._lock:
            self._script.extend(steps)

    @property
    def remaining(self) -> int:
        return len(self._script)

    def bodies(self, api: str | None = None) -> list[dict]:
        return [r.body for r in self.requests if api is None or r.api == api]

    # -- request handling
    def _hold(self, pause: Pause, conn: socket.socket) -> bool:
        """Signal the pause and wait for its release; False when the server stopped or the client hung up
        meanwhile (then ``pause.hung_up`` is set and ``disconnects`` counts it)."""
        pause.reached.set()
        while not pause.release.wait(0.05):
            if self._stop.is_set():
                return False
            if _hung_up(conn):
                with self._lock:
                    self.disconnects += 1
                pause.hung_up.set()
                return False
        return True

    def _events(self, path: str, body: dict, payload: dict) -> Iterable[str]:
        """The reply as Server-Sent Events: a few header events, one per text piece or call, the end."""
        api = "responses" if path.split("?")[0].rstrip("/").endswith("/responses") else "chat"
        if ENDLESS in payload:
            return _endless_events(api, self.model, self._stop)
        if STREAM_ERROR in payload:  # a first piece of text, then the server's error as an event (no event name)
            first = {"type": "response.output_text.delta", "sequence_number": 0, "item_id": "msg_0", "output_index": 0,
                     "content_index": 0, "delta": "Looking", "logprobs": []} if api == "responses" else {
                "id": "chatcmpl-0", "object": "chat.completion.chunk", "created": int(time.time()), "model": self.model,
                "choices": [{"index": 0, "delta": {"role": "assistant", "content": "Looking"}, "finish_reason": None}]}
            return [_sse(first, "response.output_text.delta" if api == "responses" else None),
                    _sse(payload[STREAM_ERROR])]
        return _responses_events(payload) if api == "responses" else _chat_events(payload, body)

    def _handle(self, path: str, body: dict, headers: dict[str, str]) -> tuple[int, dict, float, Pause | None]:
        path = path.split("?")[0].rstrip("/")
        if path.endswith("/responses"):
            api = "responses"
        elif path.endswith("/chat/completions"):
            api = "chat"
        else:
            return 404, _err(f"no route {path}", "not_found"), 0.0, None
        with self._lock:
            self.requests.append(Recorded(path, api, body, headers))
            self.calls_made += 1
            for param in sorted(self.reject_params):
                if body.get(param) is not None:
                    return 400, _err(f"Unsupported parameter: '{param}' is not supported with this model.",
                                     "invalid_request_error", param, "unsupported_parameter"), 0.0, None
            problem = self._check_protocol(api, body)
            if problem:
                return 400, _err(problem, "invalid_request_error"), 0.0, None
            step = self._script.pop(0) if self._script else None
        if step is None and self.smart is not None:
            step = self.smart(smart_request_from(api, body))
        if step is None:
            return 400, _err("scripted server: script exhausted", "invalid_request_error"), 0.0, None
        if step.kind == "unparsable":
            failed = {"error": {"code": step.status, "message": step.text,
                                "type": "server_error" if step.status >= 500 else "invalid_request_error"}}
            if step.mid_stream and body.get("stream"):
                return 200, {STREAM_ERROR: failed}, step.delay_s, None
            return step.status, failed, step.delay_s, None
        if step.kind == "error":
            kind = "rate_limit_error" if step.status == 429 else (
                "server_error" if step.status >= 500 else "invalid_request_error")
            return step.status, _err(step.text or "error", kind, step.param), step.delay_s, None
        if step.kind == "endless":
            if body.get("stream"):
                return 200, {ENDLESS: api}, step.delay_s, None
            step = cut("I will keep writing")
        with self._lock:
            payload = self._render_responses(body, step) if api == "responses" else self._render_chat(body, step)
        return 200, payload, step.delay_s, step.pause

    def _check_protocol(self, api: str, body: dict) -> str | None:
        """The real APIs' 400s for conversations that were not replayed faithfully."""
        if api == "responses":
            items = body.get("input")
            if not isinstance(items, list):
                return None
            call_ids = {i.get("call_id") for i in items if i.get("type") == "function_call"}
            reasoning_ids = {i.get("id") for i in items if i.get("type") == "reasoning"}
            for item in items:
                if item.get("type") != "function_call_output":
                    continue
                cid = item.get("call_id")
                if cid not in call_ids:
                    return f"No tool call found for function call output with call_id {cid}."
                rs = self._reasoning_for_call.get(cid)
                if self.require_reasoning and rs and rs not in reasoning_ids:
                    return (f"Item 'fc_{cid}' of type 'function_call' was provided without its required "
                            f"'reasoning' item: '{rs}'.")
            return None
        pending: set[str] = set()
        for msg in body.get("messages") or []:
            if msg.get("role") == "assistant":
                pending = {tc.get("id") for tc in msg.get("tool_calls") or []}
            elif msg.get("role") == "tool":
                if msg.get("tool_call_id") not in pending:
                    return ("Invalid parameter: messages with role 'tool' must be a response to a preceeding "
                            "message with 'tool_calls'.")
        return None

    def _usage(self, api: str, body: dict, out_text: str) -> tuple[int, int, int]:
        """Prompt tokens, completion tokens, and prompt tokens reused from the previous request's prompt."""
        prompt = prompt_text(api, body)
        cached = estimate_tokens(common_prefix(prompt, self._last_prompt))
        self._last_prompt = prompt
        return max(1, estimate_tokens(len(prompt))), max(1, estimate_tokens(len(out_text))), cached

    def _render_responses(self, body: dict, step: Step) -> dict:
        n = next(self._ids)
        output: list[dict] = []
        rs_id = None
        if step.reasoning is not None:
            rs_id = f"rs_{n}"
            output.append({"type": "reasoning", "id": rs_id, "status": "completed",
                           "summary": [{"type": "summary_text", "text": step.reasoning}],
                           "encrypted_content": f"enc-{n}"})
        if step.kind == "calls":
            for i, (name, args) in enumerate(step.calls):
                cid = f"call_{n}_{i}"
                if rs_id:
                    self._reasoning_for_call[cid] = rs_id
                output.append({"type": "function_call", "id": f"fc_{n}_{i}", "call_id": cid, "name": name,
                               "arguments": args, "status": "completed"})
        elif step.kind in ("text", "cut"):
            output.append({"type": "message", "id": f"msg_{n}", "role": "assistant",
                           "status": "incomplete" if step.kind == "cut" else "completed",
                           "content": [{"type": "output_text", "text": step.text, "annotations": []}]})
        out_text = json.dumps(output)
        tin, tout, cached = self._usage("responses", body, out_text)
        was_cut = step.kind == "cut"
        return {"id": f"resp_{n}", "object": "response", "created_at": time.time(), "model": self.model,
                "status": "incomplete" if was_cut else "completed", "output": output, "parallel_tool_calls": True,
                "tool_choice": "auto", "tools": [], "error": None,
                "incomplete_details": {"reason": "max_output_tokens"} if was_cut else None,
                "usage": {"input_tokens": tin, "output_tokens": tout, "total_tokens": tin + tout,
                          "input_tokens_details": {"cached_tokens": cached},
                          "output_tokens_details": {"reasoning_tokens": 0}}}

    def _render_chat(self, body: dict, step: Step) -> dict:
        n = next(self._ids)
        message: dict[str, Any] = {"role": "assistant", "content": None}
        finish = "stop"
        if step.kind == "calls":
            message["tool_calls"] = [{"id": f"call_{n}_{i}", "type": "function",
                                      "function": {"name": name, "arguments": args}}
                                     for i, (name, args) in enumerate(step.calls)]
            finish = "tool_calls"
        elif step.kind in ("text", "cut"):
            message["content"] = step.text
            finish = "length" if step.kind == "cut" else finish
        tin, tout, cached = self._usage("chat", body, json.dumps(message))
        return {"id": f"chatcmpl-{n}", "object": "chat.completion", "created": int(time.time()),
                "model": self.model, "choices": [{"index": 0, "finish_reason": finish, "message": message,
                                                  "logprobs": None}],
                "usage": {"prompt_tokens": tin, "completion_tokens": tout, "total_tokens": tin + tout,
                          "prompt_tokens_details": {"cached_tokens": cached}},
                "timings": {"cache_n": cached, "prompt_n": tin - cached}}


STREAM_ERROR = "stream_error"  # in a 200 payload: the events are one piece, then this error body


def _arg_pieces(arguments: str) -> list[str]:
    """A call's arguments in token-sized pieces, as a server streams them."""
    return [arguments[i:i + ARG_PIECE] for i in range(0, len(arguments), ARG_PIECE)]


ARG_PIECE = 12


def _hung_up(conn: socket.socket) -> bool:
    """The client closed its end (a readable socket with nothing to read)."""
    readable, _, _ = select.select([conn], [], [], 0)
    if not readable:
        return False
    try:
        return conn.recv(1, socket.MSG_PEEK) == b""
    except OSError:
        return True


_PIECE = re.compile(r"\S+\s*|\s+")


def _sse(data: dict | str, event: str | None = None) -> str:
    head = f"event: {event}\n" if event else ""
    return head + "data: " + (data if isinstance(data, str) else json.dumps(data)) + "\n\n"


def _chat_events(payload: dict, body: dict) -> list[str]:
    """A chat.completion as ``chat.completion.chunk`` events: role, text pieces, calls, finish, usage, [DONE]."""
    choice = payload["choices"][0]
    message = choice["message"]
    base = {"id": payload["id"], "object": "chat.completion.chunk", "created": payload["created"],
            "model": payload["model"]}

    def chunk(delta: dict, finish: str | None = None) -> str:
        return _sse({**base, "choices": [{"index": 0, "delta": delta, "finish_reason": finish, "logprobs": None}]})

    events = [chunk({"role": "assistant", "content": ""})]
    events += [chunk({"content": piece}) for piece in _PIECE.findall(message.get("content") or "")]
    for i, tc in enumerate(message.get("tool_calls") or []):  # as llama.cpp: id and name, then argument pieces
        head = {**tc, "function": {"name": tc["function"]["name"], "arguments": ""}}
        events.append(chunk({"tool_calls": [{"index": i, **head}]}))
        events += [chunk({"tool_calls": [{"index": i, "function": {"arguments": piece}}]})
                   for piece in _arg_pieces(tc["function"]["arguments"])]
    events.append(chunk({}, choice["finish_reason"]))
    if (body.get("stream_options") or {}).get("include_usage"):
        events.append(_sse({**base, "choices": [], "usage": payload["usage"], "timings": payload.get("timings")}))
    return [*events, _sse("[DONE]")]


def _responses_events(payload: dict) -> list[str]:
    """A response as ``response.*`` events: created, each item's text pieces, completed."""
    seq = itertools.count()
    events = [_sse({"type": "response.created", "sequence_number": next(seq),
                    "response": {**payload, "status": "in_progress", "output": []}}, "response.created")]
    for index, item in enumerate(payload["output"]):
        events.append(_sse({"type": "response.output_item.added", "sequence_number": next(seq), "output_index": index,
                            "item": item}, "response.output_item.added"))
        if item.get("type") == "function_call":
            events += [_sse({"type": "response.function_call_arguments.delta", "sequence_number": next(seq),
                             "item_id": item["id"], "output_index": index, "delta": piece},
                            "response.function_call_arguments.delta") for piece in _arg_pieces(item["arguments"])]
        if item.get("type") == "message":
            for part in item.get("content") or []:
                for piece in _PIECE.findall(part.get("text") or ""):
                    events.append(_sse({"type": "response.output_text.delta", "sequence_number": next(seq),
                                        "item_id": item["id"], "output_index": index, "content_index": 0,
                                        "delta": piece, "logprobs": []}, "response.output_text.delta"))
        events.append(_sse({"type": "response.output_item.done", "sequence_number": next(seq), "output_index": index,
                            "item": item}, "response.output_item.done"))
    end = "response.incomplete" if payload["status"] == "incomplete" else "response.completed"
    events.append(_sse({"type": end, "sequence_number": next(seq), "response": payload}, end))
    return events


ENDLESS = "endless"  # in a 200 payload: the events are distinct words for ever


def _endless_events(api: str, model: str, stop: threading.Event) -> Iterable[str]:
    """Distinct words, one event each, until the server stops (the client closing the stream ends the writes)."""
    for n in itertools.count():
        if stop.is_set():
            return
        word = f"word{n} "
        if api == "responses":
            yield _sse({"type": "response.output_text.delta", "sequence_number": n, "item_id": "msg_0",
                        "output_index": 0, "content_index": 0, "delta": word, "logprobs": []},
                       "response.output_text.delta")
        else:
            yield _sse({"id": "chatcmpl-endless", "object": "chat.completion.chunk", "created": 0, "model": model,
                        "choices": [{"index": 0, "delta": {"content": word}, "finish_reason": None}]})


def _err(message: str, kind: str, param: str | None = None, code: str | None = None) -> dict:
    return {"error": {"message": message, "type": kind, "param": param, "code": code}}


@pytest.fixture
def scripted_openai():
    """A started ScriptedOpenAI with an empty script; push steps or set ``smart`` in the test."""
    server = ScriptedOpenAI().start()
    try:
        yield server
    finally:
        server.stop()
