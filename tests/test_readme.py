"""What the README says about the code, checked against the code, so that a count, a command or a link cannot go
stale: a newcomer reads the README first and should be able to trust every line of it."""

from __future__ import annotations

import re
import tomllib

from copilot_core.tools.registry import TOOLS
from tests.conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _table(after: str) -> list[list[str]]:
    """The rows (cells) of the first table after the heading ``after``, header and rule left out."""
    section = README[README.index(after):]
    rows = []
    for line in section.splitlines()[1:]:
        if line.startswith("|"):
            rows.append([cell.strip() for cell in line.strip("|").split("|")])
        elif rows:
            break
    return rows[2:]


def test_the_readme_is_read_in_ten_minutes():
    assert len(README.splitlines()) <= 300


def test_the_tool_count_is_the_registrys():
    counts = [int(n) for n in re.findall(r"(\d+) read-only tools", README)]
    assert counts, "the README names the number of tools"
    assert set(counts) == {len(TOOLS)}


def test_the_page_table_lists_every_page():
    rows = _table("## Pages")
    assert len(rows) == len(list((ROOT / "pages").glob("*.py")))


def test_every_make_target_named_exists():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    targets = set(re.findall(r"^([a-z][\w-]*):", makefile, re.M))
    named = set(re.findall(r"`make ([a-z][\w-]*)", README)) | set(re.findall(r"^make ([a-z][\w-]*)", README, re.M))
    assert named and named <= targets, f"not in the Makefile: {named - targets}"


def test_every_file_and_bench_named_exists():
    paths = set(re.findall(r"`((?:bench|deploy|docs|scripts|\.ci)/[\w./-]+\.\w+)`", README))
    paths |= set(re.findall(r"\]\(((?:docs)/[\w./-]+)(?:#[\w-]+)?\)", README))
    assert paths
    missing = sorted(p for p in paths if not (ROOT / p).exists())
    assert missing == []


def test_every_docs_anchor_is_a_heading_there():
    for path, anchor in re.findall(r"\]\((docs/[\w./-]+\.md)#([\w-]+)\)", README):
        headings = re.findall(r"^#+ (.+)$", (ROOT / path).read_text(encoding="utf-8"), re.M)
        assert anchor in {_slug(h) for h in headings}, f"{path}#{anchor}"


def test_every_setting_in_the_table_is_read_by_the_app():
    code = "\n".join(p.read_text(encoding="utf-8") for folder in ("copilot_core", "ui")
                     for p in (ROOT / folder).rglob("*.py"))
    keys = {key for row in _table("## Configuration") for key in re.findall(r"`\[?([A-Z_a-z]+)\]?`", row[0])}
    assert len(keys) >= 15
    unread = sorted(key for key in keys if f'"{key}"' not in code)
    assert unread == []


def test_the_test_tiers_are_the_markers_pytest_knows():
    markers = {line.split(":")[0].strip(' "') for line in
               tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]["markers"]}
    named = {m for row in _table("## Tests") for m in re.findall(r"`(\w+)`", row[1])}
    assert named and named <= markers
    assert {"e2e", "real_llm", "slow", "mongo_plan"} <= named


def test_every_cli_command_shown_exists():
    cli = (ROOT / "copilot_core" / "__main__.py").read_text(encoding="utf-8")
    commands = set(re.findall(r"python -m copilot_core (\w+)", README))
    assert commands and all(f'add_parser("{c}"' in cli for c in commands)


def test_no_figure_is_left_to_fill_in():
    assert not re.search(r"\b[A-Z]+(?:_[A-Z]+)+_FIGURE\b|TODO|TBD", README)
