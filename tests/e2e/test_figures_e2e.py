"""The Qubits page in Chromium draws the lab's T1 fit (Plotly JSON from the figure directory) and loads nothing
from another host."""

from __future__ import annotations

from urllib.parse import urlparse

import pytest

from tests.e2e.conftest import FIGURE_QUBIT, RENDER_TIMEOUT_MS, shot, wait_idle

pytestmark = pytest.mark.e2e
CHIP, QID = FIGURE_QUBIT


@pytest.fixture(scope="module")
def stored_t1(demo_db) -> float:
    """The qubit's newest usable T1, read from the store directly."""
    t1 = demo_db["task_result_history"].find_one({"chip_id": CHIP, "qid": QID, "name": "CheckT1", "status": "completed",
                                                  "excluded": {"$ne": True}}, sort=[("start_at", -1)])
    return t1["output_parameters"]["t1"]["value"]


def test_qubits_page_draws_the_t1_fit(browser, app_url, stored_t1):
    from playwright.sync_api import expect

    hosts: list[str] = []
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    page = context.new_page()
    page.on("request", lambda r: hosts.append(urlparse(r.url).hostname or ""))
    page.goto(f"{app_url}/qubits?chip={CHIP}&qubit={QID}")
    wait_idle(page)
    main = page.get_by_test_id("stMain")
    expect(main).to_contain_text("Latest fit figures", timeout=RENDER_TIMEOUT_MS)
    page.get_by_role("tab", name="CheckT1").click()
    wait_idle(page)
    fit = page.get_by_test_id("stPlotlyChart").filter(has_text=f"fit: T1 = {stored_t1:.4g} μs")
    expect(fit).to_be_visible(timeout=RENDER_TIMEOUT_MS)
    expect(fit.locator("path.point").first).to_be_visible()  # the measured points are drawn, not only text
    fit.scroll_into_view_if_needed()
    shot(page, "qubits_t1_fit")
    context.close()
    assert set(hosts) <= {"127.0.0.1"}, sorted(set(hosts))
