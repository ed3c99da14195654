"""Project scope by construction: every query a scoped repository sends carries ``project_id``.

``RecordingDatabase`` sits under the repository (below ``ScopedDatabase``) and fails the test on any
find, find_one, count, distinct, aggregate, update or delete on a project-scoped collection without the
repository's project id, and on any insert that does not stamp it.  Every public read of the
repository, the run reader and the chat-session store is driven through it on both plans.
"""

from __future__ import annotations

import copy
import uuid
from typing import Any

import pytest

from copilot_core.chat.state import ChatState
from copilot_core.data.chat_sessions import ChatSessionStore, ReadOnlySession
from copilot_core.data.connection import open_memory_database
from copilot_core.data.memory_store import MemoryStore
from copilot_core.data.plans import EmbeddedPlan, MongoPlan
from copilot_core.data.repository import CalibrationRepository
from copilot_core.data.runs import RunReader
from copilot_core.data.scoped import SCOPED_COLLECTIONS, ScopeError, scoped
from tests.data.conftest import CHIP, DOCS, P1, P2
from tests.mongo_engine import mongo_plan_database

FILTER_FIRST = {"find", "find_one", "count_documents", "update_one", "update_many", "delete_one", "delete_many",
                "replace_one", "find_one_and_update", "find_one_and_delete"}


class UnscopedQuery(AssertionError):
    pass


class RecordingCollection:
    def __init__(self, coll: Any, name: str, project_id: str, log: list[tuple[str, str]]) -> None:
        self._coll, self._name, self._project, self._log = coll, name, project_id, log

    def _check(self, method: str, query: Any) -> None:
        self._log.append((self._name, method))
        allowed: list[object] = [self._project]
        if self._name == "copilot_chat_session" and not method.startswith("insert"):
            allowed.append({"$in": [self._project, None]})  # QDash's own chats carry no project
        if self._name in SCOPED_COLLECTIONS and (not isinstance(query, dict)
                                                 or query.get("project_id") not in allowed):
            raise UnscopedQuery(f"{method} on {self._name} without project_id={self._project!r}: {query!r}")

    def __getattr__(self, method: str) -> Any:
        target = getattr(self._coll, method)
        if not callable(target):
            return target

        def call(*args: Any, **kwargs: Any) -> Any:
            if method in FILTER_FIRST:
                self._check(method, args[0] if args else kwargs.get("filter"))
            elif method == "distinct":
                self._check(method, args[1] if len(args) > 1 else kwargs.get("filter"))
            elif method == "aggregate":
                first = (args[0] if args else kwargs["pipeline"])[0]
                self._check(method, first.get("$match"))
            elif method == "insert_one":
                self._check(method, args[0])
            elif method == "insert_many":
                for doc in args[0]:
                    self._check(method, doc)
            return target(*args, **kwargs)

        return call


class RecordingDatabase:
    def __init__(self, db: Any, project_id: str) -> None:
        self._db, self._project = db, project_id
        self.log: list[tuple[str, str]] = []

    def __getitem__(self, name: str) -> RecordingCollection:
        return RecordingCollection(self._db[name], name, self._project, self.log)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._db, name)


def _loaded(db: Any) -> Any:
    for name, docs in DOCS.items():
        db[name].insert_many(copy.deepcopy(docs))
    return db


@pytest.fixture(params=["embedded", "mongodb"])
def recorded(request) -> tuple[CalibrationRepository, RecordingDatabase]:
    if request.param == "embedded":
        raw, plan = open_memory_database(f"scope-{uuid.uuid4().hex}"), EmbeddedPlan()
    else:
        raw, plan = mongo_plan_database(f"scope-{uuid.uuid4().hex}"), MongoPlan()
    recording = RecordingDatabase(_loaded(raw), P1)
    return CalibrationRepository(recording, project_id=P1, plan=plan), recording


def _every_read(repo: CalibrationRepository) -> None:
    repo.ping()
    repo.list_chips()
    repo.get_chip(CHIP)
    repo.chip_ids()
    repo.default_chip_id()
    repo.qubit_params(CHIP, "0")
    repo.all_qubit_params(CHIP)
    repo.coupling_params(CHIP, "0-1")
    repo.all_coupling_params(CHIP)
    repo.task_results(CHIP, limit=5)
    repo.task_results(CHIP, since=repo.last_execution_at(CHIP))
    repo.task_results(CHIP, qid="0", status="completed")
    repo.latest_task_result(CHIP, "CheckT1", "0")
    for mode in ("latest", "best", "average"):
        repo.metric_values(CHIP, "t1", mode=mode)
        repo.metric_values(CHIP, "t1", mode=mode, within_hours=48)
    repo.metric_values(CHIP, "t1", qid="1")
    repo.metric_values(CHIP, "zx90_gate_fidelity", kind="coupling")
    repo.parameter_timeseries(CHIP, "t1", "0", last_n=3)
    repo.chip_parameter_timeseries(CHIP, "t1", last_n=2, since=repo.last_execution_at(CHIP))
    repo.executions(CHIP, tags=["daily"])
    repo.calibration_notes(CHIP)
    versions = repo.parameter_versions(CHIP, "t1", "0")
    repo.lineage_graph(CHIP, versions[-1]["entity_id"])
    repo.output_parameter_names(CHIP)
    repo.output_parameter_names(CHIP, "0")
    reader = RunReader(repo)
    runs = reader.executions_between(CHIP)
    assert runs and reader.results(CHIP, [r["execution_id"] for r in runs][:2])


