"""Which task, coupling, run or qubit fails most, in the wordings of ``tests/dev_fails9.py``, through the page's path
(``Copilot.ask``, the real openai SDK against the scripted server over HTTP): what the person reads names the subject
at the top of the count the question asks for, over its scope (a window, one run, one task), with that count; a
total count, another pair or another run written with no call is replaced by the ranking; a model's call over every
stored run for one run's question is re-made; a window of the newest runs is ranked over those runs; a tie names
every subject with the one count.  Expected subjects and counts are the hand-written pymongo reads of
``tests/dev_fails9.py`` and ``tests/dev_runs21.py``."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from tests import dev_fails9, dev_runs21
from tests.agent.page_turn import SMALL, asked_on_small, page_turn, shown
from tests.dev_fails7 import label
from tests.eval_score import problems
from tests.fakes.scripted_models import caller_then_quoter, quoter
from tests.fakes.scripted_openai import text
from tests.public_eval import CHIP, OTHER

REPLACED = "was replaced by one computed from the tool results"


def test_the_quoter_answers_every_dev_question(demo_db, repo, scripted_openai, tmp_path):
    scripted_openai.smart = quoter
    wrong = []
    for question, _ in dev_fails9.planned(demo_db):
        said = shown(page_turn(repo, scripted_openai, tmp_path, question.text, SMALL))
        if found := problems(question.truth, said):
            wrong.append((question.id, found, said))
    assert not wrong, wrong


def _names_all(said: str, keys: list[str], n: int) -> bool:
    return all(re.search(label(k), said) for k in keys) and f"{n} of" in said


def _writes(answer: str):
    return lambda request: text(answer)


def test_a_total_count_for_which_task_is_replaced_by_the_task_ranking(demo_db, repo, scripted_openai, tmp_path):
    counts = dev_fails9.failures(demo_db, CHIP, "task")
    keys, n = dev_fails9.top(counts)
    scripted_openai.smart = _writes(f"{sum(counts.values())} tasks failed on 64Qv3.")
    said = shown(page_turn(repo, scripted_openai, tmp_path, "Which calibration step breaks the most?", SMALL))
    assert REPLACED in said and _names_all(said, keys, n), said


def test_another_pair_named_as_the_top_is_replaced(demo_db, repo, scripted_openai, tmp_path):
    counts = dev_fails9.failures(demo_db, OTHER, "coupling")
    keys, n = dev_fails9.top(counts)
    other = next(k for k, m in counts.most_common() if m < n)
    a, b = other.split("-")
    scripted_openai.smart = _writes(f"Q{int(a):02d}-Q{int(b):02d} fails most, with {n} failed tasks.")
    said = shown(page_turn(repo, scripted_openai, tmp_path, "Which connection breaks the most on 144Qv2?", SMALL))
    assert REPLACED in said and _names_all(said, keys, n), said


def test_another_run_named_as_the_worst_is_replaced(demo_db, repo, scripted_openai, tmp_path):
    counts = dev_fails9.failures(demo_db, OTHER, "run")
    keys, n = dev_fails9.top(counts)
    other, m = next((k, m) for k, m in counts.most_common() if m < n)
    scripted_openai.smart = _writes(f"Execution {other} had the most failed tasks: {m}.")
    said = shown(page_turn(repo, scripted_openai, tmp_path,
                           "Which execution was the worst in terms of failures on 144Qv2?", SMALL))
    assert REPLACED in said and _names_all(said, keys, n), said


@pytest.mark.parametrize("question, name, args, chip, run", [
    ("Which qubit failed the most in execution {run}?", "failure_ranking", {"by": "qubit"}, OTHER, "named"),
    ("Which qubit failed most in the latest run?", "get_run_failures", {}, CHIP, None),
    ("Which qubit had the most failures in the last execution on 144Qv2?", "failure_ranking",
     {"chip_id": OTHER, "by": "qubit", "days": 7}, OTHER, None),
])
def test_a_model_ranking_over_every_run_for_one_runs_question_is_re_made(question, name, args, chip, run, demo_db,
                                                                         repo, scripted_openai, tmp_path):
    run = dev_fails9.failing_run(demo_db, OTHER, 3) if run == "named" else run
    question = question.format(run=run)
    keys, n = dev_fails9.top(dev_fails9.failures(demo_db, chip, "qubit", run=run or dev_fails9.newest_run(demo_db,
                                                                                                          chip)))
    scripted_openai.smart = caller_then_quoter(name, {"chip_id": CHIP, **args})
    said = asked_on_small(repo, scripted_openai, tmp_path, question, "off")
    assert _names_all(said, keys, n), said


def test_a_model_ranking_every_task_for_one_tasks_question_is_re_made(demo_db, repo, scripted_openai, tmp_path):
    keys, n = dev_fails9.top(dev_fails9.failures(demo_db, CHIP, "qubit", task="CheckT1"))
    scripted_openai.smart = caller_then_quoter("failure_ranking", {"chip_id": CHIP, "by": "qubit"})
    said = asked_on_small(repo, scripted_openai, tmp_path, "Which qubit fails CheckT1 the most?", "off")
    assert _names_all(said, keys, n) and "CheckT1" in said, said


def test_a_tie_names_every_subject_with_the_one_count(demo_db, repo, scripted_openai, tmp_path):
    keys, n = dev_fails9.top(dev_fails9.failures(demo_db, CHIP, "qubit", run=dev_fails9.newest_run(demo_db, CHIP)))
    assert len(keys) >= 2  # the demo's newest run on 64Qv3 has a tie at the top
    scripted_openai.smart = quoter
    said = shown(page_turn(repo, scripted_openai, tmp_path, "Which qubit failed most in the latest run?", SMALL))
    assert _names_all(said, keys, n) and "tied" in said and f"{n} of" in said, said


def test_a_run_window_is_ranked_over_those_runs(demo_db, repo, scripted_openai, tmp_path):
    counts: Counter = Counter(d["qid"] for d in dev_runs21.in_runs(demo_db, CHIP, 5) if "-" not in d["qid"])
    keys, n = dev_fails9.top(counts)
    assert counts != dev_fails9.failures(demo_db, CHIP, "qubit")  # five runs are not every stored run
    scripted_openai.smart = quoter
    said = shown(page_turn(repo, scripted_openai, tmp_path, "Which qubit failed most in the last 5 runs?", SMALL))
    assert _names_all(said, keys, n) and "last 5 runs" in said, said
