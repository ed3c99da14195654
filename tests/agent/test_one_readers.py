"""One reader per kind of text, where there were several: the cases where the old readers differed, written out
by hand (which words open a fence for whom, which date form wins, which number a review reads, where a clause
ends for a claim or for a dated value, where a sentence ends)."""

from __future__ import annotations

from copilot_core.answer.blocks import TextBlock
from copilot_core.answer.fences import ANSWER_WORDS, CALL_WORDS, fences, without_marks
from copilot_core.answer.parse import after_key, parse_answer, strip_chart_json
from copilot_core.checking.claim_reading import clauses
from copilot_core.checking.dated_values import _SEGMENT_END
from copilot_core.checking.dated_values import date_mentions
from copilot_core.language.dates import DATES
from copilot_core.language.forms import found
from copilot_core.language.numbers import PLAIN_NUMBERS, answer_numbers, unit_after
from copilot_core.language.sentences import split_after_marks
from copilot_core.llm.textcalls import is_call_shaped, text_tool_calls

F = "```"
CALL = '{"name": "get_chip", "arguments": {"chip_id": "64Qv3"}}'
BLOCKS = '{"blocks": [{"type": "text", "content": "T1 is fine."}], "assessment": null}'


# --- fences: one reader, each caller's language words as data -------------------------------------------------

def test_an_upper_case_json_fence_is_an_answer_fence_not_a_call_fence() -> None:
    assert text_tool_calls(f"{F}json\n{CALL}\n{F}", {"get_chip"}) == [("get_chip", '{"chip_id": "64Qv3"}')]
    assert text_tool_calls(f"{F}tool_call\n{CALL}\n{F}", {"get_chip"}) == [("get_chip", '{"chip_id": "64Qv3"}')]
    assert text_tool_calls(f"{F}JSON\n{CALL}\n{F}", {"get_chip"}) == []  # "JSON" stays in the body: not JSON
    assert parse_answer(f"{F}JSON\n{BLOCKS}\n{F}") == ([TextBlock("T1 is fine.")], None)


def test_the_word_is_taken_only_when_it_is_the_callers() -> None:
    body = "\n{}\n"
    assert [f.body for f in fences(f"{F}tool_call{body}{F}", ANSWER_WORDS)] == [f"tool_call{body}"]
    assert [f.body for f in fences(f"{F}tool_call{body}{F}", CALL_WORDS)] == ["{}\n"]
    assert [f.body for f in fences(f"{F}JSON{body}{F}", CALL_WORDS)] == [f"JSON{body}"]
    assert [f.body for f in fences(f"a {F}json x{F} b {F}y{F} {F}open", ANSWER_WORDS)] == ["x", "y"]


def test_a_call_in_a_fence_inside_a_tag_and_a_tag_cut_off() -> None:
    assert text_tool_calls(f"<tool_call>{F}json\n{CALL}\n{F}</tool_call>", {"get_chip"}) == [
        ("get_chip", '{"chip_id": "64Qv3"}')]
    assert text_tool_calls(f"<tool_call>\n{CALL}  ", {"get_chip"}) == [("get_chip", '{"chip_id": "64Qv3"}')]
    assert not is_call_shaped(f"Here: <tool_call>{CALL}</tool_call>")  # words around the call: an answer


def test_chart_fences_any_three_backticks_open_one() -> None:
    chart = '{"data": [], "layout": {}}'
    assert strip_chart_json(f"See {F}json\n{chart}\n{F} above.") == "See [chart JSON omitted] above."
    # the closing mark of a python fence opens the chart fence after it
    assert strip_chart_json(f'{F}python\nx = 1\n{F}\n{{"layout" : 1}}\n{F}') == f"{F}python\nx = 1\n[chart JSON omitted]"
    assert strip_chart_json(f"{F}{F[0]}{chart}{F}") == f"{F[0]}[chart JSON omitted]"  # four backticks
    assert strip_chart_json(f'{F}{{"data": "`"}}{F}') == f'{F}{{"data": "`"}}{F}'  # a backtick inside: kept
    assert strip_chart_json(f'{F}{{"x": "data"}}{F}') == f'{F}{{"x": "data"}}{F}'  # no data/layout key: kept


