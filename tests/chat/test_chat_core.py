"""The framework-neutral chat layer: state, stored sessions (QDash shape), show-work records, CSV export."""

from __future__ import annotations

import copy
import io
import json
import uuid
from datetime import datetime
from types import SimpleNamespace

import pandas as pd
import pytest

from copilot_core.answer.blocks import ChartBlock, TextBlock
from copilot_core.chat import ChatMessage, ChatState, csv_exports, show_work_from
from copilot_core.chat.showwork import ShowWork
from copilot_core.data.chat_sessions import (
    COLLECTION,
    ChatSessionStore,
    InvalidChatSession,
)
from copilot_core.data.connection import open_memory_database
from copilot_core.tools.store import DataStore
from tests.mongo_engine import mongo_plan_database

CHART = {"data": [{"type": "bar", "x": ["Q00", "Q01"], "y": [1, 2]}], "layout": {"title": {"text": "t1"}}}


@pytest.fixture
def db():
    return open_memory_database(f"chat-{uuid.uuid4().hex}")  # a fresh in-memory database per test


def _answer(text: str = "T1 is fine", assessment: str = "good") -> ChatMessage:
    return ChatMessage.assistant([TextBlock(text), ChartBlock(CHART)],
                                 assessment=assessment, work=ShowWork(data_keys=["t1"], usage={"rounds": 2}))


def test_session_round_trip_keeps_qdash_shape(db):
    state = ChatState(username="alice")
    state.chip_id = "64Qv3"
    state.add(ChatMessage.user("How is T1 on 64Qv3?"))
    state.add(_answer())
    store = ChatSessionStore(db)
    store.save("alice", state.session_id, **state.document_fields())

    raw = db[COLLECTION].find_one({"username": "alice"}, {"_id": 0})
    assert set(raw) == {"username", "session_id", "title", "context", "messages", "created_at", "updated_at"}
    assert raw["title"] == "How is T1 on 64Qv3?"
    assert raw["context"] == {"chip_id": "64Qv3", "qid": None}
    assert [set(m) for m in raw["messages"]] == [{"role", "content", "created_at"}] * 2
    content = json.loads(raw["messages"][1]["content"])
    assert content["blocks"] == [{"type": "text", "content": "T1 is fine", "chart": None},
                                 {"type": "chart", "content": None, "chart": CHART}]
    assert content["assessment"] == "good"

    resumed = ChatState(username="alice")
    resumed.load_document(store.get("alice", state.session_id))
    assert resumed.session_id == state.session_id and resumed.title == state.title
    assert [m.role for m in resumed.messages] == ["user", "assistant"]
    assert resumed.messages[1].charts() == [CHART]
    assert resumed.messages[1].work.data_keys == ["t1"]
    assert len(resumed.store) == 0  # results are not persisted: a resumed chat starts with an empty store


OLD_FORMAT_SESSION = {
    "username": "alice", "session_id": "1700000000000-a1b2c3", "title": "Old T1 chat",
    "context": {"chip_id": "64Qv3", "qid": None},
    "created_at": datetime(2025, 3, 1, 9, 0), "updated_at": datetime(2025, 3, 1, 9, 5),
    "messages": [
        {"role": "user", "content": "How is T1?", "created_at": datetime(2025, 3, 1, 9, 0)},
        # as this app wrote assistant turns before blocks were typed: text without "chart", chart with ""
        {"role": "assistant", "created_at": datetime(2025, 3, 1, 9, 1), "content": json.dumps(
            {"blocks": [{"type": "text", "content": "T1 is fine"}, {"type": "chart", "chart": CHART, "content": ""}],
             "assessment": "good", "show_work": {"data_keys": ["t1"], "usage": {"rounds": 2}}})},
        {"role": "user", "content": "And Q05?", "created_at": datetime(2025, 3, 1, 9, 2)},
        # as QDash writes them: every block carries type, content and chart
        {"role": "assistant", "created_at": datetime(2025, 3, 1, 9, 3), "content": json.dumps(
            {"blocks": [{"type": "text", "content": "Q05 drifted.", "chart": None},
                        {"type": "table", "content": "| a |", "chart": None},
                        {"type": "chart", "content": None, "chart": [1, 2]}], "assessment": "warning"})},
        {"role": "assistant", "content": "**plain** markdown from QDash", "created_at": datetime(2025, 3, 1, 9, 4)},
    ],
}


