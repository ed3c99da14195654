"""AppTest helpers for the dashboard pages.

The app under test reads the seeded temporary DATA_DIR set up by the root ``app_env`` fixture;
``app_repo`` opens a repository on that same database so expected numbers come from the data
layer the page uses, computed in the test.
"""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Iterator
from pathlib import Path

import numpy as np

import pytest
from streamlit.dataframe_util import convert_arrow_bytes_to_pandas_df
from streamlit.testing.v1 import AppTest

from copilot_core.data.connection import open_embedded
from copilot_core.data.serial import SerialDatabase
from copilot_core.data.repository import CalibrationRepository
from copilot_core.settings import Settings, load_settings

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "app.py"
TIMEOUT = 180  # cold reads on a busy 2-core machine; AppTest's default is 3 s


@pytest.fixture(scope="session")
def _app_db(seeded_data_dir: Path) -> Iterator[SerialDatabase]:
    """One connection per process to the store the app under test reads (``app_env``'s DATA_DIR): litemongo
    builds its in-memory indexes per connection, seconds for the history, which a connection per test re-paid."""
    db = open_embedded(Settings(data_dir=seeded_data_dir))
    yield db
    db.close()


@pytest.fixture
def app_repo(app_env, _app_db: SerialDatabase) -> CalibrationRepository:
    """The repository over the same database the app under test reads."""
    s = load_settings()
    assert s.data_dir == app_env.data_dir
    return CalibrationRepository(_app_db, project_id=s.project_id)


@pytest.fixture
def demo_chip(app_repo) -> dict:
    """The 144-qubit demo chip (or the largest one), as ``list_chips`` returns it."""
    chips = app_repo.list_chips()
    assert chips, "the seeded database has no chip"
    return next((c for c in chips if c["size"] == 144), max(chips, key=lambda c: c["size"]))


@pytest.fixture(autouse=True)
def no_model_configured(monkeypatch):
    """Page tests run with no model: a key another test module planted in this process must not configure one."""
    for key in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "COPILOT_MODEL", "COPILOT_API_STYLE"):
        monkeypatch.delenv(key, raising=False)


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


def open_couplings(at: AppTest) -> None:
    """What a click on the Couplings tab does: the tab's state changes and the page runs again."""
    at.session_state["heatmap_section"] = "Couplings"
    at.run()
    assert not at.exception, [e.value for e in at.exception]


def click_cell(at: AppTest, qid: str) -> None:
    """What the browser sends when the invisible overlay point on the qubit's cell is clicked."""
    at.session_state["heatmap_chart"] = {"selection": {"points": [{"curve_number": 2, "customdata": qid}],
                                                       "point_indices": [], "box": [], "lasso": []}}
    at.run()
    assert not at.exception, [e.value for e in at.exception]


def decode(array) -> list:
    """A Plotly array as a list: plain lists pass through, typed arrays ({dtype, bdata, shape}) are unpacked."""
    if isinstance(array, dict) and "bdata" in array:
        out = np.frombuffer(base64.b64decode(array["bdata"]), dtype=np.dtype(array["dtype"]))
        if array.get("shape"):
            out = out.reshape([int(n) for n in str(array["shape"]).split(",")])
        return out.tolist()
    return list(array)


def dataframe(at: AppTest, *columns: str):
    """The first DataFrame on the page that has all of ``columns`` (display-only tables carry no key)."""
    for element in at.dataframe:
        frame = element.value
        if all(c in frame.columns for c in columns):
            return frame
    raise AssertionError(f"no table with columns {columns}; tables: {[list(e.value.columns) for e in at.dataframe]}")


def displayed(at: AppTest, *columns: str):
    """The text the grid shows in the first DataFrame with all of ``columns``, as the browser draws it: a
    missing value as the table's ``placeholder`` ("None" unless set), any other cell as the styler's text
    when the table is styled, else as its value."""
    for element in at.dataframe:
        frame = element.value
        if all(c in frame.columns for c in columns):
            styled = element.proto.arrow_data.styler.display_values
            text = convert_arrow_bytes_to_pandas_df(styled) if styled else frame.astype(str)
            missing = element.proto.placeholder if element.proto.HasField("placeholder") else "None"
            return text.where(frame.notna(), missing)
    raise AssertionError(f"no table with columns {columns}; tables: {[list(e.value.columns) for e in at.dataframe]}")


def texts(at: AppTest) -> list[str]:
    """Every markdown, caption, info, success, error and warning text of the page, Markdown escapes removed."""
    out: list[str] = []
    for kind in (at.markdown, at.caption, at.info, at.success, at.error, at.warning, at.subheader, at.title):
        out += [re.sub(r"\\(.)", r"\1", str(e.value)) for e in kind]
    return out
