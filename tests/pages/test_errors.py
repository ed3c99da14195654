"""An unreachable database is reported on every page with its host, never its password or a traceback."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from tests.pages.conftest import APP, TIMEOUT, texts

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
