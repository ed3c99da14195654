"""A QDash task named loosely in a question ("T1 check tasks", "the ZX90 interleaved-benchmarking ones failed",
"Ramsey check"): the words written right before a task noun, read as the one task of the catalogue they mean
(:func:`~copilot_core.domain.task_names.task_meant`); the tool reads them again against the chip's own names."""

from __future__ import annotations

from copilot_core.domain.task_names import KNOWN_TASKS, known_part, task_meant
from copilot_core.language.phrases import tokens_of

_BY_CASE = {name.lower(): name for name in KNOWN_TASKS}
_NOUNS = frozenset({"task", "tasks", "check", "checks", "experiment", "experiments", "routine", "routines", "ones"})
_FAILED_NOUNS = frozenset({"calibration", "calibrations", "run", "runs", "failure", "failures", "fails"})
_JOINING = frozenset({"check", "create"})  # part of a name written loosely, naming no task alone
# words of a family or kind of tasks ("1Q tasks", "qubit checks", "ZX90 calibrations"): never one task alone
_FAMILY = frozenset({"qubit", "1q", "2q", "gate", "readout", "coupling", "two", "single", "one", "zx90", "cz", "cr"})


def loose_task_name(text: str, failing: bool) -> str | None:
    """The task the words before a task noun mean, else None; ``failing``: the question is about failures, so
    "T1 calibrations failed" and "Ramsey failures" name a task too."""
    tokens = [w for _, _, w in tokens_of(text)]
    whole = next((_BY_CASE[w] for w in tokens if w in _BY_CASE), None)  # "ReadoutClassification", any case
    if whole is not None:
        return whole
    nouns = _NOUNS | (_FAILED_NOUNS if failing else frozenset())
    for i, word in enumerate(tokens):
        if word not in nouns or i == 0:
            continue
        j = i
        while j > 0 and (known_part(tokens[j - 1]) or tokens[j - 1] in _JOINING):
            j -= 1
        written = tokens[j:i] + ([word] if word in _JOINING else [])
        if set(written) - _JOINING - _FAMILY and (meant := task_meant(written, KNOWN_TASKS)) is not None:
            return meant
    return None
