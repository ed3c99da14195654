"""Model and database markdown, rebuilt from a CommonMark token stream into markdown that loads nothing.

A compromised model (or a prompt injection planted in a calibration note) can write markdown whose images
the viewer's browser fetches as soon as the answer renders, links that carry data away, raw HTML and
``javascript:`` URLs.  Regexes over markdown miss nesting, reference definitions and entities, so the text
is parsed by markdown-it (markdown-it-pyrs: the CommonMark-compliant Rust port of the parser behind
markdown-it-py, ~10× faster) and written out again from its syntax tree:

- every piece of text is re-emitted with all ASCII punctuation backslash-escaped, so it can only ever be
  text (no emoji or colour directives, math, HTML or entities survive the escape); URLs, ``www.`` hosts and
  e-mail addresses become inline code, since Streamlit's renderer links them even when escaped;
- images become ``[image removed: alt — url]``;
- links are kept only when they point into the app itself (``/page``, ``?query``, ``#anchor``); any other
  target is shown as its label followed by the URL as inline code;
- raw HTML is shown as the text it is; code stays code behind a fence longer than anything inside it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache
from urllib.parse import urlsplit

from markdown_it_pyrs import MarkdownIt, Node

MAX_SHOWN_URL = 200
_ESCAPES = {c: "\\" + chr(c) for c in range(0x21, 0x7F) if not chr(c).isalnum()}  # all ASCII punctuation
# Bidi overrides/isolates and zero-width characters: they disguise text, never carry meaning in an answer.
_INVISIBLE = re.compile(r"[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_URLISH = re.compile(r"(?i)\b[a-z][a-z0-9+.\-]{0,30}://\S*|\b(?:mailto|javascript|data|vbscript|file|tel|sms):\S+"
                     r"|\bwww\.\S+|[\w.+\-]+@[\w\-]+(?:\.[\w\-]+)+")
_FENCE_INFO = re.compile(r"[^A-Za-z0-9_+-]")
_BACKTICKS = re.compile(r"`+")
_TILDES = re.compile(r"~+")
_INLINE_TYPES = frozenset({"text", "text_special", "strong", "em", "strikethrough", "link", "autolink", "image",
                           "code_inline", "html_inline", "softbreak", "hardbreak"})

_PARSER = MarkdownIt("commonmark").enable_many(["table", "strikethrough"])


def escape(text: str) -> str:
    """Plain text that every markdown renderer shows as typed."""
    return text.translate(_ESCAPES)


def unescape(markdown: str) -> str:
    """The text a reader sees for escaped plain text (used by readability checks)."""
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", markdown)


def clean_text(text: str) -> str:
    """No control, zero-width or bidi-override characters (kept: newline, tab, carriage return)."""
    return _INVISIBLE.sub("", _CONTROL.sub(" ", text))


def is_app_link(href: str) -> bool:
    """True for a link into this app: a path on the same origin, a query or an anchor; nothing else."""
    href = href.strip()
    if not href or any(c in href for c in "\\\n\r\t") or href.startswith("//"):
        return False
    if not href.startswith(("/", "?", "#")):
        return False
    parts = urlsplit(href)
    return not parts.scheme and not parts.netloc


def _meta(node: Node, key: str) -> str:
    value = node.meta.get(key)
    return value if isinstance(value, str) else ""


def _plain(node: Node) -> str:
    """The words of a node as a reader sees them (alt text, link labels)."""
    if node.name in ("text", "text_special", "html_inline"):
        return _meta(node, "content")
    if node.name in ("softbreak", "hardbreak"):
        return " "
    return "".join(_plain(child) for child in node.children)


def _shown_url(url: str) -> str:
    """A URL as visible text that no renderer turns into a link: inline code."""
    url = clean_text(url).replace("\n", " ")
    return _code_span(url if len(url) <= MAX_SHOWN_URL else url[:MAX_SHOWN_URL] + "…")


def _code_span(content: str) -> str:
    content = content.replace("\n", " ")
    ticks = "`" * (max((len(m) for m in _BACKTICKS.findall(content)), default=0) + 1)
    pad = " " if content.startswith("`") or content.endswith("`") or not content.strip() else ""
    return f"{ticks}{pad}{content}{pad}{ticks}"


def _inline(nodes: Sequence[Node]) -> str:
    return "".join(_INLINE.get(node.name, _inline_fallback)(node) for node in nodes)


def _inline_fallback(node: Node) -> str:
    return _inline(node.children) if node.children else escape(clean_text(_meta(node, "content")))


def _link(node: Node) -> str:
    href = _meta(node, "url")
    label = _inline(node.children)
    if node.name == "link" and is_app_link(href):
        target = re.sub(r"[\s<>]", lambda m: f"%{ord(m.group()):02X}", href)
        return f"[{label or escape(href)}](<{target}>)"
    words = _plain(node).strip()
    if node.name == "autolink" or not words or words == href.strip():
        return _shown_url(words or href)
    return f"{label} ({_shown_url(href)})"


def _image(node: Node) -> str:
    alt = clean_text(_plain(node)).replace("\n", " ").strip()
    src = _meta(node, "url")
    described = escape(alt[:MAX_SHOWN_URL]) or "no description"
    return f"\\[image removed: {described} — {_shown_url(src)}\\]" if src else f"\\[image removed: {described}\\]"


def _plain_text(text: str) -> str:
    """Escaped text; anything a renderer would turn into a link by itself (GFM autolink literals, which
    Streamlit's renderer finds even in escaped text) is shown as inline code instead."""
    if (":" not in text and "@" not in text and "www." not in text.lower()) or not _URLISH.search(text):
        return text.translate(_ESCAPES)
    out, last = [], 0
    for found in _URLISH.finditer(text):
        out += [text[last:found.start()].translate(_ESCAPES), _code_span(found.group())]
        last = found.end()
    out.append(text[last:].translate(_ESCAPES))
    return "".join(out)


def _text(node: Node) -> str:
    return _plain_text(node.meta.get("content") or "")  # the input was cleaned before parsing


_INLINE: dict[str, Callable[[Node], str]] = {
    "text": _text,
    "text_special": lambda n: _plain_text(clean_text(_meta(n, "content"))),  # entities decode to any character
    "softbreak": lambda n: "\n",
    "hardbreak": lambda n: "\\\n",
    "code_inline": lambda n: _code_span(clean_text(_plain(n))),
    "html_inline": _text,
    "strong": lambda n: f"**{_inline(n.children)}**",
    "em": lambda n: f"*{_inline(n.children)}*",
    "strikethrough": lambda n: f"~~{_inline(n.children)}~~",
    "link": _link,
    "autolink": _link,
    "image": _image,
}


# ------------------------------------------------------------------ blocks
def _indent(lines: list[str], first: str, rest: str) -> list[str]:
    return [(first if i == 0 else rest) + line if line else "" for i, line in enumerate(lines)] or [first.rstrip()]


def _fence(node: Node) -> list[str]:
    content = clean_text(_meta(node, "content")).rstrip("\n")
    longest = max((len(m) for m in _BACKTICKS.findall(content) + _TILDES.findall(content)), default=0)
    fence = "`" * max(3, longest + 1)
    info = _FENCE_INFO.sub("", _meta(node, "info").split(" ")[0])[:30]
    return [fence + info, *content.split("\n"), fence]


def _item(node: Node) -> tuple[list[str], bool]:
    """An item's lines, and whether it is loose (its paragraphs are separated by blank lines)."""
    loose = any(child.name == "paragraph" for child in node.children)
    groups: list[list[Node]] = []
    for child in node.children:
        if child.name in _INLINE_TYPES and groups and groups[-1][0].name in _INLINE_TYPES:
            groups[-1].append(child)
        else:
            groups.append([child])
    out: list[str] = []
    for group in groups:
        lines = _inline(group).split("\n") if group[0].name in _INLINE_TYPES else _block(group[0])
        if out and loose:
            out.append("")
        out += lines
    return out, loose


def _list(node: Node) -> list[str]:
    ordered = node.name == "ordered_list"
    start = node.meta.get("start")
    number = start if isinstance(start, int) else 1
    items = [_item(child) for child in node.children]
    loose = any(is_loose for _, is_loose in items)
    out: list[str] = []
    for lines, _ in items:
        marker = f"{number}. " if ordered else "- "
        number += 1
        if out and loose:
            out.append("")
        out += _indent(lines, marker, " " * len(marker))
    return out


_ALIGN = {"left": ":---", "center": ":---:", "right": "---:"}


def _table(node: Node) -> list[str]:
    rows = [[_inline(cell.children).replace("\n", " ") for cell in row.children]
            for section in node.children for row in section.children]
    if not rows:
        return []
    width = max(len(r) for r in rows)
    aligns = node.meta.get("alignments")
    marks = [_ALIGN.get(a, "---") for a in (aligns if isinstance(aligns, list) else [])][:width]
    marks += ["---"] * (width - len(marks))
    rows = [r + [""] * (width - len(r)) for r in rows]
    return ["| " + " | ".join(rows[0]) + " |", "| " + " | ".join(marks) + " |",
            *("| " + " | ".join(r) + " |" for r in rows[1:])]


def _block(node: Node) -> list[str]:
    kind = node.name
    if kind in ("paragraph", "tcell"):
        return _inline(node.children).split("\n")
    if kind in ("heading", "lheading"):
        level = node.meta.get("level")
        level = max(1, min(6, level if isinstance(level, int) else 1))
        return ["#" * level + " " + _inline(node.children).replace("\n", " ")]
    if kind == "blockquote":
        return _indent(_blocks(node.children), "> ", "> ")
    if kind in ("bullet_list", "ordered_list"):
        return _list(node)
    if kind in ("fence", "code_block"):
        return _fence(node)
    if kind == "hr":
        return ["---"]
    if kind == "table":
        return _table(node)
    if kind == "definition":  # reference definitions: the links that use them already carry the URL
        return []
    if kind == "html_block":
        return [_plain_text(line) for line in clean_text(_meta(node, "content")).rstrip("\n").split("\n")]
    if kind in _INLINE_TYPES:
        return _inline([node]).split("\n")
    return _blocks(node.children) if node.children else [escape(clean_text(_meta(node, "content")))]


def _blocks(nodes: Sequence[Node]) -> list[str]:
    out: list[str] = []
    for node in nodes:
        lines = _block(node)
        if not lines:
            continue
        if out:
            out.append("")
        out += lines
    return out


@lru_cache(maxsize=512)
def _rebuilt(text: str) -> str:
    return "\n".join(_blocks(_PARSER.tree(clean_text(text)).children))


def safe_markdown(text: str) -> str:
    """Markdown that renders the same words as ``text`` but shows no image, raw HTML or outside link.
    Results are remembered: Streamlit redraws every message of a chat on each rerun."""
    return _rebuilt(str(text))
