"""Database text marked by where it came from, not by field name.

While a tool runs, every repository read is shown to a :class:`DatabaseText` (``data/observed.py``), which keeps
pieces of every text the database handed back, values and keys alike, whatever the field was meant to hold (a
date or number stored as text, a parameter name, a unit, a stored path).  The tool's result is then walked once
before the model reads it (:func:`mark_for_model`): a string holding any such piece, however the tool built it (a
field copied, a sentence written around it, an error message), becomes ``{"untrusted_text": ...}``, and a key
holding one is moved into a marked entry.  Identifier tokens (``64Qv3``, ``20260224-001``) pass as themselves,
as ``from_database`` passes them, and text too short to say anything (under ``MIN_PIECE`` characters) is not
looked for.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping

from copilot_core.tools.compact import _TOKEN, one_line

MIN_PIECE = 6  # shorter runs of database text carry no sentence ("µs", "GHz", "a b")
PIECE = 24  # the first characters of each run: a capped copy (clean_text(x, 40)) still holds them
UNTRUSTED_KEYS = ("untrusted_text", "untrusted_data")
_SPLIT = re.compile(r"""['"\\{}]""")  # where a repr or JSON copy of the text could differ from the text


class DatabaseText:
    """Pieces of the text the database returned during one turn's tool calls."""

    def __init__(self) -> None:
        self._pieces: set[str] = set()
        self._pattern: re.Pattern[str] | None = None

    def __call__(self, result: object) -> None:
        self.record(result)

    def record(self, value: object, depth: int = 0) -> None:
        if depth > 12:
            return
        if isinstance(value, str):
            self._add(value)
        elif isinstance(value, Mapping):
            for key, item in value.items():
                self.record(key, depth + 1)
                self.record(item, depth + 1)
        elif isinstance(value, (list, tuple, set, frozenset)):
            for item in value:
                self.record(item, depth + 1)
        elif type(value).__name__ == "DataFrame":
            self._frame(value, depth)

    def _frame(self, frame: object, depth: int) -> None:
        columns = getattr(frame, "columns", ())
        self.record([str(c) for c in columns], depth + 1)
        for column in columns:
            series = frame[column]  # type: ignore[index]
            if str(getattr(series, "dtype", "")) in ("object", "string", "str"):
                self.record(list(series.dropna().unique()), depth + 1)

    def _add(self, text: str) -> None:
        if len(text) < MIN_PIECE or _TOKEN.match(text):
            return
        for part in _SPLIT.split(one_line(text, 10_000)):
            part = part.strip()
            if len(part) >= MIN_PIECE and not _TOKEN.match(part):
                if (piece := part[:PIECE]) not in self._pieces:
                    self._pieces.add(piece)
                    self._pattern = None

    def holds(self, text: str) -> bool:
        """True if ``text`` (whitespace runs read as one space) holds a piece of database text."""
        if not self._pieces or len(text) < MIN_PIECE:
            return False
        if self._pattern is None:
            self._pattern = re.compile("|".join(map(re.escape, sorted(self._pieces, key=len, reverse=True))))
        return self._pattern.search(" ".join(text.split())) is not None


def mark_for_model(value: object, text: DatabaseText, depth: int = 0) -> object:
    """``value`` with every string and key that holds database text marked (see the module docstring)."""
    if depth > 40:
        return value
    if isinstance(value, str):
        if _TOKEN.match(value) or not text.holds(value):
            return value
        return {"untrusted_text": one_line(value, 500)}
    if isinstance(value, Mapping):
        out: dict[str, object] = {}
        for n, (key, item) in enumerate(value.items()):
            if key in UNTRUSTED_KEYS:
                out[key] = item
            elif isinstance(key, str) and (_TOKEN.match(key) or not text.holds(key)):
                out[key] = mark_for_model(item, text, depth + 1)
            else:
                out[f"untrusted_key_{n}"] = {"untrusted_text": one_line(str(key), 120),
                                             "value": mark_for_model(item, text, depth + 1)}
        return out
    if isinstance(value, (list, tuple)):
        return [mark_for_model(item, text, depth + 1) for item in value]
    return value


_MARKED = re.compile(r'\{"untrusted_text": "(?:[^"\\]|\\.)*"\}')


def mark_line(line: str, text: DatabaseText) -> str:
    """A line of prompt text: as it is when all database text in it is already inside ``{"untrusted_text": ...}``
    marks, else the whole line as one marked item (it cannot open a section or a role line either way)."""
    if not text.holds(_MARKED.sub(" ", line)):
        return line
    return "- " + json.dumps({"untrusted_text": one_line(line, 600)}, ensure_ascii=False)
