"""Who owns the app's own collections (chat sessions and copilot memory), and moving what one owner holds to
another.

Turning sign-in on changes every owner: chats saved before belong to the plain USERNAME (or "local"), memory
saved before per-user memory has no owner at all, and a signed-in user owns only what carries their stable
id (``copilot_core.access.owner_id``).  Those older items stay in the database but nobody sees them until an
administrator assigns them to a signed-in user (``python -m copilot_core owners``).  Only
``copilot_chat_session`` and ``copilot_memory`` are read or written here, never calibration data.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from copilot_core.data import chat_sessions, memory_store, validation
from copilot_core.data.engine import Database

_SIGNED_IN = re.compile(r"^user-[0-9a-f]{40}$")  # copilot_core.access.owner_id
_UNOWNED: dict[str, list[str | None]] = {"$in": [None, ""]}  # also matches a missing field


def is_signed_in_owner(owner: str | None) -> bool:
    """True for a signed-in user's stable id (what owns chats and memory while sign-in is on)."""
    return bool(owner) and _SIGNED_IN.fullmatch(str(owner)) is not None


@dataclass(frozen=True)
class OwnerRow:
    owner: str | None  # None: saved before items had an owner
    chats: int
    memory_entries: int

    @property
    def signed_in(self) -> bool:
        return is_signed_in_owner(self.owner)


@dataclass(frozen=True)
class Reassignment:
    """What ``assign`` moved (or, as a dry run, would move)."""

    from_owner: str | None
    to_owner: str
    chats: int
    memory_entries: int
    memory_merged: int  # entries the new owner already had (same chip, kind and key): theirs are kept
    applied: bool


def _owner_of(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def owners(db: Database) -> list[OwnerRow]:
    """Every owner of a chat or a memory entry, with counts; unowned items as ``owner=None``, listed last."""
    chats: dict[str | None, int] = {}
    for doc in db[chat_sessions.COLLECTION].find({}, {"_id": 0, "username": 1}):
        owner = _owner_of(doc.get("username"))
        chats[owner] = chats.get(owner, 0) + 1
    memory: dict[str | None, int] = {}
    for doc in db[memory_store.COLLECTION].find({}, {"_id": 0, "owner": 1}):
        owner = _owner_of(doc.get("owner"))
        memory[owner] = memory.get(owner, 0) + 1
    names = sorted({*chats, *memory}, key=lambda o: (o is None, o or ""))
    return [OwnerRow(o, chats.get(o, 0), memory.get(o, 0)) for o in names]


def hidden_by_sign_in(db: Database) -> tuple[int, int]:
    """(chats, memory entries) that no signed-in user owns, so nobody sees them while sign-in is on."""
    rows = [r for r in owners(db) if not r.signed_in]
    return sum(r.chats for r in rows), sum(r.memory_entries for r in rows)


def _from_filter(field: str, from_owner: str | None) -> dict:
    return {field: _UNOWNED if from_owner is None else from_owner}


def assign(db: Database, from_owner: str | None, to_owner: str, *, apply: bool = False) -> Reassignment:
    """Give ``to_owner`` every chat and memory entry of ``from_owner`` (None: the unowned ones).  Without
    ``apply`` nothing is written: the counts say what would move."""
    to_owner = validation.owner(to_owner)
    if from_owner is not None:
        from_owner = validation.owner(from_owner)
    if from_owner == to_owner:
        raise validation.InvalidArgument("--from and --to name the same owner: nothing to move")
    chats = db[chat_sessions.COLLECTION]
    chat_filter = _from_filter("username", from_owner)
    chat_count = chats.count_documents(chat_filter)

    memory = db[memory_store.COLLECTION]
    moves: list[tuple[dict, str]] = []
    merged = 0
    for doc in memory.find(_from_filter("owner", from_owner)):
        new_id = memory_store.entry_id(to_owner, doc.get("project_id"), str(doc.get("chip_id")),
                                       str(doc.get("kind")), str(doc.get("key", "")))
        if memory.find_one({"_id": new_id}, {"_id": 1}) is not None:
            merged += 1
            new_id = ""  # the new owner already has this entry
        moves.append((doc, new_id))
    if apply:
        if chat_count:
            chats.update_many(chat_filter, {"$set": {"username": to_owner}})
        for doc, new_id in moves:  # the id is derived from the owner: write the new entry, then drop the old
            if new_id:
                memory.insert_one({**doc, "_id": new_id, "owner": to_owner})
            memory.delete_one({"_id": doc["_id"]})
    return Reassignment(from_owner, to_owner, chat_count, len(moves) - merged, merged, apply)
