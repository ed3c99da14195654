"""A call without ``chip_id`` runs on the chip in view (the model is not sent that argument), says which chip it
used, and a bad or missing chip still gets a clear error."""

from __future__ import annotations

import json

import pytest

from copilot_core.agent import AgentRequest, run_copilot
from copilot_core.data.repository import CalibrationRepository
from copilot_core.tools import DataStore, Toolkit
from tests.fakes.scripted_openai import ScriptedOpenAI, answer, call
from tests.mongo_engine import mongo_plan_database


def latest_installed(db) -> str:
    """The most recently installed chip, straight from the chip collection (ties: lowest chip id)."""
    docs = sorted(db["chip"].find({}, {"_id": 0, "chip_id": 1, "installed_at": 1}),
                  key=lambda d: d["chip_id"])
    return max(docs, key=lambda d: d["installed_at"])["chip_id"]


def run(kit: Toolkit, name: str, args: dict) -> tuple:
    kit.begin_request()
    outcome = kit.execute(name, args)
    return outcome, json.loads(outcome.model_text)


@pytest.mark.parametrize("name, args", [
    ("get_qubit_params", {"qid": "5"}),
    ("get_chip_summary", {"param_names": ["t1"]}),
    ("list_available_parameters", {}),
    ("get_chip_topology", {"qid": "5"}),
    ("get_execution_history", {"last_n": 2}),
    ("generate_chip_heatmap", {"metric_name": "t1"}),
    ("get_parameter_timeseries", {"parameter_name": "t1", "qid": "5"}),
])
def test_a_call_without_chip_id_runs_on_the_session_chip_and_names_it(repo, db, chip144, name, args):
    kit = Toolkit(repo, store=DataStore(), chip_id=chip144)
    outcome, payload = run(kit, name, args)
    assert outcome.ok, outcome.model_text
    assert outcome.args["chip_id"] == chip144 and payload["chip_id"] == chip144


def test_the_session_chips_values_not_another_chips(repo, db, chip64, chip144):
    qid = "5"
    for chip in (chip64, chip144):
        stored = db["qubit"].find_one({"chip_id": chip, "qid": qid})["data"]["t1"]["value"]  # μs
        _, payload = run(Toolkit(repo, store=DataStore(), chip_id=chip), "get_qubit_params", {"qid": qid})
        assert payload["parameters"]["t1"]["value"] == pytest.approx(stored, rel=1e-3)


def test_an_explicit_chip_id_wins_over_the_session_chip(repo, chip64, chip144):
    kit = Toolkit(repo, store=DataStore(), chip_id=chip64)
    outcome, payload = run(kit, "get_chip_topology", {"chip_id": chip144})
    assert outcome.ok and payload["chip_id"] == chip144 and payload["num_qubits"] == 144


def test_without_a_session_chip_the_most_recently_installed_chip_is_used(repo, db):
    outcome, payload = run(Toolkit(repo, store=DataStore()), "list_available_parameters", {"chip_id": None})
    assert outcome.ok and payload["chip_id"] == latest_installed(db)


@pytest.mark.parametrize("args, error, hint", [
    ({"qid": "5", "chip_id": "64Q v3"}, "invalid chip_id", "chip_id (string, default: the chip in view)"),
    ({"qid": "5", "chip_id": {"$ne": ""}}, "invalid chip_id", "get_qubit_params takes"),
    ({"qid": "5", "chip_id": "nochip"}, "chip 'nochip' not found", "available chips:"),
])
def test_a_bad_chip_id_is_a_clear_error(repo, demo_chip_ids, args, error, hint):
    outcome, payload = run(Toolkit(repo, store=DataStore(), chip_id=demo_chip_ids[0]), "get_qubit_params", args)
    assert not outcome.ok and payload["error"].startswith(error) and hint in payload["hint"]


def test_a_session_chip_that_no_longer_exists_lists_the_chips(repo, demo_chip_ids):
    outcome, payload = run(Toolkit(repo, store=DataStore(), chip_id="retired"), "get_qubit_params", {"qid": "5"})
    assert not outcome.ok and payload["error"] == "chip 'retired' not found"
    assert all(chip in payload["hint"] for chip in demo_chip_ids)


def test_no_chip_at_all_asks_for_chip_id():
    empty = CalibrationRepository(mongo_plan_database("no-chips"))
    outcome, payload = run(Toolkit(empty, store=DataStore()), "get_qubit_params", {"qid": "5"})
    assert not outcome.ok and payload["error"] == "no chip in view" and "pass chip_id" in payload["hint"]


