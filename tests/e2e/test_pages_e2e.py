"""Dashboard pages in Chromium: every page renders, a heatmap click opens the drill-down, a table row
opens the health report.  Screenshots go to test-artifacts/."""

from __future__ import annotations

import csv

import pytest

from tests.chat.test_copilot_page import latest_t1
from tests.e2e.conftest import app_button, RENDER_TIMEOUT_MS, click_df_row, download, open_page, shot, wait_idle

PAGES = {"Overview": "Overview", "Chip heatmap": "Chip heatmap", "Timeseries": "Timeseries", "Qubits": "Qubits"}


@pytest.fixture
def app(page, app_url):
    from playwright.sync_api import expect

    page.goto(app_url)
    wait_idle(page)
    expect(page.get_by_test_id("stMain")).to_contain_text("Overview", timeout=RENDER_TIMEOUT_MS)
    return page


def test_every_dashboard_page_loads_without_an_exception(app):
    from playwright.sync_api import expect

    for link, title in PAGES.items():
        open_page(app, link, title)
        expect(app.get_by_test_id("stException")).to_have_count(0)
        expect(app.get_by_test_id("stAlertContentError")).to_have_count(0)
        shot(app, f"page_{link.lower().replace(' ', '_')}")


def test_clicking_a_heatmap_cell_opens_the_drilldown(app):
    from playwright.sync_api import expect

    open_page(app, "Chip heatmap")
    chart = app.get_by_test_id("stPlotlyChart").first
    expect(chart).to_be_visible(timeout=RENDER_TIMEOUT_MS)
    points = chart.locator("g.points path.point")  # the invisible overlay: one point per qubit, qid order
    expect(points.nth(5)).to_be_attached(timeout=RENDER_TIMEOUT_MS)
    box = points.nth(5).bounding_box()
    app.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    wait_idle(app)
    expect(app.get_by_test_id("stMain")).to_contain_text("Latest values of Q005", timeout=RENDER_TIMEOUT_MS)
    expect(app.get_by_test_id("stMain")).to_contain_text("Latest task results")
    wait_idle(app)
    expect(app.get_by_test_id("stException")).to_have_count(0)
    shot(app, "heatmap_drilldown", app.get_by_text("Latest task results").first)


def test_selecting_a_table_row_shows_the_health_report(app):
    from playwright.sync_api import expect

    open_page(app, "Qubits")
    expect(app.get_by_test_id("stDataFrame").first).to_be_visible()
    click_df_row(app, 2)
    wait_idle(app)
    expect(app.get_by_test_id("stMain")).to_contain_text("Health of Q002", timeout=RENDER_TIMEOUT_MS)
    expect(app_button(app, "Analyze with copilot")).to_be_visible()
    expect(app.get_by_test_id("stMain")).to_contain_text("neighbours are the nearest qubits", timeout=RENDER_TIMEOUT_MS)
    wait_idle(app)
    expect(app.get_by_test_id("stException")).to_have_count(0)
    shot(app, "qubits_health_report", app.get_by_text("Health of Q002").first)


def test_the_heatmap_csv_is_written_when_the_button_is_clicked(app, demo_db, tmp_path):
    """The CSV is made on the click (not on every view of the page) and holds each qubit's newest T1."""
    open_page(app, "Chip heatmap")
    name, text = download(app, "Download CSV", tmp_path)
    rows = list(csv.DictReader(text.splitlines()))

    assert name == "144Qv2_t1_latest.csv"
    assert {r["metric"] for r in rows} == {"t1"} and len(rows) == 144
    assert {r["id"]: float(r["value"]) for r in rows if r["value"]} == pytest.approx(latest_t1(demo_db, "144Qv2"))
