"""The model fill of an unrouted question (``routing/fill.py``, ``llm/fill.py``): a question the parse routes makes
no fill call and keeps its call; a question it leaves unrouted gets one Chat Completions call whose
``response_format`` carries the closed schema (enums of the shapes, the catalogue's metrics, the installed chips);
a good fill routes it to the call written by hand in ``tests/dev_fill10.py``; a fill that is malformed, outside
the schema or not supported by the question's text changes nothing (the parse stands: no call)."""

from __future__ import annotations

import json

import jsonschema
import numpy as np
import pytest

from copilot_core.agent import AgentRequest, provider_from_settings, run_copilot
from copilot_core.domain.metrics import CATALOGUE
from copilot_core.llm.fill import model_filler
from copilot_core.routing.prefetch import plan_prefetch
from copilot_core.settings import ConfigError, load_settings
from copilot_core.tools import DataStore, Toolkit
from tests import dev_fill10
from tests.dev_shapes9 import values
from tests.fakes.scripted_openai import answer, text
from tests.public_eval import CHIP, OTHER

CHIPS = (CHIP, OTHER)
TEN = ["compound filter", "percentage", "top N", "cross-chip", "spread", "correlation", "window count", "fails most",
       "qubit pair", "other"]


def _fill(**fields: object) -> str:
    """A fill as the model writes it: every field, empty unless given."""
    base: dict = {"shape": "other", "metrics": [], "chip": "none", "subject": "none", "extreme": "none", "n": 0,
                  "limits": [], "window_days": 0, "qubits": []}
    return json.dumps(base | fields)


def _plan(question: str, raw: str | None):
    seen: list[str] = []

    def filler(text_: str, schema: dict) -> str | None:
        seen.append(text_)
        return raw
    plan = plan_prefetch(question, chip_id=CHIP, chips=CHIPS, filler=filler)
    return (None if plan is None else (plan.name, dict(plan.args))), seen


def _provider(server, **env):
    return provider_from_settings(load_settings(env={"OPENAI_BASE_URL": server.base_url,
                                                     "COPILOT_API_STYLE": "chat_completions", **env}))


@pytest.fixture(scope="module")
def forty(demo_db):
    return dev_fill10.planned(demo_db)


def test_forty_dev_questions_four_of_each_of_the_ten_shapes(forty):
    shapes: dict[str, int] = {}
    for q, _ in forty:
        shapes[q.shape] = shapes.get(q.shape, 0) + 1
    assert len(forty) == 40 and len(shapes) == 10 and set(shapes.values()) == {4}, shapes


def test_a_question_the_parse_routes_makes_no_fill_call_and_keeps_its_call(forty, demo_db):
    routed = 0
    for q, _ in [*forty, *dev_fill10.after(demo_db)]:
        alone = plan_prefetch(q.text, chip_id=CHIP, chips=CHIPS)
        if alone is None:
            continue
        routed += 1
        got, seen = _plan(q.text, _fill(shape="qubit pair", metrics=["t1"], qubits=["5", "9"]))
        assert seen == [] and got == (alone.name, dict(alone.args)), q.id
    assert routed >= 35


def test_the_fill_request_carries_the_closed_schema_and_a_good_fill_routes(scripted_openai):
    provider = _provider(scripted_openai, COPILOT_FILL_UNROUTED="on")
    scripted_openai.push(text(_fill(shape="spread", metrics=["average_readout_fidelity"], chip="144Qv2")))
    plan = plan_prefetch("Tell me how uneven readout fidelity is on 144Qv2.", chip_id=CHIP, chips=CHIPS,
                         filler=model_filler(provider))
    assert plan is not None and (plan.name, plan.args) == (
        "metric_spread", {"chip_id": OTHER, "metric_name": "average_readout_fidelity", "lead": "std"})
    body, = scripted_openai.bodies("chat")
    assert not body.get("stream") and body["temperature"] == 0
    assert body["response_format"]["type"] == "json_schema"
    schema = body["response_format"]["json_schema"]["schema"]
    props = schema["properties"]
    assert schema["additionalProperties"] is False and set(schema["required"]) == set(props)
    assert props["shape"]["enum"] == TEN and list(props)[-1] == "shape"  # asked last
    assert set(props["metrics"]["items"]["enum"]) == set(CATALOGUE)
    assert props["chip"]["enum"] == [CHIP, OTHER, "none"]
    assert props["qubits"]["items"]["enum"] == ["144"]  # the question's own numbers only
    check = jsonschema.Draft202012Validator(schema)
    assert check.is_valid(json.loads(_fill(shape="spread", metrics=["t1"])))
    for off in (_fill(shape="histogram"), _fill(metrics=["leakage"]), _fill(chip="99Qv9"), _fill(qubits=["7"])):
        assert not check.is_valid(json.loads(off)), off


