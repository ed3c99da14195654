"""QDash's ``ask`` and ``approval`` blocks (its Pi chat saves them in ``copilot_chat_session``) open here as what
they are, read-only: a question with its options and the pick, an approval request with its tool, exact
arguments and decision.  QDash keeps the pick or decision as the next user turn ("Q17", "Approved: <label>"),
so the expected outcomes below are read off the hand-written conversation.  Hostile text inside the cards
renders inert; a re-saved chat keeps QDash's shape so QDash still shows its cards."""

from __future__ import annotations

import copy
import json
import uuid

from streamlit.testing.v1 import AppTest

from copilot_core.answer.blocks import ApprovalBlock, AskBlock, TextBlock
from copilot_core.chat import ChatState
from tests.render_safety.checks import problems

ASK = {"question": "Which qubit should I recalibrate?",
       "options": [{"label": "Q05", "description": "lowest T1 this week"}, {"label": "Q17"}]}


def approval(n: int, label: str) -> dict:
    return {"id": f"approval-{n}", "tool": "run_calibration", "label": label,
            "args": {"chipId": "64Qv3", "qids": ["17"], "tasks": ["CheckT1"]}}


def answer(*blocks: dict) -> dict:
    return {"role": "assistant", "content": json.dumps({"blocks": list(blocks), "assessment": None})}


def card(kind: str, payload: dict) -> dict:
    return {"type": kind, "content": None, "chart": None, kind: payload}


def user(text: str) -> dict:
    return {"role": "user", "content": text}


def qdash_session() -> dict:
    """A QDash chat: a question answered with an option, then four approval cards: approved, declined,
    answered with something else, and still open (the last word)."""
    return {"username": "alice", "session_id": "1721000000000-ab12cd", "title": "Recalibrate", "messages": [
        user("T1 looks low on a few qubits"),
        answer({"type": "text", "content": "Two qubits dropped.", "chart": None}, card("ask", ASK)),
        user("Q17"),
        answer(card("approval", approval(1, "Run CheckT1 on Q17"))),
        user("Approved: Run CheckT1 on Q17"),
        answer(card("approval", approval(2, "Run CheckT2Echo on Q17"))),
        user("Declined: Run CheckT2Echo on Q17"),
        answer(card("approval", approval(3, "Update qubit_frequency of Q17"))),
        user("what would that change?"),
        answer(card("approval", approval(4, "Exclude task 9b2e"))),
    ]}


def loaded(doc: dict) -> ChatState:
    state = ChatState(username="alice")
    state.load_document(doc)
    return state


def test_cards_load_read_only_with_the_outcome_qdash_saved():
    messages = loaded(qdash_session()).messages
    ask = messages[1].blocks[1]
    assert ask == AskBlock("Which qubit should I recalibrate?", ("Q05", "Q17"), answer="Q17", read_only=True,
                           descriptions=("lowest T1 this week", ""))
    statuses = [(b.approval_id, b.status) for m in messages for b in m.blocks if isinstance(b, ApprovalBlock)]
    assert statuses == [("approval-1", "approved"), ("approval-2", "declined"), ("approval-3", "undecided"),
                        ("approval-4", "pending")]
    first = messages[3].blocks[0]
    assert isinstance(first, ApprovalBlock)
    assert (first.tool, first.label, first.args) == ("run_calibration", "Run CheckT1 on Q17",
                                                    {"chipId": "64Qv3", "qids": ["17"], "tasks": ["CheckT1"]})


def test_a_resaved_chat_keeps_qdash_s_card_shape():
    original = qdash_session()
    saved = loaded(copy.deepcopy(original)).document_fields()["messages"]
    for before, after in zip(original["messages"], saved):
        if before["role"] == "assistant":
            wrote = json.loads(before["content"])["blocks"]
            kept = json.loads(after["content"])["blocks"]
            assert [b for b in kept if b["type"] in ("ask", "approval")] == \
                   [b for b in wrote if b["type"] in ("ask", "approval")]


def test_malformed_cards_load_as_a_placeholder():
    doc = {"session_id": "s", "messages": [answer(
        card("approval", {"id": "a", "tool": "x", "label": "Do it", "args": ["not", "a", "mapping"]}),
        card("approval", {"tool": "x", "args": {}}),
        card("ask", {"question": "Pick", "options": [{"label": "only one"}, {"description": "no label"}]}))]}
    blocks = loaded(doc).messages[0].blocks
    assert all(isinstance(b, TextBlock) and b.text.startswith("_(A saved ") for b in blocks), blocks


