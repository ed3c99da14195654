"""Code fences in model text (```` ```json … ``` ````): one reader for the answer parse, text tool calls and the
chart JSON a model pastes into prose.

A fence opens at three backticks, maybe followed by one of the caller's language words (the answer parse allows
``json``/``JSON``, the tool-call reader ``json``/``tool_call``: which replies parse depends on them, so they are
data, not part of the reader), then any whitespace; its body runs to the next three backticks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

MARK = "```"
ANSWER_WORDS = ("json", "JSON")
CALL_WORDS = ("json", "tool_call")


@dataclass(frozen=True)
class Fence:
    """One fence: its span in the text and its body (from after the language word and whitespace, to the closing
    mark; trailing whitespace kept)."""

    start: int
    end: int
    body: str


def skip_space(text: str, i: int) -> int:
    """The first position from ``i`` on that is not whitespace (``len(text)`` when none is)."""
    while i < len(text) and text[i].isspace():
        i += 1
    return i


def body_start(text: str, opening: int, words: Sequence[str]) -> int:
    """Where the body of a fence opened at ``opening`` starts: after the mark, the first of ``words`` written
    there (if any) and whitespace."""
    i = opening + len(MARK)
    word = next((w for w in words if text.startswith(w, i)), "")
    return skip_space(text, i + len(word))


def fences(text: str, words: Sequence[str]) -> list[Fence]:
    """Every closed fence of ``text``, left to right, none overlapping another."""
    out: list[Fence] = []
    opening = text.find(MARK)
    while opening >= 0:
        start = body_start(text, opening, words)
        closing = text.find(MARK, start)
        if closing < 0:
            break
        out.append(Fence(opening, closing + len(MARK), text[start:closing]))
        opening = text.find(MARK, closing + len(MARK))
    return out


def whole_fence(text: str, words: Sequence[str]) -> str | None:
    """The body of ``text`` when all of it is one fence (whitespace stripped from the body), else None."""
    if not text.startswith(MARK) or len(text) < 2 * len(MARK) or not text.endswith(MARK):
        return None
    return text[body_start(text, 0, words):len(text) - len(MARK)].strip()


def without_fences(text: str, found: Sequence[Fence], instead: str = "") -> str:
    """``text`` with each of ``found`` (fences of it, in order) replaced by ``instead``."""
    parts, at = [], 0
    for fence in found:
        parts += [text[at:fence.start], instead]
        at = fence.end
    return "".join([*parts, text[at:]])


def without_marks(text: str, count: int = -1) -> str:
    """``text`` with its first ``count`` fence marks (every one when negative) and their language words taken out:
    what is left of a fenced reply to read as JSON."""
    parts, at = [], 0
    mark = text.find(MARK)
    while mark >= 0 and count != 0:
        end = mark + len(MARK)
        while end < len(text) and text[end].isascii() and text[end].isalpha():
            end += 1
        parts.append(text[at:mark])
        at, count = end, count - 1
        mark = text.find(MARK, end)
    return "".join([*parts, text[at:]])


def _keyed(body: str, keys: Sequence[str]) -> bool:
    """Whether ``body`` holds ``"key":`` (spaces allowed before the colon) for one of ``keys``."""
    for key in keys:
        quoted = f'"{key}"'
        at = body.find(quoted)
        while at >= 0:
            if body[skip_space(body, at + len(quoted)):].startswith(":"):
                return True
            at = body.find(quoted, at + 1)
    return False


def chart_fences(text: str, words: Sequence[str] = ANSWER_WORDS) -> list[Fence]:
    """The fences of ``text`` that hold a Plotly figure's JSON: an object, no backtick inside, with a ``"data"`` or
    ``"layout"`` key.  Any three backticks may open one, the closing mark of another fence too."""
    out: list[Fence] = []
    opening = text.find(MARK)
    while opening >= 0:
        start = body_start(text, opening, words)
        tick = text.find("`", start)
        if text.startswith("{", start) and tick >= 0 and text.startswith(MARK, tick) \
                and _keyed(text[start:tick], ("data", "layout")):
            out.append(Fence(opening, tick + len(MARK), text[start:tick]))
            opening = text.find(MARK, tick + len(MARK))
        else:
            opening = text.find(MARK, opening + 1)
    return out
