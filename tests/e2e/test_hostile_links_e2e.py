"""Shared links with hostile query parameters, opened in Chromium with a request log.

Every parameter a page reads carries a markdown image, a markdown link, a bare URL, a www. host, an
e-mail address or an HTML image; the page must say the values are not available and show them as text:
no request to any host but 127.0.0.1, no image from elsewhere, no clickable link off the app.
"""

from __future__ import annotations

from urllib.parse import urlencode, urlsplit

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import RENDER_TIMEOUT_MS, open_link
from tests.pages.test_hostile_links import link

PAGES = {"heatmap": "Chip heatmap", "timeseries": "Timeseries", "qubits": "Qubits", "compare": "What changed",
         "": "Overview"}


@pytest.mark.parametrize("path", list(PAGES))
@pytest.mark.parametrize("shift", [0, 3])
def test_hostile_shared_link_in_chromium(page: Page, app_url: str, path: str, shift: int) -> None:
    requested: list[str] = []
    page.on("request", lambda r: requested.append(r.url))
    open_link(page, f"{app_url.rstrip('/')}/{path}?{urlencode(link(shift))}", PAGES[path])
    main = page.get_by_test_id("stMain")
    expect(main.get_by_text("not available here").first).to_be_visible(timeout=RENDER_TIMEOUT_MS)
    expect(main.get_by_text("evil.example").first).to_be_visible()  # the value is shown, as text
    images = main.locator("img").evaluate_all("els => els.map(e => e.src)")
    assert [src for src in images if urlsplit(src).hostname not in (None, "", "127.0.0.1")] == []
    links = main.locator("a[href]").evaluate_all("els => els.map(e => e.href)")
    assert [h for h in links if urlsplit(h).hostname not in ("127.0.0.1", None, "")] == []
    outside = {urlsplit(u).hostname for u in requested if urlsplit(u).scheme not in ("data", "blob")} - {"127.0.0.1"}
    assert outside == set(), f"requests left for {outside}"
