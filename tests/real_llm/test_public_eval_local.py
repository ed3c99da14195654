"""The public eval against the local real model: held-out with a floor of 8/10 per shape, dev measured only.

``EVAL_SPLIT=dev`` runs the dev questions instead (the ones to tune on); their score is printed, never asserted;
``EVAL_SPLIT=all`` runs both (the floor applies to the held-out ones).  ``EVAL_SHAPES`` (comma-separated shape
names) and ``EVAL_IDS`` (a regular expression searched in question ids, e.g. ``^last-|fresh``) narrow the run; a
narrowed run goes group by group (fresh held-out, held-out, dev, fresh dev) and prints each group's score per shape.

The same questions and truths as ``tests/agent/test_public_eval.py`` (pymongo on the raw demo documents), asked
through the real loop with the router on (the default for this model).  Prints per shape the held-out score, and
per question the seconds, rounds, the claim check's action and whether a wrong answer was let through (an answer
that fails its truth although the claim check kept it).
"""

from __future__ import annotations

import os
import re
import time
from collections import defaultdict
from pathlib import Path

import pytest

from copilot_core.agent import AgentRequest, provider_from_settings, run_copilot
from copilot_core.agent.blocks import ChartBlock
from copilot_core.settings import load_settings
from copilot_core.tools import DataStore, Toolkit
from tests.public_eval import CHIP, Question, build, passed

pytestmark = [pytest.mark.real_llm, pytest.mark.model_eval, pytest.mark.timeout(7200)]
FLOOR = 0.8  # per shape on held-out (the 8/10)


SPLIT = os.environ.get("EVAL_SPLIT", "held-out")
SHAPES = {s.strip() for s in os.environ.get("EVAL_SHAPES", "").split(",") if s.strip()}
IDS = os.environ.get("EVAL_IDS", "")


def group(question: Question) -> str:
    """dev / held-out, prefixed "fresh" for questions written after the model's earlier runs."""
    return f"{'fresh ' if question.fresh else ''}{question.split}"


def chosen(questions: list[Question]) -> list[Question]:
    """The questions of this run, in the order they are asked."""
    picked = [q for q in questions if SPLIT in ("all", q.split) and (not SHAPES or q.shape in SHAPES)
              and (not IDS or re.search(IDS, q.id))]
    if SHAPES or IDS:
        order = ["fresh held-out", "held-out", "dev", "fresh dev"]  # what is measured first, if a run is cut
        return sorted(picked, key=lambda q: order.index(group(q)))
    return round_robin(picked)


def round_robin(questions: list[Question]) -> list[Question]:
    """One question of each shape in turn, so the per-question lines of a run cut short still cover every shape."""
    by_shape: dict[str, list[Question]] = defaultdict(list)
    for q in questions:
        by_shape[q.shape].append(q)
    queues = list(by_shape.values())
    return [queue[i] for i in range(max(map(len, queues), default=0)) for queue in queues if i < len(queue)]


def test_held_out_questions_reach_the_floor_per_shape(local_llm, repo, demo_db, tmp_path, capsys):
    assert SPLIT in ("dev", "held-out", "all"), f"EVAL_SPLIT must be dev, held-out or all, not {SPLIT!r}"
    settings = load_settings(env={**local_llm["env"], "DATA_DIR": str(tmp_path), "COPILOT_MEMORY": "off"},
                             secrets_path=Path("/nonexistent/secrets.toml"))
    provider = provider_from_settings(settings)
    held_out = chosen(build(demo_db))
    scores: dict[str, list[bool]] = defaultdict(list)
    grouped: dict[tuple[str, str], list[bool]] = defaultdict(list)
    let_through = 0
    for question in held_out:
        started = time.perf_counter()
        result = run_copilot(AgentRequest(question.text, chip_id=CHIP), provider=provider,
                             toolkit=Toolkit(repo, store=DataStore()), repo=repo, router=True)
        charts = sum(1 for b in result.blocks if isinstance(b, ChartBlock))
        ok = passed(question, result.answer, charts)
        if question.split == "held-out":
            scores[question.shape].append(ok)
        grouped[(group(question), question.shape)].append(ok)
        let_through += int(not ok and result.claims == "kept" and not result.answer.startswith("The model did not"))
        with capsys.disabled():
            print(f"\n{'pass' if ok else 'FAIL'} {question.id:28s} [{group(question)}] "
                  f"{time.perf_counter() - started:6.1f} s "
                  f"rounds={len(result.rounds)} claims={result.claims} load={os.getloadavg()[0]:.1f} "
                  f"{result.answer[:600]!r}", flush=True)
    with capsys.disabled():
        print(f"\npublic eval, {SPLIT}, local model:\n" + "\n".join(
            f"{g:15s} {shape:22s} {sum(v)}/{len(v)}" for (g, shape), v in sorted(grouped.items()))
              + f"\nwrong answers the claim check kept: {let_through}")
    if not scores:
        return  # dev is for tuning: measured and printed, never a gate
    low = [shape for shape, v in scores.items() if sum(v) < FLOOR * len(v)]
    assert not low, f"below {FLOOR:.0%} on held-out: {low}"
