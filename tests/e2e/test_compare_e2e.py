"""What changed in Chromium: a ranked row and a chart click open the qubit; the daily report opens from a
file with the network off, makes no request, and shows the database's numbers."""

from __future__ import annotations

import statistics
from datetime import timedelta

import pytest

from copilot_core.domain.metrics import CATALOGUE, metric
from copilot_core.domain.topology import qubit_label
from copilot_core.report import chip_report
from tests.compare.conftest import executions_of, expected_point, window_values
from tests.e2e.conftest import (
    RENDER_TIMEOUT_MS,
    click_df_row,
    download,
    open_page,
    shot,
    wait_idle,
)

CHIP = "144Qv2"  # the demo's newest chip: the app's default


@pytest.fixture
def app(page, app_url):
    from playwright.sync_api import expect

    page.goto(app_url)
    wait_idle(page)
    expect(page.get_by_test_id("stMain")).to_contain_text("Overview", timeout=RENDER_TIMEOUT_MS)
    return page


def top_change_label(db) -> str:
    """The qubit of the largest change in units of its own 7-day spread, from direct queries."""
    runs = [e for e in executions_of(db, "demo-project", CHIP) if e["status"] == "completed"]
    a = expected_point(db, "demo-project", CHIP, [runs[1]["execution_id"]])
    b = expected_point(db, "demo-project", CHIP, [runs[0]["execution_id"]])
    window = window_values(db, "demo-project", CHIP, runs[0]["start_at"] - timedelta(days=7), runs[0]["start_at"])
    scores = {}
    for key in a:
        values = window.get(key, [])
        if key in b and key[0] in CATALOGUE and len(values) >= 2 and statistics.stdev(values) > 0:
            scores[key] = abs(b[key] - a[key]) / statistics.stdev(values)
    _name, target = max(scores, key=scores.get)
    return qubit_label(target.split("-")[0], 144)


def test_a_ranked_row_opens_the_qubit(app, demo_db):
    from playwright.sync_api import expect

    open_page(app, "What changed")
    expect(app.get_by_test_id("stDataFrame").nth(1)).to_be_visible()
    expect(app.get_by_test_id("stException")).to_have_count(0)
    shot(app, "compare_page", app.get_by_text("Largest changes").first)
    click_df_row(app, 0, nth=1)
    wait_idle(app)
    label = top_change_label(demo_db)
    expect(app.get_by_test_id("stMain")).to_contain_text(f"Health of {label}", timeout=RENDER_TIMEOUT_MS)
    expect(app.get_by_test_id("stException")).to_have_count(0)


def test_a_chart_click_opens_the_qubit(app):
    from playwright.sync_api import expect

    open_page(app, "What changed")
    chart = app.get_by_test_id("stPlotlyChart").first
    expect(chart).to_be_visible()
    points = chart.locator("g.points path.point")  # the click overlay: one point per qubit, qid order
    expect(points.nth(5)).to_be_attached()
    chart.scroll_into_view_if_needed()  # below the summary table: a click must land inside the viewport
    box = points.nth(5).bounding_box()
    app.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    wait_idle(app)
    expect(app.get_by_test_id("stMain")).to_contain_text("Health of Q005", timeout=RENDER_TIMEOUT_MS)


def test_report_opens_offline_without_requests(page, repo, demo_db, tmp_path):
    from playwright.sync_api import expect

    report = chip_report(repo, repo.get_chip(CHIP))
    path = tmp_path / "report.html"
    path.write_text(report.html, encoding="utf-8")
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.context.set_offline(True)
    page.goto(path.as_uri())
    expect(page.locator(".js-plotly-plot .main-svg").first).to_be_visible(timeout=RENDER_TIMEOUT_MS)
    assert page.locator(".js-plotly-plot").count() >= 4
    assert requests == [path.as_uri()], requests
    runs = [e for e in executions_of(demo_db, "demo-project", CHIP) if e["status"] == "completed"]
    after = expected_point(demo_db, "demo-project", CHIP, [runs[0]["execution_id"]])
    t1 = [v for (p, q), v in after.items() if p == "t1"]
    row = page.locator("#health tr", has_text=metric("t1").title).first
    expect(row).to_contain_text(f"{len(t1)}/144")
    expect(row).to_contain_text(f"{statistics.median(t1):.1f} μs")
    page.screenshot(path=str(tmp_path / "report.png"))
    shot(page, "daily_report")


def test_overview_button_downloads_the_report(app, tmp_path):
    name, html = download(app, "Daily report (HTML)", tmp_path)
    assert name == f"{CHIP}_daily_report.html"
    assert f"Daily report: {CHIP}" in html and '<table id="changes">' in html
