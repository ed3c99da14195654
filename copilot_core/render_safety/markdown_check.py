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
# Every tag the renderer writes for markdown without a link; any other "<" in its output is raw HTML or an image.
_PLAIN_TAG = re.compile(r'</?(?:p|h[1-6]|blockquote|ul|ol|li|strong|em|s|del|table|thead|tbody|tr|th|td|code|pre)>'
                        r'|<(?:br|hr) />|<ol start="\d+">|<t[hd] style="text-align:(?:left|center|right)">'
                        r'|<code class="language-[^"<>]*">|</a>')
_LINK = re.compile(r'<a href="([^"<>]*)">')
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
    rest = _PLAIN_TAG.sub("", html)
    if "<a" in rest:
        if not all(is_app_link(_unhtml(href)) for href in _LINK.findall(rest)):
            return False
        rest = _LINK.sub("", rest)
    if "<" in rest:
        return False  # raw HTML, an image, or a tag written in a way the renderer does not write
    if "://" not in html and "@" not in html and "www." not in html.lower():
        return True
    prose = _CODE.sub(" ", html)
    if "&" in prose:
        prose = _unhtml(prose)
    return not _AUTOLINKED.search(re.sub(r"<[^>]*>", "", prose))  # "https:/<em>/</em>x" reads as a URL too


def plain_text(text: str) -> str:
    """``text`` as a code block: shown exactly as written, nothing in it read as markup or linked."""
    longest = max((len(m) for m in _FENCE_CHARS.findall(text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}text\n{text.rstrip()}\n{fence}"
