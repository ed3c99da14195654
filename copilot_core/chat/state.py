"""Framework-neutral state of one chat (one browser session holds one): messages, data store, provider.

The Streamlit page keeps a ``ChatState`` in ``st.session_state``; everything here is plain Python so it is
tested without Streamlit.  One state never shares its data store with another, so one session never sees
another's data.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Literal

from copilot_core.answer.blocks import AskBlock
from copilot_core.routing.clarify import choice_message
from copilot_core.llm.provider import ProviderConfig
from copilot_core.chat.messages import ChatMessage, settle_cards
from copilot_core.data.chat_sessions import clean_context, clean_title, new_session_id
from copilot_core.domain.topology import qubit_label
from copilot_core.tools.store import DataStore

Mode = Literal["chat", "analysis"]
TITLE_CHARS = 60


def analysis_request(chip_id: str, qid: str, size: int = 0) -> str:
    """The first request of analysis mode (the analysis prompt carries the qubit's full context); the qubit
    labelled as the tables label it on a chip of ``size`` qubits."""
    return (f"Analyze {qubit_label(qid, size)} on chip {chip_id}: review its latest calibration results against the "
            "thresholds, its recent history, its topology neighbours and its couplings, and give the AI review.")


def _new_store() -> DataStore:
    return DataStore()


@dataclass
class ChatState:
    username: str
    provider: ProviderConfig | None = None
    session_id: str = field(default_factory=new_session_id)
    title: str = "New chat"
    chip_id: str | None = None
    qid: str | None = None
    mode: Mode = "chat"
    messages: list[ChatMessage] = field(default_factory=list)
    store: DataStore = field(default_factory=_new_store)
    pending: str | None = None  # a request to run by itself on the next page run (analysis mode)

    # ------------------------------------------------------------------ lifecycle
    def new_chat(self) -> None:
        """Start clean: new session id, no messages, an empty data store, back to chat mode."""
        self.session_id = new_session_id()
        self.title = "New chat"
        self.chip_id = self.qid = None
        self.mode = "chat"
        self.messages = []
        self.store = _new_store()
        self.pending = None

    def start_analysis(self, chip_id: str, qid: str, request: str, size: int = 0) -> None:
        """A fresh chat about one qubit (on a chip of ``size`` qubits) whose first request runs by itself."""
        self.new_chat()
        self.chip_id, self.qid, self.mode = chip_id, qid, "analysis"
        self.title = clean_title(f"Analysis {chip_id} {qubit_label(qid, size)}")
        self.pending = request

    def take_pending(self) -> str | None:
        request, self.pending = self.pending, None
        return request

    # ------------------------------------------------------------------ turns
    def choose(self, index: int, n: int, picked: int) -> bool:
        """A click on option ``picked`` of the question in block ``n`` of message ``index``: the question keeps
        the choice, a chip becomes the chip in view, and the question is asked again with a constant phrase
        (``clarify.choice_message``).  False (nothing changes) for anything but an open question of this app."""
        message = self.messages[index] if 0 <= index < len(self.messages) else None
        block = message.blocks[n] if message is not None and 0 <= n < len(message.blocks) else None
        if message is None or not isinstance(block, AskBlock) or block.read_only or block.answer is not None:
            return False
        asked = next((m.text for m in reversed(self.messages[:index]) if m.role == "user"), "")
        text = choice_message(asked, block.choice, block.options, picked)
        if text is None:
            return False
        message.blocks[n] = replace(block, answer=block.options[picked])
        if block.choice == "chip":
            self.chip_id = block.options[picked]
        self.pending = text
        return True

    def add(self, message: ChatMessage) -> None:
        self.messages.append(message)
        if message.role == "user" and self.title == "New chat":
            first_line = message.text.strip().splitlines()[0] if message.text.strip() else ""
            self.title = clean_title(first_line[:TITLE_CHARS])

    def history(self) -> list[dict]:
        """Every earlier turn as role/content, assistant turns as their blocks JSON (charts included).

        The agent keeps the last 6 turns and strips chart JSON itself; the full history is passed so that
        rule lives in one place.  Show-work records never go to the model.  A stopped answer is not an answer: it
        and the question it stopped are left out, so the model never reads a half answer (or the stop notice) as
        something it said.
        """
        turns = []
        for i, msg in enumerate(self.messages):
            if msg.stopped or (msg.role == "user" and i + 1 < len(self.messages) and self.messages[i + 1].stopped):
                continue
            if msg.role == "user":
                turns.append({"role": "user", "content": msg.text})
            else:
                turns.append({"role": "assistant",
                              "content": json.dumps(msg.payload(), ensure_ascii=False, default=str)})
        return turns

    @property
    def context(self) -> dict:
        return {"chip_id": self.chip_id, "qid": self.qid}

    # ------------------------------------------------------------------ persistence (QDash shape)
    def document_fields(self) -> dict:
        """What ChatSessionStore.save takes: title, context, messages."""
        return {"title": self.title, "context": self.context,
                "messages": [m.to_document() for m in self.messages]}

    def load_document(self, doc: dict, *, read_only: bool = False) -> None:
        """Resume a stored session.  The data store starts empty: stored results are not persisted.  A
        ``read_only`` chat (QDash's, of no project, opened inside one) is continued in a copy: a new session id,
        so the next save writes a new chat of this project and the original is never changed."""
        context = clean_context(doc.get("context"))
        self.new_chat()
        if not read_only:
            self.session_id = str(doc.get("session_id") or self.session_id)
        self.title = clean_title(f"{clean_title(doc.get('title'))} (copy)" if read_only else doc.get("title"))
        self.chip_id, self.qid = context["chip_id"], context["qid"]
        self.mode = "analysis" if self.chip_id and self.qid else "chat"
        self.messages = settle_cards([ChatMessage.from_document(m) for m in doc.get("messages") or []
                                      if isinstance(m, dict)])
