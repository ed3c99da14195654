"""Tool calls a small model wrote as text instead of a structured call.

Qwen-family models sometimes answer with ``<tool_call>{"name": ..., "arguments": {...}}</tool_call>``, a
```` ```json ```` block holding that object, or the bare object, and the server passes it through as the message
text (always so when ``tool_choice`` is ``"none"``).  Shown to the user it reads as a broken answer; the loop runs
it as a call instead (or, in the forced final round, never shows it).  A call to a tool that does not exist
(``{"name": "chip-health-report", ...}``) cannot be run, and is not an answer either: ``is_call_shaped`` says so.
"""

from __future__ import annotations

import json
from collections.abc import Collection

from copilot_core.answer.fences import CALL_WORDS, Fence, fences, skip_space, whole_fence, without_fences

_OPEN, _CLOSE = "<tool_call>", "</tool_call>"


def _tagged(text: str) -> list[Fence]:
    """Each ``<tool_call>`` of ``text`` with its body (to the closing tag, or to the end when there is none)."""
    out: list[Fence] = []
    opening = text.find(_OPEN)
    while opening >= 0:
        start = skip_space(text, opening + len(_OPEN))
        closing = text.find(_CLOSE, start)
        end = len(text) if closing < 0 else closing + len(_CLOSE)
        out.append(Fence(opening, end, text[start:len(text) if closing < 0 else closing]))
        opening = text.find(_OPEN, end)
    return out


def _candidates(text: str) -> tuple[list[str], str]:
    """The call-like pieces of ``text`` (tagged, else fenced, else the bare object) and the text left around them."""
    stripped = text.strip()
    for found in (_tagged(stripped), fences(stripped, CALL_WORDS)):
        if found:
            return [f.body.rstrip() for f in found], without_fences(stripped, found).strip()
    return ([stripped], "") if stripped.startswith("{") else ([], stripped)


def _json_object(raw: str) -> dict | None:
    fenced = whole_fence(raw.strip(), CALL_WORDS)  # a fence inside a <tool_call> tag
    try:
        value = json.loads(fenced if fenced is not None else raw)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _as_call(raw: str, known: Collection[str]) -> tuple[str, str] | None:
    value = _json_object(raw)
    if value is None or value.get("name") not in known:
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
    value = _json_object(raw)
    return value is not None and isinstance(value.get("name"), str) and ("arguments" in value or "parameters" in value)


def is_call_shaped(text: str | None) -> bool:
    """True when the whole text is tool calls (tagged, fenced or a bare object, of any name) and nothing else: not
    something a person can read as an answer."""
    if not text or "name" not in text:
        return False
    found, rest = _candidates(text)
    return bool(found) and not rest and all(_shaped(raw) for raw in found)


def text_tool_calls(text: str | None, known: Collection[str]) -> list[tuple[str, str]]:
    """``(name, JSON arguments)`` of each call of a known tool written in ``text``; empty when the text is
    anything else (an answer that merely contains JSON names no known tool)."""
    if not text or "name" not in text:
        return []
    return [call for raw in _candidates(text)[0] if (call := _as_call(raw, known)) is not None]
