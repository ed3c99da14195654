"""Which model the copilot talks to, and how: one frozen config built from settings.

OpenAI itself gets the Responses API by default; any other base URL (Ollama, vLLM, llama.cpp) gets
Chat Completions, which every OpenAI-compatible server implements.  A local server needs no key, so a
dummy one is used.  The openai SDK is the only HTTP client; its own retries are off because the loop
retries with a short, configurable backoff and says what happened.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal
from urllib.parse import urlparse

from copilot_core.masking import mask_url, masked_host, with_quoted_credentials
from copilot_core.settings import ConfigError, Settings

ApiStyle = Literal["responses", "chat_completions"]
DEFAULT_OPENAI_MODEL = "gpt-5.4"  # QDash's default chat model
DEFAULT_LOCAL_MODEL = "local-model"  # llama.cpp ignores the name; Ollama/vLLM need COPILOT_MODEL
LOCAL_DUMMY_KEY = "not-needed"
OPENAI_URL = "https://api.openai.com/v1"
# A round's output cap on a local server: a final answer's blocks JSON with room to spare (~4-5 minutes at 4 tokens/s
# on a CPU); COPILOT_LOCAL_ROUND_TOKENS raises it for a fast server or answers that carry charts, "none" lifts it.
LOCAL_ROUND_TOKENS = 1024
MIN_ROUND_TOKENS = 64


@dataclass(frozen=True)
class ProviderConfig:
    api_key: str = field(repr=False)
    base_url: str | None = None
    model: str = DEFAULT_OPENAI_MODEL
    api_style: ApiStyle = "responses"
    temperature: float | None = 0.2
    max_output_tokens: int | None = 4096
    timeout_s: float = 60.0
    max_retries: int = 2  # extra attempts on 429 / 5xx / timeouts
    retry_backoff_s: float = 0.5  # first backoff; doubles per attempt, capped at 8 s
    # The server compiles each tool's JSON schema into a decoding grammar (llama.cpp with --jinja): send the full,
    # closed schemas so a small model cannot write a malformed or off-schema call (chat completions, not OpenAI).
    constrain_tool_calls: bool = False
    # One constrained call fills the typed fields of a question the parse leaves unrouted (llm/fill.py).
    fill_unrouted: bool = False
    local_round_tokens: int | None = LOCAL_ROUND_TOKENS  # not applied to OpenAI

    @property
    def is_openai(self) -> bool:
        return is_openai_url(self.base_url)

    def label(self) -> str:
        """Sidebar text, e.g. ``OpenAI gpt-5.4 · responses`` or ``127.0.0.1:8089 local-model · chat_completions``."""
        where = "OpenAI" if self.is_openai else (masked_host(self.base_url) or "?")
        return f"{where} {self.model} · {self.api_style}"


def is_openai_url(base_url: str | None) -> bool:
    return not base_url or urlparse(base_url).hostname == "api.openai.com"


def _int_or_none(value: float | int | None) -> int | None:
    return None if value is None else int(value)


def _number(settings: Settings, key: str, kind: type, default: float | int | None) -> float | int | None:
    raw = settings.get(key)
    if raw is None:
        return default
    if raw.strip().lower() in ("none", "off", "default"):
        return None
    try:
        value = kind(raw)
    except ValueError as exc:
        raise ConfigError(f"{key} must be a number, not {raw!r}") from exc
    if value < 0:
        raise ConfigError(f"{key} must not be negative ({raw!r})")
    return value


def _switch(settings: Settings, key: str) -> bool:
    raw = (settings.get(key) or "off").strip().lower()
    if raw in ("on", "true", "1", "yes"):
        return True
    if raw in ("off", "false", "0", "no", ""):
        return False
    raise ConfigError(f"{key} must be 'on' or 'off', not {raw!r}")


def provider_from_settings(settings: Settings) -> ProviderConfig | None:
    """The configured provider, or None when neither OPENAI_API_KEY nor OPENAI_BASE_URL is set.

    Optional tuning keys (env or secrets): COPILOT_TEMPERATURE ("none" to omit), COPILOT_MAX_OUTPUT_TOKENS,
    COPILOT_LOCAL_ROUND_TOKENS (a local server's cap per round), COPILOT_TIMEOUT_S, COPILOT_MAX_RETRIES,
    COPILOT_RETRY_BACKOFF_S, COPILOT_CONSTRAIN_TOOL_CALLS ("on" for a llama.cpp server; ignored for OpenAI),
    COPILOT_FILL_UNROUTED ("on": one model call fills the fields of a question the parse leaves unrouted).
    Raises ConfigError on bad values.
    """
    base_url = with_quoted_credentials(settings.openai_base_url) if settings.openai_base_url else None
    if not settings.openai_api_key and not base_url:
        return None
    if base_url and not urlparse(base_url).scheme.startswith("http"):
        raise ConfigError(f"OPENAI_BASE_URL must start with http:// or https:// (got {mask_url(base_url)!r})")
    openai = is_openai_url(base_url)
    if openai and not settings.openai_api_key:
        raise ConfigError("OPENAI_API_KEY is required for api.openai.com")
    style = settings.copilot_api_style or ("responses" if openai else "chat_completions")
    return ProviderConfig(
        api_key=settings.openai_api_key or LOCAL_DUMMY_KEY,
        base_url=base_url.rstrip("/") if base_url else None,
        model=settings.copilot_model or (DEFAULT_OPENAI_MODEL if openai else DEFAULT_LOCAL_MODEL),
        api_style=style,  # type: ignore[arg-type]  # validated by load_settings
        temperature=_number(settings, "COPILOT_TEMPERATURE", float, 0.2),
        max_output_tokens=_int_or_none(_number(settings, "COPILOT_MAX_OUTPUT_TOKENS", int, 4096)),
        timeout_s=_number(settings, "COPILOT_TIMEOUT_S", float, 60.0) or 60.0,
        max_retries=int(_number(settings, "COPILOT_MAX_RETRIES", int, 2) or 0),
        retry_backoff_s=float(_number(settings, "COPILOT_RETRY_BACKOFF_S", float, 0.5) or 0.0),
        constrain_tool_calls=_switch(settings, "COPILOT_CONSTRAIN_TOOL_CALLS") and not openai,
        fill_unrouted=_switch(settings, "COPILOT_FILL_UNROUTED"),
        local_round_tokens=_round_tokens(settings),
    )


def _round_tokens(settings: Settings) -> int | None:
    """COPILOT_LOCAL_ROUND_TOKENS: a whole number of at least ``MIN_ROUND_TOKENS`` (a smaller cap cuts every answer)."""
    value = _number(settings, "COPILOT_LOCAL_ROUND_TOKENS", int, LOCAL_ROUND_TOKENS)
    if value is not None and value < MIN_ROUND_TOKENS:
        raise ConfigError(f"COPILOT_LOCAL_ROUND_TOKENS must be at least {MIN_ROUND_TOKENS} (got {value})")
    return None if value is None else int(value)


@lru_cache(maxsize=8)
def make_client(provider: ProviderConfig):  # -> openai.OpenAI
    """The SDK client for a provider, shared across requests and threads (building one loads the TLS
    trust store: ~0.1 s).  SDK retries are off: the loop retries and reports."""
    from openai import OpenAI

    return OpenAI(api_key=provider.api_key, base_url=provider.base_url or OPENAI_URL, timeout=provider.timeout_s,
                  max_retries=0)
