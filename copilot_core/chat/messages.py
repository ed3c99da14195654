"""One chat turn as the page shows it and as QDash stores it (``messages[{role, content, created_at}]``).

User turns keep their text as markdown content.  Assistant turns keep a blocks JSON string as content,
``{"blocks": [...], "assessment": ..., "show_work": {...}}``, the same shape QDash's UI reads, so a
session saved here reopens in QDash and the reverse (a plain-markdown QDash turn becomes one text block).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Literal

from copilot_core.answer.blocks import (
    Block,
    Figure,
    answer_text,
    blocks_from_dicts,
    blocks_to_dicts,
    charts,
    settle_card,
)
from copilot_core.chat.showwork import ShowWork

Role = Literal["user", "assistant"]
ASSESSMENTS = ("good", "warning", "bad")


def utcnow() -> datetime:
    """Naive UTC at millisecond precision, as BSON stores it."""
    now = datetime.now(timezone.utc).replace(tzinfo=None)
    return now.replace(microsecond=now.microsecond // 1000 * 1000)


@dataclass
class ChatMessage:
    """A user question or an assistant answer (blocks, assessment badge, show-work record)."""

    role: Role
    text: str = ""  # user: the question; assistant: plain text of the text blocks
    blocks: list[Block] = field(default_factory=list)
    assessment: str | None = None
    work: ShowWork | None = None
    flags: list[str] = field(default_factory=list)  # user: injection phrases noticed in the question
    error: str | None = None  # assistant: the API failed; blocks hold the partial answer or the message
    unverified_numbers: list[str] = field(default_factory=list)  # assistant: numbers no tool result backs
    stopped: bool = False  # assistant: the user stopped the turn; blocks keep what was shown until then
    follow_ups: list[str] = field(default_factory=list)  # assistant: next questions built from its tool calls
    created_at: datetime = field(default_factory=utcnow)

    @classmethod
    def user(cls, text: str, flags: list[str] | None = None) -> ChatMessage:
        return cls(role="user", text=text, flags=list(flags or []))

    @classmethod
    def assistant(cls, blocks: list[Block], *, assessment: object = None, work: ShowWork | None = None,
                  error: str | None = None, unverified_numbers: list[str] | None = None,
                  stopped: bool = False) -> ChatMessage:
        return cls(role="assistant", text=answer_text(blocks), blocks=list(blocks),
                   assessment=assessment if isinstance(assessment, str) and assessment in ASSESSMENTS else None,
                   work=work, error=error, unverified_numbers=list(unverified_numbers or []), stopped=stopped)

    def charts(self) -> list[Figure]:
        return charts(self.blocks)

    def payload(self) -> dict[str, object]:
        """The assistant turn as blocks JSON (what is saved and what the model sees of earlier turns)."""
        return {"blocks": blocks_to_dicts(self.blocks), "assessment": self.assessment}

    def to_document(self) -> dict:
        """QDash's message shape: {role, content, created_at}."""
        if self.role == "user":
            content = self.text
        else:
            payload = self.payload()
            if self.work is not None:
                payload["show_work"] = self.work.to_dict()
            if self.error:
                payload["error"] = self.error
            if self.unverified_numbers:
                payload["unverified_numbers"] = self.unverified_numbers
            if self.stopped:
                payload["stopped"] = True
            if self.follow_ups:
                payload["follow_ups"] = self.follow_ups
            content = json.dumps(payload, ensure_ascii=False, default=str)
        return {"role": self.role, "content": content, "created_at": self.created_at}

    @classmethod
    def from_document(cls, doc: dict) -> ChatMessage:
        """Tolerant: blocks JSON or plain markdown; unknown shapes become one text block."""
        role = doc.get("role") if doc.get("role") in ("user", "assistant") else "assistant"
        content = doc.get("content")
        content = content if isinstance(content, str) else ""
        stored = doc.get("created_at")
        created = stored if isinstance(stored, datetime) else utcnow()
        if role == "user":
            return cls(role="user", text=content, created_at=created)
        payload = _json_object(content)
        if payload is None or not isinstance(payload.get("blocks"), list):
            from copilot_core.answer.parse import parse_answer  # the one tolerant parser (legacy, fenced, prose)

            blocks, assessment = parse_answer(content)
            msg = cls.assistant(blocks, assessment=assessment)
        else:
            work = ShowWork.from_dict(payload["show_work"]) if isinstance(payload.get("show_work"), dict) else None
            error = payload.get("error") if isinstance(payload.get("error"), str) else None
            saved = payload.get("unverified_numbers")  # absent in messages saved before the check existed
            unverified = [str(n)[:40] for n in saved[:50]] if isinstance(saved, list) else []
            msg = cls.assistant(blocks_from_dicts(payload["blocks"]), assessment=payload.get("assessment"), work=work,
                                error=error, unverified_numbers=unverified, stopped=payload.get("stopped") is True)
            ups = payload.get("follow_ups")
            msg.follow_ups = [str(q)[:200] for q in ups[:5] if isinstance(q, str)] if isinstance(ups, list) else []
        msg.created_at = created
        return msg


def settle_cards(messages: list[ChatMessage]) -> list[ChatMessage]:
    """QDash's ask and approval cards with their outcome: QDash saves the pick or the decision as the next
    user turn, so each card is settled by the turn after its answer (None for the last answer: still open)."""
    for i, message in enumerate(messages):
        if message.role != "assistant":
            continue
        after = messages[i + 1] if i + 1 < len(messages) else None
        reply = None if after is None else (after.text if after.role == "user" else "")
        message.blocks = [settle_card(b, reply) for b in message.blocks]
    return messages


def _json_object(text: str) -> dict | None:
    if not text.lstrip().startswith("{"):
        return None
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None
