"""Two subjects compared on a derived figure through the page's path (``Copilot.ask``, the real openai SDK against
the scripted server over HTTP): what the person reads states the gap between two latest values (with its unit and
which side is higher) or their ratio, or each qubit's statistic of its history over the window asked (mean, median,
maximum, minimum, standard deviation, change), the side asked about first; a model call that reads latest values,
another window or another statistic is re-made.  Expected values are the hand-written pymongo reads of
``tests/dev_pairs10.py``."""

from __future__ import annotations

import pytest

from tests import dev_pairs10
from tests.agent.page_turn import SMALL, asked_on_small, page_turn, shown
from tests.eval_score import problems
from tests.fakes.scripted_models import caller_then_quoter, quoter, silent
from tests.fakes.scripted_openai import text


def _wrong(demo_db, repo, scripted_openai, tmp_path, model) -> list:
    scripted_openai.smart = model
    wrong = []
    for question, _ in dev_pairs10.planned(demo_db):
        said = shown(page_turn(repo, scripted_openai, tmp_path, question.text, SMALL))
        if found := problems(question.truth, said):
            wrong.append((question.id, question.text, found, said))
    return wrong


def test_the_quoter_answers_every_dev_question(demo_db, repo, scripted_openai, tmp_path):
    wrong = _wrong(demo_db, repo, scripted_openai, tmp_path, quoter)
    assert not wrong, "\n".join(map(str, wrong))


def test_a_silent_model_still_reads_every_answer_from_the_tools(demo_db, repo, scripted_openai, tmp_path):
    wrong = _wrong(demo_db, repo, scripted_openai, tmp_path, silent)
    assert not wrong, "\n".join(map(str, wrong))


def _question(demo_db, qid: str):
    return next((q, c) for q, c in dev_pairs10.planned(demo_db) if q.id == qid)


@pytest.mark.parametrize("qid, name, drop", [
    ("p10-window-1", "compare_qubits", ("days", "statistic", "parameter_name")),  # latest values for a std
    ("p10-window-8", "get_chip_parameter_timeseries", ("statistic",)),  # a mean for a drift
    ("p10-window-4", "get_chip_parameter_timeseries", ("days",)),  # every stored point for 10 days' median
    ("p10-window-10", "get_qubit_params", ("days", "statistic", "parameter_name", "qids")),  # one qubit's latest
])
def test_a_model_call_missing_the_window_or_the_statistic_is_re_made(qid, name, drop, demo_db, repo,
                                                                      scripted_openai, tmp_path):
    question, (_, args) = _question(demo_db, qid)
    given = {k: v for k, v in args.items() if k not in drop}
    if name == "compare_qubits":
        given |= {"param_names": [args["parameter_name"]]}
    if name == "get_qubit_params":
        given |= {"qid": args["qids"][0]}
    scripted_openai.smart = caller_then_quoter(name, given)
    said = asked_on_small(repo, scripted_openai, tmp_path, question.text, "off")
    assert not problems(question.truth, said), said


def test_a_dump_of_latest_values_for_a_gap_question_gets_the_gap(demo_db, repo, scripted_openai, tmp_path):
    question, _ = _question(demo_db, "p10-gap-2")
    a, b = (e.value for e in question.truth.expects[:2])
    qa, qb = (n for n in question.text.split() if n.startswith("Q"))
    scripted_openai.smart = lambda request: text(f"{qa.rstrip(chr(39) + 's')} T1 {a:.1f} μs; "
                                                 f"{qb.rstrip(chr(39) + 's?')} T1 {b:.1f} μs.")
    said = shown(page_turn(repo, scripted_openai, tmp_path, question.text, SMALL))
    assert not problems(question.truth, said), said
