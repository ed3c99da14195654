"""Correlations and shares on the page's path (``Copilot.ask`` through ``page_turn``, clarification on, memory off, the
chip in view) against the scripted OpenAI-compatible server: what the person reads.

Router on, every dev question of ``tests/dev_corrpct7.py`` ends with the coefficient (its sign, band word and number
of qubits) or the share (with its count and the denominator asked) a hand-written pymongo read gives.  A model's own
words are held to the tools: a sign or strength word the coefficient contradicts, a coefficient no tool computed, a
coefficient other than the one named, a share over another denominator than its words say, a fraction written as a
percent.
"""

from __future__ import annotations

import pytest

from tests import dev_corrpct7
from tests.agent.page_turn import asked_on_small as _ask
from tests.fakes.scripted_models import caller_then_quoter, quoter, silent
from tests.fakes.scripted_openai import call, text
from tests.public_eval import CHIP, Question, passed

REPLACED = "The model's answer was replaced by one computed from the tool results"
NOTE = "Note: this"


@pytest.fixture(scope="module")
def dev(demo_db) -> dict[str, Question]:
    return {q.id: q for q in dev_corrpct7.build(demo_db)}


def _writes(words: str):
    def reply(request):
        return text(words)
    return reply


def _calls_then_writes(name: str, args: dict, words: str):
    def reply(request):
        if request.has_tools and not request.tool_results:
            return call(name, args)
        return text(words)
    return reply


WINDOWED = {"cpr-12": "the last 7 days", "cpr-23": "the last 14 days"}


@pytest.mark.parametrize("model", ["silent", "quoter"])
def test_every_dev_question_reads_the_truth_with_the_router_on(model, dev, repo, scripted_openai, tmp_path):
    scripted_openai.smart = {"silent": silent, "quoter": quoter}[model]
    wrong = []
    for q in dev.values():
        said = _ask(repo, scripted_openai, tmp_path, q.text, "on")
        if not passed(q, said, 0) or NOTE in said:
            wrong.append(f"{q.id}: {said[:300]}")
        elif q.id in WINDOWED and f"not limited to {WINDOWED[q.id]}" not in said:
            wrong.append(f"{q.id}: the window is not said to be left out: {said[:300]}")
    assert not wrong, "\n".join(wrong)


def _t1_frequency(demo_db) -> tuple[float, float, int]:
    return dev_corrpct7.coefficients(demo_db, CHIP, "t1", "qubit_frequency")


def test_a_sign_and_strength_the_coefficient_contradicts_are_never_shown(demo_db, repo, scripted_openai, tmp_path):
    pearson, _, n = _t1_frequency(demo_db)
    assert 0.1 <= pearson < 0.4  # by hand: a weak positive relation
    wrong = f"T1 and frequency show a strong negative correlation (r = {pearson:.2f}) over {n} qubits."
    scripted_openai.smart = _writes(wrong)
    said = _ask(repo, scripted_openai, tmp_path, "is T1 related to frequency?", "on")
    assert "strong negative" not in said and REPLACED in said, said
    assert f"Pearson r = {pearson:.2f} (weak positive relation)" in said and f"Across {n} qubits" in said, said


def test_words_that_fit_the_coefficient_are_kept_as_written(demo_db, repo, scripted_openai, tmp_path):
    pearson, _, n = _t1_frequency(demo_db)
    right = f"There is only a weak positive correlation between T1 and frequency: r = {pearson:.2f} over {n} qubits."
    scripted_openai.smart = _writes(right)
    said = _ask(repo, scripted_openai, tmp_path, "is T1 related to frequency?", "on")
    assert said.startswith(right) and REPLACED not in said, said


def test_a_coefficient_no_tool_computed_is_not_shown_as_one(repo, scripted_openai, tmp_path):
    """Router off: the model reads the chip summary and writes a coefficient of its own."""
    scripted_openai.smart = _calls_then_writes("get_chip_summary", {"chip_id": CHIP},
                                               "T1 and frequency correlate with r = 0.45, a moderate positive relation.")
    said = _ask(repo, scripted_openai, tmp_path, "is T1 related to frequency?", "off")
    assert "0.45" not in said and "moderate positive" not in said, said
    assert "Not answered: the question asks for the correlation coefficient; no call computed it" in said, said


@pytest.mark.parametrize("qid", ["cpr-5", "cpr-6", "cpr-20"])
def test_a_pearson_call_for_a_spearman_question_is_re_made(qid, dev, repo, scripted_openai, tmp_path):
    text_, a, b, kind, chip, _ = dev_corrpct7.CORRELATIONS[qid]
    scripted_openai.smart = caller_then_quoter("correlate_metrics", {"chip_id": chip, "metric_a": a, "metric_b": b,
                                                                     "method": "pearson"})
    said = _ask(repo, scripted_openai, tmp_path, text_, "off")
    assert "Spearman rho" in said and passed(dev[qid], said, 0), said


