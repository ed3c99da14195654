"""One reader for a grammar that holds several written forms in one pattern.

A grammar is one compiled pattern made of one optional look-ahead per form, ``(?:(?=(?P<form>…))|)``, each form's
own groups named ``form__group``.  It matches (empty) at every position of a text, and there tells which forms
start there and how far each reaches; :func:`found` reads one form's matches left to right without overlap, just
as that form's own pattern would be found on its own.  Callers choose the form, so forms that differ on purpose
(a review's dates have no seconds, an answer's dates may) stay distinct in one grammar.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Found:
    """One match of a form: where it is, what it says, and its groups (names without the form's prefix)."""

    start: int
    end: int
    text: str
    groups: dict[str, str | None]


@functools.cache
def _groups(grammar: re.Pattern[str], form: str) -> tuple[tuple[str, str], ...]:
    """``(name without the prefix, name)`` of each group of ``form``."""
    prefix = f"{form}__"
    return tuple((name[len(prefix):], name) for name in grammar.groupindex if name.startswith(prefix))


def _found(m: re.Match[str], form: str) -> Found:
    groups = {short: m.group(name) for short, name in _groups(m.re, form)}
    return Found(m.start(form), m.end(form), m.group(form), groups)


def found_each(grammar: re.Pattern[str], text: str, forms: Sequence[str]) -> dict[str, list[Found]]:
    """For each of ``forms``, its matches in ``text`` left to right, the next looked for where the last one ended
    (one pass over the text for all of them)."""
    out: dict[str, list[Found]] = {form: [] for form in forms}
    after = dict.fromkeys(forms, 0)
    for m in grammar.finditer(text):
        for form in forms:
            if m.start() >= after[form] and m.group(form) is not None:
                out[form].append(_found(m, form))
                after[form] = max(m.end(form), m.start() + 1)
    return out


def found(grammar: re.Pattern[str], text: str, form: str) -> list[Found]:
    """Every match of ``form`` in ``text``, left to right; the next is looked for where the last one ended."""
    return found_each(grammar, text, (form,))[form]


def found_at(grammar: re.Pattern[str], text: str, form: str, position: int = 0) -> Found | None:
    """The match of ``form`` that starts at ``position`` of ``text``, or None."""
    m = grammar.match(text, position)
    return _found(m, form) if m is not None and m.group(form) is not None else None


def blanked(text: str, spans: list[Found]) -> str:
    """``text`` with each match replaced by as many spaces (positions kept)."""
    chars = list(text)
    for f in spans:
        chars[f.start:f.end] = " " * (f.end - f.start)
    return "".join(chars)
