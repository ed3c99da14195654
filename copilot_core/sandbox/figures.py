"""Figures in an analysis job: plotly's template copy made cheap, and plain JSON out within the size limit."""

from __future__ import annotations

import json
from typing import Any

import plotly.io as pio
from _plotly_utils.basevalidators import BaseTemplateValidator
from plotly.basedatatypes import BaseFigure
from plotly.utils import PlotlyJSONEncoder

from copilot_core.render_safety.figures import MAX_FIGURE_BYTES, UnsafeFigure

_ORIGINAL_TEMPLATE_COERCE = BaseTemplateValidator.validate_coerce


def _registered_template(value: Any) -> Any:
    """``value`` if it is a registered template object (what ``px`` passes), else None."""
    if any(value is template for _, template in pio.templates.items()):
        return value
    return None


def _template_coerce(self: BaseTemplateValidator, v: Any, skip_invalid: bool = False) -> Any:
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
