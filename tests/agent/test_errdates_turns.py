"""What the person reads when a call fails or a window is written as dates, through ``Copilot.ask`` (the page's path)
with the scripted OpenAI-compatible server over real HTTP.  Truths are pymongo reads in ``tests/dev_errdates.py``."""

from __future__ import annotations

import pytest

from tests.agent.page_turn import SMALL, page_turn, shown
from tests.fakes.scripted_openai import SmartRequest, call, text

MADE_UP = "Q05 has a T1 of 12.3456 μs, the lowest on the chip."


def bad_caller(name: str, args: dict, then: str):
    """Makes one call with arguments that do not fit, then writes ``then`` (a made-up value, or nothing)."""
    def reply(request: SmartRequest):
        if request.has_tools and not request.tool_results:
            return call(name, args)
        return text(then)
    return reply

BAD_CALLS = [  # a model call whose arguments do not fit the tool's schema, each a different way
    ("filter_metrics", {"conditions": []}),
    ("filter_metric", {"metric_name": "t1", "below": "fifty"}),
    ("count_in_window", {"what": "everything", "days": 7}),
    ("failure_ranking", {"by": "colour"}),
    ("get_qubit_timeseries", {"qid": "5", "parameter_name": "t1", "last_n": -3}),
]


@pytest.mark.parametrize("then", [MADE_UP, ""])
@pytest.mark.parametrize(("name", "args"), BAD_CALLS)
def test_a_call_with_bad_arguments_is_never_shown_as_from_the_data(name, args, then, repo, scripted_openai, tmp_path):
    scripted_openai.smart = bad_caller(name, args, then)
    turn = page_turn(repo, scripted_openai, tmp_path, "Tell me something about this chip's qubits, please.",
                     env={"COPILOT_TOOL_ROUTER": "off"})
    said = shown(turn)
    print(said)
    assert "From the data" not in said, said
    for word in ("invalid", "schema", "is too short", "is not of type", "is not one of", "minItems", "ToolError"):
        assert word not in said, (word, said)


def test_a_fact_of_the_data_about_the_qubit_asked_is_still_shown_from_the_data(repo, scripted_openai, tmp_path):
    scripted_openai.smart = bad_caller("get_qubit_params", {"qid": "200"}, MADE_UP)
    said = shown(page_turn(repo, scripted_openai, tmp_path, "What is the T1 of qubit 200?",
                           env={"COPILOT_TOOL_ROUTER": "off"}))
    assert "From the data" in said and "does not exist" in said, said
    assert "12.3456" not in said, said


@pytest.mark.parametrize("question", ["How many tasks failed in October 2026?",
                                      "How many runs were there between 1 November 2026 and 15 November 2026?"])
def test_a_year_the_model_took_for_a_qubit_is_never_said_not_to_exist(question, repo, scripted_openai, tmp_path):
    scripted_openai.smart = bad_caller("get_qubit_params", {"qid": "2026"}, MADE_UP)
    said = shown(page_turn(repo, scripted_openai, tmp_path, question, env={"COPILOT_TOOL_ROUTER": "off"}))
    assert "2026 does not exist" not in said and "From the data" not in said, said
    assert "could not be computed" in said, said


def _dev(demo_db, prefix: str) -> list:
    from tests import dev_errdates
    return [q for q in dev_errdates.build(demo_db) if q.id.startswith(prefix)]


WINDOW_IDS = [f"ed-{i}" for i in range(1, 16)]


@pytest.mark.parametrize("qid", WINDOW_IDS)
@pytest.mark.parametrize("model", ["quoter", "silent"])
def test_a_window_written_as_dates_counts_what_pymongo_counts(qid, model, repo, demo_db, scripted_openai, tmp_path):
    from tests.eval_score import problems
    from tests.fakes import scripted_models

    asked = [q for q in _dev(demo_db, "ed-") if q.id == qid]
    if not asked:
        pytest.fail(f"{qid} was not built (no failure on Tuesday in the demo?)")
    question = asked[0]
    scripted_openai.smart = getattr(scripted_models, model)
    said = shown(page_turn(repo, scripted_openai, tmp_path, question.text, model=SMALL))
    assert not problems(question.truth, said), (question.text, said)
    assert "does not exist" not in said and "From the data" not in said, said


@pytest.mark.parametrize("qid", [f"ed-limit-{i}" for i in range(1, 5)])
@pytest.mark.parametrize("model", ["quoter", "silent"])
def test_a_limit_written_inclusive_counts_the_qubit_at_the_limit(qid, model, repo, demo_db, scripted_openai, tmp_path):
    from tests.eval_score import problems
    from tests.fakes import scripted_models

    question = next(q for q in _dev(demo_db, "ed-limit-") if q.id == qid)
    scripted_openai.smart = getattr(scripted_models, model)
    said = shown(page_turn(repo, scripted_openai, tmp_path, question.text, model=SMALL))
    assert not problems(question.truth, said), (question.text, said)
