"""Chat sessions are their owner's alone: no input lets one user list, open, rename, overwrite or delete
another's session; ids are unguessable.  Expected states are read straight from the collection."""

from __future__ import annotations

import re
import uuid

import pytest

from copilot_core.access import AllowList, owner_id
from copilot_core.data.chat_sessions import (
    COLLECTION,
    ChatSessionStore,
    InvalidChatSession,
    SessionNotOwned,
    new_session_id,
)
from copilot_core.data.connection import open_memory_database

ALICE, BOB = owner_id("https://idp.lab", "alice-sub"), owner_id("https://idp.lab", "bob-sub")
MESSAGES = [{"role": "user", "content": "Alice's private question"}]


@pytest.fixture
def store():
    db = open_memory_database(f"owner-{uuid.uuid4().hex}")
    store = ChatSessionStore(db)
    store.ensure_indexes()
    return store


def raw(store: ChatSessionStore) -> list[dict]:
    return sorted(store._coll.find({}, {"_id": 0}), key=lambda d: (d["username"], d["session_id"]))


def test_another_user_can_do_nothing_with_a_session(store):
    sid = new_session_id()
    store.save(ALICE, sid, title="Alice chat", context=None, messages=MESSAGES)
    before = raw(store)
    assert store.list(BOB) == []
    assert store.get(BOB, sid) is None  # invisible, as if it did not exist
    with pytest.raises(SessionNotOwned):
        store.rename(BOB, sid, "mine now")
    with pytest.raises(SessionNotOwned):
        store.delete(BOB, sid)
    with pytest.raises(SessionNotOwned):
        store.save(BOB, sid, title="overwrite", context=None, messages=[{"role": "user", "content": "x"}])
    assert raw(store) == before  # nothing changed, no second document with Alice's id
    assert store.get(ALICE, sid)["messages"][0]["content"] == "Alice's private question"


@pytest.mark.parametrize("hostile", [{"$ne": None}, {"$regex": ".*"}, "", "a" * 65, "../x", "x' || '1'=='1",
                                     "abc\n", None, 5, ["x"]])
def test_hostile_session_ids_and_usernames_are_refused(store, hostile):
    store.save(ALICE, new_session_id(), title="t", context=None, messages=MESSAGES)
    before = raw(store)
    for call in (lambda: store.get(BOB, hostile), lambda: store.delete(BOB, hostile),
                 lambda: store.rename(BOB, hostile, "t"),
                 lambda: store.save(BOB, hostile, title="t", context=None, messages=MESSAGES)):
        with pytest.raises(InvalidChatSession):
            call()
    assert raw(store) == before


@pytest.mark.parametrize("hostile", [{"$ne": None}, "", "a" * 129, "alice\n", "a b", "$where", None])
def test_hostile_usernames_are_refused(store, hostile):
    for call in (lambda: store.list(hostile), lambda: store.get(hostile, new_session_id())):
        with pytest.raises(InvalidChatSession):
            call()


def test_session_ids_are_unguessable():
    ids = [new_session_id() for _ in range(2000)]
    assert len(set(ids)) == len(ids)
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{32}", i) for i in ids)  # 32 base64url characters = 192 bits


def test_owner_id_is_stable_and_separates_providers():
    assert owner_id("https://idp.lab", "alice-sub") == ALICE
    assert owner_id("https://other.idp", "alice-sub") != ALICE
    assert re.fullmatch(r"user-[0-9a-f]{40}", ALICE)
    with pytest.raises(ValueError):
        owner_id("https://idp.lab", "")


@pytest.mark.parametrize("email,verified,ok", [
    ("alice@lab.example", True, True), ("Bob@Lab.Example", True, True), ("bob@lab.example", None, False),
    ("bob@lab.example", "false", False), ("bob@lab.example", "true", False), ("bob@lab.example", 1, False),
    ("carol@physics.lab.example", True, True),
    ("eve@lab.example.evil.org", True, False), ("eve@evil-lab.example", True, False),
    ("alice@lab.example", False, False), (None, True, False), ("lab.example", True, False),
    ("guest@partner.org", True, True), ("other@partner.org", True, False),
])
def test_allow_list(email, verified, ok):
    allowed = AllowList.parse("@lab.example, physics.lab.example; guest@partner.org")
    assert allowed.allows(email, verified) is ok


def test_no_allow_list_lets_every_signed_in_user_in():
    assert AllowList.parse("").allows("anyone@anywhere.org") and not AllowList.parse(" ").active


def test_a_legacy_qdash_id_still_opens(store):
    store.save(ALICE, "1721000000000-ab12cd", title="old", context=None, messages=MESSAGES)
    assert store.get(ALICE, "1721000000000-ab12cd")["title"] == "old"
    assert [d["username"] for d in store._coll.find({"session_id": "1721000000000-ab12cd"})] == [ALICE]
    assert COLLECTION == "copilot_chat_session"
