"""Fixtures for the Copilot page tests: the app on a seeded embedded database, driven by the scripted
OpenAI-compatible server (real HTTP, real openai SDK) in "smart" mode.

    chat_app(smart, provider=True, env=None) -> ChatApp   # AppTest on app.py, copilot page selected, not yet run
    ChatApp.at, .server (ScriptedOpenAI or None), .username (unique per test), .repo(), .sessions()
    probe_aware(smart)                          # answers the readiness probe like a capable model
"""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from copilot_core.data.chat_sessions import ChatSessionStore
from tests.fakes.scripted_openai import ScriptedOpenAI, SmartRequest, Step, answer, call

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")
COPILOT_PAGE = "pages/copilot.py"
TIMEOUT_S = 90


def probe_aware(smart: Callable[[SmartRequest], Step | None]) -> Callable[[SmartRequest], Step | None]:
    """Answer the readiness probe (a trivial tool call, then a blocks-JSON reply) like a capable model."""
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
    username: str

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

    def repo(self) -> Any:
        """The app's own cached repository (the same Database object the page uses)."""
        from ui.data import repository

        return repository()

    def sessions(self) -> ChatSessionStore:
        return ChatSessionStore(self.repo().db)


@pytest.fixture(scope="session")
def chat_data_dir(seeded_data_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One private copy of the root demo for these tests; each test has its own user, so its chats are its own."""
    data_dir = tmp_path_factory.mktemp("chat") / "data"
    shutil.copytree(seeded_data_dir, data_dir)
    return data_dir


@pytest.fixture
def chat_app(app_env: Any, chat_data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., ChatApp]]:
    """Factory: the app (root ``app_env``: no MongoDB URI, no secrets file) on ``chat_data_dir`` as a user of
    its own, with (optionally) a scripted model."""
    servers: list[ScriptedOpenAI] = []

    def make(smart: Callable[[SmartRequest], Step | None] | None = None, *, provider: bool = True,
             env: dict[str, str] | None = None) -> ChatApp:
        for key in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "COPILOT_MODEL", "COPILOT_API_STYLE"):
            monkeypatch.delenv(key, raising=False)
        username = f"test-{uuid.uuid4().hex[:10]}"
        monkeypatch.setenv("USERNAME", username)
        monkeypatch.setenv("DATA_DIR", str(chat_data_dir))
        monkeypatch.setenv("TRACE_DIR", str(chat_data_dir.parent / "traces"))
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
        st.cache_data.clear()  # the cached database client stays: these tests share one data dir
        at = AppTest.from_file(APP, default_timeout=TIMEOUT_S)
        at.switch_page(COPILOT_PAGE)
        return ChatApp(at=at, server=server, data_dir=chat_data_dir, username=os.environ["USERNAME"])

    yield make
    for server in servers:
        server.stop()
