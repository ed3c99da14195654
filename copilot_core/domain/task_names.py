"""Which QDash task a loosely written task name means ("T1 check", "ZX90 interleaved-benchmarking", "Ramsey"):
a name's CamelCase parts, matched against the names a chip's results hold (the data layer's, never a fixed list)
or, in the question parse, the tasks the metric catalogue knows.

A written name means the one task whose parts hold every distinguishing word written ("check"/"create" and "task"
distinguish nothing) with the fewest parts left over; two at the same fit mean no one task, and the caller says so.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence

from copilot_core.domain.metrics import CATALOGUE

_FILLER = frozenset({"check", "create", "task", "tasks", "calibration", "calibrations", "experiment", "the"})
# words written for several parts of a name: "IRB" is interleaved randomized benchmarking
_SHORT = {"irb": ("interleaved", "randomized", "benchmarking"), "rb": ("randomized", "benchmarking"),
          "randomised": ("randomized",), "benchmark": ("benchmarking",), "benchmarks": ("benchmarking",)}
KNOWN_TASKS: tuple[str, ...] = tuple(sorted({m.task for m in CATALOGUE.values() if m.task}))


def name_parts(name: str) -> tuple[str, ...]:
    """A task name's words, lower case: ``CheckT2Echo`` -> check, t2, echo; ``ZX90Interleaved…`` -> zx90, …"""
    parts: list[str] = []
    for i, c in enumerate(name):
        before, after = name[i - 1:i], name[i + 1:i + 2]
        starts = not parts or not parts[-1] or c.isupper() and (before.islower() or after.islower()) or \
            c.isdigit() and before.islower()  # "Check|T1", "HPI|Pulse", "Check|1Q|Gate", "T|1" stays "T1"
        if not c.isalnum():
            parts.append("")
        elif starts:
            parts.append(c)
        else:
            parts[-1] += c
    return tuple(p.lower() for p in parts if p)


def _words(written: Sequence[str]) -> set[str]:
    out: set[str] = set()
    for word in written:
        out.update(_SHORT.get(word.lower(), (word.lower(),)))
    return out - _FILLER


def task_key(name: str) -> str:
    """A task name as two spellings of it share: lower case, no spaces, underscores or hyphens ("CHECK_T2_ECHO",
    "check t2 echo" and "CheckT2Echo": checkt2echo)."""
    return "".join(c for c in name.lower() if c.isalnum())


def nearest_tasks(written: str, names: Iterable[str], most: int = 3) -> list[str]:
    """The names of ``names`` nearest ``written`` as spelled (for a message naming the tasks that are)."""
    keys = {task_key(n): n for n in names}
    return [keys[k] for k in difflib.get_close_matches(task_key(written), list(keys), n=most, cutoff=0.5)]


def task_meant(written: Sequence[str], names: Iterable[str]) -> str | None:
    """The one name of ``names`` the words ``written`` mean, else None (no name holds them all, or two fit
    equally); a name written in any case or with spaces, underscores or hyphens is that name."""
    names = list(names)
    same = [n for n in names if task_key(n) == task_key("".join(written))]
    if len(same) == 1:
        return same[0]
    words = _words(written)
    if not words:
        return None
    fits = sorted((len(set(name_parts(n)) - _FILLER - words), n) for n in names
                  if words <= set(name_parts(n)))
    if not fits or len(fits) > 1 and fits[0][0] == fits[1][0]:
        return None
    return fits[0][1]


def known_part(word: str) -> bool:
    """A word that is part of some task the catalogue knows and names a task (not a filler word)."""
    w = word.lower()
    return w not in _FILLER and (w in _SHORT or any(w in name_parts(n) for n in KNOWN_TASKS))
