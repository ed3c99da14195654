"""Fixtures for the Copilot page tests: the app on a seeded embedded database, driven by the scripted
OpenAI-compatible server (real HTTP, real openai SDK) in "smart" mode.

    chat_app(smart, provider=True) -> ChatApp   # AppTest on app.py, copilot page selected, not yet run
    ChatApp.at, .server (ScriptedOpenAI or None), .data_dir, .repo (a repository on the same data)
    probe_aware(smart)                          # answers the readiness probe like a capable model
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from tests.fakes.scripted_openai import ScriptedOpenAI, SmartRequest, Step, answer, call

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")
COPILOT_PAGE = "pages/copilot.py"
TIMEOUT_S = 90


def probe_aware(smart: Callable[[SmartRequest], Step | None]) -> Callable[[SmartRequest], Step | None]:
    """Answer issue 7's readiness probe (a trivial tool call, then a blocks-JSON reply) like a capable model."""
    def wrapped(req: SmartRequest) -> Step | None:
        if req.tool_names == ["report_number"]:
            return call("report_number", {"value": 42})
        if not req.has_tools and "test harness" in req.system_text:
            return answer("The probe worked.")
        return smart(req)

    return wrapped


@dataclass
class ChatApp:
    at: AppTest
    server: ScriptedOpenAI | None
    data_dir: Path

    def run(self) -> AppTest:
        return self.at.run(timeout=TIMEOUT_S)

    def ask(self, text: str) -> AppTest:
        self.at.chat_input(key="copilot_input").set_value(text)
        return self.run()

    def model_requests(self) -> list[dict]:
        """Bodies the server got for real turns (readiness probes left out)."""
        if self.server is None:
            return []
        return [b for b in self.server.bodies() if "report_number" not in str(b.get("tools"))
                and "test harness" not in str(b.get("messages", b.get("instructions")))[:300]]


@pytest.fixture(scope="session")
def seeded_data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo 64-qubit chip (7 days, to stay quick) seeded once into an embedded store."""
    from copilot_core.demo.__main__ import main as seed_main

    data_dir = tmp_path_factory.mktemp("chat-demo")
    assert seed_main(["--data-dir", str(data_dir), "--chips", "64", "--days", "7"]) == 0
    return data_dir


@pytest.fixture
def chat_app(seeded_data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., ChatApp]]:
    """Factory: the app pointed at a private copy of the seeded data and (optionally) a scripted model."""
    import shutil

    servers: list[ScriptedOpenAI] = []

    def make(smart: Callable[[SmartRequest], Step | None] | None = None, *, provider: bool = True,
             env: dict[str, str] | None = None) -> ChatApp:
        data_dir = tmp_path / "data"
        if not data_dir.exists():
            shutil.copytree(seeded_data_dir, data_dir)
        secrets = tmp_path / "secrets.toml"
        secrets.write_text("")  # never read the developer's real secrets in tests
        for key in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "COPILOT_MODEL", "COPILOT_API_STYLE", "MONGODB_URI",
                    "QDASH_PROJECT_ID", "USERNAME"):
            monkeypatch.delenv(key, raising=False)
        monkeypatch.setenv("DATA_DIR", str(data_dir))
        monkeypatch.setenv("CALIBRATION_COPILOT_SECRETS", str(secrets))
        monkeypatch.setenv("TRACE_DIR", str(tmp_path / "traces"))
        monkeypatch.setenv("COPILOT_MAX_RETRIES", "0")
        server = None
        if provider:
            server = ScriptedOpenAI(smart=probe_aware(smart or (lambda req: answer("ok")))).start()
            servers.append(server)
            monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
            monkeypatch.setenv("COPILOT_MODEL", "scripted-model")
            monkeypatch.setenv("COPILOT_API_STYLE", "chat_completions")
        for key, value in (env or {}).items():
            monkeypatch.setenv(key, value)
        st.cache_data.clear()
        st.cache_resource.clear()
        at = AppTest.from_file(APP, default_timeout=TIMEOUT_S)
        at.switch_page(COPILOT_PAGE)
        return ChatApp(at=at, server=server, data_dir=data_dir)

    yield make
    for server in servers:
        server.stop()
    st.cache_data.clear()
    st.cache_resource.clear()


@pytest.fixture
def repo_for() -> Callable[[Path], Any]:
    """A repository on a data dir (opened by the test itself, to compute expectations)."""
    from copilot_core.data.connection import open_database
    from copilot_core.data.repository import CalibrationRepository
    from copilot_core.settings import load_settings

    opened: list[Any] = []

    def make(data_dir: Path) -> Any:
        settings = load_settings(env={**os.environ, "DATA_DIR": str(data_dir)})
        db = open_database(settings)
        opened.append(db)
        return CalibrationRepository(db, project_id=settings.project_id)

    return make
