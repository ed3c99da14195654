"""A limit written in another unit than the metric's reaches the tool converted ("above 5100 MHz" of a frequency kept in
GHz is above 5.1 GHz), and a unit that cannot be the metric's gets a message, never a silent 0.

Conversions are written out by hand; counts are pymongo reads of the raw demo documents
(``tests.public_eval.latest_values``), never the tools."""

from __future__ import annotations

import pytest

from copilot_core.domain.units import UnitMismatch, canonical, convert, family
from copilot_core.language.question import parse
from copilot_core.routing.limits import settle_limits
from copilot_core.tools import DataStore, Toolkit
from tests.fakes.scripted_models import caller_then_quoter
from tests.public_eval import CHIP, latest_values, scale
from tests.agent.page_turn import asked_on_small as _ask



@pytest.mark.parametrize(("value", "written", "to", "expected"), [
    (5100, "MHz", "GHz", 5.1), (4.95, "GHz", "MHz", 4950.0), (250, "kHz", "MHz", 0.25), (3, "GHz", "kHz", 3e6),
    (5_100_000_000, "Hz", "GHz", 5.1), (-0.03, "GHz", "MHz", -30.0), (-28000, "kHz", "MHz", -28.0),
    (0.05, "ms", "μs", 50.0), (60000, "ns", "μs", 60.0), (45, "us", "μs", 45), (45, "µs", "ns", 45000.0),
    (0.0001, "s", "μs", 100.0), (99.5, "%", "%", 99.5), (3, "dB", "dB", 3), (12, "mhz", "GHz", 0.012),
])
def test_a_value_converts_within_its_family(value, written, to, expected):
    assert convert(value, written, to) == expected


@pytest.mark.parametrize(("written", "to", "words"), [
    ("μs", "GHz", "a time"), ("MHz", "μs", "a frequency"), ("%", "μs", "a percentage"), ("dB", "%", "decibels"),
    ("ns", "a.u.", "a time"), ("MHz", "MHz/a.u.", "a frequency"),
])
def test_a_value_of_another_family_is_refused_in_words(written, to, words):
    with pytest.raises(UnitMismatch, match=words):
        convert(5, written, to)


def test_spellings_and_families():
    assert [canonical(u) for u in ("us", "µs", "MHZ", "khz", "%")] == ["μs", "μs", "MHz", "kHz", "%"]
    assert [family(u) for u in ("GHz", "ns", "%", "dB", "a.u.")] == [
        "frequency", "time", "percentage", "ratio in decibels", None]


# Display scale by hand: anharmonicity is stored in GHz and shown in MHz; the others are shown as stored.
SHOWN = {"anharmonicity": 1000.0, "qubit_frequency": 1.0, "t1": 1.0, "t2_echo": 1.0}


def _count(demo_db, name: str, side: str, limit: float) -> int:
    values = [v / scale(name) * SHOWN[name] for v in latest_values(demo_db, CHIP, name).values() if v is not None]
    return sum(1 for v in values if (v < limit if side == "below" else v > limit))


# (question, metric, side, number as written, the limit in the metric's unit by hand)
CASES = [
    ("How many qubits have a frequency above 5100 MHz?", "qubit_frequency", "above", 5100, 5.1),
    ("How many qubits have a frequency below 4900000 kHz?", "qubit_frequency", "below", 4900000, 4.9),
    ("How many qubits have T1 below 0.05 ms?", "t1", "below", 0.05, 50.0),
    ("How many qubits have T2 echo above 60000 ns?", "t2_echo", "above", 60000, 60.0),
    ("How many qubits have anharmonicity below -0.28 GHz?", "anharmonicity", "below", -0.28, -280.0),
    ("How many qubits have anharmonicity above -270000 kHz?", "anharmonicity", "above", -270000, -270.0),
]


@pytest.mark.parametrize(("question", "name", "side", "written", "limit"), CASES)
def test_the_raw_number_reaches_the_tool_converted_and_counts_right(question, name, side, written, limit, repo,
                                                                      demo_db):
    settled = settle_limits("filter_metric", {"chip_id": CHIP, "metric_name": name, side: written}, parse(question))
    assert settled.refusal is None and settled.args[side] == limit and settled.notes
    outcome = Toolkit(repo, store=DataStore()).execute("filter_metric", settled.args)
    truth = _count(demo_db, name, side, limit)
    assert 0 < truth < 62  # the limit cuts the chip
    assert outcome.ok and outcome.full["answer"].startswith(f"{truth} of ")


