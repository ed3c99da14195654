"""A reply that repeats itself: stopped as soon as the repetition is certain, not at the output-token cap.

A small model on CPU sometimes writes one line of analysis code (or one sentence) again and again until the cap;
4,096 tokens took 14 minutes.  A tail of at least ``MIN_SPAN`` characters made of one unit written ``MIN_REPEATS``
times or more is not an answer or a program anyone meant: the round is ended and treated like a reply the server
could not read.  Real output repeats a line with different numbers in it, which this test never matches.
"""

from __future__ import annotations

from copilot_core.errors import UnreadableReply

MIN_SPAN = 480  # characters the repeated tail must cover
MIN_REPEATS = 4  # times the unit must stand in a row
MAX_UNIT = 240  # the longest unit looked for (a line or two of code)
CHECK_EVERY = 48  # characters of growth between two checks (each check is a few hundred string compares)

REPEATING = ("The model's reply repeated itself and was stopped before it finished. Ask again, perhaps in other "
             "words.")


def repeating(text: str) -> bool:
    """True when ``text`` ends in one unit of 1 to ``MAX_UNIT`` characters written over and over, covering at least
    ``MIN_SPAN`` characters and ``MIN_REPEATS`` units."""
    if len(text) < MIN_SPAN:
        return False
    for unit in range(1, MAX_UNIT + 1):
        times = max(MIN_REPEATS, -(-MIN_SPAN // unit))
        span = unit * times
        if span <= len(text) and text[-span:] == text[-unit:] * times:
            return True
    return False


class RepetitionWatch:
    """Watches one growing text (the answer, or one call's arguments) and says when it has begun to repeat."""

    def __init__(self) -> None:
        self.checked_at = 0

    def repeats(self, text: str) -> bool:
        if len(text) - self.checked_at < CHECK_EVERY:
            return False
        self.checked_at = len(text)
        return repeating(text)


def repeated() -> UnreadableReply:
    """The error a repeating round raises: the loop treats it like an unreadable reply (one more try without tools
    when the tools found facts, else the router's own call)."""
    return UnreadableReply(REPEATING, retryable=False)
