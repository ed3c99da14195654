"""What the person reads on the page's path (``Copilot.ask``, the scripted OpenAI-compatible server over HTTP through
the real openai SDK) for the dev questions of ``tests/dev_scope8.py``: the scope, statistic and denominator asked.

Router on: the router's call answers every question with the numbers a hand-written pymongo read gives, no note.
Router off: a model's call with another scope (one chip's summary or filter for a question across chips), another
statistic (a median for a share or a spread, an extreme value or a filter for a spread, a count of measurements for
a count of qubits), or no call at all, ends with the values of the scope and statistic asked; a share written over
another denominator than its words name is never shown."""

from __future__ import annotations

import pytest

from copilot_core.checking.restate import mismatches
from copilot_core.language.question import parse
from tests import dev_scope8
from tests.agent.page_turn import asked_on_small as _ask
from tests.dev_corrpct7 import on_chip, present
from tests.fakes.scripted_models import caller_then_quoter, quoter, silent
from tests.fakes.scripted_openai import call, text
from tests.public_eval import CHIP, OTHER, Question, passed

NOTE = "Note: this"
FAILED = "could not be computed"
CHIPS = dev_scope8.CHIPS


@pytest.fixture(scope="module")
def dev(demo_db) -> dict[str, Question]:
    return {q.id: q for q in dev_scope8.build(demo_db)}


@pytest.mark.parametrize("model", ["silent", "quoter"])
def test_the_routers_call_answers_every_dev_question_with_no_note(model, dev, repo, scripted_openai, tmp_path):
    scripted_openai.smart = {"silent": silent, "quoter": quoter}[model]
    wrong = []
    for q in dev.values():
        said = _ask(repo, scripted_openai, tmp_path, q.text, "on")
        if not passed(q, said, 0) or NOTE in said or FAILED in said:
            wrong.append(f"{q.id}: {said[:500]}")
    assert not wrong, "\n".join(wrong)


def _summary(name: str) -> dict:
    return {"chip_id": CHIP, "param_names": [name]}


WRONG_CALLS = [
    ("s8-chip-1", "get_chip_summary", _summary("t1")),  # one chip's summary for "which chip is better"
    ("s8-chip-2", "get_chip_summary", {"chip_id": CHIP}),  # "compare the two devices"
    ("s8-chip-7", "compare_chips", {"metric_name": "t1", "statistic": "median", "pooled": True}),  # median for a max
    ("s8-share-1", "compare_chips", {"metric_name": "t1", "statistic": "median"}),  # a median for a share
    ("s8-share-1", "filter_metric", {"chip_id": CHIP, "metric_name": "t1", "above": 50}),  # one chip's share
    ("s8-share-3", "get_chip_summary", _summary("average_readout_fidelity")),
    ("s8-share-4", "compare_chips", {"metric_name": "t1", "above": 40}),  # each chip's share for a pooled one
    ("s8-share-6", "count_in_window", {"chip_id": CHIP, "what": "measurements", "chip_ids": list(CHIPS),
                                       "metric_name": "t1"}),  # a count of measurements for a count of qubits
    ("s8-spread-1", "rank_metric", {"chip_id": CHIP, "metric_name": "t1", "order": "lowest", "n": 1}),  # an extreme
    ("s8-spread-2", "get_chip_summary", _summary("t2_echo")),  # a center for "scatter"
    ("s8-spread-4", "filter_metric", {"chip_id": CHIP, "metric_name": "t1", "below": 50}),  # a filter
    ("s8-spread-5", "metric_spread", {"chip_id": CHIP, "metric_name": "average_readout_fidelity"}),  # std for IQR
    ("s8-spread-3", "metric_spread", {"chip_id": CHIP, "metric_name": "qubit_frequency"}),  # GHz for MHz
    ("s8-spread-8", "compare_chips", {"metric_name": "x90_gate_fidelity", "statistic": "median"}),  # median for spread
    ("s8-spread-9", "metric_spread", {"chip_id": CHIP, "metric_name": "average_readout_fidelity"}),  # one chip
]


@pytest.mark.parametrize(("qid", "name", "args"), WRONG_CALLS)
def test_a_models_call_with_another_scope_or_statistic_is_re_made(qid, name, args, dev, repo, scripted_openai,
                                                                  tmp_path):
    """Router off: only the model's own call; the person reads the values pymongo gives, with no note."""
    assert mismatches(parse(dev[qid].text, CHIPS), name, args), "the wrong call must be wrong"
    scripted_openai.smart = caller_then_quoter(name, args)
    said = _ask(repo, scripted_openai, tmp_path, dev[qid].text, "off")
    assert passed(dev[qid], said, 0), said
    assert NOTE not in said, said


def _caller_then_silent(name: str, args: dict):
    def reply(request):
        if request.has_tools and not request.tool_results:
            return call(name, args)
        return text("")
    return reply


