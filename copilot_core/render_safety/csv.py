"""CSV downloads a spreadsheet opens safely: a text cell (or column name) that starts with ``= + - @`` (or a
tab / carriage return, which some spreadsheets skip before reading a formula) is prefixed with ``'``, so
``=HYPERLINK("https://host/?"&A1)`` from a database row is shown as text, never evaluated.  Numbers stay
numbers (a negative value is a number column, not text).

The file is comma-separated, but a spreadsheet in a locale whose list separator is ``;`` (or one told to split on
tabs) cuts a line at those instead, so ``a;=HYPERLINK(...)`` would become two cells, the second a formula.  Every
text cell is therefore quoted (a reader that honours quotes keeps it one cell, whatever its separator), and a
formula start right after any of ``, ; tab`` inside a text cell gets its ``'`` too, for a reader that does not."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd

import csv
import re

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
SEPARATORS = (",", ";", "\t")
# A cell a separator starts inside a text cell: after it, any quotes or spaces, then a formula start.
_INNER_FORMULA = re.compile(r'(?<=.)([,;\t]["\' ]*)(?=[=+\-@\r])', re.DOTALL)


def neutral_cell(value: object) -> object:
    """``value`` unchanged unless it is text a spreadsheet would read as a formula, at its start or at the start
    of any piece a ``, ;`` or tab separator would cut it into."""
    if not isinstance(value, str):
        return value
    shown = _INNER_FORMULA.sub(lambda m: m.group(1) + "'", value) if any(s in value for s in SEPARATORS) else value
    return "'" + shown if shown.startswith(FORMULA_STARTS) else shown


def csv_bytes(frame: pd.DataFrame) -> bytes:
    """The one CSV writer of every download: ``frame`` without its index, formula cells neutralised."""
    from pandas.api.types import is_object_dtype, is_string_dtype

    shown = frame.rename(columns=lambda c: neutral_cell(str(c)))
    text_columns = [c for c in shown.columns if is_object_dtype(shown[c]) or is_string_dtype(shown[c])]
    if text_columns:
        shown = shown.copy()
        for column in text_columns:
            shown[column] = shown[column].map(neutral_cell)
    return shown.to_csv(index=False, lineterminator="\r\n",  # RFC 4180; a CR in a cell is quoted
                        quoting=csv.QUOTE_NONNUMERIC).encode("utf-8")
