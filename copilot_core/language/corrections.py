"""A question that corrects itself ("T1 above 40 μs, sorry, I mean T2 echo above 40 μs", "on 64Qv3, scratch that,
144Qv2"): the words taken back are read as never written.

The correction's first metric, chip or qubit replaces the last one of the same kind written before it, with the
words between them; a correction with nothing of its kind before it (an "I mean" that opens a sentence) changes
nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from copilot_core.domain.vocabulary import metric_spans
from copilot_core.language.phrases import Phrases, tokens_of

_MARKS = Phrases("sorry i mean/meant|i mean/meant|no wait|scratch that|correction|make that|or rather"
                 "|i should have said|i should say|oops")


def _things(text: str, chips: Sequence[str]) -> list[tuple[int, int, str]]:
    """Where each metric, installed chip and qubit is written (start, end), with its kind, in order."""
    ids = {c.lower() for c in chips}
    found = [(start, end, "metric") for start, end, name in metric_spans(text) if name is not None]
    for start, end, word in tokens_of(text):
        if word in ids:
            found.append((start, end, "chip"))
        elif word[:1] == "q" and word[1:].isdecimal():
            found.append((start, end, "qubit"))
    return sorted(found)


def taken_back(text: str, chips: Sequence[str]) -> str:
    """``text`` with the words a correction takes back left out (unchanged when it corrects nothing): a
    correction that is the new thing alone ("(correction: T2 echo)", "Q5, no wait, Q6, on ...") swaps that one
    thing; one that goes on ("T1 above 40, sorry I mean T2 echo above 30") replaces everything from the thing
    taken back."""
    marks = [(a, b) for a, b in _MARKS.find(text) if text[a:b].lower() != "correction" or text[b:b + 1] == ":"]
    if not marks:  # "correction" only as a label ("correction: T2 echo"), never "after the correction"
        return text
    start, end = marks[0]
    after = _things(text[end:], chips)
    if not after:
        return text
    first, last, kind = after[0]
    before = [(a, b) for a, b, k in _things(text[:start], chips) if k == kind]
    if not before:
        return text
    old_start, old_end = before[-1]
    rest = text[end + last:]
    if rest.lstrip()[:1] in ("", ")", ",", ".", "?", "!", ";"):
        return text[:old_start] + text[end + first:end + last] + text[old_end:start] + rest
    return text[:old_start] + text[end:].lstrip(" ,:;-–—")
