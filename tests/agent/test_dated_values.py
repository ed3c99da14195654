""""The last N values" answered with each value's date: hand-written answers against a hand-written history.

An answer that writes each asked-for value with its date is kept (whatever the date's written form); values written
without their dates get them added; a wrong date or a value left out replaces the answer with the deterministic one.
Expected texts are written out by hand.
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from copilot_core.answer.blocks import TextBlock
from copilot_core.checking.dated_values import date_mentions
from copilot_core.checking.verify import checked_blocks
from copilot_core.tools.toolkit import ToolOutcome

QUESTION = "What were Q17's two most recent T1 values?"
SENTENCE = ("t1 of Q17 on 64Qv3, last 3 points: latest 52.3 μs, lowest 45.1 μs, highest 52.3 μs, mean 48.1 μs, "
            "trend up; values, newest first: 52.3 μs (2026-11-26 04:58), 47.0 μs (2026-11-25 05:10), "
            "45.1 μs (2026-11-24 05:00).")
HISTORY = {"answer": SENTENCE, "chip_id": "64Qv3", "qid": "17", "label": "Q17", "parameter_name": "t1", "unit": "μs",
           "latest": 52.3, "stats": {"min": 45.1, "max": 52.3, "mean": 48.13},
           "points": [{"calibrated_at": datetime(2026, 11, 24, 5, 0, 12), "value": 45.1},
                      {"calibrated_at": datetime(2026, 11, 25, 5, 10, 3), "value": 47.04},
                      {"calibrated_at": datetime(2026, 11, 26, 4, 58, 40), "value": 52.31}]}


def outcome(origin: str = "router", full: dict | None = None) -> ToolOutcome:
    return ToolOutcome(name="get_parameter_timeseries", args={"qid": "17"}, ok=True, model_text="{}",
                       summary="t1 of Q17", full=full or HISTORY, origin=origin)


def shown(answer: str, question: str = QUESTION, origin: str = "router", full: dict | None = None
          ) -> tuple[str, str, str]:
    """What the person reads: the answer text, the note under it ("" when none), and the action."""
    blocks, _, action = checked_blocks([TextBlock(answer)], question, [outcome(origin, full)])
    texts = [b.text for b in blocks if isinstance(b, TextBlock)]
    return texts[0], (texts[1] if len(texts) > 1 else ""), action


@pytest.mark.parametrize("answer", [
    "Q17's two most recent T1 values: 52.3 μs (2026-11-26) and 47.0 μs (2026-11-25).",
    "On Nov 26 the T1 of Q17 was 52.3 μs; on Nov 25 it was 47.0 μs.",
    "52.3 μs on 26 November 2026, 47.0 μs on 25th November 2026.",
    "| date | T1 |\n|---|---|\n| 11-26 04:58 | 52.3 μs |\n| 11-25 05:10 | 47.0 μs |",
    "They were 52.3 μs and 47.0 μs, measured on 2026-11-26 and 2026-11-25 respectively.",
    "52.3 μs (26.11.2026), 47.0 μs (25.11.2026)",
    "- 11/26: 52.3 μs\n- 11/25: 47.0 μs",
    "52.3 µs on November 26th, 2026 at 04:58 UTC, and 47 µs on November 25th, 2026.",
])
def test_values_with_their_dates_are_kept(answer):
    assert shown(answer) == (answer, "", "kept")


def test_values_without_dates_get_their_dates_added_and_the_person_is_told():
    text, note, action = shown("The two most recent T1 values of Q17 are 52.3 μs and 47.0 μs.")
    assert text == "The two most recent T1 values of Q17 are 52.3 μs (2026-11-26 04:58) and 47.0 μs (2026-11-25 05:10)."
    assert action == "corrected"
    assert note == ("_Completed from the data: the answer gave these values without their dates; added "
                    "52.3 → 2026-11-26 04:58, 47.0 → 2026-11-25 05:10._")


def test_one_value_without_its_date_gets_only_that_date():
    text, note, action = shown("Q17: **52.3 μs** (Nov 26), then **47.0 μs**.")
    assert (text, action) == ("Q17: **52.3 μs** (Nov 26), then **47.0 μs (2026-11-25 05:10)**.", "corrected")
    assert "47.0 → 2026-11-25 05:10" in note and "52.3 →" not in note


def test_three_values_asked_three_dates_added():
    text, _, action = shown("Q17's last three T1 values were 52.3, 47.0 and 45.1 μs.",
                            question="What were Q17's three most recent T1 values?")
    assert text == ("Q17's last three T1 values were 52.3 (2026-11-26 04:58), 47.0 (2026-11-25 05:10) and "
                    "45.1 μs (2026-11-24 05:00).")
    assert action == "corrected"


@pytest.mark.parametrize("answer, reason", [
    ("52.3 μs (2026-11-25) and 47.0 μs (2026-11-24).", "the tool result dates 52.3 2026-11-26 04:58"),
    ("52.3 μs on Nov 25, 47.0 μs on Nov 26.", "the tool result dates 52.3 2026-11-26 04:58"),
    ("The latest T1 value of Q17 is 52.3 μs (2026-11-26).", "the answer leaves out 47.04 (2026-11-25 05:10)"),
])
def test_a_wrong_date_or_a_missing_value_replaces_the_answer(answer, reason):
    text, note, action = shown(answer)
    assert (text, action) == (SENTENCE, "replaced")
    assert note.startswith("_The model's answer was replaced by one computed from the tool results") and reason in note


def test_the_note_never_quotes_the_models_words():
    _, note, _ = shown("Approved by QDash staff: 52.3 μs (2026-11-25) and 47.0 μs (2026-11-24).")
    assert "the tool result dates 52.3 2026-11-26 04:58" in note and "Approved" not in note and "QDash" not in note


def test_without_the_routers_call_the_historys_own_sentence_replaces_a_wrong_date():
    text, _, action = shown("52.3 μs (2026-11-20) and 47.0 μs (2026-11-25).", origin="model")
    assert (text, action) == (SENTENCE, "replaced")


def test_a_question_that_does_not_ask_for_recent_values_is_not_held_to_dates():
    answer = "The latest T1 of Q17 is 52.3 μs."
    assert shown(answer, question="What is the T1 of Q17?") == (answer, "", "kept")


def test_an_aware_timestamp_is_dated_in_utc():
    moved = {**HISTORY, "points": [{"calibrated_at": "2026-11-26T23:30:00-05:00", "value": 52.31},
                                   {"calibrated_at": datetime(2026, 11, 25, 5, 10, tzinfo=timezone.utc),
                                    "value": 47.04}]}
    text, _, action = shown("52.3 μs and 47.0 μs.", full=moved)
    assert (text, action) == ("52.3 μs (2026-11-27 04:30) and 47.0 μs (2026-11-25 05:10).", "corrected")


@pytest.mark.parametrize("written, meaning", [
    ("2026-11-20", {(2026, 11, 20)}), ("2026/11/20 09:15", {(2026, 11, 20)}), ("Nov 20", {(None, 11, 20)}),
    ("20 Nov", {(None, 11, 20)}), ("November 20th, 2026", {(2026, 11, 20)}), ("20.11.2026", {(2026, 11, 20)}),
    ("11-20", {(None, 11, 20)}), ("3/5", {(None, 3, 5), (None, 5, 3)}), ("Sept. 3", {(None, 9, 3)}),
])
def test_common_written_dates_are_read(written, meaning):
    found = date_mentions(f"value 45.1 μs ({written}).")
    assert [set(m.means) for m in found] == [meaning]


@pytest.mark.parametrize("text", ["45.1 μs", "T1 of 45.12 μs over 3 runs", "Q17 and Q4-Q1", "99.95%",
                                  "execution 20261126-001"])
def test_values_and_ids_are_not_read_as_dates(text):
    assert date_mentions(text) == []
