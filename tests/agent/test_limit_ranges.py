"""A limit is its own metric's, and two limits of one metric are a range, on the page's path.

- the parse gives every limit the metric written next to it (before or after it, with or without a unit) and reads
  "between", "above .. and below", "below .. or above", "below .. and above" (nobody asks for what cannot be) and
  "outside a-b" as one range, inside or outside (expected fields written by hand);
- :func:`settle_limits` holds a call's limit to its own metric's limit: another metric's number, a fraction of a
  fidelity, a range passed the wrong way round are set right with a note;
- turns through ``Copilot.ask`` with scripted models (silent, quoting, passing wrong arguments) end with the count a
  pymongo read of the raw demo documents gives (``tests/dev_limits.py``).
"""

from __future__ import annotations

import pytest

from copilot_core.language.question import Range, Threshold, parse
from copilot_core.routing.limits import settle_limits
from copilot_core.tools import DataStore, Toolkit
from tests import dev_limits
from tests.fakes.scripted_models import caller_then_quoter, quoter, silent
from tests.public_eval import CHIP, latest_values, passed
from tests.agent.page_turn import asked_on_small as _ask

T = Threshold


@pytest.mark.parametrize(("text", "limits"), [
    ("Which qubits have T1 above 40 us and qubit frequency below 5100 MHz?",
     (T("above", 40, "us", "t1"), T("below", 5100, "MHz", "qubit_frequency"))),
    ("qubits above 40 μs for T1 and below 5.1 GHz for the qubit frequency",
     (T("above", 40, "μs", "t1"), T("below", 5.1, "GHz", "qubit_frequency"))),
    ("qubits above 45 μs in T1 and under 80 μs in T2 echo",  # one unit for both: the place says whose
     (T("above", 45, "μs", "t1"), T("below", 80, "μs", "t2_echo"))),
    ("T1 > 40us and T2 echo<30", (T("above", 40, "us", "t1"), T("below", 30, "", "t2_echo"))),
    ("qubits whose T1 is at least 40 and whose T2 echo is at most 90 us",
     (T("above", 40, "", "t1", True), T("below", 90, "us", "t2_echo", True))),  # at least/most: inclusive
    ("T1 and qubit frequency above 40 us and below 5.1 GHz respectively",  # the unit says whose
     (T("above", 40, "us", "t1"), T("below", 5.1, "GHz", "qubit_frequency"))),
    ("T1 above 40 μs, T2 echo above 50 μs and readout fidelity above .9",
     (T("above", 40, "μs", "t1"), T("above", 50, "μs", "t2_echo"), T("above", 0.9, "", "average_readout_fidelity"))),
    ("couplings whose ZX90 fidelity is no less than 0.97", (T("above", 0.97, "", "zx90_gate_fidelity", True),)),
    ("Are more than 10 qubits below 50 us in T1?", (T("below", 50, "us", "t1"),)),  # a count is no limit
    ("Which qubits failed at least 3 times?", ()),
    ("How many runs had over 20 failed tasks?", ()),
])
def test_each_limit_carries_the_metric_written_next_to_it(text, limits):
    assert parse(text).limits == limits


@pytest.mark.parametrize(("text", "ranges"), [
    ("How many qubits have T1 between 50 and 80 μs?", (Range("t1", 50, 80, "μs", True),)),
    ("How many qubits have T1 above 45 and below 75 μs?", (Range("t1", 45, 75, "μs", True),)),
    ("How many qubits have T1 below 40 or above 90 μs?", (Range("t1", 40, 90, "μs", False),)),
    ("How many qubits have T2 echo below 50 and above 100 us?", (Range("t2_echo", 50, 100, "us", False),)),
    ("Count the qubits whose T2 echo is outside 60-90 us.", (Range("t2_echo", 60, 90, "us", False),)),
    ("qubit frequency not between 4.9 and 5.1 GHz", (Range("qubit_frequency", 4.9, 5.1, "GHz", False),)),
    ("outside of the range 4.9–5.1 GHz for the qubit frequency", (Range("qubit_frequency", 4.9, 5.1, "GHz", False),)),
    ("T1 between 80 and 50", (Range("t1", 50, 80, "", True),)),
    ("Which qubits have T1 outside 40-90 μs and T2 echo above 50 μs?", (Range("t1", 40, 90, "μs", False),)),
    ("Compare T1 between the two chips", ()),
    ("correlation between T1 and T2 echo", ()),
    ("T1 of Q4 between qubit 3 and qubit 5", ()),
])
def test_two_limits_of_one_metric_are_one_range(text, ranges):
    assert parse(text).ranges == ranges


