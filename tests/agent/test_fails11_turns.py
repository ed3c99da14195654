"""The questions of ``tests/dev_fails11.py`` on the page's path (``Copilot.ask``, the real openai SDK against the
scripted server over HTTP): failure rankings and counts over a calendar window.  Router on, every dev question ends
with the subject and count (or the count) a hand-written pymongo read gives.  Router off, a model's call over another
window, kind or chip is re-made and its own claim replaced; a model that answers a count with no call ("no failed
tasks") or states a count its call does not give gets the count re-made and stated with the window's dates."""

from __future__ import annotations

import re

import pytest

from tests import dev_fails11
from tests.agent.page_turn import SMALL, asked_on_small, page_turn, shown
from tests.fakes.scripted_models import quoter
from tests.fakes.scripted_openai import call, text
from tests.public_eval import CHIP, OTHER, Question, passed

_WINDOW = ("days", "day", "since_weekday", "from_date", "to_date")
_DATES = re.compile(r"\d{4}-\d{2}-\d{2}")  # the window's dates, whatever month the demo ends in


def _states(question: Question, said: str) -> bool:
    """The truth (count and patterns) stated once the window's own note ("read as the last 3 whole UTC days") is
    taken out, where a scorer could find the count too, and the window's dates written."""
    return passed(question, re.sub(r"Window: .*", "", said), 0) and _DATES.search(said) is not None


@pytest.fixture(scope="module")
def dev(demo_db) -> dict[str, tuple[Question, tuple[str, dict]]]:
    return {q.id: (q, c) for q, c in dev_fails11.planned(demo_db)}


def test_the_router_answers_every_dev_question_right(dev, repo, scripted_openai, tmp_path):
    scripted_openai.smart = quoter
    wrong = []
    for q, _ in dev.values():
        said = shown(page_turn(repo, scripted_openai, tmp_path, q.text, SMALL))
        if not passed(q, said, 0) or "Note:" in said:
            wrong.append(f"{q.id}: {said[:400]}")
    assert not wrong, "\n".join(wrong)


def _calls_then_writes(name: str | None, args: dict, said: str):
    """One call of its own (none when ``name`` is None), then ``said`` as its answer."""
    def reply(request):
        if name is not None and request.has_tools and not request.tool_results:
            return call(name, args)
        return text(said)
    return reply


def _bare(args: dict) -> dict:
    return {k: v for k, v in args.items() if k not in _WINDOW}


@pytest.mark.parametrize("qid, claim", [
    ("f11-most-1", "CheckT1 failed most, 99 times."),
    ("f11-most-2", "Q99 failed most on 144Qv2, with 99 failures."),
    ("f11-most-3", "Q01-Q02 failed most, 99 times."),
    ("f11-most-6", "Q99 failed most yesterday, 99 times."),
    ("f11-most-9", "Run 20261101-001 had the most failures, 99."),
    ("f11-att-2", "Q01-Q02 failed most, 99 times."),
    ("f11-att-3", "Run 20261101-001 had the most failures, 99."),
])
def test_a_ranking_over_every_stored_run_is_re_made_over_the_window(qid, claim, dev, repo, scripted_openai,
                                                                    tmp_path):
    question, (name, args) = dev[qid]
    scripted_openai.smart = _calls_then_writes(name, {**_bare(args), "chip_id": CHIP}, claim)
    said = asked_on_small(repo, scripted_openai, tmp_path, question.text, "off")
    assert passed(question, said, 0) and "99" not in said.split("_")[0], said
    assert "not checked" not in said, said


@pytest.mark.parametrize("qid, name, args", [
    ("f11-count-1", "failure_ranking", {"by": "task"}),  # a ranking for a count of runs
    ("f11-count-4", "count_in_window", {"what": "failed tasks", "days": 3}),  # failed tasks for runs
    ("f11-count-6", "count_in_window", {"what": "runs", "days": 30}),  # 30 days for "this month"
    ("f11-count-10", "count_in_window", {"what": "runs"}),  # every run for failed runs in 14 days
    ("f11-att-8", "count_in_window", {"what": "runs", "from_date": "friday", "to_date": "friday"}),
    ("f11-att-11", "get_calibration_notes", {}),  # a listing on the chip in view
])
def test_a_count_over_another_window_kind_or_chip_is_re_made(qid, name, args, dev, repo, scripted_openai, tmp_path):
    question, _ = dev[qid]
    scripted_openai.smart = _calls_then_writes(name, {"chip_id": CHIP, **args}, "There were none.")
    said = asked_on_small(repo, scripted_openai, tmp_path, question.text, "off")
    assert _states(question, said), said
    assert "none" not in said.split("_")[0].lower(), said


@pytest.mark.parametrize("qid, said_by_model", [
    ("f11-count-2", "There were no failed tasks yesterday."),
    ("f11-count-9", "None of the results were excluded yesterday."),
    ("f11-att-7", "Zero tasks failed since 20 November."),
    ("f11-att-13", "No runs happened in the last two weeks."),
    ("f11-most-4", "No run failed in the last fortnight."),
])
def test_a_count_asserted_with_no_call_is_re_made_with_its_dates(qid, said_by_model, dev, repo, scripted_openai,
                                                                 tmp_path):
    question, _ = dev[qid]
    scripted_openai.smart = _calls_then_writes(None, {}, said_by_model)
    said = asked_on_small(repo, scripted_openai, tmp_path, question.text, "off")
    assert _states(question, said), said
    assert said_by_model not in said, said


@pytest.mark.parametrize("qid", ["f11-count-8", "f11-att-6", "f11-att-12", "f11-count-5"])
def test_a_count_its_own_call_does_not_give_is_replaced(qid, dev, repo, scripted_openai, tmp_path):
    question, (name, args) = dev[qid]
    scripted_openai.smart = _calls_then_writes(name, args, "There were 3 in that window.")
    said = asked_on_small(repo, scripted_openai, tmp_path, question.text, "off")
    assert question.truth.numbers[0][0] != 3, question.truth
    assert _states(question, said), said
    assert "There were 3" not in said and "not checked" not in said, said


def test_a_month_asked_on_its_last_days_counts_through_its_end(dev, repo, scripted_openai, tmp_path):
    """"In November" before November's last day: a window through the 30th, not an error."""
    question, _ = dev["f11-att-12"]
    scripted_openai.smart = quoter
    said = asked_on_small(repo, scripted_openai, tmp_path, question.text, "on")
    assert passed(question, said, 0) and "did not fit" not in said, said


def test_both_chips_are_asked(dev):
    assert {c[1]["chip_id"] for _, c in dev.values()} == {CHIP, OTHER}
