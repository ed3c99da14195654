"""One label for a qubit or coupling in every text the copilot writes: on the demo's 144-qubit chip qubit 17 is
``Q017`` and a coupling ``Q017→Q018``-shaped, in the model's context block, the analysis request and its chat
title, tool sentences and tool errors, follow-up questions, the drawn chart's legend and hover, and the one-click
review's facts.  No text may hold the bare forms ``qubit 17``, ``Q17`` or ``17-18``.  Expected labels written by
hand."""

from __future__ import annotations

import json
import re
from datetime import datetime, timedelta

import pytest

from copilot_core.agent.context import experiment_sections, qubit_sections
from copilot_core.analysis.health import qubit_health
from copilot_core.chat.state import ChatState, analysis_request
from copilot_core.checking.verify import asked_chart
from copilot_core.review.qubit_facts import report_facts
from copilot_core.routing.followups import follow_ups
from copilot_core.tools import DataStore, Toolkit

CHIP, QID, LABEL = "144Qv2", "17", "Q017"
SHORT = re.compile(r"\bQ\d{1,2}(?!\d)")                       # Q17, Q5: two-digit labels on a 144-qubit chip
BARE_QUBIT = re.compile(r"\bqubits? \d+\b", re.IGNORECASE)     # "qubit 17"
BARE_COUPLING = re.compile(r"(?<![\w.:-])\d{1,3}-\d{1,3}(?![\w.:-]| \d\d:)")  # "17-18", not a date "11-29 01:22"


def bare_forms(text: str) -> list[str]:
    return SHORT.findall(text) + BARE_QUBIT.findall(text) + BARE_COUPLING.findall(text)


def test_the_bare_form_detector_sees_each_form():
    assert bare_forms("qubit 17, Q17 and 17-18") == ["Q17", "qubit 17", "17-18"]
    assert bare_forms("Q017 and Q017→Q018 on 2026-11-29 at 12:30 (11-29 01:22), t1 = 33.2 μs") == []


@pytest.fixture(scope="module")
def chip(repo):
    row = repo.get_chip(CHIP)
    assert row["size"] == 144
    return row


def test_the_model_context_labels_every_qubit_and_coupling(repo, chip):
    block = "\n".join(qubit_sections(repo, CHIP, QID, chip, neighbours=True)
                      + experiment_sections(repo, CHIP, QID, "CheckT1", chip))
    assert f"- target qubit: {LABEL}" in block
    assert f"- {LABEL} current parameters: " in block
    assert f"## Topology neighbours of {LABEL}" in block
    assert f"## Couplings of {LABEL}" in block
    assert f"## Recent history of CheckT1 on {LABEL}" in block
    neighbours = re.findall(r"^- (Q\d+): ", block, re.MULTILINE)
    assert neighbours and all(len(n) == 4 for n in neighbours), neighbours
    couplings = re.findall(r"^- (\S+→\S+): ", block, re.MULTILINE)
    assert couplings and all(re.fullmatch(r"Q\d{3}→Q\d{3}", c) for c in couplings), couplings
    assert any(LABEL in c for c in couplings)
    assert bare_forms(block) == [], block


def test_the_analysis_request_and_its_chat_title_use_the_label():
    request = analysis_request(CHIP, QID, 144)
    assert request.startswith(f"Analyze {LABEL} on chip {CHIP}:")
    state = ChatState(username="t")
    state.start_analysis(CHIP, QID, request, 144)
    assert state.title == f"Analysis {CHIP} {LABEL}"
    assert analysis_request("64Qv3", "5", 64).startswith("Analyze Q05 on chip 64Qv3:")
    assert bare_forms(request + state.title) == []


TOOL_CALLS = [
    ("get_qubit_params", {"qid": QID}, f"{LABEL} on {CHIP}"),
    ("get_parameter_timeseries", {"parameter_name": "t1", "qid": QID, "days": 7}, f"t1 of {LABEL} on {CHIP}"),
    ("get_task_history", {"task_name": "CheckT1", "qid": QID}, f"CheckT1 on {LABEL}"),
    ("get_qubit_params", {"qid": "150"}, "Q150 does not exist on 144Qv2"),
    ("get_coupling_params", {"coupling_id": "17-18"}, "no data for coupling Q017→Q018 on 144Qv2"),
]


