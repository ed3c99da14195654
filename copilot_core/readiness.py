"""Model readiness: can this provider's model call tools and answer in the blocks JSON?

Labs run small local models that fail at tool calling in ways users cannot see (they answer in prose,
or the server 500s on an unparsable call).  The first time a provider is used, two short requests
through the agent's own conversation seam (same API style, same retries) check:

1. a tool call for a trivial tool (``report_number`` with value 42), and
2. a valid blocks-JSON answer with the real format instructions.

The verdict picks the tool set: ``full`` (every tool), ``reduced`` (five core tools, for a model that
calls tools but sloppily or cannot keep to the JSON format), or ``none`` (the no-tools path), with a
sentence saying why.  Results are cached per provider configuration; a probe that could not reach the
provider is not cached and leaves the tools on (the chat itself will then show the API error).

:func:`model_size` says whether a model is *small*, which turns the tool router on by default: an explicit
``COPILOT_MODEL_SIZE``, else a model the probe gave the reduced set (it cannot be trusted with many tools), else
a model whose name states at most 8B parameters ("qwen2.5-coder-1.5b-instruct", "llama3.2:3b"; how local
servers name their GGUFs and tags).  Those are the models that run on a lab's own CPU or workstation GPU,
where prompt processing dominates a round and fewer tool schemas pay off most.  A hosted model, or a local
70B, is not small: ``auto`` leaves the router off for it (``COPILOT_TOOL_ROUTER=on`` forces it).
"""

from __future__ import annotations

import hashlib
import json
import re
import logging
import threading
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from copilot_core.tools.registry import REDUCED_TOOLS

if TYPE_CHECKING:
    from openai import OpenAI

    from copilot_core.llm.provider import ProviderConfig

Level = Literal["full", "reduced", "none"]
ModelSize = Literal["small", "large"]
ROUTER_CHOICES = ("auto", "on", "off")
PROBE_TOOL = {
    "name": "report_number",
    "description": "Report a number to the test harness.",
    "parameters": {"type": "object", "properties": {"value": {"type": "integer", "description": "The number"}},
                   "required": ["value"], "additionalProperties": False},
}
PROBE_VALUE = 42
PROBE_TIMEOUT_S = 60.0

log = logging.getLogger(__name__)
_CACHE: dict[str, Readiness] = {}
_CACHE_LOCK = threading.Lock()
_KEY_LOCKS: dict[str, threading.Lock] = {}


@dataclass(frozen=True)
class Readiness:
    level: Level
    reason: str  # one sentence for the user
    tool_call: str  # "ok" | "wrong_call" | "no_call" | "server_error" | "not_probed"
    json_answer: str  # "ok" | "fenced" | "invalid" | "server_error" | "not_probed"
    probed: bool = True
    model: str = ""
    elapsed_s: float = 0.0
    details: dict = field(default_factory=dict)

    def allowed_tools(self) -> set[str] | None:
        """What to pass as ``Toolkit(allowed=...)``: None = every tool, an empty set = no tools."""
        return {"full": None, "reduced": set(REDUCED_TOOLS), "none": set()}[self.level]

    @property
    def uses_tools(self) -> bool:
        return self.level != "none"

    def as_dict(self) -> dict:
        return {"level": self.level, "reason": self.reason, "tool_call": self.tool_call,
                "json_answer": self.json_answer, "probed": self.probed, "model": self.model,
                "elapsed_s": round(self.elapsed_s, 2), "details": self.details}


def provider_key(provider: ProviderConfig | None) -> str:
    """Cache key: everything that changes the model's behaviour, with the API key hashed."""
    secret = hashlib.sha256((getattr(provider, "api_key", "") or "").encode()).hexdigest()[:12]
    return "|".join(str(getattr(provider, f, "")) for f in ("base_url", "model", "api_style")) + "|" + secret


def _probe_provider(provider: ProviderConfig) -> ProviderConfig:
    """The provider with a short timeout and at most one retry: a probe must not keep the user waiting."""
    import dataclasses

    return dataclasses.replace(provider, timeout_s=min(provider.timeout_s, PROBE_TIMEOUT_S),
                               max_retries=min(provider.max_retries, 1), max_output_tokens=512)