def test_every_read_carries_the_project(recorded):
    repo, recording = recorded
    _every_read(repo)
    touched = {name for name, _ in recording.log}
    assert {"chip", "qubit", "coupling", "task_result_history", "execution_history", "calibration_note",
            "parameter_versions", "provenance_relations"} <= touched


def test_chat_sessions_are_the_projects_own(recorded):
    repo, recording = recorded
    store = ChatSessionStore(repo.db)
    store.save("alice", "s1", title="T1 drift", context={"chip_id": CHIP}, messages=[
        {"role": "user", "content": "hi"}])
    assert [s["session_id"] for s in store.list("alice")] == ["s1"]
    assert store.rename("alice", "s1", "renamed") and store.delete("alice", "s1")
    assert ("copilot_chat_session", "insert_one") in recording.log
    # another project's session with the same id is neither listed nor opened
    other = ChatSessionStore(scoped(recording._db, P2))
    other.save("alice", "s2", title="theirs", context=None, messages=[{"role": "user", "content": "x"}])
    assert store.list("alice") == [] and store.get("alice", "s2") is None


def test_qdash_chats_without_a_project_are_read_only_inside_a_project(recorded):
    """QDash's ``copilot_chat_session`` documents have no ``project_id``: with a project set, the owner still
    lists and opens them, but nothing inside the project writes them (save, rename, delete); the conversation
    continues in a copy stamped with the project, and QDash's document stays as it was."""
    repo, recording = recorded
    raw = recording._db["copilot_chat_session"]
    raw.insert_many([
        {"username": "alice", "session_id": "1732600000000-a1b2c3", "title": "from QDash", "context": None,
         "messages": [{"role": "user", "content": "T1 of Q05?"}]},
        {"username": "bob", "session_id": "1732600000000-d4e5f6", "title": "bob's", "context": None,
         "messages": [{"role": "user", "content": "x"}]},
        {"username": "alice", "session_id": "p2chat", "title": "other project", "context": None,
         "project_id": P2, "messages": [{"role": "user", "content": "y"}]}])
    before = raw.find_one({"session_id": "1732600000000-a1b2c3"}, {"_id": 0})
    store = ChatSessionStore(repo.db)
    assert [s["title"] for s in store.list("alice")] == ["from QDash"]
    session = store.get("alice", "1732600000000-a1b2c3")
    assert session is not None and session["messages"][0]["content"] == "T1 of Q05?" and store.read_only(session)
    with pytest.raises(ReadOnlySession):
        store.save("alice", "1732600000000-a1b2c3", title="from QDash", context=None, messages=[
            *session["messages"], {"role": "assistant", "content": "45.1 us"}])
    assert not store.rename("alice", "1732600000000-a1b2c3", "mine now")
    assert not store.delete("alice", "1732600000000-a1b2c3")
    assert raw.find_one({"session_id": "1732600000000-a1b2c3"}, {"_id": 0}) == before
    state = ChatState(username="alice")  # what the Copilot page does when the chat is opened: a copy
    state.load_document(session, read_only=True)
    assert state.session_id != "1732600000000-a1b2c3" and state.title == "from QDash (copy)"
    store.save("alice", state.session_id, **state.document_fields())
    copied = raw.find_one({"session_id": state.session_id}, {"_id": 0})
    assert copied["project_id"] == P1 and [m["content"] for m in copied["messages"]] == ["T1 of Q05?"]
    assert raw.find_one({"session_id": "1732600000000-a1b2c3"}, {"_id": 0}) == before
    assert store.get("bob", "p2chat") is None and store.get("alice", "p2chat") is None
    assert not ChatSessionStore(recording._db).read_only(session)  # without a project every chat is writable


def test_the_recording_fake_fails_an_unscoped_query():
    recording = RecordingDatabase(_loaded(open_memory_database(f"scope-{uuid.uuid4().hex}")), P1)
    with pytest.raises(UnscopedQuery):
        recording["qubit"].find_one({"chip_id": CHIP})
    assert recording["migration_ledger"].find_one({}) is None  # not a project-scoped collection


def test_a_scoped_collection_refuses_what_it_cannot_scope():
    db = scoped(open_memory_database(f"scope-{uuid.uuid4().hex}"), P1)
    with pytest.raises(ScopeError):
        db["task_result_history"].find_one_and_delete({})
    with pytest.raises(ScopeError, match="another project"):
        db["qubit"].find({"project_id": P2})


