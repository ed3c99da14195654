"""With sign-in on, chats saved under the plain USERNAME and memory without an owner are hidden from everyone:
the sidebar says how many (never what they are) and names the command that assigns them."""

from __future__ import annotations

from datetime import datetime

import pytest
from streamlit.testing.v1 import AppTest

from copilot_core.access import owner_id
from copilot_core.data.connection import open_database
from copilot_core.render_safety import unescape
from copilot_core.settings import Settings

ALICE = owner_id("https://idp.lab", "alice-sub")
AT = datetime(2026, 11, 1, 9, 30)


def _hint() -> None:
    from ui.signin import hidden_items_hint

    hidden_items_hint()


def _run(tmp_path, monkeypatch, chats: list[str], memory_owners: list[str | None]) -> list[str]:
    data_dir = tmp_path / "data"
    db = open_database(Settings(data_dir=data_dir))
    for i, owner in enumerate(chats):
        db["copilot_chat_session"].insert_one({"username": owner, "session_id": f"s{i}", "title": f"Secret title {i}",
                                               "messages": [], "created_at": AT, "updated_at": AT})
    for i, owner in enumerate(memory_owners):
        db["copilot_memory"].insert_one({"_id": f"{i:024x}", "owner": owner, "project_id": None, "chip_id": "64Qv3",
                                         "kind": "parameter", "key": f"k{i}", "text": "private note", "hits": 1.0})
    db.close()
    for key in ("MONGODB_URI", "MONGO_DB_NAME", "QDASH_PROJECT_ID"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("DATA_DIR", str(data_dir))
    monkeypatch.setenv("CALIBRATION_COPILOT_SECRETS", str(tmp_path / "none.toml"))
    at = AppTest.from_function(_hint, default_timeout=60).run()
    assert not at.exception
    return [unescape(c.value) for c in at.caption]  # the words a reader sees


@pytest.mark.parametrize("chats,memory,expected", [
    (["alice", "alice", ALICE], [None, None, "local", ALICE],
     "2 chats and 3 memory entries saved before sign-in are hidden from everyone."),
    (["alice"], [], "1 chat saved before sign-in is hidden from everyone."),
    ([], [None], "1 memory entry saved before sign-in is hidden from everyone."),
])
def test_hidden_items_are_counted_not_shown(tmp_path, monkeypatch, chats, memory, expected):
    captions = _run(tmp_path, monkeypatch, chats, memory)
    assert len(captions) == 1 and expected in captions[0]
    assert "python -m copilot_core owners" in captions[0]
    assert "Secret title" not in captions[0] and "private note" not in captions[0] and "alice" not in captions[0]


def test_no_hint_when_every_item_has_a_signed_in_owner(tmp_path, monkeypatch):
    assert _run(tmp_path, monkeypatch, [ALICE], [ALICE]) == []
