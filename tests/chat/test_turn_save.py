"""The turn's worker stores the chat when the turn ends; a database that cannot take it is reported to the page
(``BackgroundTurn.save_failure``, worded by ``ui.chat_session.save_failure``), never raised."""

from __future__ import annotations

from pymongo import MongoClient
from pymongo.errors import ServerSelectionTimeoutError

from copilot_core.chat import ChatMessage, ChatState
from copilot_core.chat.background import BackgroundTurn
from copilot_core.data.chat_sessions import ChatSessionStore
from copilot_core.data.connection import open_memory_database
from ui.chat_session import save_failure


def _asking(state: ChatState):
    def work(listener, *, stream, cancel) -> str:
        state.add(ChatMessage.user("How is T1 on 64Qv3?"))
        return "answered"

    return work


def test_the_chat_is_stored_before_the_page_hears_the_turn_ended():
    store = ChatSessionStore(open_memory_database("turn-save-stored"))
    state = ChatState(username="alice")
    turn = BackgroundTurn(_asking(state), state, store)
    turn.start()
    assert turn.pump(lambda events: None, lambda: None) == "answered"
    doc = store.get("alice", state.session_id) or {}
    assert [(m["role"], m["content"]) for m in doc.get("messages", [])] == [("user", "How is T1 on 64Qv3?")]
    assert turn.save_failure is None


def test_an_unreachable_database_leaves_a_failure_the_page_words_without_a_traceback():
    client: MongoClient = MongoClient("mongodb://127.0.0.1:1/", serverSelectionTimeoutMS=200, connectTimeoutMS=200)
    try:
        state = ChatState(username="alice")
        turn = BackgroundTurn(_asking(state), state, ChatSessionStore(client["calibration"]))
        turn.start()
        assert turn.pump(lambda events: None, lambda: None) == "answered"  # the turn's result still arrives
    finally:
        client.close()
    assert isinstance(turn.save_failure, ServerSelectionTimeoutError)
    assert save_failure(turn.save_failure) == \
        "This chat could not be saved to the database (ServerSelectionTimeoutError)."
    assert [m.text for m in state.messages] == ["How is T1 on 64Qv3?"]  # the chat goes on in memory
