"""Independent checks of rendered markdown: parsed by markdown-it-py (a different implementation from the
one render safety uses), so a mistake in our serialiser cannot hide itself."""

from __future__ import annotations

import re

from markdown_it import MarkdownIt

_PARSER = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])


def problems(markdown: str) -> list[str]:
    """Everything in ``markdown`` a browser could load or follow off the app (empty list: safe)."""
    found = []
    for token in _PARSER.parse(markdown):
        for child in [token, *(token.children or [])]:
            if child.type == "image":
                found.append(f"image {child.attrs.get('src')}")
            if child.type in ("html_inline", "html_block"):
                found.append(f"html {child.content[:60]}")
            if child.type == "link_open":
                href = str(child.attrs.get("href", ""))
                if not href.startswith(("/", "?", "#")) or href.startswith("//"):
                    found.append(f"link {href[:80]}")
    # Streamlit's renderer turns URLs into links even when their punctuation is backslash-escaped (seen in
    # Chromium), so outside code the unescaped text must hold no URL, www. host or e-mail address at all.
    prose = " ".join("".join(c.content for c in t.children or [] if c.type in ("text", "text_special"))
                     for t in _PARSER.parse(markdown) if t.type == "inline")
    for literal in re.findall(r"(?i)(?:https?://|www\.)[\w-]", prose):  # GFM autolink literals
        found.append(f"autolinked {literal!r}")
    if re.search(r"\w@\w", prose):  # a GFM e-mail autolink literal
        found.append("unescaped '@'")
    return found


def readable(markdown: str) -> str:
    """The words a reader sees, whitespace collapsed."""
    words = []
    for token in _PARSER.parse(markdown):
        for child in token.children or []:
            if child.type in ("text", "code_inline", "text_special"):
                words.append(child.content)
            elif child.type in ("softbreak", "hardbreak"):
                words.append(" ")
        if token.type in ("fence", "code_block"):
            words.append(token.content)
    return " ".join("".join(words).split())


def app_links(markdown: str) -> list[str]:
    return [str(c.attrs.get("href")) for t in _PARSER.parse(markdown) for c in (t.children or [])
            if c.type == "link_open"]
