"""Plain-word rows: a phrase table matched on a text's tokens, no pattern of its own (:class:`Phrases`).

The question's word table (:mod:`~copilot_core.language.question_words`) and the answer's are written in it, so a
new wording is a row of words, never a regex.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass

TOKEN = re.compile(r"\w+")


@dataclass(frozen=True)
class Phrases:
    """A row of plain words, matched on the question's tokens (no pattern of its own).

    ``spec``: phrases separated by ``|``, each a run of tokens separated by spaces; a token is one or more
    choices separated by ``/``; ``fail*`` is any word starting "fail", ``check+`` one starting "check" and longer,
    ``#`` a number, ``*`` any word, ``...`` any words, and a trailing ``?`` makes the token optional.  Words match
    whatever separates them ("two-qubit" is "two qubit").
    """

    spec: str

    @functools.cached_property
    def phrases(self) -> tuple[tuple[tuple[tuple[str, ...], bool], ...], ...]:
        return tuple(tuple((tuple(t.rstrip("?").split("/")), t.endswith("?")) for t in phrase.split())
                     for phrase in self.spec.split("|"))

    def find(self, text: str) -> list[tuple[int, int]]:
        """``(start, end)`` in ``text`` of every place a phrase of the row starts, leftmost first."""
        tokens = tokens_of(text)
        return [(tokens[a][0], tokens[b - 1][1]) for a, b in self.spans(tokens)]

    def search(self, text: str) -> tuple[int, int] | None:
        """The first place a phrase of the row is in ``text``, else None (a pattern's ``search``, for a phrase row)."""
        found = self.find(text)
        return found[0] if found else None

    def spans(self, tokens: Sequence[tuple[int, int, str]]) -> list[tuple[int, int]]:
        """``(first token, end token)`` of every place a phrase starts, leftmost first (one per start: the first
        phrase of the row that matches there)."""
        out = []
        for i in range(len(tokens)):
            for phrase in self.phrases:
                end = _match(phrase, tokens, i)
                if end is not None and end > i:
                    out.append((i, end))
                    break
        return out


def tokens_of(text: str) -> list[tuple[int, int, str]]:
    """The words of ``text``, lower-case, with their places."""
    return [(m.start(), m.end(), m.group(0).lower()) for m in TOKEN.finditer(text)]


def _word(choice: str, word: str) -> bool:
    if choice == "#":
        return word.isdigit()
    if choice.endswith("+"):
        return word.startswith(choice[:-1]) and len(word) > len(choice) - 1
    if choice.endswith("*"):
        return word.startswith(choice[:-1])
    return word == choice


def _match(phrase: Sequence[tuple[tuple[str, ...], bool]], tokens: Sequence[tuple[int, int, str]],
           i: int) -> int | None:
    """The token index right after ``phrase`` matched from token ``i``, else None."""
    if not phrase:
        return i
    choices, optional = phrase[0]
    if choices == ("...",):  # any words, then the rest
        return next((end for j in range(i, len(tokens) + 1) if (end := _match(phrase[1:], tokens, j)) is not None),
                    None)
    if i < len(tokens) and any(_word(c, tokens[i][2]) for c in choices):
        end = _match(phrase[1:], tokens, i + 1)
        if end is not None:
            return end
    return _match(phrase[1:], tokens, i) if optional else None


Row = re.Pattern[str] | Phrases
