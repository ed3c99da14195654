"""The questions of ``tests/dev_windows8.py`` on the page's path (``Copilot.ask``, clarification on, memory off,
the chip in view) through the real openai SDK against the scripted server, over data whose newest runs cross
midnight UTC: what the person reads.

Router on, every dev question ends with the count a hand-written pymongo read gives, the dates of its window, and
for a window in hours or with no number, how it was read.  Router off, a model that calls with another window (or
with none) gets its call re-made as the question reads it, and a model that writes no call still gets the count.
"""

from __future__ import annotations

import pytest

from tests import dev_windows8
from tests.agent.page_turn import asked_on_small as _ask
from tests.fakes.scripted_models import caller_then_quoter, quoter, silent
from tests.fakes.scripted_openai import text
from tests.public_eval import CHIP, OTHER, Question, passed

NOTE = "Note:"


@pytest.fixture(scope="module")
def dev(midnight) -> dict[str, Question]:
    return {q.id: q for q in dev_windows8.build(midnight)}


@pytest.mark.parametrize("model", ["silent", "quoter"])
def test_the_router_answers_every_dev_question_right(model, dev, mrepo, scripted_openai, tmp_path):
    scripted_openai.smart = {"silent": silent, "quoter": quoter}[model]
    wrong = []
    for q in dev.values():
        said = _ask(mrepo, scripted_openai, tmp_path, q.text, "on")
        if not passed(q, said, 0) or NOTE in said:
            wrong.append(f"{q.id}: {said[:500]}")
    assert not wrong, "\n".join(wrong)


def test_the_answer_says_how_hours_were_read_and_the_dates(dev, mrepo, scripted_openai, tmp_path):
    scripted_openai.smart = quoter
    said = _ask(mrepo, scripted_openai, tmp_path, dev["w8-hours-3"].text, "on")
    assert "from 2026-11-24 to 2026-11-25 (UTC, 2 days ending on the day of the newest run)" in said, said
    assert "Window: 36 hours are read as the last 2 whole UTC days, ending on the day of the newest run (hours " \
           "rounded up to whole days)." in said, said


def _count(chip: str, what: str, **window) -> dict:
    return {"chip_id": chip, "what": what, **window}


WRONG_CALLS = [
    ("w8-hours-1", _count(CHIP, "failed tasks", days=1)),  # 48 hours read as one day
    ("w8-hours-2", _count(OTHER, "runs", days=36)),  # hours passed as days
    ("w8-hours-6", _count(OTHER, "failed tasks")),  # no window: every stored run
    ("w8-vague-8", _count(CHIP, "failed tasks", days=7)),  # a week for "a few days"
    ("w8-vague-10", _count(OTHER, "runs")),
    ("w8-month-14", _count(OTHER, "failed tasks", days=31)),
    ("w8-month-16", _count(OTHER, "runs", since_weekday="monday")),
    ("w8-month-17", _count(CHIP, "failed tasks", days=30)),  # "this month" is since the 1st
    ("w8-month-19", _count(CHIP, "failed tasks", days=7)),  # "this week" is since Monday
    ("w8-edge-23", _count(OTHER, "failed tasks", days=2)),
]


@pytest.mark.parametrize(("qid", "args"), WRONG_CALLS)
def test_a_models_call_with_another_window_is_re_made(qid, args, dev, mrepo, scripted_openai, tmp_path):
    scripted_openai.smart = caller_then_quoter("count_in_window", args)
    said = _ask(mrepo, scripted_openai, tmp_path, dev[qid].text, "off")
    assert passed(dev[qid], said, 0), said
    assert NOTE not in said, said


def _no_call(request):
    """A model that writes no call: a count of its own, from no data."""
    return text("There were 4 failures in that window.")


@pytest.mark.parametrize("qid", ["w8-hours-1", "w8-vague-9", "w8-month-19", "w8-month-17", "w8-edge-22"])
def test_a_model_writing_no_call_still_gets_the_count(qid, dev, mrepo, scripted_openai, tmp_path):
    scripted_openai.smart = _no_call
    said = _ask(mrepo, scripted_openai, tmp_path, dev[qid].text, "off")
    assert passed(dev[qid], said, 0), said
    assert "4 failures" not in said, said
