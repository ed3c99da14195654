"""What the person reads on the page's path (``Copilot.ask``, the scripted OpenAI-compatible server over HTTP, the
page's chip 64Qv3 in view) for the questions of ``tests/dev_structured17.py``: a compound filter written as a block
lists exactly the subjects the pymongo read finds, states their count (first when asked how many), a share's
percentage, and every condition, with no note; a coupling written as a field or list of two is answered with its
value named as the data names it; a chip id with one typing slip is answered on the chip it means.  A quoting and a
silent model, the router on."""

from __future__ import annotations

import pytest

from tests import dev_structured17 as dev
from tests.agent.page_turn import SMALL, page_turn, shown
from tests.agent.page_turn import asked_on_small as _ask
from tests.agent.test_compound12_turns import _wrong
from tests.dev_compound12 import judged, truth
from tests.eval_score import problems
from tests.fakes.scripted_models import quoter, silent

MODELS = {"quoter": quoter, "silent": silent}


@pytest.mark.parametrize("model", list(MODELS))
def test_every_block_filter_is_answered_whole(model, demo_db, repo, scripted_openai, tmp_path):
    scripted_openai.smart = MODELS[model]
    wrong = []
    for case in dev.CASES:
        said = _ask(repo, scripted_openai, tmp_path, case.text, "on")
        if why := _wrong(case, said, truth(demo_db, case), judged(demo_db, case)):
            wrong.append(f"{case.id}: {why}: {said[:300]}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("model", list(MODELS))
def test_every_pair_field_and_slipped_chip_reads_the_pymongo_truth(model, demo_db, repo, scripted_openai, tmp_path):
    scripted_openai.smart = MODELS[model]
    wrong = []
    for question in [q for q, _, _ in dev.pairs(demo_db)] + [s.question for s in dev.slipped(demo_db)]:
        said = shown(page_turn(repo, scripted_openai, tmp_path, question.text, SMALL))
        if bad := problems(question.truth, said):
            wrong.append((question.id, bad, said[:400]))
    assert not wrong, "\n".join(map(str, wrong))
