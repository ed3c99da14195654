"""get_task_figure: the lab's figure goes to the page as a chart block; the model reads one line."""

from __future__ import annotations

import base64
import json

import pytest

from copilot_core.agent import AgentRequest, run_copilot
from copilot_core.answer.blocks import ChartBlock
from copilot_core.figures import FigureRoot
from copilot_core.tools import DataStore, Toolkit
from tests.fakes.scripted_openai import answer, call, scripted_openai  # noqa: F401  (fixture)
from tests.figures.conftest import CHIP, PREFIX

T1_LINE = ("CheckT1 fit of Q00 (completed, 2025-06-07 09:01 UTC, execution 20250606-001): t1 = 45.3 ± 0.9 μs.")


@pytest.fixture
def kit(qdash_figures) -> Toolkit:
    toolkit = Toolkit(qdash_figures.repo, store=DataStore(), figures=FigureRoot(qdash_figures.root, PREFIX))
    toolkit.begin_request(CHIP)
    return toolkit


def test_a_json_figure_becomes_a_chart_and_the_model_gets_one_line(kit, qdash_figures):
    out = kit.execute("get_task_figure", {"chip_id": CHIP, "qid": "0", "parameter_name": "t1"})
    assert out.ok, out.model_text
    note = "Figure shown to the user below your answer. Describe it only from this line."
    assert json.loads(out.model_text) == {"chip_id": CHIP, "answer": T1_LINE, "chart": note}
    assert len(out.charts) == 1 and list(out.charts[0]["data"][0]["y"]) == qdash_figures.t1_y
    by_task = kit.execute("get_task_figure", {"chip_id": CHIP, "qid": "0", "task_name": "CheckT1"})
    assert by_task.charts == out.charts


def test_a_png_travels_as_an_embedded_image_chart(kit, qdash_figures):
    out = kit.execute("get_task_figure", {"chip_id": CHIP, "qid": "1", "task_name": "X90InterleavedRandomizedBenchmarking"})
    assert out.ok, out.model_text
    source = out.charts[0]["layout"]["images"][0]["source"]
    assert base64.b64decode(source.removeprefix("data:image/png;base64,")) == qdash_figures.png
    assert "base64" not in out.model_text and "x90_gate_fidelity = 99.91 ± 0.01%" in out.model_text


@pytest.mark.parametrize("args, fragment", [
    ({"qid": "1", "task_name": "CheckT2Echo"}, "figure file not found"),
    ({"qid": "2", "task_name": "CheckT1"}, "leads outside the figure directory"),
    ({"qid": "9", "task_name": "CheckT1"}, "no completed CheckT1 result on Q09"),
    ({"qid": "0-1", "task_name": "CheckCZ"}, "no task named CheckCZ ran on 16Qa; the nearest"),
    ({"qid": "0"}, "give task_name or parameter_name"),
    ({"qid": "99", "parameter_name": "t1"}, "Q99 does not exist"),
])
def test_what_cannot_be_shown_is_an_error_for_the_model(kit, args, fragment):
    out = kit.execute("get_task_figure", {"chip_id": CHIP, **args})
    assert not out.ok and fragment in out.model_text and not out.charts


def test_offered_only_with_a_figure_directory(qdash_figures):
    assert "get_task_figure" not in Toolkit(qdash_figures.repo, store=DataStore()).names()


def test_show_me_the_latest_t1_fit_through_the_model(scripted_openai, kit, qdash_figures):  # noqa: F811
    scripted_openai.push(call("get_task_figure", {"chip_id": CHIP, "qid": "0", "parameter_name": "t1"}),
                         answer("Here is Q00's latest T1 fit: T1 = 45.31 ± 0.92 μs.", "good"))
    result = run_copilot(AgentRequest("show me Q0's latest T1 fit", chip_id=CHIP),
                         provider=scripted_openai.provider("chat_completions"), toolkit=kit, repo=qdash_figures.repo)
    assert result.error is None, result.error
    charts = [b.figure for b in result.blocks if isinstance(b, ChartBlock)]
    assert len(charts) == 1 and list(charts[0]["data"][0]["y"]) == qdash_figures.t1_y
    sent = json.dumps(scripted_openai.bodies(), ensure_ascii=False)
    assert T1_LINE in sent
    assert "0.61" not in sent and "0.37" not in sent  # the figure's points never reached the model


def test_the_router_offers_it_for_a_fit_question():
    from copilot_core.routing.router import route

    assert "get_task_figure" in route("show me Q17's latest T1 fit").names
    assert "get_task_figure" not in route("What is the median T1 on 64Qv3?").names


@pytest.mark.parametrize("reply", [
    "Would you like me to show the fit of Q00's T1?",
    "Here is Q00's latest T1 fit: T1 = 45.3 ± 0.9 μs. Would you like me to compare it with the previous run?",
])
def test_a_figure_request_answers_with_a_sentence_not_a_question(reply, scripted_openai, kit, qdash_figures):  # noqa: F811
    """"Show me the fit of Q0's T1": the answer states what the figure is (from the figure tool's line) and asks
    nothing back; the figure is drawn."""
    scripted_openai.push(call("get_task_figure", {"chip_id": CHIP, "qid": "0", "parameter_name": "t1"}),
                         answer(reply, "good"))
    result = run_copilot(AgentRequest("show me the fit of Q0's T1", chip_id=CHIP),
                         provider=scripted_openai.provider("chat_completions"), toolkit=kit, repo=qdash_figures.repo)
    assert result.error is None, result.error
    charts = [b.figure for b in result.blocks if isinstance(b, ChartBlock)]
    assert len(charts) == 1 and list(charts[0]["data"][0]["y"]) == qdash_figures.t1_y
    text = result.answer.replace("\\", "")
    assert "?" not in text, text
    assert "45.3 ± 0.9 μs" in text and "T1" in text