def _tool_probe(client: OpenAI, provider: ProviderConfig) -> tuple[str, dict]:
    from copilot_core.llm.calls import call_model
    from copilot_core.llm.conversation import start_conversation

    conversation = start_conversation(
        client, provider, "You are a test harness. When asked to call a tool, call it.", [],
        f"Call the tool report_number with value {PROBE_VALUE}.")
    turn = call_model(conversation, [PROBE_TOOL], provider=provider, dropped=set())
    if not turn.calls:
        return "no_call", {"reply": (turn.text or "")[:200]}
    first = turn.calls[0]
    try:
        args = json.loads(first.arguments or "{}")
    except ValueError:
        return "wrong_call", {"name": first.name, "arguments": (first.arguments or "")[:200]}
    value = args.get("value") if isinstance(args, dict) else None
    if first.name != PROBE_TOOL["name"] or str(value).strip() != str(PROBE_VALUE):
        return "wrong_call", {"name": first.name, "arguments": (first.arguments or "")[:200]}
    return "ok", {}


def _json_probe(client: OpenAI, provider: ProviderConfig) -> tuple[str, dict]:
    from copilot_core.answer.parse import first_json_object
    from copilot_core.llm.calls import call_model
    from copilot_core.llm.conversation import start_conversation
    from copilot_core.agent.prompts import render_prompt

    system = "You are a test harness.\n\n" + render_prompt("format")
    if provider.api_style == "chat_completions":
        system += "\n\n" + render_prompt("strict_emulation")
    conversation = start_conversation(client, provider, system, [], "Say that the probe worked. Informational only.")
    text = (call_model(conversation, None, provider=provider, dropped=set()).text or "").strip()

    def blocks_ok(obj: object) -> bool:
        return (isinstance(obj, dict) and isinstance(obj.get("blocks"), list) and bool(obj["blocks"])
                and all(isinstance(b, dict) and b.get("type") in ("text", "chart") for b in obj["blocks"]))

    try:
        if blocks_ok(json.loads(text)):
            return "ok", {}
    except ValueError:
        pass
    if blocks_ok(first_json_object(text)):
        return "fenced", {"reply": text[:200]}
    return "invalid", {"reply": text[:200]}


def verdict(tool_call: str, json_answer: str) -> tuple[Level, str]:
    """The tool set for these probe results, and the sentence the user sees."""
    if tool_call in ("no_call", "server_error"):
        why = ("answered in plain text instead of calling a tool" if tool_call == "no_call"
               else "made the server fail while producing a tool call (HTTP 5xx: the call could not be parsed)")
        return "none", (f"The model {why}, so the copilot answers without tools, from the context in its prompt "
                        "only. Use a model with tool calling (or the project's local-model setup) for data lookups.")
    if tool_call == "wrong_call":
        return "reduced", ("The model called the test tool with the wrong name or arguments, so it gets only five "
                           "core tools to keep its choices simple.")
    if json_answer in ("invalid", "server_error"):
        return "reduced", ("The model calls tools but did not answer in the required JSON format, so it gets only "
                           "five core tools; its answers are shown as plain text.")
    note = " (it wrapped the JSON in extra text, which the parser accepts)" if json_answer == "fenced" else ""
    return "full", f"The model called a test tool correctly and answered in the required format{note}: all tools on."


def probe_model(provider: ProviderConfig, *, client: OpenAI | None = None) -> Readiness:
    """Run the two probes now (no cache).  Never raises."""
    from copilot_core.llm.provider import make_client
    from copilot_core.errors import ProviderError

    started = time.perf_counter()
    provider = _probe_provider(provider)
    client = client or make_client(provider)
    details: dict = {}
    try:
        tool_call, details["tool"] = _tool_probe(client, provider)
    except ProviderError as exc:
        if exc.status is not None and exc.status >= 500:
            tool_call, details["tool"] = "server_error", {"error": str(exc)[:300]}
        else:
            return _unprobed(provider, str(exc), started)
    try:
        json_answer, details["json"] = _json_probe(client, provider)
    except ProviderError as exc:
        if exc.status is None or exc.status < 500:
            return _unprobed(provider, str(exc), started)
        json_answer, details["json"] = "server_error", {"error": str(exc)[:300]}
    level, reason = verdict(tool_call, json_answer)
    return Readiness(level, reason, tool_call, json_answer, True, provider.model,
                     time.perf_counter() - started, details)


def _unprobed(provider: ProviderConfig, error: str, started: float) -> Readiness:
    return Readiness("full", f"The readiness check could not reach the model ({error}); tools stay on and any "
                             "error will show in the answer.", "not_probed", "not_probed", False, provider.model,
                     time.perf_counter() - started, {"error": error[:300]})


