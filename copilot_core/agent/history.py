"""Earlier chat turns as the model gets them: the last 6, text only, never chart JSON.

Assistant turns are stored as blocks JSON with charts; replaying them would cost thousands of tokens
and invite the model to copy chart JSON.  Each turn is reduced to its text and capped.
"""

from __future__ import annotations

import json

from copilot_core.answer.parse import parse_answer, strip_chart_json
from copilot_core.answer.blocks import ChartBlock, answer_text

MAX_HISTORY_TURNS = 6
MAX_TURN_CHARS = 4000


def _turn_text(content: object) -> str:
    if isinstance(content, dict) and isinstance(content.get("blocks"), list):
        content = json.dumps(content, default=str)
    if isinstance(content, list):  # bare block list
        content = json.dumps({"blocks": content}, default=str)
    if not isinstance(content, str):
        return ""
    blocks, _ = parse_answer(content)
    charts = sum(1 for b in blocks if isinstance(b, ChartBlock))
    text = strip_chart_json(answer_text(blocks))
    if charts:
        text += f"\n[{charts} chart(s) shown to the user; omitted here]"
    if len(text) > MAX_TURN_CHARS:
        text = text[:MAX_TURN_CHARS] + " …[truncated]"
    return text.strip()


def prepare_history(history: list[dict] | None) -> list[dict]:
    """The last ``MAX_HISTORY_TURNS`` user/assistant turns as ``{"role", "content": text}``."""
    turns = []
    for turn in history or []:
        if not isinstance(turn, dict) or turn.get("role") not in ("user", "assistant"):
            continue
        text = _turn_text(turn.get("content") if "content" in turn else turn.get("blocks"))
        if text:
            turns.append({"role": turn["role"], "content": text})
    return turns[-MAX_HISTORY_TURNS:]
