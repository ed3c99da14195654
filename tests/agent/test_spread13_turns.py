"""Spread statistics named loosely and runs ranked by failures, through the page's path (``Copilot.ask``, the real
openai SDK against the scripted server over HTTP): what the person reads states the statistic asked, named as
such, in the unit asked, and the run with the most failed tasks with its count.  A model that calls another
statistic or one run's breakdown is re-made; one that writes one statistic's number under another's name is
not left standing.  Expected values are the hand-written reads of ``tests/dev_spread13.py``."""

from __future__ import annotations

import pytest

from tests import dev_spread13
from tests.agent.page_turn import SMALL, asked_on_small, page_turn, shown
from tests.dev_fails7 import label
from tests.dev_fails8 import failed_by, top
from tests.eval_score import problems
from tests.fakes.scripted_models import caller_then_quoter, quoter, silent
from tests.fakes.scripted_openai import call, text
from tests.public_eval import CHIP, OTHER


def test_the_quoter_answers_every_dev_question(demo_db, repo, scripted_openai, tmp_path):
    scripted_openai.smart = quoter
    wrong = []
    for question, _ in dev_spread13.planned(demo_db):
        said = shown(page_turn(repo, scripted_openai, tmp_path, question.text, SMALL))
        if found := problems(question.truth, said):
            wrong.append((question.id, found, said))
    assert not wrong, wrong


def test_a_silent_model_still_states_the_statistic_asked(demo_db, repo, scripted_openai, tmp_path):
    scripted_openai.smart = silent
    wrong = []
    for spread in dev_spread13.SPREADS[::3]:
        question = spread.question(demo_db)
        said = shown(page_turn(repo, scripted_openai, tmp_path, question.text, SMALL))
        if found := problems(question.truth, said):
            wrong.append((question.id, found, said))
    assert not wrong, wrong


@pytest.mark.parametrize("question, given, stat", [
    ("What is the population standard deviation of T1?", "std", "pstd"),
    ("T1 max less min?", "std", "range"),
    ("σ of T1", "iqr", "std"),
    ("MAD of T1", "std", "mad"),
])
def test_a_model_calling_another_statistic_is_re_made(question, given, stat, demo_db, repo, scripted_openai,
                                                      tmp_path):
    value = dev_spread13.spread_of(dev_spread13.chip_values(demo_db, CHIP, "t1"), stat)
    scripted_openai.smart = caller_then_quoter("metric_spread", {"chip_id": CHIP, "metric_name": "t1", "lead": given})
    said = asked_on_small(repo, scripted_openai, tmp_path, question, "off")
    assert f"{dev_spread13.NAMED[stat].replace(chr(92), '')} {value:.1f}" in said, said


def _calls_then_writes(name: str, args: dict, answer: str):
    def reply(request):
        if request.has_tools and not request.tool_results:
            return call(name, args)
        return text(answer)
    return reply


@pytest.mark.parametrize("stat, called", [("iqr", "std"), ("range", "std"), ("std", "iqr"), ("pstd", "range")])
def test_a_number_of_one_statistic_written_as_another_is_not_left_standing(stat, called, demo_db, repo,
                                                                           scripted_openai, tmp_path):
    values = dev_spread13.chip_values(demo_db, CHIP, "t1")
    right, other = dev_spread13.spread_of(values, stat), dev_spread13.spread_of(values, called)
    name = dev_spread13.NAMED[stat].replace("\\", "").split(" (")[0]
    scripted_openai.smart = _calls_then_writes("metric_spread", {"chip_id": CHIP, "metric_name": "t1", "lead": stat},
                                               f"The {name} of T1 on {CHIP} is {other:.1f} μs.")
    said = asked_on_small(repo, scripted_openai, tmp_path, f"What is the {name} of T1?", "off")
    standing = f"{name} of T1 on {CHIP} is {other:.1f} μs." in said and "(not checked)" not in said \
        and "replaced" not in said
    assert not standing and f"{right:.1f}" in said, said


@pytest.mark.parametrize("question, name, args, chip", [
    ("Which execution had the highest failure count?", "get_run_failures", {}, CHIP),
    ("which batch failed worst on 144Qv2", "failure_ranking", {"by": "task"}, OTHER),
    ("the worst execution", "get_run_failures", {}, CHIP),
])
def test_a_ranking_of_runs_answered_with_one_runs_breakdown_is_re_made(question, name, args, chip, demo_db, repo,
                                                                       scripted_openai, tmp_path):
    keys, n = top(failed_by(demo_db, chip, "run"))
    scripted_openai.smart = caller_then_quoter(name, {"chip_id": CHIP, **args})
    said = asked_on_small(repo, scripted_openai, tmp_path, question, "off")
    assert all(__import__("re").search(label(k), said) for k in keys) and f"{n} of" in said, said


@pytest.mark.parametrize("stat", ["std", "pstd", "iqr", "range", "mad"])
def test_the_right_statistic_under_its_own_name_stands(stat, demo_db, repo, scripted_openai, tmp_path):
    right = dev_spread13.spread_of(dev_spread13.chip_values(demo_db, CHIP, "t1"), stat)
    name = dev_spread13.NAMED[stat].replace("\\", "").split(" (")[0]
    answer = f"The {name} of T1 on {CHIP} is {right:.1f} μs."
    scripted_openai.smart = _calls_then_writes("metric_spread", {"chip_id": CHIP, "metric_name": "t1", "lead": stat},
                                               answer)
    said = asked_on_small(repo, scripted_openai, tmp_path, f"What is the {name} of T1?", "off")
    assert said.startswith(answer) and "(not checked)" not in said, said
