"""A winner said of a tie is wrong: "Q05 failed more often" when the data gives both the same count.  Held in the
order check for every strict comparison word (pairwise, or "the most" of two), and through the page's path on two
qubits whose failure counts the demo database ties (found by hand-written pymongo, whatever the day)."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta
from itertools import combinations

import pytest

from copilot_core.checking.order import order_claims
from tests.agent.page_turn import SMALL, page_turn, shown
from tests.dev_shapes9 import label
from tests.fakes.scripted_openai import text
from tests.public_eval import CHIP


def _ranking(a: float, b: float, kind: str = "qubit") -> dict:
    names = {"qubit": ("Q05", "Q09"), "chip": ("64Qv3", "144Qv2"), "task": ("CheckT1", "CheckRamsey")}[kind]
    return {"ranking": {"kind": kind, "metric": "failures", "names": list(names),
                        "written": {names[0]: [str(a)], names[1]: [str(b)]}, "higher_is_better": False,
                        "complete": True}}


@pytest.mark.parametrize("sentence", [
    "Q05 failed more often than Q09.",
    "Q09 had more failed tasks than Q05.",
    "Q05 had fewer failures than Q09.",
    "Q09 is worse than Q05 on failures.",
    "Q05 had the most failed tasks of Q05 and Q09.",
    "Of the two, Q09 failed more.",
])
def test_a_strict_comparison_of_a_tie_is_wrong(sentence):
    claims = order_claims(sentence, [_ranking(3, 3)])
    assert [c.verdict for c in claims] == ["wrong"], claims
    assert "the same failures (3)" in claims[0].reason


@pytest.mark.parametrize("sentence, verdict", [
    ("Q05 failed more often than Q09.", "ok"),
    ("Q09 failed more often than Q05.", "wrong"),
    ("Q05 and Q09 had the same number of failures.", "wrong"),
])
def test_unequal_counts_keep_their_verdicts(sentence, verdict):
    assert [c.verdict for c in order_claims(sentence, [_ranking(4, 3)])] == [verdict]


@pytest.mark.parametrize("kind, sentence", [("chip", "64Qv3 had more failures than 144Qv2."),
                                            ("task", "CheckRamsey failed more often than CheckT1.")])
def test_ties_of_chips_and_tasks_are_held_too(kind, sentence):
    assert [c.verdict for c in order_claims(sentence, [_ranking(7, 7, kind)])] == ["wrong"]


def _tied_pair(db) -> tuple[str, str, int]:
    """Two qubits with the same failed-task count over the whole history and over each of its last 7 and 30 days."""
    rows = list(db["task_result_history"].find({"chip_id": CHIP, "task_type": "qubit", "status": "failed"}))
    newest = max(d["start_at"] for d in db["task_result_history"].find({"chip_id": CHIP})).date()

    def counts(days: int | None) -> Counter:
        first = None if days is None else newest - timedelta(days=days - 1)
        return Counter(d["qid"] for d in rows if first is None or d["start_at"].date() >= first)

    spans = [counts(None), counts(7), counts(30)]
    qids = [str(q) for q in range(int(db["chip"].find_one({"chip_id": CHIP})["size"]))]
    for a, b in combinations(qids, 2):
        if len({(c[a], c[b]) for c in spans}) == 1 and spans[0][a] == spans[0][b] and spans[0][a] > 0:
            return a, b, spans[0][a]
    raise AssertionError("the demo database ties no two qubits' failures")


def test_a_winner_of_a_tie_in_the_models_words_is_not_shown(demo_db, repo, scripted_openai, tmp_path):
    a, b, n = _tied_pair(demo_db)
    question = f"Which failed more tasks in the last 30 days, {label(CHIP, a)} or {label(CHIP, b)}?"
    wrong = f"{label(CHIP, a)} failed more often, with {n} failed tasks."
    scripted_openai.smart = lambda request: text(wrong)
    said = shown(page_turn(repo, scripted_openai, tmp_path, question, SMALL))
    assert wrong not in said, said
    assert said.count(f"{n}") >= 2, said  # both counts, as the data gives them
