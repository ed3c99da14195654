"""get_task_figure: the lab's own fit figure of a task result, drawn in the answer; the model reads one line.

The figure comes from the local figure root (``copilot_core.figures``: paths outside it are refused) and travels
in ``ToolResult.charts`` like every chart, so it passes the same chart check and is never sent to the model.
A PNG is carried as a chart whose only content is that image, embedded as ``data:image/png``.
"""

from __future__ import annotations

import base64

from copilot_core.domain.topology import target_label
from copilot_core.figures import TaskFigure, task_figure
from copilot_core.tools.aggregates import task_named
from copilot_core.tools.compact import clean_text
from copilot_core.tools.spec import (ToolContext, ToolError, ToolResult, chip_id_arg, parameter_name_arg,
                                     target_arg, task_name_arg, tool)

CHART_NOTE = "Figure shown to the user below your answer. Describe it only from this line."
SCANNED = 120  # newest results of the target searched for a parameter's task


def _png_chart(png: bytes) -> dict:
    source = "data:image/png;base64," + base64.b64encode(png).decode("ascii")
    return {"data": [], "layout": {
        "images": [{"source": source, "xref": "paper", "yref": "paper", "x": 0, "y": 1, "sizex": 1, "sizey": 1,
                    "xanchor": "left", "yanchor": "top", "layer": "above"}],
        "xaxis": {"visible": False}, "yaxis": {"visible": False}, "margin": {"l": 0, "r": 0, "t": 0, "b": 0}}}


def _line(shown: TaskFigure) -> str:
    """The one line the model gets: task, target, status, time, execution and the fit values stored with it."""
    when = shown.at.strftime("%Y-%m-%d %H:%M UTC") if shown.at else "time unknown"
    fit = "; ".join(clean_text(f, 80) for f in shown.fit[:8]) or "no fit values stored"
    return (f"{clean_text(shown.task, 80)} fit of {shown.label} ({clean_text(shown.status, 20)}, {when}, execution "
            f"{clean_text(shown.execution_id, 40)}): {fit}.")


@tool("get_task_figure",
      {"chip_id": chip_id_arg(), "qid": target_arg(), "task_name": task_name_arg(),
       "parameter_name": parameter_name_arg()},
      ("chip_id", "qid"), requires="figures")
def get_task_figure(ctx: ToolContext, chip_id: str, qid: str, task_name: str | None = None,
                    parameter_name: str | None = None) -> ToolResult:
    if ctx.figures is None:
        raise ToolError("figures are not available in this session", "answer from the stored values", kind="call")
    if task_name is None and parameter_name is None:
        raise ToolError("give task_name or parameter_name", "e.g. parameter_name 't1' or task_name 'CheckT1'", kind="call")
    ctx.chip(chip_id)
    task_name = task_named(ctx, chip_id, task_name)
    if "-" not in qid:
        ctx.check_qid(chip_id, qid)
    rows = [r for r in ctx.repo.task_results(chip_id, qid=qid, task_name=task_name, status="completed",
                                             limit=SCANNED)
            if not r.get("excluded") and (parameter_name is None or parameter_name in (r.get("output_parameters") or {}))]
    what = " ".join(x for x in (task_name, parameter_name) if x)
    size = ctx.size(chip_id)
    label = target_label(qid, size)
    if not rows:
        raise ToolError(f"no completed {what} result on {label}", "list task names with get_task_history", kind="data")
    shown = task_figure(ctx.figures, rows[0], size)
    line = _line(shown)
    if shown.plotly is not None:
        charts = [shown.plotly]
    elif shown.png is not None:
        charts = [_png_chart(shown.png)]
    else:
        raise ToolError(f"{line} No figure can be shown: {clean_text(shown.problem, 200)}",
                        "answer from the stored values", kind="data")
    model = {"answer": line, "chart": CHART_NOTE}
    return ToolResult({**model, "figure_path": shown.stored_path}, line, model=model, charts=charts)
