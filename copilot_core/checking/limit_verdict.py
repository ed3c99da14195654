"""Whether an answer to "is coupling 4-5's CR gate time below 300 ns" says which side of the limit the value is on.

The router's call holds the coupling's one metric to the question's limit and its sentence says "Yes: ... is below
300 ns" or "No: ... is above 300 ns, not below it" (``held_to`` of its result: the side asked, the limit, whether
the value is on it).  A model that quotes the value alone answers half the question, and one that puts the value on
the wrong side answers it wrongly: either way the router's sentence is shown in its place.  An answer states a side
when a sentence holding the limit's number has a comparison word before it ("below", "not under", "exceeds");
"not" or a word ending in "n't" just before the word turns it round.
"""

from __future__ import annotations

from collections.abc import Sequence

from copilot_core.language.numbers import number_spans
from copilot_core.language.question import Question
from copilot_core.language.question_words import tokens_of
from copilot_core.language.sentences import sentences
from copilot_core.tools.toolkit import PLANNED, ToolOutcome, answer_line

_BELOW = frozenset({"below", "under", "less", "lower", "shorter", "smaller", "within", "beneath", "faster"})
_ABOVE = frozenset({"above", "over", "exceeds", "exceed", "exceeding", "exceeded", "greater", "higher", "longer",
                    "larger", "more", "beyond", "slower", "surpasses"})
_TURNS = frozenset({"not", "never", "isn", "doesn", "don", "didn", "wasn", "aren", "nor"})  # "isn't": "isn" "t"


def _held_to(outcome: ToolOutcome) -> dict | None:
    full = outcome.full if isinstance(outcome.full, dict) else {}
    held = full.get("held_to")
    return held if isinstance(held, dict) and isinstance(held.get("threshold"), (int, float)) else None


def _sides_said(text: str, limits: set[float]) -> set[str]:
    """The sides of the limit the answer puts the value on: "below" or "above", once per sentence naming the limit."""
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


def limit_problem(asked: Question, text: str, outcomes: Sequence[ToolOutcome]) -> tuple[str, str] | None:
    """``(the router's sentence, why)`` when the question holds one coupling's value to a limit and the answer does
    not say the side the value is on, or says the other; None otherwise (or when no router's call held it)."""
    router = [(o, held) for o in outcomes if o.ok and o.origin in PLANNED and (held := _held_to(o)) is not None]
    if not router or not (line := answer_line(router[0][0])):
        return None
    held = router[0][1]
    side = str(held.get("side"))
    actual = side if held.get("met") else "above" if side == "below" else "below"
    limits = {float(held["threshold"])} | {t.value for t in asked.limits}
    said = _sides_said(text, limits)
    if actual in said and len(said) == 1:
        return None
    why = "the answer puts the value on the wrong side of the limit" if said else \
        "the answer does not say whether the value is above or below the limit asked about"
    return line, why
