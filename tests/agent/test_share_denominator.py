"""A share's words name its denominator ("of all tasks", "of the failed tasks", "of the qubits"); the claim check
holds that word to the share the tool computed, for every share kind the tools compute.

Each share is computed here by hand from the raw demo documents (pymongo), then written once with its own
denominator (ok) and once with another (wrong).
"""

from __future__ import annotations

from collections import Counter

import pytest

from copilot_core.chat import ChatState
from copilot_core.checking.claims import check_claims
from copilot_core.session import Copilot
from copilot_core.settings import load_settings
from copilot_core.skills import SkillLibrary
from copilot_core.tools import DataStore, Toolkit
from tests.fakes.scripted_openai import SmartRequest, text
from tests.public_eval import CHIP, latest_values


def _failures(db) -> list[dict]:
    return list(db["task_result_history"].find({"chip_id": CHIP, "status": "failed"}))


def _finished(db) -> int:
    return db["task_result_history"].count_documents({"chip_id": CHIP, "status": {"$in": ["completed", "failed"]}})


def _top_share(db) -> float:
    """The most failing task's share of every failure (a share of failed tasks)."""
    failed = _failures(db)
    return 100 * Counter(d["name"] for d in failed).most_common(1)[0][1] / len(failed)


def _failed_share(db) -> float:
    """Failed task results among every finished one (a share of task results)."""
    return 100 * len(_failures(db)) / _finished(db)


def _below_share(db, name: str, limit: float, kind: str = "qubit") -> float:
    values = [v for v in latest_values(db, CHIP, name, kind).values() if v is not None]
    return 100 * sum(1 for v in values if v < limit) / len(values)


def _both_below(db, limit: float) -> float:
    """Qubits with T1 and T2 echo both below ``limit`` μs among those with both values."""
    t1, t2 = latest_values(db, CHIP, "t1"), latest_values(db, CHIP, "t2_echo")
    both = [q for q in t1 if t1[q] is not None and t2.get(q) is not None]
    return 100 * sum(1 for q in both if t1[q] < limit and t2[q] < limit) / len(both)  # type: ignore[operator]


# (tool, args, the share by hand, the share's own denominator words, another denominator's words)
CASES = [
    ("failure_ranking", {"chip_id": CHIP}, _top_share, "of all failed tasks", "of all tasks"),
    ("failure_ranking", {"chip_id": CHIP}, _top_share, "of the failures", "of every task result"),
    ("count_in_window", {"chip_id": CHIP, "what": "failed tasks"}, _failed_share, "of all finished task results",
     "of the failed tasks"),
    ("count_in_window", {"chip_id": CHIP, "what": "task results"}, _failed_share, "of the tasks that finished",
     "of the qubits"),
    ("filter_metric", {"chip_id": CHIP, "metric_name": "t1", "below": 45.0},
     lambda db: _below_share(db, "t1", 45.0), "of the qubits with a T1", "of all task results"),
    ("filter_metrics", {"chip_id": CHIP, "conditions": [{"metric_name": "t1", "below": 60.0},
                                                        {"metric_name": "t2_echo", "below": 60.0}]},
     lambda db: _both_below(db, 60.0), "of the qubits", "of the failed tasks"),
    ("filter_metric", {"chip_id": CHIP, "metric_name": "zx90_gate_fidelity", "below": 99.0},
     lambda db: _below_share(db, "zx90_gate_fidelity", 99.0, "coupling"), "of the couplings", "of the qubits"),
]


@pytest.mark.parametrize(("tool", "args", "share", "own", "other"), CASES)
def test_a_share_is_judged_by_the_denominator_its_words_name(tool, args, share, own, other, repo, demo_db):
    outcome = Toolkit(repo, store=DataStore()).execute(tool, args)
    assert outcome.ok, outcome.error
    value = share(demo_db)
    right = check_claims(f"That is {value:.1f}% {own}.", [outcome], question="what share?")
    assert [c.verdict for c in right.claims] == ["ok"], right.claims
    wrong = check_claims(f"That is {value:.1f}% {other}.", [outcome], question="what share?")
    assert [c.verdict for c in wrong.claims] == ["wrong"], wrong.claims
    loose = check_claims(f"That is {value:.1f}% of them.", [outcome], question="what share?")
    assert [c.verdict for c in loose.claims] == ["ok"], loose.claims  # no denominator named: nothing to hold


def test_the_failed_tasks_share_called_a_share_of_all_tasks_is_never_shown(repo, demo_db, scripted_openai,
                                                                            tmp_path):
    failed = _failures(demo_db)
    top, n = Counter(d["name"] for d in failed).most_common(1)[0]
    wrong = f"{top} fails most: {n} failed tasks out of {len(failed)}, {100 * n / len(failed):.2f}% of all tasks."

    def writes_the_wrong_denominator(request: SmartRequest):
        return text(wrong)

    scripted_openai.smart = writes_the_wrong_denominator
    copilot = Copilot(repo, settings=load_settings({"DATA_DIR": str(tmp_path)}), skills=SkillLibrary.load(),
                      memory=None, gate=False)
    provider = scripted_openai.provider("chat_completions", model="qwen2.5-coder-1.5b-instruct")
    turn = copilot.ask(ChatState(username="local", provider=provider, chip_id=CHIP),
                       "Which task fails most often?", clarify=True)
    shown = turn.answer.text if turn.answer is not None else ""
    assert "of all tasks" not in shown, shown
    assert f"{n} of {len(failed)} failed tasks" in shown, shown  # the tool's own sentence, with its denominator
