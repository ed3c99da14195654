"""An answer whose every sentence that says something of the data was left out by the claim check: what is left
is marks, a lead-in and a courtesy, so the person would read nothing.  :func:`all_left_out` tells that case apart
(the one place it is decided); :func:`~copilot_core.checking.verify.claims_checked` then shows the data's own
sentence in its place, or :data:`NOT_ANSWERED` when no tool computed one.
"""

from __future__ import annotations

from copilot_core.checking.marks import LEFT_OUT, NOT_CHECKED, ROW_LEFT_OUT, states_something
from copilot_core.language.question_words import CHIP_ID, MENTION
from copilot_core.language.sentences import sentences

NOT_ANSWERED = ("Not answered: every sentence of the model's answer was left out because the data does not support "
                "it, and no tool of this turn computed the answer. Asking again with the chip, the metric and the "
                "statistic named plainly may help.")


def _says_something(unit: str) -> bool:
    """A sentence left standing that states a value, a ranking or a count, or names a chip, qubit or coupling (a
    lead-in ending in ":" and a closing courtesy say nothing of the data)."""
    body = unit
    for mark in (LEFT_OUT, ROW_LEFT_OUT, NOT_CHECKED):  # a mark can share a sentence with what follows it
        body = body.replace(mark, " ")
    body = body.strip(" \n*_")
    if not any(c.isalnum() for c in body) or body.endswith(":"):
        return False
    return states_something(body) or MENTION.search(body) is not None or CHIP_ID.search(body) is not None


def all_left_out(shown: str, left_out: int) -> bool:
    """Every sentence of the answer that says something of the data was left out (one at least was)."""
    return left_out > 0 and not any(_says_something(shown[a:b]) for a, b in sentences(shown))
