"""The dev eval against the local real model, through ``Copilot.ask`` with the page's flags (clarification on,
memory off, readiness gating on).  Dev is for tuning: its score per shape is printed, and the test fails only when a
turn errors or shows nothing.  The sealed held-out questions run only in ``bench/eval_copilot.py``, once at the start
and once at the end of a piece of work.

``EVAL_SHAPES`` (comma-separated shape names) and ``EVAL_IDS`` (a regular expression searched in question ids)
narrow the run.
"""

from __future__ import annotations

import os
import re
import time
from collections import defaultdict
from pathlib import Path

import pytest

from copilot_core.agent import provider_from_settings
from copilot_core.chat.state import ChatState
from copilot_core.session import Copilot
from copilot_core.settings import load_settings
from tests.public_eval import CHIP, Question, build, passed

pytestmark = [pytest.mark.real_llm, pytest.mark.model_eval, pytest.mark.timeout(7200)]
SHAPES = {s.strip() for s in os.environ.get("EVAL_SHAPES", "").split(",") if s.strip()}
IDS = os.environ.get("EVAL_IDS", "")


def round_robin(questions: list[Question]) -> list[Question]:
    """One question of each shape in turn, so the per-question lines of a run cut short still cover every shape."""
    by_shape: dict[str, list[Question]] = defaultdict(list)
    for q in questions:
        by_shape[q.shape].append(q)
    queues = list(by_shape.values())
    return [queue[i] for i in range(max(map(len, queues), default=0)) for queue in queues if i < len(queue)]


def test_dev_questions_through_the_page_path(local_llm, repo, demo_db, tmp_path, capsys):
    settings = load_settings(env={**local_llm["env"], "DATA_DIR": str(tmp_path), "COPILOT_MEMORY": "off"},
                             secrets_path=Path("/nonexistent/secrets.toml"))
    provider = provider_from_settings(settings)
    copilot = Copilot.from_settings(settings, repo, memory=False)
    chosen = round_robin([q for q in build(demo_db) if (not SHAPES or q.shape in SHAPES)
                          and (not IDS or re.search(IDS, q.id))])
    scores: dict[str, list[bool]] = defaultdict(list)
    broken = []
    for question in chosen:
        started = time.perf_counter()
        state = ChatState(username="eval", provider=provider, chip_id=CHIP)
        turn = copilot.ask(state, question.text, clarify=True)
        answer = turn.answer
        if answer is None or answer.error or not answer.text.strip():
            broken.append(question.id)
            continue
        ok = passed(question, answer.text, len(answer.charts()))
        scores[question.shape].append(ok)
        with capsys.disabled():
            print(f"\n{'pass' if ok else 'FAIL'} {question.id:28s} {time.perf_counter() - started:6.1f} s "
                  f"{answer.text[:600]!r}", flush=True)
    with capsys.disabled():
        print("\ndev eval, local model, page path:\n" + "\n".join(
            f"{shape:22s} {sum(v)}/{len(v)}" for shape, v in sorted(scores.items())))
    assert not broken, f"turns that errored or showed nothing: {broken}"
