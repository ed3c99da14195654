"""The first page after a fresh server start, in Chromium, on the demo store (about 100k documents, which
the embedded engine must index in the server process before it can answer a query).

- ``streamlit run app.py``: the build happens when the first session arrives; the page shows a progress bar
  saying what is being prepared, then the Overview.
- ``streamlit run server.py`` (``make run``): the build happened before the server accepted the connection;
  the Overview comes with no progress bar (on the small store: still a long wait, past ``LONG_WAIT_DOCUMENTS``,
  at a seventh of the build).
"""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.e2e.conftest import RENDER_TIMEOUT_MS, ROOT, shot, start_streamlit, wait_idle


def test_a_plain_start_shows_the_index_build_progress_then_the_overview(page: Page, streamlit_env):
    with start_streamlit(streamlit_env, app=ROOT / "app.py") as url:
        page.goto(url)
        bar = page.get_by_test_id("stProgress")
        expect(bar).to_be_visible(timeout=RENDER_TIMEOUT_MS)
        expect(bar).to_contain_text("Preparing the embedded database")
        expect(bar).to_contain_text("documents")
        shot(page, "first-view-progress")
        expect(page.get_by_role("heading", name="Overview")).to_be_visible(timeout=RENDER_TIMEOUT_MS)
        expect(page.get_by_test_id("stDataFrame").first).to_be_visible(timeout=RENDER_TIMEOUT_MS)
        wait_idle(page)
        expect(bar).to_have_count(0)
        page.close()  # the session ends before the server stops (an open one holds its shutdown)


def test_the_make_run_entry_serves_a_ready_first_page(page: Page, small_streamlit_env):
    with start_streamlit(small_streamlit_env, app=ROOT / "server.py") as url:
        page.goto(url)
        expect(page.get_by_test_id("stDataFrame").first).to_be_visible(timeout=RENDER_TIMEOUT_MS)
        expect(page.get_by_role("heading", name="Overview")).to_be_visible()
        expect(page.get_by_test_id("stProgress")).to_have_count(0)
        wait_idle(page)
        expect(page.get_by_test_id("stException")).to_have_count(0)
        expect(page.get_by_test_id("stProgress")).to_have_count(0)
        page.close()
