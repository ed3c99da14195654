"""The public eval with three scripted models, through the real loop, SDK, HTTP and toolkit on the demo database:

- *quoter*: answers with the tool's own answer sentence (what a small model does at its best);
- *silent*: writes nothing (the deterministic answer must answer the question);
- *confabulator*: quotes the sentence with its first two numbers swapped (a number that is in a tool result, in the
  wrong role): the claim check must correct it or replace it, so what the person reads is still right.

Truths come from ``tests/public_eval.py`` (pymongo on the raw documents), the dev questions; the sealed held-out
questions (``tests/sealed``) are asked only by ``bench/eval_copilot.py`` with the real model.  The floors are asserted
per shape; the per-shape table is printed for the docs.
"""

from __future__ import annotations

import time
from collections import Counter, defaultdict

import pytest

from copilot_core.agent import AgentRequest, run_copilot
from copilot_core.answer.blocks import ChartBlock
from copilot_core.tools import DataStore, Toolkit
from tests.fakes.scripted_models import quoter, silent, swap_decimals, tool_sentences
from tests.fakes.scripted_openai import SmartRequest, text
from tests.public_eval import CHIP, Question, build, passed

FLOOR = 0.8  # per shape: at least 8 of 10

SWAPPED: list[str] = []  # what the confabulator wrote when it swapped numbers (cleared per question)


def confabulator(request: SmartRequest):
    said = " ".join(tool_sentences(request))
    swapped = swap_decimals(said)
    if swapped != said:
        SWAPPED.append(swapped)
    return text(swapped or "I could not find that.")


MODELS = {"quoter": quoter, "silent": silent, "confabulator": confabulator}


@pytest.fixture(scope="module")
def questions(demo_db) -> list[Question]:
    return build(demo_db)


def test_the_eval_is_large(questions):
    shapes = {q.shape for q in questions}
    assert len(questions) >= 80 and len(shapes) >= 12
    assert {q.split for q in questions} == {"dev"}


@pytest.mark.parametrize("model", list(MODELS))
def test_scripted_models_reach_the_floor_on_every_shape(model, questions, repo, scripted_openai, capsys):
    scripted_openai.smart = MODELS[model]
    provider = scripted_openai.provider("chat_completions")
    scores: dict[str, list[bool]] = defaultdict(list)
    failed: list[str] = []
    started = time.perf_counter()
    actions: Counter[str] = Counter()
    let_through: list[str] = []
    for question in questions:
        SWAPPED.clear()
        result = run_copilot(AgentRequest(question.text, chip_id=CHIP), provider=provider,
                             toolkit=Toolkit(repo, store=DataStore()), repo=repo, router=True)
        charts = sum(1 for b in result.blocks if isinstance(b, ChartBlock))
        ok = passed(question, result.answer, charts)
        actions[result.claims] += 1
        if any(swapped in result.answer for swapped in SWAPPED):  # a wrong answer shown as the model wrote it
            let_through.append(question.id)
        scores[question.shape].append(ok)
        if not ok:
            failed.append(f"{question.id}: {question.text} -> {result.answer[:300]!r}")
    elapsed = time.perf_counter() - started
    shapes = sorted(scores)
    rows = [f"{shape:22s} {sum(scores[shape])}/{len(scores[shape])}" for shape in shapes]
    with capsys.disabled():
        print(f"\npublic eval, scripted {model} ({len(questions)} questions, {elapsed:.1f} s; claim check "
              f"{dict(actions)}; wrong answers let through: {len(let_through)} {let_through}):\n" + "\n".join(rows)
              + ("\nfailed:\n" + "\n".join(failed) if failed else ""))
    low = [shape for shape in shapes if sum(scores[shape]) < FLOOR * len(scores[shape])]
    assert not low, f"{model} below {FLOOR:.0%}: {low}; failures: {failed}"
    assert not let_through, f"{model}: numbers swapped between fields shown as written: {let_through}"