# ---- on the page ------------------------------------------------------------------------------------------

HOSTILE = ("![x](https://evil.example/pixel.png) [Sign in](https://evil.example/login) "
           "<img src=x onerror=alert(1)> javascript:alert(1) www.evil.example")


def hostile_session() -> dict:
    ask = {"question": HOSTILE, "options": [{"label": HOSTILE, "description": HOSTILE}, {"label": "Q17"}]}
    approve = {"id": HOSTILE, "tool": HOSTILE, "label": HOSTILE, "args": {HOSTILE: HOSTILE, "n": [1, 2]}}
    return {"session_id": "hostile", "messages": [user("hi"), answer(card("ask", ask)), user("Q17"),
                                                  answer(card("approval", approve))]}


def _page(doc: dict) -> None:
    from copilot_core.chat import ChatState
    from ui.chat_render import render_history

    state = ChatState(username="alice")
    state.load_document(doc)
    render_history(state)


def _texts(at: AppTest, kinds: tuple[str, ...] = ("markdown", "caption", "code", "info", "warning")) -> list[str]:
    return [str(getattr(e, "value", "")) for kind in kinds for e in at.get(kind)]


def test_cards_render_as_a_question_and_an_approval_request_without_buttons():
    at = AppTest.from_function(_page, args=(qdash_session(),), default_timeout=60).run()
    assert not at.exception, [e.value for e in at.exception]
    shown = [t.replace("\\", "") for t in _texts(at)]
    assert "**Question:** Which qubit should I recalibrate?" in shown
    assert "1. Q05 — lowest T1 this week\n2. Q17 **(chosen)**" in shown
    assert "**Approval request:** Run CheckT1 on Q17" in shown
    for meaning in ("Approved in QDash.", "Declined in QDash.", "No decision was made.",
                    "Waiting for a decision in QDash; it cannot be approved from here."):
        assert f"Tool run_calibration · {meaning}" in shown, meaning
    args = [json.loads(t) for t in shown if t.startswith("{")]
    assert args == [{"chipId": "64Qv3", "qids": ["17"], "tasks": ["CheckT1"]}] * 4
    assert not at.button  # read-only: nothing to click


def test_hostile_text_inside_cards_stays_inert():
    at = AppTest.from_function(_page, args=(hostile_session(),), default_timeout=60).run()
    assert not at.exception, [e.value for e in at.exception]
    texts = _texts(at, ("markdown", "caption", "info", "warning"))  # what the page interprets as markdown
    shown = [t for t in texts if "evil.example/pixel.png" in t]
    assert len(shown) == 3 and shown[0].startswith("**Question\\:**")  # question, options, label: as text
    found = {t: problems(t) for t in texts if problems(t)}
    assert not found, f"live markup from a QDash card: {found}"
    [code] = [json.loads(str(c.value)) for c in at.code]  # st.code shows text, never markup
    assert code == {HOSTILE[:80]: HOSTILE, "n": [1, 2]}  # argument names are capped at 80 characters
    assert not at.button


def test_a_saved_qdash_chat_opens_from_the_chat_history(chat_app):
    app = chat_app(provider=False)
    doc = qdash_session() | {"username": app.username, "session_id": f"qdash-{uuid.uuid4().hex[:12]}"}
    app.sessions()._coll.insert_one(copy.deepcopy(doc))  # as QDash wrote it, with pymongo
    at = app.run()
    at.sidebar.selectbox(key="copilot_session_pick").set_value(doc["session_id"])
    at.sidebar.button(key="copilot_open_chat").click()
    at = app.run()
    assert not at.exception, [e.value for e in at.exception]
    shown = [t.replace("\\", "") for t in _texts(at)]
    assert "**Approval request:** Exclude task 9b2e" in shown
    assert "Tool run_calibration · Approved in QDash." in shown
    assert not [b for b in at.main.button if (b.key or "").startswith("ask-")]  # no option buttons


def test_an_open_question_from_qdash_is_shown_without_buttons():
    doc = {"session_id": "open", "messages": [user("Recalibrate?"), answer(card("ask", ASK))]}
    at = AppTest.from_function(_page, args=(doc,), default_timeout=60).run()
    assert not at.exception, [e.value for e in at.exception]
    shown = [t.replace("\\", "") for t in _texts(at)]
    assert "1. Q05 — lowest T1 this week\n2. Q17" in shown
    assert "Asked in QDash; no option was picked. Read-only here." in shown
    assert not at.button  # QDash asked it: the reply belongs to QDash's chat, not to a button here
