"""Agent-loop fixtures: the scripted OpenAI server, a provider pointing at it, and a tool-layer double.

The double stands in for ``copilot_core.tools.Toolkit`` (same three methods, the real ``ToolOutcome``)
so loop tests control tool behaviour exactly; integration tests use the real Toolkit.
"""

from __future__ import annotations

import json

import pytest

from copilot_core.tools import ToolOutcome
from tests.fakes.scripted_openai import scripted_openai  # noqa: F401  (fixture)

CHART_MARKER = "CHART-MARKER-7f3a"
HEATMAP = {"data": [{"type": "heatmap", "z": [[1.0, 2.0]], "name": CHART_MARKER}], "layout": {"title": {"text": "t1"}}}
T1_VALUE = 42.5


class DoubleToolkit:
    """Test double of the Toolkit interface: schemas(), begin_request(), execute() -> ToolOutcome."""

    def __init__(self) -> None:
        self.executed: list[tuple[str, str | dict]] = []
        self.begun = 0

    def schemas(self) -> list[dict]:
        qubit = {"type": "object", "properties": {"chip_id": {"type": "string"}, "qid": {"type": "string"}},
                 "required": ["chip_id", "qid"], "additionalProperties": False}
        heat = {"type": "object", "properties": {"chip_id": {"type": "string"}, "metric_name": {"type": "string"}},
                "required": ["chip_id", "metric_name"], "additionalProperties": False}
        return [{"name": "get_qubit_params", "description": "Current parameters of one qubit.", "parameters": qubit},
                {"name": "generate_chip_heatmap", "description": "Chip heatmap of a metric.", "parameters": heat},
                {"name": "explode", "description": "Always fails inside.", "parameters": {"type": "object"}}]

    def begin_request(self, chip_id: str | None = None) -> None:
        self.begun += 1

    def execute(self, name: str, raw_args: str | dict) -> ToolOutcome:
        self.executed.append((name, raw_args))
        args = json.loads(raw_args) if isinstance(raw_args, str) else raw_args
        if name == "get_qubit_params":
            body = {"qid": args["qid"], "t1": {"value": T1_VALUE, "unit": "μs"}}
            return ToolOutcome(name, args, True, json.dumps(body), f"qubit {args['qid']}: t1 {T1_VALUE} μs",
                               full=body)
        if name == "generate_chip_heatmap":
            body = {"median": 50.1, "unit": "μs", "note": "Chart generated; it will be appended to your answer."}
            return ToolOutcome(name, args, True, json.dumps(body), "heatmap drawn", charts=[HEATMAP], full=body)
        raise RuntimeError("kaboom")


@pytest.fixture
def toolkit() -> DoubleToolkit:
    return DoubleToolkit()


@pytest.fixture(params=["responses", "chat_completions"])
def style(request) -> str:
    """Each loop test runs on both APIs."""
    return request.param


@pytest.fixture(autouse=True)
def _no_project_secrets(monkeypatch, tmp_path):
    """Never read the developer's real secrets file; tests set the env they need."""
    monkeypatch.setenv("CALIBRATION_COPILOT_SECRETS", str(tmp_path / "no-secrets.toml"))
    for key in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "COPILOT_MODEL", "COPILOT_API_STYLE", "MONGODB_URI"):
        monkeypatch.delenv(key, raising=False)
