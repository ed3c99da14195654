"""A QDash task named loosely in a question ("T1 check tasks", "the ZX90 interleaved-benchmarking ones failed",
"Ramsey check"): the words written right before a task noun, read as the one task of the catalogue they mean
(:func:`~copilot_core.domain.task_names.task_meant`); the tool reads them again against the chip's own names."""

from __future__ import annotations

from copilot_core.domain.task_names import KNOWN_TASKS, known_part, task_key, task_meant
from copilot_core.language.phrases import tokens_of

_NOUNS = frozenset({"task", "tasks", "check", "checks", "experiment", "experiments", "routine", "routines", "ones"})
_FAILED_NOUNS = frozenset({"calibration", "calibrations", "run", "runs", "failure", "failures", "fails", "result",
                           "results"})
_JOINING = frozenset({"check", "create"})  # part of a name written loosely, naming no task alone
# words of a family or kind of tasks ("1Q tasks", "qubit checks", "ZX90 calibrations"): never one task alone
_FAMILY = frozenset({"qubit", "1q", "2q", "gate", "readout", "coupling", "two", "single", "one", "zx90", "cz", "cr"})


_AFTER_SPACED = _NOUNS | _FAILED_NOUNS | frozenset({"result", "results", "history", "ran", "fail", "failed"})


def spaced_task_name(tokens: list[str]) -> str | None:
    """A task's name written apart ("check t2 echo results", "CHECK_T1 failed"): "check"/"create" and the name's
    other words, in order, then a word about results; the catalogue task whose name they spell, in any case."""
    for i, word in enumerate(tokens):
        if word not in _JOINING:
            continue
        j = i + 1
        while j < len(tokens) and known_part(tokens[j]):
            j += 1
        if j > i + 1 and j < len(tokens) and tokens[j] in _AFTER_SPACED:
            same = [n for n in KNOWN_TASKS if task_key(n) == "".join(tokens[i:j])]
            if len(same) == 1:
                return same[0]
    return None


def task_spelled(written: str) -> str:
    """A task name written in another case or with its words apart ("CHECK_T1", "checkt1") as the catalogue spells
    it (CheckT1); as written when it spells no catalogue task."""
    same = [n for n in KNOWN_TASKS if task_key(n) == task_key(written)]
    return same[0] if len(same) == 1 else written


def loose_task_name(text: str, failing: bool) -> str | None:
    """The task the words before a task noun mean, else None; ``failing``: the question is about failures, so
    "T1 calibrations failed" and "Ramsey failures" name a task too."""
    tokens = [w for _, _, w in tokens_of(text)]
    if (spaced := spaced_task_name(tokens)) is not None:
        return spaced
    whole = next((n for w in tokens if (n := task_spelled(w)) in KNOWN_TASKS), None)  # "READOUTCLASSIFICATION"
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
