"""A top N by failure rate lists the N asked (with any tied at the last place), each with its failed and finished
counts, through the page's path with a model that writes nothing of its own.  Truths: failed over finished task
results per task, counted by pymongo (``tests/dev_ranking.failure_rates``)."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from tests.agent.page_turn import SMALL, page_turn, shown
from tests.dev_ranking import failure_rates
from tests.fakes.scripted_models import silent
from tests.public_eval import CHIP

ASKED = [  # (wording, N)
    ("Which three tasks have the worst failure rate?", 3),
    ("top 2 tasks by failure rate please", 2),
    ("Rank the four tasks that fail most relative to how often they run.", 4),
]


@pytest.mark.parametrize("text, n", ASKED, ids=[a[0][:32] for a in ASKED])
def test_a_rate_ranking_lists_the_n_asked(text, n, demo_db, repo, scripted_openai, tmp_path):
    scripted_openai.smart = silent
    said = shown(page_turn(repo, scripted_openai, tmp_path, text, SMALL))
    rates = [(task, rate) for task, rate in failure_rates(demo_db, CHIP, "name") if rate > 0]
    cut = rates[n - 1][1]
    inside = [task for task, rate in rates if rate >= cut]
    outside = [task for task, rate in rates if rate < cut]
    assert all(re.search(rf"\b{task}\b", said) for task in inside), said
    assert not [task for task in outside if re.search(rf"\b{task}\b", said)], said
    done = Counter(d["name"] for d in demo_db["task_result_history"].find(
        {"chip_id": CHIP, "status": {"$in": ["completed", "failed"]}}))
    first = inside[0]
    assert f"{first} " in said and f"of {done[first]}" in said, said
