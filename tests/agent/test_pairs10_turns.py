"""Two subjects compared on a derived figure through the page's path (``Copilot.ask``, the real openai SDK against
the scripted server over HTTP): what the person reads states the gap between two latest values (with its unit and
which side is higher) or their ratio, or each qubit's statistic of its history over the window asked (mean, median,
maximum, minimum, standard deviation, change), the side asked about first; a model call that reads latest values,
another window or another statistic is re-made.  Expected values are the hand-written pymongo reads of
``tests/dev_pairs10.py``."""

from __future__ import annotations

import pytest

from tests import dev_pairs10
from tests.agent.page_turn import SMALL, asked_on_small, page_turn, shown
from tests.eval_score import problems
from tests.fakes.scripted_models import caller_then_quoter, quoter, silent
from tests.fakes.scripted_openai import text


def _wrong(demo_db, repo, scripted_openai, tmp_path, model) -> list:
    scripted_openai.smart = model
    wrong = []
    for question, _ in dev_pairs10.planned(demo_db):
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


def _question(demo_db, qid: str):
    return next((q, c) for q, c in dev_pairs10.planned(demo_db) if q.id == qid)


@pytest.mark.parametrize("qid, name, drop", [
    ("p10-window-1", "compare_qubits", ("days", "statistic", "parameter_name")),  # latest values for a std
    ("p10-window-8", "get_chip_parameter_timeseries", ("statistic",)),  # a mean for a drift
    ("p10-window-4", "get_chip_parameter_timeseries", ("days",)),  # every stored point for 10 days' median
    ("p10-window-10", "get_qubit_params", ("days", "statistic", "parameter_name", "qids")),  # one qubit's latest
])
def test_a_model_call_missing_the_window_or_the_statistic_is_re_made(qid, name, drop, demo_db, repo,
                                                                      scripted_openai, tmp_path):
    question, (_, args) = _question(demo_db, qid)
    given = {k: v for k, v in args.items() if k not in drop}
    if name == "compare_qubits":
        given |= {"param_names": [args["parameter_name"]]}
    if name == "get_qubit_params":
        given |= {"qid": args["qids"][0]}
    scripted_openai.smart = caller_then_quoter(name, given)
    said = asked_on_small(repo, scripted_openai, tmp_path, question.text, "off")
    assert not problems(question.truth, said), said


def test_a_dump_of_latest_values_for_a_gap_question_gets_the_gap(demo_db, repo, scripted_openai, tmp_path):
    question, _ = _question(demo_db, "p10-gap-2")
    a, b = (e.value for e in question.truth.expects[:2])
    qa, qb = (n for n in question.text.split() if n.startswith("Q"))
    scripted_openai.smart = lambda request: text(f"{qa.rstrip(chr(39) + 's')} T1 {a:.1f} μs; "
                                                 f"{qb.rstrip(chr(39) + 's?')} T1 {b:.1f} μs.")
    said = shown(page_turn(repo, scripted_openai, tmp_path, question.text, SMALL))
    assert not problems(question.truth, said), said


# --- a top N the model ranks another way: replaced by the router's ranking ------------------------------------

RE_MADE = "was replaced by one computed from the tool results"
OTHER_METRIC = {"t1": "t2_echo", "t2_echo": "t1", "x90_gate_fidelity": "average_readout_fidelity",
                "average_readout_fidelity": "x90_gate_fidelity", "zx90_gate_fidelity": "bell_state_fidelity",
                "bell_state_fidelity": "zx90_gate_fidelity", "qubit_frequency": "t1", "zx90_gate_time":
                "zx90_gate_fidelity"}
FLIP = {"highest": "lowest", "lowest": "highest"}


def _then_writes(name: str, args: dict, body: str):
    """A model that makes one call, then writes ``body`` whatever the call returned."""
    from tests.fakes.scripted_openai import call

    return lambda request: call(name, args) if not request.tool_results else text(body)


def _listing(rows: list[tuple[str, float]]) -> str:
    named = (f"Q{k.split('-')[0]}-Q{k.split('-')[1]}" if "-" in k else f"Q{k}" for k, _ in rows)
    return "Here they are:\n" + "\n".join(f"{i + 1}. {q}: {v:.2f}" for i, (q, (_, v)) in enumerate(zip(named, rows)))


def _wrong_list(db, how: str, name: str, chip: str, order: str, n: int) -> tuple[str, dict, str]:
    """The call a model makes that ranks ``how`` wrong, and the list it writes from it (pymongo, by hand)."""
    other_chip = dev_pairs10.OTHER if chip == dev_pairs10.CHIP else dev_pairs10.CHIP
    metric, on, end, many = {"metric": (OTHER_METRIC[name], chip, order, n), "chip": (name, other_chip, order, n),
                             "end": (name, chip, FLIP[order], n), "n": (name, chip, order, n - 2),
                             "summary": (name, chip, FLIP[order], n)}[how]
    rows = dev_pairs10.ranked(db, on, metric, end)[:many]
    if how == "summary":
        return "get_chip_summary", {"chip_id": chip, "param_names": [name]}, _listing(rows)
    return "rank_metric", {"chip_id": on, "metric_name": metric, "order": end, "n": many}, _listing(rows)


@pytest.mark.parametrize("qid, how", [
    ("p10-top-1", "metric"), ("p10-top-1", "chip"), ("p10-top-1", "end"), ("p10-top-1", "n"),
    ("p10-top-2", "chip"), ("p10-top-3", "summary"), ("p10-top-4", "metric"), ("p10-top-5", "end"),
    ("p10-top-6", "n"),
])
def test_a_top_n_ranked_another_way_is_replaced_by_the_routers_ranking(qid, how, demo_db, repo, scripted_openai,
                                                                        tmp_path):
    question, (_, args) = _question(demo_db, qid)
    name, *call = _wrong_list(demo_db, how, args["metric_name"], args["chip_id"], args["order"], args["n"])
    scripted_openai.smart = _then_writes(name, *call)
    said = asked_on_small(repo, scripted_openai, tmp_path, question.text, "off")
    assert RE_MADE in said and not problems(question.truth, said), said


def test_the_right_top_n_written_in_the_models_words_is_kept(demo_db, repo, scripted_openai, tmp_path):
    question, (_, args) = _question(demo_db, "p10-top-1")
    rows = dev_pairs10.ranked(demo_db, args["chip_id"], "t1", "highest")[:5]
    scripted_openai.smart = _then_writes("rank_metric", args, _listing(rows))
    said = asked_on_small(repo, scripted_openai, tmp_path, question.text, "off")
    assert RE_MADE not in said and said.startswith("Here they are"), said
