"""Turning sign-in on for an existing install: chats saved under the plain USERNAME and memory saved before
memory had owners are listed with counts, and ``owners assign`` hands them to a signed-in user, so that user
sees them again.  A dry run writes nothing; calibration collections are never touched.  Expectations are
read straight from the collections (or written by hand), on the embedded engine and on mongomock."""

from __future__ import annotations

import copy
import os
import subprocess
import uuid
from datetime import datetime
from pathlib import Path

import pytest

from copilot_core.access import owner_id
from copilot_core.data import owners
from copilot_core.data.chat_sessions import ChatSessionStore
from copilot_core.data.connection import open_database, open_memory_database
from copilot_core.data.memory_store import MemoryStore, entry_id
from copilot_core.data.validation import InvalidArgument
from copilot_core.settings import Settings
from tests.cli import run_main
from tests.data.conftest import CHIP, DOCS
from tests.mongo_engine import mongo_plan_database

ALICE = owner_id("https://idp.lab", "alice-sub")
BOB = owner_id("https://idp.lab", "bob-sub")
AT = datetime(2026, 11, 1, 9, 30)
CALIBRATION = tuple(DOCS)  # every calibration collection of the fixture


def _chat(username: str | None, sid: str, title: str) -> dict:
    doc = {"session_id": sid, "title": title, "context": {"chip_id": CHIP, "qid": None},
           "messages": [{"role": "user", "content": f"{title}?", "created_at": AT}], "created_at": AT, "updated_at": AT}
    return doc if username is None else {"username": username, **doc}


def _memory(owner: str | None, key: str, text: str, *, hits: float = 1.0, with_field: bool = True) -> dict:
    doc = {"_id": uuid.uuid4().hex[:24], "project_id": None, "chip_id": CHIP, "kind": "parameter", "key": key,
           "text": text, "hits": hits, "created_at": AT, "updated_at": AT}
    if owner is not None:
        doc["_id"] = entry_id(owner, None, CHIP, "parameter", key)
    return {**doc, "owner": owner} if with_field else doc


def _seed(db) -> None:
    for name in CALIBRATION:
        db[name].insert_many(copy.deepcopy(DOCS[name]))
    db["copilot_chat_session"].insert_many([
        _chat("alice", "1730000000000-a1b2c3", "T1 drift on Q05"), _chat("alice", "1730000000001-d4e5f6", "Readout"),
        _chat("local", "1730000000002-aaaaaa", "Local chat"), _chat(BOB, "bob-session-0000000000000001", "Bob's")])
    db["copilot_memory"].insert_many([
        _memory(None, "t1", "T1 of Q05 is watched", with_field=False), _memory(None, "t2_echo", "T2 echo asked"),
        _memory(None, "readout", "legacy readout note", hits=0.5),
        _memory("local", "qubit_frequency", "frequency asked"),
        _memory(ALICE, "readout", "Alice's own readout note", hits=2.0)])


@pytest.fixture(params=["embedded", "mongomock"])
def db(request):
    database = open_memory_database(f"owners-{uuid.uuid4().hex}") if request.param == "embedded" \
        else mongo_plan_database(f"owners{uuid.uuid4().hex[:8]}")
    _seed(database)
    yield database
    if request.param == "embedded":
        database.close()


def _snapshot(db, names) -> dict[str, list[dict]]:
    return {name: sorted((dict(d) for d in db[name].find({})), key=lambda d: str(d["_id"])) for name in names}


def test_owners_are_listed_with_counts(db):
    rows = {(r.owner, r.chats, r.memory_entries, r.signed_in) for r in owners.owners(db)}
    assert rows == {("alice", 2, 0, False), ("local", 1, 1, False), (BOB, 1, 0, True), (ALICE, 0, 1, True),
                    (None, 0, 3, False)}
    assert owners.owners(db)[-1].owner is None  # unowned last
    assert owners.hidden_by_sign_in(db) == (3, 4)  # alice 2 + local 1 chats; 3 unowned + 1 "local" entries


def test_dry_run_counts_and_writes_nothing(db):
    before = _snapshot(db, ["copilot_chat_session", "copilot_memory", *CALIBRATION])
    moved = owners.assign(db, None, ALICE)
    assert (moved.chats, moved.memory_entries, moved.memory_merged, moved.applied) == (0, 2, 1, False)
    moved = owners.assign(db, "alice", ALICE)
    assert (moved.chats, moved.memory_entries, moved.applied) == (2, 0, False)
    assert _snapshot(db, ["copilot_chat_session", "copilot_memory", *CALIBRATION]) == before


