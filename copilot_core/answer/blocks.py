"""Answer blocks: the typed values every layer passes, and their one JSON form.

An answer is a list of blocks, each a short text (markdown) or a Plotly figure.  In memory they are frozen
tagged dataclasses, so the renderer dispatches on the type and nothing reads dict keys across layers.  On the
wire (the CLI's JSON, saved chat sessions, the history replayed to the model) a block is QDash's
``{"type": "text"|"chart"|"ask"|"approval", "content": str|None, "chart": dict|None}``; :func:`block_to_dict`
and :func:`block_from_dict` are the only converters.

QDash's chat also saves ``ask`` blocks (``{"ask": {"question", "options": [{"label", "description"}]}}``) and
``approval`` blocks (``{"approval": {"id", "tool", "label", "args"}}``, a write operation waiting for the user);
they load as read-only :class:`AskBlock` / :class:`ApprovalBlock`, whose outcome QDash keeps as the next user
message (:func:`settle_cards`).

Saved blocks are hostile input (QDash or an older version may have written them): an unknown type or a
malformed chart loads as a text placeholder that says so, never as an exception.
"""

from __future__ import annotations

import string
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
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


ChoiceKind: TypeAlias = Literal["chip", "metric", "option"]
CHOICE_KINDS: tuple[ChoiceKind, ...] = ("chip", "metric", "option")


@dataclass(frozen=True)
class AskBlock:
    """A clarifying question with 2–4 options (QDash's ``ask`` block); ``answer``: the option the user picked.

    ``choice`` says what an option is, so a click passes it as a value, never as the user's words: a chip id
    (becomes the chip in view, the tools' ``chip_id``), a metric (one of the code's own phrases), or an option of
    the model's own question (sent back as its number).

    ``read_only`` for a question QDash asked: shown with its options and the reply, never as buttons here
    (its ``descriptions`` are QDash's one-line explanations, one per option, "" when none)."""

    question: str
    options: tuple[str, ...]
    answer: str | None = None
    read_only: bool = False
    descriptions: tuple[str, ...] = ()
    choice: ChoiceKind = "option"
    kind: Literal["ask"] = field(default="ask", init=False)


ApprovalStatus: TypeAlias = Literal["approved", "declined", "undecided", "pending"]


@dataclass(frozen=True)
class ApprovalBlock:
    """A write operation QDash's copilot asked the user to approve: what (``label``), which tool, and the exact
    arguments.  Always read-only here; ``status`` comes from the reply QDash saved after it."""

    approval_id: str
    tool: str
    label: str
    args: dict[str, object]
    status: ApprovalStatus = "pending"
    kind: Literal["approval"] = field(default="approval", init=False)


Block: TypeAlias = TextBlock | ChartBlock | AskBlock | ApprovalBlock

MAX_QUESTION_CHARS, MAX_OPTION_CHARS, MAX_DESCRIPTION_CHARS = 300, 80, 200
MAX_APPROVAL_ARGS = 40


def block_to_dict(block: Block) -> BlockDict:
    """The QDash JSON form of one block."""
    if isinstance(block, ChartBlock):
        return {"type": "chart", "content": None, "chart": block.figure}
    if isinstance(block, AskBlock):
        # Options in QDash's shape either way, so QDash's chat view can show this app's questions too.
        options = [{"label": o} | ({"description": d} if d else {})
                   for o, d in zip(block.options, block.descriptions or ("",) * len(block.options))]
        if block.read_only:  # QDash's own question, kept as it wrote it
            return {"type": "ask", "content": None, "chart": None,
                    "ask": {"question": block.question, "options": options}}
        return {"type": "ask", "content": block.question, "chart": None,
                "ask": {"question": block.question, "options": options, "answer": block.answer}
                | ({"choice": block.choice} if block.choice != "option" else {})}
    if isinstance(block, ApprovalBlock):
        return {"type": "approval", "content": None, "chart": None,
                "approval": {"id": block.approval_id, "tool": block.tool, "label": block.label, "args": block.args}}
    return {"type": "text", "content": block.text, "chart": None}


def blocks_to_dicts(blocks: Iterable[Block]) -> list[BlockDict]:
    return [block_to_dict(b) for b in blocks]


