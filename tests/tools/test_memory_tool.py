"""recall_memory: an ordinary tool, offered only to a session with memory, returning what was stored."""

from __future__ import annotations

import json

from copilot_core.data.connection import open_memory_database
from copilot_core.data.memory_store import MemoryStore
from copilot_core.memory import CopilotMemory
from copilot_core.tools import DataStore, Toolkit

CHIP = "64Qv3"


def test_recall_memory_returns_the_stored_entries(repo):
    db = open_memory_database("tools-recall-memory")
    memory = CopilotMemory(MemoryStore(db))
    memory.learn(CHIP, [{"name": "get_parameter_timeseries", "ok": True, "args": {"parameter_name": "t1"}},
                        {"name": "execute_python_analysis", "ok": True, "args": {"code": "print(data['t1'].mean())"}}])
    stored = list(db["copilot_memory"].find({"chip_id": CHIP}))
    tools = Toolkit(repo, store=DataStore(), memory=memory)
    assert "recall_memory" in tools.names()
    outcome = tools.execute("recall_memory", json.dumps({"chip_id": CHIP}))
    assert outcome.ok and outcome.name == "recall_memory"
    payload = json.loads(outcome.model_text)
    assert payload["count"] == len(stored) == 2
    assert {(e["kind"], e["key"]) for e in payload["entries"]} == {(d["kind"], d["key"]) for d in stored}
    assert {e["untrusted_text"] for e in payload["entries"]} == {d["text"] for d in stored}
    only_code = json.loads(tools.execute("recall_memory", {"chip_id": CHIP, "kind": "code"}).model_text)
    assert [e["kind"] for e in only_code["entries"]] == ["code"]


def test_recall_memory_rejects_bad_arguments_and_needs_memory(repo):
    tools = Toolkit(repo, store=DataStore(), memory=CopilotMemory(MemoryStore(open_memory_database("tools-rm-2"))))
    bad = tools.execute("recall_memory", {"chip_id": CHIP, "sql": "DROP"})
    assert not bad.ok and "'sql' was unexpected" in json.loads(bad.model_text)["error"]
    worse = tools.execute("recall_memory", {"chip_id": {"$ne": ""}})
    assert not worse.ok and "chip_id" in worse.error
    assert "recall_memory" not in Toolkit(repo, store=DataStore()).names()  # no memory in the session, no tool
