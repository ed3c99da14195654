"""Which numbers of an answer no tool result backs: hand-written answers against hand-written tool results."""

from __future__ import annotations

import json

from copilot_core.answer.blocks import TextBlock
from copilot_core.checking.grounding import unverified_numbers
from copilot_core.language.numbers import DERIVED_MARKER, answer_numbers
from copilot_core.chat import ChatMessage

HEATMAP = json.dumps({"answer": "t1 on 64Qv3: median 59.9 μs", "stats": {"median": 59.93, "mean": 64.61, "count": 62},
                      "worst": [{"id": "59", "label": "Q59", "value": 21.74}, {"id": "49", "label": "Q49", "value": 25.5},
                                {"id": "27", "label": "Q27", "value": 26.7}]})


def test_quoted_and_rounded_values_are_found_and_an_invented_one_is_not():
    answer = "The median T1 on 64Qv3 is **59.9 μs** (mean 64.6 μs, exactly 64.61); the worst qubit is Q59 at 21.7 μs, " \
             "and the chip average last month was 71.3 μs."
    assert unverified_numbers(answer, [HEATMAP]) == ["71.3"]


def test_rounding_is_to_the_answers_own_decimals():
    # 59.93 backs 60 and 59.9 but not 59.8 or 59.930001-style extra precision that disagrees
    assert unverified_numbers("about 60 μs, 59.9 μs, 59.93 μs", [HEATMAP]) == []
    assert unverified_numbers("59.8 μs and 59.94 μs", [HEATMAP]) == ["59.8", "59.94"]


def test_labels_dates_list_markers_and_sigma_multiples_are_not_checked():
    answer = ("1. Q05 and T1, t2_echo, x90 on 2026-07-19 11:16\n2) run 20260720-003 "
              "flagged beyond 2σ")
    assert answer_numbers(answer) == [("20260720", False), ("003", False)]
    assert unverified_numbers(answer, ['{"execution_id": "20260720-003"}']) == []


def test_list_lengths_count_as_what_the_tool_returned():
    assert unverified_numbers("The 3 worst qubits are Q59, Q49 and Q27.", [HEATMAP]) == []
    assert unverified_numbers("The 4 worst qubits are Q59, Q49 and Q27.", [HEATMAP]) == ["4"]


def test_numbers_the_user_wrote_and_derived_numbers_marked_as_such_pass():
    answer = f"{DERIVED_MARKER}38.2 μs separate the worst qubit from the median; 12 qubits are below 50 μs."
    assert unverified_numbers(answer, [HEATMAP], allowed_text=["How many qubits are below 50 μs?"]) == ["12"]
    assert unverified_numbers("38.2 μs apart", [HEATMAP]) == ["38.2"]  # the same number unmarked


def test_sign_thousands_separators_and_full_results_are_understood():
    full = {"values": {"5": -284.87}, "rows": [{"value": 1234.5}]}
    assert unverified_numbers("anharmonicity −284.9 MHz; it dropped by 284.87; total 1,234.5", [full]) == []
    assert unverified_numbers("anharmonicity -285.9 MHz", [full]) == ["-285.9"]


def test_each_unverified_number_is_listed_once_in_order():
    assert unverified_numbers("7.5, 8.5 and 7.5 again", []) == ["7.5", "8.5"]


def test_saved_messages_keep_unverified_numbers_and_old_messages_still_load():
    saved = ChatMessage.assistant([TextBlock("T1 is 71.3 μs")], unverified_numbers=["71.3"])
    assert ChatMessage.from_document(saved.to_document()).unverified_numbers == ["71.3"]
    old = {"role": "assistant", "content": json.dumps({"blocks": [{"type": "text", "content": "T1 is 59.9 μs"}],
                                                        "assessment": "good"})}
    loaded = ChatMessage.from_document(old)
    assert loaded.unverified_numbers == [] and loaded.text == "T1 is 59.9 μs" and loaded.assessment == "good"
