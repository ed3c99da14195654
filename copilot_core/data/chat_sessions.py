"""Chat sessions in QDash's ``copilot_chat_session`` collection, so QDash and this app can share them.

Document shape (QDash ``dbmodel/copilot_chat_session.py``)::

    {username, session_id, title, context: {chip_id, qid}, messages: [{role, content, created_at}],
     created_at, updated_at}

``content`` is markdown for user turns and a blocks JSON string for assistant turns.  Every argument is
validated here (usernames and session ids by pattern) so no caller can smuggle query operators in.
A session belongs to the username that created it: every read and write is checked against that owner,
and new session ids carry 192 random bits, so an id seen or guessed opens nothing of someone else's.
Uses only the pymongo subset that runs on both MongoDB and the embedded litemongo engine.
"""

from __future__ import annotations

import builtins
import re
import secrets
from collections.abc import Mapping
from datetime import datetime, timezone
from typing import Any

from copilot_core.data.scoped import ScopedCollection
from copilot_core.errors import CopilotError

COLLECTION = "copilot_chat_session"
MAX_SESSIONS_LISTED = 50  # QDash's UI keeps 50 sessions too
MAX_MESSAGES = 400
MAX_TITLE_CHARS = 80
MAX_CONTENT_CHARS = 2_000_000  # one assistant turn with a few charts stays far below this

_USERNAME = re.compile(r"^[A-Za-z0-9_.@+-]{1,128}$")
_SESSION_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_ROLES = ("user", "assistant")


class InvalidChatSession(CopilotError, ValueError):
    """A username, session id, title or message that cannot be stored; the message says which."""


class SessionNotOwned(InvalidChatSession):
    """The session id belongs to another user."""


class ReadOnlySession(InvalidChatSession):
    """A QDash chat of no project, written from inside one (it is continued in a copy instead)."""


def new_session_id() -> str:
    """Unguessable: 192 random bits, URL-safe (QDash's own ``<ms>-<6 hex>`` ids are still accepted)."""
    return secrets.token_urlsafe(24)


def _utcnow() -> datetime:
    """Naive UTC at millisecond precision (what BSON keeps)."""
    now = datetime.now(timezone.utc).replace(tzinfo=None)
    return now.replace(microsecond=now.microsecond // 1000 * 1000)


def _check(pattern: re.Pattern[str], value: Any, what: str) -> str:
    if not isinstance(value, str) or not pattern.fullmatch(value):
        raise InvalidChatSession(f"invalid {what}: expected letters, digits, '-' or '_' (got {value!r:.40})")
    return value


def clean_title(title: Any) -> str:
    """One line, no control characters, capped; empty titles become "New chat"."""
    text = _CONTROL.sub(" ", str(title or "")).replace("\n", " ").strip()
    return (text[:MAX_TITLE_CHARS].rstrip() or "New chat")


def clean_context(context: Any) -> dict:
    """{chip_id, qid}, each a valid id or None (a stored context may come from another client)."""
    from copilot_core.data import validation

    context = context if isinstance(context, dict) else {}
    out: dict[str, str | None] = {}
    for key, check in (("chip_id", validation.chip_id), ("qid", validation.qid)):
        try:
            out[key] = check(context.get(key)) if context.get(key) is not None else None
        except ValueError:
            out[key] = None
    return out


def _clean_messages(messages: list[dict]) -> list[dict]:
    if not isinstance(messages, list):
        raise InvalidChatSession("messages must be a list")
    out = []
    for msg in messages[-MAX_MESSAGES:]:
        role, content = msg.get("role"), msg.get("content")
        if role not in _ROLES:
            raise InvalidChatSession(f"message role must be one of {_ROLES}, not {role!r:.20}")
        if not isinstance(content, str):
            raise InvalidChatSession("message content must be a string (markdown or blocks JSON)")
        if len(content) > MAX_CONTENT_CHARS:
            raise InvalidChatSession(f"a message is larger than {MAX_CONTENT_CHARS} characters")
        created = msg.get("created_at")
        out.append({"role": role, "content": content,
                    "created_at": created if isinstance(created, datetime) else _utcnow()})
    return out


class ChatSessionStore:
    """List, load, save, rename and delete one user's chat sessions."""

    def __init__(self, db: Any) -> None:
        self._coll = db[COLLECTION]
        self._project = self._coll.project_id if isinstance(self._coll, ScopedCollection) else None

    def read_only(self, doc: Mapping[str, object]) -> bool:
        """True for a QDash chat that belongs to no project while this app runs in one: it is shown, and the
        conversation continues in a copy (``ChatState.load_document``); the chat itself is never written."""
        return self._project is not None and doc.get("project_id") is None

    def list(self, username: str, *, limit: int = MAX_SESSIONS_LISTED) -> list[dict]:
        """Newest first: session_id, title, context, message_count, created_at, updated_at (no messages)."""
        _check(_USERNAME, username, "username")
        limit = max(1, min(int(limit), MAX_SESSIONS_LISTED))
        docs = self._coll.find({"username": username},
                               {"_id": 0, "session_id": 1, "title": 1, "context": 1, "messages.role": 1,
                                "created_at": 1, "updated_at": 1}
                               ).sort([("updated_at", -1), ("session_id", -1)]).limit(limit)
        return [{"session_id": d.get("session_id"), "title": d.get("title") or "New chat",
                 "context": clean_context(d.get("context")), "message_count": len(d.get("messages") or []),
                 "created_at": d.get("created_at"), "updated_at": d.get("updated_at")} for d in docs]

    def _key(self, username: str, session_id: str) -> dict:
        """The filter for the user's own session; SessionNotOwned when the id is another user's."""
        _check(_USERNAME, username, "username")
        _check(_SESSION_ID, session_id, "session id")
        owners = {d.get("username") for d in self._coll.find({"session_id": session_id}, {"_id": 0, "username": 1})}
        if owners - {username}:
            raise SessionNotOwned("that chat belongs to another user")
        return {"username": username, "session_id": session_id}

    def get(self, username: str, session_id: str) -> dict | None:
        """The whole session document (without ``_id``), or None (also for another user's session)."""
        try:
            key = self._key(username, session_id)
        except SessionNotOwned:
            return None
        return self._coll.find_one(key, {"_id": 0})

    def save(self, username: str, session_id: str, *, title: str, context: dict | None,
             messages: builtins.list[dict]) -> None:
        """Create or replace the session's title, context and messages."""
        key = self._key(username, session_id)
        fields = {"title": clean_title(title), "context": clean_context(context),
                  "messages": _clean_messages(messages), "updated_at": _utcnow()}
        found = self._coll.find_one(key, {"_id": 0, "project_id": 1})
        if found is not None and self.read_only(found):
            raise ReadOnlySession("that chat belongs to no project; it is continued in a copy")
        if found is None:
            self._coll.insert_one({**key, **fields, "created_at": fields["updated_at"]})
        else:
            self._coll.update_one(key, {"$set": fields})

    def rename(self, username: str, session_id: str, title: str) -> bool:
        """True when the session existed."""
        res = self._coll.update_one(self._key(username, session_id),
                                    {"$set": {"title": clean_title(title), "updated_at": _utcnow()}})
        return res.matched_count > 0

    def delete(self, username: str, session_id: str) -> bool:
        """True when something was deleted."""
        return self._coll.delete_one(self._key(username, session_id)).deleted_count > 0

    def ensure_indexes(self) -> None:
        """QDash's index (username, session_id), and session_id alone for the owner check."""
        self._coll.create_index([("username", 1), ("session_id", 1)])
        self._coll.create_index([("session_id", 1)])