def test_fence_marks_and_keys() -> None:
    assert without_marks(f"{F}JSON5\n{{}}{F}") == "5\n{}"  # the word is letters only
    assert without_marks(f"{F}json\n{{}}{F}", count=1) == f"\n{{}}{F}"
    text = '{"content" : "a", "content":"b", "content": 3, "chart":{'
    assert after_key(text, "content", '"') == [text.index('"a"') + 1, text.index('"b"') + 1]
    assert after_key(text, "chart", "{") == [len(text)]


# --- dates: one grammar, the forms a caller reads -------------------------------------------------------------

def test_the_more_specific_date_form_wins_even_when_written_later() -> None:
    # "Nov 20 2026" (month-day-year) overlaps the ISO date after it; the ISO date is more specific and wins
    [only] = date_mentions("Nov 20 2026-11-28")
    assert only.means == frozenset({(2026, 11, 28)})
    # "5 Nov" starts first, but "Nov 3" is the month-day form, looked for before the day-month one
    [nov3] = date_mentions("T1 was 41.5 Nov 3")
    assert nov3.means == frozenset({(None, 11, 3)})


def test_case_of_the_time_letter_by_form() -> None:
    assert [m.means for m in date_mentions("on 2026-11-20t10:20")] == [frozenset({(2026, 11, 20)})]
    assert date_mentions("on 20.11.2026t10:20") == []  # the day.month.year form reads "T" in upper case only
    assert [m.means for m in date_mentions("on 20.11.2026T10:20")] == [frozenset({(2026, 11, 20)})]


def test_an_answers_dates_take_seconds_and_zones_a_reviews_do_not() -> None:
    text = "at 2026-11-28T10:20:30Z"
    assert [m.text for m in found(DATES, text, "iso")] == ["2026-11-28T10:20:30Z"]
    assert [m.text for m in found(DATES, text, "iso_minute")] == ["2026-11-28T10:20"]
    assert [m.text for m in found(DATES, "2026-11-28x", "iso")] == ["2026-11-28"]
    assert found(DATES, "2026-11-28x", "iso_minute") == []
    assert answer_numbers(f"T1 was 45 μs {text}, 2σ") == [("45", False)]


# --- numbers: one grammar, an answer's, a review's and a tool string's -----------------------------------------

def test_each_reader_of_numbers_reads_its_own_form() -> None:
    text = "≈1,234 and 1e-3"
    assert answer_numbers(text) == [("1,234", True), ("1e-3", False)]
    assert [m.text for m in found(PLAIN_NUMBERS, text, "plain")] == ["1", "234", "1", "3"]
    assert [m.text for m in found(PLAIN_NUMBERS, text, "source")] == ["1", "234", "1e-3"]
    assert [m.text for m in found(PLAIN_NUMBERS, "v 3.5.7", "plain")] == ["3.5"]  # "7" after a dot is no number
    assert unit_after(" μs later") == ("μs", 3)
    assert unit_after(" μsx") is None
    assert answer_numbers("1. T1 is 45 at 10:20\n2) 20.5 μs") == [("45", False), ("20.5", False)]


# --- clauses: one cutter, a claim's ends and a dated value's ends -----------------------------------------------

def test_a_claims_clause_and_a_dated_values_clause_end_differently() -> None:
    def cut(text: str, form: str) -> list[str]:
        return [text[s:e] for s, e in (clauses(text, _SEGMENT_END) if form == "value" else clauses(text))]

    assert cut("45 μs and 50 μs", "claim") == ["45 μs and 50 μs"]
    assert cut("45 μs and 50 μs", "value") == ["45 μs", "50 μs"]
    assert cut("T1: 45, 50", "claim") == ["T1", " 45, 50"]  # a comma before a digit does not cut a claim
    assert cut("T1: 45, 50", "value") == ["T1: 45", "50"]
    assert cut("45 BUT 50 but 60", "claim") == ["45 BUT 50", "60"]  # a claim's joining words are lower case
    assert cut("45 BUT 50 but 60", "value") == ["45", "50", "60"]


# --- sentences ------------------------------------------------------------------------------------------------

def test_split_after_end_marks() -> None:
    assert split_after_marks("Done. Want more?  Yes! ") == ["Done.", "Want more?", "Yes!", ""]
    assert split_after_marks("T1 is 3.5 μs.\tOK") == ["T1 is 3.5 μs.", "OK"]
    assert split_after_marks("no end mark here") == ["no end mark here"]
