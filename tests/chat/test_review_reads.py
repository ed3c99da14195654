"""The one-click qubit review through the turn service, over real HTTP to the scripted server, with every read the
repository sends counted at the data layer's boundary (``tests.fakes.counting_db``): each fact the report needs is
read once, the turn's secrets are collected once, and the review is cleaned of the secrets the turn service was
configured with."""

from __future__ import annotations

from pathlib import Path

import pytest

import copilot_core.agent.plan as plan
import copilot_core.guardrails as guardrails
from copilot_core.agent import provider_from_settings
from copilot_core.chat import ChatState, analysis_request
from copilot_core.data.plans import plan_for
from copilot_core.data.repository import CalibrationRepository
from copilot_core.domain.metrics import CATALOGUE
from copilot_core.session import Copilot
from copilot_core.settings import load_settings
from tests.fakes.counting_db import CountingDatabase
from tests.fakes.scripted_openai import ScriptedOpenAI, error

CHIP, QID = "64Qv3", "5"
LAB_TOKEN = "lab-token-5c8e21f0a7"  # a secret only the turn service's settings hold


def _scored_qubit_metrics() -> int:
    """The report's metrics, counted from the catalogue's bands (a qubit metric with a good or a bad band)."""
    return sum(1 for m in CATALOGUE.values() if m.kind == "qubit" and (m.good is not None or m.bad is not None))


# Worked out by hand from what the report shows and the repository's queries (copilot_core/data/repository.py):
#  1. the chip's layout (size: is qubit 5 on it; topology: its neighbours): the chip document
#  2. the chip's last execution, the end of the 7-day window: one execution_history document
#  3. each scored qubit metric's history of qubit 5 in the window: one task_result_history read per metric
#  4. the chip's failed tasks in the window (the demo chip has some): on the embedded engine the newest task ids on
#     a small projection, then those documents (``EmbeddedPlan.task_docs``): two task_result_history reads
#  5. every qubit's current data (the qubit and its neighbours), every coupling's: one read each
def expected_reads() -> list[tuple[str, str]]:
    return [("chip", "find_one"), ("execution_history", "find_one"),
            *[("task_result_history", "find")] * _scored_qubit_metrics(), *[("task_result_history", "find")] * 2,
            ("qubit", "find"), ("coupling", "find")]


@pytest.fixture
def counted_review(demo_db, tmp_path, monkeypatch):
    collected: list[int] = []
    real = guardrails.configured_secrets

    def counting(settings=None):
        collected.append(1)
        return real(settings)

    monkeypatch.setattr(guardrails, "configured_secrets", counting)  # a counting wrapper: the real function runs
    monkeypatch.setattr(plan, "configured_secrets", counting)
    counted = CountingDatabase(demo_db)
    repo = CalibrationRepository(counted, plan=plan_for(demo_db))
    refused = error(403, f"model m is not enabled for the key of {LAB_TOKEN}")  # the provider echoes the secret
    with ScriptedOpenAI(script=[refused]) as server:
        env = {"OPENAI_BASE_URL": server.base_url, "COPILOT_MODEL": "m", "COPILOT_MAX_RETRIES": "0",
               "COPILOT_MEMORY": "off", "COPILOT_READINESS": "off", "DATA_DIR": str(tmp_path),
               "LAB_TOKEN": LAB_TOKEN}
        settings = load_settings(env=env, secrets_path=Path("/nonexistent/secrets.toml"))
        copilot = Copilot.from_settings(settings, repo)
        state = ChatState(username="local", provider=provider_from_settings(settings))
        state.start_analysis(CHIP, QID, analysis_request(CHIP, QID))
        collected.clear()
        turn = copilot.ask(state, state.take_pending() or "")
        requests = len(server.requests)
    return turn, counted.reads, collected, requests


def test_the_review_reads_each_fact_once(counted_review):
    turn, reads, _, requests = counted_review
    assert turn.answer is not None and turn.answer.blocks[0].text.startswith(f"### Q05 on {CHIP}")
    assert requests == 1  # the review's one model round (refused: the report stands)
    assert reads == expected_reads()


def test_the_review_collects_its_secrets_once_and_cleans_its_answer_of_the_turn_services_secrets(counted_review):
    turn, _, collected, _ = counted_review
    review = turn.answer.blocks[1].text
    assert review.startswith("**Review missing**") and "HTTP 403" in review and "model m is not enabled" in review
    assert LAB_TOKEN not in turn.answer.text and LAB_TOKEN not in (turn.answer.error or "")
    assert len(collected) == 1
