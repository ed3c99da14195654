"""execute_python_analysis: model-written code on the stored datasets, inside the sandbox only.

The sandbox (``copilot_core.sandbox.run_analysis``) is injected by the caller; the code gets the
session's data store as ``data`` so the model never pastes data into code. Text output is capped
and charts go to the answer, not back to the model.
"""

from __future__ import annotations

from copilot_core.tools.compact import clean_text
from copilot_core.tools.spec import ToolContext, ToolError, ToolResult, tool

OUTPUT_CHARS = 4_000  # what the model reads of the code's text output
CODE_CHARS = 20_000


@tool("execute_python_analysis",
      {"code": {"type": "string", "minLength": 1, "maxLength": CODE_CHARS, "description": "Python source."}},
      ("code",), cacheable=False, runs_code=True)
def execute_python_analysis(ctx: ToolContext, code: str) -> ToolResult:
    if ctx.sandbox is None:
        raise ToolError("the Python sandbox is not available in this session",
                        "answer from the other tools' results instead", kind="call")
    frames = ctx.store.frames()
    result = ctx.sandbox(code, frames)
    charts = list(result.charts or [])
    error = clean_text(result.error, 1_000) if result.error else None
    model = {"output": clean_text(result.output, OUTPUT_CHARS), "error": error, "datasets": sorted(frames),
             "charts": f"{len(charts)} chart(s) generated; they will be appended to your answer." if charts else None}
    data = {**model, "layers": list(result.layers or []), "elapsed_s": result.elapsed_s}
    outcome = f"failed: {error.splitlines()[0][:120]}" if error else f"{len(charts)} chart(s)"
    return ToolResult(data, f"python analysis on {len(frames)} dataset(s): {outcome}", model=model, charts=charts,
                      error=error)
