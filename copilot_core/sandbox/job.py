"""One analysis job inside the (already isolated) process: run the code, shape the reply as plain JSON.

Errors name the failing line and add a hint, so the model can fix its code on the next round.
Everything the code produced is treated as hostile: it is converted to str/JSON here and validated
again in the app.
"""

from __future__ import annotations

import traceback
import types
from collections.abc import Mapping

from plotly.basedatatypes import BaseFigure

from copilot_core.sandbox import protocol
from copilot_core.sandbox.figures import UnsafeFigure, figure_to_dict
from copilot_core.sandbox.policy_compile import FILENAME, compile_analysis
from copilot_core.sandbox.policy_namespace import PrintBuffer, build_globals
from copilot_core.sandbox.proxies import Namespace

MAX_OUTPUT_CHARS = protocol.MAX_OUTPUT_CHARS
MAX_CHARTS = 8
# Every way printed text could link or load: ``scheme://`` and ``scheme:\\`` URLs, protocol-relative
# ``//host`` and ``\\host``, ``www.`` hosts, script and data schemes, HTML tags that load or link.
HINTS = {
    "SecurityError": "The sandbox refused this; use pandas/numpy/plotly operations on data[...] only.",
    "PrintLimitExceeded": "Print a summary (describe(), head(), aggregates) instead of every row.",
    "ImportError": "Only pandas, numpy, plotly (graph_objects, express, subplots), math, statistics, json, "
                   "datetime and collections can be imported; pd, np, go, px and make_subplots are preloaded.",
    "KeyError": "Check the key/column name; data keys are listed below.",
    "NameError": "Define the name first; pd, np, go, px, make_subplots, math, statistics, json and data exist.",
    "AttributeError": "That attribute does not exist or is not available in the sandbox.",
    "MemoryError": "The job ran out of memory; aggregate before building large arrays.",
    "RecursionError": "Recursion is too deep; use a loop or a vectorised operation.",
    "SyntaxError": "Fix the syntax; classes, decorators, global and names starting with '_' are not allowed.",
    "TypeError": "Check the argument types (e.g. convert calibrated_at with pd.to_datetime).",
    "ValueError": "Check the values passed (e.g. empty selections, mismatched lengths).",
}


def _line_of(exc: BaseException, source: str) -> tuple[int | None, str]:
    """The last line of model code in the traceback, with its text."""
    line = None
    for frame in traceback.extract_tb(exc.__traceback__):
        if frame.filename == FILENAME:
            line = frame.lineno
    if line is None:
        return None, ""
    lines = source.splitlines()
    return line, lines[line - 1].strip() if 0 < line <= len(lines) else ""


def describe_error(exc: BaseException, source: str, data_keys: list[str]) -> str:
    """``Line N: `code`: Type: message. Hint: ...`` — short, for the model and the user."""
    name = type(exc).__name__
    message = str(exc)[:1000]
    line, text = _line_of(exc, source)
    where = f"Line {line}: `{text[:200]}`: " if line else ""
    hint = HINTS.get(name, "")
    if name == "KeyError":
        hint = f"{hint} data keys: {', '.join(data_keys) or '(none)'}"
    return f"{where}{name}: {message}" + (f"\nHint: {hint}" if hint else "")


def _clip(text: str, limit: int = MAX_OUTPUT_CHARS) -> str:
    if len(text) <= limit:
        return text
    return text[:limit] + f"\n... [output truncated at {limit // 1000} KB of {len(text)} characters]"


def _charts_from(value: object) -> list[object]:
    if value is None:
        return []
    if isinstance(value, (list, tuple)):
        return list(value)
    return [value]


def _shape_result(env: Mapping[str, object], printed: str) -> tuple[str, list[object]]:
    """(text, chart objects) from ``result`` (dict, figure or anything printable) and printed text."""
    result = env.get("result")
    text_parts = [printed] if printed else []
    charts: list[object] = []
    if isinstance(result, dict):
        if result.get("output") is not None:
            text = str(result["output"])
            if printed and printed.strip() in text:  # ``result = {"output": printed}``: say it once
                text_parts = []
            text_parts.append(text)
        charts = _charts_from(result.get("chart")) + _charts_from(result.get("charts"))
    elif isinstance(result, BaseFigure) or (isinstance(result, list) and result
                                            and all(isinstance(r, BaseFigure) for r in result)):
        charts = _charts_from(result)
    elif result is not None and not isinstance(result, Namespace):
        text_parts.append(str(result))
    return "\n".join(p.rstrip("\n") for p in text_parts), charts


def run_job(code: types.CodeType, source: str, namespaces: Mapping[str, Namespace], data: dict) -> dict:
    """Execute compiled model code; always returns ``{output, charts, error}`` with JSON-safe values."""
    printer = PrintBuffer()
    env = build_globals(namespaces, data, printer)
    error = None
    try:
        exec(code, env)  # noqa: S102 - compiled by RestrictedPython under AnalysisPolicy
    except BaseException as exc:  # SystemExit/KeyboardInterrupt from model code must not escape either
        error = describe_error(exc, source, sorted(map(str, data)))
    try:
        output, chart_objects = _shape_result(env, printer.text())
    except BaseException as exc:  # a hostile __str__ is model code too
        output, chart_objects = printer.text(), []
        error = error or describe_error(exc, source, sorted(map(str, data)))
    output, had_links = protocol.strip_links(output)
    if had_links and not error:
        error = "Output contained links or image tags, which were removed; print plain text only."
    charts = []
    if len(chart_objects) > MAX_CHARTS:
        error = error or f"Only {MAX_CHARTS} charts are returned per job; {len(chart_objects)} were produced."
    for obj in chart_objects[:MAX_CHARTS]:
        try:
            charts.append(figure_to_dict(obj))
        except UnsafeFigure as exc:
            error = error or f"Chart rejected: {exc}"
        except BaseException as exc:
            error = error or f"Chart could not be serialised: {type(exc).__name__}: {str(exc)[:300]}"
    if error:
        error = protocol.strip_links(error)[0]  # error text (a chart's refusal quotes the chart) is shown and echoed too
    return {"output": _clip(output), "charts": charts, "error": error}


def compile_and_run(source: str, namespaces: Mapping[str, Namespace], data: dict) -> dict:
    """Compile then run; syntax/policy errors come back like any other error."""
    try:
        code = compile_analysis(source)
    except SyntaxError as exc:
        return {"output": "", "charts": [], "error": f"SyntaxError: {exc}\nHint: {HINTS['SyntaxError']}"}
    return run_job(code, source, namespaces, data)
