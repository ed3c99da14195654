"""A share or rate said of a task is held to that task's own: a model that writes the right percentage beside the
wrong task (a failure rate, a share of the failed results) gets a visible note, and a right one is kept as written.
Through the page's path, the router's ranking, then the scripted model's answer.  Truths: pymongo counts of the raw
task results (``tests/dev_ranking``)."""

from __future__ import annotations

import pytest

from tests.agent.page_turn import SMALL, page_turn, shown
from tests.dev_ranking import failure_rates, failures_by
from tests.fakes.scripted_openai import answer
from tests.public_eval import CHIP

NOTES = ("replaced", "Corrected", "not checked", "does not support")


def _rates(db) -> list[tuple[str, str]]:
    return [(task, f"{100 * rate:.1f}%") for task, rate in failure_rates(db, CHIP, "name") if rate > 0]


def _shares(db) -> list[tuple[str, str]]:
    counts = failures_by(db, CHIP, "name")
    total = sum(n for _, n in counts)
    return [(task, f"{round(100 * n / total)}%") for task, n in counts]


def _said(pairs: list[tuple[str, str]], lead: str) -> str:
    return lead + ", ".join(f"{task} ({pct})" for task, pct in pairs) + "."


def _swapped(pairs: list[tuple[str, str]], outsider: str) -> list[tuple[str, str]]:
    return [pairs[0], (outsider, pairs[1][1]), *pairs[2:]]


CASES = [  # (question, truth, lead of the model's sentence)
    ("Which three tasks have the worst failure rate?", _rates, "By failure rate: "),
    ("Which three tasks fail most often?", _shares,
     "Share of all failed task results: "),
]


@pytest.mark.parametrize("question, truth, lead", CASES, ids=["rate", "share"])
@pytest.mark.parametrize("right", [True, False], ids=["right", "wrong-task"])
def test_a_percentage_said_of_a_task_is_that_tasks(question, truth, lead, right, demo_db, repo, scripted_openai,
                                                   tmp_path):
    pairs = truth(demo_db)
    top, outsider = pairs[:3], pairs[-1][0]  # the last task listed: never among the top three
    said_by_model = _said(top if right else _swapped(top, outsider), lead)
    scripted_openai.smart = lambda request: answer(said_by_model) if request.tool_results else None
    said = shown(page_turn(repo, scripted_openai, tmp_path, question, SMALL))
    if right:
        assert said_by_model in said and not any(note in said for note in NOTES), said
    else:
        assert said_by_model not in said or any(note in said for note in NOTES), said
        assert f"{outsider} ({top[1][1]})" not in said or "not checked" in said, said


SHARE_OF_FAILURES = ["Which task accounts for the largest share of the failures on this chip?",
                     "Which two tasks make up the biggest part of the failed task results?"]


@pytest.mark.parametrize("question", SHARE_OF_FAILURES, ids=["largest-share", "biggest-part-top-2"])
def test_a_share_of_the_failures_is_over_the_failures_not_a_rate(question, demo_db, repo, scripted_openai,
                                                                 tmp_path):
    """Each task's failures over all failures (the count ranking's share), not each task's failure rate."""
    from tests.fakes.scripted_models import silent

    scripted_openai.smart = silent
    said = shown(page_turn(repo, scripted_openai, tmp_path, question, SMALL))
    counts = failures_by(demo_db, CHIP, "name")
    total = sum(n for _, n in counts)
    top, n = counts[0]
    assert top in said and (f"{n} of {total}" in said or f"{top} {n} " in said and f"of {total} " in said), said
    assert f"({round(100 * n / total)}%)" in said, said
    assert "relative to" not in said and "by failure rate" not in said, said