@pytest.mark.parametrize("engine", ["embedded", "mongomock"])
def test_old_format_session_inserted_with_pymongo_resumes_and_saves(engine):
    db = open_memory_database(f"old-chat-{uuid.uuid4().hex}") if engine == "embedded" else mongo_plan_database()
    db[COLLECTION].insert_one(copy.deepcopy(OLD_FORMAT_SESSION))
    store = ChatSessionStore(db)

    state = ChatState(username="alice")
    state.load_document(store.get("alice", "1700000000000-a1b2c3"))
    assert (state.title, state.chip_id) == ("Old T1 chat", "64Qv3")
    assert [m.role for m in state.messages] == ["user", "assistant", "user", "assistant", "assistant"]
    first, second, third = state.messages[1], state.messages[3], state.messages[4]
    assert first.blocks == [TextBlock("T1 is fine"), ChartBlock(CHART)] and first.assessment == "good"
    assert first.work is not None and first.work.data_keys == ["t1"]
    assert second.blocks == [TextBlock("Q05 drifted."),
                             TextBlock("_(A saved block of unknown type 'table' could not be shown.)_"),
                             TextBlock("_(A saved chart (its figure is not a JSON object) could not be shown.)_")]
    assert second.assessment == "warning"
    assert third.blocks == [TextBlock("**plain** markdown from QDash")]
    assert first.created_at == datetime(2025, 3, 1, 9, 1)

    state.add(ChatMessage.user("Thanks"))
    store.save("alice", state.session_id, **state.document_fields())
    raw = db[COLLECTION].find_one({"session_id": "1700000000000-a1b2c3"}, {"_id": 0})
    assert [m["role"] for m in raw["messages"]] == ["user", "assistant", "user", "assistant", "assistant", "user"]
    resaved = json.loads(raw["messages"][1]["content"])
    assert resaved["blocks"] == [{"type": "text", "content": "T1 is fine", "chart": None},
                                 {"type": "chart", "content": None, "chart": CHART}]
    assert resaved["assessment"] == "good" and resaved["show_work"]["data_keys"] == ["t1"]


def test_sessions_are_per_user_and_can_be_renamed_and_deleted(db):
    store = ChatSessionStore(db)
    store.save("alice", "1-aaaaaa", title="first", context=None, messages=[])
    store.save("alice", "2-bbbbbb", title="second", context=None, messages=[{"role": "user", "content": "hi"}])
    store.save("bob", "3-cccccc", title="bob's", context=None, messages=[])
    listed = store.list("alice")
    assert [s["session_id"] for s in listed] == ["2-bbbbbb", "1-aaaaaa"]  # newest first
    assert listed[0]["message_count"] == 1
    assert store.get("bob", "1-aaaaaa") is None  # another user's id is invisible
    assert store.rename("alice", "1-aaaaaa", "  renamed\n title ")
    assert store.get("alice", "1-aaaaaa")["title"] == "renamed  title"
    assert store.delete("alice", "2-bbbbbb") and not store.delete("alice", "2-bbbbbb")
    assert [s["title"] for s in store.list("alice")] == ["renamed  title"]
    assert [s["title"] for s in store.list("bob")] == ["bob's"]


@pytest.mark.parametrize("username, session_id", [({"$ne": None}, "1-a"), ("alice", {"$gt": ""}),
                                                  ("alice", "1-a; drop"), ("", "1-a")])
def test_operator_injection_and_bad_ids_rejected(db, username, session_id):
    with pytest.raises(InvalidChatSession):
        ChatSessionStore(db).get(username, session_id)


def test_history_is_passed_in_full_with_blocks_json_and_no_show_work():
    state = ChatState(username="local")
    for i in range(8):
        state.add(ChatMessage.user(f"question {i}"))
        state.add(_answer(f"answer {i}"))
    history = state.history()
    assert len(history) == 16  # the agent caps to 6 turns; the chat passes everything once
    assert history[0] == {"role": "user", "content": "question 0"}
    replay = json.loads(history[1]["content"])
    assert set(replay) == {"blocks", "assessment"}  # show-work never goes to the model


def test_each_state_has_its_own_store_and_new_chat_starts_clean():
    a, b = ChatState(username="local"), ChatState(username="local")
    a.store.put("t1", {"rows": 1}, pd.DataFrame({"qid": ["0"], "value": [1.0]}))
    assert a.store.keys() == ["t1"] and b.store.keys() == []
    a.add(ChatMessage.user("x"))
    old_id = a.session_id
    a.new_chat()
    assert a.messages == [] and a.store.keys() == [] and a.session_id != old_id and a.title == "New chat"