@pytest.mark.parametrize(("name", "args", "line"), TOOL_CALLS)
def test_tool_sentences_and_errors_use_the_label(repo, name, args, line):
    kit = Toolkit(repo, store=DataStore())
    kit.begin_request()
    out = kit.execute(name, {"chip_id": CHIP, **args})
    said = out.summary if out.ok else out.model_text
    assert line in said, said
    shown = said if not out.ok else said + json.dumps((out.full or {}).get("answer", ""), ensure_ascii=False)
    assert bare_forms(shown) == [], shown


def test_follow_ups_and_the_drawn_chart_use_the_label(repo):
    kit = Toolkit(repo, store=DataStore())
    kit.begin_request()
    question = f"Plot the T1 of {LABEL} and Q021 over the last 14 days on {CHIP}"
    out = kit.execute("get_chip_parameter_timeseries",
                      {"chip_id": CHIP, "parameter_name": "t1", "qids": ["17", "21"], "days": 14})
    assert out.ok, out.model_text
    asked = follow_ups(question, [(out.name, dict(out.args or {}))], chip_in_view=CHIP, size_of=lambda _: 144)
    assert asked and all(bare_forms(q) == [] for q in asked), asked
    charts = asked_chart(question, [out], [])
    assert len(charts) == 1
    traces = [t for t in charts[0]["data"] if t.get("name") in ("Q017", "Q021")]
    assert sorted(t["name"] for t in traces) == ["Q017", "Q021"]
    title = json.dumps(charts[0]["layout"].get("title"), ensure_ascii=False)
    hovers = " ".join(str(t.get("hovertemplate", "")) for t in charts[0]["data"])
    assert bare_forms(title + hovers) == [], title + hovers


def test_the_one_click_review_facts_use_the_label(repo):
    facts = report_facts(qubit_health(repo, CHIP, QID))
    assert LABEL in facts
    assert bare_forms(facts) == [], facts


def _window_points(db, qid: str, days: int) -> int:
    newest = db["execution_history"].find_one({"chip_id": CHIP}, sort=[("start_at", -1)])["start_at"]
    start = datetime(newest.year, newest.month, newest.day) + timedelta(days=1 - days)  # whole UTC days
    docs = db["task_result_history"].find({"chip_id": CHIP, "qid": qid, "status": "completed",
                                           "start_at": {"$gte": start}})
    return sum(1 for d in docs if not d.get("excluded") and "t1" in (d.get("output_parameters") or {}))


@pytest.mark.parametrize("name", ["get_chip_parameter_timeseries", "get_parameter_timeseries"])
def test_a_window_in_days_without_a_count_returns_every_point_of_the_window(repo, demo_db, name):
    """The walk's plot of Q021 and Q070 over 14 days drew 10 points a qubit where the data has 15: the schema's
    default count cut the window."""
    expected = {q: _window_points(demo_db, q, 14) for q in ("17", "21")}
    assert min(expected.values()) > 10, expected
    kit = Toolkit(repo, store=DataStore())
    kit.begin_request()
    got = {}
    for qid in expected:
        args = {"qids": [qid]} if name == "get_chip_parameter_timeseries" else {"qid": qid}
        out = kit.execute(name, {"chip_id": CHIP, "parameter_name": "t1", "days": 14, **args})
        assert out.ok, out.model_text
        got[qid] = len(out.full["rows"] if "rows" in out.full else out.full["points"])
    assert got == expected


@pytest.mark.parametrize("question", [
    f"What is the T1 of qubit {QID} on {CHIP}?",                    # values of one qubit
    f"How has the T1 of Q{QID} trended over the last 5 points on {CHIP}?",
    f"Plot the T1 history of qubit {QID} on {CHIP}",
    f"Where does the T1 of Q{QID} on {CHIP} come from?",
    f"Show the T1 of qubit {QID} over the last 14 days on {CHIP}",
])
def test_the_reasons_show_work_prints_name_no_qubit_in_another_form(repo, question):
    """The route's and the router call's reasons (show work's "why") name the subject by role, never by a bare id."""
    from copilot_core.agent import AgentRequest, ProviderConfig
    from copilot_core.agent.plan import plan_turn
    tools = Toolkit(repo, store=DataStore()).schemas()
    plan = plan_turn(AgentRequest(question, chip_id=CHIP), provider=ProviderConfig(api_key="k", model="m"),
                     tools=tools, repo=repo, router=True, skills=[])
    assert plan.prefetch is not None and plan.route is not None
    shown = " ".join((*plan.route.reasons, plan.prefetch.reason))
    assert "qubit asked about" in plan.prefetch.reason and bare_forms(shown) == []
