"""The MongoDB role ``deploy/mongo_user.py`` creates is enough for the whole app and no more.

The app runs over a pymongo-API database that enforces the role's privileges as a MongoDB server does (an action
the role does not grant on a collection fails with ``OperationFailure`` code 13, "Unauthorized"): every tool, the
chat store and the memory store.  Nothing is refused, every collection the role names is used, and the role never
names QDash's ``user`` collection or grants a built-in role.
"""

from __future__ import annotations

import copy
import importlib.util
import uuid
from collections.abc import Iterator

import pytest
from pymongo.errors import OperationFailure

from copilot_core.data.chat_sessions import ChatSessionStore
from copilot_core.data.connection import ensure_indexes, open_memory_database
from copilot_core.data.memory_store import MemoryStore
from copilot_core.data.plans import EmbeddedPlan
from copilot_core.data.repository import CalibrationRepository
from copilot_core.tools import DataStore, Toolkit
from tests.conftest import ROOT
from tests.data.conftest import CHIP, DOCS, P1

READS = {"find", "find_one", "count_documents", "distinct", "aggregate"}
ACTION_OF = {**{m: "find" for m in READS}, "insert_one": "insert", "insert_many": "insert", "update_one": "update",
             "update_many": "update", "replace_one": "update", "delete_one": "remove", "delete_many": "remove",
             "create_index": "createIndex", "list_indexes": "listIndexes", "index_information": "listIndexes"}


def _mongo_user():
    spec = importlib.util.spec_from_file_location("mongo_user", ROOT / "deploy" / "mongo_user.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class RoleCollection:
    def __init__(self, db: RoleDatabase, name: str) -> None:
        self._db, self._name, self._coll = db, name, db.raw[name]

    @property
    def name(self) -> str:
        return self._name

    def __getattr__(self, method: str) -> object:
        action = ACTION_OF.get(method)
        if action is None:
            raise AttributeError(method)
        if action not in self._db.granted.get(self._name, set()):
            self._db.refused.append((self._name, action))
            raise OperationFailure(f"not authorized on qdash to execute {action} on {self._name}", code=13)
        self._db.used.add((self._name, action))
        return getattr(self._coll, method)


class RoleDatabase:
    """A database that grants exactly the role's privileges (collection -> actions)."""

    def __init__(self, raw: object, granted: dict[str, set[str]]) -> None:
        self.raw = raw
        self.granted = granted
        self.used: set[tuple[str, str]] = set()
        self.refused: list[tuple[str, str]] = []

    @property
    def name(self) -> str:
        return "qdash"

    def __getitem__(self, name: str) -> RoleCollection:
        return RoleCollection(self, name)

    def get_collection(self, name: str) -> RoleCollection:
        return self[name]

    def command(self, command: str) -> dict:
        if command != "ping":  # ping needs no privilege
            self.refused.append(("<database>", command))
            raise OperationFailure(f"not authorized to run {command}", code=13)
        return {"ok": 1}

    def list_collection_names(self) -> list[str]:
        self.refused.append(("<database>", "listCollections"))
        raise OperationFailure("not authorized to list collections", code=13)


def _granted(db_name: str) -> dict[str, set[str]]:
    role, _user = _mongo_user().commands(db_name)
    granted: dict[str, set[str]] = {}
    for privilege in role["privileges"]:
        assert privilege["resource"]["db"] == db_name
        granted.setdefault(privilege["resource"]["collection"], set()).update(privilege["actions"])
    return granted


@pytest.fixture
def role_db() -> Iterator[RoleDatabase]:
    raw = open_memory_database(f"role-{uuid.uuid4().hex}")
    docs = copy.deepcopy(DOCS)
    for collection, rows in docs.items():
        raw[collection].insert_many(rows)
    raw["user"].insert_one({"username": "alice", "hashed_password": "x", "access_token": "qdash-token"})
    ensure_indexes(raw)
    yield RoleDatabase(raw, _granted("qdash"))
    raw.close()


def test_the_role_names_no_built_in_role_and_never_the_user_collection():
    role, user = _mongo_user().commands("qdash")
    assert user["roles"] == [{"role": role["createRole"], "db": "admin"}]  # no "read" on the whole database
    collections = [p["resource"]["collection"] for p in role["privileges"]]
    assert "user" not in collections and "" not in collections and len(collections) == len(set(collections))
    writes = {p["resource"]["collection"] for p in role["privileges"] if set(p["actions"]) - {"find"}}
    assert writes == {"copilot_chat_session", "copilot_memory"}


def test_every_tool_and_store_runs_on_the_role_and_uses_all_of_it(role_db):
    from tests.agent.test_marked_by_type import CALLS

    repo = CalibrationRepository(role_db, project_id=P1, plan=EmbeddedPlan())
    toolkit = Toolkit(repo, store=DataStore())
    outcomes = [toolkit.execute(name, args) for name, args in CALLS if name != "get_task_figure"]
    assert not [o.error for o in outcomes if o.error and "cannot read" in o.error]
    chats = ChatSessionStore(repo.db)
    chats.ensure_indexes()
    chats.save("alice", "s-1", title="T1 on 16Qa", context={"chip_id": CHIP, "qid": None}, messages=[])
    assert [c["session_id"] for c in chats.list("alice")] == ["s-1"] and chats.get("alice", "s-1") is not None
    chats.rename("alice", "s-1", "renamed")
    assert chats.delete("alice", "s-1")
    memory = MemoryStore(repo.db, project_id=P1, owner="alice")
    memory.ensure_indexes()
    memory.save(CHIP, [{"kind": "parameter", "key": "t1", "text": "t1", "hits": 1.0}])
    assert memory.list(CHIP) and memory.clear(CHIP) >= 0
    assert role_db.refused == []
    used = {collection for collection, _ in role_db.used}
    assert used == set(role_db.granted), set(role_db.granted) ^ used  # the role grants exactly what is used
    assert not any(c == "user" for c, _ in role_db.used)