def test_analysis_state_carries_chip_qubit_and_one_pending_request():
    state = ChatState(username="local")
    state.start_analysis("64Qv3", "5", "Analyze qubit 5")
    assert (state.mode, state.chip_id, state.qid) == ("analysis", "64Qv3", "5")
    assert state.take_pending() == "Analyze qubit 5" and state.take_pending() is None


def test_stored_documents_from_other_clients_are_read_tolerantly():
    legacy = ChatMessage.from_document({"role": "assistant", "content": "**plain** markdown"})
    assert legacy.blocks == [TextBlock("**plain** markdown")]
    odd = ChatMessage.from_document({"role": "assistant", "content": json.dumps(
        {"blocks": [{"type": "html", "content": "<script>"}, {"type": "chart", "chart": "nope"}, "bare",
                    {"type": "text", "content": 5}, {"type": "text", "content": "kept"}],
         "assessment": "excellent!"})})
    assert odd.blocks == [TextBlock("_(A saved block of unknown type 'html' could not be shown.)_"),
                          TextBlock("_(A saved chart (its figure is not a JSON object) could not be shown.)_"),
                          TextBlock("_(A saved block that is not an object could not be shown.)_"),
                          TextBlock("_(A saved text block without text could not be shown.)_"),
                          TextBlock("kept")]
    assert odd.assessment is None and "<script>" not in odd.text


def test_csv_export_matches_every_store_entry():
    store = DataStore()
    t1 = pd.DataFrame({"qid": ["0", "1"], "value": [50.5, 61.25], "unit": ["μs", "μs"]})
    store.put("t1", {"n": 2}, t1)
    store.put("../chip summary", {"n": 1}, pd.DataFrame({"qid": ["0"], "t1": [50.5]}))
    exports = csv_exports(store)
    assert [e.key for e in exports] == ["t1", "../chip summary"]
    assert [e.filename for e in exports] == ["copilot_t1.csv", "copilot_chip_summary.csv"]
    back = pd.read_csv(io.BytesIO(exports[0].data), dtype={"qid": str})
    pd.testing.assert_frame_equal(back, t1, check_dtype=False)
    assert exports[0].rows == 2 and exports[0].columns == ["qid", "value", "unit"]


def test_show_work_records_tools_sandbox_code_and_usage():
    outcomes = [
        SimpleNamespace(name="get_chip_parameter_timeseries", args={"chip_id": "64Qv3", "parameter_name": "t1"},
                        ok=True, summary="t1 on 64Qv3: 64 qubits", error=None, elapsed_s=0.01, data_keys=["t1"],
                        full={}, charts=[]),
        SimpleNamespace(name="execute_python_analysis",
                        args={"code": "print(data['t1'].value.median(), data[\"chip_summary\"].shape)"},
                        ok=True, summary="analysis ran", error=None, elapsed_s=0.05, data_keys=[],
                        full={"output": "55.2\n", "charts": "1 chart(s) generated", "error": None}, charts=[CHART]),
    ]
    result = SimpleNamespace(tool_calls=outcomes, usage={"rounds": 3, "input_tokens": 900, "output_tokens": 80},
                             elapsed_s=1.234, model="m", api_style="chat_completions", error=None)
    work = show_work_from(result, trace={"spans": 4})
    assert [t.name for t in work.tools] == ["get_chip_parameter_timeseries", "execute_python_analysis"]
    assert work.data_keys == ["t1", "chip_summary"] and work.usage["input_tokens"] == 900
    assert work.analyses[0].output == "55.2\n" and work.analyses[0].charts == 1
    assert work.analysis_code() == ["print(data['t1'].value.median(), data[\"chip_summary\"].shape)"]
    assert work.analysis_keys() == ["t1", "chip_summary"]
    assert ShowWork.from_dict(json.loads(json.dumps(work.to_dict()))) == work


def test_legacy_qdash_answer_is_converted_to_blocks():
    legacy = json.dumps({"summary": "T1 is low on Q05", "assessment": "bad", "explanation": "T1 fell to 12 μs"})
    msg = ChatMessage.from_document({"role": "assistant", "content": legacy})
    assert msg.assessment == "bad"
    assert "T1 is low on Q05" in msg.text and "12 μs" in msg.text


def test_hostile_stored_context_is_dropped(db):
    store = ChatSessionStore(db)
    store.save("alice", "9-zzzzzz", title="x", context={"chip_id": "64Qv3`](javascript:x)", "qid": "5"}, messages=[])
    state = ChatState(username="alice")
    state.load_document(store.get("alice", "9-zzzzzz"))
    assert (state.chip_id, state.qid) == (None, "5") and state.mode == "chat"
