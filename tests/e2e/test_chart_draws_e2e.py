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


def test_the_coupling_map_is_drawn_once_and_titles_stay_bold(app):
    from playwright.sync_api import expect

    open_page(app, "Chip heatmap")
    expect(app.get_by_test_id("stPlotlyChart")).to_have_count(3, timeout=RENDER_TIMEOUT_MS)
    app.wait_for_function("Object.keys(window.__charts).length === 3 && "
                          "Object.values(window.__charts).every(c => c.after >= 2)", timeout=RENDER_TIMEOUT_MS)
    charts = app.evaluate("window.__charts")
    coupling = next(v for k, v in charts.items() if "arrows point control" in k)
    assert coupling["full"] == 0, charts
    titles = app.locator(".js-plotly-plot .gtitle")
    expect(titles).to_have_count(3)
    for i in range(3):
        expect(titles.nth(i)).to_have_css("font-weight", "700")
