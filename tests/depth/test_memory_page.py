"""The "Copilot memory" page: staff see a chip's memory entries and delete one, or all of them."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from copilot_core.data.connection import open_database
from copilot_core.data.memory_store import MemoryStore
from copilot_core.memory import CopilotMemory
from copilot_core.settings import Settings

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "memory.py")
CHIP = "64Qv3"


@pytest.fixture
def page_env(app_env, tmp_path, monkeypatch):
    """A private copy of the seeded database (this test writes memory entries)."""
    data_dir = tmp_path / "data"
    shutil.copytree(app_env.data_dir, data_dir)
    monkeypatch.setenv("DATA_DIR", str(data_dir))
    db = open_database(Settings(data_dir=data_dir))
    memory = CopilotMemory(MemoryStore(db))
    memory.learn(CHIP, [
        {"name": "get_parameter_timeseries", "ok": True, "args": {"parameter_name": "t1", "qid": "3"}},
        {"name": "execute_python_analysis", "ok": False, "args": {"code": "print(df)"},
         "error": "NameError: name 'df' is not defined"},
        {"name": "execute_python_analysis", "ok": True, "args": {"code": "df = data['t1']\nprint(df)"}},
    ])
    yield memory
    db.close()


def keys_shown(at: AppTest) -> list[str]:
    return list(at.dataframe[0].value["key"]) if at.dataframe else []


def test_staff_see_and_delete_memory_entries(page_env):
    memory = page_env
    expected = [e["key"] for e in memory.entries(CHIP)]
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.session_state["chip_id"] = CHIP
    at.run()
    assert not at.exception
    assert keys_shown(at) == expected and len(expected) == 3
    assert any("Memory for chip 64Qv3" in c.value for c in at.code)  # what the prompt gets

    at.session_state[f"memory_table_{CHIP}"] = {"selection": {"rows": [0], "columns": [], "cells": []}}
    at.run()
    at.button(key="memory_delete").click().run()
    assert not at.exception
    assert keys_shown(at) == expected[1:]
    assert [e["key"] for e in memory.entries(CHIP)] == expected[1:]

    at.button(key="memory_clear").click().run()
    assert not at.exception
    assert memory.entries(CHIP) == []
    assert any("no memory for 64Qv3" in i.value for i in at.info)
