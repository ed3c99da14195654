"""The questions of ``tests/dev_counts9.py`` on the page's path (``Copilot.ask``, clarification on, memory off, the
chip in view) through the real openai SDK against the scripted server, over data whose newest runs cross midnight UTC:
what the person reads.

Router on, every dev question ends with the count (or the two chips' counts, or the two chips' statistics, the better
first) a hand-written pymongo read gives.  Router off, a model that calls a listing, another kind or another window
gets its call re-made; a model whose call does not fit its tool, or whose reply the server cannot parse, gets the
router's call at once, in one more request at most, never an error.
"""

from __future__ import annotations

import pytest

from tests import dev_counts9
from tests.agent.page_turn import SMALL, page_turn, shown
from tests.agent.page_turn import asked_on_small as _ask
from tests.fakes.scripted_models import caller_then_quoter, quoter, silent
from tests.fakes.scripted_openai import unparsable
from tests.public_eval import CHIP, OTHER, Question, passed

NOTE = "Note:"


@pytest.fixture(scope="module")
def dev(midnight) -> dict[str, Question]:
    return {q.id: q for q in dev_counts9.build(midnight)}


@pytest.mark.parametrize("model", ["silent", "quoter"])
def test_the_router_answers_every_dev_question_right(model, dev, mrepo, scripted_openai, tmp_path):
    scripted_openai.smart = {"silent": silent, "quoter": quoter}[model]
    wrong = []
    for q in dev.values():
        said = _ask(mrepo, scripted_openai, tmp_path, q.text, "on")
        if not passed(q, said, 0) or NOTE in said:
            wrong.append(f"{q.id}: {said[:500]}")
    assert not wrong, "\n".join(wrong)


def _c(**args) -> dict:
    return {"chip_id": CHIP, **args}


WRONG_CALLS = [
    ("c9-count-1", "get_run_failures", {"chip_id": OTHER}),  # one run's failures for a 3-day count
    ("c9-count-2", "search_task_results", _c(status="excluded")),  # no such status: "0, no data"
    ("c9-count-3", "count_in_window", {"chip_id": OTHER, "what": "task results", "days": 10}),
    ("c9-count-4", "count_in_window", _c(what="excluded tasks")),  # the day of the month dropped
    ("c9-count-9", "count_in_window", _c(what="failed tasks", from_date="---18")),  # failed tasks for failed runs
    ("c9-count-10", "get_calibration_notes", _c(last_n=10)),  # a listing for a count of notes
    ("c9-count-15", "count_in_window", _c(what="failed tasks", days=7)),
    ("c9-distinct-18", "count_in_window", _c(what="failed tasks", days=3)),  # results for distinct qubits
    ("c9-chips-1", "count_in_window", _c(what="failed tasks", chip_ids=[CHIP, OTHER])),  # the window dropped
    ("c9-chips-5", "count_in_window", _c(what="runs", chip_ids=[CHIP, OTHER], days=5)),
    ("c9-stat-1", "get_chip_summary", _c(param_names=["t2_echo"])),  # one chip for a statistic per chip
    ("c9-stat-3", "compare_chips", {"metric_name": "t1", "statistic": "mean"}),  # mean for median
]


@pytest.mark.parametrize(("qid", "name", "args"), WRONG_CALLS)
def test_a_models_call_of_another_kind_window_or_tool_is_re_made(qid, name, args, dev, mrepo, scripted_openai,
                                                                  tmp_path):
    scripted_openai.smart = caller_then_quoter(name, args)
    said = _ask(mrepo, scripted_openai, tmp_path, dev[qid].text, "off")
    assert passed(dev[qid], said, 0), said
    assert NOTE not in said, said


UNFIT = [("c9-count-2", "count_in_window", _c(what="skipped tasks", days=10)),  # no such kind
         ("c9-count-12", "count_in_window", {"chip_id": OTHER, "what": "notes", "from_date": "the 22nd"}),
         ("c9-chips-2", "count_in_window", _c(what="failed tasks", chip_ids=[CHIP, OTHER], days="three")),
         ("c9-count-7", "get_execution_history", {"chip_id": OTHER, "last_n": 500})]


@pytest.mark.parametrize(("qid", "name", "args"), UNFIT)
def test_a_call_that_does_not_fit_gets_the_routers_call_at_once(qid, name, args, dev, mrepo, scripted_openai,
                                                                 tmp_path):
    scripted_openai.smart = caller_then_quoter(name, args)
    said = _ask(mrepo, scripted_openai, tmp_path, dev[qid].text, "off")
    assert passed(dev[qid], said, 0), said
    assert scripted_openai.calls_made == 2, scripted_openai.calls_made  # the call, then the answer: no repair round


@pytest.mark.parametrize("qid", ["c9-count-1", "c9-count-16", "c9-distinct-19", "c9-chips-1", "c9-stat-2"])
def test_an_unreadable_call_on_a_question_the_router_answers_is_answered_at_once(qid, dev, mrepo, scripted_openai,
                                                                                 tmp_path):
    """The model's call is one the server cannot parse (llama.cpp's HTTP 500), router off so no call was made
    before it: the router's call is made at once, in the one request, and its sentence is the answer."""
    scripted_openai.push(unparsable(), unparsable())
    turn = page_turn(mrepo, scripted_openai, tmp_path, dev[qid].text, SMALL, {"COPILOT_TOOL_ROUTER": "off"})
    said = shown(turn)
    assert passed(dev[qid], said, 0), said
    assert turn.result is not None and turn.result.error is None, said
    assert scripted_openai.calls_made == 1, scripted_openai.calls_made
