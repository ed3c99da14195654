"""Copilot memory is its owner's alone, like a chat session: one user's turns never read, recall or delete
another's entries, by any input.  Expected states are read straight from the ``copilot_memory`` collection."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from copilot_core.access import owner_id
from copilot_core.chat import ChatState
from copilot_core.data.connection import open_database
from copilot_core.data.memory_store import COLLECTION, MemoryStore
from copilot_core.data.validation import InvalidArgument
from copilot_core.memory import CopilotMemory
from copilot_core.session import Copilot
from copilot_core.settings import Settings, load_settings
from copilot_core.skills import SkillLibrary
from tests.depth.conftest import provider_for
from tests.fakes.scripted_openai import answer, call

ALICE, BOB = owner_id("https://idp.lab", "alice-sub"), owner_id("https://idp.lab", "bob-sub")
CHIP = "64Qv3"
PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "memory.py")


def asked(param: str) -> dict:
    return {"name": "get_parameter_timeseries", "ok": True, "args": {"parameter_name": param, "qid": "1"}}


def raw(db) -> list[dict]:
    return sorted(db[COLLECTION].find({}, {"_id": 1, "owner": 1, "chip_id": 1, "key": 1, "hits": 1}),
                  key=lambda d: (d["owner"], d["key"]))


def test_one_owner_can_do_nothing_with_anothers_memory(memory_db):
    base = CopilotMemory(MemoryStore(memory_db))
    alice, bob = base.for_owner(ALICE), base.for_owner(BOB)
    alice.learn(CHIP, [asked("t1"), asked("t2_echo")])
    before = raw(memory_db)
    assert [(d["owner"], d["key"]) for d in before] == [(ALICE, "t1"), (ALICE, "t2_echo")]

    assert bob.entries(CHIP) == [] and bob.store.chips() == [] and bob.recall(CHIP)["count"] == 0
    assert bob.prompt_section(CHIP) == ""
    assert base.entries(CHIP) == []  # sign-in off ("local") sees none of Alice's either
    for doc in before:  # Alice's real entry ids open nothing for Bob
        assert bob.delete(CHIP, doc["_id"]) is False
    assert bob.clear(CHIP) == 0
    assert raw(memory_db) == before

    bob.learn(CHIP, [asked("t1")])  # the same lesson learned by both: two documents, each owner's own
    rows = raw(memory_db)
    assert [(d["owner"], d["key"], d["hits"]) for d in rows] == sorted([
        (ALICE, "t1", 1.0), (ALICE, "t2_echo", 1.0), (BOB, "t1", 1.0)])
    assert len({d["_id"] for d in rows}) == 3
    assert [(e["id"], e["key"]) for e in alice.entries(CHIP)] == [
        (d["_id"], d["key"]) for d in rows if d["owner"] == ALICE]
    assert alice.clear(CHIP) == 2
    assert [(d["owner"], d["key"]) for d in raw(memory_db)] == [(BOB, "t1")]


@pytest.mark.parametrize("hostile", [{"$ne": None}, {"$regex": ".*"}, "", "a" * 129, "x y", "../x", None,
                                     ["local"]])
def test_hostile_owners_are_refused(memory_db, hostile):
    MemoryStore(memory_db, owner=ALICE).save(CHIP, [{"kind": "parameter", "key": "t1", "text": "t1", "hits": 1}])
    before = raw(memory_db)
    with pytest.raises(InvalidArgument):
        MemoryStore(memory_db).for_owner(hostile)
    assert raw(memory_db) == before


def copilot(repo, memory: CopilotMemory, tmp_path) -> Copilot:
    settings = load_settings({"DATA_DIR": str(tmp_path)})
    return Copilot(repo, settings=settings, skills=SkillLibrary.load(), memory=memory, gate=False)


def system_text(body: dict) -> str:
    """The prompt the app wrote: the shared system part and this question's context message after it."""
    if "instructions" in body:
        return "\n\n".join([body["instructions"], *(m["content"] for m in body["input"]
                                                     if m.get("role") == "developer")])
    return "\n\n".join(m["content"] for m in body["messages"] if m["role"] == "system")


def test_turns_learn_inject_and_recall_only_the_chat_owners_memory(scripted_openai, repo, demo_chip_ids,
                                                                   memory_db, tmp_path):
    chip = demo_chip_ids[0]
    service = copilot(repo, CopilotMemory(MemoryStore(memory_db)), tmp_path)
    alice = ChatState(username=ALICE, provider=provider_for(scripted_openai), chip_id=chip)
    scripted_openai.push(call("get_parameter_timeseries", {"parameter_name": "t1", "chip_id": chip, "qid": "4"}),
                         answer("T1 of Q4 is steady.", "ok"))
    assert service.ask(alice, "T1 of Q4?").result.error is None
    assert [(d["owner"], d["chip_id"], d["key"]) for d in raw(memory_db)] == [(ALICE, chip, "t1")]

    bob = ChatState(username=BOB, provider=provider_for(scripted_openai), chip_id=chip)
    scripted_openai.push(call("recall_memory", {"chip_id": chip}), answer("Nothing remembered.", "ok"))
    turn = service.ask(bob, "What do you remember?")
    bodies = scripted_openai.bodies()
    assert f"## Memory for chip {chip}" not in system_text(bodies[-2])  # Bob's prompt: no memory of Alice's
    recall = turn.result.tool_calls[0]
    assert recall.name == "recall_memory" and json.loads(recall.model_text)["count"] == 0

    again = ChatState(username=ALICE, provider=provider_for(scripted_openai), chip_id=chip)
    scripted_openai.push(call("recall_memory", {"chip_id": chip}), answer("You asked about T1.", "ok"))
    turn = service.ask(again, "What do you remember?")
    assert f"## Memory for chip {chip}" in system_text(scripted_openai.bodies()[-2])
    recalled = json.loads(turn.result.tool_calls[0].model_text)["entries"]
    assert [e["parameter"] for e in recalled] == [d["key"] for d in raw(memory_db) if d["owner"] == ALICE] == ["t1"]


@pytest.fixture
def page_db(app_env, tmp_path, monkeypatch):
    data_dir = tmp_path / "data"
    shutil.copytree(app_env.data_dir, data_dir)
    monkeypatch.setenv("DATA_DIR", str(data_dir))
    monkeypatch.setenv("USERNAME", "carol")
    db = open_database(Settings(data_dir=data_dir))
    yield db
    db.close()


def test_memory_page_with_sign_in_off_shows_and_deletes_the_usernames_memory_only(page_db):
    carol = CopilotMemory(MemoryStore(page_db, owner="carol"))
    carol.learn(CHIP, [asked("t1")])
    CopilotMemory(MemoryStore(page_db, owner=ALICE)).learn(CHIP, [asked("t2_echo"), asked("qubit_frequency")])
    CopilotMemory(MemoryStore(page_db, owner=ALICE)).learn("144Qv2", [asked("t1")])
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.session_state["chip_id"] = CHIP
    at.run()
    assert not at.exception
    mine = [d["key"] for d in raw(page_db) if d["owner"] == "carol"]
    assert list(at.dataframe[0].value["key"]) == mine == ["t1"]
    assert not any("144Qv2" in c.value for c in at.caption)  # Alice's other chip is not even named

    at.button(key="memory_clear").click().run()
    assert not at.exception
    assert sorted((d["owner"], d["key"]) for d in raw(page_db)) == [
        (ALICE, "qubit_frequency"), (ALICE, "t1"), (ALICE, "t2_echo")]
