"""Tool results in fewer tokens for a small model: repeated rows as one header and value arrays.

A CPU-served small model reads every token of a tool result before it writes a word (about 70 tokens/s on two
cores), and JSON rows repeat their keys on every row.  :func:`tabulate` rewrites the model's copy only: a list of
flat objects, or an object of flat objects (``{"t1": {"value": ..., "unit": ...}, ...}``), becomes
``{"columns": [...], "rows": [[...], ...]}``; a column with one value in every row is said once in ``"every_row"``;
keys whose value is null are left out.  Every value (numbers, units, times, ids) survives; only the layout
changes, and the result is valid JSON again.  The page and the claim check keep reading the full result.
"""

from __future__ import annotations

import json

from copilot_core.tools.compact import to_model_json

_MIN_ROWS = 2  # a table of one row saves nothing
_Scalar = (str, int, float, bool)


def _flat(value: object) -> bool:
    """An object whose values are all scalars or null (a row)."""
    return isinstance(value, dict) and bool(value) and all(v is None or isinstance(v, _Scalar) for v in value.values())


def _rows(items: list[object]) -> bool:
    """Two or more flat objects that mostly share their keys (rows of one table, not unrelated objects)."""
    if len(items) < _MIN_ROWS or not all(_flat(item) for item in items):
        return False
    keys = [set(item) for item in items if isinstance(item, dict)]
    return 2 * len(set.intersection(*keys)) >= len(set.union(*keys))


def _table(rows: list[dict], first: tuple[str, list[str]] | None = None) -> dict:
    """Rows -> columns + value arrays; ``first``: a leading column (its name and values) taken from outside the rows
    (an object's keys)."""
    columns = list(dict.fromkeys(key for row in rows for key in row))
    constant = {c: rows[0].get(c) for c in columns
                if len(rows) > _MIN_ROWS and all(c in row and row[c] == rows[0][c] for row in rows)}
    varying = [c for c in columns if c not in constant]
    head = [first[0]] if first else []
    body = [([first[1][i]] if first else []) + [row.get(c) for c in varying] for i, row in enumerate(rows)]
    table: dict[str, object] = {"columns": head + varying, "rows": body}
    every = {c: v for c, v in constant.items() if v is not None}
    if every:
        table["every_row"] = every
    return table


def tabulate(obj: object) -> object:
    """``obj`` with its repeated rows as tables and its null fields left out (see the module docstring)."""
    if isinstance(obj, list):
        return _table(obj) if _rows(obj) else [tabulate(item) for item in obj]
    if not isinstance(obj, dict):
        return obj
    values = list(obj.values())
    if _rows(values) and not any(k.startswith("_") for k in obj):
        keys = [str(k) for k in obj]
        return _table(values, ("qid" if all(k.isdigit() for k in keys) else "name", keys))
    return {k: tabulate(v) for k, v in obj.items() if v is not None}


def tabular_json(text: str) -> str:
    """A tool result's JSON text with :func:`tabulate` applied; text that is not JSON is returned unchanged."""
    try:
        parsed = json.loads(text)
    except ValueError:
        return text
    return to_model_json(tabulate(parsed))


def untabulate(obj: object) -> object:
    """:func:`tabulate` undone as far as a reader of values needs: every ``{"columns", "rows"}`` table becomes its
    rows again (objects, the ``every_row`` fields in each), so each value is read with its column's name."""
    if isinstance(obj, list):
        return [untabulate(item) for item in obj]
    if not isinstance(obj, dict):
        return obj
    columns, rows = obj.get("columns"), obj.get("rows")
    if isinstance(columns, list) and isinstance(rows, list) and all(isinstance(c, str) for c in columns) \
            and all(isinstance(r, list) and len(r) == len(columns) for r in rows) \
            and set(obj) <= {"columns", "rows", "every_row"}:
        every = obj.get("every_row")
        shared = every if isinstance(every, dict) else {}
        return [{**shared, **dict(zip(columns, row))} for row in rows]
    return {k: untabulate(v) for k, v in obj.items()}

