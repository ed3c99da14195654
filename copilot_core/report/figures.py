"""The lab's fit figures of the report's flagged qubits, embedded so the HTML stays one self-contained file.

Plotly JSON becomes a chart div drawn by the report's inlined plotly.js (the chart check ran on it first); a PNG
becomes a ``data:image/png`` image.  Figure files come from the local figure root only.
"""

from __future__ import annotations

import base64
from datetime import datetime, timedelta

import plotly.graph_objects as go

from copilot_core.analysis.drift import DriftFlag
from copilot_core.data.rows import TaskRow
from copilot_core.data.repository import CalibrationRepository
from copilot_core.domain.metrics import metric
from copilot_core.domain.topology import qubit_label
from copilot_core.figures import FigureRoot, task_figure
from copilot_core.render_safety import plotly_input

MAX_FLAG_FIGURES = 12  # the report stays a few MB at most
SCANNED = 120


def _result(repo: CalibrationRepository, chip_id: str, flag: DriftFlag, until: datetime) -> TaskRow | None:
    """The newest completed, non-excluded result up to the report's run that stored the flagged metric."""
    rows = repo.task_results(chip_id, qid=flag.target, status="completed", until=until + timedelta(seconds=1),
                             limit=SCANNED)
    return next((r for r in rows if not r.get("excluded") and flag.metric in (r.get("output_parameters") or {})),
                None)


def flag_figures(repo: CalibrationRepository, chip_id: str, size: int, flags: list[DriftFlag], until: datetime,
                 root: FigureRoot) -> list[dict]:
    """``{"caption", "html" | "png" | "problem"}`` for the first flagged qubits (fixed div ids: deterministic)."""
    out: list[dict] = []
    for i, flag in enumerate(flags[:MAX_FLAG_FIGURES]):
        title = f"{qubit_label(flag.qid, size)} · {metric(flag.metric or '').title}"
        row = _result(repo, chip_id, flag, until) if flag.metric else None
        if row is None:
            out.append({"caption": title, "problem": "no completed result with this metric"})
            continue
        shown = task_figure(root, row, size)
        entry = {"caption": f"{title}: {shown.describe()}"}
        if shown.plotly is not None:
            fig = go.Figure(plotly_input(shown.plotly))
            fig.update_layout(clickmode="none")
            entry["html"] = fig.to_html(full_html=False, include_plotlyjs=False, div_id=f"flag-figure-{i}",
                                        config={"displaylogo": False, "displayModeBar": False})
        elif shown.png is not None:
            entry["png"] = "data:image/png;base64," + base64.b64encode(shown.png).decode("ascii")
        else:
            entry["problem"] = shown.problem or "no figure"
        out.append(entry)
    return out