@pytest.mark.parametrize("qid", ["cpr-1", "cpr-14", "cpr-17"])
def test_a_relation_answered_by_a_filter_is_re_made_as_the_correlation(qid, dev, repo, scripted_openai, tmp_path):
    text_, a, _, _, chip, _ = dev_corrpct7.CORRELATIONS[qid]
    scripted_openai.smart = caller_then_quoter("filter_metric", {"chip_id": chip, "metric_name": a, "above": 50})
    said = _ask(repo, scripted_openai, tmp_path, text_, "off")
    assert passed(dev[qid], said, 0) and NOTE not in said, said


def _t1_above_50(demo_db) -> tuple[int, int, int]:
    vals = dev_corrpct7.present(demo_db, CHIP, "t1")
    return sum(1 for v in vals.values() if v > 50), len(vals), dev_corrpct7.on_chip(demo_db, CHIP, "qubit")


def test_a_share_of_those_with_a_value_called_a_share_of_all_is_never_shown(demo_db, repo, scripted_openai,
                                                                             tmp_path):
    hit, with_value, total = _t1_above_50(demo_db)
    assert with_value < total  # by hand: some qubits have no T1, so the two shares differ
    wrong = f"That is {100 * hit / with_value:.1f}% of all {total} qubits."
    scripted_openai.smart = _writes(wrong)
    said = _ask(repo, scripted_openai, tmp_path, f"out of all {total} qubits, what percent have T1 above 50 us?", "on")
    assert wrong not in said and REPLACED in said, said
    assert f"{100 * hit / total:.1f}% of all {total} on the chip" in said, said
    assert f"{hit} of {with_value} qubits" in said, said


def test_a_share_over_the_denominator_its_words_name_is_kept(demo_db, repo, scripted_openai, tmp_path):
    hit, _, total = _t1_above_50(demo_db)
    right = f"{hit} qubits, {100 * hit / total:.1f}% of all {total} qubits, have T1 above 50 μs."
    scripted_openai.smart = _writes(right)
    said = _ask(repo, scripted_openai, tmp_path, f"out of all {total} qubits, what percent have T1 above 50 us?", "on")
    assert said.startswith(right) and REPLACED not in said, said


@pytest.mark.parametrize("qid", ["cpp-4", "cpp-15"])
def test_a_share_of_those_with_a_value_asked_is_read_with_its_denominator(qid, demo_db, repo, scripted_openai,
                                                                          tmp_path):
    hit, with_value, total = dev_corrpct7.share_parts(demo_db, qid)
    scripted_openai.smart = _writes(f"That is {100 * hit / total:.1f}% of the qubits with a value.")
    said = _ask(repo, scripted_openai, tmp_path, dev_corrpct7.SHARES[qid][0], "on")
    if with_value != total:
        assert REPLACED in said, said
    assert f"{100 * hit / with_value:.1f}% of those with a value" in said, said


def test_a_fraction_written_as_a_percent_is_never_shown(demo_db, repo, scripted_openai, tmp_path):
    hit, with_value, _ = _t1_above_50(demo_db)
    fraction = hit / with_value
    wrong = f"About {fraction:.2f}% of the qubits have T1 above 50 us."
    scripted_openai.smart = _writes(wrong)
    said = _ask(repo, scripted_openai, tmp_path, "what fraction of qubits have T1 above 50 us?", "on")
    assert wrong not in said and f"{100 * fraction:.1f}% of those with a value" in said, said


def test_a_fraction_written_as_a_fraction_is_kept(demo_db, repo, scripted_openai, tmp_path):
    hit, with_value, _ = _t1_above_50(demo_db)
    right = f"A fraction of {hit / with_value:.2f} of the qubits with a value ({hit} of {with_value}) have T1 above 50 μs."
    scripted_openai.smart = _writes(right)
    said = _ask(repo, scripted_openai, tmp_path, "what fraction of qubits have T1 above 50 us?", "on")
    assert said.startswith(right) and REPLACED not in said, said


@pytest.mark.parametrize("days", [None, 7])
def test_the_excluded_count_states_its_share_of_finished_results(days, demo_db, repo):
    from copilot_core.tools import DataStore, Toolkit

    excluded, finished = dev_corrpct7.excluded_results(demo_db, CHIP, days)
    assert 0 < excluded < finished  # by hand: the demo excludes some results
    outcome = Toolkit(repo, store=DataStore()).execute(
        "count_in_window", {"chip_id": CHIP, "what": "excluded tasks", **({"days": days} if days else {})})
    assert outcome.ok, outcome.error
    assert f"{excluded} of {finished} finished task results ({100 * excluded / finished:.1f}%)" in outcome.model_text


def test_an_excluded_share_the_model_made_up_is_never_shown(demo_db, repo, scripted_openai, tmp_path):
    excluded, finished = dev_corrpct7.excluded_results(demo_db, CHIP, 7)
    made_up = f"{100 * excluded / finished + 4:.1f}%"
    scripted_openai.smart = _writes(f"About {made_up} of task results were excluded in the last week.")
    said = _ask(repo, scripted_openai, tmp_path, "what % of task results were excluded in the last week?", "on")
    assert made_up not in said and f"{excluded} of {finished} finished task results" in said, said
