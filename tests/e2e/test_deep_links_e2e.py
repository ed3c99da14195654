"""Shared links and the first look, in Chromium at 1440×900 and 1920×1080.

- A freshly started server opened first at an inner page shows the titled navigation, the wide layout
  and whole stat cards (Streamlit's legacy pages/ mode must not take over).
- A link with query parameters opens that exact view and survives a reload; a round trip through the
  sidebar keeps the settings.
- A failed coupling task appears in the qubit's health report.
- Tables fit the viewport (no horizontal scrolling hides key columns).
- Nothing is requested from any host but 127.0.0.1.
Screenshots go to test-artifacts/.
"""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlparse

import pytest

from tests.e2e.conftest import (
    RENDER_TIMEOUT_MS,
    click_df_row,
    open_link,
    open_page,
    shot,
    start_streamlit,
    wait_idle,
)

NAV_TITLES = ["Overview", "Chip heatmap", "Timeseries", "Qubits", "What changed", "Copilot", "Copilot memory"]
SIZES = {"1440": {"width": 1440, "height": 900}, "1920": {"width": 1920, "height": 1080}}


def _newest_chip(db, size: int) -> dict:
    """The store's ``size``-qubit chip and a failed coupling task of its last 7 days, read with the repository
    (not through the app)."""
    from copilot_core.data.repository import CalibrationRepository

    repo = CalibrationRepository(db)
    chip = next(c for c in repo.list_chips() if c["size"] == size)
    since = chip["last_execution_at"] - timedelta(days=7)
    failed = repo.task_results(chip["chip_id"], status="failed", since=since, limit=1000)
    coupling = next((r for r in failed if "-" in str(r["qid"])), None)
    return {"chip": chip, "coupling_failure": coupling}


@pytest.fixture(scope="module")
def demo(demo_db) -> dict:
    """What the tests on the demo's 144-qubit chip expect."""
    return _newest_chip(demo_db, 144)


@pytest.fixture(scope="module")
def small_demo(small_seeded_data_dir: Path) -> dict:
    """The small store's 64-qubit chip: a fresh server there builds a seventh of the demo's indexes."""
    from copilot_core.data.connection import open_database
    from copilot_core.settings import Settings

    db = open_database(Settings(data_dir=small_seeded_data_dir))
    try:
        return _newest_chip(db, 64)
    finally:
        db.close()


def _page(browser, size: str, hosts: list[str]):
    context = browser.new_context(viewport=SIZES[size])
    page = context.new_page()
    page.on("request", lambda req: hosts.append(urlparse(req.url).hostname or ""))
    return context, page


def _assert_first_look(page, size: str) -> None:
    from playwright.sync_api import expect

    links = page.get_by_test_id("stSidebarNavLink")
    expect(links).to_have_count(len(NAV_TITLES), timeout=RENDER_TIMEOUT_MS)
    titles = [t.strip().split("\n")[-1] for t in links.all_inner_texts()]  # after the icon ligature
    assert titles == NAV_TITLES  # titles, not file names like "app"
    expect(page.get_by_test_id("stMainBlockContainer")).to_be_visible(timeout=RENDER_TIMEOUT_MS)
    main = page.get_by_test_id("stMainBlockContainer").bounding_box()
    sidebar = page.get_by_test_id("stSidebar").bounding_box()
    free = SIZES[size]["width"] - sidebar["width"]
    assert main["width"] > 0.8 * free, (main, sidebar)  # layout="wide" (centered caps at ~736 px)
    expect(page.get_by_test_id("stException")).to_have_count(0)


