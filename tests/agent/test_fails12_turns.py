"""The questions of ``tests/dev_fails12.py`` on the page's path (``Copilot.ask``, the real openai SDK against the
scripted server over HTTP).  Router on, every dev question ends with the subject and count (or the count) a
hand-written pymongo read gives; a ranking asked over the active qubits names no qubit the chip marks inactive; a
named month is said with its own dates; a window word no reading takes is said, not silently every stored run."""

from __future__ import annotations

import re

import pytest

from tests import dev_fails12
from tests.agent.page_turn import SMALL, page_turn, shown
from tests.dev_fails7 import label
from tests.fakes.scripted_models import quoter
from tests.public_eval import CHIP, OTHER, Question, passed


@pytest.fixture(scope="module")
def dev(demo_db) -> dict[str, tuple[Question, tuple[str, dict]]]:
    return {q.id: (q, c) for q, c in dev_fails12.planned(demo_db)}


def test_the_router_answers_every_dev_question_right(dev, repo, scripted_openai, tmp_path):
    scripted_openai.smart = quoter
    wrong = []
    for q, _ in dev.values():
        said = shown(page_turn(repo, scripted_openai, tmp_path, q.text, SMALL))
        if not passed(q, said, 0) or "Note:" in said:
            wrong.append(f"{q.id}: {said[:400]}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("qid, chip", [("f12-sub-4", CHIP), ("f12-sub-5", OTHER), ("f12-att-6", OTHER)])
def test_a_ranking_over_the_active_qubits_names_no_inactive_one(qid, chip, dev, demo_db, repo, scripted_openai,
                                                               tmp_path):
    question, _ = dev[qid]
    dead = dev_fails12.inactive(demo_db, chip)
    assert dead
    scripted_openai.smart = quoter
    said = shown(page_turn(repo, scripted_openai, tmp_path, question.text, SMALL))
    lead = said.split(":")[0]  # the names ranked first
    assert not [q for q in dead if re.search(label(q), lead)], said
    assert "inactive" in said, said


def test_a_named_month_is_said_with_its_own_dates(dev, demo_db, repo, scripted_openai, tmp_path):
    question, (_, args) = dev["f12-month-1"]
    end = dev_fails12.last_day(demo_db, CHIP)
    scripted_openai.smart = quoter
    said = shown(page_turn(repo, scripted_openai, tmp_path, question.text, SMALL))
    assert passed(question, said, 0), said
    assert f"{end:%Y}-{args['from_date']}" in said and f"{end:%Y}-{args['to_date']}" in said, said
    assert f"the whole month of {end:%B %Y}" in said and "ending on the day of the newest run" not in said, said


def test_a_window_word_no_reading_takes_is_said(repo, scripted_openai, tmp_path):
    scripted_openai.smart = quoter
    said = shown(page_turn(repo, scripted_openai, tmp_path, "How many tasks failed during the last sprint?", SMALL))
    assert "\"during the last sprint\" could not be read" in said, said


def test_this_morning_is_said_as_the_newest_runs_whole_day(dev, repo, scripted_openai, tmp_path):
    question, _ = dev["f12-win-8"]
    scripted_openai.smart = quoter
    said = shown(page_turn(repo, scripted_openai, tmp_path, question.text, SMALL))
    assert passed(question, said, 0) and "\"this morning\" is read as the whole UTC day" in said, said
