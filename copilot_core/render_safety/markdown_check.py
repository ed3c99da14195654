"""The second look at rewritten markdown: parsed again as a browser's renderer will read it.

The rewrite in ``markdown.py`` is meant to produce markdown that loads nothing; this module does not trust
that.  The output is rendered once more (CommonMark + GFM tables and strikethrough, raw HTML *on*, as
Streamlit's renderer reads it) and must hold no image, no raw HTML, no link off the app and no text a
renderer would turn into a link by itself (a URL, ``www.`` host or e-mail address outside code).  When it
does, the answer is shown as plain text in a code block instead.
"""

from __future__ import annotations

import re
from functools import lru_cache
from urllib.parse import urlsplit

from markdown_it_pyrs import MarkdownIt

_RENDERER = MarkdownIt("commonmark").enable_many(["table", "strikethrough"])
# Every tag the renderer writes for markdown; any other tag in its output is raw HTML from the text.
_TAG = re.compile(r"<(/?)([a-z0-9]+)((?:\s[^<>]*)?)>")
_PLAIN_TAGS = frozenset({"p", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "ul", "ol", "li", "strong", "em",
                         "s", "del", "table", "thead", "tbody", "tr", "th", "td", "code", "pre", "br", "hr"})
_ALLOWED_ATTRS = re.compile(r'(?:\s(?:start="\d+"|style="text-align:(?:left|center|right)"|class="language-[^"<>]*"))*')
_HREF = re.compile(r'\shref="([^"]*)"')
_CODE = re.compile(r"<pre><code[^>]*>.*?</code></pre>|<code>.*?</code>", re.DOTALL)
# What GFM (and Streamlit's renderer, even when the punctuation is escaped) links by itself.
_AUTOLINKED = re.compile(r"(?i)[a-z][a-z0-9+.\-]*://|\bwww\.|[\w.+\-]@[\w\-]+\.[\w\-]")
_FENCE_CHARS = re.compile(r"`+|~+")


@lru_cache(maxsize=1024)
def is_app_link(href: str) -> bool:
    """True for a link into this app: a path on the same origin, a query or an anchor; nothing else."""
    href = href.strip()
    if not href or any(c in href for c in "\\\n\r\t") or href.startswith("//"):
        return False
    if not href.startswith(("/", "?", "#")):
        return False
    parts = urlsplit(href)
    return not parts.scheme and not parts.netloc


def _unhtml(text: str) -> str:
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"').replace("&amp;", "&")


def loads_nothing(markdown: str) -> bool:
    """True if ``markdown``, rendered, holds no image, raw HTML, outside link or auto-linkable text."""
    html = _RENDERER.render(markdown)
    for found in _TAG.finditer(html):
        closing, name, attrs = found.groups()
        attrs = attrs.rstrip().removesuffix("/").rstrip()
        if name == "a":
            href = _HREF.fullmatch(attrs) if not closing else None
            if not closing and (href is None or not is_app_link(_unhtml(href.group(1)))):
                return False
        elif name not in _PLAIN_TAGS or attrs and not _ALLOWED_ATTRS.fullmatch(attrs):
            return False
    if html.count("<") != len(_TAG.findall(html)):
        return False  # a "<" that is not one of the tags above
    prose = _CODE.sub(" ", html)
    if "&" in prose:
        prose = _unhtml(prose)
    return not _AUTOLINKED.search(re.sub(r"<[^>]*>", "", prose))  # "https:/<em>/</em>x" reads as a URL too


def plain_text(text: str) -> str:
    """``text`` as a code block: shown exactly as written, nothing in it read as markup or linked."""
    longest = max((len(m) for m in _FENCE_CHARS.findall(text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}text\n{text.rstrip()}\n{fence}"
