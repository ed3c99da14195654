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

from copilot_core.agent.textcalls import is_call_shaped

_FENCE = re.compile(r"^```[A-Za-z]*\s*")
_CONTENT_KEY = re.compile(r'"content"\s*:\s*"')
_CALL_TAGS = ("<tool_call", "<|", "<function")  # a call written as text, before it is complete enough to parse
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


def draft_text(raw: str | None) -> str:
    """The answer text in a streamed reply so far ("" when nothing readable has arrived yet)."""
    text = (raw or "").lstrip()
    text = _FENCE.sub("", text, count=1) if text.startswith("```") else text
    if text.startswith("{"):
        parts = [_partial_string(text, m.end()) for m in _CONTENT_KEY.finditer(text)]
        return "\n\n".join(p for p in parts if p.strip())
    if text.startswith(_CALL_TAGS) or is_call_shaped(text):
        return ""
    return raw or ""
