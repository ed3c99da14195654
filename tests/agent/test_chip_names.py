"""A chip written the way people write it ("64Q", "the 64-qubit chip", "144q") is read as the installed chip it
means, on the page's path (``Copilot.ask``: clarification on, memory off, 64Qv3 in view), against the scripted
OpenAI-compatible server over real HTTP: the value is the one a pymongo read of the raw demo documents gives, and
no restate note says the question asked about another chip.  A chip two installed chips begin is asked about, a
chip none begins has no such chip, and a count over a window on each chip is one count per chip, side by side.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from copilot_core.answer.blocks import AskBlock
from copilot_core.chat import ChatState
from copilot_core.checking.restate import mismatches
from copilot_core.data.connection import open_memory_database
from copilot_core.data.repository import CalibrationRepository
from copilot_core.demo.documents import ChipSpec
from copilot_core.demo.seed import seed_database
from copilot_core.language.question import parse
from copilot_core.routing.clarify import choice_message
from copilot_core.session import Copilot
from copilot_core.settings import load_settings
from copilot_core.skills import SkillLibrary
from tests import dev_chipname
from tests.agent.page_turn import SMALL, page_turn, shown
from tests.dev_errdates import _failed, _newest
from tests.eval_score import Truth
from tests.eval_score import passed as holds
from tests.fakes.scripted_models import caller_then_quoter, quoter, silent
from tests.public_eval import CHIP, OTHER, Question, passed

NOTE = "Note: this"
FAILED = "could not be computed"


@pytest.fixture(scope="module")
def dev(demo_db) -> list[Question]:
    return dev_chipname.build(demo_db)


def _clean(said: str) -> bool:
    return NOTE not in said and FAILED not in said and "not found" not in said


@pytest.mark.parametrize("model", ["silent", "quoter"])
def test_every_dev_question_gets_its_numbers_with_no_note(model, dev, repo, scripted_openai, tmp_path):
    scripted_openai.smart = {"silent": silent, "quoter": quoter}[model]
    wrong = []
    for q in dev:
        said = shown(page_turn(repo, scripted_openai, tmp_path, q.text, SMALL))
        if not passed(q, said, 0) or not _clean(said):
            wrong.append(f"{q.id}: {said[:300]}")
    assert not wrong, wrong
    assert len([q for q in dev if q.shape == "window per chip"]) >= 4


def _failed_last_week(db, chip: str) -> int:
    end = _newest(db, chip)
    return len(_failed(db, chip, end - timedelta(days=6), None))


@pytest.mark.parametrize("question, name, args", [
    ("How many tasks failed on the 64-qubit chip in the last 7 days?", "count_in_window",
     {"chip_id": "64Q", "what": "failed tasks", "days": 7}),
    ("How many tasks failed on 64q in the last 7 days?", "count_in_window",
     {"chip_id": "64q", "what": "failed tasks", "days": 7}),
    ("How many tasks failed on 144Q in the past 7 days?", "count_in_window",
     {"chip_id": "144Q", "what": "failed tasks", "days": 7}),
])
def test_a_models_call_with_the_chip_written_short_runs_on_that_chip(question, name, args, demo_db, repo,
                                                                      scripted_openai, tmp_path):
    scripted_openai.smart = caller_then_quoter(name, args)
    turn = page_turn(repo, scripted_openai, tmp_path, question, SMALL, {"COPILOT_TOOL_ROUTER": "off"})
    chip = OTHER if args["chip_id"].startswith("144") else CHIP
    said = shown(turn)
    assert holds(Truth(((_failed_last_week(demo_db, chip), 0),)), said), said
    assert _clean(said), said
    assert turn.result is not None and [o.args["chip_id"] for o in turn.result.tool_calls] == [chip]


@pytest.mark.parametrize("question", ["Is chip 999Q healthy?", "What is the median T1 on chip 64Qv9?",
                                      "What is the median T1 of the 16-qubit chip?"])
def test_a_chip_no_installed_chip_begins_has_no_such_chip(question, repo, scripted_openai, tmp_path):
    scripted_openai.smart = quoter
    said = shown(page_turn(repo, scripted_openai, tmp_path, question, SMALL))
    assert "There is no chip" in said and CHIP in said and OTHER in said, said
    assert holds(Truth(no_values=True), said), said


@pytest.fixture(scope="module")
def twins(demo_now):
    """Two installed chips a short "64Q" begins (64Qv3 and 64Qv2) and 144Qv2."""
    db = open_memory_database("chip-names-twins")
    seed_database(db, [ChipSpec("64Qv2", 64, 150, 3), ChipSpec("64Qv3", 64, 120, 3), ChipSpec("144Qv2", 144, 60, 3)],
                  seed=11, now=demo_now)
    yield db
    db.close()


def _ask_on(repo, server, tmp_path, question: str, chip: str):
    settings = load_settings({"DATA_DIR": str(tmp_path)})
    copilot = Copilot(repo, settings=settings, skills=SkillLibrary.load(), memory=None, gate=False)
    provider = server.provider("chat_completions", model=SMALL)
    return copilot.ask(ChatState(username="local", provider=provider, chip_id=chip), question, clarify=True)


def test_a_chip_two_installed_chips_begin_is_asked_about_then_answered_on_the_pick(twins, scripted_openai,
                                                                                   tmp_path):
    from tests.public_eval import latest_values
    import statistics

    repo = CalibrationRepository(twins)
    scripted_openai.smart = quoter
    question = "What is the median T1 on 64Q?"
    turn = _ask_on(repo, scripted_openai, tmp_path, question, CHIP)
    asks = [b for b in (turn.answer.blocks if turn.answer else []) if isinstance(b, AskBlock)]
    assert asks and set(asks[0].options) == {"64Qv3", "64Qv2"}, shown(turn)
    picked = asks[0].options.index("64Qv2")
    follow = choice_message(question, asks[0].choice, asks[0].options, picked)
    assert follow is not None
    said = shown(_ask_on(repo, scripted_openai, tmp_path, follow, "64Qv2"))
    median = statistics.median(v for v in latest_values(twins, "64Qv2", "t1").values() if v is not None)
    assert holds(Truth(((median, 0.051),)), said) and _clean(said) and "64Qv2" in said, said


def test_a_count_of_one_chip_for_a_question_per_chip_is_noted_or_remade():
    asked = parse("Since 3 November, how many calibration runs failed on each chip?", (CHIP, OTHER))
    one = {"chip_id": CHIP, "what": "failed runs", "from_date": "11-03"}
    assert [m.missed for m in mismatches(asked, "count_in_window", one)] == \
        [f"sets {CHIP} and {OTHER} side by side, not {CHIP}"]
    tasks = {"chip_id": CHIP, "chip_ids": [CHIP, OTHER], "what": "failed tasks", "from_date": "11-03"}
    assert [m.missed for m in mismatches(asked, "count_in_window", tasks)] == \
        ["counts failed runs (executions), not failed task results"]
    both = {"chip_id": CHIP, "chip_ids": [CHIP, OTHER], "what": "failed runs", "from_date": "11-03"}
    assert mismatches(asked, "count_in_window", both) == []
