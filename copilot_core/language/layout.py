"""A question written as a structured block (a JSON or Python dict, YAML or TOML lines, a URL query, a markdown
table, a dash list) read as the prose the other readers take.

A filter pasted as ``{"t1_us": {"gt": 40}, "readout_fidelity": {"gte": 0.9}}`` holds its conditions in keys: an
operator written as a key ("gt", "$lte", "min:", "max =", "t1__gte=") is the comparison word it stands for, the
key's underscores are spaces ("t2_echo"), and the brackets, quotes, pipes and assignment marks are room between
words.  A bracket of two subjects under a pair's key (``"pair": ["Q3", "Q4"]``, ``edge = [3, 4]``) is one coupling
written "3-4"; any other bracket of two is "a and b" (two qubits, or the two ends of "between").  A dash or star
opening a line is a list's marker, never a coupling's dash; a chip id spelled apart ("64-Q-v3") is the id.
"""

from __future__ import annotations

from copilot_core.domain.metrics import CATALOGUE
from copilot_core.language.pairs import COUPLING_NOUNS

# An operator written as a key -> the comparison words the limit reader takes.
OPERATORS = {
    **{w: "above" for w in ("gt", "above", "over", "greater", "exceeds")},
    **{w: "at least" for w in ("gte", "ge", "geq", "min", "minimum", "atleast")},
    **{w: "below" for w in ("lt", "below", "under", "less")},
    **{w: "at most" for w in ("lte", "le", "leq", "max", "maximum", "atmost")},
}
_SIGNS = {">": "above", ">=": "at least", "≥": "at least", "<": "below", "<=": "at most", "≤": "at most"}
_ROOM = str.maketrans({c: " " for c in "{}[]\"`$;"})
_KEY_END = frozenset(":=")
_STRUCTURE = frozenset("{}[]$=")
_MARKERS = ("- ", "* ", "• ", "+ ")


def _structured(text: str) -> bool:
    """A block, not a sentence: a bracket, dollar or assignment mark, or an operator written as a key
    ("min:", "t1_max:")."""
    return bool(_STRUCTURE & set(text)) or any(
        _operator(piece.replace(",", " ").split()[-1]) for piece in text.split(":")[:-1] if piece.split())


def _operator(key: str) -> bool:
    return key.strip("\"'$").replace(".", "_").split("_")[-1].lower() in OPERATORS


def _key(key: str) -> str:
    """A key as words: its operator as the comparison words ("t1__gte": "t1 at least"), underscores as spaces."""
    bare = key.strip(" \"'")
    if bare in _SIGNS:
        return _SIGNS[bare]
    parts = [p for p in bare.lstrip("$").replace(".", "_").split("_") if p]
    if parts and parts[-1].lower() in OPERATORS:
        parts[-1] = OPERATORS[parts[-1].lower()]
    return " ".join(parts)


def _keys(line: str) -> str:
    """Each ``key:`` / ``key =`` of a line written as words (a colon between digits is a time's, kept; "<=", ">="
    and "==" are signs, no assignment)."""
    out: list[str] = []
    last = 0
    for i, c in enumerate(line):
        if c not in _KEY_END or line[i - 1:i].isdigit() and line[i + 1:i + 2].isdigit() or \
                line[i + 1:i + 2] == "=" or i > 0 and line[i - 1] in "<>!=":
            continue
        j = i
        while j > last and line[j - 1] == " ":
            j -= 1
        k = j
        while k > last and (line[k - 1].isalnum() or line[k - 1] in "_$.'\"<>"):
            k -= 1
        out.append(line[last:k] + _key(line[k:j]) + " ")
        last = i + 1
    return "".join(out) + line[last:]


def _bracket(inside: str, key: str) -> str:
    """A bracket's items as words: two under a pair's key are one coupling ("3-4"), any other two "a and b", one
    in parentheses."""
    items = [i.strip(" \"'") for i in inside.split(",") if i.strip(" \"'")]
    if len(items) == 1:
        return f" ({items[0]}) "  # one item, as a unit asked ("[MHz]") is written: an aside
    if len(items) != 2:
        return " " + ", ".join(items) + " "
    paired = {w.rstrip("s") for w in key.lower().replace("_", " ").split()} & {n.rstrip("s") for n in COUPLING_NOUNS}
    return f" {items[0]}-{items[1]} " if paired else f" {items[0]} and {items[1]} "


