"""A ranking asked with no N ("which qubits have the worst T1?") through the page's path: the router's default
length is not the person's, so a model list of any length stands when it is the ranking's top that many, and is
re-made when it names a qubit outside it or names none.  An N the person writes is still held (``test_topn11_turns``).
Expected rankings are hand-written pymongo reads (``tests/dev_compound8.latest``)."""

from __future__ import annotations

import pytest

from tests.agent.page_turn import SMALL, page_turn, shown
from tests.dev_compound8 import latest
from tests.dev_shapes9 import label
from tests.fakes.scripted_openai import call, text
from tests.public_eval import CHIP

RE_MADE = "The model's list was replaced"
CASES = [  # (question, metric, lowest first)
    (f"Which qubits on {CHIP} have the lowest T1?", "t1", True),
    (f"Which qubits on {CHIP} have the weakest readout fidelity?", "average_readout_fidelity", True),
    (f"Which qubits on {CHIP} show the longest T2 echo?", "t2_echo", False),
]


def _ranked(db, metric: str, low: bool) -> list[tuple[str, float]]:
    values = [(k, v) for k, v in latest(db, CHIP, metric, "qubit").items() if v is not None]
    return sorted(values, key=lambda kv: kv[1], reverse=not low)


def _lists(rows: list[tuple[str, float]]) -> str:
    return "The qubits are " + ", ".join(f"{label(CHIP, k)} ({v:.2f})" for k, v in rows) + "."


def _model(metric: str, low: bool, answer: str):
    def reply(request):
        if request.has_tools and not request.tool_results:
            return call("rank_metric", {"chip_id": CHIP, "metric_name": metric, "order": "lowest" if low else
                                        "highest", "n": 3})
        return text(answer)
    return reply


@pytest.mark.parametrize("question, metric, low", CASES)
@pytest.mark.parametrize("size", [2, 3])
def test_the_top_few_in_the_models_words_stand(question, metric, low, size, demo_db, repo, scripted_openai, tmp_path):
    rows = _ranked(demo_db, metric, low)
    assert rows[size - 1][1] != rows[size][1]  # no tie at the cut: "the top that many" is one set
    answer = _lists(rows[:size])
    scripted_openai.smart = _model(metric, low, answer)
    said = shown(page_turn(repo, scripted_openai, tmp_path, question, SMALL))
    assert answer in said and RE_MADE not in said, said


@pytest.mark.parametrize("question, metric, low", CASES)
def test_a_list_with_an_outsider_is_re_made(question, metric, low, demo_db, repo, scripted_openai, tmp_path):
    rows = _ranked(demo_db, metric, low)
    wrong = _lists([rows[0], rows[-1]])  # the other end's qubit beside the first
    scripted_openai.smart = _model(metric, low, wrong)
    said = shown(page_turn(repo, scripted_openai, tmp_path, question, SMALL))
    assert wrong not in said, said
    assert label(CHIP, rows[0][0]) in said and label(CHIP, rows[1][0]) in said, said


@pytest.mark.parametrize("question, metric, low", CASES)
def test_a_list_naming_no_qubit_is_re_made(question, metric, low, demo_db, repo, scripted_openai, tmp_path):
    rows = _ranked(demo_db, metric, low)
    scripted_openai.smart = _model(metric, low, "The worst qubits are listed in the table.")
    said = shown(page_turn(repo, scripted_openai, tmp_path, question, SMALL))
    assert all(label(CHIP, k) in said for k, _ in rows[:3]), said