def _assert_tables_fit(page, size: str) -> None:
    """Every table is inside the viewport and has no horizontal scrollbar hiding columns."""
    from playwright.sync_api import expect

    width = SIZES[size]["width"]
    tables = page.get_by_test_id("stDataFrame")
    expect(tables.first).to_be_visible(timeout=RENDER_TIMEOUT_MS)
    for i in range(tables.count()):
        table = tables.nth(i)
        table.scroll_into_view_if_needed()
        expect(table.locator(".dvn-scroller")).to_be_attached(timeout=RENDER_TIMEOUT_MS)  # the grid, not a skeleton
        box = table.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 1, (i, box)
        overflow = table.evaluate(
            "el => { const s = el.querySelector('.dvn-scroller'); return s ? s.scrollWidth - s.clientWidth : 0; }")
        assert overflow <= 1, f"table {i} on {page.url} scrolls horizontally by {overflow} px at {size}"


def _stat_cards_whole(page) -> list[str]:
    values = page.get_by_test_id("stMetricValue")
    texts = []
    for i in range(values.count()):
        cut = values.nth(i).evaluate("el => el.scrollWidth > el.clientWidth + 1")
        assert not cut, f"stat card {i} is cut off: {values.nth(i).inner_text()!r}"
        texts.append(values.nth(i).inner_text())
    return texts


@pytest.mark.parametrize("size", list(SIZES))
def test_fresh_server_heatmap_link_opens_the_exact_view_and_survives_reload(browser, small_streamlit_env, small_demo,
                                                                            size):
    from playwright.sync_api import expect

    chip_id = small_demo["chip"]["chip_id"]
    qubit = "Q05"  # qubit 5 as a 64-qubit chip labels it
    # the window counts back from the chip's last execution, and the title says which 7 days
    window = f"(average, 7 days up to {small_demo['chip']['last_execution_at']:%Y-%m-%d})"
    query = f"chip={chip_id}&metric=t1&mode=average&window=7d&colour=band&qubit={qubit}"
    hosts: list[str] = []
    with start_streamlit(small_streamlit_env) as url:
        context, page = _page(browser, size, hosts)
        page.goto(f"{url}/heatmap?{query}")  # the very first request this server sees
        wait_idle(page)
        main = page.get_by_test_id("stMain")
        expect(main).to_contain_text("T1 [μs] on", timeout=RENDER_TIMEOUT_MS)
        _assert_first_look(page, size)
        cards = _stat_cards_whole(page)
        assert len(cards) >= 6 and all(c.endswith("μs") for c in cards[2:6]), cards  # units kept
        chart = page.get_by_test_id("stPlotlyChart").first
        expect(chart).to_contain_text(window)
        expect(chart).to_contain_text("band")  # coloured by band: the band colour bar
        expect(main).to_contain_text(f"Latest values of {qubit}", timeout=RENDER_TIMEOUT_MS)
        shot(page, f"deeplink_heatmap_{size}")
        wait_idle(page)

        page.reload()
        wait_idle(page)
        expect(page.get_by_test_id("stPlotlyChart").first).to_contain_text(window, timeout=RENDER_TIMEOUT_MS)
        expect(page.get_by_test_id("stMain")).to_contain_text(f"Latest values of {qubit}", timeout=RENDER_TIMEOUT_MS)
        for part in ("mode=average", "window=7d", "colour=band", "qubit=5", f"chip={chip_id}"):
            assert part in page.url, (part, page.url)
        _assert_tables_fit(page, size)
        context.close()
    assert set(hosts) <= {"127.0.0.1"}, sorted(set(hosts))


@pytest.mark.parametrize(("path", "heading", "size"), [("qubits", "Qubits", "1920"), ("timeseries", "Timeseries", "1440"),
                                                       ("copilot", "Copilot", "1440"), ("memory", "Copilot memory", "1920")])
def test_fresh_server_opened_first_at_an_inner_page(browser, small_streamlit_env, path, heading, size):
    hosts: list[str] = []
    with start_streamlit(small_streamlit_env) as url:
        context, page = _page(browser, size, hosts)
        open_link(page, f"{url}/{path}", heading)
        _assert_first_look(page, size)
        shot(page, f"fresh_{path}_{size}")
        context.close()
    assert set(hosts) <= {"127.0.0.1"}, sorted(set(hosts))


