"""The copilot's packages stand on floors: a package imports only packages on lower floors, so shared types
live below whatever uses them and a reader can take the packages in order."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FLOORS = {
    "answer": 0, "language": 0,   # what an answer is; what a question says
    "llm": 1, "routing": 1,       # talking to a model; a parsed question to tool calls
    "checking": 2,                # claims against what the tools returned
    "agent": 3,                   # the turn: plan, loop, finish
    "review": 4,                  # the one-click review of a qubit, a kind of turn
}
# Layers above the copilot (the chat, the session, the pages): nothing in FLOORS may reach up to them.
ABOVE = ("copilot_core.chat", "copilot_core.session", "ui", "pages", "app")


def _imports(path: Path) -> list[str]:
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
        elif isinstance(node, ast.Import):
            names.extend(a.name for a in node.names)
    return names


def _package(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "copilot_core" and parts[1] in FLOORS else None


def _violations(root: Path = ROOT) -> list[str]:
    found = []
    for package, floor in FLOORS.items():
        for path in sorted((root / "copilot_core" / package).rglob("*.py")):
            for module in _imports(path):
                other = _package(module)
                where = f"{path.relative_to(root)} imports {module}"
                if other is not None and other != package and FLOORS[other] >= floor:
                    found.append(f"{where} (floor {FLOORS[other]} from floor {floor})")
                if module.startswith(ABOVE):
                    found.append(f"{where} (a layer above the copilot)")
    return found


def test_every_package_exists_and_holds_code():
    for package in FLOORS:
        modules = [p for p in (ROOT / "copilot_core" / package).glob("*.py") if p.name != "__init__.py"]
        assert modules, f"copilot_core/{package} holds no module"


def test_no_package_imports_one_on_its_own_floor_or_above():
    assert _violations() == []


@pytest.mark.parametrize("source, target", [("answer", "llm"), ("routing", "llm"), ("checking", "agent")])
def test_the_check_sees_an_upward_import(tmp_path, source, target):
    """The scan is only worth something if it finds a planted upward import (in a copy, not the tree)."""
    planted = tmp_path / "copilot_core" / source / "planted.py"
    planted.parent.mkdir(parents=True)
    planted.write_text(f"from copilot_core.{target} import x\nimport copilot_core.chat.state\n")
    assert _violations(tmp_path) == [
        f"copilot_core/{source}/planted.py imports copilot_core.{target} "
        f"(floor {FLOORS[target]} from floor {FLOORS[source]})",
        f"copilot_core/{source}/planted.py imports copilot_core.chat.state (a layer above the copilot)"]