def test_assigned_chats_and_memory_reach_the_signed_in_user(db):
    calibration = _snapshot(db, CALIBRATION)
    sessions, memory = ChatSessionStore(db), MemoryStore(db, owner=ALICE)
    assert sessions.list(ALICE) == [] and [e["key"] for e in memory.list(CHIP)] == ["readout"]

    owners.assign(db, "alice", ALICE, apply=True)
    moved = owners.assign(db, None, ALICE, apply=True)
    assert (moved.chats, moved.memory_entries, moved.memory_merged, moved.applied) == (0, 2, 1, True)

    chats = db["copilot_chat_session"]
    assert sorted(d["title"] for d in chats.find({"username": ALICE})) == ["Readout", "T1 drift on Q05"]
    assert chats.count_documents({"username": "alice"}) == 0
    assert sorted(d["title"] for d in chats.find({"username": {"$ne": ALICE}})) == ["Bob's", "Local chat"]
    # what Alice now sees in the app: her sessions, newest first, and resumable by id
    assert {s["title"] for s in sessions.list(ALICE)} == {"Readout", "T1 drift on Q05"}
    assert sessions.get(ALICE, "1730000000000-a1b2c3")["messages"][0]["content"] == "T1 drift on Q05?"

    entries = {d["key"]: d for d in db["copilot_memory"].find({"owner": ALICE})}
    assert {k: d["text"] for k, d in entries.items()} == {
        "t1": "T1 of Q05 is watched", "t2_echo": "T2 echo asked", "readout": "Alice's own readout note"}
    assert db["copilot_memory"].count_documents({"owner": {"$in": [None, ""]}}) == 0
    assert db["copilot_memory"].count_documents({"owner": {"$exists": False}}) == 0
    for key, doc in entries.items():  # ids follow the owner, so learning the same thing again updates them
        assert doc["_id"] == entry_id(ALICE, None, CHIP, "parameter", key)
    assert {e["key"] for e in memory.list(CHIP)} == {"t1", "t2_echo", "readout"}
    assert [d["key"] for d in db["copilot_memory"].find({"owner": "local"})] == ["qubit_frequency"]
    assert _snapshot(db, CALIBRATION) == calibration
    assert owners.hidden_by_sign_in(db) == (1, 1)  # "local" is still hidden


@pytest.mark.parametrize("source,target,why", [
    ("alice", "alice", "same owner"), ("alice", "", "invalid owner"), ("alice", {"$ne": None}, "must be a string"),
    ({"$regex": ".*"}, ALICE, "must be a string"), ("bad name!", ALICE, "invalid owner")])
def test_bad_owners_are_refused_and_nothing_moves(db, source, target, why):
    before = _snapshot(db, ["copilot_chat_session", "copilot_memory"])
    with pytest.raises(InvalidArgument, match=why):
        owners.assign(db, source, target, apply=True)
    assert _snapshot(db, ["copilot_chat_session", "copilot_memory"]) == before


def _cli(args: list[str], data_dir: Path, tmp_path: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("MONGODB_URI", "MONGO_DB_NAME", "QDASH_PROJECT_ID")}
    env |= {"DATA_DIR": str(data_dir), "CALIBRATION_COPILOT_SECRETS": str(tmp_path / "none.toml")}
    return run_main(env, *args)


def test_cli_lists_then_assigns_after_a_dry_run(tmp_path):
    data_dir = tmp_path / "data"
    db = open_database(Settings(data_dir=data_dir))
    _seed(db)
    db.close()

    listing = _cli(["owners"], data_dir, tmp_path)
    assert listing.returncode == 0, listing.stderr
    lines = {line.split()[0]: line.split()[1:3] for line in listing.stdout.splitlines()[1:] if line.strip()}
    assert lines["alice"] == ["2", "0"] and lines["(no"] == ["owner)", "0"]
    assert "hidden while sign-in is on" in listing.stdout and "owners assign" in listing.stdout
    assert "T1 drift" not in listing.stdout  # counts only, never content

    dry = _cli(["owners", "assign", "--from", "alice", "--to", ALICE], data_dir, tmp_path)
    assert dry.returncode == 0 and "Dry run: would move 2 chat(s)" in dry.stdout and "--yes" in dry.stdout
    db = open_database(Settings(data_dir=data_dir))
    assert db["copilot_chat_session"].count_documents({"username": "alice"}) == 2
    db.close()

    done = _cli(["owners", "assign", "--unowned", "--to", ALICE, "--yes"], data_dir, tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Moved 0 chat(s) and 2 memory entries of the unowned items" in done.stdout
    db = open_database(Settings(data_dir=data_dir))
    assert sorted(d["key"] for d in db["copilot_memory"].find({"owner": ALICE})) == ["readout", "t1", "t2_echo"]
    db.close()

    bad = _cli(["owners", "assign", "--from", "alice", "--unowned", "--to", ALICE], data_dir, tmp_path)
    assert bad.returncode == 1 and "not allowed with argument" in bad.stderr
    bad = _cli(["owners", "assign", "--from", "alice", "--to", "not valid!"], data_dir, tmp_path)
    assert bad.returncode == 1 and "invalid owner" in bad.stderr
