"""The parse and the router on the dev questions of ``tests/dev_typos16.py``: a question with a slipped metric or
shape word, or a task named in another case or with its words apart, is read as the same question spelled right
(written by hand beside it): the same metrics, shape and first tool call, and it keeps the words it read again so
the answer can say so.  Plain English words near a lab word are never read as one."""

from __future__ import annotations

import pytest

from copilot_core.language.misspelled import reading_note
from copilot_core.language.question import parse
from copilot_core.routing.prefetch import plan_prefetch
from tests import dev_typos16 as dev
from tests.public_eval import CHIP

CHIPS = dev.CHIPS


def _plan(text: str):
    plan = plan_prefetch(text, chip_id=CHIP, chips=CHIPS)
    return None if plan is None else (plan.name, plan.args)


@pytest.mark.parametrize("case", dev.QUESTIONS, ids=lambda c: c.id)
def test_a_slipped_question_gets_the_call_of_the_question_spelled_right(case):
    right = _plan(case.right)
    assert right is not None and right[0] != "get_chip_summary" or "median" in case.id or "average" in case.id
    assert _plan(case.text) == right, case.text


@pytest.mark.parametrize("case", [c for c in dev.QUESTIONS if c.read], ids=lambda c: c.id)
def test_a_slipped_word_reads_as_the_word_meant_and_is_kept(case):
    asked, right = parse(case.text, CHIPS), parse(case.right, CHIPS)
    assert (asked.metrics, asked.shape) == (right.metrics, right.shape), case.text
    assert tuple(written for written, _ in asked.read_as) == case.read
    assert all(f"'{w}'" in str(reading_note(asked.read_as)) for w in case.read)
    assert right.read_as == ()


@pytest.mark.parametrize("word", dev.PLAIN)
def test_a_plain_word_is_never_read_as_a_metric(word):
    asked = parse(f"what is the {word} of Q5 on {CHIP}?", CHIPS)
    assert not any(asked.metrics) and asked.read_as == (), (word, asked.metrics, asked.read_as)


@pytest.mark.parametrize("text", ["the readoutt of Q5", "the echp of Q5", "the ecko sounder"])
def test_a_word_as_near_two_lab_words_or_short_and_alone_is_not_read_again(text):
    assert parse(text, CHIPS).read_as == ()


@pytest.mark.parametrize("written, task", [
    ("CHECKT2ECHO", "CheckT2Echo"), ("checkt1", "CheckT1"), ("CHECK_RAMSEY", "CheckRamsey"),
    ("Check-T2-Echo", "CheckT2Echo"), ("checkT1", "CheckT1")])
def test_a_task_in_another_case_is_the_catalogues_task(written, task):
    assert parse(f"how many {written} failures on {CHIP} in the last 5 days", CHIPS).task_name == task


@pytest.mark.parametrize("text, task", [
    ("count check t2 echo results on 64Qv3 over the last 7 days", "CheckT2Echo"),
    ("how often did check ramsey fail on 144Qv2 this week", "CheckRamsey"),
    ("check T1 of Q5 on 64Qv3", None)])
def test_a_task_with_its_words_apart_is_read_only_before_a_word_about_results(text, task):
    assert parse(text, CHIPS).task_name == task
