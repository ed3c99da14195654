"""Window counts and shares through ``Copilot.ask`` (the page's path: clarification on, no memory) with the scripted
OpenAI-compatible server: a model that writes a share of its own, one that writes a count of its own, and the claim
check.  Truths are pymongo reads in ``tests/dev_shapes_a.py`` / ``tests/dev_shapes_b.py``, never the tools."""

from __future__ import annotations

import pytest

from copilot_core.chat import ChatState
from copilot_core.session import Copilot
from copilot_core.settings import load_settings
from copilot_core.skills import SkillLibrary
from tests import dev_shapes_a, dev_shapes_b
from tests.eval_score import problems
from tests.fakes.scripted_openai import SmartRequest, text
from tests.public_eval import CHIP

SMALL = "qwen2.5-coder-1.5b-instruct"
OWN_SHARE = "About 37.5% of them do, so roughly a third."
OWN_COUNT = "There were 9999 of them in that window."


def _ask(repo, server, tmp_path, question: str) -> str:
    copilot = Copilot(repo, settings=load_settings({"DATA_DIR": str(tmp_path)}), skills=SkillLibrary.load(),
                      memory=None, gate=False)
    state = ChatState(username="local", provider=server.provider("chat_completions", model=SMALL), chip_id=CHIP)
    turn = copilot.ask(state, question, clarify=True)
    return turn.answer.text if turn.answer is not None else (turn.notice or "")


@pytest.mark.parametrize("qid", ["pc-0", "pc-4", "pc-6", "pc-7"])
def test_a_share_the_model_made_up_is_never_shown_as_it_wrote_it(qid, repo, demo_db, scripted_openai, tmp_path):
    question = next(q for q in dev_shapes_a.build(demo_db) if q.id == qid)

    def own_share(request: SmartRequest):
        return text(OWN_SHARE)

    scripted_openai.smart = own_share
    shown = _ask(repo, scripted_openai, tmp_path, question.text)
    assert not problems(question.truth, shown), shown  # the tool's share, with its count
    assert OWN_SHARE not in shown, shown


@pytest.mark.parametrize("qid", ["sb-window-3", "sb-window-6", "sb-window-7", "sb-window-8"])
def test_a_count_the_model_made_up_is_never_shown_as_it_wrote_it(qid, repo, demo_db, scripted_openai, tmp_path):
    question = next(q for q in dev_shapes_b.build(demo_db) if q.id == qid)

    def own_count(request: SmartRequest):
        return text(OWN_COUNT)

    scripted_openai.smart = own_count
    shown = _ask(repo, scripted_openai, tmp_path, question.text)
    assert not problems(question.truth, shown), shown
    assert OWN_COUNT not in shown, shown


def _share_truth(demo_db, qid: str) -> float:
    question = next(q for q in dev_shapes_a.build(demo_db) if q.id == qid)
    return next(e.value for e in question.truth.expects if e.unit == "%")


@pytest.mark.parametrize(("qid", "tool", "args"), [
    ("pc-0", "filter_metric", {"chip_id": CHIP, "metric_name": "t1", "below": 45.0}),
    ("pc-6", "count_in_window", {"chip_id": CHIP, "what": "failed tasks", "days": 10}),
])
def test_the_claim_check_holds_a_written_share_to_the_tools_share(qid, tool, args, repo, demo_db):
    from copilot_core.checking.claims import check_claims
    from copilot_core.tools import DataStore, Toolkit

    truth = _share_truth(demo_db, qid)
    outcome = Toolkit(repo, store=DataStore()).execute(tool, args)
    assert outcome.ok
    right = check_claims(f"{truth:.1f}% of them do.", [outcome], question="what share?")
    assert [c.verdict for c in right.claims] == ["ok"]
    made_up = 100.0 - truth  # a share the tools never gave
    wrong = check_claims(f"{made_up:.1f}% of them do.", [outcome], question="what share?")
    assert [c.verdict for c in wrong.claims] == ["wrong"]


def test_a_share_written_with_its_words_is_corrected_in_the_answer_read(repo, demo_db, scripted_openai, tmp_path):
    question = next(q for q in dev_shapes_a.build(demo_db) if q.id == "pc-6")
    truth = _share_truth(demo_db, "pc-6")
    made_up = f"{100.0 - truth:.1f}%"

    def own_share(request: SmartRequest):
        return text(f"{made_up} of task results failed in the last 10 days.")

    scripted_openai.smart = own_share
    shown = _ask(repo, scripted_openai, tmp_path, question.text)
    assert f"{truth:.1f}%" in shown and not problems(question.truth, shown), shown
    assert f"{made_up} of task results failed" not in shown, shown