def test_a_limit_in_the_metrics_own_unit_or_already_converted_passes_unchanged():
    asked = parse("Which qubits have a frequency above 5100 MHz and T1 above 50 μs?")
    args = {"conditions": [{"metric_name": "qubit_frequency", "above": 5.1}, {"metric_name": "t1", "above": 50}]}
    assert settle_limits("filter_metrics", args, asked).args == args
    percent = {"metric_name": "x90_gate_fidelity", "above": 99.8}
    assert settle_limits("filter_metric", percent, parse("qubits with X90 fidelity above 99.8%?")).args == percent
    assert settle_limits("filter_metric", {"metric_name": "t1", "above": 50}, parse("T1 above 50?")).args == \
        {"metric_name": "t1", "above": 50}


def test_each_condition_of_a_compound_filter_is_converted_on_its_own(repo, demo_db):
    asked = parse("How many qubits have a frequency above 5100 MHz and T1 above 0.05 ms?")
    args = {"chip_id": CHIP, "conditions": [{"metric_name": "qubit_frequency", "above": 5100},
                                            {"metric_name": "t1", "above": "0.05"}], "join": "and"}
    settled = settle_limits("filter_metrics", args, asked)
    assert settled.args["conditions"] == [{"metric_name": "qubit_frequency", "above": 5.1},
                                          {"metric_name": "t1", "above": 50.0}]
    assert args["conditions"][0]["above"] == 5100  # the model's call is not changed in place
    freq = latest_values(demo_db, CHIP, "qubit_frequency")
    t1 = latest_values(demo_db, CHIP, "t1")
    truth = sum(1 for q, f in freq.items() if f is not None and t1.get(q) is not None and f > 5.1 and t1[q] > 50)
    outcome = Toolkit(repo, store=DataStore()).execute("filter_metrics", settled.args)
    assert outcome.ok and outcome.full["count_matching"] == truth


@pytest.mark.parametrize(("question", "name", "written", "words"), [
    ("How many qubits have a frequency above 5 μs?", "qubit_frequency", 5, "is a time"),
    ("Which qubits have T1 above 99%?", "t1", 99, "is a percentage"),
    ("Which qubits have X90 fidelity above 99 MHz?", "x90_gate_fidelity", 99, "is a frequency"),
])
def test_a_unit_that_cannot_be_the_metrics_is_refused_with_a_message(question, name, written, words):
    settled = settle_limits("filter_metric", {"metric_name": name, "above": written}, parse(question))
    assert settled.refusal is not None and words in settled.refusal and name in settled.refusal


@pytest.mark.parametrize("router", ["off", "on"])
def test_the_person_reads_the_count_above_the_converted_limit(router, repo, demo_db, scripted_openai, tmp_path):
    """Router off: the model's own call passes 5100; router on: the router's call takes the question's 5100."""
    question = "How many qubits on 64Qv3 have a qubit frequency above 5100 MHz?"
    scripted_openai.smart = caller_then_quoter("filter_metric", {"chip_id": CHIP, "metric_name": "qubit_frequency",
                                                          "above": 5100})
    shown = _ask(repo, scripted_openai, tmp_path, question, router)
    truth = _count(demo_db, "qubit_frequency", "above", 5.1)
    assert f"{truth} of 62 qubits" in shown and "5.1 GHz" in shown, shown
    assert "5100 GHz" not in shown, shown


def test_the_person_reads_why_a_limit_in_the_wrong_unit_gives_no_count(repo, scripted_openai, tmp_path):
    scripted_openai.smart = caller_then_quoter("filter_metric", {"chip_id": CHIP, "metric_name": "qubit_frequency",
                                                          "above": 5})
    shown = _ask(repo, scripted_openai, tmp_path, "How many qubits on 64Qv3 have a qubit frequency above 5 μs?", "off")
    assert "is a time" in shown and "qubit_frequency" in shown, shown
    assert "0 of 62" not in shown, shown
