""""Which qubit / coupling / run fails most" (and never fails, and a chip's failure rate) through the page's path
(``Copilot.ask``, the real openai SDK against the scripted server over HTTP): what the person reads names the subject
the question ranks, over its window and family, with the count the data gives.  A model that calls another tool or
subject is re-made; one that writes no call and names another subject, or states another count, is replaced; a pair
named the other way round is the same coupling.  Expected subjects and counts are the hand-written pymongo reads of
``tests/dev_fails8.py``."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from tests import dev_fails8
from tests.agent.page_turn import SMALL, asked_on_small, page_turn, shown
from tests.dev_fails7 import label
from tests.eval_score import problems
from tests.fakes.scripted_models import caller_then_quoter, quoter, silent
from tests.fakes.scripted_openai import text
from tests.public_eval import CHIP, OTHER

REPLACED = "was replaced by one computed from the tool results"


def test_the_quoter_answers_every_dev_question(demo_db, repo, scripted_openai, tmp_path):
    scripted_openai.smart = quoter
    wrong = []
    for question, _ in dev_fails8.planned(demo_db):
        said = shown(page_turn(repo, scripted_openai, tmp_path, question.text, SMALL))
        if found := problems(question.truth, said):
            wrong.append((question.id, found, said))
    assert not wrong, wrong


def _top(db, chip: str, by: str) -> tuple[list[str], int]:
    return dev_fails8.top(dev_fails8.failed_by(db, chip, by))


def _names_all(said: str, keys: list[str], n: int) -> bool:
    return all(re.search(label(k), said) for k in keys) and f"{n} of" in said


@pytest.mark.parametrize("question, name, args, chip, by", [
    ("Which qubit has the most failed calibrations?", "get_run_failures", {}, CHIP, "qubit"),
    ("What's the worst qubit for failures on 144Qv2?", "failure_ranking", {"by": "task"}, OTHER, "qubit"),
    ("Which calibration run went worst?", "get_run_failures", {}, CHIP, "run"),
    ("Which run had the most failures?", "failure_ranking", {"by": "qubit"}, CHIP, "run"),
    ("Which coupling fails the most?", "count_in_window", {"what": "failed tasks"}, CHIP, "coupling"),
    ("Which coupling fails the most on 144Qv2?", "failure_ranking", {"chip_id": OTHER, "by": "coupling", "days": 3},
     OTHER, "coupling"),
])
def test_a_model_calling_another_tool_subject_or_window_is_re_made(question, name, args, chip, by, demo_db, repo,
                                                                   scripted_openai, tmp_path):
    keys, n = _top(demo_db, chip, by)
    scripted_openai.smart = caller_then_quoter(name, {"chip_id": CHIP, **args})
    said = asked_on_small(repo, scripted_openai, tmp_path, question, "off")
    assert _names_all(said, keys, n), said


def test_a_ranking_over_every_run_for_this_weeks_question_is_re_made_over_the_week(demo_db, repo, scripted_openai,
                                                                                    tmp_path):
    end = dev_fails8.last_day(demo_db, CHIP)
    keys, n = dev_fails8.top(dev_fails8.failed_by(demo_db, CHIP, "qubit", end - timedelta(days=end.weekday())))
    scripted_openai.smart = caller_then_quoter("failure_ranking", {"chip_id": CHIP, "by": "qubit"})
    said = asked_on_small(repo, scripted_openai, tmp_path, "worst qubit for failures this week", "off")
    assert _names_all(said, keys, n), said


def _writes(answer: str):
    return lambda request: text(answer)


def test_a_model_writing_no_call_that_names_the_latest_runs_failed_qubit_is_replaced(demo_db, repo,
                                                                                     scripted_openai, tmp_path):
    keys, n = _top(demo_db, CHIP, "qubit")
    other = next(k for k, _ in dev_fails8.failed_by(demo_db, CHIP, "qubit").most_common() if k not in keys)
    scripted_openai.smart = _writes(f"Q{int(other):02d} fails most: it failed {n} times.")
    said = shown(page_turn(repo, scripted_openai, tmp_path, "Which qubit keeps failing?", SMALL))
    assert REPLACED in said and _names_all(said, keys, n), said


def test_own_words_per_qubit_counts_that_the_data_does_not_give_are_replaced(demo_db, repo, scripted_openai,
                                                                              tmp_path):
    counts = dev_fails8.failed_by(demo_db, CHIP, "qubit")
    keys, n = dev_fails8.top(counts)
    made_up = max(counts.values()) + 3  # no qubit has it, no total of the sentence is it
    assert made_up not in counts.values()
    scripted_openai.smart = _writes(" and ".join(f"Q{int(k):02d}" for k in keys) + f" fail most, {made_up} times "
                                    "each.")
    said = shown(page_turn(repo, scripted_openai, tmp_path, "How many failures per qubit?", SMALL))
    assert REPLACED in said and _names_all(said, keys, n), said


def _coupling_top(db, chip: str) -> tuple[str, int]:
    keys, n = _top(db, chip, "coupling")
    return keys[0], n


def test_the_top_pair_named_the_other_way_round_is_kept(demo_db, repo, scripted_openai, tmp_path):
    key, n = _coupling_top(demo_db, OTHER)
    a, b = key.split("-")
    assert f"{b}-{a}" not in dev_fails8.finished_by(demo_db, OTHER, "coupling")  # one direction stored
    scripted_openai.smart = _writes(f"Q{int(b):02d}-Q{int(a):02d} fails most on 144Qv2, with {n} failed tasks.")
    said = shown(page_turn(repo, scripted_openai, tmp_path, "Which coupling fails the most on 144Qv2?", SMALL))
    assert REPLACED not in said and said.startswith(f"Q{int(b):02d}-Q{int(a):02d}"), said


def test_another_pair_named_as_the_top_is_replaced_by_the_ranking(demo_db, repo, scripted_openai, tmp_path):
    counts = dev_fails8.failed_by(demo_db, OTHER, "coupling")
    keys, n = dev_fails8.top(counts)
    other = next(k for k, m in counts.most_common() if m < n)
    a, b = other.split("-")
    scripted_openai.smart = _writes(f"Q{int(b):02d}-Q{int(a):02d} fails most on 144Qv2, with {n} failed tasks.")
    said = shown(page_turn(repo, scripted_openai, tmp_path, "most unreliable coupling on 144Qv2", SMALL))
    assert REPLACED in said and _names_all(said, keys, n), said


def test_a_silent_model_still_reads_the_run_ranking_of_the_window(demo_db, repo, scripted_openai, tmp_path):
    end = dev_fails8.last_day(demo_db, CHIP)
    keys, n = dev_fails8.top(dev_fails8.failed_by(demo_db, CHIP, "run", end - timedelta(days=9)))
    scripted_openai.smart = silent
    said = shown(page_turn(repo, scripted_openai, tmp_path, "which run had the most failed tasks in the last 10 days",
                           SMALL))
    assert _names_all(said, keys, n), said