@pytest.mark.parametrize("size", list(SIZES))
def test_round_trip_keeps_settings_and_failed_coupling_task_shows(browser, app_url, demo, size):
    from playwright.sync_api import expect

    hosts: list[str] = []
    context, page = _page(browser, size, hosts)
    page.goto(app_url)
    wait_idle(page)
    expect(page.get_by_test_id("stMain")).to_contain_text("Health of", timeout=RENDER_TIMEOUT_MS)
    _assert_tables_fit(page, size)
    shot(page, f"overview_{size}")

    open_page(page, "Chip heatmap")
    page.get_by_test_id("stRadio").filter(has_text="Colour by").get_by_text("band", exact=True).click()
    expect(page).to_have_url(re.compile(r"colour=band"), timeout=RENDER_TIMEOUT_MS)  # the URL follows the widget
    wait_idle(page)
    page.get_by_test_id("stRadio").filter(has_text="Mode").get_by_text("best", exact=True).click()
    expect(page).to_have_url(re.compile(r"mode=best"), timeout=RENDER_TIMEOUT_MS)
    wait_idle(page)
    open_page(page, "Timeseries")
    expect(page.get_by_test_id("stMain")).to_contain_text("newest first", timeout=RENDER_TIMEOUT_MS)
    _assert_tables_fit(page, size)
    shot(page, f"timeseries_{size}")
    open_page(page, "Chip heatmap")
    expect(page.get_by_test_id("stPlotlyChart").first).to_contain_text("(best)", timeout=RENDER_TIMEOUT_MS)
    assert "colour=band" in page.url and "mode=best" in page.url
    checked = page.get_by_test_id("stRadio").filter(has_text="Colour by").locator("input[type=radio]:checked")
    expect(checked).to_have_value("1")  # the second option, "band"

    # the failed coupling task from the database, on the control qubit's report
    failure = demo["coupling_failure"]
    control, target = (int(x) for x in str(failure["qid"]).split("-"))
    coupling = f"Q{control:03d}→Q{target:03d}"
    open_page(page, "Qubits")
    _assert_tables_fit(page, size)
    shot(page, f"qubits_{size}")
    # The grid's accessible copy of its cells holds the raw values: a missing value is an empty cell there (the
    # canvas draws the page's "—" placeholder over it), never the text "None".
    cells = page.get_by_test_id("stDataFrame").first.locator("td")
    expect(cells.filter(has_text=re.compile(r"^Q\d{3}$")).first).to_be_attached(timeout=RENDER_TIMEOUT_MS)
    texts = cells.all_inner_texts()
    assert "" in texts and "None" not in texts and "nan" not in texts, texts[:40]
    finder = page.get_by_test_id("stTextInput").filter(has_text="Find qubit").locator("input")
    finder.fill(f"Q{control:03d}")
    finder.press("Enter")
    expect(page.get_by_test_id("stMain")).to_contain_text("1 of 144 qubits", timeout=RENDER_TIMEOUT_MS)
    wait_idle(page)
    click_df_row(page, 0)  # tick the first row: the qubit itself
    wait_idle(page)
    main = page.get_by_test_id("stMain")
    expect(main).to_contain_text(f"Health of Q{control:03d}", timeout=RENDER_TIMEOUT_MS)
    expect(main).to_contain_text(f"failed on coupling {coupling}")
    expect(main).to_contain_text("Failed tasks on")
    expect(main).not_to_contain_text("Nothing stands out")
    assert f"qubit={control}" in page.url
    report = page.get_by_text("Failed tasks on").first
    shot(page, f"qubits_failed_coupling_{size}", report)
    _assert_tables_fit(page, size)
    context.close()
    assert set(hosts) <= {"127.0.0.1"}, sorted(set(hosts))
