"""In Chromium: Streamlit's theme pass no longer draws a chart a second time, and charts keep its look.

plotly.js announces every full draw with ``plotly_beforeplot``; a chart's first draw announces it before the
page can listen, so any event heard is a second full draw of a chart already on the page.  Every chart
also reports ``plotly_afterplot`` twice on mount (its first draw and the theme pass), which is what the test
waits for before counting.
"""

from __future__ import annotations

import pytest

from tests.e2e.conftest import RENDER_TIMEOUT_MS, open_page, wait_idle

LISTEN = """
window.__charts = {};
const heard = new WeakSet();
function listen(gd) {
  if (heard.has(gd) || !gd.on) return;
  heard.add(gd);
  const title = () => ((gd.layout.title || {}).text || '');
  const entry = () => (window.__charts[title()] ||= {full: 0, after: 0});
  entry();
  gd.on('plotly_beforeplot', () => { entry().full += 1; });
  gd.on('plotly_afterplot', () => { entry().after += 1; });
}
new MutationObserver(() => document.querySelectorAll('.js-plotly-plot').forEach(listen))
  .observe(document, {subtree: true, childList: true, attributes: true, attributeFilter: ['class']});
"""


@pytest.fixture
def app(page, app_url):
    page.add_init_script(LISTEN)
    page.goto(app_url)
    wait_idle(page)
    return page


def _drawn_once(app, count: int) -> dict:
    """Wait until ``count`` charts have reported their mount; the charts' draw counts by title."""
    from playwright.sync_api import expect

    expect(app.get_by_test_id("stPlotlyChart")).to_have_count(count, timeout=RENDER_TIMEOUT_MS)
    app.wait_for_function(f"Object.keys(window.__charts).length === {count} && "
                          "Object.values(window.__charts).every(c => c.after >= 2)", timeout=RENDER_TIMEOUT_MS)
    return app.evaluate("window.__charts")


def test_every_heatmap_page_chart_is_drawn_once_and_titles_stay_bold(app):
    from playwright.sync_api import expect

    open_page(app, "Chip heatmap")
    expect(app.get_by_test_id("stPlotlyChart")).to_have_count(2, timeout=RENDER_TIMEOUT_MS)  # no qubit picked
    app.get_by_role("tab", name="Couplings").click()  # the closed tab's map is drawn on this click
    charts = _drawn_once(app, 3)
    # the heatmap and its distribution sit in 2:1 columns (fractional widths), the coupling map below them
    assert any("arrows point control" in k for k in charts), charts
    assert [c["full"] for c in charts.values()] == [0, 0, 0], charts
    titles = app.locator(".js-plotly-plot .gtitle")
    expect(titles).to_have_count(3)
    for i in range(3):
        expect(titles.nth(i)).to_have_css("font-weight", "700")


def test_the_timeseries_chart_with_numeric_arrays_is_drawn_once(app):
    open_page(app, "Timeseries")
    charts = _drawn_once(app, 1)
    assert [c["full"] for c in charts.values()] == [0], charts