@pytest.mark.parametrize("question, raw, call", [
    ("how lopsided is the ZX90 gate fidelity across couplings", _fill(shape="spread", metrics=["zx90_gate_fidelity"]),
     ("metric_spread", {"chip_id": CHIP, "metric_name": "zx90_gate_fidelity", "lead": "std"})),
    ("Does T2 echo rise and fall along with T1?", _fill(shape="correlation", metrics=["t2_echo", "t1"]),
     ("correlate_metrics", {"chip_id": CHIP, "metric_a": "t2_echo", "metric_b": "t1", "method": "pearson"})),
    ("give the 7 qubits with the shabbiest readout fidelity",  # "poorest" is a ranking word the parse reads
     _fill(shape="top N", metrics=["average_readout_fidelity"], extreme="lowest", n=7),
     ("rank_metric", {"chip_id": CHIP, "metric_name": "average_readout_fidelity", "order": "lowest", "n": 7})),
    ("which coupling misbehaves most on 144Qv2?", _fill(shape="fails most", subject="coupling", chip="144Qv2"),
     ("failure_ranking", {"chip_id": OTHER, "by": "coupling"})),
    ("qubits with T1 eclipsing 40 us as well as T2 echo eclipsing 30 us",
     _fill(shape="compound filter", metrics=["t1", "t2_echo"], limits=[
         {"metric": "t1", "comparison": "above", "value": 40, "unit": "μs"},
         {"metric": "t2_echo", "comparison": "above", "value": 30, "unit": "μs"}]),
     ("filter_metrics", {"chip_id": CHIP, "join": "and", "conditions": [{"metric_name": "t1", "above": 40.0},
                                                                         {"metric_name": "t2_echo", "above": 30.0}]})),
])
def test_a_good_fill_routes_an_unrouted_question_to_its_call(question, raw, call):
    assert plan_prefetch(question, chip_id=CHIP, chips=CHIPS) is None  # unrouted by the parse alone
    got, seen = _plan(question, raw)
    assert seen == [question] and got == call


@pytest.mark.parametrize("question, raw", [
    ("Does T2 echo rise and fall along with T1?", None),  # the call failed
    ("Does T2 echo rise and fall along with T1?", ""),
    ("Does T2 echo rise and fall along with T1?", "Sure! The shape is correlation."),
    ("Does T2 echo rise and fall along with T1?", "[\"correlation\"]"),
    ("Does T2 echo rise and fall along with T1?", '{"shape": {"$gt": ""}, "metrics": "t1"}'),
    ("Does T2 echo rise and fall along with T1?", "{" * 5000),
    # a shape whose own fields are not there: no qubits to compare (what the real model wrote for a spread)
    ("Tell me how much the T2 echo scatters across qubits on this chip.", _fill(shape="qubit pair",
                                                                                metrics=["t2_echo"], n=2)),
    # chips compared in a question that names no chip and no chip word (what the real model wrote for a top N)
    ("Which 5 qubits have the shabbiest T1?", _fill(shape="cross-chip", metrics=["t1"])),
    # qubits the question never writes
    ("Does T2 echo rise and fall along with T1?", _fill(shape="qubit pair", qubits=["5", "9"])),
    # a metric the question never writes
    ("how lopsided is the ZX90 gate fidelity across couplings", _fill(shape="correlation",
                                                                      metrics=["bell_state_fidelity"])),
    # a metric the question never writes, where the parse read none
    ("how jumpy are the values across 144Qv2?", _fill(shape="spread", metrics=["t1"])),
    # a chip not installed, a shape not in the schema
    ("how lopsided is the ZX90 gate fidelity across couplings", _fill(shape="histogram", chip="99Qv9")),
    # limits of values, units or metrics the question does not write
    ("qubits with T1 eclipsing 40 us as well as T2 echo eclipsing 30 us", _fill(shape="compound filter", limits=[
        {"metric": "t1", "comparison": "above", "value": 45, "unit": "μs"},
        {"metric": "average_readout_fidelity", "comparison": "below", "value": 30, "unit": "%"}])),
    ("qubits with T1 eclipsing 40 us as well as T2 echo eclipsing 30 us", _fill(limits=[
        {"metric": "t1", "comparison": "above", "value": 40, "unit": "GHz"},
        {"metric": "t2_echo", "comparison": "above", "value": "30; drop", "unit": "μs"}])),
    ("how lopsided is the ZX90 gate fidelity across couplings", _fill(shape="window count", window_days=True)),
])
def test_a_malformed_hostile_or_unsupported_fill_leaves_the_question_unrouted(question, raw):
    got, seen = _plan(question, raw)
    assert seen == [question] and got is None, got


