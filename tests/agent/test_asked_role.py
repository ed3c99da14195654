"""The statistic the question's shape asks for reaches the person: a scripted model answers with another statistic
(every number of it right) and the answer read carries the tool's sentence of the asked role, marked; right answers
are left alone.  Through ``Copilot.ask`` (the page's path) with the scripted OpenAI-compatible server.

Truths are pymongo reads (``tests/dev_shapes_a.py`` helpers, ``tests/public_eval.latest_values``); what the scripted
model writes is computed here from the same reads, never from the tools.
"""

from __future__ import annotations

import statistics

import pytest

from copilot_core.checking.top_list import RE_RANKED
from tests.dev_shapes_a import _correlation, _present, _share, _spread
from tests.eval_score import Truth, problems
from tests.fakes.scripted_models import quoter
from tests.fakes.scripted_openai import SmartRequest, text
from tests.public_eval import CHIP, Question
from tests.agent.page_turn import SMALL, page_turn

NOTE = "does not state the"


def _ask(repo, server, tmp_path, question: str) -> tuple[str, str]:
    turn = page_turn(repo, server, tmp_path, question, SMALL)
    assert turn.answer is not None and turn.result is not None
    return turn.answer.text, turn.result.claims


def _label(qid: str) -> str:
    return f"Q{int(qid):02d}"


def _cases(db) -> dict[str, tuple[Question, str]]:
    """Per shape: the question with its truth, and an answer that states another statistic (its numbers right)."""
    t1 = _present(db, "t1")
    top = sorted(t1, key=lambda q: t1[q], reverse=True)
    above = sorted((q for q in t1 if t1[q] > 80.0), key=int)
    below = sorted((q for q in t1 if t1[q] < 50.0), key=int)
    five = Question("role-top", "extreme", "Which 5 qubits have the highest T1?",
                    Truth(tuple((t1[q], 0.051) for q in top[:5])))
    count = Question("role-count", "count", "How many qubits have T1 below 50 μs?", Truth(((len(below), 0),)))
    return {
        "spread": (_spread(db, "role-spread", "How widely does T1 vary across 64Qv3?", "t1", "std"),
                   f"The highest T1 on {CHIP} is {t1[top[0]]:.1f} μs, on {_label(top[0])}."),
        "percentage": (_share(db, "role-share", "What percentage of qubits have T1 over 80 μs?", "t1", "above", 80.0),
                       "These qubits have T1 above 80 μs: " + ", ".join(
                           f"{_label(q)} ({t1[q]:.1f} μs)" for q in above[:3]) + "."),
        "count": (count, f"{_label(below[0])} has T1 below 50 μs: {t1[below[0]]:.1f} μs."),
        "correlation": (_correlation(db, "role-corr", "Is T1 correlated with T2 echo across the qubits?", "t1",
                                     "t2_echo"),
                        f"Yes, across the {len(set(t1) & set(_present(db, 't2_echo')))} qubits with both values "
                        "they go together."),
        "top N": (five, f"The highest T1 is {t1[top[0]]:.1f} μs, on {_label(top[0])}."),
    }


@pytest.fixture(scope="module")
def cases(demo_db):
    return _cases(demo_db)


@pytest.mark.parametrize("shape", ["spread", "percentage", "count", "correlation", "top N"])
def test_an_answer_with_the_wrong_statistic_gets_the_asked_one(shape, cases, repo, scripted_openai, tmp_path):
    question, wrong = cases[shape]
    assert problems(question.truth, wrong), "the scripted answer must miss the asked statistic"

    def model(request: SmartRequest):
        return text(wrong)

    scripted_openai.smart = model
    shown, claims = _ask(repo, scripted_openai, tmp_path, question.text)
    assert not problems(question.truth, shown), shown
    # a share answered with a list is replaced by the share (checking/asked_subject.py), a spread or a top N missing
    # its size by the tools' sentence (checking/asked_role.py's sized); the others are completed
    # (a top N naming fewer than N is re-ranked before the claim check: checking/top_list.py)
    if shape == "top N":
        assert RE_RANKED in shown and wrong not in shown, shown
        return
    replaced = shape in ("percentage", "spread")
    assert NOTE in shown and claims == ("replaced" if replaced else "completed"), shown
    assert not replaced or wrong not in shown, shown


@pytest.mark.parametrize("shape", ["spread", "percentage", "count", "correlation", "top N"])
def test_the_tools_sentence_quoted_is_left_alone(shape, cases, repo, scripted_openai, tmp_path):
    question, _ = cases[shape]
    scripted_openai.smart = quoter
    shown, claims = _ask(repo, scripted_openai, tmp_path, question.text)
    assert not problems(question.truth, shown), shown
    assert NOTE not in shown and claims == "kept", shown


def test_right_answers_in_the_models_own_words_are_left_alone(demo_db, repo, scripted_openai, tmp_path):
    t1, t2 = _present(demo_db, "t1"), _present(demo_db, "t2_echo")
    std = statistics.stdev(t1.values())
    share = 100.0 * sum(1 for v in t1.values() if v > 80.0) / len(t1)
    both = sorted(set(t1) & set(t2))
    r = statistics.correlation([t1[q] for q in both], [t2[q] for q in both])
    below = sum(1 for v in t1.values() if v < 50.0)
    own = {"How widely does T1 vary across 64Qv3?": f"T1 varies with a standard deviation of {std:.1f} μs.",
           "What percentage of qubits have T1 over 80 μs?": f"About {share:.1f}% of the qubits with a value do.",
           "Is T1 correlated with T2 echo across the qubits?": f"Yes: Pearson r = {r:.2f}.",
           "How many qubits have T1 below 50 μs?": f"{below} qubits have T1 below 50 μs."}
    for question, answer in own.items():
        scripted_openai.smart = lambda request, answer=answer: text(answer)
        shown, claims = _ask(repo, scripted_openai, tmp_path, question)
        assert shown.strip() == answer and claims == "kept", (question, shown)


def test_when_no_tool_computed_the_asked_statistic_the_answer_says_so(demo_db, repo):
    """A spread question whose turn only ranked the qubits: no sentence to add, a visible note instead."""
    from copilot_core.answer.blocks import TextBlock
    from copilot_core.checking.verify import checked_blocks
    from copilot_core.tools import DataStore, Toolkit

    t1 = _present(demo_db, "t1")
    top = max(t1, key=lambda q: t1[q])
    outcome = Toolkit(repo, store=DataStore()).execute("rank_metric", {"chip_id": CHIP, "metric_name": "t1",
                                                                       "order": "highest", "n": 1})
    assert outcome.ok
    answer = f"The highest T1 on {CHIP} is {t1[top]:.1f} μs, on {_label(top)}."
    blocks, _, claims = checked_blocks([TextBlock(answer)], "How widely does T1 vary across 64Qv3?", [outcome])
    texts = [b.text for b in blocks if isinstance(b, TextBlock)]
    assert texts[0] == answer and claims == "kept"
    assert texts[-1] == ("_The answer does not state the spread (standard deviation, range, IQR or coefficient of "
                         "variation) the question asks for: no tool computed it._")
