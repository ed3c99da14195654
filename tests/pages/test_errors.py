"""An unreachable database is reported on every page with its host, never its password or a traceback."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from tests.pages.conftest import APP, TIMEOUT, texts
from tests.render_safety.checks import readable

PAGES = ["pages/overview.py", "pages/heatmap.py", "pages/timeseries.py", "pages/qubits.py"]


@pytest.mark.parametrize("page_file", PAGES)
def test_unreachable_database_says_so_without_the_password(app_env, monkeypatch, page_file):
    monkeypatch.setenv("MONGODB_URI", "mongodb://labuser:s3cret-pw@127.0.0.1:1/qdash?serverSelectionTimeoutMS=300")
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT).run()
    if page_file != PAGES[0]:
        at.switch_page(page_file).run()
    assert not at.exception
    shown = "\n".join(texts(at))
    assert "cannot be reached" in shown
    assert "127.0.0.1" in shown
    assert "s3cret" not in shown and "s3cret" not in repr(at.main) and "s3cret" not in repr(at.sidebar)


def _guarded(kind: str) -> None:
    from copilot_core.errors import InvalidRequest
    from ui.errors import page_guard

    with page_guard("the test page"):
        if kind == "copilot":
            raise InvalidRequest("window must be 1..366 days, not 0")
        raise ValueError("internal detail 7f3a")


@pytest.mark.parametrize("kind, shown, hidden", [
    ("copilot", "window must be 1..366 days, not 0", None),
    ("other", "Something went wrong while building the test page (ValueError)", "internal detail 7f3a"),
])
def test_page_guard_shows_copilot_errors_and_hides_everything_else(kind, shown, hidden):
    at = AppTest.from_function(_guarded, args=(kind,), default_timeout=TIMEOUT).run()
    assert not at.exception
    [error] = at.error
    assert shown in readable(error.value)  # the words a person reads (the message is markdown-escaped)
    assert hidden is None or hidden not in readable(error.value)