_LABEL_CHARS = frozenset(string.ascii_letters + string.digits + "_-")


def _label(value: object) -> str:
    """A stored type name as shown in a placeholder: identifier characters only."""
    return "".join(c for c in str(value) if c in _LABEL_CHARS)[:40] or "?"


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
    if kind == "approval":
        return _approval_from_dict(raw.get("approval"))
    return unreadable(f"block of unknown type '{_label(kind)}'")


def _ask_from_dict(ask: object) -> Block:
    """A stored ``ask`` block: a question and 2–4 options, each a string or QDash's ``{"label", "description"}``.
    Without this app's ``answer`` key the question is QDash's, and loads read-only."""
    if not isinstance(ask, Mapping) or not isinstance(ask.get("question"), str) or not isinstance(
            ask.get("options"), list):
        return unreadable("question with options (its shape is unknown)")
    pairs = [(o.get("label"), o.get("description")) if isinstance(o, Mapping) else (o, None) for o in ask["options"]]
    kept = [(label[:MAX_OPTION_CHARS], desc[:MAX_DESCRIPTION_CHARS] if isinstance(desc, str) else "")
            for label, desc in pairs if isinstance(label, str) and label.strip()][:4]
    if len(kept) < 2:
        return unreadable("question with fewer than two options")
    labels, descriptions = tuple(p[0] for p in kept), tuple(p[1] for p in kept)
    question = ask["question"][:MAX_QUESTION_CHARS]
    if "answer" not in ask:
        return AskBlock(question, labels, read_only=True, descriptions=descriptions)
    answer = ask.get("answer")
    choice: ChoiceKind = next((k for k in CHOICE_KINDS if k == ask.get("choice")), "option")
    return AskBlock(question, labels, answer[:MAX_OPTION_CHARS] if isinstance(answer, str) else None, choice=choice)


def _approval_from_dict(approval: object) -> Block:
    """A stored ``approval`` block: ``{"id", "tool", "label", "args": {...}}`` (QDash's ``ApprovalRequest``)."""
    if not isinstance(approval, Mapping):
        return unreadable("approval request (its shape is unknown)")
    label, tool, args = approval.get("label"), approval.get("tool"), approval.get("args", {})
    if not isinstance(label, str) or not label.strip() or not isinstance(tool, str) or not isinstance(args, Mapping):
        return unreadable("approval request without a label, a tool or its arguments")
    kept = {str(k)[:MAX_OPTION_CHARS]: v for k, v in list(args.items())[:MAX_APPROVAL_ARGS]}
    approval_id = approval.get("id")
    return ApprovalBlock(str(approval_id)[:MAX_OPTION_CHARS] if approval_id is not None else "", tool[:MAX_OPTION_CHARS],
                         label[:MAX_QUESTION_CHARS], kept)


def approved_reply(label: str) -> str:
    """The user turn QDash saves when an approval is granted (``ChatInteractionCards.tsx``)."""
    return f"Approved: {label}"


def declined_reply(label: str) -> str:
    return f"Declined: {label}"


def settle_card(block: Block, reply: str | None) -> Block:
    """A read-only QDash card with the outcome its next user turn records: ``reply`` is that turn's text, or
    None when the card is the conversation's last word (still waiting in QDash)."""
    if isinstance(block, ApprovalBlock):
        status: ApprovalStatus = ("pending" if reply is None else "approved" if reply == approved_reply(block.label)
                                  else "declined" if reply == declined_reply(block.label) else "undecided")
        return replace(block, status=status)
    if isinstance(block, AskBlock) and block.read_only:
        return replace(block, answer=reply if reply in block.options else None)
    return block


def blocks_from_dicts(raw: object) -> list[Block]:
    """A stored block list (anything that is not a list loads as no blocks)."""
    return [block_from_dict(item) for item in raw] if isinstance(raw, list) else []


def answer_text(blocks: Iterable[Block]) -> str:
    """Plain text of the text blocks (what the CLI prints as ``answer`` and history keeps)."""
    return "\n\n".join(b.text for b in blocks if isinstance(b, TextBlock) and b.text)


def charts(blocks: Iterable[Block]) -> list[Figure]:
    return [b.figure for b in blocks if isinstance(b, ChartBlock)]
