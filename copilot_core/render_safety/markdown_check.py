"""The second look at rewritten markdown: parsed again as a browser's renderer will read it.

The rewrite in ``markdown.py`` is meant to produce markdown that loads nothing; this module does not trust
that.  The output is rendered once more, by another implementation (cmark-gfm: CommonMark + GFM tables,
strikethrough and footnotes, as Streamlit's renderer reads them; raw HTML written as a marker), and must hold
no image, no raw HTML, no link off the app and no text a renderer would turn into a link by itself (a URL,
``www.`` host or e-mail address outside code): every tag must be one on the short list plain markdown
produces.  When it is not, the answer is shown as plain text in a code block instead.
"""

from __future__ import annotations

import re
from functools import lru_cache
from urllib.parse import unquote, urlsplit

from copilot_core.render_safety.gfm_html import render

_LINK = re.compile(r'<a href="([^"<>]*)">')
# Code as the renderer writes it (its text holds no "<"; anything else stays in the prose that is searched).
_CODE = re.compile(r"<pre><code[^>]*>[^<]*</code></pre>|<code>[^<]*</code>")
# A "<" that opens no tag cmark-gfm writes for plain markdown (it writes "<" in text, code and attributes as an
# entity, so every "<" opens a tag): searched for in one C-speed pass, the names grouped by their first letter so
# that a tag is told apart in a few steps.  A link whose target plainly stays in the app (a path, query or anchor
# without whitespace, backslash, entity or percent escape) passes inside the search; any other link stops it and
# is judged by ``is_app_link``.
_NOT_PLAIN_TAG = re.compile(
    r'<(?!(?:/(?:t[dhr]|p|li|code|strong|em|table|thead|tbody|ul|ol|pre|blockquote|del|h[1-6]|a)'
    r'|t(?:[dh](?: align="(?:right|left|center)")?|r|able|head|body)|p|li|code(?: class="language-[^"<>]*")?'
    r'|strong|em|ul|ol(?: start="\d+")?|pre|blockquote|del|h[1-6]|br /|hr /'
    r'|a href="(?:/(?!/)|[?#])[^"<>\\\s&%]*")>)')
# What GFM (and Streamlit's renderer, even when the punctuation is escaped) links by itself: a scheme before
# "://" (searched from each "://", read backwards: the run of scheme characters before it holds a letter),
# a "www." host after anything but a letter or digit ("a_www." too), an e-mail address (searched from each "@").
_SCHEME_RUN_BACKWARDS = re.compile(r"(?i)[a-z0-9+.\-]*?[a-z]")
_WWW = re.compile(r"(?i)(?<![a-z0-9])www\.")
_EMAIL_AFTER_AT = re.compile(r"@[\w\-]+\.[\w\-]")
_EMAIL_BEFORE_AT = re.compile(r"[\w.+\-]")
_TAG = re.compile(r"<[^>]*>")
_FENCE_CHARS = re.compile(r"`+|~+")


@lru_cache(maxsize=1024)
def is_app_link(href: str) -> bool:
    """True for a link into this app: a path on the same origin, a query or an anchor; nothing else.  The
    target must be one as written and once percent-decoded (``/%2F%2Fhost``, ``/%5Chost`` are refused)."""
    return _plain_app_link(href) and ("%" not in href or _plain_app_link(unquote(href)))


def _plain_app_link(href: str) -> bool:
    href = href.strip()
    if not href or any(c in href for c in "\\\n\r\t") or href.startswith("//"):
        return False
    if not href.startswith(("/", "?", "#")):
        return False
    parts = urlsplit(href)
    return not parts.scheme and not parts.netloc


def unhtml(text: str) -> str:
    """Text as written, from the renderers' HTML (which escape exactly these characters; ``'`` only in a link)."""
    if "&" not in text:
        return text
    return (text.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"').replace("&#x27;", "'")
            .replace("&amp;", "&"))


def autolinkable(text: str) -> bool:
    """True if a renderer could turn some of ``text`` into a link by itself (a URL, ``www.`` host or e-mail
    address): the same as searching ``(?i)[a-z][a-z0-9+.-]*://|(?<![a-z0-9])www\\.|[\\w.+-]@[\\w-]+\\.[\\w-]``, but
    started only where such text can be, so a long answer costs a few C-speed scans."""
    if "://" in text and any(_SCHEME_RUN_BACKWARDS.match(part[::-1]) for part in text.split("://")[:-1]):
        return True
    if _has_www(text) and _WWW.search(text):
        return True
    if "@" in text:
        for found in _EMAIL_AFTER_AT.finditer(text):
            if found.start() and _EMAIL_BEFORE_AT.match(text, found.start() - 1):
                return True
    return False


def _only_plain_tags(html: str) -> bool:
    """True if every "<" in the renderer's ``html`` opens a tag it writes for plain markdown or a link into the
    app.  Each distinct link is judged once: an answer repeats the same few many times."""
    seen: set[str] = set()
    pos = 0
    while (found := _NOT_PLAIN_TAG.search(html, pos)) is not None:
        link = _LINK.match(html, found.start())
        if link is None:
            return False
        if (href := link.group(1)) not in seen:
            if not is_app_link(unhtml(href)):
                return False
            seen.add(href)
        pos = link.end()
    return True


def _has_www(text: str) -> bool:
    """``"www." in text.lower()``, lowering only text that holds a "w." in either case, as UTF-8 bytes (ASCII
    only: no other character lowers to "w" or ".")."""
    return ("w." in text or "W." in text) and b"www." in text.encode("utf-8", "surrogatepass").lower()


def loads_nothing(markdown: str) -> bool:
    """True if ``markdown``, rendered, holds no image, raw HTML, outside link or auto-linkable text."""
    html = render(markdown)
    if not _only_plain_tags(html):
        return False  # raw HTML, an image, an outside link, or a tag written in a way the renderer does not
    if "://" not in html and "@" not in html and not _has_www(html):
        return True
    # Tags out first ("https:/<em>/</em>x" reads as a URL too), entities after: a "<" the text holds must not
    # swallow what follows it ("\\<https://host\\>" shows a URL a renderer links).
    return not autolinkable(unhtml(_TAG.sub("", _CODE.sub(" ", html))))


def plain_text(text: str) -> str:
    """``text`` as a code block: shown exactly as written, nothing in it read as markup or linked."""
    longest = max((len(m) for m in _FENCE_CHARS.findall(text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}text\n{text.rstrip()}\n{fence}"
