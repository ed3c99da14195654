"""Where a text's sentences are, and whether a name stands in it as a word: one way for every reader of answers.

The claim check, its marks and the qubit review cut an answer into the same sentences: a sentence ends at a line
break, or after an end mark (``.``, ``!``, ``?`` and, unless a caller leaves it out, ``;``) followed by spaces or
tabs and more text.
"""

from __future__ import annotations

from collections.abc import Sequence

END_MARKS = ".!?;"


def sentences(text: str, ends: str = END_MARKS) -> list[tuple[int, int]]:
    """``(start, end)`` of each sentence of ``text`` that holds more than spaces (the spaces between are in none)."""
    out: list[tuple[int, int]] = []
    start = i = 0
    while i < len(text):
        if text[i] == "\n":
            out.append((start, i))
            start = i = i + 1
            continue
        if text[i] in " \t" and i and text[i - 1] in ends and not _list_marker(text[start:i]):
            j = i
            while j < len(text) and text[j] in " \t":
                j += 1
            if j < len(text) and not text[j].isspace():
                out.append((start, i))
                start = j
            i = j
            continue
        i += 1
    out.append((start, len(text)))
    return [(s, e) for s, e in out if text[s:e].strip()]


def _list_marker(head: str) -> bool:
    """``head`` is only an ordered list's marker ("1.", "  12)"): the item it opens is the sentence, not the marker."""
    body = head.strip()
    return len(body) > 1 and body[:-1].isdigit() and body[-1] in ".)"


def own_sentences(text: str, quoted: Sequence[tuple[int, int]] = ()) -> list[tuple[int, int]]:
    """The sentences of ``text`` outside every ``quoted`` span (a tool's sentence quoted whole is the tool's claim,
    not the writer's)."""
    return [(s, e) for s, e in sentences(text) if not any(a <= s and e <= b for a, b in quoted)]


def split_after_marks(line: str, marks: str = ".!?") -> list[str]:
    """``line`` cut at every run of whitespace that follows one of ``marks`` (the run belongs to no piece; a run at
    the end leaves an empty last piece)."""
    pieces: list[str] = []
    start = i = 0
    while i < len(line):
        if line[i].isspace() and i and line[i - 1] in marks:
            pieces.append(line[start:i])
            while i < len(line) and line[i].isspace():
                i += 1
            start = i
            continue
        i += 1
    return [*pieces, line[start:]]


def sentence_at(text: str, position: int, ends: str = END_MARKS) -> tuple[int, int]:
    """The sentence of ``text`` that holds ``position`` (an empty span there when it is between sentences)."""
    return next(((s, e) for s, e in sentences(text, ends) if s <= position <= e), (position, position))


def written_alone(name: str, text: str) -> bool:
    """``name`` occurs in ``text`` with no ASCII letter or digit touching it on either side ("T1" in "T1 is low",
    not in "T10"; "CheckRabi" in "CheckRabi failed")."""
    start = text.find(name)
    while start >= 0 and name:
        end = start + len(name)
        if not _alnum(text[start - 1:start]) and not _alnum(text[end:end + 1]):
            return True
        start = text.find(name, start + 1)
    return False


def _alnum(char: str) -> bool:
    return char.isascii() and char.isalnum()


_QUOTES = {"'": "'", '"': '"', "`": "`", "‘": "’", "“": "”"}


def quoted_names(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of each run of words between quote marks (a panel titled 'T1 watch'): a name talked about,
    not what is asked.  An apostrophe inside a word ("it's") opens nothing."""
    out: list[tuple[int, int]] = []
    i = 0
    while i < len(text):
        close = _QUOTES.get(text[i])
        opens = close is not None and (i == 0 or not text[i - 1].isalnum()) and text[i + 1:i + 2].strip() != ""
        end = text.find(close, i + 1) if opens and close else -1
        while end > 0 and text[end + 1:end + 2].isalnum():  # "it's" inside the quote
            end = text.find(close, end + 1) if close else -1
        if end > i + 1:
            out.append((i, end + 1))
            i = end + 1
            continue
        i += 1
    return out
