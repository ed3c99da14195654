"""The answer format: QDash's blocks schema, legacy conversion, and a parser that survives any model.

Models answer with ``{"blocks": [...], "assessment": ...}`` when asked well; local models wrap it in
code fences, prepend prose, use the legacy analysis schema, or ignore the format entirely.  The
parser accepts all of that and always returns blocks.  Charts written by the model itself are
hostile input: each must pass ``copilot_core.render_safety.validate_figure`` or it is dropped with a note.
"""

from __future__ import annotations

import json
from typing import Literal

from copilot_core.answer.blocks import Block, ChartBlock, TextBlock
from copilot_core.answer.fences import ANSWER_WORDS, chart_fences, fences, skip_space, without_fences, without_marks
from copilot_core.render_safety import validate_figure

Assessment = Literal["good", "warning", "bad"]
ASSESSMENTS: tuple[str, ...] = ("good", "warning", "bad")

BLOCKS_SCHEMA: dict = {
    "type": "object",
    "properties": {
        "blocks": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "type": {"type": "string", "enum": ["text", "chart"]},
                    "content": {"type": ["string", "null"]},
                    "chart": {"type": ["object", "null"]},
                },
                "required": ["type", "content", "chart"],
            },
        },
        "assessment": {"type": ["string", "null"], "enum": ["good", "warning", "bad", None]},
    },
    "required": ["blocks", "assessment"],
}
SCHEMA_NAME = "copilot_answer"



def legacy_to_blocks(data: dict) -> tuple[list[Block], Assessment | None]:
    """QDash's legacy analysis schema (summary, explanation, issues, recommendations) as blocks."""
    parts: list[str] = []
    if data.get("summary"):
        parts.append(f"**{str(data['summary']).strip()}**")
    if data.get("explanation"):
        parts.append(str(data["explanation"]).strip())
    for key, title in (("potential_issues", "Potential issues"), ("recommendations", "Recommendations")):
        items = data.get(key) or []
        if isinstance(items, str):
            items = [items]
        if items:
            parts.append(f"**{title}**\n" + "\n".join(f"- {str(i).strip()}" for i in items))
    return [TextBlock("\n\n".join(parts))] if parts else [], _assessment(data.get("assessment"))


def _assessment(value: object) -> Assessment | None:
    text = str(value).strip().lower() if value is not None else ""
    return text if text in ASSESSMENTS else None  # type: ignore[return-value]


def first_json_object(text: str) -> dict | None:
    """The first balanced ``{...}`` in ``text`` that parses as a JSON object (strings and escapes respected)."""
    start = text.find("{")
    while start != -1:
        depth, in_str, escaped = 0, False, False
        for i in range(start, len(text)):
            ch = text[i]
            if in_str:
                if escaped:
                    escaped = False
                elif ch == "\\":
                    escaped = True
                elif ch == '"':
                    in_str = False
            elif ch == '"':
                in_str = True
            elif ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
                if depth == 0:
                    try:
                        value = json.loads(text[start:i + 1])
                    except ValueError:
                        break
                    if isinstance(value, dict):
                        return value
                    break
        start = text.find("{", start + 1)
    return None


def holds_complete_answer(text: str) -> bool:
    """Whether ``text`` already holds a whole blocks answer.  Small local models sometimes write on for thousands
    of tokens after the closing brace; nothing after it is read, so a stream can end there."""
    if '"blocks"' not in text:
        return False
    data = first_json_object(text)
    return isinstance(data, dict) and isinstance(data.get("blocks"), list)


def holds_no_answer(text: str) -> bool:
    """Whether the reply is only a JSON object with nothing to show (``{"assessment": "good"}``, ``{"blocks": []}``):
    a small model writes that now and then, and the person should get the tools' answer, not the JSON."""
    try:
        data = json.loads(without_marks(text).strip())
    except ValueError:
        return False
    if not isinstance(data, dict) or not set(data) <= {"blocks", "assessment"}:
        return False
    blocks = data.get("blocks", [])
    return isinstance(blocks, list) and not [b for b in (_normalise_block(raw) for raw in blocks) if b is not None]


