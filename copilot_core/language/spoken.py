"""Metric names as a dictated question spells them ("t one", "tee two echo", "T 2 star", "zed x ninety", "x one
eighty", "ket zero", a readout of "state one") read as the names people type ("T1", "T2 echo", "T2 star",
"ZX90", "X180", "|0>", "one state"), and a chip id with its letters apart ("144 q v 2") as one id, so one
reading of the metric table serves both registers.

A letter and a number apart are a metric's name only as a whole sequence of the table below (a lone "t" or "x" is
left alone), and a "t" after an apostrophe ("don't") is never one.  The text is rewritten before any other reading
(positions are those of the rewritten text), and a name keeps the words next to it adjacent ("ZX90 fidelity").
"""

from __future__ import annotations

from copilot_core.language.chores import without_chores
from copilot_core.language.foreign import in_english
from copilot_core.language.layout import as_prose
from copilot_core.language.pasted import without_pasted
from copilot_core.language.phrases import tokens_of
from copilot_core.language.spelled import value_at

Token = tuple[int, int, str]

_ONE, _TWO = ("one", "1"), ("two", "2")
_ONES, _TWOS = ("ones", "1s"), ("twos", "2s")  # plural: "tee ones"
_NINETY = ("ninety", "90")
_T, _X, _Z, _C = ("t", "tee"), ("x", "ex"), ("z", "zed", "zee"), ("c", "cee", "see")
# (token choices in order, the name they spell); longest first, so "zed x ninety" is ZX90, never z + X90.
SPOKEN: tuple[tuple[tuple[tuple[str, ...], ...], str], ...] = (
    ((_Z, _X, _NINETY), "ZX90"),
    ((("zx",), _NINETY), "ZX90"),
    ((_X, _ONE, ("eighty",)), "X180"),
    ((_X, ("180",)), "X180"),
    ((_X, _NINETY), "X90"),
    ((_T, _ONE), "T1"),
    ((_T, _TWO), "T2"),
    ((_T, _ONES), "T1"),
    ((_T, _TWOS), "T2"),
    ((_C, _Z), "CZ"),
    ((("ket",), ("zero", "0")), "|0>"),
    ((("ket",), _ONE), "|1>"),
)
_STATES = frozenset({"zero", "one", "0", "1"})
_APOSTROPHES = ("'", "’")


def _spoken_at(tokens: list[Token], i: int, text: str) -> tuple[str, int] | None:
    """The name the tokens from ``i`` spell and the token index after them, else None."""
    if text[tokens[i][0] - 1:tokens[i][0]] in _APOSTROPHES:
        return None
    for words, name in SPOKEN:
        end = i + len(words)
        if end <= len(tokens) and all(tokens[i + k][2] in choices for k, choices in enumerate(words)):
            return name, end
    return None


def _chip_at(tokens: list[Token], i: int, text: str) -> tuple[str, int] | None:
    """A chip id dictated with its letters apart from token ``i`` ("144 q v 2", "one forty
    four Q V two", "twenty q v one"): the id and the token index after it, else None."""
    size = value_at(tokens, i, text)
    if size is None:
        return None
    digits, j = size
    more = value_at(tokens, j, text) if j < len(tokens) and len(digits) == 1 else None
    if more is not None and len(more[0]) == 2:  # "one forty four": 144
        digits, j = digits + more[0], more[1]
    if j + 2 >= len(tokens) or (tokens[j][2], tokens[j + 1][2]) != ("q", "v"):
        return None
    version = value_at(tokens, j + 2, text)
    return None if version is None or "." in digits + version[0] else (f"{digits}Qv{version[0]}", version[1])


def spoken_as_written(text: str) -> str:
    """``text`` with every metric name spelled out in dictation written as typed; "state one" becomes "one state",
    the order the metric table reads; a chip id spelled apart is one id."""
    tokens = tokens_of(text)
    out: list[str] = []
    kept, i = 0, 0  # the text up to ``kept`` is in ``out``
    while i < len(tokens):
        found = _spoken_at(tokens, i, text) or _chip_at(tokens, i, text)
        if found is None and tokens[i][2] == "state" and i + 1 < len(tokens) and tokens[i + 1][2] in _STATES and \
                (i + 2 == len(tokens) or tokens[i + 2][2] != "state"):
            found = (f"{tokens[i + 1][2]} state", i + 2)
        if found is None:
            i += 1
            continue
        name, j = found
        out += [text[kept:tokens[i][0]], name]
        kept, i = tokens[j - 1][1], j
    return "".join(out) + text[kept:]


def as_typed(text: str) -> str:
    """The question as the parse reads it: lab words of other languages in English
    (:func:`~copilot_core.language.foreign.in_english`), spoken names written as typed, pasted log lines before the
    ask left out (:func:`~copilot_core.language.pasted.without_pasted`), chores around the ask left out
    (:func:`~copilot_core.language.chores.without_chores`), a structured block as prose
    (:func:`~copilot_core.language.layout.as_prose`)."""
    return as_prose(without_chores(without_pasted(spoken_as_written(in_english(text)))))