@pytest.mark.parametrize("style", ["responses", "chat_completions"])
def test_the_model_calls_without_chip_id_over_either_api(repo, db, chip144, style):
    """Through the real SDK: the model is offered no chip_id, calls without one, and reads the session chip's data."""
    stored = db["qubit"].find_one({"chip_id": chip144, "qid": "7"})["data"]["t1"]["value"]
    with ScriptedOpenAI(script=[call("get_qubit_params", {"qid": "Q07"}), answer("done", "good")]) as server:
        result = run_copilot(AgentRequest("T1 of Q07?", chip_id=chip144), provider=server.provider(style),
                             toolkit=Toolkit(repo, store=DataStore(), chip_id=chip144), repo=repo)
        offered = server.bodies()[0]["tools"]
    assert result.error is None and [o.name for o in result.tool_calls] == ["get_qubit_params"]
    params = [t.get("parameters") or t["function"]["parameters"] for t in offered]
    assert all("chip_id" not in p["properties"] and "chip_id" not in p.get("required", []) for p in params)
    seen = json.loads(result.tool_calls[0].model_text)
    assert seen["chip_id"] == chip144 and seen["parameters"]["t1"]["value"] == pytest.approx(stored, rel=1e-3)


@pytest.mark.parametrize("written", ["{chip}-Q05", "{chip}:5", "{chip} Q005"])
def test_a_qubit_written_with_its_chip_runs_on_that_chip(repo, db, chip64, chip144, written):
    """What the local 1.5B model sent when it was not offered chip_id: {"qid": "64Qv3-Q05"}."""
    kit = Toolkit(repo, store=DataStore(), chip_id=chip64)
    outcome, payload = run(kit, "get_qubit_params", {"qid": written.format(chip=chip144)})
    stored = db["qubit"].find_one({"chip_id": chip144, "qid": "5"})["data"]["t1"]["value"]
    assert outcome.ok and outcome.args == {"chip_id": chip144, "qid": "5"}
    assert payload["parameters"]["t1"]["value"] == pytest.approx(stored, rel=1e-3)


def test_couplings_are_not_read_as_chip_and_qubit(repo, chip64):
    kit = Toolkit(repo, store=DataStore(), chip_id=chip64)
    outcome, payload = run(kit, "get_latest_task_result", {"task_name": "CheckZX90", "qid": "Q4-Q1"})
    assert not outcome.ok and payload["error"].startswith("invalid qid")


@pytest.mark.parametrize("style", ["responses", "chat_completions"])
def test_a_question_naming_another_chip_is_answered_on_that_chip(repo, db, chip64, chip144, style):
    """The chip in view is 64Qv3, the question names 144Qv2 in lower case: the call without chip_id reads 144Qv2."""
    stored = db["qubit"].find_one({"chip_id": chip144, "qid": "7"})["data"]["t1"]["value"]
    question = f"T1 of Q07 on {chip144.lower()}?"
    with ScriptedOpenAI(script=[call("get_qubit_params", {"qid": "Q07"}), answer("done", "good")]) as server:
        result = run_copilot(AgentRequest(question, chip_id=chip64), provider=server.provider(style),
                             toolkit=Toolkit(repo, store=DataStore(), chip_id=chip64), repo=repo)
        system = json.dumps(server.bodies()[0])
    seen = json.loads(result.tool_calls[0].model_text)
    assert result.error is None and seen["chip_id"] == chip144
    assert seen["parameters"]["t1"]["value"] == pytest.approx(stored, rel=1e-3)
    assert chip144 in system  # the prompt's context is about the chip the tools read


def test_a_question_naming_two_chips_stays_on_the_chip_in_view(repo, chip64, chip144):
    with ScriptedOpenAI(script=[call("get_qubit_params", {"qid": "5"}), answer("done", "good")]) as server:
        result = run_copilot(AgentRequest(f"Compare Q5 on {chip64} and {chip144}", chip_id=chip64),
                             provider=server.provider("chat_completions"),
                             toolkit=Toolkit(repo, store=DataStore(), chip_id=chip64), repo=repo)
    assert json.loads(result.tool_calls[0].model_text)["chip_id"] == chip64


@pytest.mark.parametrize("written", ["{chip}-{a}-{chip}-{b}", "{chip}:Q{a}-Q{b}", "Q{a}-Q{b}"])
def test_a_coupling_written_with_its_chip_or_with_qs_runs_on_that_coupling(repo, db, chip64, chip144, written):
    """What the local 1.5B model sent for a coupling: {"coupling_id": "144Qv2-1-144Qv2-2"}."""
    doc = db["coupling"].find_one({"chip_id": chip144}, sort=[("qid", 1)])
    a, b = doc["qid"].split("-")
    kit = Toolkit(repo, store=DataStore(), chip_id=chip144 if written.startswith("Q") else chip64)
    outcome, payload = run(kit, "get_coupling_params", {"coupling_id": written.format(chip=chip144, a=a, b=b)})
    assert outcome.ok, payload
    assert outcome.args["chip_id"] == chip144 and outcome.args["coupling_id"] == f"{int(a)}-{int(b)}"
    stored = {name for name, entry in (doc.get("data") or {}).items() if (entry or {}).get("value")}
    assert stored and all(name in json.dumps(payload) for name in stored)  # that coupling's parameters were read


def test_a_coupling_on_another_chip_than_the_one_given_is_refused(repo, chip64, chip144):
    kit = Toolkit(repo, store=DataStore(), chip_id=chip64)
    outcome, payload = run(kit, "get_coupling_params", {"chip_id": chip64, "coupling_id": f"{chip144}-1-{chip144}-2"})
    assert not outcome.ok and payload["error"].startswith("invalid coupling_id")
