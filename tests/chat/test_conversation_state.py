"""What the model reads of earlier turns: a stopped answer (and its question) never, so it is not copied as an answer;
a stored chat keeps its stopped mark and follow-ups when it is reopened."""

from __future__ import annotations

from copilot_core.answer.blocks import TextBlock
from copilot_core.chat import ChatMessage, ChatState


def chat() -> ChatState:
    state = ChatState(username="u")
    state.add(ChatMessage.user("What is the T1 of Q5?"))
    state.add(ChatMessage.assistant([TextBlock("T1 of Q5 is 42.5 μs.")]))
    state.add(ChatMessage.user("And Q6?"))
    state.add(ChatMessage.assistant([TextBlock("Stopped by the user.\n\nQ6 has T1")], stopped=True))
    state.add(ChatMessage.user("And Q7?"))
    return state


def test_a_stopped_turn_is_not_in_the_history_the_model_reads():
    history = chat().history()
    said = " ".join(str(t["content"]) for t in history)
    assert [t["role"] for t in history] == ["user", "assistant", "user"]
    assert "Stopped by the user" not in said and "And Q6?" not in said
    assert "42.5" in said and "And Q7?" in said


def test_a_reopened_chat_keeps_the_stopped_mark_and_follow_ups():
    state = chat()
    state.messages[1].follow_ups = ["Show every parameter of qubit 5 on 64Qv3"]
    reopened = ChatState(username="u")
    reopened.load_document({"session_id": "s1", **state.document_fields()})
    assert [m.stopped for m in reopened.messages] == [False, False, False, True, False]
    assert reopened.messages[1].follow_ups == ["Show every parameter of qubit 5 on 64Qv3"]
    assert "Stopped by the user" not in " ".join(str(t["content"]) for t in reopened.history())
