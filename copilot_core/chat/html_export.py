"""A chat as one self-contained HTML page, drawn by the daily report's renderer (Jinja with autoescape, plotly.js
inline, a Content-Security-Policy that forbids every request), so it opens offline and reaches no host.

Everything written by the model or the database is escaped text here: no markdown is interpreted, so there is no
link or image to defang.  Charts are validated again and embedded as JSON with ``<`` escaped, so no figure string
can close the script element.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from copilot_core.agent.blocks import ApprovalBlock, AskBlock, ChartBlock, TextBlock
from copilot_core.chat.messages import ChatMessage
from copilot_core.render_safety import UnsafeFigure, validate_figure
from copilot_core.report.builder import _environment, _plotly_js


def _figure_json(figure: dict) -> str | None:
    try:
        checked = validate_figure(figure)
    except UnsafeFigure:
        return None
    text = json.dumps(checked, default=str)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _message_context(message: ChatMessage, index: int) -> dict:
    parts: list[dict] = []
    for n, block in enumerate(message.blocks if message.role == "assistant" else [TextBlock(message.text)]):
        if isinstance(block, TextBlock):
            parts.append({"kind": "text", "text": block.text})
        elif isinstance(block, AskBlock):
            parts.append({"kind": "ask", "text": block.question, "options": list(block.options),
                          "answer": block.answer})
        elif isinstance(block, ApprovalBlock):
            parts.append({"kind": "text", "text": f"Approval request ({block.status}): {block.label} · tool "
                                                  f"{block.tool} · {json.dumps(block.args, default=str)[:2000]}"})
        elif isinstance(block, ChartBlock):
            figure = _figure_json(block.figure)
            parts.append({"kind": "chart", "id": f"chart-{index}-{n}", "json": figure} if figure else
                         {"kind": "text", "text": "(A chart was withheld because it failed validation.)"})
    work = message.work
    return {"role": message.role, "parts": parts, "stopped": message.stopped,
            "unverified": list(message.unverified_numbers),
            "tools": [{"name": re.sub(r"[^A-Za-z0-9_]", "", t.name)[:64], "ok": t.ok, "summary": t.summary,
                       "args": json.dumps(t.args, ensure_ascii=False, indent=1, default=str)}
                      for t in (work.tools if work is not None else [])],
            "code": work.analysis_code() if work is not None else []}


def chat_html(messages: Sequence[ChatMessage], *, title: str) -> str:
    """The chat as HTML text."""
    context = {"title": title, "plotly_js": _plotly_js(),
               "messages": [_message_context(m, i) for i, m in enumerate(messages)]}
    return _environment().get_template("chat.html.j2").render(**context)
