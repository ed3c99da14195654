"""Which side of a limit an answer's sentence puts a value on ("below 300 ns", "not under 300 ns", "exceeds 95 %"),
for :mod:`~copilot_core.checking.verdicts`: a sentence whose side the data's verdict denies is taken out.  A sentence
states a side when it holds the limit's number with a comparison word before it; "not" or a word ending in "n't"
just before the word turns it round.
"""

from __future__ import annotations

from collections.abc import Collection

from copilot_core.language.numbers import number_spans
from copilot_core.language.question_words import tokens_of
from copilot_core.language.sentences import sentences

_BELOW = frozenset({"below", "under", "less", "lower", "shorter", "smaller", "within", "beneath", "faster"})
_ABOVE = frozenset({"above", "over", "exceeds", "exceed", "exceeding", "exceeded", "greater", "higher", "longer",
                    "larger", "more", "beyond", "slower", "surpasses"})
_TURNS = frozenset({"not", "never", "isn", "doesn", "don", "didn", "wasn", "aren", "nor"})  # "isn't": "isn" "t"


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
        words = [w for s, _, w in tokens_of(sentence) if s < at]
        for i in range(len(words) - 1, -1, -1):
            side = "below" if words[i] in _BELOW else "above" if words[i] in _ABOVE else None
            if side is not None:
                turned = bool(set(words[max(0, i - 3):i]) & _TURNS)
                said.add(side if not turned else "above" if side == "below" else "below")
                break
    return said
