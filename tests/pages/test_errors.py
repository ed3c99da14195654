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


def _raised_by_a_service(kind: str) -> None:
    from copilot_core.analysis.compare_points import CompareError
    from copilot_core.data.connection import DatabaseUnavailable
    from copilot_core.data.importer import ImportFailed
    from copilot_core.evals.facts import FactError
    from copilot_core.report.builder import ReportError
    from copilot_core.settings import ConfigError
    from ui.errors import page_guard

    errors = {"compare": CompareError("both points are run 20260720-003: pick two different runs"),
              "report": ReportError("chip C64 has no previous run to compare with"),
              "import": ImportFailed("loading failed (ValueError: line 3); the current data is unchanged"),
              "fact": FactError("no usable t1 on Q05"),
              "config": ConfigError("COPILOT_MODEL_SIZE must be one of small, large, not 'huge'"),
              "database": DatabaseUnavailable(
                  "cannot connect to MongoDB at db.lab:27017/qdash (ServerSelectionTimeoutError).")}
    with page_guard("the test page"):
        raise errors[kind]


@pytest.mark.parametrize("kind, level, shown", [
    ("compare", "warning", "both points are run 20260720-003: pick two different runs"),
    ("report", "error", "chip C64 has no previous run to compare with"),
    ("import", "error", "loading failed (ValueError: line 3); the current data is unchanged"),
    ("fact", "error", "no usable t1 on Q05"),
    ("config", "error", "The configuration cannot be used: COPILOT_MODEL_SIZE must be one of small, large, not 'huge'"),
    ("database", "error", "The calibration database cannot be reached: cannot connect to MongoDB at "
                          "db.lab:27017/qdash (ServerSelectionTimeoutError)."),
])
def test_each_service_error_reaches_the_page_as_its_one_message(kind, level, shown):
    at = AppTest.from_function(_raised_by_a_service, args=(kind,), default_timeout=TIMEOUT).run()
    assert not at.exception
    messages = [("error", e.value) for e in at.error] + [("warning", w.value) for w in at.warning]
    assert [(lvl, readable(text)) for lvl, text in messages] == [(level, shown)]


def test_a_bad_setting_on_the_copilot_page_is_its_one_message(app_env, monkeypatch):
    monkeypatch.setenv("COPILOT_MODEL_SIZE", "huge")
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT).run()
    at.switch_page("pages/copilot.py").run()
    assert not at.exception
    shown = [readable(e.value) for e in at.error]
    assert shown.count("The configuration cannot be used: COPILOT_MODEL_SIZE must be one of small, large, "
                       "not 'huge'") == 1, shown
