"""The fourteenth stop's ranking classes through the page's path (``Copilot.ask``, the real openai SDK against the
scripted server over HTTP): a ranking asked in error words lists the subjects at the fidelity's other end; a model's
list at the error's wrong end is replaced; a model's chip-wide ranking for one qubit's couplings, or its median for a
cross-chip mean, spread or top subject, is re-made as asked.  Truths: the hand-written pymongo reads of
``tests/dev_ranks14.py``."""

from __future__ import annotations

import pytest

from tests import dev_ranks14 as dev
from tests.agent.page_turn import SMALL, asked_on_small, page_turn, shown
from tests.fakes.scripted_models import caller_then_quoter, quoter, silent
from tests.fakes.scripted_openai import text

ERROR_WORDED = [c for c in dev.RANKED if c.id in ("cz-err-low", "ro-err-high", "x90-infid", "cz-err-other",
                                                   "err-rate", "measure-err", "entangling")]


def _in_order(said: str, chip: str, subjects: list[str]) -> bool:
    at = [dev.found_at(said, chip, s) for s in subjects]
    return -1 not in at and at == sorted(at)


@pytest.mark.parametrize("model", [quoter, silent], ids=["quoter", "silent"])
@pytest.mark.parametrize("case", ERROR_WORDED, ids=[c.id for c in ERROR_WORDED])
def test_a_ranking_in_error_words_lists_the_fidelitys_other_end(case, model, demo_db, repo, scripted_openai,
                                                                tmp_path):
    scripted_openai.smart = model
    said = shown(page_turn(repo, scripted_openai, tmp_path, case.text, SMALL))
    assert _in_order(said, case.chip, [s for s, _ in dev.ranked_truth(demo_db, case)]), said


@pytest.mark.parametrize("router", ["on", "off"])
@pytest.mark.parametrize("qid", ["cz-err-low", "ro-err-high", "measure-err"])
def test_a_list_at_the_errors_wrong_end_is_replaced(qid, router, demo_db, repo, scripted_openai, tmp_path):
    """The model ranks the fidelity at the end the error word says ("lowest error": the lowest fidelity)."""
    case = next(c for c in dev.RANKED if c.id == qid)
    flipped = dev.Ranked(case.id, case.text, case.metric, "lowest" if case.order == "highest" else "highest",
                         case.n, case.chip)
    wrong = [s for s, _ in dev.ranked_truth(demo_db, flipped)]
    listed = ", ".join(dev.label(case.chip, s) for s in wrong)
    written = f"The ones asked for are {listed}."
    scripted_openai.smart = caller_then_quoter("rank_metric", dict(
        chip_id=case.chip, metric_name=case.metric, order=flipped.order, n=case.n)) if router == "off" else \
        (lambda request: text(written))
    if router == "off":
        scripted_openai.smart = _then_writes(scripted_openai.smart, written)
    said = asked_on_small(repo, scripted_openai, tmp_path, case.text, router)
    assert _in_order(said, case.chip, [s for s, _ in dev.ranked_truth(demo_db, case)]), said
    assert written not in said, said


def _then_writes(first, written: str):
    """The model's own call first, then its own list written as the answer."""
    def reply(request):
        return first(request) if request.has_tools and not request.tool_results else text(written)
    return reply


@pytest.mark.parametrize("case", dev.OF_QUBIT, ids=[c.id for c in dev.OF_QUBIT])
def test_a_chip_wide_ranking_for_one_qubits_couplings_is_re_made(case, demo_db, repo, scripted_openai, tmp_path):
    scripted_openai.smart = caller_then_quoter("rank_metric", {"chip_id": dev.CHIP, "metric_name": case.metric,
                                                               "order": "lowest", "n": 2})
    said = asked_on_small(repo, scripted_openai, tmp_path, case.text, "off")
    ranked = dev.qubit_couplings(demo_db, case)
    end = ranked[0] if case.end == "best" else ranked[-1]
    lead = said.lower().find(f"{case.end}: ")
    assert lead >= 0 and dev.found_at(said[lead:], dev.CHIP, end[0]) == len(case.end) + 2, (ranked, said)


@pytest.mark.parametrize("case", [c for c in dev.ACROSS if c.statistic in ("mean", "max", "min", "std", "range")],
                         ids=lambda c: c.id)
def test_a_median_across_chips_is_re_made_with_the_statistic_asked(case, demo_db, repo, scripted_openai, tmp_path):
    scripted_openai.smart = caller_then_quoter("compare_chips", {"metric_name": case.metric, "statistic": "median",
                                                                 "chip_ids": list(dev.CHIPS)})
    said = asked_on_small(repo, scripted_openai, tmp_path, case.text, "off")
    truth = dev.across_truth(demo_db, case)
    places = 1 if case.metric in ("t1", "t2_echo") else 2
    numbers = [float(n) for n in dev_numbers(said)]
    assert all(any(abs(n - v) <= 0.6 * 10 ** -places for n in numbers) for v in truth.values()), (truth, said)


def dev_numbers(said: str) -> list[str]:
    from tests.test_router_ranks14 import NUMBER
    return NUMBER.findall(said)


@pytest.mark.parametrize("right", [True, False], ids=["right", "wrong"])
@pytest.mark.parametrize("question, metric, sentence", [
    ("Which coupling has the lowest ZX90 error?", "zx90_gate_fidelity", "The coupling with the lowest ZX90 error is "
     "{name}."),
    ("Which single qubit has the smallest readout error?", "average_readout_fidelity", "{name} has the lowest "
     "readout error of all qubits."),
])
def test_a_sentence_naming_the_lowest_error_is_held_to_the_highest_fidelity(question, metric, sentence, right,
                                                                            demo_db, repo, scripted_openai, tmp_path):
    values = dev.values(demo_db, dev.CHIP, metric)
    best, worst = max(values, key=values.get), min(values, key=values.get)
    written = sentence.format(name=dev.label(dev.CHIP, best if right else worst))
    scripted_openai.smart = lambda request: text(written)
    said = asked_on_small(repo, scripted_openai, tmp_path, question, "on")
    assert (written in said and "not checked" not in said) if right else \
        (written not in said and dev.found_at(said, dev.CHIP, best) >= 0), said
