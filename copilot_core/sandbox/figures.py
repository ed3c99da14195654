"""Figures leaving an analysis job: plain JSON within the size limit (the app validates them again)."""

from __future__ import annotations

import json
from typing import Any

from plotly.basedatatypes import BaseFigure
from plotly.utils import PlotlyJSONEncoder

from copilot_core.render_safety.figures import MAX_FIGURE_BYTES, UnsafeFigure


def figure_to_dict(obj: Any) -> dict:
    """A plain JSON dict for a Plotly figure or figure-like dict (job side)."""
    if isinstance(obj, BaseFigure):
        text = obj.to_json()
    elif isinstance(obj, dict):
        text = json.dumps(obj, cls=PlotlyJSONEncoder)
    else:
        raise UnsafeFigure(f"a chart must be a plotly figure or a dict, not {type(obj).__name__}")
    if len(text) > MAX_FIGURE_BYTES:
        raise UnsafeFigure(f"figure is {len(text) / 1e6:.1f} MB; the limit is {MAX_FIGURE_BYTES / 1e6:.0f} MB "
                           "(aggregate or downsample before plotting)")
    return json.loads(text)
