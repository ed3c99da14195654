"""The rebuilt figure within ``chart_cost``'s budgets: drawn as SVG or as WebGL, whichever a browser draws within
them at the lower price."""

from __future__ import annotations

from copilot_core.render_safety.chart_cost import (
    Cost,
    check,
    check_drawn,
    figure_cost,
    first_draw_cost,
    gl_as_svg,
    webgl_cost,
)
from copilot_core.render_safety.data_arrays import ChartTooCostly
from copilot_core.render_safety.figure_limits import UnsafeFigure
from copilot_core.render_safety.figure_rebuild import Rebuild


def rebuilt_within_budget(fig: dict) -> dict:
    """The rebuilt figure, refused when drawing it would cost a browser more than ``chart_cost``'s budgets.  WebGL
    traces are drawn as SVG lines or markers when that chart is within the budgets, or costs less than WebGL
    (a figure accepted as WebGL is then drawn faster); a value scatter does not take keeps them WebGL."""
    as_svg = gl_as_svg(fig)
    if as_svg is None:
        out, cost = _priced(fig)
        _drawn_within(webgl_cost(out, cost), out)
        return out
    svg: dict = {}
    svg_cost: Cost | None = None
    try:
        svg, tags = _rebuild(as_svg)
        svg_cost = first_draw_cost(svg, tags)
        check(svg_cost, "the chart")
        return svg
    except (UnsafeFigure, ChartTooCostly):
        pass  # a value scatter does not take (svg_cost None), or over a budget as SVG
    webgl, cost = _priced(fig)
    gl = webgl_cost(webgl, cost)
    chosen, price = (svg, svg_cost.svg) if svg_cost is not None and svg_cost.svg <= gl else (webgl, gl)
    _drawn_within(price, chosen)
    return chosen


def _drawn_within(price: float, fig: dict) -> None:
    try:
        check_drawn(price, fig)
    except ChartTooCostly as exc:
        raise UnsafeFigure(str(exc)) from None


def _rebuild(fig: dict) -> tuple[dict, int]:
    """The figure rebuilt from what may be drawn, and the markup tags its text keeps."""
    data = fig.get("data") or []
    types = [t.get("type", "scatter") if isinstance(t, dict) else "" for t in data] if isinstance(data, list) else []
    rebuild = Rebuild([str(t) for t in types])
    return rebuild.figure(fig), rebuild.tags


def _priced(fig: dict) -> tuple[dict, Cost]:
    out, tags = _rebuild(fig)
    try:
        return out, figure_cost(out, tags)
    except ChartTooCostly as exc:
        raise UnsafeFigure(str(exc)) from None
