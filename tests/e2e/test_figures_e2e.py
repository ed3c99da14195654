"""The Qubits page in Chromium draws the lab's T1 fit (Plotly JSON from the figure directory) and loads nothing
from another host."""

from __future__ import annotations

from urllib.parse import urlparse

import pytest

from copilot_core.data.connection import open_database
from copilot_core.demo.figures import write_demo_figures
from copilot_core.figures import FigureRoot
from copilot_core.settings import Settings
from tests.e2e.conftest import RENDER_TIMEOUT_MS, shot, start_streamlit, wait_idle

pytestmark = pytest.mark.e2e
CHIP, QID = "144Qv2", "17"


@pytest.fixture(scope="module")
def figure_env(streamlit_env, seeded_data_dir, tmp_path_factory):
    calib = tmp_path_factory.mktemp("calib-e2e")
    db = open_database(Settings(data_dir=seeded_data_dir))
    try:
        rows = list(db["task_result_history"].find({"chip_id": CHIP, "qid": QID}, {"_id": 0}))
        t1 = db["task_result_history"].find_one({"chip_id": CHIP, "qid": QID, "name": "CheckT1", "status": "completed",
                                                 "excluded": {"$ne": True}}, sort=[("start_at", -1)])
    finally:
        db.close()
    assert write_demo_figures(rows, FigureRoot(calib)) > 0
    return streamlit_env | {"CALIB_DATA_DIR": str(calib)}, t1["output_parameters"]["t1"]["value"]


def test_qubits_page_draws_the_t1_fit(browser, figure_env):
    from playwright.sync_api import expect

    env, t1 = figure_env
    hosts: list[str] = []
    with start_streamlit(env) as url:
        context = browser.new_context(viewport={"width": 1440, "height": 900})
        page = context.new_page()
        page.on("request", lambda r: hosts.append(urlparse(r.url).hostname or ""))
        page.goto(f"{url}/qubits?chip={CHIP}&qubit={QID}")
        wait_idle(page)
        main = page.get_by_test_id("stMain")
        expect(main).to_contain_text("Latest fit figures", timeout=RENDER_TIMEOUT_MS)
        page.get_by_role("tab", name="CheckT1").click()
        wait_idle(page)
        fit = page.get_by_test_id("stPlotlyChart").filter(has_text=f"fit: T1 = {t1:.4g} μs")
        expect(fit).to_be_visible(timeout=RENDER_TIMEOUT_MS)
        expect(fit.locator("path.point").first).to_be_visible()  # the measured points are drawn, not only text
        fit.scroll_into_view_if_needed()
        shot(page, "qubits_t1_fit")
        context.close()
    assert set(hosts) <= {"127.0.0.1"}, sorted(set(hosts))
