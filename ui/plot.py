"""Every chart on a page goes through here, so that a browser draws each one once per view.

Streamlit's chart element re-applies its theme to a mounted figure; with a template in the figure that second
pass is a full redraw (see ``copilot_core.charts.look``).  Charts are drawn here with Streamlit's look written
into the figure itself, no template and ``theme=None``.  A figure that brings its own template (a model's plotly
express chart) keeps it and Streamlit's theme.

The app's own figures are sent with plain JSON arrays.  plotly.py would send a numpy array as a base64 typed
array, which plotly.js decodes into a new typed array on every update and, unable to compare typed arrays, then
recomputes and redraws the whole chart: once more when Streamlit applies the measured width to a mounted chart.
The look is written once per figure content (a digest of the figure's JSON), not on every rerun.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

import plotly.graph_objects as go
import streamlit as st
from plotly.utils import PlotlyJSONEncoder

from copilot_core.charts.look import styled_dict
from copilot_core.render_safety import UnsafeFigure, escape, plotly_input, validate_figure


@lru_cache(maxsize=1)
def _default_template() -> dict:
    """The template every ``go.Figure`` gets when it names none (Streamlit's, once Streamlit is imported), as the
    chart check passes it (a stored chart of the app's own builders carries this one)."""
    default = go.Figure().layout.template.to_plotly_json()
    return validate_figure({"data": [], "layout": {"template": default}})["layout"]["template"]


def plain_json(fig: go.Figure) -> str:
    """``fig`` as JSON with every array written out as a JSON list (numpy arrays included, dates as text)."""
    return json.dumps({"data": [trace.to_plotly_json() for trace in fig.data],
                       "layout": fig.layout.to_plotly_json()}, cls=PlotlyJSONEncoder)


@lru_cache(maxsize=128)
def _styled_json(text: str) -> str:
    """The figure ``text`` without its template, with the look and data revision (memoised: ~0.1 s on plotly
    objects, now once per figure content)."""
    figure = json.loads(text)
    figure["layout"].pop("template", None)
    return json.dumps(styled_dict(figure))


def styled_figure(fig: go.Figure) -> go.Figure:
    """A new figure: ``fig`` with the look, no template, plain arrays; styled once per content."""
    out = go.Figure(json.loads(_styled_json(plain_json(fig))))
    out.layout.template = None
    return out


def chart(fig: go.Figure, **kwargs: Any) -> Any:
    """One of the app's own figures (built by ``copilot_core.charts``); returns what ``st.plotly_chart`` does
    (the selection state when ``on_select`` is set)."""
    return st.plotly_chart(styled_figure(fig), theme=None, **kwargs)


def _own_look(figure: dict) -> bool:
    template = (figure.get("layout") or {}).get("template")
    return template is None or template == _default_template()


def checked_chart(figure: object, key: str) -> bool:
    """A stored, model-made or lab-made figure, drawn only if render safety accepts it, and accepts it again
    with the app's look written in (else a warning says it was withheld); True when drawn."""
    try:
        safe = validate_figure(figure)
        if not _own_look(safe):
            st.plotly_chart(plotly_input(safe), key=key, width="stretch")
            return True
        layout = {k: v for k, v in (safe.get("layout") or {}).items() if k != "template"}
        drawn = validate_figure(styled_dict({**safe, "layout": layout}))
    except UnsafeFigure as exc:
        st.warning(escape(f"A chart was withheld because it failed validation: {str(exc)[:200]}"))
        return False
    fig = go.Figure(plotly_input(drawn))
    fig.layout.template = None
    st.plotly_chart(fig, key=key, width="stretch", theme=None)
    return True