def test_a_parse_field_wins_over_the_fill():
    """Readout fidelity and 7 written, T1 and 9 filled: the question's metric and count stand."""
    got, _ = _plan("give the 7 qubits with the poorest readout fidelity",
                   _fill(shape="top N", metrics=["t1"], extreme="lowest", n=9))
    assert got == ("rank_metric", {"chip_id": CHIP, "metric_name": "average_readout_fidelity", "order": "lowest",
                                   "n": 7})
    got, _ = _plan("Does T2 echo rise and fall along with T1?", _fill(shape="correlation", metrics=["t1"]))
    assert got == ("correlate_metrics", {"chip_id": CHIP, "metric_a": "t2_echo", "metric_b": "t1", "method": "pearson"})


def test_the_setting_is_off_by_default_and_a_responses_provider_gets_no_filler():
    local = {"OPENAI_BASE_URL": "http://127.0.0.1:1/v1", "COPILOT_API_STYLE": "chat_completions"}
    assert model_filler(provider_from_settings(load_settings(env=local))) is None
    assert model_filler(provider_from_settings(load_settings(env={**local, "COPILOT_FILL_UNROUTED": "on"})))
    responses = provider_from_settings(load_settings(env={**local, "COPILOT_API_STYLE": "responses",
                                                          "COPILOT_FILL_UNROUTED": "on"}))
    assert model_filler(responses) is None
    with pytest.raises(ConfigError, match="COPILOT_FILL_UNROUTED"):
        provider_from_settings(load_settings(env={**local, "COPILOT_FILL_UNROUTED": "maybe"}))


def test_through_the_turn_the_filled_call_runs_and_its_value_is_the_chips(scripted_openai, repo, demo_db):
    """The page's turn: the fill request, then the router's call (the std of the chip's T1, as numpy computes it from
    the raw documents), then the model's answer round; a routed question sends no fill request."""
    provider = _provider(scripted_openai, COPILOT_FILL_UNROUTED="on")
    scripted_openai.push(text(_fill(shape="spread", metrics=["t1"], chip="144Qv2")), answer("The spread is above."))
    result = run_copilot(AgentRequest("How much does T1 wander between qubits on 144Qv2?", chip_id=CHIP),
                         provider=provider, toolkit=Toolkit(repo, store=DataStore()), repo=repo, router=True)
    first, *rest = scripted_openai.bodies("chat")
    assert first["response_format"]["json_schema"]["name"] == "question_fields"
    assert rest and all("question_fields" not in json.dumps(b.get("response_format") or {}) for b in rest)
    call = result.tool_calls[0]
    assert (call.name, call.args["metric_name"], call.args["chip_id"]) == ("metric_spread", "t1", OTHER)
    std = float(np.std(list(values(demo_db, OTHER, "t1").values()), ddof=1))
    assert f"{std:.2f}" in call.model_text or f"{std:.1f}" in call.model_text, call.model_text[:400]
    scripted_openai.requests.clear()
    scripted_openai.push(answer("T1 ranks above."))
    run_copilot(AgentRequest("What are the 5 lowest T1 qubits?", chip_id=CHIP), provider=provider,
                toolkit=Toolkit(repo, store=DataStore()), repo=repo, router=True)
    assert all("response_format" not in b or "question_fields" not in json.dumps(b["response_format"])
               for b in scripted_openai.bodies("chat"))
