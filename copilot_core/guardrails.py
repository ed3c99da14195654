"""Input and output guardrails: cap and flag what goes in, redact what must never come out.

Every model output and every database string is treated as hostile: a calibration note can carry a
prompt injection that asks the model to print a key.  The loop therefore redacts secrets from every
text block of every answer itself, whatever the model wrote.  Flags on input are informative (shown
in the trace and the show-work panel); only over-long or empty input is refused.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from copilot_core.masking import mask_urls_in, url_password

if TYPE_CHECKING:
    from copilot_core.settings import Settings

MAX_INPUT_CHARS = 2000
REDACTED = "[redacted]"

_INJECTION_PATTERNS: dict[str, re.Pattern[str]] = {
    "ignore_instructions": re.compile(
        r"\b(ignore|disregard|forget|override)\b.{0,40}\b(previous|prior|above|earlier|all|your|system)\b.{0,20}"
        r"\b(instructions?|prompts?|rules?|guidelines?)\b", re.I | re.S),
    "reveal_prompt": re.compile(r"\b(reveal|show|print|repeat|leak|dump)\b.{0,40}\b(system prompt|instructions)\b",
                                re.I | re.S),
    "reveal_secret": re.compile(
        r"\b(reveal|show|print|tell|give|leak|dump|echo|output)\b.{0,60}"
        r"(api[_ ]?key|openai_api_key|secret|password|passwd|token|credential|mongodb_uri|environment variables?|"
        r"os\.environ|\.env\b)", re.I | re.S),
    "role_override": re.compile(r"\b(you are now|act as|pretend to be|developer mode|jailbreak|DAN mode)\b", re.I),
    "fake_system": re.compile(r"(^|\n)\s*(system|assistant)\s*:|<\|?(system|im_start)\|?>", re.I),
}

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_SECRET_PATTERNS: tuple[re.Pattern[str], ...] = (
    re.compile(r"\bsk-[A-Za-z0-9_\-]{8,}"),  # OpenAI-style keys (sk-..., sk-proj-...)
    re.compile(r"\b(Bearer)\s+[A-Za-z0-9_\-\.=:/+]{8,}", re.I),
    re.compile(r"\b((?:api[_-]?key|secret|password|passwd|token)\s*[=:]\s*)[\"']?[^\s\"',;]{4,}", re.I),
)
_TRACEBACK = re.compile(
    r"Traceback \(most recent call last\):\n(?:[ \t]+[^\n]*\n?)*(?:[\w.]+(?:Error|Exception|Exit)\b[^\n]*)?"
    r"|^[ \t]*File \"[^\"\n]+\", line \d+, in [^\n]+(?:\n[ \t]{4,}[^\n]*)?", re.M)


@dataclass(frozen=True)
class InputCheck:
    ok: bool
    message: str | None = None  # why it was refused (ok False) or None
    flags: list[str] = field(default_factory=list)  # injection-like phrases found (informative)
    text: str = ""  # the message with control characters removed


def check_input(text: str) -> InputCheck:
    """Refuse empty or over-long input with a clear message; flag likely prompt-injection phrases."""
    cleaned = _CONTROL.sub("", text or "").strip()
    flags = [name for name, pattern in _INJECTION_PATTERNS.items() if pattern.search(cleaned)]
    if not cleaned:
        return InputCheck(False, "Please type a question.", flags, cleaned)
    if len(cleaned) > MAX_INPUT_CHARS:
        return InputCheck(False, f"Your message is {len(cleaned):,} characters; the limit is {MAX_INPUT_CHARS:,}. "
                                 "Shorten it or split it into several questions.", flags, cleaned)
    return InputCheck(True, None, flags, cleaned)


def _holds_credential(url: str) -> bool:
    """A URL that may carry a credential (a user or password, or a query that may hold a token) is a secret as a
    whole; a plain address (``http://127.0.0.1:8080/v1``) is not, and an error that names it shows it.  When the
    URL cannot be read, it is treated as a secret."""
    try:
        parts = urlsplit(url)
        return bool(parts.username or parts.password or parts.query or parts.fragment or "@" in parts.netloc)
    except ValueError:
        return True


def configured_secrets(settings: Settings | None = None) -> tuple[str, ...]:
    """Literal secret values from settings: API keys, DB passwords, and any *KEY/*SECRET/*TOKEN/*PASSWORD key."""
    from copilot_core.settings import current_settings

    try:
        settings = settings or current_settings()
    except Exception:  # noqa: BLE001  (a broken config must not break redaction)
        return ()
    values = [settings.openai_api_key or ""]
    for url in (settings.mongodb_uri, settings.openai_base_url):
        if url:
            values += [url_password(url) or "", url if _holds_credential(url) else ""]
    for key, value in settings.extra.items():
        if re.search(r"(KEY|SECRET|TOKEN|PASSWORD|PASSWD)$", str(key), re.I) and isinstance(value, str):
            values.append(value)
    # Short values would redact ordinary words; real secrets are long.
    return tuple(sorted({v for v in values if len(v) >= 6}, key=len, reverse=True))


def sanitize_output(text: str, secrets: Iterable[str] | None = None) -> str:
    """Redact API keys, bearer tokens, passwords in mongodb URIs, tracebacks and configured secret values."""
    if not text:
        return text
    out = text
    for value in configured_secrets() if secrets is None else secrets:
        if value and len(value) >= 6:
            out = out.replace(value, REDACTED)
    out = mask_urls_in(out)
    out = _SECRET_PATTERNS[0].sub(REDACTED, out)
    out = _SECRET_PATTERNS[1].sub(lambda m: f"{m.group(1)} {REDACTED}", out)
    out = _SECRET_PATTERNS[2].sub(lambda m: f"{m.group(1)}{REDACTED}", out)
    out = _TRACEBACK.sub("\n[internal error details removed]\n", out)
    return out
