"""Which side of a limit an answer's sentence puts a value on ("below 300 ns", "not under 300 ns", "exceeds 95 %"),
for :mod:`~copilot_core.checking.verdicts`: a sentence whose side the data's verdict denies is taken out.  A sentence
states a side when it holds the limit's number with a comparison of :mod:`~copilot_core.language.comparisons` before
it (the question's table, one way to read a side), turned round by a negation just before it.
"""

from __future__ import annotations

from collections.abc import Collection

from copilot_core.language.comparisons import side_before
from copilot_core.language.numbers import number_spans
from copilot_core.language.question_words import tokens_of
from copilot_core.language.sentences import sentences


def sides_said(text: str, limits: Collection[float]) -> set[str]:
    """The sides of the limit the text puts the value on: "below" or "above", once per sentence naming the limit."""
    said: set[str] = set()
    for start, end in sentences(text):
        sentence = text[start:end]
        numbers = [(a, float(w.replace(",", ""))) for a, _, w, _ in number_spans(sentence)
                   if w.replace(",", "").replace(".", "", 1).isdigit()]
        at = next((a for a, v in numbers if any(abs(v - limit) < 1e-9 for limit in limits)), None)
        if at is None:
            continue
        side = side_before([w for s, _, w in tokens_of(sentence) if s < at])
        if side in ("below", "above"):
            said.add(side)
    return said