def readiness_for(provider: ProviderConfig, *, client: OpenAI | None = None, refresh: bool = False) -> Readiness:
    """Cached readiness of this provider configuration; probes on first use (one probe at a time per key)."""
    key = provider_key(provider)
    with _CACHE_LOCK:
        if not refresh and key in _CACHE:
            return _CACHE[key]
        lock = _KEY_LOCKS.setdefault(key, threading.Lock())
    with lock:
        with _CACHE_LOCK:
            if not refresh and key in _CACHE:
                return _CACHE[key]
        result = probe_model(provider, client=client)
        if result.probed:
            with _CACHE_LOCK:
                _CACHE[key] = result
        return result


_PROBES: dict[str, threading.Thread] = {}


def start_probe(provider: ProviderConfig) -> threading.Thread:
    """Probe this provider on a background thread, once per configuration and process (the app calls it at
    start-up, so the first question finds the result cached instead of waiting for the probe)."""
    key = provider_key(provider)
    with _CACHE_LOCK:
        thread = _PROBES.get(key)
        if thread is None:
            thread = threading.Thread(target=_probe_quietly, args=(provider,), name="readiness-probe", daemon=True)
            _PROBES[key] = thread
            thread.start()
    return thread


def background_probe(provider: ProviderConfig) -> threading.Thread | None:
    """The probe :func:`start_probe` started for this provider, if any (to wait for it, or to tell it ran)."""
    with _CACHE_LOCK:
        return _PROBES.get(provider_key(provider))


def _probe_quietly(provider: ProviderConfig) -> None:
    try:
        readiness_for(provider)
    except Exception:  # noqa: BLE001 - the first question probes again and shows what went wrong
        log.warning("background readiness probe failed", exc_info=True)


def cached_readiness(provider: ProviderConfig | None) -> Readiness | None:
    """The cached result without probing (for a sidebar that must not block)."""
    with _CACHE_LOCK:
        return _CACHE.get(provider_key(provider))


def forget(provider: ProviderConfig | None = None) -> None:
    """Drop one cached result (or all): after the user changes the model server."""
    with _CACHE_LOCK:
        if provider is None:
            _CACHE.clear()
        else:
            _CACHE.pop(provider_key(provider), None)


SMALL_MAX_BILLIONS = 8.0
_PARAMS_IN_NAME = re.compile(r"(?<![a-z0-9.])(\d+(?:\.\d+)?)b(?![a-z0-9])")


def _billions_in_name(model: str) -> float | None:
    """The parameter count a model name states ("qwen2.5-coder-1.5b-instruct" -> 1.5, "llama3.1:70b" -> 70)."""
    found = [float(m) for m in _PARAMS_IN_NAME.findall((model or "").lower().replace(":", "-"))]
    return max(found) if found else None


def model_size(provider: ProviderConfig | None, readiness: Readiness | None,
               explicit: str | None = None) -> tuple[ModelSize, str]:
    """``small`` or ``large``, and why (``explicit`` is ``COPILOT_MODEL_SIZE``)."""
    choice = (explicit or "").strip().lower()
    if choice in ("small", "large"):
        return ("small" if choice == "small" else "large"), f"COPILOT_MODEL_SIZE={choice}"
    if readiness is not None and readiness.level == "reduced":
        return "small", "the readiness probe gave it the reduced tool set"
    billions = _billions_in_name(getattr(provider, "model", "") or "")
    if billions is not None and billions <= SMALL_MAX_BILLIONS:
        return "small", f"its name says {billions:g}B parameters (at most {SMALL_MAX_BILLIONS:g}B counts as small)"
    return "large", "no sign of a small model"


def router_enabled(setting: str | None, provider: ProviderConfig | None, readiness: Readiness | None,
                   explicit_size: str | None = None) -> bool:
    """``COPILOT_TOOL_ROUTER``: ``on``, ``off``, or ``auto`` (the default: on for a small model, with its router
    prefetch; measured with ``make eval-local`` on the project's local 1.5B model, it scores above the router off)."""
    choice = (setting or "auto").strip().lower()
    if choice not in ROUTER_CHOICES:
        raise ValueError(f"COPILOT_TOOL_ROUTER must be one of {', '.join(ROUTER_CHOICES)} (got {setting!r})")
    if choice != "auto":
        return choice == "on"
    return model_size(provider, readiness, explicit_size)[0] == "small"
