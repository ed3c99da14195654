"""A comparison between two subjects is checked only when both sides are: the fail-closed rule for pairs.

"Q20-Q06 is higher, at 98.59%" states one coupling's value and a comparison word: the number is that coupling's, so
the claim check verifies it, and the ranking check has no second name to hold the word against.  Such a sentence
is right or wrong by chance.  When the question compares two subjects on a figure (their values, the
gap between them, a statistic of each history) and the answer says which side is ahead without stating that
figure of both, the comparison stands unchecked: the answer is re-made from the tool that computed both, or the
person reads that it is not checked (:func:`~copilot_core.checking.verify.with_asked_role`).
"""

from __future__ import annotations

from copilot_core.checking.asked_role import AskedRole
from copilot_core.checking.order import BETTER, DOWN, UP, WORSE
from copilot_core.language.question import Question
from copilot_core.language.question_words import tokens_of

# Every word that says one side is ahead of the other (order.py's, said of two names or of one).
COMPARING = UP | DOWN | BETTER | WORSE | {"beat", "outperform", "outperformed", "lead", "led", "edge", "edged"}


def compares(said: str) -> bool:
    """The answer's words say one side is ahead, better, higher or lower than another."""
    return any(word in COMPARING for _, _, word in tokens_of(said))


def one_sided(need: AskedRole, asked: Question, said: str) -> bool:
    """An answer that compares (``said``) where the question sets two or more subjects side by side (two qubits,
    two couplings, two chips) and ``need``, the figure it compares them on, is not stated; a top N's ranked values
    are the ranking's, not a comparison of two."""
    two = len(asked.qubits) == 2 or len(asked.couplings) == 2 or len(asked.chips_asked) >= 2 or \
        asked.shape in ("cross-chip", "qubit pair", "compare runs")
    return two and set(need.roles) != {"min", "max"} and compares(said)


NOT_CHECKED = ("The comparison above is not checked: it does not state the {what} the question asks for, and no "
               "tool computed it.")
