"""Answer blocks: the typed values every layer passes, and their one JSON form.

An answer is a list of blocks, each a short text (markdown) or a Plotly figure.  In memory they are frozen
tagged dataclasses, so the renderer dispatches on the type and nothing reads dict keys across layers.  On the
wire (the CLI's JSON, saved chat sessions, the history replayed to the model) a block is QDash's
``{"type": "text"|"chart", "content": str|None, "chart": dict|None}``; :func:`block_to_dict` and
:func:`block_from_dict` are the only converters.

Saved blocks are hostile input (QDash or an older version may have written them): an unknown type or a
malformed chart loads as a text placeholder that says so, never as an exception.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Literal, TypeAlias

from copilot_core.render_safety import UnsafeFigure, validate_figure

Figure: TypeAlias = dict[str, object]  # Plotly figure JSON ({"data": [...], "layout": {...}})
BlockDict: TypeAlias = dict[str, object]  # {"type", "content", "chart"}, the QDash schema


@dataclass(frozen=True)
class TextBlock:
    """Markdown written by the model (always rendered through ``render_safety.safe_markdown``)."""

    text: str
    kind: Literal["text"] = field(default="text", init=False)


@dataclass(frozen=True)
class ChartBlock:
    """A Plotly figure (validated with ``render_safety.validate_figure`` before it is drawn)."""

    figure: Figure
    kind: Literal["chart"] = field(default="chart", init=False)


@dataclass(frozen=True)
class AskBlock:
    """A clarifying question with 2–4 options (QDash's ``ask`` block); ``answer``: the option the user picked."""

    question: str
    options: tuple[str, ...]
    answer: str | None = None
    kind: Literal["ask"] = field(default="ask", init=False)


Block: TypeAlias = TextBlock | ChartBlock | AskBlock


def block_to_dict(block: Block) -> BlockDict:
    """The QDash JSON form of one block."""
    if isinstance(block, ChartBlock):
        return {"type": "chart", "content": None, "chart": block.figure}
    if isinstance(block, AskBlock):
        return {"type": "ask", "content": block.question, "chart": None,
                "ask": {"question": block.question, "options": list(block.options), "answer": block.answer}}
    return {"type": "text", "content": block.text, "chart": None}


def blocks_to_dicts(blocks: Iterable[Block]) -> list[BlockDict]:
    return [block_to_dict(b) for b in blocks]


def _label(value: object) -> str:
    """A stored type name as shown in a placeholder: identifier characters only."""
    return re.sub(r"[^A-Za-z0-9_-]", "", str(value))[:40] or "?"


def unreadable(what: str) -> TextBlock:
    return TextBlock(f"_(A saved {what} could not be shown.)_")


def block_from_dict(raw: object) -> Block:
    """One stored block; anything not of the known shape becomes a placeholder text block."""
    if not isinstance(raw, Mapping):
        return unreadable("block that is not an object")
    kind = raw.get("type")
    if kind == "text":
        content = raw.get("content")
        return TextBlock(content) if isinstance(content, str) else unreadable("text block without text")
    if kind == "chart":
        chart = raw.get("chart")
        if isinstance(chart, Mapping) and all(isinstance(k, str) for k in chart):
            try:  # checked once here, so every rerun that draws the saved chat hands back the checked figure
                return ChartBlock(validate_figure(dict(chart)))
            except UnsafeFigure:
                return ChartBlock(dict(chart))  # drawn as "withheld", with the check's reason
        return unreadable("chart (its figure is not a JSON object)")
    if kind == "ask":
        return _ask_from_dict(raw.get("ask"))
    return unreadable(f"block of unknown type '{_label(kind)}'")


def _ask_from_dict(ask: object) -> Block:
    """A stored ``ask`` block: a question and 2–4 option strings (an option may be ``{"label": ...}``)."""
    if not isinstance(ask, Mapping) or not isinstance(ask.get("question"), str) or not isinstance(
            ask.get("options"), list):
        return unreadable("question with options (its shape is unknown)")
    options = [o.get("label") if isinstance(o, Mapping) else o for o in ask["options"]]
    labels = tuple(str(o)[:80] for o in options if isinstance(o, str) and o.strip())[:4]
    if len(labels) < 2:
        return unreadable("question with fewer than two options")
    answer = ask.get("answer")
    return AskBlock(ask["question"][:300], labels, answer[:80] if isinstance(answer, str) else None)


def blocks_from_dicts(raw: object) -> list[Block]:
    """A stored block list (anything that is not a list loads as no blocks)."""
    return [block_from_dict(item) for item in raw] if isinstance(raw, list) else []


def answer_text(blocks: Iterable[Block]) -> str:
    """Plain text of the text blocks (what the CLI prints as ``answer`` and history keeps)."""
    return "\n\n".join(b.text for b in blocks if isinstance(b, TextBlock) and b.text)


def charts(blocks: Iterable[Block]) -> list[Figure]:
    return [b.figure for b in blocks if isinstance(b, ChartBlock)]