def _brackets(text: str) -> str:
    """Every innermost ``[...]`` / ``(...)``-free bracket of items read by :func:`_bracket`, with the key before it."""
    out = ""
    rest = text
    while "[" in rest and "]" in rest[rest.index("["):]:
        start = rest.index("[")
        end = rest.index("]", start)
        if "[" in rest[start + 1:end]:
            start = rest.rindex("[", 0, end)
        before = rest[:start]
        key = before.rstrip(" :=\"'").rsplit("{", 1)[-1].rsplit(",", 1)[-1].rsplit("\n", 1)[-1].replace('"', " ")
        out += before + _bracket(rest[start + 1:end], key)
        rest = rest[end + 1:]
    return out + rest


def _unmarked(line: str) -> str:
    """A line without its list marker ("- Q3": "Q3"), a table's rule ("|---|---|": nothing), a row's bars or a CSV
    row's commas."""
    bare = line.lstrip()
    if bare.startswith(_MARKERS):
        return line[:len(line) - len(bare)] + "  " + bare[2:]
    if bare and set(bare) <= set("|-:+ "):
        return ""
    cells = [c.strip() for c in line.split(",")]
    if len(cells) >= 3 and any(c in _SIGNS or c.lower() in OPERATORS for c in cells):
        return " ".join(_SIGNS.get(c, OPERATORS.get(c.lower(), c.replace("_", " "))) for c in cells)  # "t1,gt,40"
    for mark in (",", "|"):  # a header's column names, split by commas or bars
        cells = [c.strip() for c in line.split(mark)]
        if len(cells) >= 2 and any(_snake(c) for c in cells):
            return f"{mark} ".join(_column_words(c) if _snake(c) else c for c in cells)
    return line.replace("|", " ") if bare.startswith("|") else line  # a table's row ("|0>" is a state's name)


def _snake(cell: str) -> bool:
    """A column's name in snake case ("x90_mean_pct"); never a chip id written apart ("144_Qv2")."""
    parts = cell.split("_")
    return len(parts) >= 2 and all(p.isalnum() for p in parts) and not parts[0].isdigit()


def _column_words(cell: str) -> str:
    """A column's name as words, a metric's own name kept whole ("iqr_readout_fidelity_0_pct": "iqr
    readout_fidelity_0 pct"), so its statistic and unit are read beside the metric."""
    kept = sorted((name for name in CATALOGUE if name in cell), key=len, reverse=True)[:1]
    if not kept:
        return cell.replace("_", " ")
    before, _, after = cell.partition(kept[0])
    return " ".join(p for p in (before.replace("_", " ").strip(), kept[0], after.replace("_", " ").strip()) if p)


def _chip_joined(text: str) -> str:
    """A chip id written apart by dashes or underscores ("64-Q-v3", "144_Qv2") written whole."""
    words = text.split(" ")
    for i, w in enumerate(words):
        core = w.strip(",.;:?!()")
        parts = core.replace("_", "-").split("-")
        tail = "".join(parts[1:]).lower()
        if 2 <= len(parts) <= 3 and parts[0].isdigit() and tail.startswith("qv") and tail[2:].isdigit() and \
                all(parts):
            words[i] = w.replace(core, "".join(parts))
    return " ".join(words)


def as_prose(text: str) -> str:
    """``text`` as the prose the readers take (see the module's docstring); a sentence is returned as it is but
    for its list markers and a chip id spelled apart."""
    lines = "\n".join(_unmarked(line) for line in text.split("\n"))
    lines = _chip_joined(lines)
    if not _structured(lines):
        return lines
    lines = "\n".join(_keys(line) for line in _brackets(lines).split("\n"))
    return lines.translate(_ROOM).replace("&", " and ").replace("_", " ")
