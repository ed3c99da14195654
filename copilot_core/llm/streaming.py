"""What a half-written answer shows while it streams.

The model writes either markdown or the blocks JSON the copilot asks for (``{"blocks": [{"type": "text",
"content": "..."}], ...}``), sometimes in a code fence.  While it streams, the reader should see the text of the
text blocks decoded so far, never JSON punctuation, and never a tool call the model wrote as text.  The page
passes the result through ``render_safety.safe_markdown`` on every update; this module only decides which
characters are answer text.
"""

from __future__ import annotations

import json
import re

from copilot_core.answer.fences import without_marks
from copilot_core.answer.parse import after_key
from copilot_core.llm.textcalls import is_call_shaped

_CALL_TAGS = ("<tool_call", "<|", "<function")  # a call written as text, before it is complete enough to parse
_TAGS = ("<tool_call", "</tool_call", "<tool_response", "</tool_response", "<function", "</function", "<|")
_MARKUP = re.compile(r"</?(?:tool_call|tool_response|function)\b|<\|", re.I)
_SECTION = re.compile(r"<(tool_call|tool_response|function)\b[^>]*>.*?</\1\s*>|<\|[^|<>\s]{0,40}\|>", re.I | re.S)
_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}


def _partial_string(raw: str, start: int) -> str:
    """The JSON string body starting at ``start`` decoded up to its closing quote or the end of what arrived
    (an escape cut in half is left out until the rest arrives)."""
    out: list[str] = []
    i = start
    while i < len(raw):
        ch = raw[i]
        if ch == '"':
            break
        if ch != "\\":
            out.append(ch)
            i += 1
            continue
        if i + 1 >= len(raw):
            break
        code = raw[i + 1]
        if code == "u":
            digits = raw[i + 2:i + 6]
            if len(digits) < 4:
                break
            try:
                out.append(json.loads(f'"\\u{digits}"'))
            except ValueError:
                pass  # a lone surrogate half: dropped; the finished answer is parsed properly
            i += 6
            continue
        out.append(_ESCAPES.get(code, code))
        i += 2
    return "".join(out)


def _before_markup(text: str) -> str:
    """``text`` up to the first tool-call markup, and without a tag still arriving at its end (``<tool_`` is the start
    of ``<tool_response>``): what follows markup is a call or an invented tool result, never the answer."""
    found = _MARKUP.search(text)
    text = text[:found.start()] if found else text
    start = text.rfind("<")
    tail = text[start:].lower() if start >= 0 else ""
    if tail and _tag_start(tail) and any(tag.startswith(tail) for tag in _TAGS):
        text = text[:start]
    return text


def _tag_start(tail: str) -> bool:
    """``tail`` ("<tool_", "</fun", "<|") can still grow into a tag: "<", an optional "/", up to 14 tag letters."""
    body = tail[2:] if tail.startswith("</") else tail[1:]
    return len(body) <= 14 and all(c.isascii() and (c.isalpha() or c in "_|") for c in body)


def without_markup(text: str | None) -> str | None:
    """A finished reply without tool-call markup: every ``<tool_call>…</tool_call>``, ``<tool_response>…`` and
    ``<function…>…`` section and chat-template token removed, the text around them kept."""
    if text is None:
        return None
    kept = _before_markup(_SECTION.sub("", text))
    return text if kept == text else kept.rstrip()


def draft_text(raw: str | None) -> str:
    """The answer text in a streamed reply so far ("" when nothing readable has arrived yet)."""
    text = (raw or "").lstrip()
    text = without_marks(text, count=1).lstrip() if text.startswith("```") else text
    if text.startswith("{"):
        parts = [_partial_string(text, m) for m in after_key(text, "content", '"')]
        return _before_markup("\n\n".join(p for p in parts if p.strip()))
    if text.startswith(_CALL_TAGS) or is_call_shaped(text):
        return ""
    return _before_markup(raw or "")
