"""The questions of ``tests/dev_failures14.py`` on the page's path (``Copilot.ask``, the real openai SDK against the
scripted server over HTTP).  Router on, every dev question ends with the count (or share) in the unit it asks, as a
hand-written pymongo read gives it; a model that counts failed task results where runs holding a failure were asked
is re-made, and a count of results written as runs is not let stand."""

from __future__ import annotations

import pytest

from tests import dev_failures14
from tests.agent.page_turn import SMALL, asked_on_small, page_turn, shown
from tests.fakes.scripted_models import quoter
from tests.fakes.scripted_openai import call, text
from tests.public_eval import CHIP, Question, passed


@pytest.fixture(scope="module")
def dev(demo_db) -> dict[str, tuple[Question, tuple[str, dict]]]:
    return {q.id: (q, c) for q, c in dev_failures14.planned(demo_db)}


def test_the_router_answers_every_dev_question_in_its_unit(dev, repo, scripted_openai, tmp_path):
    scripted_openai.smart = quoter
    wrong = []
    for q, _ in dev.values():
        said = shown(page_turn(repo, scripted_openai, tmp_path, q.text, SMALL))
        if not passed(q, said, 0) or "Note:" in said:
            wrong.append(f"{q.id}: {said[:400]}")
    assert not wrong, "\n".join(wrong)


def _calls_then_writes(name: str, args: dict, said: str):
    def reply(request):
        if request.has_tools and not request.tool_results:
            return call(name, args)
        return text(said)
    return reply


@pytest.mark.parametrize("qid", ["f14-runs-1", "f14-runs-2", "f14-att-3"])
def test_a_count_of_failed_results_for_runs_is_re_made_and_not_let_stand(qid, dev, demo_db, repo, scripted_openai,
                                                                         tmp_path):
    question, (_, args) = dev[qid]
    first = dev_failures14.first_day(demo_db, (CHIP,), args.get("days"), args.get("since_weekday"))
    results = dev_failures14.failed_results(demo_db, CHIP, first)
    hit = dev_failures14.runs_with_failures(demo_db, CHIP, first)
    assert results != hit
    wrong = {**args, "what": "failed tasks"}
    scripted_openai.smart = _calls_then_writes("count_in_window", wrong, f"{results} runs had a failed task.")
    said = asked_on_small(repo, scripted_openai, tmp_path, question.text, "off")
    assert passed(question, said, 0), said
    assert f"{results} runs had a failed task" not in said, said


def test_a_share_across_chips_gives_each_chips_share_and_the_total(dev, demo_db, repo, scripted_openai, tmp_path):
    question, (_, args) = dev["f14-chips-1"]
    first = dev_failures14.first_day(demo_db, dev_failures14.CHIPS, args.get("days"))
    counts = [dev_failures14.failed_results(demo_db, c, first) for c in dev_failures14.CHIPS]
    wholes = [dev_failures14.finished_results(demo_db, c, first) for c in dev_failures14.CHIPS]
    scripted_openai.smart = quoter
    said = shown(page_turn(repo, scripted_openai, tmp_path, question.text, SMALL))
    for n, w in zip(counts, wholes):
        assert f"{n} of {w} ({dev_failures14.percent(n, w):.1f}%)" in said, said
    assert f"{sum(counts)} in all of {sum(wholes)}" in said, said
