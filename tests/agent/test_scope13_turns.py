"""The questions of ``tests/dev_scope13.py`` on the page's path (``Copilot.ask``, the real openai SDK against the
scripted server, over data whose newest runs cross midnight UTC): what the person reads.

A window in a form the window pattern used to leave is counted over its days, whichever way the answer is made
(the router's sentence, a model quoting it, a model's windowless call re-made); a window no reading can place is
never answered over every stored run in silence: the answer says it could not read it, on every path (fallback,
quoted, a model's own call, a model's own words).
"""

from __future__ import annotations

import pytest

from tests import dev_scope13
from tests.agent.page_turn import asked_on_small as _ask
from tests.fakes.scripted_models import caller_then_quoter, quoter, silent
from tests.fakes.scripted_openai import text
from tests.public_eval import CHIP, OTHER, Question, passed

UNREAD = "could not be read as a time window"
_WINDOW_ARGS = ("days", "day", "since_weekday", "from_date", "to_date")


@pytest.fixture(scope="module")
def dev(midnight) -> dict[str, Question]:
    return {q.id: q for q in dev_scope13.build(midnight)}


@pytest.fixture(scope="module")
def calls(midnight) -> dict[str, tuple[str, dict] | None]:
    return {q.id: call for q, call in dev_scope13.cases(midnight)}


@pytest.mark.parametrize("model", ["silent", "quoter"])
def test_the_router_answers_every_dev_question_right(model, dev, mrepo, scripted_openai, tmp_path):
    scripted_openai.smart = {"silent": silent, "quoter": quoter}[model]
    wrong = []
    for q in dev.values():
        said = _ask(mrepo, scripted_openai, tmp_path, q.text, "on")
        windowed = q.shape != "scope13 unread"
        if not passed(q, said, 0) or windowed and UNREAD in said:
            wrong.append(f"{q.id}: {said[:600]}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("qid", ["s13-count-1", "s13-count-2", "s13-count-5", "s13-count-7", "s13-count-13",
                                 "s13-count-18", "s13-count-21", "s13-rank-25", "s13-rank-27"])
def test_a_model_ignoring_the_window_gets_its_call_re_made_over_it(qid, dev, calls, mrepo, scripted_openai,
                                                                  tmp_path):
    call = calls[qid]
    assert call is not None
    tool, args = call
    scripted_openai.smart = caller_then_quoter(tool, {k: v for k, v in args.items() if k not in _WINDOW_ARGS})
    said = _ask(mrepo, scripted_openai, tmp_path, dev[qid].text, "off")
    assert passed(dev[qid], said, 0), said


UNREAD_IDS = ["s13-unread-29", "s13-unread-30", "s13-unread-31", "s13-unread-32", "s13-unread-34",
              "s13-unread-35", "s13-unread-36", "s13-unread-37"]


@pytest.mark.parametrize("qid", UNREAD_IDS)
def test_a_model_calling_over_every_run_for_an_unread_window_says_so(qid, dev, mrepo, scripted_openai, tmp_path):
    tool = "failure_ranking" if "most" in dev[qid].text else "count_in_window"
    args = {"chip_id": OTHER if "144Qv2" in dev[qid].text else CHIP,
            **({"by": "qubit"} if tool == "failure_ranking" else {"what": "failed tasks"})}
    scripted_openai.smart = caller_then_quoter(tool, args)
    said = _ask(mrepo, scripted_openai, tmp_path, dev[qid].text, "off")
    assert passed(dev[qid], said, 0), said


@pytest.mark.parametrize("qid", ["s13-unread-29", "s13-unread-32"])
def test_a_model_writing_its_own_count_for_an_unread_window_says_so(qid, dev, mrepo, scripted_openai, tmp_path):
    scripted_openai.smart = lambda request: text("There were 4 failed tasks in that window.")
    said = _ask(mrepo, scripted_openai, tmp_path, dev[qid].text, "on")
    assert passed(dev[qid], said, 0), said


def test_a_model_that_reads_the_window_itself_gets_no_note(dev, mrepo, scripted_openai, tmp_path):
    """A window the model passed (14 days for "two weeks ago") is stated by the tool's dates: no note."""
    scripted_openai.smart = caller_then_quoter("count_in_window", {"chip_id": OTHER, "what": "runs", "days": 14})
    said = _ask(mrepo, scripted_openai, tmp_path, dev["s13-unread-31"].text, "off")
    assert UNREAD not in said and "2026-11-12 to 2026-11-25" in said, said
