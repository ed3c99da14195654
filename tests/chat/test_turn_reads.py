"""A one-tool turn through the turn service (the page's flags), the real agent loop over real HTTP to the scripted
server, with every read the repository sends to the database counted at the data layer's boundary
(``tests.fakes.counting_db``): each fact the turn needs is read once, and the turn's secrets are collected once."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import copilot_core.guardrails as guardrails
import copilot_core.agent.plan as plan
from copilot_core.agent import provider_from_settings
from copilot_core.chat import ChatState
from copilot_core.data.plans import plan_for
from copilot_core.data.repository import CalibrationRepository
from copilot_core.session import Copilot
from copilot_core.settings import load_settings
from tests.fakes.counting_db import CountingDatabase
from tests.fakes.scripted_openai import ScriptedOpenAI, answer, call

CHIP = "64Qv3"
QUESTION = f"What are the parameters of Q05 on {CHIP}?"

# Worked out by hand from the turn's needs and the repository's queries (copilot_core/data/repository.py):
#  1. the chip ids, to see whether the question names a chip (clarification, the question's chip): chip.distinct
#  2. the chip's layout (size, topology), for the prompt's context, the tool's check of the qubit against the chip's
#     size and the follow-ups' labels (chip_layout): the chip document
#  3. qubit 5's parameters (get_qubit_params -> qubit_params): one qubit document
EXPECTED_READS = [("chip", "distinct"), ("chip", "find_one"), ("qubit", "find_one")]


@pytest.fixture
def counted_turn(demo_db, tmp_path, monkeypatch):
    collected: list[int] = []
    real = guardrails.configured_secrets

    def counting(settings=None):
        collected.append(1)
        return real(settings)

    monkeypatch.setattr(guardrails, "configured_secrets", counting)  # a counting wrapper: the real function runs
    monkeypatch.setattr(plan, "configured_secrets", counting)
    counted = CountingDatabase(demo_db)
    repo = CalibrationRepository(counted, plan=plan_for(demo_db))
    script = [call("get_qubit_params", {"chip_id": CHIP, "qid": "Q05"}), answer("Qubit 5: values from the tool.")]
    with ScriptedOpenAI(script=script) as server:
        env = {"OPENAI_BASE_URL": server.base_url, "COPILOT_MODEL": "m", "COPILOT_MAX_RETRIES": "0",
               "COPILOT_MEMORY": "off", "COPILOT_READINESS": "off", "DATA_DIR": str(tmp_path)}
        settings = load_settings(env=env, secrets_path=Path("/nonexistent/secrets.toml"))
        copilot = Copilot.from_settings(settings, repo)
        state = ChatState(username="local", provider=provider_from_settings(settings))
        state.chip_id = CHIP
        collected.clear()
        turn = copilot.ask(state, QUESTION, clarify=True)
        first_request = json.dumps(server.requests[0].body, ensure_ascii=False)
    return turn, counted.reads, collected, first_request


def test_a_one_tool_turn_reads_each_fact_once(counted_turn):
    turn, reads, _, _ = counted_turn
    assert turn.answer is not None and turn.answer.text.startswith("Qubit 5: values from the tool.")
    assert [o.name for o in turn.result.tool_calls] == ["get_qubit_params"]
    assert reads == EXPECTED_READS


def test_a_turn_collects_its_secrets_once(counted_turn):
    _, _, collected, _ = counted_turn
    assert len(collected) == 1


def test_the_layout_read_once_reaches_the_model_s_context(counted_turn, demo_db):
    """The loop reads the prompt chip's layout once; the prompt the model gets describes the chip from that read."""
    _, _, _, first_request = counted_turn
    doc = demo_db["chip"].find_one({"chip_id": CHIP}, sort=[("installed_at", -1)])
    assert doc is not None and isinstance(doc["size"], int)
    assert f"size: {doc['size']} qubits" in first_request
    assert (doc.get("topology_id") or "square-lattice-mux") in first_request
    assert "was not found in the database" not in first_request
