"""The questions of ``tests/dev_counting17.py`` on the page's path (``Copilot.ask``, the real openai SDK against the
scripted server over HTTP).  Router on, every dev question ends with the share over the total it names (a family of
tasks, a task, a set of qubits, a window), stated with its numerator and denominator; the run that held the most
failed results named by its execution id with its count; the top N subjects by failures, N of them; each as a
hand-written pymongo read gives it."""

from __future__ import annotations

import pytest

from tests import dev_counting17
from tests.agent.page_turn import SMALL, asked_on_small, page_turn, shown
from tests.fakes.scripted_models import quoter
from tests.fakes.scripted_openai import call, text
from tests.public_eval import CHIP, Question, passed


@pytest.fixture(scope="module")
def dev(demo_db) -> dict[str, tuple[Question, tuple[str, dict]]]:
    return {q.id: (q, c) for q, c in dev_counting17.planned(demo_db)}


def test_the_router_answers_every_dev_question_over_the_total_it_names(dev, repo, scripted_openai, tmp_path):
    scripted_openai.smart = quoter
    wrong = []
    for q, _ in dev.values():
        said = shown(page_turn(repo, scripted_openai, tmp_path, q.text, SMALL))
        if not passed(q, said, 0) or "Note:" in said:
            wrong.append(f"{q.id}: {said[:500]}")
    assert not wrong, "\n".join(wrong)


def _calls_then_writes(name: str, args: dict, said: str):
    def reply(request):
        if request.has_tools and not request.tool_results:
            return call(name, args)
        return text(said)
    return reply


def _readout_share(demo_db) -> tuple[int, int, float]:
    return dev_counting17.share(demo_db, CHIP, dev_counting17.readout, {})


@pytest.mark.parametrize("written", ["{failed} readout task results failed, {pct}% of all task results.",
                                     "{failed} of {whole} readout results failed: {pct}% of every task result."])
def test_a_family_share_said_as_a_share_of_everything_is_not_let_stand(written, demo_db, repo, scripted_openai,
                                                                       tmp_path):
    failed, whole, pct = _readout_share(demo_db)
    written = written.format(failed=failed, whole=whole, pct=pct)
    scripted_openai.smart = _calls_then_writes("count_in_window", {"chip_id": CHIP, "what": "failed tasks",
                                                                   "family": "readout"}, written)
    said = asked_on_small(repo, scripted_openai, tmp_path, "What share of readout task results failed?", "off")
    assert written not in said or "Note:" in said, said


def test_a_share_over_every_result_said_as_a_familys_is_not_let_stand(demo_db, repo, scripted_openai, tmp_path):
    failed, whole, _ = dev_counting17.share(demo_db, CHIP, lambda d: True, {})
    pct = round(100 * failed / whole, 1)
    written = f"{failed} of {whole} task results failed, {pct}% of the readout task results."
    scripted_openai.smart = _calls_then_writes("count_in_window", {"chip_id": CHIP, "what": "failed tasks"}, written)
    said = asked_on_small(repo, scripted_openai, tmp_path, "What share of readout task results failed?", "off")
    assert written not in said or "Note:" in said, said


def test_the_family_share_said_over_its_own_total_stands(demo_db, repo, scripted_openai, tmp_path):
    failed, whole, pct = _readout_share(demo_db)
    written = f"{failed} of {whole} readout task results failed ({pct}% of the readout task results)."
    scripted_openai.smart = _calls_then_writes("count_in_window", {"chip_id": CHIP, "what": "failed tasks",
                                                                   "family": "readout"}, written)
    said = asked_on_small(repo, scripted_openai, tmp_path, "What share of readout task results failed?", "off")
    assert written in said and "Note:" not in said, said
