"""Two subjects side by side on one metric through the page's path (``Copilot.ask``, the real openai SDK against
the scripted server over HTTP): what the person reads states the asked metric for both sides, the better side
first (a gate time: the shorter), two couplings as couplings, and two qubits' means over a window when asked over
one.  Expected values and winners are the hand-written pymongo reads of ``tests/dev_pairs9.py``."""

from __future__ import annotations


import re

from tests import dev_pairs9
from tests.agent.page_turn import SMALL, page_turn, shown
from tests.eval_score import problems
from tests.fakes.scripted_models import quoter, silent
from tests.fakes.scripted_openai import text


def _wrong(demo_db, repo, scripted_openai, tmp_path, model) -> list:
    scripted_openai.smart = model
    wrong = []
    for question, _ in dev_pairs9.planned(demo_db):
        said = shown(page_turn(repo, scripted_openai, tmp_path, question.text, SMALL))
        if found := problems(question.truth, said):
            wrong.append((question.id, question.text, found, said))
    return wrong


def test_the_quoter_answers_every_dev_question(demo_db, repo, scripted_openai, tmp_path):
    wrong = _wrong(demo_db, repo, scripted_openai, tmp_path, quoter)
    assert not wrong, "\n".join(map(str, wrong))


def test_a_silent_model_still_reads_every_answer_from_the_tools(demo_db, repo, scripted_openai, tmp_path):
    wrong = _wrong(demo_db, repo, scripted_openai, tmp_path, silent)
    assert not wrong, "\n".join(map(str, wrong))


def _writes(answer: str):
    return lambda request: text(answer)


def _sides(demo_db, prefix: str):
    """The first dev question of a kind, with its winner and loser values (winner first)."""
    question, call = next((q, c) for q, c in dev_pairs9.planned(demo_db) if q.id.startswith(prefix))
    values = [e.value for e in question.truth.expects]
    return question, call, values


def _fmt(value: float) -> str:
    return f"{value:.2f}"


def test_a_model_naming_the_wrong_coupling_better_is_not_left_standing(demo_db, repo, scripted_openai, tmp_path):
    question, (_, args), (va, vb) = _sides(demo_db, "p9-coupling-3")
    first, second = args["coupling_ids"]
    # the truth's winner is whichever holds the better value; the model names the other one better
    win_first = re.search(question.truth.winner, f"Q{first.split('-')[0]}-Q{first.split('-')[1]}") is not None
    lose, win = (first, second) if not win_first else (second, first)
    lv, wv = (va, vb) if lose == first else (vb, va)
    label = lambda c: "Q{}-Q{}".format(*c.split("-"))  # noqa: E731
    scripted_openai.smart = _writes(f"{label(lose)} has the higher ZX90 gate fidelity: {_fmt(lv)}% against "
                                    f"{_fmt(wv)}% for {label(win)}.")
    said = shown(page_turn(repo, scripted_openai, tmp_path, question.text, SMALL))
    assert not problems(question.truth, said), said


def test_a_model_naming_the_wrong_qubit_better_is_not_left_standing(demo_db, repo, scripted_openai, tmp_path):
    question, (_, args), (va, vb) = _sides(demo_db, "p9-qubit-1")
    a, b = args["qids"]
    win_a = re.search(question.truth.winner, f"Q{a}") is not None
    win, lose, wv, lv = (a, b, va, vb) if win_a else (b, a, vb, va)
    scripted_openai.smart = _writes(f"Q{lose} is better: its readout fidelity is {_fmt(lv)}%, higher than "
                                    f"Q{win}'s {_fmt(wv)}%.")
    said = shown(page_turn(repo, scripted_openai, tmp_path, question.text, SMALL))
    assert not problems(question.truth, said), said


def test_a_model_quoting_one_side_only_gets_both_values(demo_db, repo, scripted_openai, tmp_path):
    question, (_, args), (va, vb) = _sides(demo_db, "p9-qubit-2")
    a, b = args["qids"]
    win_a = re.search(question.truth.winner, f"Q{a}") is not None
    win, wv = (a, va) if win_a else (b, vb)
    scripted_openai.smart = _writes(f"Q{win} is better. Q{win} {_fmt(wv)}%.")
    said = shown(page_turn(repo, scripted_openai, tmp_path, question.text, SMALL))
    assert not problems(question.truth, said), said


def test_latest_values_for_a_question_over_a_weeks_average_are_not_left_as_its_answer(demo_db, repo,
                                                                                      scripted_openai, tmp_path):
    question, (_, args), _ = _sides(demo_db, "p9-mean-1")
    a, b = args["qids"]
    latest = {q: dev_pairs9.qubit_value(demo_db, "64Qv3", int(q), "t1") for q in (a, b)}
    high, low = sorted((a, b), key=lambda q: -latest[q])
    scripted_openai.smart = _writes(f"Q{high} has the higher T1: {latest[high]:.1f} μs against {latest[low]:.1f} μs "
                                    f"for Q{low}.")
    said = shown(page_turn(repo, scripted_openai, tmp_path, question.text, SMALL))
    assert not problems(question.truth, said), said
