"""Tool calls a small model wrote as text instead of a structured call.

Qwen-family models sometimes answer with ``<tool_call>{"name": ..., "arguments": {...}}</tool_call>``, a
```` ```json ```` block holding that object, or the bare object, and the server passes it through as the message
text (always so when ``tool_choice`` is ``"none"``).  Shown to the user it reads as a broken answer; the loop runs
it as a call instead (or, in the forced final round, never shows it).  A call to a tool that does not exist
(``{"name": "chip-health-report", ...}``) cannot be run, and is not an answer either: ``is_call_shaped`` says so.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection

_TAGGED = re.compile(r"<tool_call>\s*(.*?)\s*(?:</tool_call>|$)", re.S)
_FENCED = re.compile(r"```(?:json|tool_call)?\s*(.*?)\s*```", re.S)


def _as_call(raw: str, known: Collection[str]) -> tuple[str, str] | None:
    try:
        value = json.loads(raw)
    except ValueError:
        return None
    if not isinstance(value, dict) or value.get("name") not in known:
        return None
    args = value.get("arguments", value.get("parameters", {}))
    if isinstance(args, str):
        try:
            args = json.loads(args) if args.strip() else {}
        except ValueError:
            return None
    if not isinstance(args, dict):
        return None
    return str(value["name"]), json.dumps(args)


def _shaped(raw: str) -> bool:
    fenced = _FENCED.fullmatch(raw.strip())
    if fenced:
        raw = fenced.group(1)
    try:
        value = json.loads(raw)
    except ValueError:
        return False
    return isinstance(value, dict) and isinstance(value.get("name"), str) and \
        ("arguments" in value or "parameters" in value)


def is_call_shaped(text: str | None) -> bool:
    """True when the whole text is tool calls (tagged, fenced or a bare object, of any name) and nothing else: not
    something a person can read as an answer."""
    if not text or "name" not in text:
        return False
    stripped = text.strip()
    if stripped.startswith("{"):
        return _shaped(stripped)
    for pattern in (_TAGGED, _FENCED):
        found = [m.group(1) for m in pattern.finditer(stripped)]
        if found:
            return all(_shaped(raw) for raw in found) and not pattern.sub("", stripped).strip()
    return False


def text_tool_calls(text: str | None, known: Collection[str]) -> list[tuple[str, str]]:
    """``(name, JSON arguments)`` of each call of a known tool written in ``text``; empty when the text is
    anything else (an answer that merely contains JSON names no known tool)."""
    if not text or "name" not in text:
        return []
    stripped = text.strip()
    candidates = [m.group(1) for m in _TAGGED.finditer(stripped)] or [m.group(1) for m in _FENCED.finditer(stripped)]
    if not candidates and stripped.startswith("{"):
        candidates = [stripped]
    calls = [call for raw in candidates if (call := _as_call(raw, known)) is not None]
    return calls
