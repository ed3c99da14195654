"""Failures a user would otherwise see as tracebacks: a dead database, failing or chatty analysis code."""

from __future__ import annotations

import json

import pytest

from copilot_core.data.connection import open_database
from copilot_core.data.repository import CalibrationRepository
from copilot_core.sandbox import run_analysis
from copilot_core.settings import Settings
from copilot_core.tools import DataStore, Toolkit
from copilot_core.tools.analysis import OUTPUT_CHARS


def test_unreachable_database_is_a_clear_error_without_the_password():
    settings = Settings(mongodb_uri="mongodb://alice:s3cr3t-pw@127.0.0.1:1/?serverSelectionTimeoutMS=200"
                                    "&connectTimeoutMS=200")
    kit = Toolkit(CalibrationRepository(open_database(settings)), store=DataStore())
    outcome = kit.execute("get_qubit_params", {"chip_id": "64Qv3", "qid": "5"})
    payload = json.loads(outcome.model_text)
    assert not outcome.ok and payload["error"].startswith("database unavailable")
    assert "127.0.0.1" in payload["error"] and "s3cr3t-pw" not in outcome.model_text + outcome.summary


@pytest.fixture
def sandbox():
    return run_analysis


def test_failing_code_reports_the_error_and_keeps_the_output(repo, sandbox):
    kit = Toolkit(repo, store=DataStore(), sandbox=sandbox)
    outcome = kit.execute("execute_python_analysis", {"code": "print('before')\nx = data['missing']\n"})
    payload = json.loads(outcome.model_text)
    assert not outcome.ok and outcome.error and payload["error"] == outcome.error
    assert "missing" in payload["error"] and payload["datasets"] == []
    assert outcome.summary.startswith("python analysis on 0 dataset(s): failed")


def test_chatty_code_is_capped(repo, sandbox):
    kit = Toolkit(repo, store=DataStore(), sandbox=sandbox)
    outcome = kit.execute("execute_python_analysis", {"code": "for i in range(3000):\n    print('x' * 9)\n"})
    payload = json.loads(outcome.model_text)
    assert outcome.ok and len(payload["output"]) < OUTPUT_CHARS + 40 and "more chars" in payload["output"]
