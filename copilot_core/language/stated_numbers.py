"""The words that say what a number in a question sizes or counts: "the last 3 values", "which 5 qubits".

The claim check reads answers with the same words (a count that sizes a selection is no claim).
"""

from __future__ import annotations

import re

from copilot_core.domain.vocabulary import NUMBER_WORDS

# A number the question states, and what sizes or counts it: "the last 3 values", "the two most recent", "which 5
# qubits".  The claim check reads answers with the same words (a count that sizes a selection is no claim).
STATED_NUMBER = re.compile(rf"(?<![\w.])(\d+|{'|'.join(NUMBER_WORDS)})(?![\w.])", re.I)
SELECTION_BEFORE = re.compile(r"\b(?:last|latest|most recent|newest|recent|past|previous|first|top|bottom)\s+$", re.I)
SELECTION_AFTER = re.compile(r"^\s+(?:most recent|latest|newest|last|recent|previous)\b", re.I)
COUNT_NOUNS = {"qubit": "qubits", "coupling": "couplings", "pair": "couplings", "task": "tasks", "failure": "tasks",
               "run": "runs", "execution": "runs", "calibration": "runs", "result": "values", "point": "values",
               "value": "values", "measurement": "values"}
NOUN_AFTER = re.compile(rf"^\s+(?:[\w*-]+\s+){{0,3}}?({'|'.join(COUNT_NOUNS)})s?\b", re.I)
