"""The twelfth stop's ranking, coupling, unit and absence classes through the page's path (``Copilot.ask``, the real
openai SDK against the scripted server over HTTP): what the person reads names the subjects and values the
hand-written pymongo reads of ``tests/dev_ranks12.py`` give, in the unit asked; a model that writes a ranking or a
coupling answer the data does not back is replaced; a quantity or subject the data does not hold gets no value."""

from __future__ import annotations

import re

import pytest

from tests import dev_ranks12 as dev
from tests.agent.page_turn import SMALL, asked_on_small, page_turn, shown
from tests.fakes.scripted_models import quoter, silent
from tests.fakes.scripted_openai import call, text
from tests.public_eval import CHIP

UNITS = {"t1": ("μs", 1), "t2_echo": ("μs", 1), "t2_star": ("μs", 1), "zx90_gate_time": ("ns", 1),
         "average_readout_fidelity": ("%", 2), "x90_gate_fidelity": ("%", 2), "zx90_gate_fidelity": ("%", 2)}
VALUED = re.compile(r"\d+\.\d+ ?(?:μs|%|GHz|MHz|ns)")


def _shown(metric: str, value: float) -> str:
    unit, places = UNITS[metric]
    return f"{value:.{places}f}{'' if unit == '%' else ' '}{unit}"


def _ask(repo, server, tmp_path, question: str, model) -> str:
    server.smart = model
    return shown(page_turn(repo, server, tmp_path, question, SMALL))


@pytest.mark.parametrize("model", [quoter, silent], ids=["quoter", "silent"])
@pytest.mark.parametrize("case", dev.RANKED, ids=[c.id for c in dev.RANKED])
def test_an_own_words_ranking_lists_the_ranked_qubits_and_values(case, model, demo_db, repo, scripted_openai,
                                                                 tmp_path):
    said = _ask(repo, scripted_openai, tmp_path, case.text, model)
    missing = [f"{dev.label(q)} {_shown(case.metric, v)}" for q, v in dev.ranked_truth(demo_db, case)
               if f"{dev.label(q)} {_shown(case.metric, v)}" not in said]
    assert not missing, (missing, said)


@pytest.mark.parametrize("case", dev.COUPLED, ids=[c.id for c in dev.COUPLED])
def test_one_coupling_in_any_writing_gets_its_value_and_its_ends(case, demo_db, repo, scripted_openai, tmp_path):
    said = _ask(repo, scripted_openai, tmp_path, case.text, quoter)
    a, b = case.pair
    assert _shown(case.metric, dev.coupling_value(demo_db, CHIP, a, b, case.metric)) in said, said
    if case.qubit_metric is not None:
        values = dev.latest(demo_db, CHIP, case.qubit_metric)
        for q in (a, b):
            assert f"{dev.label(q)} {_shown(case.qubit_metric, values[str(q)])}" in said, said
        top = max((a, b), key=lambda q: values[str(q)])
        assert re.search(rf"{dev.label(top)} has the (longer|higher)", said), said
    assert "not checked" not in said, said


@pytest.mark.parametrize("model", [quoter, silent], ids=["quoter", "silent"])
@pytest.mark.parametrize("case", dev.IN_UNIT, ids=[c.id for c in dev.IN_UNIT])
def test_a_value_asked_in_another_unit_is_written_in_it(case, model, demo_db, repo, scripted_openai, tmp_path):
    said = _ask(repo, scripted_openai, tmp_path, case.text, model)
    missing = [w for w in dev.unit_truth(demo_db, case) if w not in said]
    assert not missing and "not checked" not in said, (missing, said)


@pytest.mark.parametrize("case", dev.ABSENT, ids=[c.id for c in dev.ABSENT])
def test_a_quantity_or_subject_not_held_gets_no_value(case, demo_db, repo, scripted_openai, tmp_path):
    said = _ask(repo, scripted_openai, tmp_path, case.text, quoter)
    assert case.words in said and not VALUED.search(said), said


INVENTED = [  # (question id, the model's own answer): names or values the ranking does not give
    ("relax-fastest", "The five qubits with the smallest T1 are Q01, Q02, Q03, Q04 and Q05. Their T1 values are "
     "21.7 μs, 21.7 μs, 21.7 μs, 21.7 μs and 21.7 μs."),
    ("relax-fastest", "The qubits relaxing fastest are {names}. They have T1 of 20.1 μs, 20.1 μs, 20.1 μs, 20.1 μs "
     "and 20.1 μs."),
    ("leading-t1", "Leading on T1 are {names}. Each has a T1 of {first}."),
    ("trailing-ro", "{names} trail on readout fidelity. Their readout fidelities are {first}, {first} and {first}."),
    ("most-small-t2e", "The smallest T2 echo belongs to {names}. All four sit at {first}."),
    ("quickest", "Q00, Q01, Q02 and Q03 relax quickest. Their T1 is {first}. That is short."),
]


@pytest.mark.parametrize("router", ["on", "off"])
@pytest.mark.parametrize("qid, written", INVENTED)
def test_a_ranking_with_invented_names_or_values_is_re_made_from_the_ranking(qid, written, router, demo_db, repo,
                                                                              scripted_openai, tmp_path):
    case = next(c for c in dev.RANKED if c.id == qid)
    truth = dev.ranked_truth(demo_db, case)
    answer = written.format(names=", ".join(dev.label(q) for q, _ in truth),
                            first=_shown(case.metric, truth[0][1]))
    scripted_openai.smart = lambda request: text(answer) if request.tool_results or router == "on" else \
        call("get_chip_summary", {"chip_id": CHIP})
    said = asked_on_small(repo, scripted_openai, tmp_path, case.text, router)
    assert "replaced" in said, said
    assert all(f"{dev.label(q)} {_shown(case.metric, v)}" in said for q, v in truth), said


def test_a_coupling_answer_with_another_metrics_values_is_re_made(demo_db, repo, scripted_openai, tmp_path):
    case = next(c for c in dev.COUPLED if c.id == "and-t2e")
    stars = dev.latest(demo_db, CHIP, "t2_star")
    a, b = case.pair
    scripted_openai.smart = lambda request: text(
        f"{dev.label(a)}-{dev.label(b)} has a ZX90 fidelity of "
        f"{_shown(case.metric, dev.coupling_value(demo_db, CHIP, a, b, case.metric))}. {dev.label(b)} has the longer "
        f"T2 echo, {_shown('t2_star', stars[str(b)])} against {_shown('t2_star', stars[str(a)])}.")
    said = asked_on_small(repo, scripted_openai, tmp_path, case.text, "on")
    echoes = dev.latest(demo_db, CHIP, "t2_echo")
    assert "replaced" in said and all(f"{dev.label(q)} {_shown('t2_echo', echoes[str(q)])}" in said for q in (a, b)), \
        said