def test_a_range_written_with_a_dash_is_no_coupling():
    assert parse("Count the qubits whose T2 echo is outside 60-90 us.").couplings == ()
    assert parse("ZX90 fidelity of 4-5").couplings == ("4-5",)


def _conditions(*conds: tuple[str, str, float]) -> dict:
    return {"chip_id": CHIP, "join": "and", "conditions": [{"metric_name": n, s: v} for n, s, v in conds]}


def test_a_limit_is_held_to_its_own_metrics_limit_not_to_an_equal_number_of_another():
    """5.1 is the frequency's limit in GHz and the T2 echo's in μs (5100 ns): both pass, neither is refused."""
    asked = parse("How many qubits have a qubit frequency above 5.1 GHz and T2 echo above 5100 ns?")
    args = _conditions(("qubit_frequency", "above", 5.1), ("t2_echo", "above", 5.1))
    settled = settle_limits("filter_metrics", args, asked)
    assert settled.refusal is None and settled.args == args and not settled.notes
    raw = settle_limits("filter_metrics", _conditions(("qubit_frequency", "above", 5.1), ("t2_echo", "above", 5100)),
                        asked)
    assert raw.refusal is None and raw.args["conditions"][1] == {"metric_name": "t2_echo", "above": 5.1}


def test_another_metrics_number_is_replaced_by_this_metrics_own_with_a_note():
    asked = parse("Which qubits have T1 above 40 us and qubit frequency below 5100 MHz?")
    settled = settle_limits("filter_metrics", _conditions(("t1", "above", 5100), ("qubit_frequency", "below", 40)),
                            asked)
    assert settled.args["conditions"] == [{"metric_name": "t1", "above": 40.0},
                                          {"metric_name": "qubit_frequency", "below": 5.1}]
    assert len(settled.notes) == 2 and "another metric" in settled.notes[0]


@pytest.mark.parametrize(("text", "given", "wanted"), [
    ("How many qubits have T1 between 55 and 80 μs?", {"below": 55, "above": 80}, {"above": 55, "below": 80}),
    ("How many qubits have T1 below 40 or above 90 μs?", {"below": 90, "above": 40}, {"below": 40, "above": 90}),
    ("How many qubits have T1 above 40?", {"below": 40}, {"above": 40}),
])
def test_a_range_passed_the_wrong_way_round_is_swapped_with_a_note(text, given, wanted):
    settled = settle_limits("filter_metric", {"chip_id": CHIP, "metric_name": "t1", **given}, parse(text))
    assert {k: settled.args[k] for k in ("below", "above") if k in settled.args} == wanted
    assert settled.notes and all("wrong way round" in n for n in settled.notes)


@pytest.mark.parametrize(("text", "name", "given", "wanted"), [
    ("How many qubits have readout fidelity above 0.95?", "average_readout_fidelity", 0.95, 95.0),
    ("How many qubits have X90 gate fidelity above .998?", "x90_gate_fidelity", 0.998, 99.8),
    ("How many qubits have X90 gate fidelity above .998?", "x90_gate_fidelity", 99.8, 99.8),
    ("How many qubits have T1 above 40?", "t1", 40, 40),
    ("How many qubits have T1 below 50000 ns?", "t1", 50000, 50.0),
    ("How many qubits have T2 echo above 0.06 ms?", "t2_echo", 0.06, 60.0),
    ("How many qubits have readout fidelity above 95?", "average_readout_fidelity", 95, 95),
])
def test_a_limit_reaches_the_tool_in_the_metrics_display_unit(text, name, given, wanted):
    side = "below" if "below" in text else "above"
    settled = settle_limits("filter_metric", {"chip_id": CHIP, "metric_name": name, side: given}, parse(text))
    assert settled.refusal is None and settled.args[side] == wanted
    assert bool(settled.notes) == (given != wanted)


