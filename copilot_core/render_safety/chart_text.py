"""Chart text as plotly.js reads it: the few bare tags it styles with, every other ``<`` made text.

plotly.js splits every label, title, hover and table text on ``<[^<>]*>`` and turns the pieces into SVG:
``<a href>`` becomes a link, ``<span style>`` carries CSS, and hover/text templates are filled in with
``meta``, ``customdata`` and ``text`` values *before* that split, so two harmless pieces can assemble a tag.
Every string is therefore made safe on its own: its tags are only ``<b> <i> <em> <br> <sub> <sup>`` (and the
hover-box ``<extra>``) without attributes, and any other ``<`` becomes ``&lt;`` (shown as ``<``, never a
tag).  A ``<`` in a piece is then always followed, inside that same piece, by a complete allowed tag, and
concatenating pieces cannot change that, so no assembled text opens any other tag.
"""

from __future__ import annotations

import re

from copilot_core.render_safety.addresses import scrub_addresses

_TAG = re.compile(r"<[^<>]*>")  # plotly.js svg_text_utils SPLIT_TAGS
MAX_TEXT_CHARS = 20_000  # one string (each regex pass over it holds the interpreter: keep that short)
MAX_TAGS = 200  # tags in one string: each <br> is a line, each style tag a nested tspan
MAX_TAG_DEPTH = 8
_ALLOWED_TAG = re.compile(r"(?i)</?(?:b|i|em|sub|sup|extra)>|<br\s*/?>")
_OPEN = re.compile(r"<(?![^<>]*>)")  # a "<" that no ">" closes before the next "<"
_INVISIBLE = re.compile(r"[\s\x00-\x1f\x7f\u00ad\u200b-\u200f\u2028\u2029\u2060-\u2064\ufeff]+")
# A scheme is any run of scheme characters before ``://``, matched from the start of its run only (the inner
# look-behind), so a long run is scanned once: linear.  The first character is matched before the look-behind so
# the engine's fast scan for a first character still applies.
_URLISH = re.compile(r"(?i)[a-z0-9+.\-](?<=(?<![a-z0-9+.\-])[a-z0-9+.\-])[a-z0-9+.\-]*:(?://|\\\\)"
                     r"|(?:javascript|vbscript):|^//")
_IMAGE = re.compile(r"data:image/(?:png|jpeg|jpg|gif|webp);base64,[A-Za-z0-9+/]*={0,2}")
_FAMILY = re.compile(r"[A-Za-z0-9 ,'\"\-_.]{1,200}")
_PATH = re.compile(r"[MLHVCSQTAZmlhvcsqtaz0-9 .,eE+\-]{0,20000}")


class ChartTextError(ValueError):
    """The text cannot be shown in a chart; the message says what to change."""


def chart_text(text: str, where: str) -> str:
    """``text`` with only bare allowed tags; other ``<`` escaped.  Tags with attributes or unknown names are
    refused (a ``<a href>`` means the chart was meant to link somewhere), as is URL-shaped text.  Memory
    addresses are cut (``addresses``)."""
    if len(text) > MAX_TEXT_CHARS:
        raise ChartTextError(f"{where}: chart text is {len(text):,} characters; the limit is {MAX_TEXT_CHARS:,}")
    text = scrub_addresses(text)
    if "<" in text:
        tags = _TAG.findall(text)
        if len(tags) > MAX_TAGS:
            raise ChartTextError(f"{where}: chart text holds {len(tags):,} tags or line breaks; the limit is {MAX_TAGS}")
        depth = 0
        for tag in tags:
            if not _ALLOWED_TAG.fullmatch(tag):
                raise ChartTextError(f"{where}: chart text may only use <b> <i> <em> <br> <sub> <sup> without "
                                     f"attributes, not {tag[:60]!r} (write '<' as '&lt;' to show it)")
            if tag[1] == "/":
                depth = max(depth - 1, 0)
            elif tag[1:3].lower() != "br":
                depth += 1
                if depth > MAX_TAG_DEPTH:
                    raise ChartTextError(f"{where}: chart text nests style tags more than {MAX_TAG_DEPTH} deep")
        text = _OPEN.sub("&lt;", text)
    if ":" in text or "//" in text:
        visible = _INVISIBLE.sub("", text)
        # every URL shape _URLISH finds holds "//", "\\" or "script:": a date or a ratio skips the search
        if ("//" in visible or "\\\\" in visible or "script:" in visible.lower()) and _URLISH.search(visible):
            raise ChartTextError(f"{where}: chart text may not hold URLs or scripts (a chart links to nothing)")
    return text


def image_source(text: str, where: str) -> str:
    """An image embedded as base64 PNG/JPEG/GIF/WebP: the browser loads nothing for it."""
    if not _IMAGE.fullmatch(text):
        raise ChartTextError(f"{where}: images must be embedded data:image/png|jpeg|gif|webp;base64 URIs, "
                             "not links or other formats")
    return text


def font_family(text: str, where: str) -> str:
    """A CSS font-family list: names, quotes and commas only (no url(), image-set() or escapes)."""
    if not _FAMILY.fullmatch(text):
        raise ChartTextError(f"{where}: a font family may hold only font names, quotes and commas")
    return text


def svg_path(text: str, where: str) -> str:
    """An SVG path: commands and numbers only."""
    if not _PATH.fullmatch(text):
        raise ChartTextError(f"{where}: a shape path may hold only SVG path commands and numbers")
    return text
