"""Fixtures for skills, memory, tracing, cache, readiness and evals.

Uses the root fixtures ``repo`` / ``demo_db`` / ``app_env`` (seeded demo database) and the scripted
OpenAI-compatible server (``tests/fakes``).  Memory tests get their own empty in-memory database.
"""

from __future__ import annotations

import itertools

import pytest

from copilot_core.agent import ProviderConfig
from copilot_core.data.connection import open_memory_database
from copilot_core.data.memory_store import MemoryStore
from copilot_core.memory import CopilotMemory
from tests.fakes.scripted_openai import scripted_openai  # noqa: F401  (fixture)

_names = itertools.count()


@pytest.fixture(autouse=True)
def _isolated_settings(monkeypatch, tmp_path):
    """Never read the developer's secrets file or provider environment."""
    monkeypatch.setenv("CALIBRATION_COPILOT_SECRETS", str(tmp_path / "no-secrets.toml"))
    for key in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "COPILOT_MODEL", "COPILOT_API_STYLE", "MONGODB_URI",
                "OTEL_EXPORTER_OTLP_ENDPOINT", "TRACE_DIR", "COPILOT_SKILLS_DIR", "COPILOT_PRICES"):
        monkeypatch.delenv(key, raising=False)


@pytest.fixture
def memory_db():
    """An empty in-memory database of its own (memory tests must not see each other's entries)."""
    return open_memory_database(f"depth-memory-{next(_names)}")


@pytest.fixture
def memory(memory_db) -> CopilotMemory:
    return CopilotMemory(MemoryStore(memory_db))


def provider_for(server, style: str = "chat_completions", **changes) -> ProviderConfig:
    """A provider on the scripted server with fast retries (the server's own factory, one retry)."""
    return server.provider(style, **{"max_retries": 1, "retry_backoff_s": 0.0, "timeout_s": 10.0, **changes})


@pytest.fixture(params=["responses", "chat_completions"])
def style(request) -> str:
    return request.param
