"""The "show work" record of one answer: what the copilot did, so every number can be traced.

Built from the agent's result (tools called, their arguments and one-line summaries, the sandbox code and its
printed output, data keys, token usage, time).  Plain JSON-able data so it is stored with the session and shown
again when a chat is resumed.  Model-written code and printed output are kept verbatim here; the page shows
them as code/text, never as markdown.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING

from copilot_core.tools.registry import runs_code

if TYPE_CHECKING:
    from copilot_core.agent.contracts import AgentResult
    from copilot_core.tools.toolkit import ToolOutcome

MAX_TEXT = 20_000  # the sandbox's own text cap; longer text is cut with a note
MAX_ARGS_CHARS = 4_000


def _cap(text: object, limit: int = MAX_TEXT) -> str:
    text = "" if text is None else str(text)
    return text if len(text) <= limit else text[:limit] + f"\n… ({len(text) - limit} more characters not shown)"


def _json_safe(value: object, depth: int = 0) -> object:
    """Arguments as plain JSON values (model-written: bounded in depth and size)."""
    if depth > 6:
        return "…"
    if isinstance(value, dict):
        return {str(k)[:100]: _json_safe(v, depth + 1) for k, v in list(value.items())[:50]}
    if isinstance(value, (list, tuple)):
        return [_json_safe(v, depth + 1) for v in list(value)[:50]]
    if isinstance(value, (int, float, bool)) or value is None:
        return value
    return _cap(value, MAX_ARGS_CHARS)


def _json_args(value: object) -> dict:
    """Tool arguments as a JSON object (``{}`` when they are not one)."""
    safe = _json_safe(value)
    return safe if isinstance(safe, dict) else {}


@dataclass
class ToolRecord:
    name: str
    args: dict
    ok: bool
    summary: str
    error: str | None = None
    elapsed_s: float = 0.0
    data_keys: list[str] = field(default_factory=list)
    origin: str = "model"  # "router": made by the tool router before the model's first round


@dataclass
class AnalysisRecord:
    """One sandbox run: the model's code, what it printed, and its error if any."""

    code: str
    output: str = ""
    error: str | None = None
    charts: int = 0


@dataclass
class ShowWork:
    tools: list[ToolRecord] = field(default_factory=list)
    analyses: list[AnalysisRecord] = field(default_factory=list)
    data_keys: list[str] = field(default_factory=list)
    usage: dict = field(default_factory=dict)  # rounds, input_tokens, output_tokens, cached_tokens
    elapsed_s: float = 0.0
    model: str | None = None
    api_style: str | None = None
    error: str | None = None
    trace: dict | None = None  # the tracer's summary when tracing is on

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> ShowWork:
        """Tolerant of missing or odd fields (the document may come from another QDash client)."""
        def num(value: object) -> float:
            return float(value) if isinstance(value, (int, float)) else 0.0

        tools = [ToolRecord(name=str(t.get("name", "?")), args=_json_args(t.get("args") or {}),
                            ok=bool(t.get("ok")), summary=_cap(t.get("summary"), 500),
                            error=t.get("error") if isinstance(t.get("error"), str) else None,
                            elapsed_s=num(t.get("elapsed_s")),
                            data_keys=[str(k) for k in t.get("data_keys") or []],
                            origin="router" if t.get("origin") == "router" else "model")
                 for t in data.get("tools") or [] if isinstance(t, dict)]
        analyses = [AnalysisRecord(code=_cap(a.get("code")), output=_cap(a.get("output")),
                                   error=a.get("error") if isinstance(a.get("error"), str) else None,
                                   charts=int(num(a.get("charts"))))
                    for a in data.get("analyses") or [] if isinstance(a, dict)]
        usage = {k: int(num(v)) for k, v in (data.get("usage") or {}).items() if isinstance(k, str)}
        return cls(tools=tools, analyses=analyses, data_keys=[str(k) for k in data.get("data_keys") or []],
                   usage=usage, elapsed_s=num(data.get("elapsed_s")), model=data.get("model"),
                   api_style=data.get("api_style"), error=data.get("error"),
                   trace=data.get("trace") if isinstance(data.get("trace"), dict) else None)

    def analysis_code(self) -> list[str]:
        """The code of every sandbox run, in order (what the re-run button runs again)."""
        return [a.code for a in self.analyses if a.code.strip()]

    def analysis_keys(self) -> list[str]:
        """The data-store keys the analysis code reads (the re-run needs them in the store)."""
        keys: list[str] = []
        for code in self.analysis_code():
            keys.extend(k for k in data_keys_in(code) if k not in keys)
        return keys


def _sandbox_text(outcome: ToolOutcome) -> tuple[str, str | None]:
    """Printed output and error of an execute_python_analysis outcome (its full result is a dict)."""
    full = outcome.full if isinstance(outcome.full, dict) else {}
    error = full.get("error") if isinstance(full.get("error"), str) else None
    return _cap(full.get("output")), error or outcome.error


_DATA_KEY = re.compile(r"""\bdata\s*\[\s*(['"])([^'"\n]{1,100})\1\s*\]""")


def data_keys_in(code: str) -> list[str]:
    """Store keys an analysis reads (``data['t1']``), in order of first use."""
    keys: list[str] = []
    for match in _DATA_KEY.finditer(code or ""):
        if match.group(2) not in keys:
            keys.append(match.group(2))
    return keys


def tool_record(outcome: ToolOutcome) -> ToolRecord:
    """A ToolOutcome (copilot_core.tools) as a stored record."""
    return ToolRecord(name=str(outcome.name), args=_json_args(dict(outcome.args or {})), ok=bool(outcome.ok),
                      summary=_cap(outcome.summary or (outcome.error or ""), 500), error=outcome.error,
                      elapsed_s=round(float(outcome.elapsed_s or 0.0), 4), data_keys=list(outcome.data_keys or []),
                      origin="router" if getattr(outcome, "origin", "model") == "router" else "model")


def show_work_from(result: AgentResult, *, trace: dict | None = None) -> ShowWork:
    """The record of one AgentResult (copilot_core.agent)."""
    tools: list[ToolRecord] = []
    analyses: list[AnalysisRecord] = []
    keys: list[str] = []
    for outcome in result.tool_calls or []:
        record = tool_record(outcome)
        tools.append(record)
        keys.extend(k for k in record.data_keys if k not in keys)
        if runs_code(outcome.name):
            code = _cap((outcome.args or {}).get("code"))
            output, error = _sandbox_text(outcome)
            analyses.append(AnalysisRecord(code=code, output=output, error=error,
                                           charts=len(outcome.charts or [])))
            keys.extend(k for k in data_keys_in(code) if k not in keys)
    usage = {k: int(v or 0) for k, v in (result.usage or {}).items()}
    return ShowWork(tools=tools, analyses=analyses, data_keys=keys, usage=usage,
                    elapsed_s=round(float(result.elapsed_s or 0.0), 3), model=result.model,
                    api_style=result.api_style, error=result.error, trace=trace)
