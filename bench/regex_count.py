"""How many regular expressions the copilot holds, and how long its largest modules are (issue 37's structure
targets: at most 40 in the agent's code, no agent module over 400 lines).

Two counts, printed side by side for ``copilot_core/agent`` and all of ``copilot_core``:

- *written*: ``re.compile`` plus inline ``re.search/match/fullmatch/findall/finditer/sub/subn/split`` calls, plus
  ``words(...)`` calls (the vocabulary's helper that compiles one), as written in the source;
- *held*: distinct compiled patterns reachable from the agent modules' globals after import (a comprehension that
  compiles a table counts each pattern; a pattern imported by several modules counts once).

    .venv/bin/python bench/regex_count.py [--root DIR]   # DIR: another checkout to compare (default: this one)
    .venv/bin/python bench/regex_count.py --base REF      # before (REF, via git archive) and after, by module
"""

from __future__ import annotations

import argparse
import subprocess
import tempfile
import importlib
import importlib.util
import pkgutil
import re
import sys
from pathlib import Path
from types import ModuleType

WRITTEN = re.compile(r"\bre\.(?:compile|search|match|fullmatch|findall|finditer|sub|subn|split)\(|(?<![.\w])words\(")


# The copilot's packages (the agent was one package before they were split out of it).
COPILOT = ("answer", "language", "llm", "routing", "checking", "agent", "review")


def written_file(path: Path) -> int:
    return len(WRITTEN.findall(path.read_text()))


def written(folder: Path) -> int:
    return sum(written_file(p) for p in folder.rglob("*.py"))


def _patterns(obj: object, seen: set[int], out: set[int], depth: int = 0) -> None:
    if id(obj) in seen or depth > 4:
        return
    seen.add(id(obj))
    if isinstance(obj, re.Pattern):
        out.add(id(obj))
    elif isinstance(obj, dict):
        for value in obj.values():
            _patterns(value, seen, out, depth + 1)
    elif isinstance(obj, (tuple, list, set, frozenset)):
        for value in obj:
            _patterns(value, seen, out, depth + 1)


def held() -> int:
    found: set[int] = set()
    for package in COPILOT:
        if importlib.util.find_spec(f"copilot_core.{package}") is None:
            continue
        for info in pkgutil.iter_modules(importlib.import_module(f"copilot_core.{package}").__path__):
            module = importlib.import_module(f"copilot_core.{package}.{info.name}")
            for name, value in vars(module).items():
                if not name.startswith("__") and not isinstance(value, ModuleType):
                    _patterns(value, set(), found)
    return len(found)


def by_module(root: Path) -> dict[str, int]:
    """Written count per copilot module of the tree at ``root`` (modules with none left out)."""
    core = root / "copilot_core"
    files = [p for package in COPILOT for p in (core / package).glob("*.py")] or list((core / "agent").glob("*.py"))
    counts = {p.relative_to(core).as_posix(): written_file(p) for p in files}
    return {name: n for name, n in counts.items() if n}


def compare(base: str) -> None:
    """Before (``base``, a git ref of this checkout) and after (the working tree), side by side by module."""
    here = Path(__file__).resolve().parents[1]
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "-C", str(here), "archive", base], check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        before, after = by_module(Path(tmp)), by_module(here)
    print(f"{'module':34} {'before':>7} {'after':>7}")
    for name in sorted(set(before) | set(after), key=lambda n: (-before.get(n, 0), n)):
        print(f"{name:34} {before.get(name, 0):7} {after.get(name, 0):7}")
    print(f"{'copilot packages (' + base + ' -> working tree)':34} {sum(before.values()):7} {sum(after.values()):7}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[1])
    parser.add_argument("--base", help="a git ref: print its counts by module next to the working tree's")
    options = parser.parse_args()
    if options.base:
        compare(options.base)
        return
    root = options.root.resolve()
    sys.path.insert(0, str(root))
    core = root / "copilot_core"
    files = [p for package in COPILOT for p in (core / package).glob("*.py")] or list((core / "agent").glob("*.py"))
    print(f"{root}")
    print(f"  written in the copilot ({', '.join(COPILOT)}): {sum(written_file(p) for p in files)}   "
          f"in copilot_core: {written(core)}")
    print(f"  held by the copilot's modules after import: {held()}")
    longest = sorted(((len(p.read_text().splitlines()), p.relative_to(core).as_posix()) for p in files), reverse=True)
    print("  longest copilot modules: " + ", ".join(f"{name} {lines}" for lines, name in longest[:3]))


if __name__ == "__main__":
    main()
