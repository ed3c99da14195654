"""The ``copilot_memory`` collection: what the copilot learned per chip, across sessions.

Document shape::

    {_id: sha1(owner|project|chip|kind|key)[:24], owner, project_id, chip_id,
     kind: "parameter"|"code"|"error_fix", key, text, hits: float, created_at, updated_at}

Memory belongs to an owner, like a chat session (``copilot_core.access``: the signed-in user's stable id, or
the USERNAME setting / "local" with sign-in off): every query of a store is scoped to its owner, so no
argument reaches another owner's entries.

Decay and selection live in ``copilot_core.memory``; this module only reads and writes, with the
pymongo subset that runs on MongoDB and the embedded litemongo engine.  Arguments are validated so no
caller can pass query operators.  Read-modify-write happens in one process (the app), serialised here
by a lock, as litemongo does not make cross-process updates atomic.
"""

from __future__ import annotations

import builtins
import hashlib
import re
import threading
from collections.abc import Iterable
from datetime import datetime, timezone
from copilot_core.data import validation
from copilot_core.data.scoped import scoped
from copilot_core.data.engine import Database

COLLECTION = "copilot_memory"
KINDS = ("parameter", "code", "error_fix")
MAX_ENTRIES_PER_CHIP = 200
_ENTRY_ID = re.compile(r"^[0-9a-f]{24}$")
_WRITE_LOCK = threading.Lock()


def _utcnow() -> datetime:
    now = datetime.now(timezone.utc).replace(tzinfo=None)
    return now.replace(microsecond=now.microsecond // 1000 * 1000)


def entry_id(owner: str, project_id: str | None, chip_id: str, kind: str, key: str) -> str:
    """Stable id, so learning the same thing twice updates one document (and two owners never share one)."""
    return hashlib.sha1(f"{owner}|{project_id or ''}|{chip_id}|{kind}|{key}".encode()).hexdigest()[:24]


def _check_entry_id(value: object) -> str:
    if not isinstance(value, str) or not _ENTRY_ID.match(value):
        raise validation.InvalidArgument("invalid memory entry id: expected 24 hexadecimal characters")
    return value


class MemoryStore:
    """CRUD over ``copilot_memory`` for one owner in one project (QDASH_PROJECT_ID) or in unscoped data."""

    def __init__(self, db: Database, *, project_id: str | None = None, owner: str = "local") -> None:
        self._db = db
        self.project_id = validation.project_id(project_id) if project_id else None
        self._coll = scoped(db, self.project_id)[COLLECTION]  # the project is added to every call by construction
        self.owner = validation.owner(owner)

    def for_owner(self, owner: str) -> MemoryStore:
        """The same project's memory of another owner (the turn service asks for the chat's owner)."""
        return MemoryStore(self._db, project_id=self.project_id, owner=owner)

    def _scope(self, **filters: object) -> dict[str, object]:
        """The owner's entries; without a project, the entries that have none (the wrapper adds a project)."""
        return {"owner": self.owner, **({} if self.project_id else {"project_id": None}), **filters}

    def ensure_indexes(self) -> None:
        self._coll.create_index([("owner", 1), ("project_id", 1), ("chip_id", 1)])

    def list(self, chip_id: str) -> list[dict]:
        """Entries of one chip, most hits first: {id, chip_id, kind, key, text, hits, created_at, updated_at}."""
        chip = validation.chip_id(chip_id)
        docs = self._coll.find(self._scope(chip_id=chip),
                               {"_id": 1, "chip_id": 1, "kind": 1, "key": 1, "text": 1, "hits": 1,
                                "created_at": 1, "updated_at": 1}
                               ).sort([("hits", -1), ("updated_at", -1)]).limit(MAX_ENTRIES_PER_CHIP)
        return [{"id": d["_id"], "chip_id": d.get("chip_id"), "kind": d.get("kind"), "key": d.get("key", ""),
                 "text": d.get("text", ""), "hits": float(d.get("hits") or 0.0),
                 "created_at": d.get("created_at"), "updated_at": d.get("updated_at")}
                for d in docs if d.get("kind") in KINDS]

    def chips(self) -> builtins.list[dict]:
        """Chips that have memory: {chip_id, entries, updated_at}, most recently updated first."""
        rows: dict[str | None, dict] = {}
        for d in self._coll.find(self._scope(), {"_id": 0, "chip_id": 1, "updated_at": 1}
                                 ).sort([("chip_id", 1)]).limit(100_000):
            row = rows.setdefault(d.get("chip_id"), {"chip_id": d.get("chip_id"), "entries": 0, "updated_at": None})
            row["entries"] += 1
            at = d.get("updated_at")
            if at is not None and (row["updated_at"] is None or at > row["updated_at"]):
                row["updated_at"] = at
        return sorted(rows.values(), key=lambda r: (r["updated_at"] or datetime.min), reverse=True)

    def save(self, chip_id: str, entries: Iterable[dict], *, drop_ids: Iterable[str] = ()) -> None:
        """Write the new state of a chip's memory: upsert ``entries`` ({kind, key, text, hits}), delete ``drop_ids``."""
        chip = validation.chip_id(chip_id)
        now = _utcnow()
        with _WRITE_LOCK:
            for entry in entries:
                kind = validation.choice(entry.get("kind"), "memory kind", KINDS)
                key, text = str(entry.get("key", "")), str(entry.get("text", ""))
                doc_id = entry_id(self.owner, self.project_id, chip, kind, key)
                fields = {"text": text, "hits": round(float(entry.get("hits", 0.0)), 6), "updated_at": now}
                if self._coll.find_one(self._scope(_id=doc_id), {"_id": 1}) is None:
                    self._coll.insert_one({"_id": doc_id, **self._scope(chip_id=chip), "kind": kind, "key": key,
                                           "created_at": now, **fields})
                else:
                    self._coll.update_one(self._scope(_id=doc_id), {"$set": fields})
            ids = [_check_entry_id(i) for i in drop_ids]
            if ids:
                self._coll.delete_many(self._scope(chip_id=chip, _id={"$in": ids}))

    def delete(self, chip_id: str, entry_id_: str) -> bool:
        """Delete one entry; True when it existed."""
        chip = validation.chip_id(chip_id)
        with _WRITE_LOCK:
            res = self._coll.delete_one(self._scope(chip_id=chip, _id=_check_entry_id(entry_id_)))
        return res.deleted_count > 0

    def clear(self, chip_id: str) -> int:
        """Delete every entry of a chip; returns how many."""
        chip = validation.chip_id(chip_id)
        with _WRITE_LOCK:
            return self._coll.delete_many(self._scope(chip_id=chip)).deleted_count