def test_memory_is_the_projects_own(recorded):
    _, recording = recorded
    store = MemoryStore(recording, project_id=P1, owner="alice")  # the raw database: the store scopes itself
    store.save(CHIP, [{"kind": "parameter", "key": "t1", "text": "T1 asked", "hits": 1.0},
                      {"kind": "code", "key": "median", "text": "median()", "hits": 0.5}])
    store.save(CHIP, [{"kind": "parameter", "key": "t1", "text": "T1 asked", "hits": 2.0}])  # an update
    listed = store.list(CHIP)
    assert [(e["key"], e["hits"]) for e in listed] == [("t1", 2.0), ("median", 0.5)]
    assert store.delete(CHIP, listed[1]["id"]) and store.clear(CHIP) == 1
    calls = {method for name, method in recording.log if name == "copilot_memory"}
    assert {"find", "find_one", "insert_one", "update_one", "delete_one", "delete_many"} <= calls
    # another project's entry for the same owner and chip is never listed
    theirs = MemoryStore(recording._db, project_id=P2, owner="alice")
    theirs.save(CHIP, [{"kind": "parameter", "key": "t2_echo", "text": "theirs", "hits": 1.0}])
    assert store.list(CHIP) == [] and store.chips() == []
    assert [d["project_id"] for d in recording._db["copilot_memory"].find({}, {"_id": 0})] == [P2]


@pytest.mark.parametrize("write", ["insert_one", "update_one", "delete_one", "delete_many"])
def test_the_recording_fake_fails_an_unscoped_chat_or_memory_write(write):
    recording = RecordingDatabase(open_memory_database(f"scope-{uuid.uuid4().hex}"), P1)
    for name in ("copilot_chat_session", "copilot_memory"):
        args: tuple[Any, ...] = ({"username": "alice", "session_id": "s1"},)
        if write == "update_one":
            args += ({"$set": {"title": "x"}},)
        with pytest.raises(UnscopedQuery):
            getattr(recording[name], write)(*args)


def test_a_chat_store_that_bypasses_the_wrapper_is_caught():
    recording = RecordingDatabase(open_memory_database(f"scope-{uuid.uuid4().hex}"), P1)
    with pytest.raises(UnscopedQuery):  # the raw database: no project added, so the fake refuses the query
        ChatSessionStore(recording).save("alice", "s1", title="t", context=None,
                                         messages=[{"role": "user", "content": "hi"}])
    ChatSessionStore(scoped(recording, P1)).save("alice", "s1", title="t", context=None,
                                                 messages=[{"role": "user", "content": "hi"}])
    assert ("copilot_chat_session", "insert_one") in recording.log


@pytest.mark.parametrize("engine", ["embedded", "mongodb"])
def test_aggregate_distinct_and_count_see_only_the_project(engine):
    """The wrapper's own ``aggregate``, ``distinct`` and ``count_documents``: the other project's documents (the
    999/888 μs T1 results, its execution, its chip) are never counted, listed or aggregated.  Expected values are the
    fixture's documents filtered by hand."""
    raw = _loaded(open_memory_database(f"scope-{uuid.uuid4().hex}") if engine == "embedded"
                  else mongo_plan_database(f"scope-{uuid.uuid4().hex}"))
    db = scoped(raw, P1)
    tasks = [d for d in DOCS["task_result_history"] if d["project_id"] == P1]
    assert len(tasks) < len(DOCS["task_result_history"])  # the fixture has another project's results
    assert db["task_result_history"].count_documents({}) == len(tasks)
    assert db["task_result_history"].count_documents({"execution_id": tasks[0]["execution_id"]}) == sum(
        1 for d in tasks if d["execution_id"] == tasks[0]["execution_id"])
    assert sorted(db["execution_history"].distinct("execution_id")) == sorted(
        d["execution_id"] for d in DOCS["execution_history"] if d["project_id"] == P1)
    assert sorted(db["chip"].distinct("chip_id", {})) == sorted(
        d["chip_id"] for d in DOCS["chip"] if d["project_id"] == P1)
    t1s = [p["t1"]["value"] for d in tasks if (p := d["output_parameters"]).get("t1")]
    rows = list(db["task_result_history"].aggregate([
        {"$match": {"output_parameters.t1": {"$exists": True}}},
        {"$group": {"_id": None, "n": {"$sum": 1}, "top": {"$max": "$output_parameters.t1.value"}}}]))
    assert [(r["n"], r["top"]) for r in rows] == [(len(t1s), max(t1s))]
    assert max(t1s) < 888.0  # the other project's values would win a $max
    with pytest.raises(ScopeError, match="another project"):
        db["task_result_history"].count_documents({"project_id": P2})
    with pytest.raises(ScopeError, match="another project"):
        db["qubit"].distinct("qid", {"project_id": P2})
