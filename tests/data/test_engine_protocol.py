"""Every engine the data layer runs on satisfies the ``engine`` Protocols, and answers the calls the plans make
(find with projection, sort and limit; find_one with sort; count; distinct; aggregate) the same way.

Expected values are written by hand from the three documents inserted here.
"""

from __future__ import annotations

from datetime import datetime

import pymongo
import pytest

from copilot_core.data.connection import open_memory_database
from copilot_core.data.engine import Collection, Cursor, Database
from copilot_core.data.plans import EmbeddedPlan, MongoPlan, plan_for
from copilot_core.data.scoped import ScopedCollection, ScopedDatabase, scoped
from tests.mongo_engine import mongo_plan_database

DOCS = [
    {"_id": "a", "project_id": "p1", "chip_id": "C1", "qid": "0", "start_at": datetime(2026, 1, 3),
     "output_parameter_names": ["t1", "t2_echo"]},
    {"_id": "b", "project_id": "p1", "chip_id": "C1", "qid": "1", "start_at": datetime(2026, 1, 5),
     "output_parameter_names": ["t1"]},
    {"_id": "c", "project_id": "p2", "chip_id": "C1", "qid": "0", "start_at": datetime(2026, 1, 4),
     "output_parameter_names": ["qubit_frequency"]},
]


def _memory() -> Database:
    return open_memory_database("engine-protocol")


ENGINES = {"litemongo": _memory, "mongomock": mongo_plan_database,
           "scoped litemongo": lambda: ScopedDatabase(open_memory_database("engine-protocol-scoped"), "p1"),
           "scoped mongomock": lambda: scoped(mongo_plan_database(), "p1")}


@pytest.fixture(params=list(ENGINES))
def engine(request) -> tuple[str, Database]:
    db = ENGINES[request.param]()
    raw = db.raw if isinstance(db, ScopedDatabase) else db
    raw["task_result_history"].delete_many({})
    raw["task_result_history"].insert_many([dict(d) for d in DOCS])
    return request.param, db


def test_every_engine_is_a_database_of_collections_and_cursors(engine):
    _, db = engine
    coll = db["task_result_history"]
    assert isinstance(db, Database)
    assert isinstance(coll, Collection)
    assert isinstance(coll.find({}), Cursor)
    assert db.name == "qdash"


def test_pymongo_itself_satisfies_the_protocols():
    db = pymongo.MongoClient("mongodb://127.0.0.1:1", connect=False)["qdash"]  # no server is contacted
    assert isinstance(db, Database)
    assert isinstance(db["task_result_history"], Collection)
    assert isinstance(db["task_result_history"].find({}), Cursor)


def test_the_calls_the_plans_make_answer_alike_on_every_engine(engine):
    name, db = engine
    coll = db["task_result_history"]
    p1 = {"chip_id": "C1", "project_id": "p1"}  # the scoped engines add the project themselves
    newest = [d["qid"] for d in coll.find(p1, {"_id": 0, "qid": 1}).sort([("start_at", -1)]).limit(2)]
    assert newest == ["1", "0"]
    first = coll.find_one(p1, {"_id": 0, "start_at": 1}, sort=[("start_at", 1)])
    assert first == {"start_at": datetime(2026, 1, 3)}
    assert coll.count_documents({"chip_id": "C1", "qid": "0", "project_id": "p1"}) == 1
    assert sorted(str(n) for n in coll.distinct("output_parameter_names", p1)) == ["t1", "t2_echo"]
    if name.startswith("scoped"):  # the wrapper scopes an unscoped read too
        assert coll.count_documents({"chip_id": "C1"}) == 2
        assert sorted(str(n) for n in coll.distinct("qid", {})) == ["0", "1"]


def test_aggregate_groups_latest_per_qubit_on_the_mongodb_plan_engines():
    for db in (mongo_plan_database(), scoped(mongo_plan_database(), "p1")):
        raw = db.raw if isinstance(db, ScopedDatabase) else db
        raw["task_result_history"].delete_many({})
        raw["task_result_history"].insert_many([dict(d) for d in DOCS])
        rows = db["task_result_history"].aggregate([
            {"$match": {"chip_id": "C1", "project_id": "p1"}}, {"$sort": {"start_at": -1}},
            {"$group": {"_id": "$qid", "at": {"$first": "$start_at"}}}])
        assert sorted((r["_id"], r["at"]) for r in rows) == [("0", datetime(2026, 1, 3)), ("1", datetime(2026, 1, 5))]


def test_scoped_collections_wrap_exactly_the_project_scoped_ones():
    db = scoped(mongo_plan_database(), "p1")
    assert isinstance(db["task_result_history"], ScopedCollection)
    assert isinstance(db["copilot_memory"], ScopedCollection)  # the app's own memory belongs to a project too
    assert not isinstance(db["user"], ScopedCollection)  # QDash's accounts are not per project


def test_the_engine_choice_and_its_helpers_live_in_the_plan():
    embedded, mongo = open_memory_database("engine-protocol-plan"), mongo_plan_database()
    assert isinstance(plan_for(embedded), EmbeddedPlan)
    assert isinstance(plan_for(scoped(embedded, "p1")), EmbeddedPlan)  # a project scope hides no engine
    assert isinstance(plan_for(mongo), MongoPlan)
    assert plan_for(scoped(embedded, "p1")).index_warm_up(scoped(embedded, "p1")) is not None
    assert plan_for(mongo).index_warm_up(mongo) is None  # a server builds its own indexes
    assert plan_for(embedded).describe(embedded) == "the embedded database (qdash)"
    assert plan_for(mongo).describe(scoped(mongo, "p1")) == "MongoDB at the configured host/qdash"
