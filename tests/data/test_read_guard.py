"""Every public read of the repository (and of the whole-run reader) turns driver errors into
``DatabaseUnavailable`` and shows its result to the database-text observer: its body is one
``with driver_errors(self):`` block whose every ``return`` hands back ``seen(...)``.  Checked on the source, so a
read added later without either fails here; and once through a real unreachable server."""

from __future__ import annotations

import ast
import inspect
import textwrap

import pytest

from copilot_core.data.connection import DatabaseUnavailable
from copilot_core.data.observed import observed
from copilot_core.data.reader import ScopedReader
from copilot_core.data.repository import CalibrationRepository
from copilot_core.data.runs import RunReader
from tests.data.conftest import CHIP, P1

NOT_READS = {"for_turn", "scope", "warm_up", "window_end"}  # no database read of their own


def _reader_classes() -> list[type]:
    classes = [c for c in CalibrationRepository.__mro__ if issubclass(c, ScopedReader)]
    return [*classes, RunReader]


def _public_methods() -> list[tuple[str, ast.FunctionDef]]:
    found = []
    for cls in _reader_classes():
        tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
        body = tree.body[0]
        assert isinstance(body, ast.ClassDef)
        for node in body.body:
            if isinstance(node, ast.FunctionDef) and not node.name.startswith("_") and node.name not in NOT_READS:
                found.append((f"{cls.__name__}.{node.name}", node))
    return found


def _returns(node: ast.AST) -> list[ast.Return]:
    out: list[ast.Return] = []
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        if isinstance(child, ast.Return):
            out.append(child)
        out.extend(_returns(child))
    return out


def _is_call(node: ast.AST | None, name: str) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name


def test_the_reads_are_found():
    names = {name for name, _ in _public_methods()}
    assert {"ChipReads.qubit_params", "ChipReads.chip_ids", "ScopedReader.ping", "WindowCounts.count_in_window",
            "RunReader.results"} <= names and len(names) >= 25


@pytest.mark.parametrize("name,fn", _public_methods(), ids=lambda x: x if isinstance(x, str) else "")
def test_every_public_read_is_one_guarded_block_returning_what_it_showed(name, fn):
    body = fn.body[1:] if ast.get_docstring(fn) is not None else fn.body
    assert len(body) == 1 and isinstance(body[0], ast.With), f"{name}: body is not one `with driver_errors(self):`"
    item = body[0].items[0].context_expr
    assert _is_call(item, "driver_errors") and isinstance(item, ast.Call) \
        and [a.id for a in item.args if isinstance(a, ast.Name)] == ["self"], name
    returns = _returns(fn)
    assert all(r.value is not None and _is_call(r.value, "seen") for r in returns), \
        f"{name}: a return does not hand back seen(...)"
    assert returns or name == "ScopedReader.ping", f"{name}: returns nothing"


def test_a_read_through_an_unreachable_server_says_so_naming_the_host():
    from pymongo import MongoClient

    client: MongoClient = MongoClient("mongodb://127.0.0.1:1/", serverSelectionTimeoutMS=200, connectTimeoutMS=200)
    try:
        repo = CalibrationRepository(client["qdash"])
        with pytest.raises(DatabaseUnavailable, match="127.0.0.1:1"):
            repo.chip_ids()
        with pytest.raises(DatabaseUnavailable, match="127.0.0.1:1"):
            RunReader(repo).executions_between(CHIP)
    finally:
        client.close()


def test_every_read_result_reaches_the_observer_nested_reads_too(contract_db):
    shown: list[object] = []
    repo = CalibrationRepository(contract_db, project_id=P1)
    with observed(shown.append):
        ids = repo.chip_ids()
        params = repo.qubit_params(CHIP, "0")
        names = repo.output_parameter_names(CHIP)  # reads every qubit's and coupling's data on the way
    assert shown[:2] == [ids, params] and shown[-1] == names and len(shown) == 5
