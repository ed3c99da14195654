"""Figures in an analysis job: plotly's template copy made cheap, and plain, validated JSON out within the caps.

A chart is checked inside the job, with the app's own validator, after its counts are capped and
before any ``go.Figure`` work on it, so a hostile chart costs the job (which has a deadline and a
memory limit), never the app thread.
"""

from __future__ import annotations

import json
from typing import Any, cast

import plotly.io as pio
from _plotly_utils.basevalidators import BaseTemplateValidator
from plotly.basedatatypes import BaseFigure, BasePlotlyType
from plotly.utils import PlotlyJSONEncoder

from copilot_core.render_safety import UnsafeFigure, validate_figure
from copilot_core.sandbox.protocol import valid_json

MAX_FIGURE_BYTES = 5_000_000  # a chart's JSON
MAX_TRACES = 200
MAX_NODES = 1_000_000  # dict entries and list items, at any depth
MAX_DEPTH = 40

_ORIGINAL_TEMPLATE_COERCE = BaseTemplateValidator.validate_coerce


def _registered_template(value: object) -> BasePlotlyType | None:
    """``value`` if it is a registered template object (what ``px`` passes), else None."""
    for _, template in pio.templates.items():
        if value is template:
            return template
    return None


def _template_coerce(self: BaseTemplateValidator, v: object, skip_invalid: bool = False) -> object:
    template = _registered_template(v)
    props = template.to_plotly_json() if template is not None else {}
    if not props:  # not registered, or the empty-template special case: plotly's own path
        return _ORIGINAL_TEMPLATE_COERCE(self, v, skip_invalid=skip_invalid)
    copy = self.data_class(props, _validate=False)
    copy._validate = True  # later edits to this figure's template are validated as usual
    copy._plotly_name = self.plotly_name
    return copy


def copy_registered_templates_unvalidated() -> None:
    """Copy a registered template onto a figure without validating it property by property again.

    Every ``px`` figure sets ``layout.template`` to the registered template object, and plotly
    validates that copy in full: about 13 ms of a 29 ms ``px.line``.  Registered templates were
    validated when they were registered (plotly loads its own unvalidated, and ``go.Figure()`` applies
    the default one unvalidated too), so the copy skips it; the figure and its JSON are unchanged.
    """
    BaseTemplateValidator.validate_coerce = _template_coerce


def _cap_counts(chart: object) -> None:
    """Refuse a chart dict that is too large or too deep before anything parses it as a figure."""
    if not isinstance(chart, dict):
        raise UnsafeFigure(f"a chart must be a plotly figure or a dict, not {type(chart).__name__}")
    traces = chart.get("data")
    if isinstance(traces, (list, tuple)) and len(traces) > MAX_TRACES:
        raise UnsafeFigure(f"a chart may have {MAX_TRACES} traces, not {len(traces)}; combine or aggregate them")
    stack: list[tuple[Any, int]] = [(chart, 0)]
    nodes = 0
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise UnsafeFigure(f"the chart is nested more than {MAX_DEPTH} levels deep")
        if isinstance(node, dict):
            children = list(node.values())
        elif isinstance(node, (list, tuple)):
            children = list(node)
        else:
            continue
        nodes += len(children)
        if nodes > MAX_NODES:
            raise UnsafeFigure(f"the chart has more than {MAX_NODES:,} values; aggregate or downsample first")
        stack.extend((child, depth + 1) for child in children)


def _plain_json(chart: dict) -> dict:
    """The dict as JSON would carry it (numpy values, dates and typed arrays encoded the way plotly does)."""
    text = json.dumps(chart, cls=PlotlyJSONEncoder)
    if len(text) > MAX_FIGURE_BYTES:
        raise UnsafeFigure(f"figure is {len(text) / 1e6:.1f} MB; the limit is {MAX_FIGURE_BYTES / 1e6:.0f} MB "
                           "(aggregate or downsample before plotting)")
    return json.loads(text)


def figure_to_dict(obj: object) -> dict:
    """A chart (plotly figure or figure-like dict) as plain JSON the app's validator accepted (job side)."""
    if isinstance(obj, BaseFigure):
        text = obj.to_json()
        if len(text) > MAX_FIGURE_BYTES:
            raise UnsafeFigure(f"figure is {len(text) / 1e6:.1f} MB; the limit is {MAX_FIGURE_BYTES / 1e6:.0f} MB "
                               "(aggregate or downsample before plotting)")
        chart = json.loads(text)
    else:
        _cap_counts(obj)
        chart = _plain_json(cast(dict, obj))  # a figure-like dict; anything else is refused by validate_figure
    _cap_counts(chart)
    return validate_figure(valid_json(chart))
