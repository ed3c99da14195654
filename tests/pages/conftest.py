"""AppTest helpers for the dashboard pages.

The app under test reads the seeded temporary DATA_DIR set up by the root ``app_env`` fixture;
``app_repo`` opens a repository on that same database so expected numbers come from the data
layer the page uses, computed in the test.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from copilot_core.data.connection import open_database
from copilot_core.data.repository import CalibrationRepository
from copilot_core.settings import load_settings

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "app.py"
TIMEOUT = 180  # cold reads on a busy 2-core machine; AppTest's default is 3 s


@pytest.fixture
def app_repo(app_env) -> CalibrationRepository:
    """The repository over the same database the app under test reads."""
    s = load_settings()
    return CalibrationRepository(open_database(s), project_id=s.project_id)


@pytest.fixture
def demo_chip(app_repo) -> dict:
    """The 144-qubit demo chip (or the largest one), as ``list_chips`` returns it."""
    chips = app_repo.list_chips()
    assert chips, "the seeded database has no chip"
    return next((c for c in chips if c["size"] == 144), max(chips, key=lambda c: c["size"]))


@pytest.fixture
def open_page(app_env, demo_chip):
    """``open_page("pages/heatmap.py")`` -> an AppTest on that page with the demo chip selected."""

    def _open(page: str | None = None, chip_id: str | None = None) -> AppTest:
        at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
        at.session_state["chip_id"] = chip_id or demo_chip["chip_id"]
        at.run()
        if page:
            at.switch_page(page).run()
        assert not at.exception, [e.value for e in at.exception]
        return at

    return _open


def figures(at: AppTest) -> dict[str, dict]:
    """Plotly figures on the page by element key suffix ({"heatmap_chart": spec, ...})."""
    out = {}
    for element in at.get("plotly_chart"):
        key = element.proto.id.rsplit("-", 1)[-1]
        out[key] = json.loads(element.proto.spec)
    return out


def dataframe(at: AppTest, key_prefix: str):
    """The DataFrame shown by the st.dataframe whose key starts with ``key_prefix``."""
    for element in at.dataframe:
        if (element.key or "").startswith(key_prefix) or element.proto.id.rsplit("-", 1)[-1].startswith(key_prefix):
            return element.value
    raise AssertionError(f"no dataframe with key {key_prefix!r}; keys: {[e.proto.id for e in at.dataframe]}")


def texts(at: AppTest) -> list[str]:
    """Every markdown, caption, info, success, error and warning text of the page."""
    out: list[str] = []
    for kind in (at.markdown, at.caption, at.info, at.success, at.error, at.warning, at.subheader, at.title):
        out += [str(e.value) for e in kind]
    return out
