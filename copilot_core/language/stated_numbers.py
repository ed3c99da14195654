"""The words that say what a number in a question sizes or counts: "the last 3 values", "which 5 qubits".

The claim check reads answers with the same words (a count that sizes a selection is no claim).
"""

from __future__ import annotations

import re

from copilot_core.domain.vocabulary import NUMBER_WORDS
from copilot_core.language.phrases import Phrases, tokens_of

# A number the question states, and what sizes or counts it: "the last 3 values", "the two most recent", "which 5
# qubits".  The claim check reads answers with the same words (a count that sizes a selection is no claim).
STATED_NUMBER = re.compile(rf"(?<![\w.])(\d+|{'|'.join(NUMBER_WORDS)})(?![\w.])", re.I)
SELECTION_BEFORE = re.compile(r"\b(?:last|latest|most recent|newest|recent|past|previous|first|top|bottom)\s+$", re.I)
SELECTION_AFTER = re.compile(r"^\s+(?:most recent|latest|newest|last|recent|previous)\b", re.I)
COUNT_NOUNS = {"qubit": "qubits", "qb": "qubits", "coupling": "couplings",
               "pair": "couplings", "task": "tasks", "failure": "tasks",
               "run": "runs", "execution": "runs", "calibration": "runs", "result": "values", "point": "values",
               "value": "values", "measurement": "values"}
NOUN_AFTER = re.compile(rf"^\s+(?:[\w*-]+\s+){{0,3}}?({'|'.join(COUNT_NOUNS)})s?\b", re.I)
# Counts written in words the count patterns do not read ("half a dozen", "a dozen", "a few", "twelve"): the size of
# a selection they mean.  The parse reads "top N" and "the N lowest" on the question with these written as digits.
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
# Numbers from eleven to ninety-nine written in words ("twelve", "sixty-one" is "sixty one" to a phrase row),
# the compound ones first so "sixty one" is read whole.
NUMBER_PHRASES: dict[str, int] = {
    **{f"{tens} {unit}": n + u for tens, n in _TENS.items() for unit, u in NUMBER_WORDS.items() if u < 10},
    "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17,
    "eighteen": 18, "nineteen": 19, **_TENS}
COUNT_PHRASES: dict[str, int] = {
    "half a dozen": 6, "a dozen": 12, "dozen": 12, "a few": 3, "a couple of": 2, "a couple": 2, "couple of": 2,
    "a handful of": 5, "a handful": 5, **NUMBER_PHRASES}
_COUNT_WORDS = Phrases("|".join(COUNT_PHRASES))


def counts_as_digits(text: str) -> str:
    """``text`` with every count written in words the count patterns do not read ("half a dozen", "a few", "twelve")
    written as its digits, padded with spaces so positions stay: "the worst half a dozen" sizes a ranking as "6" does."""
    out, last = list(text), -1
    for start, end in _COUNT_WORDS.find(text):
        if start >= last:
            digits = str(COUNT_PHRASES[" ".join(t[2] for t in tokens_of(text[start:end]))])
            out[start:end], last = list(digits.ljust(end - start)), end
    return "".join(out)