def _t1(demo_db) -> list[float]:
    return [v for v in latest_values(demo_db, CHIP, "t1").values() if v is not None]


@pytest.mark.parametrize(("below", "above", "test", "words"), [
    (80, 50, lambda v: 50 < v < 80, "t1 between 50 and 80 μs"),
    (40, 90, lambda v: v < 40 or v > 90, "t1 outside 40–90 μs"),
])
def test_the_filter_tool_counts_inside_and_outside_and_says_which(repo, demo_db, below, above, test, words):
    outcome = Toolkit(repo, store=DataStore()).execute("filter_metric", {"chip_id": CHIP, "metric_name": "t1",
                                                                         "below": below, "above": above})
    values = _t1(demo_db)
    truth = sum(1 for v in values if test(v))
    assert 0 < truth < len(values)
    assert outcome.ok and outcome.full["answer"].startswith(f"{truth} of {len(values)} qubits with t1 data on {CHIP} "
                                                           f"have {words} ")


@pytest.fixture(scope="module")
def dev(demo_db):
    return {q.id: q for q in dev_limits.build(demo_db)}


@pytest.mark.parametrize("model", ["silent", "quoter"])
def test_every_dev_limit_question_is_answered_right_on_the_page_path(model, dev, repo, scripted_openai, tmp_path):
    scripted_openai.smart = {"silent": silent, "quoter": quoter}[model]
    wrong = []
    for q in dev.values():
        shown = _ask(repo, scripted_openai, tmp_path, q.text, "on")
        if not passed(q, shown, 0):
            wrong.append(f"{q.id}: {shown[:240]}")
    assert not wrong, wrong


@pytest.mark.parametrize(("qid", "name", "args"), [
    ("lm-1", "filter_metrics", _conditions(("t1", "above", 5100), ("qubit_frequency", "below", 40))),
    ("lm-4", "filter_metrics", _conditions(("qubit_frequency", "above", 5.1), ("t2_echo", "above", 5.1))),
    ("lr-1", "filter_metric", {"chip_id": CHIP, "metric_name": "t1", "below": 55, "above": 80}),
    ("lr-2", "filter_metric", {"chip_id": CHIP, "metric_name": "t1", "below": 90, "above": 40}),
    ("lr-3", "filter_metrics", _conditions(("t2_echo", "above", 50), ("t2_echo", "below", 100))),
    ("lu-2", "filter_metric", {"chip_id": CHIP, "metric_name": "average_readout_fidelity", "above": 0.95}),
    ("lu-6", "filter_metric", {"chip_id": CHIP, "metric_name": "zx90_gate_fidelity", "below": 0.97}),
])
def test_a_models_wrong_limits_are_set_right_before_the_person_reads_the_count(qid, name, args, dev, repo,
                                                                              scripted_openai, tmp_path):
    """Router off: only the model's own call, with another metric's number, a range the wrong way round, a
    fraction of a fidelity shown in %."""
    scripted_openai.smart = caller_then_quoter(name, args)
    shown = _ask(repo, scripted_openai, tmp_path, dev[qid].text, "off")
    assert passed(dev[qid], shown, 0), shown
    assert "cannot be a limit" not in shown, shown


def test_the_person_reads_outside_and_between_in_the_answer(dev, repo, scripted_openai, tmp_path):
    scripted_openai.smart = quoter
    assert "outside 60–90 μs" in _ask(repo, scripted_openai, tmp_path, dev["lr-4"].text, "on")
    assert "between 55 and 80 μs" in _ask(repo, scripted_openai, tmp_path, dev["lr-1"].text, "on")