def _as_object(text: str) -> dict | None:
    stripped = text.strip()
    try:
        value = json.loads(stripped)
        if isinstance(value, dict):
            return value
    except ValueError:
        pass
    for fenced in fences(stripped, ANSWER_WORDS):
        try:
            value = json.loads(fenced.body.strip())
            if isinstance(value, dict):
                return value
        except ValueError:
            continue
    return first_json_object(stripped)


def parse_answer(text: str | None) -> tuple[list[Block], Assessment | None]:
    """Blocks and assessment from whatever the model wrote (blocks JSON, legacy JSON, fenced, or prose).

    Model-written chart blocks are returned as-is here; :func:`vet_model_charts` validates them.
    """
    if not text or not text.strip():
        return [], None
    data = _as_object(text)
    if isinstance(data, dict) and isinstance(data.get("blocks"), list):
        blocks = [b for b in (_normalise_block(raw) for raw in data["blocks"]) if b is not None]
        return blocks, _assessment(data.get("assessment"))
    if isinstance(data, dict) and ("summary" in data or "explanation" in data):
        blocks, assessment = legacy_to_blocks(data)
        if blocks:
            return blocks, assessment
    salvaged = _salvage_contents(text)
    return (salvaged or [TextBlock(text.strip())]), None


def _salvage_contents(text: str) -> list[Block]:
    """Text blocks from a blocks reply cut off mid-JSON (max tokens): better than showing raw JSON."""
    if '"blocks"' not in text[:200]:
        return []
    out: list[Block] = []
    for raw in (_string_body(text, start) for start in after_key(text, "content", '"')):
        if raw is None:
            continue
        try:
            content = json.loads(f'"{raw}"')
        except ValueError:
            continue
        if content.strip():
            out.append(TextBlock(content))
    return out


def after_key(text: str, key: str, opens: str) -> list[int]:
    """Where the value of every ``"key": <opens>`` of a JSON text (maybe cut off or still arriving) starts: the
    position right after ``opens`` (``"`` for a string, ``{`` for an object)."""
    quoted, out = f'"{key}"', []
    at = text.find(quoted)
    while at >= 0:
        colon = skip_space(text, at + len(quoted))
        value = skip_space(text, colon + 1)
        if text.startswith(":", colon) and text.startswith(opens, value):
            out.append(value + len(opens))
            at = text.find(quoted, value + len(opens))
        else:
            at = text.find(quoted, at + 1)
    return out


def _string_body(text: str, start: int) -> str | None:
    """The JSON string body from ``start`` to its closing quote, still escaped; None when it is not closed."""
    i = start
    while i < len(text):
        if text[i] == '"':
            return text[start:i]
        i += 2 if text[i] == "\\" else 1
    return None


def _normalise_block(raw: object) -> Block | None:
    """One block as the model wrote it (lenient: bare strings, missing types, non-string content)."""
    if isinstance(raw, str):
        return TextBlock(raw) if raw.strip() else None
    if not isinstance(raw, dict):
        return None
    kind = raw.get("type")
    if kind == "chart" or (kind is None and isinstance(raw.get("chart"), dict)):
        chart = raw.get("chart")
        return ChartBlock(chart) if isinstance(chart, dict) else None
    content = raw.get("content")
    if content is None or (isinstance(content, str) and not content.strip()):
        return None
    return TextBlock(content if isinstance(content, str) else json.dumps(content, default=str))


def strip_chart_json(text: str) -> str:
    """Remove fenced Plotly JSON pasted into prose (charts travel only as validated chart blocks)."""
    return without_fences(text, chart_fences(text), "[chart JSON omitted]")


def vet_model_charts(blocks: list[Block]) -> list[Block]:
    """Keep model-written charts only if ``validate_figure`` accepts them; otherwise a one-line note."""
    out: list[Block] = []
    for block in blocks:
        if isinstance(block, TextBlock):
            out.append(TextBlock(strip_chart_json(block.text)))
            continue
        if not isinstance(block, ChartBlock):
            out.append(block)
            continue
        try:
            out.append(ChartBlock(validate_figure(block.figure)))
        except Exception as exc:  # noqa: BLE001  (UnsafeFigure or anything a hostile figure triggers)
            reason = str(exc).splitlines()[0][:160] if str(exc) else type(exc).__name__
            out.append(TextBlock(f"_(A chart written by the model was dropped: {reason})_"))
    return out
