"""A shared link is hostile input: every query parameter a page reads is echoed only as inert text.

Each page is opened from a link whose parameters hold markdown images, links, bare URLs and addresses; the
page must say the value is not available, keep working, and no text element it draws may hold an image,
raw HTML, a link off the app or a URL Streamlit's renderer would turn into a link (checked by
``tests.render_safety.checks.problems``, a parser independent of render safety)."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from tests.pages.conftest import APP, TIMEOUT
from tests.render_safety.checks import problems

PAGES = ["pages/overview.py", "pages/heatmap.py", "pages/timeseries.py", "pages/qubits.py", "pages/compare.py"]
PARAMS = ("chip", "metric", "mode", "window", "colour", "qubit", "parameter")
HOSTILE = {
    "image": "![](https://evil.example/u.png)",
    "link": "[Sign in again](https://evil.example/login)",
    "url": "https://evil.example/x?y=1",
    "www": "www.evil.example",
    "mail": "admin@evil.example",
    "html": "<img src=https://evil.example/h.png>",
}
KINDS = ("markdown", "caption", "warning", "error", "info", "success", "toast", "subheader", "title", "header",
         "exception")


def shown(at: AppTest) -> list[str]:
    out = [str(e.value) for kind in KINDS for e in at.get(kind)]
    out += [str(getattr(e, "label", "")) for kind in ("selectbox", "radio", "multiselect", "button") for e in at.get(kind)]
    return out


def link(shift: int) -> dict[str, str]:
    """Every parameter a different hostile value; ``shift`` rotates which parameter gets which."""
    values = list(HOSTILE.values())
    return {p: values[(i + shift) % len(values)] for i, p in enumerate(PARAMS)}


@pytest.mark.parametrize("page", PAGES)
@pytest.mark.parametrize("shift", [0, 1, 3])
def test_hostile_link_parameters_are_echoed_as_inert_text(app_env, page, shift):
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    at.query_params.update(link(shift))
    at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    texts = shown(at)
    warned = [t for t in at.warning if "not available here" in str(t.value)]
    assert warned, f"{page} did not say the link's values are unusable"
    found = {t: problems(t) for t in texts if problems(t)}
    assert not found, f"{page} shows live markup from the link: {found}"


def test_a_url_shaped_chip_id_in_an_error_is_not_a_link(app_env):
    """A chip id that looks like a URL reaches the page through an error message (the copilot's analysis
    hand-off names the chip): it is shown as text, never as a link."""
    from ui.errors import page_guard  # noqa: F401  (the boundary under test is imported by every page)
    from copilot_core.errors import CopilotError
    from copilot_core.render_safety import escape

    message = str(CopilotError("unknown chip 'https://evil.example/chip?x=1' (www.evil.example)"))
    assert not problems(escape(message))
    assert "evil.example/chip" in escape(message).replace("\\", "")
