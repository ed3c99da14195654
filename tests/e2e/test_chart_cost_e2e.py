"""In Chromium: every chart the cost budgets accept, drawn by plotly.js, takes under two seconds, and the budgets
refuse what would not.  WebGL charts are measured over a two-point WebGL chart drawn in the same browser: headless
Chromium here renders WebGL in software and spends about 1.5 s setting it up whatever the data."""

from __future__ import annotations

import pytest

from copilot_core.render_safety import figures
from copilot_core.render_safety.figures import UnsafeFigure, validate_figure
from tests.render_safety.costly_charts import ACCEPTED, GL_BASELINE, REFUSED
from tests.render_safety.draw_timer import draw_timer

WORST_S = 2.0


def test_every_accepted_costly_chart_draws_in_under_two_seconds():
    figures.forget()
    drawn: dict[str, float] = {}
    with draw_timer(limit_s=20) as timer:
        gl_setup = min(timer.seconds(GL_BASELINE) for _ in range(2))
        for case in ACCEPTED:
            checked = validate_figure(case.chart)  # what the page is handed is the checked chart
            seconds = timer.seconds(dict(checked))
            uses_gl = any(t.get("type") == "scattergl" for t in checked["data"])
            drawn[case.name] = seconds - gl_setup if uses_gl else seconds
    print("\n".join(f"{name:34} {s:.2f} s" for name, s in sorted(drawn.items(), key=lambda kv: -kv[1])))
    slow = {name: round(s, 2) for name, s in drawn.items() if s >= WORST_S}
    assert not slow, f"accepted charts that took {WORST_S} s or more to draw: {slow}"


def test_every_refused_costly_chart_is_refused_before_a_browser_sees_it():
    for case in REFUSED:
        with pytest.raises(UnsafeFigure):
            validate_figure(case.chart)
