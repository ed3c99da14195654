"""The answer side's shared readers: one sentence splitter, whole-word search, and the phrase rows the claim check
reads an answer's words with (expected values written by hand)."""

from __future__ import annotations

import pytest

from copilot_core.checking.claim_reading import limits_after, read_numbers, read_words
from copilot_core.checking.marks import states_something
from copilot_core.language.answer_words import ANSWER_WORDS, closing, opening
from copilot_core.language.sentences import sentence_at, sentences, written_alone


def _pieces(text: str, ends: str = ".!?;") -> list[str]:
    return [text[s:e] for s, e in sentences(text, ends)]


def test_sentences_end_at_marks_followed_by_spaces_and_at_line_breaks() -> None:
    text = "T1 is 45.2 μs. T2 is low;  see Q5!\n| a | b |\n\nLast one? yes"
    assert _pieces(text) == ["T1 is 45.2 μs.", "T2 is low;", "see Q5!", "| a | b |", "Last one?", "yes"]
    assert _pieces(text, ".!?") == ["T1 is 45.2 μs.", "T2 is low;  see Q5!", "| a | b |", "Last one?", "yes"]
    assert _pieces("e.g.x and 3.5 stay whole. ") == ["e.g.x and 3.5 stay whole. "]
    assert sentence_at(text, text.index("see")) == (text.index("see"), text.index("!") + 1)


def test_a_name_stands_alone_only_without_letters_or_digits_touching_it() -> None:
    assert written_alone("T1", "T10 is fine but T1 is low")
    assert not written_alone("T1", "T10 and T12 only")
    assert written_alone("CheckRabi", "(CheckRabi) failed")
    assert not written_alone("CheckRabi", "CheckRabiX failed")


@pytest.mark.parametrize(("answer", "role"), [
    ("The lowest T1 is 12.5 μs.", "min"),
    ("T1 is at least 12.5 μs.", "threshold"),
    ("The most recent value is 12.5 μs.", "latest"),
    ("The most recent values are 12.5 μs and 13.1 μs.", None),
    ("The median T1 is 40.2 μs.", "median"),
    ("3 qubits are below 20 μs.", "count"),
    ("36 of 59 qubits are good.", "count"),
    ("Q5 is the best at 99.1%.", "max"),
])
def test_the_words_before_a_number_give_its_role(answer: str, role: str | None) -> None:
    assert read_words(read_numbers(answer)[0][0]).role == role


def test_band_words_after_not_or_than_are_no_band() -> None:
    assert read_words(read_numbers("T1 is 45 μs (good).")[0][0]).band == "good"
    assert read_words(read_numbers("T1 is 45 μs (not poor).")[0][0]).band is None
    assert read_words(read_numbers("T1 is 45 μs (better than good).")[0][0]).band is None
    assert read_words(read_numbers("T1 is 45 μs (poor).")[0][0]).band == "bad"


def test_limits_after_a_number_are_read_with_their_words() -> None:
    assert limits_after(" μs (good: above 20 μs, less than 99.5 %)") == [("above", "20"), ("less than", "99.5")]
    assert limits_after(" above20 and over .5") == []


def test_opening_and_closing_need_spaces_only() -> None:
    assert opening(ANSWER_WORDS["counted"], " of the 59 couplings") is not None
    assert opening(ANSWER_WORDS["counted"], "%, qubits") is None
    assert closing(ANSWER_WORDS["limit"], "a threshold of ") is not None
    assert closing(ANSWER_WORDS["limit"], "above (") is None


def test_ranking_words_make_a_sentence_a_claim() -> None:
    assert states_something("64Qv3 outperforms 144Qv2")
    assert not states_something("See the chart above")
