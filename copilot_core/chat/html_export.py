"""A chat as one self-contained HTML page, drawn by the daily report's renderer (Jinja with autoescape, plotly.js
inline, a Content-Security-Policy that forbids every request), so it opens offline and reaches no host.

Text the model wrote is shown as the page shows it: rebuilt by ``render_safety.safe_markdown``, rendered to HTML by
the second look's renderer, and kept only when that exact markdown passes the second look (no image, raw HTML,
outside link or auto-linkable text); otherwise it is escaped text.  Everything else (questions, tool arguments,
database strings) is escaped text.  Charts are validated again and embedded as JSON with ``<`` escaped, so no figure
string can close the script element.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from copilot_core.answer.blocks import ApprovalBlock, AskBlock, ChartBlock, TextBlock
from copilot_core.chat.messages import ChatMessage
from copilot_core.render_safety import UnsafeFigure, safe_markdown, validate_figure
from copilot_core.render_safety.gfm_html import render
from copilot_core.render_safety.markdown_check import loads_nothing
from copilot_core.report.builder import _environment, _plotly_js


def _figure_json(figure: dict) -> str | None:
    try:
        checked = validate_figure(figure)
    except UnsafeFigure:
        return None
    text = json.dumps(checked, default=str)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _answer_html(text: str) -> str | None:
    """An answer's markdown as HTML, when the exact markdown rendered passes the second look; else None."""
    markdown = safe_markdown(text)
    return render(markdown) if loads_nothing(markdown) else None


def _message_context(message: ChatMessage, index: int) -> dict:
    parts: list[dict] = []
    for n, block in enumerate(message.blocks if message.role == "assistant" else [TextBlock(message.text)]):
        if isinstance(block, TextBlock) and message.role == "assistant" and (html := _answer_html(block.text)):
            parts.append({"kind": "html", "html": html})
        elif isinstance(block, TextBlock):
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