@pytest.mark.parametrize(("qid", "name", "args"), [WRONG_CALLS[i] for i in (0, 4, 7, 8, 13)])
def test_a_silent_model_after_a_wrong_call_reads_the_re_made_calls_values(qid, name, args, dev, repo,
                                                                         scripted_openai, tmp_path):
    scripted_openai.smart = _caller_then_silent(name, args)
    said = _ask(repo, scripted_openai, tmp_path, dev[qid].text, "off")
    assert passed(dev[qid], said, 0), said


def _writes(words: str):
    def reply(request):
        return text(words)
    return reply


@pytest.mark.parametrize("qid", ["s8-chip-1", "s8-share-1", "s8-spread-8", "s8-spread-1"])
def test_a_model_that_writes_no_call_still_ends_with_the_scope_asked(qid, dev, repo, scripted_openai, tmp_path):
    """Router off, the model answers in words of one chip with no call: that answer is never shown as it is."""
    scripted_openai.smart = _writes(f"On {CHIP} the median T1 is 12.3 us.")
    said = _ask(repo, scripted_openai, tmp_path, dev[qid].text, "off")
    assert "12.3" not in said or "not" in said.lower(), said
    assert passed(dev[qid], said, 0), said


def test_a_share_across_chips_names_both_denominators_per_chip(demo_db, repo, scripted_openai, tmp_path):
    scripted_openai.smart = quoter
    said = _ask(repo, scripted_openai, tmp_path, "what fraction of qubits have T1 above 50 us on both chips?", "on")
    for chip in CHIPS:
        vals = present(demo_db, chip, "t1").values()
        hit, total = sum(1 for v in vals if v > 50), on_chip(demo_db, chip, "qubit")
        assert f"{chip}: {hit} of {len(vals)} qubits with a value ({100 * hit / len(vals):.1f}% of those with a " \
               f"value; {100 * hit / total:.1f}% of all {total} qubits on the chip)" in said, said


def test_a_share_of_all_qubits_written_over_those_with_a_value_is_never_shown(demo_db, repo, scripted_openai,
                                                                             tmp_path):
    vals = present(demo_db, CHIP, "t2_echo").values()
    hit, total = sum(1 for v in vals if v > 40), on_chip(demo_db, CHIP, "qubit")
    assert len(vals) != total
    wrong = f"{100 * hit / len(vals):.1f}% of all {total} qubits on the chip have T2 echo above 40 us."
    scripted_openai.smart = caller_then_quoter("filter_metric", {"chip_id": CHIP, "metric_name": "t2_echo",
                                                                  "above": 40})
    scripted_openai.smart = _calls_then_writes("filter_metric", {"chip_id": CHIP, "metric_name": "t2_echo",
                                                                  "above": 40}, wrong)
    said = _ask(repo, scripted_openai, tmp_path, "of all qubits on the chip, what proportion have T2 echo above 40 us?",
                "off")
    assert wrong not in said, said
    assert f"{100 * hit / total:.1f}%" in said, said


def _calls_then_writes(name: str, args: dict, words: str):
    def reply(request):
        if request.has_tools and not request.tool_results:
            return call(name, args)
        return text(words)
    return reply


@pytest.mark.parametrize(("text_", "name", "args"), [
    ("what share of qubits have T1 above 50 us on each chip", "compare_chips", {"metric_name": "t1", "above": 50}),
    ("percent of qubits over 40 us T1, all chips pooled", "compare_chips",
     {"metric_name": "t1", "above": 40, "pooled": True}),
    ("how consistent is T2 echo?", "metric_spread", {"chip_id": CHIP, "metric_name": "t2_echo", "lead": "std"}),
    ("the 3 qubits with the lowest T1", "rank_metric", {"chip_id": CHIP, "metric_name": "t1", "order": "lowest",
                                                        "n": 3}),
    ("mean T1 of the chip", "get_chip_summary", _summary("t1")),
    ("which qubits have T1 below 30 us?", "filter_metric", {"chip_id": CHIP, "metric_name": "t1", "below": 30}),
])
def test_a_call_that_restates_its_scope_and_statistic_has_no_mismatch(text_, name, args):
    assert mismatches(parse(text_, CHIPS), name, args) == []


def test_other_chip_is_in_the_pool(dev):
    assert OTHER in CHIPS and dev["s8-chip-6"].truth.any_words == ("pooled", "together")


def test_a_pooled_share_names_both_denominators_over_every_chip(demo_db, repo, scripted_openai, tmp_path):
    scripted_openai.smart = quoter
    said = _ask(repo, scripted_openai, tmp_path, "across all chips combined, what percent of qubits have T1 over 40 us?",
                "on")
    vals = [v for chip in CHIPS for v in present(demo_db, chip, "t1").values()]
    hit, total = sum(1 for v in vals if v > 40), sum(on_chip(demo_db, chip, "qubit") for chip in CHIPS)
    assert f"together (pooled), t1 above 40 μs: {hit} of {len(vals)} qubits with a value ({100 * hit / len(vals):.1f}% " \
           f"of those with a value; {100 * hit / total:.1f}% of all {total} qubits on the chips)" in said, said
